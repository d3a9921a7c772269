"""The real `Native` layer: UI Automation through comtypes, everything else through ctypes.

This is the only module of winactions that calls Windows. Each method is one documented
API call or a fixed sequence of them; every decision lives in the modules above it, which
the test suite runs against a fake of this class. It runs on the backend's COM thread
(`comthread.py`), which calls `init_com_thread` first.

Over 600 lines on purpose: it is the one module that calls Windows, so every ctypes and
comtypes declaration stays here, where the fake-driven tests never load it.
"""

from __future__ import annotations

import concurrent.futures
import ctypes
import queue
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from ctypes import wintypes
from typing import Any

import psutil
from PIL import Image, ImageChops

from winactions.backends.windows import sendinput
from winactions.backends.windows.native import (
    HIGH_INTEGRITY,
    ErrorKind,
    KeyInput,
    MouseInput,
    NativeError,
    NativeWindow,
    RawElement,
)
from winactions.backends.windows.uia import (
    CONTROL_TYPES,
    E_ACCESSDENIED,
    UIA_E_ELEMENTNOTAVAILABLE,
    UIA_E_ELEMENTNOTENABLED,
    UIA_E_INVALIDOPERATION,
    UIA_E_NOTSUPPORTED,
    UIA_E_TIMEOUT,
)
from winactions.model import Rect

assert sys.platform == "win32"

import comtypes  # noqa: E402
import comtypes.client  # noqa: E402

user32 = ctypes.WinDLL("user32", use_last_error=True)
kernel32 = ctypes.WinDLL("kernel32", use_last_error=True)
gdi32 = ctypes.WinDLL("gdi32", use_last_error=True)
advapi32 = ctypes.WinDLL("advapi32", use_last_error=True)
dwmapi = ctypes.WinDLL("dwmapi")
shell32 = ctypes.WinDLL("shell32")

# 64-bit handles and pointers must not pass through ctypes' default 32-bit int.
_VP = ctypes.c_void_p
for _dll, _name, _restype, _argtypes in (
    (kernel32, "GlobalAlloc", _VP, (wintypes.UINT, ctypes.c_size_t)),
    (
        shell32,
        "ShellExecuteW",
        ctypes.c_ssize_t,
        (wintypes.HWND, wintypes.LPCWSTR, wintypes.LPCWSTR, _VP, _VP, ctypes.c_int),
    ),
    (kernel32, "GlobalLock", _VP, (_VP,)),
    (kernel32, "GlobalUnlock", wintypes.BOOL, (_VP,)),
    (kernel32, "OpenProcess", _VP, (wintypes.DWORD, wintypes.BOOL, wintypes.DWORD)),
    (kernel32, "GetCurrentProcess", _VP, ()),
    (kernel32, "CloseHandle", wintypes.BOOL, (_VP,)),
    (advapi32, "OpenProcessToken", wintypes.BOOL, (_VP, wintypes.DWORD, ctypes.POINTER(wintypes.HANDLE))),
    (user32, "GetClipboardData", _VP, (wintypes.UINT,)),
    (user32, "SetClipboardData", _VP, (wintypes.UINT, _VP)),
    (user32, "GetWindowDC", _VP, (wintypes.HWND,)),
    (user32, "ReleaseDC", ctypes.c_int, (wintypes.HWND, _VP)),
    (user32, "PrintWindow", wintypes.BOOL, (wintypes.HWND, _VP, wintypes.UINT)),
    (user32, "PostMessageW", wintypes.BOOL, (wintypes.HWND, wintypes.UINT, wintypes.WPARAM, wintypes.LPARAM)),
    (
        user32,
        "SendMessageTimeoutW",
        _VP,
        (
            wintypes.HWND,
            wintypes.UINT,
            wintypes.WPARAM,
            wintypes.LPARAM,
            wintypes.UINT,
            wintypes.UINT,
            ctypes.POINTER(ctypes.c_size_t),
        ),
    ),
    (user32, "ChildWindowFromPointEx", wintypes.HWND, (wintypes.HWND, wintypes.POINT, wintypes.UINT)),
    (user32, "GetForegroundWindow", wintypes.HWND, ()),
    (user32, "WindowFromPoint", wintypes.HWND, (wintypes.POINT,)),
    (user32, "GetAncestor", wintypes.HWND, (wintypes.HWND, wintypes.UINT)),
    (user32, "SetProcessDpiAwarenessContext", wintypes.BOOL, (_VP,)),
    (user32, "GetThreadDpiAwarenessContext", _VP, ()),
    (user32, "GetAwarenessFromDpiAwarenessContext", ctypes.c_int, (_VP,)),
    (user32, "DefWindowProcW", ctypes.c_ssize_t, (wintypes.HWND, wintypes.UINT, wintypes.WPARAM, wintypes.LPARAM)),
    (
        user32,
        "CreateWindowExW",
        wintypes.HWND,
        (
            wintypes.DWORD,
            wintypes.LPCWSTR,
            wintypes.LPCWSTR,
            wintypes.DWORD,
            ctypes.c_int,
            ctypes.c_int,
            ctypes.c_int,
            ctypes.c_int,
            wintypes.HWND,
            _VP,
            _VP,
            _VP,
        ),
    ),
    (user32, "GetDC", _VP, (wintypes.HWND,)),
    (gdi32, "CreateDIBSection", _VP, (_VP, _VP, wintypes.UINT, ctypes.POINTER(_VP), _VP, wintypes.DWORD)),
    (gdi32, "CreateCompatibleDC", _VP, (_VP,)),
    (gdi32, "CreateCompatibleBitmap", _VP, (_VP, ctypes.c_int, ctypes.c_int)),
    (gdi32, "SelectObject", _VP, (_VP, _VP)),
    (gdi32, "DeleteObject", wintypes.BOOL, (_VP,)),
    (gdi32, "DeleteDC", wintypes.BOOL, (_VP,)),
    (gdi32, "GetDIBits", ctypes.c_int, (_VP, _VP, wintypes.UINT, wintypes.UINT, _VP, _VP, wintypes.UINT)),
):
    getattr(_dll, _name).restype = _restype
    getattr(_dll, _name).argtypes = _argtypes

