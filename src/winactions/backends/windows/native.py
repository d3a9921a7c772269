"""The seam between the Windows backend and the operating system.

`Native` is everything the backend needs from COM and Win32, as small, flat calls that
take and return plain Python values. `win32.py` implements it on Windows; tests implement
it with a fake that follows UI Automation's documented behaviour. Keeping this surface thin
is what makes the rest of the backend testable on Linux: each method is one API call or a
fixed sequence of them, never a decision.
"""

from __future__ import annotations

import importlib
import os
import sys
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Protocol

from PIL import Image

from winactions.errors import BackendUnavailable
from winactions.model import Rect

# Mandatory integrity RIDs (a token's integrity level): input to a higher one is dropped (UIPI).
MEDIUM_INTEGRITY, HIGH_INTEGRITY = 0x2000, 0x3000


@dataclass
class RawElement:
    """One element of a cached UIA subtree, in document order (parents before children)."""

    runtime_id: tuple[int, ...]
    parent: int | None
    control_type: str  # UIA control type name: "Button", "Edit", ...
    name: str = ""
    automation_id: str = ""
    class_name: str = ""
    framework_id: str = ""
    rect: Rect | None = None  # BoundingRectangle in physical screen pixels; None when empty
    enabled: bool = True
    offscreen: bool = False
    focused: bool = False
    focusable: bool = False
    hwnd: int = 0  # NativeWindowHandle, when the element is a window of its own
    password: bool = False  # IsPassword: its text is secret
    patterns: dict[str, dict[str, Any]] = field(default_factory=dict)  # available pattern -> cached properties


@dataclass
class NativeWindow:
    hwnd: int
    title: str
    pid: int
    process: str
    class_name: str
    window_rect: Rect  # the frame
    client_rect: Rect  # the client area, in screen pixels
    visible: bool = True
    minimized: bool = False
    maximized: bool = False
    foreground: bool = False
    cloaked: bool = False  # DWM-cloaked: on another virtual desktop, or a suspended UWP frame


class ErrorKind(str, Enum):
    GONE = "gone"  # UIA_E_ELEMENTNOTAVAILABLE, or the window no longer exists
    DISABLED = "disabled"  # UIA_E_ELEMENTNOTENABLED
    INVALID = "invalid"  # UIA_E_INVALIDOPERATION / ArgumentException: not possible in this state
    UNSUPPORTED = "unsupported"  # the element lacks the pattern
    ACCESS_DENIED = "access_denied"  # E_ACCESSDENIED / UIPI
    TIMEOUT = "timeout"  # UIA_E_TIMEOUT: the app did not answer in time


class NativeError(Exception):
    def __init__(self, kind: ErrorKind, message: str) -> None:
        super().__init__(message)
        self.kind = kind
        self.message = message


@dataclass(frozen=True)
class MouseInput:
    """One SendInput mouse event, in screen pixels (the backend normalizes)."""

    x: int
    y: int
    flags: tuple[str, ...]  # "move", "left_down", "left_up", "right_down", ..., "wheel", "hwheel"
    wheel: int = 0  # WHEEL_DELTA units, positive = away from the user / right


@dataclass(frozen=True)
class KeyInput:
    """One SendInput keyboard event: a virtual key, or a UTF-16 unit with `unicode`."""

    vk: int = 0
    char: int = 0
    up: bool = False
    unicode: bool = False
    extended: bool = False


