"""One-call questions about an element and where it sits: its children, parents, role, states,
place — and about its app: its process, whether it is still on the bus.

Each answers None (or an empty list) when the element or app does not answer: gone, defunct,
or without the interface asked.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from winactions.backends.linux.atspi.refs import (
    ACCESSIBLE,
    APP_ROOT,
    DBUS,
    DEFUNCT_BIT,
    PROPERTIES,
    SHEET_CELLS,
    Ref,
    ref_of,
)
from winactions.backends.linux.atspi_roles import IFACE, role_of, states_of
from winactions.model import Rect

if TYPE_CHECKING:
    from winactions.backends.linux.atspi.bus import Bus

MAX_DEPTH = 64  # parents asked for on the way from an element up to its window


async def children(bus: Bus, ref: Ref) -> list[Ref]:
    """The element's children, as it lists them."""
    found = await bus.maybe(ref[0], ref[1], ACCESSIBLE, "GetChildren")
    return [tuple(c) for c in found[0]] if found else []


async def parent(bus: Bus, ref: Ref) -> Ref | None:
    """The element's parent; None at the top or when it does not answer."""
    reply = await bus.maybe(ref[0], ref[1], PROPERTIES, "Get", "ss", [ACCESSIBLE, "Parent"])
    return ref_of([reply[0].value]) if reply else None


async def ancestors(bus: Bus, ref: Ref) -> list[Ref]:
    """The element's parents, nearest first, up to its window (the child of the app's root)."""
    found: list[Ref] = []
    for _ in range(MAX_DEPTH):
        reply = await bus.maybe(ref[0], ref[1], PROPERTIES, "Get", "ss", [ACCESSIBLE, "Parent"])
        above = ref_of([reply[0].value]) if reply else None
        if above is None or above[1] == APP_ROOT:
            break
        found.append(above)
        ref = above
    return found


async def around(bus: Bus, ref: Ref, roles: frozenset[str]) -> list[Ref]:
    """The element and those of its ancestors whose AT-SPI role is one of `roles`, nearest first."""
    chain = [ref, *await ancestors(bus, ref)]
    kinds = await asyncio.gather(*(bus.maybe(*r, ACCESSIBLE, "GetRole") for r in chain))
    return [r for r, kind in zip(chain, kinds) if kind and role_of(int(kind[0]))[0] in roles]


async def role(bus: Bus, ref: Ref) -> tuple[str, str]:
    """(native role, control type) of an element, ("", "") when it does not answer."""
    reply = await bus.maybe(ref[0], ref[1], ACCESSIBLE, "GetRole")
    return role_of(int(reply[0])) if reply else ("", "")


async def states(bus: Bus, ref: Ref) -> frozenset[str] | None:
    """The element's states in the protocol's words; None when it does not answer."""
    words = await bus.maybe(ref[0], ref[1], ACCESSIBLE, "GetState")
    return states_of(list(words[0])) if words else None


async def extents(bus: Bus, ref: Ref) -> Rect | None:
    """The element's place on the screen as it reports it; None when it has no size."""
    found = await bus.maybe(ref[0], ref[1], IFACE + "Component", "GetExtents", "u", [0])
    return Rect.from_xywh(*found[0]) if found and found[0][2] > 0 and found[0][3] > 0 else None


async def origin(bus: Bus, ref: Ref) -> tuple[int, int] | None:
    """The element's top-left corner as it reports it, size or not."""
    found = await bus.maybe(ref[0], ref[1], IFACE + "Component", "GetExtents", "u", [0])
    return (int(found[0][0]), int(found[0][1])) if found else None


async def alive(bus: Bus, ref: Ref) -> bool:
    """Does this path still lead to a live element (not gone, not defunct)?"""
    state = await bus.maybe(ref[0], ref[1], ACCESSIBLE, "GetState")
    return bool(state and any(state[0]) and not state[0][0] & DEFUNCT_BIT)


async def is_sheet(bus: Bus, ref: Ref) -> bool:
    """A spreadsheet: a table declaring SHEET_CELLS cells or more (Calc: 2**31)."""
    count = await bus.maybe(ref[0], ref[1], PROPERTIES, "Get", "ss", [ACCESSIBLE, "ChildCount"])
    return count is not None and int(count[0].value) >= SHEET_CELLS


async def pid(bus: Bus, dest: str) -> int | None:
    """The process of the app at this bus name, as the bus knows it."""
    found = await bus.maybe(*DBUS, "GetConnectionUnixProcessID", "s", [dest])
    return int(found[0]) if found else None


async def on_bus(bus: Bus, dest: str) -> bool:
    """Is the app still connected to the accessibility bus? (Asked of the bus, not the app.)"""
    owner = await bus.maybe(*DBUS, "NameHasOwner", "s", [dest])
    return bool(owner and owner[0])
