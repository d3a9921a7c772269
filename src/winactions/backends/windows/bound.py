"""Bound-window mode: input delivered to one window by window messages.

The real mouse does not move and the window need not have focus, so an agent can work in
a window while a person uses the machine. Windows only delivers such input where the app
reads it from its message queue, so each known case where it cannot arrive is refused up
front with the global fallback named, instead of "succeeding" while nothing happens:

- an elevated target: User Interface Privilege Isolation drops messages from a process of
  lower integrity;
- ConPTY terminals (Windows Terminal): they read input from the pseudo console, not from
  window messages;
- hotkeys with Ctrl, Win or Shift: a posted WM_KEYDOWN carries no modifier state (the app
  asks GetKeyState, which knows nothing of it), so ctrl+s would arrive as "s". Alt is the
  exception: WM_SYSKEYDOWN's context bit carries it.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

from winactions.backends.base import MouseButton
from winactions.backends.windows.keymap import EXTENDED, VK_MENU, chord_vks
from winactions.backends.windows.native import Native, NativeWindow
from winactions.errors import ActionFailed
from winactions.keys import Chord

WM_KEYDOWN, WM_KEYUP, WM_CHAR, WM_SYSKEYDOWN, WM_SYSKEYUP = 0x0100, 0x0101, 0x0102, 0x0104, 0x0105
WM_MOUSEMOVE, WM_MOUSEWHEEL, WM_MOUSEHWHEEL = 0x0200, 0x020A, 0x020E
BUTTON_MESSAGES = {  # button -> (down, up, double click, MK_ flag)
    MouseButton.LEFT: (0x0201, 0x0202, 0x0203, 0x0001),
    MouseButton.RIGHT: (0x0204, 0x0205, 0x0206, 0x0002),
    MouseButton.MIDDLE: (0x0207, 0x0208, 0x0209, 0x0010),
}
WHEEL_DELTA = 120
CONPTY_CLASSES = {"CASCADIA_HOSTING_WINDOW_CLASS", "PseudoConsoleWindow"}
GLOBAL_FALLBACK = "`winctl bind-window unbind`, then the same command uses global input (it brings the window forward)"


def make_lparam(x: int, y: int) -> int:
    """MAKELPARAM with signed 16-bit coordinates: a point left of or above the window, or on
    a monitor with negative coordinates, must survive the packing."""
    return (y & 0xFFFF) << 16 | (x & 0xFFFF)


def key_lparam(scan: int, *, up: bool, alt: bool, extended: bool) -> int:
    """The documented bit layout of WM_KEYDOWN/WM_KEYUP/WM_SYS* lParam."""
    value = 1 | (scan & 0xFF) << 16 | int(extended) << 24 | int(alt) << 29
    if up:
        value |= 1 << 30 | 1 << 31
    return value


class BoundInput:
    """Window-message input for one bound window."""

    def __init__(self, native: Native, window: NativeWindow) -> None:
        self.native = native
        self.window = window
        self.buttons = 0  # MK_ flags of buttons held down, sent with every mouse message
        self.cursor: tuple[int, int] | None = None  # the virtual cursor: where bound input last pointed

    # -- what cannot be delivered ---------------------------------------------------------
    def check_deliverable(self) -> None:
        w = self.window
        if not self.native.is_window(w.hwnd):
            raise ActionFailed(f'the bound window "{w.title}" is closed', hint="`winctl bind-window unbind`")
        if w.class_name in CONPTY_CLASSES:
            raise ActionFailed(
                f'"{w.title}" is a ConPTY terminal: it reads input from its pseudo console, not from window messages',
                hint=GLOBAL_FALLBACK + "; or paste with the clipboard",
            )
        mine, theirs = self.native.integrity_level(None), self.native.integrity_level(w.pid)
        if theirs > mine:
            raise ActionFailed(
                f'"{w.title}" runs elevated: Windows (UIPI) drops messages from this lower-integrity process',
                hint=GLOBAL_FALLBACK + "; or run winctl elevated too",
            )

    def _post(self, hwnd: int, message: int, wparam: int, lparam: int) -> None:
        if not self.native.post_message(hwnd, message, wparam, lparam):
            raise ActionFailed(f'Windows refused a message to "{self.window.title}"', hint=GLOBAL_FALLBACK)

    # -- mouse ---------------------------------------------------------------------------
    def _target(self, x: int, y: int) -> tuple[int, int]:
        """(child window under the point, lParam in its client coordinates)."""
        if not self.window.window_rect.contains(x, y):
            raise ActionFailed(
                f"({x}, {y}) is outside the bound window {self.window.window_rect}",
                hint="bound input reaches only that window; " + GLOBAL_FALLBACK,
            )
        child = self.native.child_from_point(self.window.hwnd, x, y)
        cx, cy = self.native.screen_to_client(child, x, y)
        self.cursor = (x, y)
        return child, make_lparam(cx, cy)

    def move(self, x: int, y: int) -> None:
        self.check_deliverable()
        child, lparam = self._target(x, y)
        self._post(child, WM_MOUSEMOVE, self.buttons, lparam)

    def press(self, x: int, y: int, button: MouseButton, down: bool) -> None:
        self.check_deliverable()
        child, lparam = self._target(x, y)
        press, release, _, flag = BUTTON_MESSAGES[button]
        self.buttons = self.buttons | flag if down else self.buttons & ~flag
        self._post(child, press if down else release, self.buttons, lparam)

    def click(self, x: int, y: int, button: MouseButton, count: int) -> None:
        self.check_deliverable()
        child, lparam = self._target(x, y)
        press, release, double, flag = BUTTON_MESSAGES[button]
        self._post(child, WM_MOUSEMOVE, self.buttons, lparam)
        for i in range(count):
            # the second press of a double click is WM_xBUTTONDBLCLK, as Windows itself sends it
            self._post(child, double if i % 2 == 1 else press, self.buttons | flag, lparam)
            self._post(child, release, self.buttons, lparam)

    def drag(self, points: Sequence[tuple[int, int]], button: MouseButton) -> None:
        (x1, y1), rest = points[0], points[1:]
        self.press(x1, y1, button, True)
        try:
            for x, y in rest:
                self.move(x, y)
                time.sleep(0.01)
        finally:
            x2, y2 = points[-1]
            self.press(x2, y2, button, False)

    def wheel(self, x: int, y: int, dx: int, dy: int) -> None:
        """WM_MOUSEWHEEL / WM_MOUSEHWHEEL, whose lParam is in screen coordinates. Browsers,
        Excel and editors scroll on these where WM_VSCROLL does nothing."""
        self.check_deliverable()
        child, _ = self._target(x, y)
        if dy:
            self._post(child, WM_MOUSEWHEEL, ((-dy * WHEEL_DELTA) & 0xFFFF) << 16 | self.buttons, make_lparam(x, y))
        if dx:
            self._post(child, WM_MOUSEHWHEEL, ((dx * WHEEL_DELTA) & 0xFFFF) << 16 | self.buttons, make_lparam(x, y))

    # -- keyboard --------------------------------------------------------------------------
    def type_text(self, text: str) -> None:
        """WM_CHAR per UTF-16 unit to the focused child: any script, emoji as surrogate pairs."""
        self.check_deliverable()
        target = self.native.focused_child(self.window.hwnd)
        for ch in text.replace("\r\n", "\n"):
            data = ("\r" if ch == "\n" else ch).encode("utf-16-le")
            for i in range(0, len(data), 2):
                self._post(target, WM_CHAR, int.from_bytes(data[i : i + 2], "little"), 1)

    def _chord_messages(self, chord: Chord) -> list[tuple[int, int, int]]:
        refused = [m for m in chord.modifiers if m != "alt"]
        modifiers, vk = chord_vks(chord, self.native.key_scan)
        if refused or (modifiers and set(modifiers) - {VK_MENU}):
            raise ActionFailed(
                f"{chord} cannot be posted to a window: window messages carry no "
                f"{'/'.join(refused) or 'shift'} state, so it would arrive as a plain key",
                hint=GLOBAL_FALLBACK + "; or click the menu item that does the same",
            )
        alt = bool(modifiers)
        scan, extended = self.native.scan_code(vk), vk in EXTENDED
        down, up = (WM_SYSKEYDOWN, WM_SYSKEYUP) if alt else (WM_KEYDOWN, WM_KEYUP)
        return [
            (down, vk, key_lparam(scan, up=False, alt=alt, extended=extended)),
            (up, vk, key_lparam(scan, up=True, alt=alt, extended=extended)),
        ]

    def press_chords(self, chords: Sequence[Chord], hold: float = 0.0) -> None:
        self.check_deliverable()
        planned = [self._chord_messages(c) for c in chords]  # refuse before sending any
        target = self.native.focused_child(self.window.hwnd)
        for down, up in planned:
            self._post(target, *down)
            if hold:
                time.sleep(hold)
            self._post(target, *up)