class Native(Protocol):
    # -- process --------------------------------------------------------------------------
    def init_com_thread(self) -> None:
        """CoInitializeEx on the calling thread and create the IUIAutomation object there."""

    def set_dpi_awareness(self) -> str:
        """Make the process per-monitor DPI aware (v2 when available); returns the mode."""

    def integrity_level(self, pid: int | None = None) -> int:
        """Mandatory integrity RID of a process (this one when None): 0x2000 medium, 0x3000 high."""

    # -- windows --------------------------------------------------------------------------
    def top_windows(self) -> list[NativeWindow]: ...

    def foreground_window(self) -> int: ...

    def root_window_at(self, x: int, y: int) -> int:
        """GetAncestor(WindowFromPoint((x, y)), GA_ROOT): the top-level window a click there
        reaches (a menu, a tooltip, another app's window), 0 for none."""

    def window_title(self, hwnd: int) -> str: ...

    def window_pid(self, hwnd: int) -> int:
        """GetWindowThreadProcessId's process id."""

    def in_menu_mode(self, hwnd: int) -> bool:
        """GetGUIThreadInfo of the window's thread: a menu of it is being tracked (GUI_INMENUMODE
        or GUI_POPUPMENUMODE), which captures the mouse: a click outside it only closes it."""

    def show_window(self, hwnd: int, command: str) -> None:
        """ShowWindow with "minimize", "maximize" or "restore"."""

    def close_window(self, hwnd: int) -> None:
        """Post WM_CLOSE: the app may ask first, as when the user clicks X."""

    def set_foreground(self, hwnd: int) -> bool:
        """SetForegroundWindow; False when Windows' foreground lock refused it."""

    def bring_to_top(self, hwnd: int) -> None: ...

    def attach_input_to_foreground(self, attach: bool) -> None:
        """AttachThreadInput between our thread and the foreground window's thread."""

    def set_window_rect(self, hwnd: int, client: Rect) -> None:
        """SetWindowPos so that the client area becomes `client` (frame added for its DPI)."""

    def launch(self, argv: list[str]) -> int: ...

    def shell_open(self, target: str) -> None:
        """ShellExecuteW(NULL, "open", target): the app associated with a URL's scheme or a
        file's type opens it. NativeError UNSUPPORTED when none is (SE_ERR_NOASSOC), INVALID
        for another failure."""

    def window_class(self, hwnd: int) -> str: ...

    def window_frame(self, hwnd: int) -> Rect:
        """GetWindowRect: where the window's frame is now, in screen pixels."""

    def is_window(self, hwnd: int) -> bool: ...

    # -- UI Automation ------------------------------------------------------------------------
    def cache_tree(self, hwnd: int) -> list[RawElement]:
        """The window's control view in ONE CacheRequest: BuildUpdatedCache on the window's
        element with TreeScope_Subtree and TreeFilter = ControlView AND NOT IsOffscreen,
        every property and pattern state the protocol needs cached, the structure read from
        the cached children. Offscreen subtrees are left to the app: a 10,000-row list costs
        the rows on screen, not all of them."""

    def find_element(self, hwnd: int, runtime_id: tuple[int, ...]) -> RawElement | None:
        """One element by runtime id (FindFirstBuildCache with a RuntimeId condition);
        None when it no longer exists. Its `parent` is None."""

    def find_named(self, hwnd: int, runtime_id: tuple[int, ...], name: str) -> list[RawElement]:
        """The element's descendants named `name`, offscreen ones too (FindAllBuildCache with
        TreeScope_Descendants, ControlView AND Name == name, no IsOffscreen filter): what a list
        holds scrolled out of view, which `cache_tree` leaves out. [] when the element is gone;
        each one's `parent` is None."""

    def call_pattern(self, hwnd: int, runtime_id: tuple[int, ...], pattern: str, method: str, *args: Any) -> Any:
        """Get the element's current pattern and call one method or read one property:
        ("Invoke", "Invoke"), ("Value", "SetValue", text), ("Scroll", "Scroll", h, v), ...
        Raises NativeError."""

    def set_focus(self, hwnd: int, runtime_id: tuple[int, ...]) -> None: ...

    def wake_accessibility(self, hwnd: int) -> bool:
        """Ask a Chromium/Electron window to build its accessibility tree (WM_GETOBJECT to
        its render widget); True when the window is one."""

    # -- input ------------------------------------------------------------------------------
    def send_input(self, events: list[MouseInput | KeyInput]) -> int:
        """SendInput: global, like a real device. Returns how many events were inserted."""

    def cursor_position(self) -> tuple[int, int]: ...

    def post_message(self, hwnd: int, message: int, wparam: int, lparam: int) -> bool:
        """PostMessageW; False when Windows refused (UIPI gives ERROR_ACCESS_DENIED)."""

    def child_from_point(self, hwnd: int, x: int, y: int) -> int:
        """The deepest visible child window of `hwnd` at a screen point (or `hwnd`)."""

    def focused_child(self, hwnd: int) -> int:
        """The window that has keyboard focus in `hwnd`'s thread (GetGUIThreadInfo), or `hwnd`."""

    def screen_to_client(self, hwnd: int, x: int, y: int) -> tuple[int, int]: ...

    def flush_messages(self, hwnd: int, timeout_ms: int) -> bool:
        """Wait until the window's thread has taken the message posted to it last off its queue
        and handled it (two SendMessageTimeout(WM_NULL): a thread answers sent messages before it
        takes the next posted one, so the second answer comes after the posted one was taken).
        False when it did not within `timeout_ms` or is hung."""

    def attach_input(self, hwnd: int, attach: bool) -> bool:
        """AttachThreadInput between this thread and the window's thread: while attached the two
        share one key-state table (what GetKeyState answers there). Each call resets the key
        states. False when Windows refused: another desktop, a journal hook, no message queue."""

    def keyboard_state(self) -> bytes:
        """GetKeyboardState: 256 bytes, one per virtual key, high bit set while it is down."""

    def set_keyboard_state(self, state: bytes) -> bool:
        """SetKeyboardState: this thread's key-state table (the shared one while attached)."""

    def key_scan(self, char: str) -> int:
        """VkKeyScanW for one character in the current layout (-1 when it has no key)."""

    def scan_code(self, vk: int) -> int:
        """MapVirtualKeyW(vk, MAPVK_VK_TO_VSC), for the scan-code bits of key messages."""

    # -- pixels, clipboard, DWM --------------------------------------------------------------------
    def monitors(self) -> list[Rect]: ...

    def capture_screen(self, rect: Rect) -> Image.Image: ...

    def print_window(self, hwnd: int) -> Image.Image:
        """PrintWindow(PW_RENDERFULLCONTENT) of the whole window, even when covered or off-screen."""

    def get_clipboard(self) -> str: ...

    def set_clipboard(self, text: str) -> None: ...

    def window_dpi(self, hwnd: int) -> int:
        """GetDpiForWindow: the DPI the window is drawn at (96 at 100%), as this per-monitor aware
        process sees it."""
        ...

    def set_border_color(self, hwnd: int, rgb: tuple[int, int, int] | None) -> bool:
        """DWMWA_BORDER_COLOR (Windows 11); None restores the default. False when unsupported."""

    # -- overlay windows ----------------------------------------------------------------------------
    def create_overlay(self, rect: Rect, image: Image.Image, ex_style: int) -> int:
        """A WS_POPUP window with these extended styles at `rect` (screen pixels), showing
        `image` (RGBA, its alpha kept: UpdateLayeredWindow) without taking the focus; it lives on
        a thread of this process that pumps its messages. Returns its handle."""

    def move_overlay(self, hwnd: int, rect: Rect, image: Image.Image | None = None) -> None:
        """Move an overlay (SetWindowPos, kept topmost, not activated); a new image when given."""

    def destroy_overlay(self, hwnd: int) -> None:
        """DestroyWindow on the overlay's own thread. Safe when it is gone."""


def load_native() -> Native:
    """The real layer on Windows; `WINACTIONS_WINDOWS_NATIVE=module:factory` names another
    (a fake for tests, or a remote bridge), so the whole backend runs off Windows too."""
    spec = os.environ.get("WINACTIONS_WINDOWS_NATIVE")
    if spec:
        module_name, _, factory = spec.partition(":")
        return getattr(importlib.import_module(module_name), factory or "create")()
    if sys.platform == "win32":
        from winactions.backends.windows.win32 import Win32Native

        return Win32Native()
    raise BackendUnavailable(
        "the Windows backend needs Windows",
        hint="set WINACTIONS_WINDOWS_NATIVE to a native layer, or use the linux backend",
    )
