"""What the X server's keyboard holds down, asked on a connection of the test's own."""

from __future__ import annotations

from typing import Any

from Xlib import XK
from Xlib.display import Display


def held_down(desktop: Any) -> set[str]:
    """The modifiers the X server shows down now (left keys, as XTEST presses them)."""
    display = Display(desktop.env["DISPLAY"])
    try:
        keymap = display.query_keymap()
        down = set()
        for name, keysym in (("shift", "Shift_L"), ("ctrl", "Control_L"), ("alt", "Alt_L"), ("super", "Super_L")):
            code = display.keysym_to_keycode(XK.string_to_keysym(keysym))
            if keymap[code // 8] & (1 << (code % 8)):
                down.add(name)
        return down
    finally:
        display.close()
