"""Key chords → Android key codes, and the phone's own key names.

The shared parser (`winactions.keys`) knows the keys every keyboard has; a phone adds its
hardware and system keys (Back, Home, app switch, volume). Those names are given to the
parser by the backend (`key_names`), so `winctl keys back` means the Back key here and is an
unknown key on a desktop, where "back" stays the Backspace alias. On a phone "home" is the
Home button; the text cursor's Home is `keycode_move_home`.
"""

from __future__ import annotations

from winactions.errors import InvalidInput, shown
from winactions.keys import ANDROID_KEYCODES, Chord

NAMED = {
    "Enter": "KEYCODE_ENTER",
    "Tab": "KEYCODE_TAB",
    "Escape": "KEYCODE_ESCAPE",
    "Backspace": "KEYCODE_DEL",
    "Delete": "KEYCODE_FORWARD_DEL",
    "Insert": "KEYCODE_INSERT",
    "Space": "KEYCODE_SPACE",
    "Home": "KEYCODE_MOVE_HOME",
    "End": "KEYCODE_MOVE_END",
    "PageUp": "KEYCODE_PAGE_UP",
    "PageDown": "KEYCODE_PAGE_DOWN",
    "Up": "KEYCODE_DPAD_UP",
    "Down": "KEYCODE_DPAD_DOWN",
    "Left": "KEYCODE_DPAD_LEFT",
    "Right": "KEYCODE_DPAD_RIGHT",
    "CapsLock": "KEYCODE_CAPS_LOCK",
    "NumLock": "KEYCODE_NUM_LOCK",
    "ScrollLock": "KEYCODE_SCROLL_LOCK",
    "PrintScreen": "KEYCODE_SYSRQ",
    "Pause": "KEYCODE_BREAK",
    "Menu": "KEYCODE_MENU",
    **{f"F{i}": f"KEYCODE_F{i}" for i in range(1, 13)},
}
MODIFIERS = {
    "ctrl": "KEYCODE_CTRL_LEFT",
    "shift": "KEYCODE_SHIFT_LEFT",
    "alt": "KEYCODE_ALT_LEFT",
    "super": "KEYCODE_META_LEFT",
}
PUNCTUATION = {
    " ": "SPACE",
    ",": "COMMA",
    ".": "PERIOD",
    "-": "MINUS",
    "=": "EQUALS",
    "[": "LEFT_BRACKET",
    "]": "RIGHT_BRACKET",
    "\\": "BACKSLASH",
    ";": "SEMICOLON",
    "'": "APOSTROPHE",
    "/": "SLASH",
    "@": "AT",
    "+": "PLUS",
    "*": "STAR",
    "#": "POUND",
    "`": "GRAVE",
}
# The phone's own keys: what an agent calls them → key code. `keycode_*` names work too.
DEVICE_KEYS = {
    "back": "KEYCODE_BACK",
    "home": "KEYCODE_HOME",
    "app_switch": "KEYCODE_APP_SWITCH",
    "recents": "KEYCODE_APP_SWITCH",
    "volume_up": "KEYCODE_VOLUME_UP",
    "volume_down": "KEYCODE_VOLUME_DOWN",
    "volume_mute": "KEYCODE_VOLUME_MUTE",
    "mute": "KEYCODE_MUTE",
    "power": "KEYCODE_POWER",
    "camera": "KEYCODE_CAMERA",
    "search": "KEYCODE_SEARCH",
    "notification": "KEYCODE_NOTIFICATION",
    "enter": "KEYCODE_ENTER",
    "del": "KEYCODE_DEL",
    "forward_del": "KEYCODE_FORWARD_DEL",
    "dpad_center": "KEYCODE_DPAD_CENTER",
    "media_play_pause": "KEYCODE_MEDIA_PLAY_PAUSE",
    "media_next": "KEYCODE_MEDIA_NEXT",
    "media_previous": "KEYCODE_MEDIA_PREVIOUS",
    "call": "KEYCODE_CALL",
    "endcall": "KEYCODE_ENDCALL",
    "wakeup": "KEYCODE_WAKEUP",
    "sleep": "KEYCODE_SLEEP",
    "brightness_up": "KEYCODE_BRIGHTNESS_UP",
    "brightness_down": "KEYCODE_BRIGHTNESS_DOWN",
    "move_home": "KEYCODE_MOVE_HOME",
    "move_end": "KEYCODE_MOVE_END",
}
# `keycode_back`: every code of the shared table (`winactions.keys.ANDROID_KEYCODES`) by its constant
KEY_NAMES = {
    **DEVICE_KEYS,
    **{code.lower(): code for code in {*DEVICE_KEYS.values(), *NAMED.values()}},
    **{k.constant.lower(): k.constant for k in ANDROID_KEYCODES.values()},
}


def keycode(key: str) -> tuple[str, bool]:
    """(key code, needs shift) for one canonical key of a chord."""
    if key.startswith("KEYCODE_"):
        return key, False
    if key in NAMED:
        return NAMED[key], False
    if key in MODIFIERS:
        return MODIFIERS[key], False
    if len(key) == 1:
        if key.isascii() and key.isalpha():
            return f"KEYCODE_{key.upper()}", key.isupper()
        if key.isascii() and key.isdigit():
            return f"KEYCODE_{key}", False
        if key in PUNCTUATION:
            return f"KEYCODE_{PUNCTUATION[key]}", False
    raise InvalidInput(
        f"a phone has no key {shown(key)}",
        hint="type text with `winctl type`; phone keys: back, home, app_switch, volume_up, enter, del",
    )


def chord_codes(chord: Chord) -> list[str]:
    """The key codes of one chord, modifiers first."""
    code, shifted = keycode(chord.key)
    modifiers = [MODIFIERS[m] for m in chord.modifiers]
    if shifted and MODIFIERS["shift"] not in modifiers:
        modifiers.append(MODIFIERS["shift"])
    return [*modifiers, code]
