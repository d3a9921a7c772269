"""Reading one element: its properties as the app reports them (`Raw`), and as a Node.

Every element needs five properties, read concurrently (`read_base`); actions, value, short
text, a labelling relation and a combo box's choice are read only for elements whose
interfaces and role have them (`read_extras`), off the critical path of a tree walk.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from winactions.backends.base import CELL_PLACE, REVEALS_PATH, TABLE_ROWS, TERMINAL
from winactions.backends.linux.atspi import java, tree
from winactions.backends.linux.atspi.refs import (
    ACCESSIBLE,
    CELL_MARK,
    DEFUNCT_BIT,
    HIDDEN_EXTENT,
    PROPERTIES,
    Ref,
    ref_of,
    visible_area,
)
from winactions.backends.linux.atspi.toolkits import JAVA, gtk4_normalized, usable_names
from winactions.backends.linux.atspi_roles import IFACE, ITEM_TYPES, operations_of, protect, role_of, states_of
from winactions.model import Node, Rect

if TYPE_CHECKING:
    from winactions.backends.linux.atspi.bus import Bus

TEXT_ROLES = {"Text", "Edit", "Paragraph", "Heading", "Label", "Document"}
TEXT_PREVIEW = 200
# LibreOffice gives every button, menu and panel a Value interface that always says 0.
VALUELESS_TYPES = {"Button", "Menu", "MenuItem", "Separator", "Pane", "ToolBar", "TabItem", "Window"}
LABELLED_TYPES = frozenset({"Edit", "ComboBox", "Spinner", "Slider", "List", "Tree", "Table"})  # named by a label
RELATION_LABELLED_BY = 2  # AtspiRelationType
# what a combo box's options may be wrapped in, each alone at its level (a scroll bar aside), and how deep
OPTION_HOLDERS = frozenset({"Menu", "List", "ScrollPane", "Viewport"})
OPTION_WRAPPERS = 4  # Java: a menu, its scroll pane, the pane's viewport, the list in it


@dataclass
class Raw:
    """One element's properties as read, before it becomes a Node."""

    ref: Ref
    name: str
    description: str
    child_count: int
    automation_id: str
    role_number: int
    states: list[int]
    interfaces: tuple[str, ...]
    extents: tuple[int, int, int, int] | None
    actions: tuple[str, ...] = ()
    value: str | None = None
    place: tuple[int, int] | None = None  # a list's cell: its (row, column), as the table placed it
    rows: int | None = None  # a table read by its visible grid: how many rows it has


async def read(bus: Bus, ref: Ref, full: bool = True) -> Raw | None:
    """Every property of one element (see `read_extras` for what `full` adds); None when it is gone."""
    raw = await read_base(bus, ref)
    if raw is not None:
        await read_extras(bus, raw, full)
    return raw


async def read_base(bus: Bus, ref: Ref) -> Raw | None:
    """The five properties every element needs, read concurrently; None when it is gone."""
    dest, path = ref
    props, role, state, ifaces, extents = await asyncio.gather(
        _accessible_properties(bus, dest, path),
        bus.maybe(dest, path, ACCESSIBLE, "GetRole"),
        bus.maybe(dest, path, ACCESSIBLE, "GetState"),
        bus.maybe(dest, path, ACCESSIBLE, "GetInterfaces"),
        bus.maybe(dest, path, IFACE + "Component", "GetExtents", "u", [0]),
    )
    if props is None or role is None or state is None:
        return None
    values = props
    return Raw(
        ref=ref,
        name=str(values.get("Name", "")),
        description=str(values.get("Description", "")),
        child_count=int(values.get("ChildCount", 0)),
        automation_id=str(values.get("AccessibleId", "") or ""),
        role_number=int(role[0]),
        states=list(state[0]),
        interfaces=tuple(ifaces[0]) if ifaces else (),
        extents=tuple(extents[0]) if extents else None,
    )


