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
