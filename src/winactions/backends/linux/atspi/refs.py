"""What handles, D-Bus paths, replies and extents mean — no calls to any app.

An element is known by its reference: (bus name, object path). A handle is the two joined
(`:1.5/org/a11y/atspi/accessible/12`); a spreadsheet cell placed by its row and column
("virtual", never asked of the app while the state was read) has the handle of its table
followed by `#cell:ROW,COL`.
"""

from __future__ import annotations

import re
from typing import Any

from winactions.backends.linux.atspi_roles import IFACE
from winactions.errors import NotFound

Ref = tuple[str, str]  # (bus name, object path)

ACCESSIBLE = IFACE + "Accessible"
PROPERTIES = "org.freedesktop.DBus.Properties"
REGISTRY = ("org.a11y.atspi.Registry", "/org/a11y/atspi/accessible/root")
APP_ROOT = "/org/a11y/atspi/accessible/root"  # an app's root: the parent of its windows
NULL_PATH = "/org/a11y/atspi/null"
DBUS = ("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus")  # the bus itself

DEFUNCT_BIT = 1 << 6  # AtspiStateType DEFUNCT
FOCUSED_BIT = 1 << 12  # AtspiStateType FOCUSED
SENSITIVE_BIT = 1 << 24  # AtspiStateType SENSITIVE
SHOWING_BIT = 1 << 25  # AtspiStateType SHOWING, in the first state word
VISIBLE_BIT = 1 << 30  # AtspiStateType VISIBLE
MANAGES_DESCENDANTS_BIT = 1 << 31  # AtspiStateType MANAGES_DESCENDANTS: children made on demand
HIDDEN_EXTENT = -(2**31)  # what hidden scrollbars report as their position

HUGE_CHILD_COUNT = 2000  # a node declaring more children is read by what is visible, never listed
# A table declaring this many cells is a spreadsheet (Calc: 2**31): its cells are made on demand
# and kept, so few are read and each is known by its place; a list's cells are read as objects.
SHEET_CELLS = 1_000_000
CELL_MARK = "#cell:"  # handle suffix of a virtual cell: table handle + "#cell:ROW,COL"
ADDRESS = re.compile(r"^\$?([A-Z]{1,4})\$?([0-9]{1,8})$")  # a spreadsheet cell's name: "B12"


def split_handle(handle: str) -> Ref:
    """`:1.5/org/a11y/atspi/accessible/12` -> (bus name, object path); NotFound for anything
    that is not a handle."""
    cut = handle.find("/")
    if cut <= 0:
        raise NotFound(f"not an element handle: {handle!r}", hint="run `winctl state`")
    return handle[:cut], handle[cut:]


def ref_of(reply: list[Any] | None) -> Ref | None:
    """The (bus name, path) in a reply that returns one accessible, None for AT-SPI's null object."""
    if not reply or not reply[0]:
        return None
    dest, path = reply[0][0], reply[0][1]
    if not dest or not path or path == NULL_PATH:
        return None
    return str(dest), str(path)


def cell_ref(table: Ref, row: int, col: int) -> Ref:
    """The reference of a virtual cell: its table's bus name, and its table's path with its place."""
    return table[0], f"{table[1]}{CELL_MARK}{row},{col}"


def place(address: str) -> tuple[int, int] | None:
    """0-based (row, column) of a spreadsheet address: "C4" -> (3, 2); None for other names."""
    found = ADDRESS.match(address.strip())
    if found is None:
        return None
    col = 0
    for letter in found.group(1):
        col = col * 26 + ord(letter) - ord("A") + 1
    return int(found.group(2)) - 1, col - 1


def address(row: int, col: int) -> str:
    """A spreadsheet address from 0-based (row, column): (3, 2) -> "C4", (0, 26) -> "AA1"."""
    letters = ""
    col += 1
    while col > 0:
        col, rest = divmod(col - 1, 26)
        letters = chr(ord("A") + rest) + letters
    return f"{letters}{row + 1}"


def xywh(area: tuple[int, int, int, int]) -> tuple[int, int, int, int]:
    """(x, y, width, height) of a (left, top, right, bottom) area."""
    return area[0], area[1], area[2] - area[0], area[3] - area[1]


def visible_area(
    extents: tuple[int, int, int, int] | None, frame: tuple[int, int, int, int] | None
) -> tuple[int, int, int, int] | None:
    """(left, top, right, bottom) of a node's extents inside its window, or None if off it."""
    if extents is None or extents[0] == HIDDEN_EXTENT or extents[2] <= 0 or extents[3] <= 0:
        return None
    left, top, right, bottom = extents[0], extents[1], extents[0] + extents[2], extents[1] + extents[3]
    if frame is not None and frame[0] != HIDDEN_EXTENT and frame[2] > 0 and frame[3] > 0:
        left, top = max(left, frame[0]), max(top, frame[1])
        right, bottom = min(right, frame[0] + frame[2]), min(bottom, frame[1] + frame[3])
    if right <= left or bottom <= top:
        return None
    return left, top, right, bottom