async def _accessible_properties(bus: Bus, dest: str, path: str) -> dict[str, Any] | None:
    """Name, Description, ChildCount and AccessibleId: in one GetAll where the app has it.
    Qt: no GetAll (Qt 5 answers UnknownInterface, Qt 6.4 crashes on it): one property at a time."""
    if await bus.toolkits.of(dest) != "qt":
        props = await bus.maybe(dest, path, PROPERTIES, "GetAll", "s", [ACCESSIBLE])
        return {k: v.value for k, v in props[0].items()} if props else None
    names = ("Name", "Description", "ChildCount")
    got = await asyncio.gather(*(bus.maybe(dest, path, PROPERTIES, "Get", "ss", [ACCESSIBLE, n]) for n in names))
    if got[0] is None:
        return None
    return {n: g[0].value for n, g in zip(names, got) if g}


async def read_extras(  # noqa: C901  (one read per interface)
    bus: Bus,
    raw: Raw,
    full: bool,
    cell_text: bool = False,
    frame: tuple[int, int, int, int] | None = None,
) -> None:
    """Fill in actions, value and short text: only for elements whose interfaces have them.

    With `full=False` (tree walks) the action names of cells and list items are not read:
    there are thousands of them, and their one action ("activate") is not what a click on
    them means — selecting is, and that needs no action name. `cell_text` reads the text of
    cells made on demand: a spreadsheet names its cells by address ("A1") and keeps their
    content in the text. `frame`: the window's extents, in a tree walk. An unnamed field is
    named by its label (LABELLED_BY), a combo box's value is its chosen option.
    """
    dest, path = raw.ref
    jobs: dict[str, Any] = {}
    native, ctype = role_of(raw.role_number)
    if IFACE + "Action" in raw.interfaces and (full or ctype not in ITEM_TYPES):
        jobs["actions"] = bus.maybe(dest, path, IFACE + "Action", "GetActions")
    if IFACE + "Value" in raw.interfaces and ctype not in VALUELESS_TYPES:
        jobs["value"] = bus.maybe(dest, path, PROPERTIES, "Get", "ss", [IFACE + "Value", "CurrentValue"])
    textual = (cell_text and ctype in ITEM_TYPES) or (ctype in TEXT_ROLES and (ctype == "Edit" or not raw.name))
    if IFACE + "Text" in raw.interfaces and (textual or text_block(raw, native, frame)):
        jobs["text"] = bus.maybe(dest, path, IFACE + "Text", "GetText", "ii", [0, TEXT_PREVIEW])
    if not raw.name.strip() and ctype in LABELLED_TYPES:
        jobs["relations"] = bus.maybe(dest, path, ACCESSIBLE, "GetRelationSet")
    if not jobs:
        return
    results = dict(zip(jobs, await asyncio.gather(*jobs.values())))
    if results.get("actions"):
        raw.actions = tuple(str(a[0]) for a in results["actions"][0])
        if not usable_names(raw.actions):
            names = await asyncio.gather(
                *(bus.maybe(dest, path, IFACE + "Action", "GetName", "i", [i]) for i in range(len(raw.actions)))
            )
            raw.actions = tuple(str(n[0]) if n else "" for n in names)
    if results.get("value"):
        number = float(results["value"][0].value)
        raw.value = str(int(number)) if number.is_integer() else f"{number:g}"
    if results.get("text") is not None:
        text = str(results["text"][0]) or await short_text(bus, raw.ref)
        if not cell_text or text != raw.name:
            raw.value = text
    if results.get("relations"):
        label = await _label(bus, results["relations"][0])
        if label:
            raw.name = label
    if ctype == "ComboBox":
        picked = await chosen(bus, raw.ref, raw.name)
        if picked is not None:
            raw.value = picked