SW_SHOWNORMAL = 1
SE_ERR_ASSOCINCOMPLETE = 27  # ShellExecute: the association is incomplete
SE_ERR_NOASSOC = 31  # ShellExecute: no application is associated

# Property ids (UIAutomationClient.h) cached for every element
P = {
    "RuntimeId": 30000,
    "BoundingRectangle": 30001,
    "ControlType": 30003,
    "Name": 30005,
    "HasKeyboardFocus": 30008,
    "IsKeyboardFocusable": 30009,
    "IsEnabled": 30010,
    "AutomationId": 30011,
    "ClassName": 30012,
    "NativeWindowHandle": 30020,
    "IsOffscreen": 30022,
    "FrameworkId": 30024,
    "IsPassword": 30019,
}
# pattern -> (availability property, pattern id, {cached property name: id}, interface name)
PATTERN_PROPS: dict[str, tuple[int, int, dict[str, int], str]] = {
    "Invoke": (30031, 10000, {}, "IUIAutomationInvokePattern"),
    "Selection": (30037, 10001, {"CanSelectMultiple": 30060}, "IUIAutomationSelectionPattern"),
    "Value": (30043, 10002, {"Value": 30045, "IsReadOnly": 30046}, "IUIAutomationValuePattern"),
    "RangeValue": (
        30033,
        10003,
        {
            "Value": 30047,
            "IsReadOnly": 30048,
            "Minimum": 30049,
            "Maximum": 30050,
            "LargeChange": 30051,
            "SmallChange": 30052,
        },
        "IUIAutomationRangeValuePattern",
    ),
    "Scroll": (
        30034,
        10004,
        {
            "HorizontalScrollPercent": 30053,
            "VerticalScrollPercent": 30055,
            "HorizontallyScrollable": 30057,
            "VerticallyScrollable": 30058,
        },
        "IUIAutomationScrollPattern",
    ),
    "ExpandCollapse": (30028, 10005, {"ExpandCollapseState": 30070}, "IUIAutomationExpandCollapsePattern"),
    "Grid": (30030, 10006, {"RowCount": 30062, "ColumnCount": 30063}, "IUIAutomationGridPattern"),
    "GridItem": (30029, 10007, {"Row": 30064, "Column": 30065}, "IUIAutomationGridItemPattern"),
    "Window": (
        30044,
        10009,
        {"CanMaximize": 30073, "CanMinimize": 30074, "WindowVisualState": 30075},
        "IUIAutomationWindowPattern",
    ),
    "SelectionItem": (30036, 10010, {"IsSelected": 30079}, "IUIAutomationSelectionItemPattern"),
    "Table": (30038, 10012, {}, "IUIAutomationTablePattern"),
    "TableItem": (30039, 10013, {}, "IUIAutomationTableItemPattern"),
    "Text": (30040, 10014, {}, "IUIAutomationTextPattern"),
    "Toggle": (30041, 10015, {"ToggleState": 30086}, "IUIAutomationTogglePattern"),
    "Transform": (30042, 10016, {"CanMove": 30087, "CanResize": 30088}, "IUIAutomationTransformPattern"),
    "ScrollItem": (30035, 10017, {}, "IUIAutomationScrollItemPattern"),
}
TREE_SCOPE_SUBTREE = 7  # Element | Children | Descendants
TREE_SCOPE_DESCENDANTS = 4
ELEMENT_MODE_FULL = 1

WM_NULL, WM_CLOSE, WM_GETOBJECT, WM_APP = 0x0000, 0x0010, 0x003D, 0x8000
PM_NOREMOVE, WS_POPUP, SW_SHOWNOACTIVATE, HWND_TOPMOST = 0x0000, 0x80000000, 4, -1
SWP_NOSIZE, SWP_NOMOVE, SWP_SHOWWINDOW, ULW_ALPHA, AC_SRC_ALPHA = 0x0001, 0x0002, 0x0040, 0x2, 0x1
OBJID_CLIENT, UIA_ROOT_OBJECT_ID = -4, -25
SW = {"minimize": 6, "maximize": 3, "restore": 9}
SWP_NOZORDER, SWP_NOACTIVATE = 0x0004, 0x0010
SMTO_ABORTIFHUNG = 0x0002
CWP_SKIPINVISIBLE, CWP_SKIPTRANSPARENT = 0x0001, 0x0004
GA_ROOT = 2
GUI_INMENUMODE, GUI_POPUPMENUMODE = 0x0004, 0x0010
DWMWA_CLOAKED, DWMWA_BORDER_COLOR, DWMWA_COLOR_DEFAULT = 14, 34, 0xFFFFFFFF
PW_RENDERFULLCONTENT = 0x2
CF_UNICODETEXT, GMEM_MOVEABLE = 13, 0x0002
PROCESS_QUERY_LIMITED_INFORMATION, TOKEN_QUERY, TOKEN_INTEGRITY_LEVEL = 0x1000, 0x0008, 25
GWL_STYLE, GWL_EXSTYLE = -16, -20

