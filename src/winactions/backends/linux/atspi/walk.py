"""The snapshot walk: a window's tree read with every branch in flight at once, within a node
and time budget (`Budget`), taking from a kept read what did not change (`Reuse`).

Each element costs two round trips on the critical path (its properties, then its children
list); its action names, value and text are read off that path, while its children are
already being read. Siblings keep their order by position. Nodes that make their children on
demand (MANAGES_DESCENDANTS: spreadsheets, huge lists) or declare absurd child counts are
read by what is visible (`grid`): asking LibreOffice Calc for all 2,147,483,647 cells of a
sheet never ends and makes it grow ~20 MB/s.
"""

from __future__ import annotations

import asyncio
import dataclasses
import time
from typing import TYPE_CHECKING

from winactions.backends.base import CELL_PLACE, TABLE_ROWS
from winactions.backends.linux.atspi import element, grid, java, tree
from winactions.backends.linux.atspi.budget import READING, Budget, state_seconds
from winactions.backends.linux.atspi.element import Raw
from winactions.backends.linux.atspi.entries import Entry, Read, Reuse, count
from winactions.backends.linux.atspi.refs import HUGE_CHILD_COUNT, SHOWING_BIT, Ref, visible_area, xywh
from winactions.backends.linux.atspi.toolkits import JAVA, WEB_PAGE
from winactions.backends.linux.atspi_roles import IFACE, role_of
from winactions.errors import WindowClosed
from winactions.model import Node, Snapshot

if TYPE_CHECKING:
    from winactions.backends.linux.atspi.bus import Bus


async def walk(bus: Bus, root: Ref, max_nodes: int, reuse: Reuse | None = None) -> Read:
    """The subtree of `root` (a window), within `max_nodes` and the time budget
    (`state_seconds`); what a budget left out is said in the snapshot's truncation. With
    `reuse`, elements and child lists that did not change are taken from it without a call.
    WindowClosed when elements vanished because the app quit: never a partial list as if whole."""
    walker = _Walk(bus, Budget(max_nodes, state_seconds()), reuse)
    budget = walker.budget
    reading = READING.set(budget)  # the walk's calls (and the tasks it starts) see its budget
    try:
        top = await walker.visit(root, None, 0)
    finally:
        READING.reset(reading)
    if (budget.vanished or budget.reasons) and not await tree.on_bus(bus, root[0]):
        raise WindowClosed(
            f"the app quit while its window's elements were read ({budget.claimed:,} asked, "
            f"{budget.vanished + budget.unread:,} of them lost): a partial list is not shown",
            hint="run `winctl windows` to see what is open; start the app again with `winctl launch APP`",
        )
    entry = top[0][1] if top else None
    nodes, notes = _flatten(bus, entry)
    _rows_placed(nodes)
    if bus.toolkits.known(root[0]) == JAVA and any(n.native_role == "popup-menu" for n in nodes):
        nodes = await java.menus_placed(bus, nodes)
    return Read(
        entry,
        Snapshot(
            nodes=nodes,
            truncated=bool(budget.reasons),
            truncation="; ".join([budget.message(len(nodes)), *notes]).strip("; "),
            elapsed_ms=(time.perf_counter() - budget.started) * 1000,
        ),
        timed_out="time" in budget.reasons,
    )