async def _label(bus: Bus, relations: list[Any]) -> str:
    """The name of the label an element is labelled by, as a user reads it beside the field
    ("Name:" -> "Name"); "" when it has none."""
    for kind, targets in relations:
        if int(kind) != RELATION_LABELLED_BY:
            continue
        for target in targets:
            ref = ref_of([target])
            name = await bus.maybe(ref[0], ref[1], PROPERTIES, "Get", "ss", [ACCESSIBLE, "Name"]) if ref else None
            text = " ".join(str(name[0].value).split()).rstrip(":").strip() if name else ""
            if text:
                return text
    return ""


async def short_text(bus: Bus, ref: Ref, limit: int | None = TEXT_PREVIEW) -> str:
    """The start of a text that came back empty (all of it with no `limit`), asked again within
    its length: LibreOffice answers "" for an end offset past the text's end, GTK 4.8 for -1."""
    count = await bus.maybe(ref[0], ref[1], PROPERTIES, "Get", "ss", [IFACE + "Text", "CharacterCount"])
    length = int(count[0].value) if count else 0
    if length <= 0:
        return ""
    end = length if limit is None else min(length, limit)
    text = await bus.maybe(ref[0], ref[1], IFACE + "Text", "GetText", "ii", [0, end])
    return str(text[0]) if text else ""


async def whole_text(bus: Bus, ref: Ref) -> str | None:
    """All of an element's text; None when it has no Text interface."""
    text = await bus.maybe(ref[0], ref[1], IFACE + "Text", "GetText", "ii", [0, -1])
    if text is None:
        return None
    return str(text[0]) or await short_text(bus, ref, limit=None)


def to_node(bus: Bus, raw: Raw, parent: int | None, parent_selects: bool) -> Node:
    """The element as the protocol's Node, in the words every toolkit shares: password fields
    "protected" with no value, hidden things not "showing", the app's toolkit's quirks undone."""
    native, ctype = role_of(raw.role_number)
    states = states_of(raw.states)
    toolkit = bus.toolkits.known(raw.ref[0])
    if toolkit == "gtk4":
        states, raw.name = gtk4_normalized(raw, states)
    elif toolkit == JAVA and ctype in ("Menu", "MenuItem", "Separator") and "showing" not in states:
        # Swing: a closed menu's items and separators stay "visible", at their places when open
        states -= {"visible"}
    if ctype == "Edit" and "editable" not in states and native == "text":
        ctype = "Text"  # a read-only text view is text, not a field
    if raw.value and text_block(raw, native):
        ctype = "Text"  # Firefox's <div>Phone number</div>: a section holding its text itself
    rect = None
    if raw.extents is not None:
        x, y, w, h = raw.extents
        if x != HIDDEN_EXTENT and y != HIDDEN_EXTENT and w > 0 and h > 0:
            rect = Rect.from_xywh(x, y, w, h)
        elif ctype == "MenuBar":
            # LibreOffice keeps its own menu bar, flattened to no height, under the GTK one: not shown
            states -= {"showing", "visible"}
    return protect(
        Node(  # password fields: "protected", with no value (not even its bullets)
            handle=raw.ref[0] + raw.ref[1],
            parent=parent,
            role=ctype,
            native_role=native,
            name=raw.name,
            description=raw.description,
            value=raw.value,
            states=states,
            rect=rect,
            operations=operations_of(native, ctype, raw.interfaces, raw.actions, states, parent_selects),
            automation_id=raw.automation_id or None,
            actions=raw.actions,
            interfaces=raw.interfaces,
            child_count=raw.child_count,
            extra=extra(raw, native),
        )
    )


