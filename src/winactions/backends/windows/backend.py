"""The Windows backend: UI Automation for the tree and patterns, SendInput or bound-window
messages for input, Win32 for windows, monitors and pixels.

Everything here is decisions over the `Native` layer — which pattern, which fallback, which
coordinates, which errors — so it is the same code whether `Native` is the real COM/Win32
layer or the test fake.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any, cast

from PIL import Image

from winactions.backends.base import (
    COVERED_BY_POPUP,
    COVERED_BY_TOOLTIP,
    DRAG_SETTLE,
    AppRef,
    Backend,
    Capability,
    Key,
    MouseButton,
    WindowAction,
    covered_by_window,
)
from winactions.backends.windows import patterns, sendinput
from winactions.backends.windows.bound import BoundInput
from winactions.backends.windows.comthread import OnComThread
from winactions.backends.windows.keymap import modifier_names
from winactions.backends.windows.native import (
    ErrorKind,
    KeyInput,
    MouseInput,
    Native,
    NativeError,
    NativeWindow,
    RawElement,
    load_native,
)
from winactions.backends.windows.tree import decode_handle, encode_handle, to_node, to_nodes
from winactions.errors import ActionFailed, AppBusy, InvalidInput, StaleElement, Unsupported, WindowClosed, shown
from winactions.keys import Chord
from winactions.model import Node, Operation, Rect, Snapshot, WindowInfo

BOUND_BORDER = (0, 200, 80)  # the green frame drawn around a bound window


TOOLTIP_CLASS = "tooltips_class32"  # the common controls' tooltip window
MENU_CLASS = "#32768"  # a Win32 popup menu (a menu bar's drop-downs and context menus)


def window_id(hwnd: int) -> str:
    return f"0x{hwnd:08x}"


def parse_window_id(text: str) -> int:
    try:
        return int(text, 16) if text.lower().startswith("0x") else int(text)
    except ValueError:
        raise InvalidInput(f"bad window id {text!r}", hint="use an id from `winctl windows`") from None


class WindowsBackend(Backend):
    platform = "windows"
    # no readable terminal yet; overlays are drawn on X11 only
    capabilities = frozenset(Capability) - {Capability.DEVICE, Capability.TERMINAL, Capability.OVERLAYS}

    def __init__(self, live: bool = False, native: Native | None = None) -> None:
        # `live` asks a backend to keep the tree cached through change events; this one reads
        # afresh every time (one CacheRequest is cheap), so it has nothing to keep.
        del live
        self.native = cast(Native, OnComThread(native or load_native()))
        self.dpi_mode = self.native.set_dpi_awareness()
        self._woken: set[int] = set()
        self._bound: BoundInput | None = None

    # -- windows --------------------------------------------------------------------------
    def _native_windows(self) -> list[NativeWindow]:
        return [w for w in self.native.top_windows() if w.visible and not w.cloaked and w.title]

    def _native_window(self, wid: str) -> NativeWindow:
        hwnd = parse_window_id(wid)
        found = next((w for w in self.native.top_windows() if w.hwnd == hwnd), None)
        if found is None:
            raise WindowClosed(f"window {wid} is closed", hint="run `winctl windows`")
        return found

    def list_windows(self) -> list[WindowInfo]:
        return [
            WindowInfo(
                id=window_id(w.hwnd),
                title=w.title,
                pid=w.pid,
                process=w.process,
                rect=None if w.minimized else w.client_rect,
                active=w.foreground,
                minimized=w.minimized,
                maximized=w.maximized,
                app_class=w.class_name,
            )
            for w in self._native_windows()
        ]

    def window_action(self, window_id_: str, action: WindowAction, rect: Rect | None = None) -> None:
        w = self._native_window(window_id_)
        if action is WindowAction.ACTIVATE:
            self._activate(w)
        elif action is WindowAction.CLOSE:
            self.native.close_window(w.hwnd)
        elif action in (WindowAction.MINIMIZE, WindowAction.MAXIMIZE, WindowAction.RESTORE):
            self.native.show_window(w.hwnd, action.value)
        elif action is WindowAction.MOVE_RESIZE:
            if rect is None:
                raise InvalidInput("move needs a rectangle", hint="winctl window move X Y [W H]")
            if w.minimized or w.maximized:
                self.native.show_window(w.hwnd, "restore")  # SetWindowPos on a maximized window is undone
            self.native.set_window_rect(w.hwnd, rect)

    def _activate(self, w: NativeWindow) -> None:
        """SetForegroundWindow, with the documented ways around the foreground lock: a
        process may only take the foreground right after input, so tap Alt (which counts
        as input) and retry; then attach to the foreground thread's input and retry."""
        if w.minimized:
            self.native.show_window(w.hwnd, "restore")
        if self.native.set_foreground(w.hwnd) and self.native.foreground_window() == w.hwnd:
            return
        self.native.send_input([KeyInput(vk=0x12), KeyInput(vk=0x12, up=True)])
        if self.native.set_foreground(w.hwnd) and self.native.foreground_window() == w.hwnd:
            return
        self.native.attach_input_to_foreground(True)
        try:
            self.native.bring_to_top(w.hwnd)
            self.native.set_foreground(w.hwnd)
        finally:
            self.native.attach_input_to_foreground(False)
        if self.native.foreground_window() != w.hwnd:
            raise ActionFailed(
                f'Windows kept "{w.title}" from the foreground (foreground lock)',
                hint="click the window once (`winctl click-at X Y`), or bind to it "
                "(`winctl bind-window bind`) to work without focus",
            )

    def launch(self, command: Sequence[str]) -> int:
        return self.native.launch(list(command))

    def covering(self, window_id_: str, x: int, y: int, in_popup: bool) -> str | None:
        """What is on top at (x, y): the top-level window there when it is not this one (a
        tooltip; a Win32 menu, or an untitled popup of the same app such as a drop-down; another
        window, named), or this window's own menu being tracked, which captures the mouse."""
        target = parse_window_id(window_id_)
        try:
            top = self.native.root_window_at(x, y)
            if top and top != target:
                kind, title = self.native.window_class(top), self.native.window_title(top)
                if kind == TOOLTIP_CLASS:
                    return COVERED_BY_TOOLTIP
                if kind == MENU_CLASS or (not title and self.native.window_pid(top) == self.native.window_pid(target)):
                    return None if in_popup else COVERED_BY_POPUP
                return covered_by_window(title)
            return COVERED_BY_POPUP if not in_popup and self.native.in_menu_mode(target) else None
        except NativeError:
            return None  # a window went away while we looked: nothing known to be in the way

    def density(self, window: WindowInfo | None) -> float | None:
        """The window's DPI over 96 (1.5 at 150%): this process is per-monitor DPI aware, so
        that is what the window is drawn at on its monitor."""
        if window is None:
            return None
        try:
            return self.native.window_dpi(parse_window_id(window.id)) / 96
        except NativeError:
            return None  # the window went away: nothing says

    # -- accessibility ----------------------------------------------------------------------
    def _translate(self, exc: NativeError, what: str) -> Exception:
        if exc.kind is ErrorKind.GONE:
            return WindowClosed(f"{what} is gone", hint="run `winctl windows`")
        if exc.kind is ErrorKind.TIMEOUT:
            return AppBusy(
                f"{what} did not answer UI Automation in time", hint="the app may be busy or showing a modal dialog"
            )
        if exc.kind is ErrorKind.ACCESS_DENIED:
            return ActionFailed(
                f"{what} refused UI Automation (it runs elevated?)", hint="run winctl with the same rights as the app"
            )
        return ActionFailed(f"{what}: {exc.message}", hint="run `winctl state` again")

    def snapshot(self, window: WindowInfo, *, max_nodes: int = 20000) -> Snapshot:
        hwnd = parse_window_id(window.id)
        started = time.perf_counter()
        if hwnd not in self._woken:
            self.native.wake_accessibility(hwnd)  # Chromium/Electron build their tree on demand
            self._woken.add(hwnd)
        try:
            raws = self.native.cache_tree(hwnd)
        except NativeError as exc:
            raise self._translate(exc, f'window "{window.title}"') from exc
        nodes, truncated = to_nodes(raws, hwnd, max_nodes)
        return Snapshot(nodes=nodes, truncated=truncated, elapsed_ms=(time.perf_counter() - started) * 1000)

    def _raw(self, handle: str) -> tuple[int, RawElement]:
        hwnd, rid = decode_handle(handle)
        try:
            raw = self.native.find_element(hwnd, rid)
        except NativeError as exc:
            if exc.kind is ErrorKind.GONE:
                raw = None
            else:
                raise self._translate(exc, "the element") from exc
        if raw is None:
            raise StaleElement("the element is gone", hint="run `winctl state`")
        return hwnd, raw

    def refresh(self, handle: str) -> Node | None:
        try:
            hwnd, raw = self._raw(handle)
        except StaleElement:
            return None
        return to_node(raw, hwnd, None)

    def _descendants(self, hwnd: int, root: RawElement) -> list[RawElement]:
        raws = self.native.cache_tree(hwnd)
        inside: set[int] = set()
        found = []
        for i, r in enumerate(raws):
            if r.runtime_id == root.runtime_id:
                inside.add(i)
            elif r.parent in inside:
                inside.add(i)
                found.append(r)
        return found

    def named_below(self, handles: list[str], name: str, limit: int) -> list[str]:
        """The descendants of `handles` named `name`, offscreen ones too (a state's read leaves
        them out), each found by the app's provider (UIA FindAll), at most `limit`."""
        found: list[str] = []
        for handle in handles:
            hwnd, rid = decode_handle(handle)
            try:
                raws = self.native.find_named(hwnd, rid, name)
            except NativeError as exc:
                raise self._translate(exc, "the list") from exc
            found += [encode_handle(hwnd, r.runtime_id) for r in raws[:limit]]
        return list(dict.fromkeys(found))

    def scroll_into_view(self, handle: str) -> bool:
        """ScrollItemPattern.ScrollIntoView: the item's container scrolls it into view (WPF and
        WinForms list items, browsers' elements); False where the item has no such pattern."""
        try:
            hwnd, raw = self._raw(handle)
        except StaleElement:
            return False
        if "ScrollItem" not in raw.patterns:
            return False
        try:
            self.native.call_pattern(hwnd, raw.runtime_id, "ScrollItem", "ScrollIntoView")
        except NativeError:
            return False
        return True

    def perform(self, handle: str, operation: Operation, argument: str | float | None = None) -> str:
        hwnd, raw = self._raw(handle)
        return patterns.perform(self.native, hwnd, raw, operation, argument, lambda: self._descendants(hwnd, raw))

    def read_text(self, handle: str) -> str:
        hwnd, raw = self._raw(handle)
        if raw.password:
            raise ActionFailed(
                "the element is a password field: its text is never read", hint="type a new one with `winctl input`"
            )
        if "Text" in raw.patterns:
            try:
                return str(self.native.call_pattern(hwnd, raw.runtime_id, "Text", "GetText", -1))
            except NativeError:
                pass
        if "Value" in raw.patterns:
            return str(raw.patterns["Value"].get("Value", ""))
        return raw.name

    # -- input ------------------------------------------------------------------------------
    def _send(self, events: list[Any]) -> None:
        sent = self.native.send_input(events)
        if sent != len(events):
            raise ActionFailed(
                f"Windows inserted {sent} of {len(events)} input events",
                hint="input is blocked: a UAC prompt, a locked screen, or an elevated window in front (UIPI)",
            )

    def click(
        self, x: int, y: int, button: MouseButton = MouseButton.LEFT, count: int = 1, modifiers: Sequence[Key] = ()
    ) -> None:
        """A click with `modifiers` (shift, ctrl, alt, super) held: bound, in the mouse messages'
        MK_ flags and the window thread's key state; else SendInput's keys around the click."""
        if self._bound:
            self._bound.click(x, y, button, count, modifiers)
            return
        names = modifier_names(modifiers)
        self._send(sendinput.with_modifiers(sendinput.click(x, y, button, count), names))

    def mouse_move(self, x: int, y: int) -> None:
        if self._bound:
            self._bound.move(x, y)
        else:
            self._send([MouseInput(x, y, ("move",))])

    def mouse_button(self, button: MouseButton, down: bool) -> None:
        if self._bound:
            x, y = self._bound.cursor or self.native.cursor_position()
            self._bound.press(x, y, button, down)
        else:
            x, y = self.native.cursor_position()
            self._send(sendinput.button(x, y, button, down))

    def drag(
        self, x1: int, y1: int, x2: int, y2: int, *, button: MouseButton = MouseButton.LEFT, duration: float = 0.3
    ) -> None:
        steps = max(2, int(duration / 0.015))
        points = [(x1, y1), *sendinput.path(x1, y1, x2, y2, steps)]
        if self._bound:
            self._bound.drag(points, button)
            return
        self._send([MouseInput(x1, y1, ("move",))])
        time.sleep(DRAG_SETTLE)
        self._send(sendinput.button(x1, y1, button, True))
        time.sleep(DRAG_SETTLE)
        try:
            for x, y in points[1:]:
                self._send([MouseInput(x, y, ("move",))])
                time.sleep(duration / steps)
        finally:
            self._send(sendinput.button(x2, y2, button, False))

    def scroll(self, x: int, y: int, dx: int, dy: int) -> None:
        if self._bound:
            self._bound.wheel(x, y, dx, dy)
        else:
            self._send(sendinput.wheel(x, y, dx, dy))

    def _chords(self, chords: Sequence[Chord]) -> list[KeyInput]:
        try:
            return sendinput.chords(chords, self.native.key_scan)
        except ValueError as exc:
            raise InvalidInput(str(exc), hint="type it with `winctl type` instead") from None

    def press_chords(self, chords: Sequence[Chord]) -> None:
        if self._bound:
            self._bound.press_chords(chords)
        else:
            self._send(self._chords(chords))

    def hold_keys(self, chords: Sequence[Chord], seconds: float) -> None:
        if self._bound:
            self._bound.press_chords(chords, hold=seconds)
            return
        downs: list[KeyInput] = []
        ups: list[KeyInput] = []
        for chord in chords:
            try:
                down, up = sendinput.chord_down(chord, self.native.key_scan)
            except ValueError as exc:
                raise InvalidInput(str(exc), hint="type it with `winctl type` instead") from None
            downs += down
            ups = up + ups
        self._send(downs)
        try:
            time.sleep(seconds)
        finally:
            self._send(ups)

    def key_state(self, chords: Sequence[Chord], down: bool) -> None:
        """Press (`down`) or release the chords' keys and leave them so: bound, WM_KEYDOWN or
        WM_KEYUP to the window, its modifiers kept down for later bound messages; else SendInput
        key-down or key-up events (releases in reverse order)."""
        if self._bound:
            self._bound.key_state(chords, down)
            return
        events: list[KeyInput] = []
        for chord in chords if down else list(reversed(chords)):
            try:
                press, release = sendinput.chord_down(chord, self.native.key_scan)
            except ValueError as exc:
                raise InvalidInput(str(exc), hint="type it with `winctl type` instead") from None
            events += press if down else release
        self._send(events)

    def type_text(self, text: str) -> None:
        if self._bound:
            self._bound.type_text(text)
        else:
            self._send(sendinput.text(text))

    def cursor_position(self) -> tuple[int, int]:
        """The real pointer; when bound, the bound window's virtual cursor once it has moved."""
        if self._bound and self._bound.cursor:
            return self._bound.cursor
        return self.native.cursor_position()

    # -- bound-window mode --------------------------------------------------------------------
    def bind(self, window_id_: str, pointer: tuple[int, int, int] | None = None) -> str:
        w = self._native_window(window_id_)
        bound = BoundInput(self.native, w)
        bound.check_deliverable()  # refuse a window no message can reach, before binding
        if pointer is not None:
            bound.restore(pointer)
        self.unbind()
        self._bound = bound
        if self.native.set_border_color(w.hwnd, BOUND_BORDER):
            return "green DWM border set"
        return "no border colour (needs Windows 11)"

    def unbind(self) -> None:
        if self._bound is not None:
            self._bound.close()
            if self.native.is_window(self._bound.window.hwnd):
                self.native.set_border_color(self._bound.window.hwnd, None)
            self._bound = None

    def bound_window(self) -> str | None:
        return window_id(self._bound.window.hwnd) if self._bound else None

    def bound_pointer(self) -> tuple[int, int, int] | None:
        return None if self._bound is None else self._bound.pointer()

    # -- clipboard, screens, pixels -------------------------------------------------------------
    def get_clipboard(self) -> str:
        return self.native.get_clipboard()

    def set_clipboard(self, text: str) -> None:
        self.native.set_clipboard(text)

    def open_url(self, url: str) -> str:
        try:
            self.native.shell_open(url)
        except NativeError as exc:
            scheme = url.split(":", 1)[0].lower()
            if exc.kind is ErrorKind.UNSUPPORTED:
                raise Unsupported(
                    f"no app here opens {scheme}: URLs",
                    hint="associate one in Settings > Default apps; nothing was done",
                ) from None
            raise ActionFailed(f"Windows could not open {shown(url)}: {exc.message}") from None
        return "ShellExecute"

    def screens(self) -> list[Rect]:
        return self.native.monitors()

    def capture(self, rect: Rect) -> Image.Image:
        """The screen, or — when bound and the rect lies in the bound window — PrintWindow of
        that window, which works while it is covered or parked off-screen."""
        if self._bound is not None:
            w = self._native_window(window_id(self._bound.window.hwnd))
            frame = w.window_rect
            if frame.intersect(rect) == rect:
                image = self.native.print_window(w.hwnd)
                return image.crop(
                    (rect.left - frame.left, rect.top - frame.top, rect.right - frame.left, rect.bottom - frame.top)
                ).convert("RGB")
        return self.native.capture_screen(rect)

    # -- which app (the access gate): a window's process name and class --------------------------
    def app_of_window(self, window_id_: str) -> AppRef:
        return self._app(parse_window_id(window_id_))

    def app_at(self, x: int, y: int) -> AppRef | None:
        hwnd = self.native.root_window_at(x, y)
        return self._app(hwnd) if hwnd else None

    def app_of_element(self, handle: str) -> AppRef:
        return self._app(decode_handle(handle)[0])

    def focused_app(self) -> AppRef | None:
        hwnd = self.native.foreground_window()
        return self._app(hwnd) if hwnd else None

    def _app(self, hwnd: int) -> AppRef:
        """The app of a top-level window: its process's name (with and without `.exe`), its class."""
        w = next((w for w in self.native.top_windows() if w.hwnd == hwnd), None)
        try:
            pid = w.pid if w is not None else self.native.window_pid(hwnd)
        except NativeError as exc:
            raise self._translate(exc, f"window {window_id(hwnd)}") from exc
        process = w.process if w is not None else ""
        names = [process.removesuffix(".exe"), process, w.class_name if w is not None else ""]
        unique = tuple(dict.fromkeys(n for n in names if n))
        return AppRef(names=unique, pid=pid, window_id=window_id(hwnd), title=w.title if w is not None else "")

    def close(self) -> None:
        if self._bound is not None:
            self._bound.close()  # its cursor window; the binding itself is the session's
        closer = getattr(self.native, "close", None)
        if closer is not None:
            closer()