class _Walk:
    """One walk's state: its budget, what it may reuse, and the window's and web page's extents."""

    def __init__(self, bus: Bus, budget: Budget, reuse: Reuse | None) -> None:
        self.bus, self.budget, self.reuse = bus, budget, reuse
        self.frame: tuple[int, int, int, int] | None = None  # the window's extents: what managed nodes are clipped to
        self.page: tuple[int, int, int, int] | None = None  # a web document's extents: the view it scrolls in

    async def visit(
        self,
        ref: Ref,
        parent: Raw | None,
        position: int,
        in_managed: bool = False,
        label: str | None = None,
        renew: bool = False,
    ) -> list[tuple[int, Entry]]:
        """Read one element (or take it from `reuse`) and, if shown, its children; `renew`:
        under an element whose children changed, where nothing kept is trusted (rows
        inserted above move the cells below without a word). [] when it is not read."""
        bus, budget, reuse = self.bus, self.budget, self.reuse
        if not budget.claim():
            return []
        old = reuse.old.get(ref) if reuse is not None and not renew else None
        fresh = old is None or reuse is None or ref in reuse.touched
        raw = await element.read_base(bus, ref) if fresh else old.raw  # type: ignore[union-attr]
        moved = False
        if (
            not fresh
            and reuse is not None
            and reuse.places
            and raw is not None
            and raw.states
            and raw.states[0] & SHOWING_BIT
        ):  # a hidden element's place is read when it shows again
            extents = await bus.maybe(ref[0], ref[1], IFACE + "Component", "GetExtents", "u", [0])
            if extents and tuple(extents[0]) != raw.extents:
                raw, moved = dataclasses.replace(raw, extents=tuple(extents[0])), True
        if raw is None:  # vanished while we read it, or not read in time
            if budget.overdue():
                budget.cut("time", 1)
            else:
                budget.vanished += 1
            return []
        if parent is None:
            self.frame = raw.extents  # what managed nodes are clipped to
        elif role_of(raw.role_number)[0] == WEB_PAGE:
            self.page = raw.extents  # and those in a page, to the page (not the browser's bars)
        elif element.defunct_only(raw):
            # LibreOffice's formula-bar "Input line" says defunct while alive: its children
            # take its place, and an unnamed one its name.
            kids = await tree.children(bus, raw.ref) if raw.child_count <= HUGE_CHILD_COUNT else []
            got = await asyncio.gather(
                *(self.visit(kid, parent, position, in_managed, raw.name, renew) for kid in kids)
            )
            return [e for entries in got for e in entries]
        selects = parent is not None and IFACE + "Selection" in parent.interfaces
        kept = old is not None and not fresh and not moved and old.selects == selects
        entry = Entry(raw, selects, label, node=old.node if kept and old is not None else None)
        jobs = [element.read_extras(bus, raw, full=False, cell_text=in_managed, frame=self.frame)] if fresh else []
        # children only of an element that has some and shows (a window's are read whatever it says)
        if raw.child_count > 0 and (
            parent is None or (raw.states and raw.states[0] & await bus.toolkits.shown_bit(ref[0]))
        ):
            jobs.append(self.expand(entry, old, renew))
        await asyncio.gather(*jobs)
        if label and not raw.name:
            raw.name = label
        return [(position, entry)]

    async def expand(self, entry: Entry, old: Entry | None, renew: bool) -> None:
        """Read the children of a shown element into `entry.kids`: from `reuse` where nothing
        below changed, by what is visible where it makes them on demand, else listed."""
        bus, budget, reuse = self.bus, self.budget, self.reuse
        raw = entry.raw
        reason = budget.exhausted()
        if reason is not None:
            budget.cut(reason, raw.child_count)
            return
        if reuse is not None and old is not None and old.kids is not None and not reuse.regrow(old):
            entry.managed, entry.note = old.managed, old.note
            if old.managed and old.raw.ref not in reuse.holds:  # nothing under it changed: as read
                entry.kids = old.kids
                for _ in range(count(old) - 1):
                    budget.claim()
                return
            got = await asyncio.gather(
                *(self.visit(kid.raw.ref, raw, pos, old.managed, kid.label) for pos, kid in old.kids)
            )
            entry.kids = [e for entries in got for e in entries]
            return
        entry.kids = []
        if grid.makes_children_on_demand(raw):
            entry.managed = True
            probe = visible_area(raw.extents, self.frame)
            probe = visible_area(xywh(probe), self.page) if probe is not None and self.page else probe
            seen = await grid.visible_grid(bus, raw, probe) if probe is not None else None
            if seen is not None:
                await grid.read_grid(bus, entry, seen, budget, self.visit, reuse is not None)
                return
            kids = list(enumerate(await grid.hit_sweep(bus, raw.ref, probe))) if probe is not None else []
            room = budget.remaining()
            if len(kids) > room:
                budget.cut("nodes", len(kids) - room)
        else:
            kids = list(enumerate(await tree.children(bus, raw.ref)))
        renew = renew or reuse is not None  # listed anew: what is below is read anew
        got = await asyncio.gather(*(self.visit(kid, raw, pos, entry.managed, None, renew) for pos, kid in kids))
        entry.kids = [e for entries in got for e in entries]


def _flatten(bus: Bus, top: Entry | None) -> tuple[list[Node], list[str]]:
    """The read tree as nodes, depth first, siblings by position; and the reads' notes."""
    nodes: list[Node] = []
    notes: list[str] = []
    stack: list[tuple[Entry, int | None]] = [(top, None)] if top is not None else []
    while stack:
        entry, parent = stack.pop()
        if entry.node is None:
            entry.node = element.to_node(bus, entry.raw, None, entry.selects)
        node = object.__new__(Node)  # a copy with its parent: dataclasses.replace is ~10x slower
        node.__dict__.update(entry.node.__dict__, parent=parent)
        nodes.append(node)
        if entry.note:
            notes.append(entry.note)
        index = len(nodes) - 1
        kids = sorted(entry.kids or (), key=lambda pair: pair[0])
        stack.extend((kid, index) for _, kid in reversed(kids))
    return nodes, notes


def _rows_placed(nodes: list[Node]) -> None:
    """Cells of a table laid out as rows (a web page's <table>: table > row > cell), not placed
    yet, get their (row, column) from where they sit, and the table its number of rows (as
    read: header rows too): no call to the app. A cell spanning columns shifts those after it."""
    counts: dict[int, int] = {}  # a table's index -> its rows so far
    rows: dict[int, list[int]] = {}  # a row's index -> [its row number, its cells so far]
    for i, node in enumerate(nodes):
        parent = node.parent
        if parent is None or CELL_PLACE in node.extra:
            continue
        if node.role == "Row" and nodes[parent].role == "Table":
            rows[i] = [counts.get(parent, 0), 0]
            counts[parent] = rows[i][0] + 1
        elif parent in rows and node.role in ("DataItem", "HeaderItem"):
            object.__setattr__(node, "extra", {**node.extra, CELL_PLACE: f"{rows[parent][0]},{rows[parent][1]}"})
            rows[parent][1] += 1
    for table, total in counts.items():
        if TABLE_ROWS not in nodes[table].extra:
            object.__setattr__(nodes[table], "extra", {**nodes[table].extra, TABLE_ROWS: str(total)})