async def refresh(bus: Bus, ref: Ref) -> Node | None:
    """The element read anew, whole (as a walk reads it, with its action names); None when it
    is gone, defunct, or left with no states at all (GTK's destroyed widgets)."""
    raw = await read(bus, ref)
    if raw is None:
        return None
    states = states_of(raw.states)
    if "defunct" in states or not any(raw.states):
        return None
    above = await bus.maybe(ref[0], ref[1], PROPERTIES, "Get", "ss", [ACCESSIBLE, "Parent"])
    selects = False
    if above:
        p_dest, p_path = above[0].value
        p_ifaces = await bus.maybe(p_dest, p_path, ACCESSIBLE, "GetInterfaces")
        selects = p_ifaces is not None and IFACE + "Selection" in p_ifaces[0]
    node = to_node(bus, raw, None, selects)
    if node.role in ("Menu", "MenuItem") and node.rect is not None and await bus.toolkits.of(ref[0]) == JAVA:
        return await java.menu_item_placed(bus, ref, node)
    return node


def extra(raw: Raw, native: str) -> dict[str, str]:
    """A node's `extra`: a terminal's screen; a sheet cell's place, from its handle ("#cell:R,C"),
    a list's cell's from its grid read (`Raw.place`); a table's row count when its grid was read;
    GTK's file chooser, whose location field shows on ctrl+L (its "Show location" action)."""
    if native == "terminal":
        return {TERMINAL: native}
    if native == "file-chooser" or "show location" in (a.lower() for a in raw.actions):
        return {REVEALS_PATH: "ctrl+l"}
    _, mark, place = raw.ref[1].partition(CELL_MARK)
    if not mark and raw.place is not None:
        place = f"{raw.place[0]},{raw.place[1]}"
    found = {CELL_PLACE: place} if place else {}
    if raw.rows is not None:
        found[TABLE_ROWS] = str(raw.rows)
    return found


def text_block(raw: Raw, native: str, frame: tuple[int, int, int, int] | None = None) -> bool:
    """An unnamed section with no children, in the window (`frame`): Firefox keeps a <div>'s
    text in the section itself (Chromium gives it a text child). Those out of view are not
    read: a long page has hundreds, all "showing"."""
    return (
        native == "section"
        and raw.child_count == 0
        and not raw.name
        and (frame is None or visible_area(raw.extents, frame) is not None)
    )


def defunct_only(raw: Raw) -> bool:
    """DEFUNCT and no other state, from an element that still answers (LibreOffice does this)."""
    return bool(raw.states) and raw.states[0] == DEFUNCT_BIT and not any(raw.states[1:])


async def options(bus: Bus, ref: Ref) -> tuple[Ref, list[Raw]]:
    """(container that selects, its options). A combo box keeps its options in a child
    menu or list (GTK, Chromium, Qt), or deeper, in a list in the viewport of a scroll pane
    in a menu (Java); lists and tab lists hold them directly."""
    kids = await tree.children(bus, ref)
    raws = [r for r in await asyncio.gather(*(read(bus, c) for c in kids)) if r is not None]
    inner = ref
    for _ in range(OPTION_WRAPPERS):
        held = [r for r in raws if role_of(r.role_number)[1] != "ScrollBar"]
        if len(held) != 1 or role_of(held[0].role_number)[1] not in OPTION_HOLDERS:
            break
        inner = held[0].ref
        raws = [
            r for r in await asyncio.gather(*(read(bus, c) for c in await tree.children(bus, inner))) if r is not None
        ]
    if inner != ref:
        own = await bus.maybe(ref[0], ref[1], ACCESSIBLE, "GetInterfaces")
        if not (own and IFACE + "Selection" in own[0]):
            return inner, raws
    return ref, raws


async def chosen(bus: Bus, ref: Ref, name: str = "") -> str | None:
    """The name of a combo box's chosen option; None when none is. Qt selects no option in
    its list and names the box by its choice: its `name` when that is one of the options."""
    container, found = await options(bus, ref)
    picked = await bus.maybe(container[0], container[1], IFACE + "Selection", "GetSelectedChild", "i", [0])
    if not picked:
        return name if name and any(o.name == name for o in found) else None
    named = await bus.maybe(picked[0][0], picked[0][1], PROPERTIES, "Get", "ss", [ACCESSIBLE, "Name"])
    return str(named[0].value) if named else None