MOUSE_FLAGS = {
    "move": 0x0001,
    "left_down": 0x0002,
    "left_up": 0x0004,
    "right_down": 0x0008,
    "right_up": 0x0010,
    "middle_down": 0x0020,
    "middle_up": 0x0040,
    "wheel": 0x0800,
    "hwheel": 0x1000,
}
MOUSEEVENTF_VIRTUALDESK, MOUSEEVENTF_ABSOLUTE = 0x4000, 0x8000
KEYEVENTF_EXTENDEDKEY, KEYEVENTF_KEYUP, KEYEVENTF_UNICODE = 0x1, 0x2, 0x4


class MOUSEINPUT(ctypes.Structure):
    _fields_ = [
        ("dx", wintypes.LONG),
        ("dy", wintypes.LONG),
        ("mouseData", wintypes.DWORD),
        ("dwFlags", wintypes.DWORD),
        ("time", wintypes.DWORD),
        ("dwExtraInfo", ctypes.c_size_t),
    ]


class KEYBDINPUT(ctypes.Structure):
    _fields_ = [
        ("wVk", wintypes.WORD),
        ("wScan", wintypes.WORD),
        ("dwFlags", wintypes.DWORD),
        ("time", wintypes.DWORD),
        ("dwExtraInfo", ctypes.c_size_t),
    ]


class _INPUTUNION(ctypes.Union):
    _fields_ = [("mi", MOUSEINPUT), ("ki", KEYBDINPUT), ("padding", ctypes.c_byte * 32)]


class INPUT(ctypes.Structure):
    _fields_ = [("type", wintypes.DWORD), ("u", _INPUTUNION)]


class GUITHREADINFO(ctypes.Structure):
    _fields_ = [
        ("cbSize", wintypes.DWORD),
        ("flags", wintypes.DWORD),
        ("hwndActive", wintypes.HWND),
        ("hwndFocus", wintypes.HWND),
        ("hwndCapture", wintypes.HWND),
        ("hwndMenuOwner", wintypes.HWND),
        ("hwndMoveSize", wintypes.HWND),
        ("hwndCaret", wintypes.HWND),
        ("rcCaret", wintypes.RECT),
    ]


class BITMAPINFOHEADER(ctypes.Structure):
    _fields_ = [
        ("biSize", wintypes.DWORD),
        ("biWidth", wintypes.LONG),
        ("biHeight", wintypes.LONG),
        ("biPlanes", wintypes.WORD),
        ("biBitCount", wintypes.WORD),
        ("biCompression", wintypes.DWORD),
        ("biSizeImage", wintypes.DWORD),
        ("biXPelsPerMeter", wintypes.LONG),
        ("biYPelsPerMeter", wintypes.LONG),
        ("biClrUsed", wintypes.DWORD),
        ("biClrImportant", wintypes.DWORD),
    ]


class BLENDFUNCTION(ctypes.Structure):
    _fields_ = [
        ("BlendOp", ctypes.c_ubyte),
        ("BlendFlags", ctypes.c_ubyte),
        ("SourceConstantAlpha", ctypes.c_ubyte),
        ("AlphaFormat", ctypes.c_ubyte),
    ]


WNDPROC = ctypes.WINFUNCTYPE(ctypes.c_ssize_t, wintypes.HWND, wintypes.UINT, wintypes.WPARAM, wintypes.LPARAM)


class WNDCLASSW(ctypes.Structure):
    _fields_ = [
        ("style", wintypes.UINT),
        ("lpfnWndProc", WNDPROC),
        ("cbClsExtra", ctypes.c_int),
        ("cbWndExtra", ctypes.c_int),
        ("hInstance", _VP),
        ("hIcon", _VP),
        ("hCursor", _VP),
        ("hbrBackground", _VP),
        ("lpszMenuName", wintypes.LPCWSTR),
        ("lpszClassName", wintypes.LPCWSTR),
    ]


class OverlayThread:
    """Overlay windows live on a thread of their own that pumps their messages: a window whose
    thread does not pump hangs every program that broadcasts with SendMessage
    (WM_SETTINGCHANGE), and Windows ghosts it. Calls run there, woken by a thread message."""

    CLASS = "WinctlOverlay"

    def __init__(self) -> None:
        self._calls: queue.Queue[tuple[Callable[[], Any], concurrent.futures.Future[Any]]] = queue.Queue()
        self._started = threading.Event()
        self.thread_id = 0
        self._proc = WNDPROC(lambda h, m, w, lp: user32.DefWindowProcW(h, m, w, lp))  # kept: Windows calls it
        threading.Thread(target=self._run, name="winctl-overlay", daemon=True).start()
        self._started.wait(5)

    def _run(self) -> None:
        msg = wintypes.MSG()
        user32.PeekMessageW(ctypes.byref(msg), None, 0, 0, PM_NOREMOVE)  # gives this thread its queue
        instance = kernel32.GetModuleHandleW(None)
        user32.RegisterClassW(
            ctypes.byref(WNDCLASSW(lpfnWndProc=self._proc, hInstance=instance, lpszClassName=self.CLASS))
        )
        self.thread_id = kernel32.GetCurrentThreadId()
        self._started.set()
        while user32.GetMessageW(ctypes.byref(msg), None, 0, 0) > 0:
            if msg.message == WM_APP and not msg.hWnd:
                while not self._calls.empty():
                    function, future = self._calls.get()
                    try:
                        future.set_result(function())
                    except Exception as exc:
                        future.set_exception(exc)
                continue
            user32.TranslateMessage(ctypes.byref(msg))
            user32.DispatchMessageW(ctypes.byref(msg))

    def call(self, function: Callable[[], Any]) -> Any:
        future: concurrent.futures.Future[Any] = concurrent.futures.Future()
        self._calls.put((function, future))
        user32.PostThreadMessageW(self.thread_id, WM_APP, 0, 0)
        return future.result(timeout=5)


