"""Java Swing's menus (through its ATK wrapper): where their items are, and closing them.

Swing reports an open menu's items off their place (`menu_shifts`), and its menu items'
action leaves the menu bar's menus open (`close_menu_bar`).
"""

from __future__ import annotations

import asyncio
import dataclasses
from typing import TYPE_CHECKING

from winactions.backends.linux.atspi import tree
from winactions.backends.linux.atspi.refs import APP_ROOT, Ref, split_handle
from winactions.backends.linux.atspi_roles import IFACE
from winactions.model import Node

if TYPE_CHECKING:
    from winactions.backends.linux.atspi.bus import Bus

JAVA_POPUP_HOLDERS = frozenset({"frame", "dialog", "window", "root-pane", "layered-pane", "panel"})
JAVA_POPUP_DEPTH = 5  # a window, its root pane, its layered pane, a panel, the popup menu
MENU_DEPTH = 8  # menus within menus an item may sit in below its menu bar
# a Swing popup menu -> (its place on screen, its items), by (bus name, path)
Popups = dict[Ref, tuple[tuple[int, int], list[Ref]]]


async def menus_placed(bus: Bus, nodes: list[Node]) -> list[Node]:
    """A read of a Java window with its open menus' items where the screen shows them
    (`menu_shifts`); the popups and the menus are in the read."""
    popups: Popups = {}
    for n in nodes:
        if n.native_role == "popup-menu" and n.rect is not None:
            popups[split_handle(n.handle)] = ((n.rect.left, n.rect.top), [])
    for n in nodes:
        if n.parent is not None and (holder := popups.get(split_handle(nodes[n.parent].handle))) is not None:
            holder[1].append(split_handle(n.handle))
    known = {split_handle(n.handle): (n.rect.left, n.rect.top) for n in nodes if n.rect is not None}
    shifts = await menu_shifts(bus, popups, known)
    if not any(shifts.values()):
        return nodes
    return [
        moved(n, *shifts[ref]) if n.rect is not None and (ref := split_handle(n.handle)) in shifts else n for n in nodes
    ]


async def menu_item_placed(bus: Bus, ref: Ref, node: Node) -> Node:
    """One Swing menu item read again, where the screen shows it: its app's open popups are
    found below its windows (a window, its root pane, layered pane, a panel, the popup)."""
    popups: Popups = {}
    level = [(ref[0], APP_ROOT)]
    for _ in range(JAVA_POPUP_DEPTH):
        kids = [kid for holder in await asyncio.gather(*(tree.children(bus, r) for r in level)) for kid in holder]
        roles = [native for native, _ in await asyncio.gather(*(tree.role(bus, kid) for kid in kids))]
        for kid, role in zip(kids, roles):
            if role == "popup-menu":
                place, items = await asyncio.gather(tree.origin(bus, kid), tree.children(bus, kid))
                if place is not None:
                    popups[kid] = (place, items)
        level = [kid for kid, role in zip(kids, roles) if role in JAVA_POPUP_HOLDERS]
    shift = (await menu_shifts(bus, popups, {})).get(ref)
    return moved(node, *shift) if shift and node.rect is not None else node


async def menu_shifts(bus: Bus, popups: Popups, known: dict[Ref, tuple[int, int]]) -> dict[Ref, tuple[int, int]]:
    """How far each item of an open Swing menu (`popups`) is from where Java says. Java gives
    an item of a menu's popup the menu's place plus the item's place in the popup, not the
    popup's. The popup's own place is right; so each item moves by the popup's place less its
    menu's true place (itself moved when the menu is an item of another popup). A context
    menu's items, whose parent is their popup, are where Java says. `known`: places already read."""
    owner = {item: popup for popup, (_, items) in popups.items() for item in items}
    shifts: dict[Ref, tuple[int, int]] = {}

    async def shift(popup: Ref) -> tuple[int, int]:
        if popup in shifts:
            return shifts[popup]
        shifts[popup] = (0, 0)  # until known: a menu that seems to hold itself moves nothing
        (px, py), items = popups[popup]
        menu = await tree.parent(bus, items[0]) if items else None
        if menu is None or menu == popup or (await tree.role(bus, menu))[0] != "menu":
            return shifts[popup]
        place = known.get(menu) or await tree.origin(bus, menu)
        if place is None:
            return shifts[popup]
        dx, dy = await shift(owner[menu]) if menu in owner else (0, 0)
        shifts[popup] = (px - place[0] - dx, py - place[1] - dy)
        return shifts[popup]

    return {item: await shift(popup) for item, popup in owner.items()}


async def close_menu_bar(bus: Bus, ref: Ref) -> None:
    """Close the menus of the bar a Swing menu item is in, before its action runs, as a user's
    click does first (BasicMenuItemUI clears the menu path): the accessible action only
    clicks the item. Clearing the bar's selection clears the path."""
    if (await tree.role(bus, ref))[1] != "MenuItem":
        return
    bar = await menu_bar_of(bus, ref)
    if bar is not None:
        await bus.maybe(bar[0], bar[1], IFACE + "Selection", "ClearSelection")


async def menu_bar_of(bus: Bus, ref: Ref) -> Ref | None:
    """The menu bar above a menu item, through the menus it is in; None for an item of a
    context menu."""
    for _ in range(MENU_DEPTH):
        above = await tree.parent(bus, ref)
        if above is None:
            return None
        kind = (await tree.role(bus, above))[1]
        if kind == "MenuBar":
            return above
        if kind != "Menu":
            return None
        ref = above
    return None


def moved(node: Node, dx: int, dy: int) -> Node:
    """The node with its rectangle moved by (dx, dy); it must have one."""
    assert node.rect is not None
    return dataclasses.replace(node, rect=node.rect.moved(dx, dy))
