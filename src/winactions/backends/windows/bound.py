"""Bound-window mode: input delivered to one window by window messages.

The real mouse does not move and the window need not have focus, so an agent can work in
a window while a person uses the machine. Each message is posted, then waited for until the
window's thread has taken it (`flush_messages`), so "done" means the app handled it.

Modifiers: a posted WM_KEYDOWN carries no ctrl or shift state, and apps ask GetKeyState
(TranslateAccelerator for ctrl+s, edit controls, list views on a click), which knows nothing
of it. So while a chord or a click with modifiers is delivered, this thread attaches to the
window's thread input (AttachThreadInput), which makes the two share one key-state table, and
sets the modifiers down in it (SetKeyboardState) for each message, as a keyboard would have;
mouse messages also carry MK_SHIFT / MK_CONTROL in their wParam. Apps that read the physical
keyboard instead (GetAsyncKeyState, raw input: games, some XAML hosts) still see no modifier.
Modifiers held by `key_state` stay down for every later message, between processes too.

Where messages cannot arrive at all, the action is refused up front with the global fallback
named, instead of "succeeding" while nothing happens:

- an elevated target: User Interface Privilege Isolation drops messages from a process of
  lower integrity;
- ConPTY terminals (Windows Terminal): they read input from the pseudo console, not from
  window messages;
- the Windows key: its shortcuts belong to the shell, which reads the real keyboard.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass

from winactions.backends.base import MouseButton
from winactions.backends.windows.cursor import VirtualCursor
from winactions.backends.windows.keymap import EXTENDED, MODIFIER_VK, chord_vks, modifier_names
from winactions.backends.windows.native import Native, NativeWindow
from winactions.errors import ActionFailed, AppBusy, InvalidInput
from winactions.keys import MODIFIERS, Chord

WM_KEYDOWN, WM_KEYUP, WM_CHAR, WM_SYSKEYDOWN, WM_SYSKEYUP = 0x0100, 0x0101, 0x0102, 0x0104, 0x0105
WM_MOUSEMOVE, WM_MOUSEWHEEL, WM_MOUSEHWHEEL = 0x0200, 0x020A, 0x020E
BUTTON_MESSAGES = {  # button -> (down, up, double click, MK_ flag)
    MouseButton.LEFT: (0x0201, 0x0202, 0x0203, 0x0001),
    MouseButton.RIGHT: (0x0204, 0x0205, 0x0206, 0x0002),
    MouseButton.MIDDLE: (0x0207, 0x0208, 0x0209, 0x0010),
}
MK_SHIFT, MK_CONTROL = 0x0004, 0x0008
MODIFIER_MK = {"shift": MK_SHIFT, "ctrl": MK_CONTROL}  # alt has no MK_ flag: the key state says it
# The key-state bytes a held modifier sets: the generic key and its left-hand one (apps ask either)
MODIFIER_STATE = {"ctrl": (0x11, 0xA2), "shift": (0x10, 0xA0), "alt": (0x12, 0xA4)}
VK_MODIFIER = {vk: name for name, vk in MODIFIER_VK.items()}
HELD_SHIFT = 16  # bound_pointer packs held modifiers above the 16 bits of MK_ flags
UNMOVED = -(1 << 31)  # a kept pointer whose cursor never moved (only keys were held)
FLUSH_MS = 5000
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


@dataclass(frozen=True)
class KeyEvent:
    """One key going down or up, and the modifiers down once it has (what GetKeyState says)."""

    vk: int
    up: bool
    modifiers: frozenset[str]


def chord_events(modifier_vks: Sequence[int], vk: int) -> tuple[list[KeyEvent], list[KeyEvent]]:
    """(presses, releases) of one chord as a keyboard makes them: modifiers first down, last up."""
    names = [VK_MODIFIER[m] for m in modifier_vks]
    downs = [KeyEvent(m, False, frozenset(names[: i + 1])) for i, m in enumerate(modifier_vks)]
    key = [VK_MODIFIER[vk]] if vk in VK_MODIFIER else []  # a modifier pressed on its own
    downs.append(KeyEvent(vk, False, frozenset(names + key)))
    ups = [KeyEvent(vk, True, frozenset(names))]
    ups += [KeyEvent(m, True, frozenset(names[:i])) for i, m in reversed(list(enumerate(modifier_vks)))]
    return downs, ups


def check_modifiers(modifiers: Iterable[str]) -> frozenset[str]:
    """Modifier names as a set; an unknown one is InvalidInput, the Windows key ActionFailed."""
    names = frozenset(modifier_names(modifiers))
    if "super" in names:
        raise ActionFailed(
            "the Windows key cannot be sent to a window: its shortcuts belong to the shell, "
            "which reads the real keyboard",
            hint=GLOBAL_FALLBACK,
        )
    return names


class BoundInput:
    """Window-message input for one bound window."""

    def __init__(self, native: Native, window: NativeWindow) -> None:
        self.native = native
        self.window = window
        self.buttons = 0  # MK_ flags of buttons held down, sent with every mouse message
        self.held: frozenset[str] = frozenset()  # modifiers held down by `key_state`
        self.cursor: tuple[int, int] | None = None  # the virtual cursor: where bound input last pointed
        self.drawn = VirtualCursor(native)

    def close(self) -> None:
        """The binding ends: the virtual cursor's window goes."""
        self.drawn.hide()

    # -- what a new process restores ---------------------------------------------------------
    def pointer(self) -> tuple[int, int, int] | None:
        """(x, y, flags) to keep between processes: the cursor, MK_ buttons, held modifiers."""
        if self.cursor is None and not self.buttons and not self.held:
            return None
        x, y = self.cursor if self.cursor is not None else (UNMOVED, UNMOVED)
        held = sum(1 << (HELD_SHIFT + MODIFIERS.index(m)) for m in self.held)
        return x, y, self.buttons | held

    def restore(self, pointer: tuple[int, int, int]) -> None:
        """Take back what `pointer` kept in an earlier process."""
        x, y, flags = pointer
        self.cursor = None if x == UNMOVED else (x, y)
        self.buttons = flags & 0xFFFF
        self.held = frozenset(m for i, m in enumerate(MODIFIERS) if flags >> (HELD_SHIFT + i) & 1)

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
        """Post one message and wait until the window's thread has taken it."""
        if not self.native.post_message(hwnd, message, wparam, lparam):
            raise ActionFailed(f'Windows refused a message to "{self.window.title}"', hint=GLOBAL_FALLBACK)
        if not self.native.flush_messages(hwnd, FLUSH_MS):
            raise AppBusy(
                f'"{self.window.title}" has not taken its input in {FLUSH_MS / 1000:g}s',
                hint="the app is busy or hung; `winctl state` shows what arrived",
            )

    @contextlib.contextmanager
    def _key_state(self, modifiers: frozenset[str]) -> Iterator[Callable[[frozenset[str]], None]]:
        """Inside, the window's thread reads the modifiers given to the yielded setter (and the
        held ones) as down: attached to its input, with the shared key-state table set. Without
        any modifier nothing is attached and the setter does nothing."""
        if not modifiers | self.held:
            yield lambda _: None
            return
        hwnd = self.window.hwnd
        if not self.native.attach_input(hwnd, True):
            raise ActionFailed(
                f'Windows would not share key state with "{self.window.title}" (AttachThreadInput), so '
                f"{'+'.join(sorted(modifiers | self.held))} would arrive as plain keys",
                hint=GLOBAL_FALLBACK,
            )
        original = self.native.keyboard_state()  # read after attaching: the call resets it

        def set_down(down: frozenset[str]) -> None:
            state = bytearray(original)
            for name in down | self.held:
                for vk in MODIFIER_STATE[name]:
                    state[vk] |= 0x80
            self.native.set_keyboard_state(bytes(state))

        try:
            set_down(modifiers)
            yield set_down
        finally:
            self.native.set_keyboard_state(original)
            self.native.attach_input(hwnd, False)

    # -- mouse ---------------------------------------------------------------------------
    def _target(self, x: int, y: int, pressed: bool = False) -> tuple[int, int]:
        """(child window under the point, lParam in its client coordinates); the virtual
        cursor moves there. The window's place is read now: it may have moved since binding
        (parked off-screen, dragged by the person)."""
        frame = self.native.window_frame(self.window.hwnd)
        if not frame.contains(x, y):
            raise ActionFailed(
                f"({x}, {y}) is outside the bound window {frame}",
                hint="bound input reaches only that window; " + GLOBAL_FALLBACK,
            )
        child = self.native.child_from_point(self.window.hwnd, x, y)
        cx, cy = self.native.screen_to_client(child, x, y)
        self.cursor = (x, y)
        self.drawn.show(x, y, pressed)
        return child, make_lparam(cx, cy)

    def _mk(self, modifiers: frozenset[str]) -> int:
        return self.buttons | sum(MODIFIER_MK.get(m, 0) for m in modifiers | self.held)

    def move(self, x: int, y: int) -> None:
        self.check_deliverable()
        child, lparam = self._target(x, y, pressed=bool(self.buttons))
        with self._key_state(frozenset()):
            self._post(child, WM_MOUSEMOVE, self._mk(frozenset()), lparam)

    def press(self, x: int, y: int, button: MouseButton, down: bool) -> None:
        self.check_deliverable()
        child, lparam = self._target(x, y, pressed=down)
        press, release, _, flag = BUTTON_MESSAGES[button]
        self.buttons = self.buttons | flag if down else self.buttons & ~flag
        with self._key_state(frozenset()):
            self._post(child, press if down else release, self._mk(frozenset()), lparam)

    def click(self, x: int, y: int, button: MouseButton, count: int, modifiers: Iterable[str] = ()) -> None:
        """Move, then `count` presses and releases (the second press of a double click is
        WM_xBUTTONDBLCLK, as Windows itself sends it), with the modifiers down throughout."""
        names = check_modifiers(modifiers)
        self.check_deliverable()
        child, lparam = self._target(x, y, pressed=True)
        press, release, double, flag = BUTTON_MESSAGES[button]
        mk = self._mk(names)
        with self._key_state(names):
            self._post(child, WM_MOUSEMOVE, mk, lparam)
            for i in range(count):
                self._post(child, double if i % 2 == 1 else press, mk | flag, lparam)
                self._post(child, release, mk, lparam)
        self.drawn.show(x, y)

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
        mk = self._mk(frozenset())
        with self._key_state(frozenset()):
            if dy:
                self._post(child, WM_MOUSEWHEEL, ((-dy * WHEEL_DELTA) & 0xFFFF) << 16 | mk, make_lparam(x, y))
            if dx:
                self._post(child, WM_MOUSEHWHEEL, ((dx * WHEEL_DELTA) & 0xFFFF) << 16 | mk, make_lparam(x, y))

    # -- keyboard --------------------------------------------------------------------------
    def type_text(self, text: str) -> None:
        """WM_CHAR per UTF-16 unit to the focused child: any script, emoji as surrogate pairs."""
        self.check_deliverable()
        target = self.native.focused_child(self.window.hwnd)
        for ch in text.replace("\r\n", "\n"):
            data = ("\r" if ch == "\n" else ch).encode("utf-16-le")
            for i in range(0, len(data), 2):
                self._post(target, WM_CHAR, int.from_bytes(data[i : i + 2], "little"), 1)

    def _chord(self, chord: Chord) -> tuple[list[KeyEvent], list[KeyEvent]]:
        check_modifiers([*chord.modifiers, *([chord.key] if chord.key in MODIFIER_VK else [])])
        try:
            return chord_events(*chord_vks(chord, self.native.key_scan))
        except ValueError as exc:
            raise InvalidInput(str(exc), hint="type it with `winctl type` instead") from None

    def _send_keys(self, events: Sequence[KeyEvent]) -> None:
        """Post each key event to the focused child as the keyboard would have made it:
        WM_SYSKEY* while alt is down without ctrl (its context bit set), WM_KEY* else, with
        the key state of that moment."""
        target = self.native.focused_child(self.window.hwnd)
        with self._key_state(frozenset().union(*(e.modifiers for e in events))) as set_down:
            for e in events:
                down = e.modifiers | self.held
                alt = "alt" in down or (e.up and e.vk == MODIFIER_VK["alt"])
                system = alt and "ctrl" not in down
                message = (WM_SYSKEYUP if e.up else WM_SYSKEYDOWN) if system else (WM_KEYUP if e.up else WM_KEYDOWN)
                set_down(e.modifiers)
                scan, extended = self.native.scan_code(e.vk), e.vk in EXTENDED
                self._post(target, message, e.vk, key_lparam(scan, up=e.up, alt=alt, extended=extended))

    def press_chords(self, chords: Sequence[Chord], hold: float = 0.0) -> None:
        """Each chord pressed and released (held `hold` seconds between)."""
        self.check_deliverable()
        planned = [self._chord(c) for c in chords]  # refuse before sending any
        for downs, ups in planned:
            self._send_keys(downs)
            if hold:
                time.sleep(hold)
            self._send_keys(ups)

    def key_state(self, chords: Sequence[Chord], down: bool) -> None:
        """Press (or release) the chords' keys and leave them so: modifiers pressed here stay
        down for every later bound message until released here."""
        self.check_deliverable()
        planned = [self._chord(c) for c in chords]
        if down:
            for downs, _ in planned:
                self._send_keys(downs)
                self.held |= downs[-1].modifiers
        else:
            for downs, ups in reversed(planned):
                self.held -= downs[-1].modifiers
                self._send_keys(ups)
