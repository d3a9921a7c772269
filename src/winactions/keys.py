"""One parser for human key names: "ctrl+shift+s", "Enter", "alt+f4", "ctrl+a Delete".

Agents write keys the way people do. This module turns that into `Chord`s with canonical
names; each backend maps canonical names to its own codes (X keysyms, Windows virtual keys,
Android key codes). A bad name fails here, once, with suggestions.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from dataclasses import dataclass

from winactions.errors import InvalidInput, shown

MODIFIERS = ("ctrl", "shift", "alt", "super")

_MODIFIER_ALIASES = {
    "ctrl": "ctrl",
    "control": "ctrl",
    "ctl": "ctrl",
    "shift": "shift",
    "alt": "alt",
    "option": "alt",
    "opt": "alt",
    "super": "super",
    "win": "super",
    "windows": "super",
    "meta": "super",
    "cmd": "super",
    "command": "super",
}

# Canonical named keys. Every backend must map each of these.
NAMED_KEYS = (
    "Enter",
    "Tab",
    "Escape",
    "Backspace",
    "Delete",
    "Insert",
    "Space",
    "Home",
    "End",
    "PageUp",
    "PageDown",
    "Up",
    "Down",
    "Left",
    "Right",
    "CapsLock",
    "NumLock",
    "ScrollLock",
    "PrintScreen",
    "Pause",
    "Menu",
    *(f"F{i}" for i in range(1, 25)),
)

_KEY_ALIASES = {
    "return": "Enter",
    "ret": "Enter",
    "esc": "Escape",
    "back": "Backspace",
    "bksp": "Backspace",
    "bs": "Backspace",
    "del": "Delete",
    "ins": "Insert",
    "spacebar": "Space",
    "pgup": "PageUp",
    "pgdn": "PageDown",
    "pagedn": "PageDown",
    "arrowup": "Up",
    "arrowdown": "Down",
    "arrowleft": "Left",
    "arrowright": "Right",
    "uparrow": "Up",
    "downarrow": "Down",
    "leftarrow": "Left",
    "rightarrow": "Right",
    "prtsc": "PrintScreen",
    "printscr": "PrintScreen",
    "print": "PrintScreen",
    "apps": "Menu",
    "contextmenu": "Menu",
    "break": "Pause",
    "plus": "+",
    "minus": "-",
    # punctuation by its X keysym or DOM code name: a comma separates chords, so ctrl+, is
    # said ctrl+comma (GNOME's and VS Code's Preferences)
    "comma": ",",
    "period": ".",
    "slash": "/",
    "backslash": "\\",
    "semicolon": ";",
    "apostrophe": "'",
    "quote": "'",
    "grave": "`",
    "backquote": "`",
    "bracketleft": "[",
    "bracketright": "]",
    "equal": "=",
    "equals": "=",
}

_CANONICAL_BY_LOWER = {k.lower(): k for k in NAMED_KEYS} | _KEY_ALIASES


@dataclass(frozen=True)
class Chord:
    """Modifiers held while one key is pressed. `key` is a NAMED_KEYS entry or one character."""

    modifiers: tuple[str, ...]
    key: str

    def __str__(self) -> str:
        return "+".join((*self.modifiers, self.key))


def _canonical_key(token: str, spec: str, extra: Mapping[str, str] = {}) -> str:
    if len(token) == 1:
        return token
    found = extra.get(token.lower()) or _CANONICAL_BY_LOWER.get(token.lower())
    if found:
        return found
    vocabulary = list(NAMED_KEYS) + list(_KEY_ALIASES) + list(_MODIFIER_ALIASES) + list(extra)
    close = difflib.get_close_matches(token, vocabulary, n=3, cutoff=0.6)
    close += [
        k
        for k in difflib.get_close_matches(token.lower(), [v.lower() for v in vocabulary], n=3)
        if k not in (c.lower() for c in close)
    ]
    hint = (
        f"did you mean {', '.join(dict.fromkeys(close))}?"
        if close
        else ("use names like ctrl+s, Enter, Tab, Escape, F5, alt+f4, ctrl+shift+Left")
    )
    raise InvalidInput(f"unknown key {shown(token)} in {shown(spec)}", hint=hint)


def _parse_chord(token: str, spec: str, extra: Mapping[str, str] = {}) -> Chord:
    # "ctrl++" means ctrl and the plus key; a lone "+" is the plus key.
    parts = token.split("+")
    if token.endswith("++") or token == "+":
        parts = [p for p in parts if p] + ["+"]
    if any(p == "" for p in parts):
        raise InvalidInput(
            f"empty key in {shown(token)}", hint="write chords like ctrl+shift+s; a comma separates chords: ctrl+comma"
        )
    *mods, key = parts
    modifiers: list[str] = []
    for m in mods:
        canon = _MODIFIER_ALIASES.get(m.lower())
        if canon is None:
            _canonical_key(m, spec, extra)  # raises with suggestions if it is not a key at all
            raise InvalidInput(
                f"{shown(m)} is not a modifier in {shown(token)}",
                hint="modifiers are ctrl, shift, alt and super; the key comes last",
            )
        if canon not in modifiers:
            modifiers.append(canon)
    if key.lower() in _MODIFIER_ALIASES and len(key) > 1:
        # a lone modifier press such as "shift" or "ctrl+alt"
        return Chord(tuple(sorted(modifiers, key=MODIFIERS.index)), _MODIFIER_ALIASES[key.lower()])
    canon_key = _canonical_key(key, spec, extra)
    if modifiers and len(canon_key) == 1 and canon_key.isalpha():
        canon_key = canon_key.lower()  # ctrl+S is ctrl+s, as in every shortcut table
    return Chord(tuple(sorted(modifiers, key=MODIFIERS.index)), canon_key)


def parse_keys(spec: str, extra: Mapping[str, str] = {}) -> list[Chord]:
    """Parse a key spec into chords pressed one after another.

    Chords are separated by spaces or commas: "ctrl+a Delete", "Down, Down, Enter".
    `extra` maps a platform's own key names (lower case) to its key names, and wins over the
    shared aliases: a phone's "back" is its Back key, not Backspace (`Backend.key_names`).
    """
    tokens = [t for t in spec.replace(",", " ").split() if t]
    if not tokens:
        raise InvalidInput("no keys given", hint="for example: winctl keys ctrl+s")
    return [_parse_chord(t, spec, extra) for t in tokens]


# Android's key codes, the way plans written for phones name keys ({"keycode": 4},
# "KEYCODE_BACK", "BACK"): code → (Android's name without KEYCODE_, the key a desktop presses
# for it, or None where a desktop has no such key). A phone presses the code itself.
_ANDROID_KEYCODES: dict[int, tuple[str, str | None]] = {
    3: ("HOME", None),  # the phone's home screen, not the text cursor's Home (MOVE_HOME)
    4: ("BACK", "Escape"),  # leaves a dialog, a menu, a search: a desktop's Escape
    5: ("CALL", None),
    6: ("ENDCALL", None),
    **{7 + d: (str(d), str(d)) for d in range(10)},
    17: ("STAR", "*"),
    18: ("POUND", "#"),
    19: ("DPAD_UP", "Up"),
    20: ("DPAD_DOWN", "Down"),
    21: ("DPAD_LEFT", "Left"),
    22: ("DPAD_RIGHT", "Right"),
    23: ("DPAD_CENTER", None),
    24: ("VOLUME_UP", None),
    25: ("VOLUME_DOWN", None),
    26: ("POWER", None),
    27: ("CAMERA", None),
    **{29 + i: (chr(65 + i), chr(97 + i)) for i in range(26)},
    55: ("COMMA", "comma"),  # a bare comma separates chords
    56: ("PERIOD", "."),
    61: ("TAB", "Tab"),
    62: ("SPACE", "Space"),
    66: ("ENTER", "Enter"),
    67: ("DEL", "Backspace"),  # Android's DEL deletes backwards
    68: ("GRAVE", "`"),
    69: ("MINUS", "-"),
    70: ("EQUALS", "="),
    71: ("LEFT_BRACKET", "["),
    72: ("RIGHT_BRACKET", "]"),
    73: ("BACKSLASH", "\\"),
    74: ("SEMICOLON", ";"),
    75: ("APOSTROPHE", "'"),
    76: ("SLASH", "/"),
    77: ("AT", "@"),
    81: ("PLUS", "plus"),
    82: ("MENU", "Menu"),
    83: ("NOTIFICATION", None),
    84: ("SEARCH", None),
    85: ("MEDIA_PLAY_PAUSE", None),
    87: ("MEDIA_NEXT", None),
    88: ("MEDIA_PREVIOUS", None),
    91: ("MUTE", None),
    92: ("PAGE_UP", "PageUp"),
    93: ("PAGE_DOWN", "PageDown"),
    111: ("ESCAPE", "Escape"),
    112: ("FORWARD_DEL", "Delete"),
    115: ("CAPS_LOCK", "CapsLock"),
    116: ("SCROLL_LOCK", "ScrollLock"),
    120: ("SYSRQ", "PrintScreen"),
    121: ("BREAK", "Pause"),
    122: ("MOVE_HOME", "Home"),
    123: ("MOVE_END", "End"),
    124: ("INSERT", "Insert"),
    125: ("FORWARD", None),
    **{131 + i: (f"F{i + 1}", f"F{i + 1}") for i in range(12)},
    143: ("NUM_LOCK", "NumLock"),
    164: ("VOLUME_MUTE", None),
    187: ("APP_SWITCH", None),
    220: ("BRIGHTNESS_DOWN", None),
    221: ("BRIGHTNESS_UP", None),
    223: ("SLEEP", None),
    224: ("WAKEUP", None),
}


@dataclass(frozen=True)
class KeyCode:
    """One Android key code: its number, its name (`KEYCODE_` + name is Android's constant)
    and the key a desktop presses for it (None: a desktop has no such key)."""

    code: int
    name: str
    desktop: str | None

    @property
    def constant(self) -> str:
        return f"KEYCODE_{self.name}"


ANDROID_KEYCODES: dict[int, KeyCode] = {n: KeyCode(n, name, key) for n, (name, key) in _ANDROID_KEYCODES.items()}
_KEYCODE_BY_NAME = {k.name: k for k in ANDROID_KEYCODES.values()} | {"END_CALL": ANDROID_KEYCODES[6]}


def android_keycode(value: object) -> KeyCode:
    """An Android key code given as a number (4, "4") or a name ("BACK", "KEYCODE_BACK", any
    case); `InvalidInput` for one this table does not know."""
    if isinstance(value, int) and not isinstance(value, bool):
        found = ANDROID_KEYCODES.get(value)
    elif isinstance(value, str) and value.strip().isdigit():
        found = ANDROID_KEYCODES.get(int(value.strip()))
    elif isinstance(value, str):
        name = value.strip().upper()
        found = _KEYCODE_BY_NAME.get(name.removeprefix("KEYCODE_"))
    else:
        found = None
    if found is None:
        close = difflib.get_close_matches(str(value).upper().removeprefix("KEYCODE_"), list(_KEYCODE_BY_NAME), n=3)
        raise InvalidInput(
            f"unknown Android key code {shown(str(value))}",
            hint=(f"did you mean {', '.join(close)}? " if close else "")
            + "key codes are numbers like 4 (BACK), 3 (HOME), 66 (ENTER) or names like BACK, KEYCODE_ENTER",
        )
    return found