def _paint_layered(hwnd: int, rect: Rect, image: Image.Image) -> None:
    """UpdateLayeredWindow with the image's per-pixel alpha (premultiplied BGRA, top-down DIB):
    DWM composes it, so the window needs no WM_PAINT."""
    rgba = image.convert("RGBA")
    r, g, b, a = rgba.split()
    data = Image.merge("RGBA", (*(ImageChops.multiply(c, a) for c in (b, g, r)), a)).tobytes()
    screen = user32.GetDC(None)
    memory = gdi32.CreateCompatibleDC(screen)
    header = BITMAPINFOHEADER(ctypes.sizeof(BITMAPINFOHEADER), rgba.width, -rgba.height, 1, 32, 0, 0, 0, 0, 0, 0)
    bits = _VP()
    bitmap = gdi32.CreateDIBSection(memory, ctypes.byref(header), 0, ctypes.byref(bits), None, 0)
    old = gdi32.SelectObject(memory, bitmap)
    try:
        ctypes.memmove(bits, data, len(data))
        blend = BLENDFUNCTION(0, 0, 255, AC_SRC_ALPHA)
        user32.UpdateLayeredWindow(
            hwnd,
            _VP(screen),
            ctypes.byref(wintypes.POINT(rect.left, rect.top)),
            ctypes.byref(wintypes.SIZE(rgba.width, rgba.height)),
            _VP(memory),
            ctypes.byref(wintypes.POINT(0, 0)),
            0,
            ctypes.byref(blend),
            ULW_ALPHA,
        )
    finally:
        gdi32.SelectObject(memory, old)
        gdi32.DeleteObject(bitmap)
        gdi32.DeleteDC(memory)
        user32.ReleaseDC(None, screen)


def _rect(r: Any) -> Rect | None:
    rect = Rect(left=int(r.left), top=int(r.top), right=int(r.right), bottom=int(r.bottom))
    return None if rect.is_empty else rect


def _error(exc: comtypes.COMError) -> NativeError:
    code = exc.hresult & 0xFFFFFFFF
    kind = {
        UIA_E_ELEMENTNOTAVAILABLE: ErrorKind.GONE,
        UIA_E_ELEMENTNOTENABLED: ErrorKind.DISABLED,
        UIA_E_INVALIDOPERATION: ErrorKind.INVALID,
        UIA_E_NOTSUPPORTED: ErrorKind.UNSUPPORTED,
        UIA_E_TIMEOUT: ErrorKind.TIMEOUT,
        E_ACCESSDENIED: ErrorKind.ACCESS_DENIED,
    }.get(code, ErrorKind.INVALID)
    return NativeError(kind, f"{exc.text or 'COM error'} (0x{code:08x})")


