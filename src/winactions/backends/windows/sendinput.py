"""Global input as SendInput events: what a real mouse and keyboard would send.

Events are built here, in screen pixels; `win32.py` only packs them into INPUT structures
(with `absolute()` below for the coordinates) and makes the one SendInput call.
"""

from __future__ import annotations

from collections.abc import Sequence

from winactions.backends.base import MouseButton
from winactions.backends.windows.keymap import EXTENDED, MODIFIER_VK, KeyScan, chord_vks
from winactions.backends.windows.native import KeyInput, MouseInput
from winactions.keys import Chord
from winactions.model import Rect

WHEEL_DELTA = 120
_BUTTON = {MouseButton.LEFT: "left", MouseButton.RIGHT: "right", MouseButton.MIDDLE: "middle"}


def absolute(x: int, y: int, virtual: Rect) -> tuple[int, int]:
    """Screen pixels -> SendInput's 0..65535 over the virtual desktop
    (MOUSEEVENTF_ABSOLUTE | MOUSEEVENTF_VIRTUALDESK). Monitors left of or above the primary
    have negative pixels; the virtual desktop's origin makes them positive here."""
    nx = round((x - virtual.left) * 65535 / max(1, virtual.width - 1))
    ny = round((y - virtual.top) * 65535 / max(1, virtual.height - 1))
    return nx, ny


def click(x: int, y: int, button: MouseButton, count: int) -> list[MouseInput]:
    name = _BUTTON[button]
    events = [MouseInput(x, y, ("move",))]
    for _ in range(count):
        events += [MouseInput(x, y, (f"{name}_down",)), MouseInput(x, y, (f"{name}_up",))]
    return events


def with_modifiers(events: list[MouseInput], modifiers: Sequence[str]) -> list[KeyInput | MouseInput]:
    """Mouse events with the modifiers' keys pressed after the first (the move) and released
    after the last, in one batch: no other input can come between."""
    downs = [_key(MODIFIER_VK[m], False) for m in modifiers]
    ups = [_key(MODIFIER_VK[m], True) for m in reversed(modifiers)]
    return [*events[:1], *downs, *events[1:], *ups]


def button(x: int, y: int, which: MouseButton, down: bool) -> list[MouseInput]:
    return [MouseInput(x, y, (f"{_BUTTON[which]}_{'down' if down else 'up'}",))]


def path(x1: int, y1: int, x2: int, y2: int, steps: int) -> list[tuple[int, int]]:
    """Points from start to end, so apps that track movement (splitters, drag and drop) see it."""
    steps = max(1, steps)
    return [(round(x1 + (x2 - x1) * i / steps), round(y1 + (y2 - y1) * i / steps)) for i in range(1, steps + 1)]


def wheel(x: int, y: int, dx: int, dy: int) -> list[MouseInput]:
    """Positive dy scrolls down (a negative wheel delta), positive dx scrolls right."""
    events = [MouseInput(x, y, ("move",))]
    if dy:
        events.append(MouseInput(x, y, ("wheel",), -dy * WHEEL_DELTA))
    if dx:
        events.append(MouseInput(x, y, ("hwheel",), dx * WHEEL_DELTA))
    return events


def _key(vk: int, up: bool) -> KeyInput:
    return KeyInput(vk=vk, up=up, extended=vk in EXTENDED)


def chord_down(chord: Chord, key_scan: KeyScan) -> tuple[list[KeyInput], list[KeyInput]]:
    """(press events, release events) for one chord: modifiers first down, last up."""
    modifiers, vk = chord_vks(chord, key_scan)
    down = [_key(m, False) for m in modifiers] + [_key(vk, False)]
    up = [_key(vk, True)] + [_key(m, True) for m in reversed(modifiers)]
    return down, up


def chords(sequence: Sequence[Chord], key_scan: KeyScan) -> list[KeyInput]:
    events: list[KeyInput] = []
    for chord in sequence:
        down, up = chord_down(chord, key_scan)
        events += down + up
    return events


def text(value: str) -> list[KeyInput]:
    """Unicode text as KEYEVENTF_UNICODE events, one per UTF-16 unit (an emoji is two), so no
    keyboard layout is involved. Newlines become Enter, which editors expect."""
    events: list[KeyInput] = []
    for ch in value.replace("\r\n", "\n"):
        if ch == "\n":
            events += [_key(0x0D, False), _key(0x0D, True)]
            continue
        data = ch.encode("utf-16-le")
        for i in range(0, len(data), 2):
            unit = int.from_bytes(data[i : i + 2], "little")
            events += [KeyInput(char=unit, unicode=True), KeyInput(char=unit, unicode=True, up=True)]
    return events
