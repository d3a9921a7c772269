"""Synthesized mouse and keyboard through XTEST (python-xlib).

Three things make X input unreliable if done naively, and all are handled here: modifiers
get lost unless the server has seen each press (`sync()` after every modifier); characters
missing from the keymap (é, ✓, 中) cannot be typed at all — they are bound to a spare
keycode for the duration of the call, then the keymap is restored; and a window manager may
hold a click while keys go on — a click returns once it has been let through.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

from Xlib import XK, X
from Xlib.ext import xtest

from winactions.backends.base import DRAG_SETTLE, MouseButton
from winactions.backends.linux.x11windows import open_display
from winactions.errors import BackendUnavailable, InvalidInput
from winactions.keys import Chord

BUTTONS = {MouseButton.LEFT: 1, MouseButton.MIDDLE: 2, MouseButton.RIGHT: 3}
BUTTON_MASKS = {button: X.Button1Mask << (number - 1) for button, number in BUTTONS.items()}
MODIFIER_KEYSYMS = {"ctrl": "Control_L", "shift": "Shift_L", "alt": "Alt_L", "super": "Super_L"}
# every key that holds each modifier down, either side
MODIFIER_SIDES = {
    "ctrl": ("Control_L", "Control_R"),
    "shift": ("Shift_L", "Shift_R"),
    "alt": ("Alt_L", "Alt_R", "Meta_L", "Meta_R"),
    "super": ("Super_L", "Super_R", "Hyper_L", "Hyper_R"),
}
NAMED_KEYSYMS = {
    "Enter": "Return",
    "Tab": "Tab",
    "Escape": "Escape",
    "Backspace": "BackSpace",
    "Delete": "Delete",
    "Insert": "Insert",
    "Space": "space",
    "Home": "Home",
    "End": "End",
    "PageUp": "Prior",
    "PageDown": "Next",
    "Up": "Up",
    "Down": "Down",
    "Left": "Left",
    "Right": "Right",
    "CapsLock": "Caps_Lock",
    "NumLock": "Num_Lock",
    "ScrollLock": "Scroll_Lock",
    "PrintScreen": "Print",
    "Pause": "Pause",
    "Menu": "Menu",
    **{f"F{i}": f"F{i}" for i in range(1, 25)},
}
CONTROL_CHARS = {"\n": "Return", "\r": "Return", "\t": "Tab", "\b": "BackSpace"}
CLICK_GAP = 0.03  # well inside any double-click interval
KEY_GAP = 0.002
RELEASE_WAIT = 3.0  # s a window manager may hold a click before letting it through to the window


def char_keysym(ch: str) -> int:
    """X keysym of a character: Latin-1 maps directly, the rest through Unicode keysyms."""
    if ch in CONTROL_CHARS:
        return XK.string_to_keysym(CONTROL_CHARS[ch])
    code = ord(ch)
    if 0x20 <= code <= 0x7E or 0xA0 <= code <= 0xFF:
        return code
    return 0x01000000 | code


class XInput:
    def __init__(self, display_name: str | None = None) -> None:
        self.d = open_display(display_name)
        if not self.d.has_extension("XTEST"):
            raise BackendUnavailable("the X server has no XTEST extension", hint="use Xvfb or Xorg with XTEST")
        self.root = self.d.screen().root
        self._spare: list[int] = []
        self._bound: dict[int, int] = {}  # keysym -> spare keycode, while typing

    # -- mouse ---------------------------------------------------------------------------------
    def mouse_move(self, x: int, y: int) -> None:
        xtest.fake_input(self.d, X.MotionNotify, x=x, y=y)
        self.d.sync()

    def mouse_button(self, button: MouseButton, down: bool) -> None:
        """Press or release a button; a release returns once the X server has let it through
        (`_wait_released`)."""
        xtest.fake_input(self.d, X.ButtonPress if down else X.ButtonRelease, BUTTONS[button])
        self.d.sync()
        if not down:
            self._wait_released(button)

    def _wait_released(self, button: MouseButton) -> None:
        """Wait (at most RELEASE_WAIT) until the server shows the button up. A window manager
        holds the pointer's events after a press on a window (openbox grabs the button there,
        synchronously, until it has focused and raised the window), while keys go on as sent,
        and would overtake the click. The release is held with the press, so its arrival says
        the click got through."""
        held = X.Button1Mask << (BUTTONS[button] - 1)
        deadline = time.monotonic() + RELEASE_WAIT
        while self.root.query_pointer().mask & held and time.monotonic() < deadline:
            time.sleep(0.005)

    def click(
        self, x: int, y: int, button: MouseButton = MouseButton.LEFT, count: int = 1, modifiers: Sequence[str] = ()
    ) -> None:
        """`Backend.click`: the modifiers pressed (a sync after each) once the pointer is there,
        released in reverse after the last click, even when a click fails."""
        codes = [self._modifier_code(m) for m in modifiers]  # a bad name fails before anything moves
        self.mouse_move(x, y)
        pressed: list[int] = []
        try:
            for code in codes:
                self._key(code, True)
                pressed.append(code)
            for i in range(count):
                if i:
                    time.sleep(CLICK_GAP)
                self.mouse_button(button, True)
                self.mouse_button(button, False)
        finally:
            for code in reversed(pressed):
                self._key(code, False)

    def drag(
        self, x1: int, y1: int, x2: int, y2: int, *, button: MouseButton = MouseButton.LEFT, duration: float = 0.3
    ) -> None:
        """Press, move in steps (toolkits need motion events to start a drag), release,
        pausing after arriving and after pressing (`DRAG_SETTLE`)."""
        self.mouse_move(x1, y1)
        time.sleep(DRAG_SETTLE)
        self.mouse_button(button, True)
        time.sleep(DRAG_SETTLE)
        steps = max(8, round(duration / 0.015))
        try:
            for i in range(1, steps + 1):
                self.mouse_move(round(x1 + (x2 - x1) * i / steps), round(y1 + (y2 - y1) * i / steps))
                time.sleep(duration / steps)
            time.sleep(0.05)
        finally:
            self.mouse_button(button, False)

    def scroll(self, x: int, y: int, dx: int, dy: int) -> None:
        self.mouse_move(x, y)
        for amount, negative, positive in ((dy, 4, 5), (dx, 6, 7)):
            for _ in range(abs(amount)):
                code = positive if amount > 0 else negative
                xtest.fake_input(self.d, X.ButtonPress, code)
                xtest.fake_input(self.d, X.ButtonRelease, code)
                self.d.sync()
                time.sleep(0.01)

    def cursor_position(self) -> tuple[int, int]:
        pointer = self.root.query_pointer()
        return pointer.root_x, pointer.root_y

    # -- keyboard ------------------------------------------------------------------------------
    def _key(self, keycode: int, down: bool, sync: bool = True) -> None:
        """Press or release a key; `sync=False` leaves the round trip to the caller's next request."""
        xtest.fake_input(self.d, X.KeyPress if down else X.KeyRelease, keycode)
        if sync:
            self.d.sync()

    def _keycode_for(self, keysym: int) -> tuple[int, bool]:
        """(keycode, needs shift) from the current keymap, else a spare keycode bound now."""
        for keycode, index in self.d.keysym_to_keycodes(keysym):
            if index in (0, 1):
                return keycode, index == 1
        if keysym in self._bound:
            return self._bound[keysym], False
        return self._bind_spare(keysym), False

    def _bind_spare(self, keysym: int) -> int:
        if not self._spare:
            first = self.d.display.info.min_keycode
            count = self.d.display.info.max_keycode - first + 1
            mapping = self.d.get_keyboard_mapping(first, count)
            self._spare = [first + i for i, syms in enumerate(mapping) if not any(syms)]
            self._spare.reverse()
            if not self._spare:
                raise InvalidInput(
                    "the keymap has no free key to type this character with", hint="type it with `winctl input` instead"
                )
        free = [k for k in self._spare if k not in self._bound.values()]
        if not free:
            self._release_bound()
            free = list(self._spare)
        keycode = free[0]
        self.d.change_keyboard_mapping(keycode, [(keysym, keysym)])
        self.d.sync()
        time.sleep(0.02)  # let clients handle MappingNotify before the key arrives
        self._bound[keysym] = keycode
        return keycode

    def _release_bound(self) -> None:
        """Restore the spare keycodes; wait first so clients translated their last keys."""
        if not self._bound:
            return
        time.sleep(0.05)
        for keycode in self._bound.values():
            self.d.change_keyboard_mapping(keycode, [(0, 0)])
        self.d.sync()
        self._bound.clear()

    def press_chords(self, chords: Sequence[Chord]) -> None:
        try:
            for chord in chords:
                self._press_chord(chord)
        finally:
            self._release_bound()

    def hold_keys(self, chords: Sequence[Chord], seconds: float) -> None:
        codes = [code for chord in chords for code in self._chord_codes(chord, spare=True)]
        pressed: list[int] = []
        try:
            for code in codes:
                self._key(code, True)
                pressed.append(code)
            time.sleep(seconds)
        finally:
            for code in reversed(pressed):
                self._key(code, False)
            self._release_bound()

    def key_state(self, chords: Sequence[Chord], down: bool) -> None:
        """`Backend.key_state`: each chord's modifiers then its key pressed (a sync after each),
        or the same released in reverse. Only keys of the keymap: a character bound to a spare
        keycode for the call would lose its meaning while held (InvalidInput, nothing sent)."""
        codes = [code for chord in chords for code in self._chord_codes(chord, spare=False)]
        for code in codes if down else reversed(codes):
            self._key(code, down)

    def buttons_down(self) -> frozenset[MouseButton]:
        """The mouse buttons down now, by anyone: the pointer's state mask."""
        mask = self.root.query_pointer().mask
        return frozenset(button for button, bit in BUTTON_MASKS.items() if mask & bit)

    def modifiers_down(self) -> frozenset[str]:
        """The modifiers (ctrl, shift, alt, super) whose keys are down now, by anyone: the
        server's keymap (XQueryKeymap), either side's key (Alt_R, Meta_L count as alt)."""
        bits = self.d.query_keymap()
        down: set[str] = set()
        for name, keysyms in MODIFIER_SIDES.items():
            for keysym in keysyms:
                codes = self.d.keysym_to_keycodes(XK.string_to_keysym(keysym))
                if any(bits[code // 8] & (1 << (code % 8)) for code, _ in codes):
                    down.add(name)
        return frozenset(down)

    def _modifier_code(self, name: str) -> int:
        if name not in MODIFIER_KEYSYMS:
            raise InvalidInput(f"{name!r} is not a modifier", hint="modifiers are ctrl, shift, alt and super")
        return self._keycode_for(XK.string_to_keysym(MODIFIER_KEYSYMS[name]))[0]

    def _chord_codes(self, chord: Chord, *, spare: bool) -> list[int]:
        """The keycodes a chord holds down, in the order pressed: its modifiers (shift added
        where the keymap puts its key there), then its key. `spare`: a key the keymap lacks is
        bound to a spare keycode for the call; otherwise it is refused (InvalidInput)."""
        if not spare and not self._in_keymap(chord):
            raise InvalidInput(
                f"{str(chord)!r} is not on the keyboard's keymap: it cannot be held down",
                hint="hold keys of the keyboard (letters, digits, named keys, modifiers); "
                "type other characters with `winctl type`",
            )
        keycode, shift = self._chord_key(chord)
        codes = [self._modifier_code(m) for m in chord.modifiers]
        if shift and "shift" not in chord.modifiers:
            codes.append(self._modifier_code("shift"))
        return [*codes, keycode]

    def _in_keymap(self, chord: Chord) -> bool:
        if chord.key in MODIFIER_KEYSYMS:
            return True
        keysym = XK.string_to_keysym(NAMED_KEYSYMS[chord.key]) if chord.key in NAMED_KEYSYMS else char_keysym(chord.key)
        return any(index in (0, 1) for _, index in self.d.keysym_to_keycodes(keysym))

    def _chord_key(self, chord: Chord) -> tuple[int, bool]:
        """(keycode, needs shift) of a chord's main key."""
        if chord.key in MODIFIER_KEYSYMS:  # a lone modifier, e.g. "shift"
            return self._keycode_for(XK.string_to_keysym(MODIFIER_KEYSYMS[chord.key]))[0], False
        if chord.key in NAMED_KEYSYMS:
            return self._keycode_for(XK.string_to_keysym(NAMED_KEYSYMS[chord.key]))
        return self._keycode_for(char_keysym(chord.key))

    def _press_chord(self, chord: Chord) -> None:
        *modifiers, keycode = self._chord_codes(chord, spare=True)
        pressed: list[int] = []
        try:
            for m in modifiers:
                self._key(m, True)  # sync after each, or the server may miss the modifier
                pressed.append(m)
            self._key(keycode, True)
            self._key(keycode, False)
        finally:
            for m in reversed(pressed):
                self._key(m, False)

    def type_char(self, ch: str, *, sync: bool = True) -> None:
        """Type one character: its key, with Shift where the keymap puts the character there,
        on a spare keycode bound now where the keymap lacks it (bound until `release_bound`).
        `sync=False` leaves the round trip the key needs to the caller's next request (the
        focus guard's question after each key)."""
        keycode, needs_shift = self._keycode_for(char_keysym(ch))
        shift = self._keycode_for(XK.string_to_keysym("Shift_L"))[0] if needs_shift else 0
        if needs_shift:
            self._key(shift, True)
        self._key(keycode, True)
        self._key(keycode, False, sync=needs_shift or sync)
        if needs_shift:
            self._key(shift, False, sync=sync)

    def release_bound(self) -> None:
        """Give back the spare keycodes `type_char` bound, once the clients have read their keys."""
        self._release_bound()

    def close(self) -> None:
        self._release_bound()
        self.d.close()