class Win32Native:
    """`Native` on a real Windows machine."""

    def __init__(self) -> None:
        self.uia: Any = None
        self.automation: Any = None
        self.request: Any = None
        self._elements: dict[tuple[int, tuple[int, ...]], Any] = {}
        self._overlay_thread: OverlayThread | None = None

    # -- process -------------------------------------------------------------------------------
    def init_com_thread(self) -> None:
        comtypes.CoInitializeEx(comtypes.COINIT_MULTITHREADED)
        comtypes.client.GetModule("UIAutomationCore.dll")
        from comtypes.gen import UIAutomationClient as uia  # generated from the type library

        self.uia = uia
        self.automation = comtypes.client.CreateObject(uia.CUIAutomation, interface=uia.IUIAutomation)
        try:  # a hung app must not hang us: UIA gives up after these (IUIAutomation2)
            second = self.automation.QueryInterface(uia.IUIAutomation2)
            second.ConnectionTimeout, second.TransactionTimeout = 2000, 10000
        except comtypes.COMError:
            pass
        request = self.automation.CreateCacheRequest()
        for pid in P.values():
            request.AddProperty(pid)
        for available, pattern_id, props, _ in PATTERN_PROPS.values():
            request.AddProperty(available)
            request.AddPattern(pattern_id)
            for pid in props.values():
                request.AddProperty(pid)
        request.TreeScope = TREE_SCOPE_SUBTREE
        request.AutomationElementMode = ELEMENT_MODE_FULL
        onscreen = self.automation.CreatePropertyCondition(P["IsOffscreen"], False)
        request.TreeFilter = self.automation.CreateAndCondition(self.automation.ControlViewCondition, onscreen)
        self.request = request

    def set_dpi_awareness(self) -> str:
        if user32.SetProcessDpiAwarenessContext(ctypes.c_void_p(-4)):  # PER_MONITOR_AWARE_V2
            return "per-monitor-v2"
        try:
            if ctypes.WinDLL("shcore").SetProcessDpiAwareness(2) == 0:
                return "per-monitor"
        except OSError:
            pass
        context = user32.GetThreadDpiAwarenessContext()
        awareness = user32.GetAwarenessFromDpiAwarenessContext(context)
        return {0: "unaware", 1: "system", 2: "per-monitor"}.get(awareness, "unknown")

    def integrity_level(self, pid: int | None = None) -> int:
        process = (
            kernel32.GetCurrentProcess()
            if pid is None
            else kernel32.OpenProcess(PROCESS_QUERY_LIMITED_INFORMATION, False, pid)
        )
        if not process:
            return HIGH_INTEGRITY  # a process we may not even query is one our messages will not reach
        token = wintypes.HANDLE()
        try:
            if not advapi32.OpenProcessToken(process, TOKEN_QUERY, ctypes.byref(token)):
                return HIGH_INTEGRITY
            size = wintypes.DWORD()
            advapi32.GetTokenInformation(token, TOKEN_INTEGRITY_LEVEL, None, 0, ctypes.byref(size))
            buffer = ctypes.create_string_buffer(size.value)
            if not advapi32.GetTokenInformation(token, TOKEN_INTEGRITY_LEVEL, buffer, size, ctypes.byref(size)):
                return HIGH_INTEGRITY
            sid = ctypes.cast(buffer, ctypes.POINTER(ctypes.c_void_p))[0]
            advapi32.GetSidSubAuthorityCount.restype = ctypes.POINTER(ctypes.c_ubyte)
            advapi32.GetSidSubAuthority.restype = ctypes.POINTER(wintypes.DWORD)
            count = advapi32.GetSidSubAuthorityCount(ctypes.c_void_p(sid))[0]
            return int(advapi32.GetSidSubAuthority(ctypes.c_void_p(sid), count - 1)[0])
        finally:
            if token:
                kernel32.CloseHandle(token)
            if pid is not None:
                kernel32.CloseHandle(process)

    # -- windows ---------------------------------------------------------------------------------
    def window_class(self, hwnd: int) -> str:
        buffer = ctypes.create_unicode_buffer(256)
        user32.GetClassNameW(hwnd, buffer, 256)
        return buffer.value

    def window_frame(self, hwnd: int) -> Rect:
        return self._window_rect(hwnd)

    def is_window(self, hwnd: int) -> bool:
        return bool(user32.IsWindow(hwnd))

    def _title(self, hwnd: int) -> str:
        length = user32.GetWindowTextLengthW(hwnd)
        buffer = ctypes.create_unicode_buffer(length + 1)
        user32.GetWindowTextW(hwnd, buffer, length + 1)
        return buffer.value

    def _client_rect(self, hwnd: int) -> Rect:
        r = wintypes.RECT()
        user32.GetClientRect(hwnd, ctypes.byref(r))
        origin = wintypes.POINT(0, 0)
        user32.ClientToScreen(hwnd, ctypes.byref(origin))
        return Rect.from_xywh(origin.x, origin.y, r.right - r.left, r.bottom - r.top)

    def _window_rect(self, hwnd: int) -> Rect:
        r = wintypes.RECT()
        user32.GetWindowRect(hwnd, ctypes.byref(r))
        return Rect(left=r.left, top=r.top, right=r.right, bottom=r.bottom)

    def top_windows(self) -> list[NativeWindow]:
        found: list[NativeWindow] = []
        foreground = user32.GetForegroundWindow() or 0

        @ctypes.WINFUNCTYPE(wintypes.BOOL, wintypes.HWND, wintypes.LPARAM)
        def each(hwnd: int, _: int) -> bool:
            pid = wintypes.DWORD()
            user32.GetWindowThreadProcessId(hwnd, ctypes.byref(pid))
            cloaked = wintypes.DWORD()
            dwmapi.DwmGetWindowAttribute(hwnd, DWMWA_CLOAKED, ctypes.byref(cloaked), 4)
            try:
                process = psutil.Process(pid.value).name()
            except psutil.Error:
                process = ""
            found.append(
                NativeWindow(
                    hwnd=hwnd,
                    title=self._title(hwnd),
                    pid=pid.value,
                    process=process,
                    class_name=self.window_class(hwnd),
                    window_rect=self._window_rect(hwnd),
                    client_rect=self._client_rect(hwnd),
                    visible=bool(user32.IsWindowVisible(hwnd)),
                    minimized=bool(user32.IsIconic(hwnd)),
                    maximized=bool(user32.IsZoomed(hwnd)),
                    foreground=hwnd == foreground,
                    cloaked=bool(cloaked.value),
                )
            )
            return True

        user32.EnumWindows(each, 0)
        return found

    def foreground_window(self) -> int:
        return int(user32.GetForegroundWindow() or 0)  # HWND restype: None when there is none

    def root_window_at(self, x: int, y: int) -> int:
        found = user32.WindowFromPoint(wintypes.POINT(x, y))
        return int(user32.GetAncestor(found, GA_ROOT) or 0) if found else 0

    def window_title(self, hwnd: int) -> str:
        return self._title(hwnd)

    def window_pid(self, hwnd: int) -> int:
        pid = wintypes.DWORD()
        user32.GetWindowThreadProcessId(hwnd, ctypes.byref(pid))
        return int(pid.value)

    def in_menu_mode(self, hwnd: int) -> bool:
        info = GUITHREADINFO(cbSize=ctypes.sizeof(GUITHREADINFO))
        thread = user32.GetWindowThreadProcessId(hwnd, None)
        return bool(
            user32.GetGUIThreadInfo(thread, ctypes.byref(info)) and info.flags & (GUI_INMENUMODE | GUI_POPUPMENUMODE)
        )

    def show_window(self, hwnd: int, command: str) -> None:
        user32.ShowWindow(hwnd, SW[command])

    def close_window(self, hwnd: int) -> None:
        user32.PostMessageW(hwnd, WM_CLOSE, 0, 0)

    def set_foreground(self, hwnd: int) -> bool:
        return bool(user32.SetForegroundWindow(hwnd))

    def bring_to_top(self, hwnd: int) -> None:
        user32.BringWindowToTop(hwnd)

    def attach_input_to_foreground(self, attach: bool) -> None:
        thread = user32.GetWindowThreadProcessId(user32.GetForegroundWindow(), None)
        user32.AttachThreadInput(kernel32.GetCurrentThreadId(), thread, attach)

    def set_window_rect(self, hwnd: int, client: Rect) -> None:
        frame = wintypes.RECT(client.left, client.top, client.right, client.bottom)
        style, exstyle = user32.GetWindowLongW(hwnd, GWL_STYLE), user32.GetWindowLongW(hwnd, GWL_EXSTYLE)
        user32.AdjustWindowRectExForDpi(ctypes.byref(frame), style, False, exstyle, user32.GetDpiForWindow(hwnd))
        user32.SetWindowPos(
            hwnd,
            0,
            frame.left,
            frame.top,
            frame.right - frame.left,
            frame.bottom - frame.top,
            SWP_NOZORDER | SWP_NOACTIVATE,
        )

    def launch(self, argv: list[str]) -> int:
        flags = subprocess.DETACHED_PROCESS | subprocess.CREATE_NEW_PROCESS_GROUP
        return subprocess.Popen(argv, creationflags=flags, close_fds=True).pid

    def shell_open(self, target: str) -> None:
        code = shell32.ShellExecuteW(None, "open", target, None, None, SW_SHOWNORMAL)
        if code <= 32:  # an error code, not an instance (ShellExecute's old contract)
            kind = ErrorKind.UNSUPPORTED if code in (SE_ERR_NOASSOC, SE_ERR_ASSOCINCOMPLETE) else ErrorKind.INVALID
            raise NativeError(kind, f"ShellExecute failed ({code})")

    # -- UI Automation ---------------------------------------------------------------------------
    def _raw(self, element: Any, parent: int | None) -> RawElement:
        get = element.GetCachedPropertyValue
        patterns: dict[str, dict[str, Any]] = {}
        for name, (available, _, props, _) in PATTERN_PROPS.items():
            if get(available):
                patterns[name] = {key: get(pid) for key, pid in props.items()}
        return RawElement(
            runtime_id=tuple(int(x) for x in (get(P["RuntimeId"]) or ())),
            parent=parent,
            control_type=CONTROL_TYPES.get(int(get(P["ControlType"])), "Custom"),
            name=get(P["Name"]) or "",
            automation_id=get(P["AutomationId"]) or "",
            class_name=get(P["ClassName"]) or "",
            framework_id=get(P["FrameworkId"]) or "",
            rect=_rect(element.CachedBoundingRectangle),
            enabled=bool(get(P["IsEnabled"])),
            offscreen=bool(get(P["IsOffscreen"])),
            focused=bool(get(P["HasKeyboardFocus"])),
            focusable=bool(get(P["IsKeyboardFocusable"])),
            hwnd=int(get(P["NativeWindowHandle"]) or 0),
            password=bool(get(P["IsPassword"])),
            patterns=patterns,
        )

    def cache_tree(self, hwnd: int) -> list[RawElement]:
        try:
            root = self.automation.ElementFromHandleBuildCache(hwnd, self.request)  # the one round trip
        except comtypes.COMError as exc:
            raise _error(exc) from None
        out: list[RawElement] = []
        elements: dict[tuple[int, tuple[int, ...]], Any] = {}
        stack: list[tuple[Any, int | None]] = [(root, None)]
        while stack:  # the rest is local: cached children need no call to the app
            element, parent = stack.pop()
            raw = self._raw(element, parent)
            index = len(out)
            out.append(raw)
            elements[(hwnd, raw.runtime_id)] = element
            children = element.GetCachedChildren()
            if children:
                stack.extend((children.GetElement(i), index) for i in reversed(range(children.Length)))
        self._elements = {k: v for k, v in self._elements.items() if k[0] != hwnd} | elements
        return out

    def _element(self, hwnd: int, runtime_id: tuple[int, ...]) -> Any:
        element = self._elements.get((hwnd, runtime_id))
        if element is None:  # a new process: find it again in one cached read of the window
            self.cache_tree(hwnd)
            element = self._elements.get((hwnd, runtime_id))
        if element is None:
            raise NativeError(ErrorKind.GONE, "no element with that runtime id")
        return element

    def find_element(self, hwnd: int, runtime_id: tuple[int, ...]) -> RawElement | None:
        try:
            element = self._element(hwnd, runtime_id)
            fresh = element.BuildUpdatedCache(self._element_request())
        except NativeError:
            return None
        except comtypes.COMError as exc:
            error = _error(exc)
            if error.kind is ErrorKind.GONE:
                return None
            raise error from None
        self._elements[(hwnd, runtime_id)] = fresh
        return self._raw(fresh, None)

    def find_named(self, hwnd: int, runtime_id: tuple[int, ...], name: str) -> list[RawElement]:
        try:
            element = self._element(hwnd, runtime_id)
            condition = self.automation.CreateAndCondition(
                self.automation.ControlViewCondition, self.automation.CreatePropertyCondition(P["Name"], name)
            )
            request = self._element_request()
            request.TreeFilter = self.automation.ControlViewCondition  # offscreen ones too: they are the point
            found = element.FindAllBuildCache(TREE_SCOPE_DESCENDANTS, condition, request)
        except NativeError:
            return []
        except comtypes.COMError as exc:
            raise _error(exc) from None
        out = []
        for i in range(found.Length if found else 0):
            each = found.GetElement(i)
            raw = self._raw(each, None)
            self._elements[(hwnd, raw.runtime_id)] = each  # acted on next, though no cached tree holds it
            out.append(raw)
        return out

    def _element_request(self) -> Any:
        request = self.request.Clone()
        request.TreeScope = 1  # Element only
        return request

    def call_pattern(self, hwnd: int, runtime_id: tuple[int, ...], pattern: str, method: str, *args: Any) -> Any:
        _, pattern_id, _, interface = PATTERN_PROPS[pattern]
        try:
            element = self._element(hwnd, runtime_id)
            unknown = element.GetCurrentPattern(pattern_id)
            if not unknown:
                raise NativeError(ErrorKind.UNSUPPORTED, f"no {pattern} pattern")
            target = unknown.QueryInterface(getattr(self.uia, interface))
            if pattern == "Text" and method == "GetText":
                return target.DocumentRange.GetText(*args)
            return getattr(target, method)(*args)
        except comtypes.COMError as exc:
            raise _error(exc) from None

    def set_focus(self, hwnd: int, runtime_id: tuple[int, ...]) -> None:
        try:
            self._element(hwnd, runtime_id).SetFocus()
        except comtypes.COMError as exc:
            raise _error(exc) from None

    def wake_accessibility(self, hwnd: int) -> bool:
        """Chromium builds its UIA tree when asked for it through WM_GETOBJECT."""
        if not self.window_class(hwnd).startswith("Chrome_WidgetWin"):
            return False
        targets = [hwnd]

        @ctypes.WINFUNCTYPE(wintypes.BOOL, wintypes.HWND, wintypes.LPARAM)
        def each(child: int, _: int) -> bool:
            if self.window_class(child) == "Chrome_RenderWidgetHostHWND":
                targets.append(child)
            return True

        user32.EnumChildWindows(hwnd, each, 0)
        result = ctypes.c_size_t()
        for target in targets:
            for object_id in (OBJID_CLIENT, UIA_ROOT_OBJECT_ID):
                user32.SendMessageTimeoutW(
                    target, WM_GETOBJECT, 0, object_id, SMTO_ABORTIFHUNG, 1000, ctypes.byref(result)
                )
        return True

    # -- input -----------------------------------------------------------------------------------
    def _virtual(self) -> Rect:
        x, y = user32.GetSystemMetrics(76), user32.GetSystemMetrics(77)  # SM_XVIRTUALSCREEN, SM_YVIRTUALSCREEN
        return Rect.from_xywh(x, y, user32.GetSystemMetrics(78), user32.GetSystemMetrics(79))

    def send_input(self, events: list[MouseInput | KeyInput]) -> int:
        virtual = self._virtual()
        packed = (INPUT * len(events))()
        for item, event in zip(packed, events):
            if isinstance(event, MouseInput):
                nx, ny = sendinput.absolute(event.x, event.y, virtual)
                flags = MOUSEEVENTF_ABSOLUTE | MOUSEEVENTF_VIRTUALDESK | MOUSE_FLAGS["move"]
                for name in event.flags:
                    flags |= MOUSE_FLAGS[name]
                item.type = 0
                item.u.mi = MOUSEINPUT(nx, ny, event.wheel & 0xFFFFFFFF, flags, 0, 0)
            else:
                flags = (
                    (KEYEVENTF_UNICODE if event.unicode else 0)
                    | (KEYEVENTF_KEYUP if event.up else 0)
                    | (KEYEVENTF_EXTENDEDKEY if event.extended else 0)
                )
                item.type = 1
                item.u.ki = KEYBDINPUT(
                    0 if event.unicode else event.vk,
                    event.char if event.unicode else user32.MapVirtualKeyW(event.vk, 0),
                    flags,
                    0,
                    0,
                )
        return int(user32.SendInput(len(events), packed, ctypes.sizeof(INPUT)))

    def cursor_position(self) -> tuple[int, int]:
        point = wintypes.POINT()
        user32.GetCursorPos(ctypes.byref(point))
        return point.x, point.y

    def post_message(self, hwnd: int, message: int, wparam: int, lparam: int) -> bool:
        return bool(user32.PostMessageW(hwnd, message, wintypes.WPARAM(wparam), wintypes.LPARAM(lparam)))

    def child_from_point(self, hwnd: int, x: int, y: int) -> int:
        current = hwnd
        while True:
            point = wintypes.POINT(x, y)
            user32.ScreenToClient(current, ctypes.byref(point))
            child = user32.ChildWindowFromPointEx(current, point, CWP_SKIPINVISIBLE | CWP_SKIPTRANSPARENT)
            if not child or child == current:
                return current
            current = child

    def focused_child(self, hwnd: int) -> int:
        info = GUITHREADINFO(cbSize=ctypes.sizeof(GUITHREADINFO))
        thread = user32.GetWindowThreadProcessId(hwnd, None)
        if user32.GetGUIThreadInfo(thread, ctypes.byref(info)) and info.hwndFocus:
            return int(info.hwndFocus)
        return hwnd

    def screen_to_client(self, hwnd: int, x: int, y: int) -> tuple[int, int]:
        point = wintypes.POINT(x, y)
        user32.ScreenToClient(hwnd, ctypes.byref(point))
        return point.x, point.y

    def flush_messages(self, hwnd: int, timeout_ms: int) -> bool:
        result = ctypes.c_size_t()
        for _ in range(2):
            if not user32.SendMessageTimeoutW(hwnd, WM_NULL, 0, 0, SMTO_ABORTIFHUNG, timeout_ms, ctypes.byref(result)):
                return False
        return True

    def attach_input(self, hwnd: int, attach: bool) -> bool:
        msg = wintypes.MSG()
        user32.PeekMessageW(ctypes.byref(msg), None, 0, 0, PM_NOREMOVE)  # attaching needs a message queue here
        thread = user32.GetWindowThreadProcessId(hwnd, None)
        return bool(thread) and bool(user32.AttachThreadInput(kernel32.GetCurrentThreadId(), thread, attach))

    def keyboard_state(self) -> bytes:
        state = (ctypes.c_ubyte * 256)()
        user32.GetKeyboardState(state)
        return bytes(state)

    def set_keyboard_state(self, state: bytes) -> bool:
        return bool(user32.SetKeyboardState((ctypes.c_ubyte * 256).from_buffer_copy(state)))

    def key_scan(self, char: str) -> int:
        return int(user32.VkKeyScanW(ord(char)))

    def scan_code(self, vk: int) -> int:
        return int(user32.MapVirtualKeyW(vk, 0))

    # -- pixels, clipboard, DWM -----------------------------------------------------------------------
    def monitors(self) -> list[Rect]:
        import mss

        with mss.mss() as grabber:
            return [Rect.from_xywh(m["left"], m["top"], m["width"], m["height"]) for m in grabber.monitors[1:]]

    def capture_screen(self, rect: Rect) -> Image.Image:
        import mss

        with mss.mss() as grabber:
            shot = grabber.grab({"left": rect.left, "top": rect.top, "width": rect.width, "height": rect.height})
            return Image.frombytes("RGB", shot.size, shot.bgra, "raw", "BGRX")

    def print_window(self, hwnd: int) -> Image.Image:
        frame = self._window_rect(hwnd)
        width, height = frame.width, frame.height
        window_dc = user32.GetWindowDC(hwnd)
        memory_dc = gdi32.CreateCompatibleDC(window_dc)
        bitmap = gdi32.CreateCompatibleBitmap(window_dc, width, height)
        old = gdi32.SelectObject(memory_dc, bitmap)
        try:
            user32.PrintWindow(hwnd, memory_dc, PW_RENDERFULLCONTENT)
            header = BITMAPINFOHEADER(ctypes.sizeof(BITMAPINFOHEADER), width, -height, 1, 32, 0, 0, 0, 0, 0, 0)
            data = ctypes.create_string_buffer(width * height * 4)
            gdi32.GetDIBits(memory_dc, bitmap, 0, height, data, ctypes.byref(header), 0)
            return Image.frombuffer("RGB", (width, height), data.raw, "raw", "BGRX", 0, 1)
        finally:
            gdi32.SelectObject(memory_dc, old)
            gdi32.DeleteObject(bitmap)
            gdi32.DeleteDC(memory_dc)
            user32.ReleaseDC(hwnd, window_dc)

    def _open_clipboard(self) -> None:
        for _ in range(20):  # another process may hold it for a moment
            if user32.OpenClipboard(None):
                return
            time.sleep(0.02)
        raise NativeError(ErrorKind.ACCESS_DENIED, "the clipboard is held by another process")

    def get_clipboard(self) -> str:
        self._open_clipboard()
        try:
            handle = user32.GetClipboardData(CF_UNICODETEXT)
            if not handle:
                return ""
            pointer = kernel32.GlobalLock(handle)
            try:
                return ctypes.wstring_at(pointer)
            finally:
                kernel32.GlobalUnlock(handle)
        finally:
            user32.CloseClipboard()

    def set_clipboard(self, text: str) -> None:
        data = text.encode("utf-16-le") + b"\0\0"
        self._open_clipboard()
        try:
            user32.EmptyClipboard()
            handle = kernel32.GlobalAlloc(GMEM_MOVEABLE, len(data))
            pointer = kernel32.GlobalLock(handle)
            ctypes.memmove(pointer, data, len(data))
            kernel32.GlobalUnlock(handle)
            user32.SetClipboardData(CF_UNICODETEXT, handle)  # the clipboard owns it from here
        finally:
            user32.CloseClipboard()

    def window_dpi(self, hwnd: int) -> int:
        dpi = int(user32.GetDpiForWindow(hwnd))
        if dpi == 0:  # an invalid window
            raise NativeError(ErrorKind.GONE, f"no window 0x{hwnd:x}")
        return dpi

    def set_border_color(self, hwnd: int, rgb: tuple[int, int, int] | None) -> bool:
        value = DWMWA_COLOR_DEFAULT if rgb is None else rgb[0] | rgb[1] << 8 | rgb[2] << 16  # COLORREF
        colour = wintypes.DWORD(value)
        return dwmapi.DwmSetWindowAttribute(hwnd, DWMWA_BORDER_COLOR, ctypes.byref(colour), 4) == 0

    # -- overlay windows ---------------------------------------------------------------------------
    def _overlays(self) -> OverlayThread:
        if self._overlay_thread is None:
            self._overlay_thread = OverlayThread()
        return self._overlay_thread

    def create_overlay(self, rect: Rect, image: Image.Image, ex_style: int) -> int:
        def make() -> int:
            instance = kernel32.GetModuleHandleW(None)
            hwnd = user32.CreateWindowExW(
                ex_style, OverlayThread.CLASS, "winctl", WS_POPUP, rect.left, rect.top, rect.width, rect.height,
                None, None, instance, None,
            )  # fmt: skip
            if not hwnd:
                raise NativeError(ErrorKind.INVALID, f"CreateWindowExW failed ({ctypes.get_last_error()})")
            _paint_layered(hwnd, rect, image)
            user32.ShowWindow(hwnd, SW_SHOWNOACTIVATE)
            return int(hwnd)

        return int(self._overlays().call(make))

    def move_overlay(self, hwnd: int, rect: Rect, image: Image.Image | None = None) -> None:
        def move() -> None:
            if image is not None:
                _paint_layered(hwnd, rect, image)  # moves it too
            flags = SWP_NOACTIVATE | SWP_SHOWWINDOW | (SWP_NOSIZE | SWP_NOMOVE if image is not None else SWP_NOSIZE)
            user32.SetWindowPos(hwnd, _VP(HWND_TOPMOST), rect.left, rect.top, 0, 0, flags)

        self._overlays().call(move)

    def destroy_overlay(self, hwnd: int) -> None:
        self._overlays().call(lambda: user32.DestroyWindow(hwnd))
