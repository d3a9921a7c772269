"""The shared key parser's canonical names as Windows virtual-key codes (WinUser.h)."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from winactions.errors import InvalidInput
from winactions.keys import MODIFIERS, Chord

KeyScan = Callable[[str], int]  # VkKeyScanW: low byte the virtual key, bit 8 shift

VK_SHIFT, VK_CONTROL, VK_MENU, VK_LWIN = 0x10, 0x11, 0x12, 0x5B
MODIFIER_VK = {"ctrl": VK_CONTROL, "shift": VK_SHIFT, "alt": VK_MENU, "super": VK_LWIN}

NAMED_VK = {
    "Enter": 0x0D,
    "Tab": 0x09,
    "Escape": 0x1B,
    "Backspace": 0x08,
    "Delete": 0x2E,
    "Insert": 0x2D,
    "Space": 0x20,
    "Home": 0x24,
    "End": 0x23,
    "PageUp": 0x21,
    "PageDown": 0x22,
    "Up": 0x26,
    "Down": 0x28,
    "Left": 0x25,
    "Right": 0x27,
    "CapsLock": 0x14,
    "NumLock": 0x90,
    "ScrollLock": 0x91,
    "PrintScreen": 0x2C,
    "Pause": 0x13,
    "Menu": 0x5D,
    **{f"F{i}": 0x6F + i for i in range(1, 25)},
}
# Keys whose scan code carries the E0 prefix: SendInput needs KEYEVENTF_EXTENDEDKEY for them,
# or the numeric keypad's twin (Home on the keypad is "7" with NumLock on) is what arrives.
EXTENDED = {0x2E, 0x2D, 0x24, 0x23, 0x21, 0x22, 0x26, 0x28, 0x25, 0x27, 0x5D, 0x5B, 0x90, 0x2C}


def vk_of(key: str, key_scan: KeyScan) -> tuple[int, bool]:
    """(virtual key, needs shift) for a canonical key name or one character."""
    if key in NAMED_VK:
        return NAMED_VK[key], False
    if key in MODIFIER_VK:  # a modifier pressed on its own (hold-key shift)
        return MODIFIER_VK[key], False
    if len(key) == 1 and ("a" <= key.lower() <= "z" or "0" <= key <= "9"):
        return ord(key.upper()), key.isupper()
    scanned = key_scan(key)  # VkKeyScanW: layout-dependent punctuation
    if scanned == -1 or scanned & 0xFF == 0xFF:
        raise ValueError(f"{key!r} has no key on this keyboard layout")
    return scanned & 0xFF, bool(scanned >> 8 & 1)


def chord_vks(chord: Chord, key_scan: KeyScan) -> tuple[list[int], int]:
    """(modifier virtual keys to hold, the key's virtual key) for one chord."""
    vk, shifted = vk_of(chord.key, key_scan)
    modifiers = [MODIFIER_VK[m] for m in chord.modifiers]
    if shifted and VK_SHIFT not in modifiers:
        modifiers.append(VK_SHIFT)
    return modifiers, vk


def modifier_names(modifiers: Iterable[str]) -> list[str]:
    """The modifiers' names once each, in order; InvalidInput for one that is not a modifier."""
    names = list(dict.fromkeys(modifiers))
    unknown = [m for m in names if m not in MODIFIERS]
    if unknown:
        raise InvalidInput(f"unknown modifier {', '.join(unknown)}", hint="use " + ", ".join(MODIFIERS))
    return names
