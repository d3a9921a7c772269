"""Grids: tables and lists read by what is visible, and the cells a state places without reading.

A node that makes its children on demand (a sheet's 2**31 cells, a huge list) is never
listed: its visible grid is found by hit tests at the corners of the view (`visible_grid`),
or its rows by hit tests down the view (`hit_sweep`). Each cell LibreOffice Calc hands out
is a new object it never frees (~8 KB): a state reads at most CELL_READS real cells of a
sheet and places the others by the real cells' rows and columns ("virtual" cells, resolved
to real ones only when acted on: `resolve`); a cell handed out in the last seconds is read
again by its path instead of asked for anew (`cell_leases`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import TYPE_CHECKING, Any

from winactions.backends.linux.atspi import tree
from winactions.backends.linux.atspi.budget import Budget
from winactions.backends.linux.atspi.element import Raw
from winactions.backends.linux.atspi.entries import Entry
from winactions.backends.linux.atspi.refs import (
    ACCESSIBLE,
    ADDRESS,
    CELL_MARK,
    FOCUSED_BIT,
    HUGE_CHILD_COUNT,
    MANAGES_DESCENDANTS_BIT,
    PROPERTIES,
    SHEET_CELLS,
    Ref,
    address,
    cell_ref,
    place,
    ref_of,
    split_handle,
)
from winactions.backends.linux.atspi_roles import IFACE
from winactions.backends.linux.cell_leases import Place
from winactions.errors import NotFound, StaleElement

if TYPE_CHECKING:
    from winactions.backends.linux.atspi.bus import Bus

HIT_PROBES = 8  # hit tests tried inward from a viewport's corner before giving up
HIT_STEP = 8  # pixels between those hit tests (past a header row, a border)
MAX_SWEEP_HITS = 400  # hit tests spent sweeping down a managed list without a Table interface
CELL_READS = 150  # real cells of a sheet one state reads at most (each costs the app memory)
Grid = tuple[int, int, int, int]  # first row, first column, last row, last column
# the walk's visit: (ref, parent, position, in_managed, label, renew) -> [(position, entry)]
Visit = Callable[[Ref, Raw | None, int, bool, str | None, bool], Coroutine[Any, Any, list[tuple[int, Entry]]]]


def makes_children_on_demand(raw: Raw) -> bool:
    """MANAGES_DESCENDANTS, or more children than a window can show: never list them all."""
    first = raw.states[0] if raw.states else 0
    return bool(first & MANAGES_DESCENDANTS_BIT) or raw.child_count > HUGE_CHILD_COUNT


async def read_grid(bus: Bus, entry: Entry, grid: Grid, budget: Budget, visit: Visit, renew: bool) -> None:
    """Fill `entry.kids` with a table's column headers and a budget of real cells (read by
    `visit`), and the other cells of the visible `grid` placed by their row and column. A
    sheet's first row and column are read first; then the rows' cells of the columns whose
    first cell holds text (the data's), so the budget goes to text, not blanks. A list's
    cells keep their objects and say their place apart; a sheet's cell's handle is its place."""
    table = entry.raw
    r0, c0, r1, c1 = grid
    width = c1 - c0 + 1
    sheet = table.child_count >= SHEET_CELLS  # each cell read costs the app memory it never frees
    limit = min(CELL_READS, budget.remaining()) if sheet else budget.remaining()
    real = cells_to_read(grid, limit, columns=[] if sheet else None)
    entry.kids = []
    read: dict[tuple[int, int], Raw] = {}
    seen: set[Ref] = set()

    async def take(cells: list[tuple[int, int]], columns: range) -> None:
        refs = await _cells(bus, table.ref, cells, columns, sheet)
        jobs: list[Coroutine[Any, Any, list[tuple[int, Entry]]]] = []
        keys: list[tuple[int, int] | None] = []
        for key, ref in refs:
            if ref is not None and ref not in seen and ref != table.ref:  # merged cells repeat
                seen.add(ref)
                position = key[1] - c0 - width if key[0] < 0 else (key[0] - r0) * width + key[1] - c0
                jobs.append(visit(ref, table, position, True, None, renew))
                keys.append(None if key[0] < 0 else key)
        done = await asyncio.gather(*jobs)
        entry.kids = (entry.kids or []) + [e for entries in done for e in entries]
        read.update({key: entries[0][1].raw for key, entries in zip(keys, done) if key is not None and entries})

    count = (
        None
        if sheet
        else asyncio.gather(  # its rows, and how many of them are headers
            bus.maybe(table.ref[0], table.ref[1], PROPERTIES, "Get", "ss", [IFACE + "Table", "NRows"]),
            _header_rows(bus, table.ref, c0),
        )
    )
    await take(real, range(c0, c1 + 1))
    if sheet:
        data = [c for c in range(c0 + 1, c1 + 1) if (r0, c) in read and read[(r0, c)].value]
        more = [(r, c) for r in range(r0 + 1, r1 + 1) for c in (data or range(c0 + 1, c1 + 1))]
        await take(more[: max(0, limit - len(real))], range(0))
    if count is not None:  # a list's cells (GTK) keep their objects: a row inserted above moves a
        rows, above = await count  # a web table's header row is its row 0: rows are counted below it
        for (r, c), cell in read.items():  # cell's place, not its identity; the place is said apart
            cell.place = (r - above, c) if r >= above else None
        table.rows = int(rows[0].value) - above if rows else None
        return
    for (r, c), cell in read.items():  # a cell's handle is its place: Calc makes a new object per ask
        cell.ref = cell_ref(table.ref, r, c)
    selects = IFACE + "Selection" in table.interfaces
    placed = 0
    for r in range(r0, r1 + 1):
        for c in range(c0, c1 + 1):
            virtual = None if (r, c) in read else virtual_cell(table.ref, r, c, grid, read)
            if virtual is not None and budget.claim():
                entry.kids.append(((r - r0) * width + c - c0, Entry(virtual, selects)))
                placed += 1
    if placed:
        entry.note = (
            f"{table.name or 'a table'}: {len(read)} cells read with their text, {placed} more "
            f"placed by row and column without it (each cell read costs the app memory it "
            f"never frees) — `winctl get text ID` reads any cell"
        )


async def visible_grid(bus: Bus, raw: Raw, area: tuple[int, int, int, int]) -> Grid | None:
    """(first row, first column, last row, last column) of a table's cells in the visible
    `area` (left, top, right, bottom), from hit tests at its corners; None without a Table
    interface or when no cell is found there."""
    if IFACE + "Table" not in raw.interfaces:
        return None
    sheet = raw.child_count >= SHEET_CELLS
    first, last = await asyncio.gather(
        _cell_near(bus, raw.ref, area, True, sheet), _cell_near(bus, raw.ref, area, False, sheet)
    )
    if first is not None and last is None:  # the table ends before the view does (a few rows)
        last = await _last_cell_by_size(bus, raw.ref, area, first)
    if first is None or last is None or last[0] < first[0] or last[1] < first[1]:
        return None
    if sheet:
        bus.leases.set_grid(raw.ref, (first[0], first[1], last[0], last[1]))
    return first[0], first[1], last[0], last[1]


async def _last_cell_by_size(
    bus: Bus, table: Ref, area: tuple[int, int, int, int], first: tuple[int, int]
) -> tuple[int, int] | None:
    """The last cell in view when the bottom-right corner is empty: as many rows as fit
    below the first one (at its height) or as the table has, and every column whose
    first visible cell starts left of the view's right edge."""
    dest, path = table
    rows, columns = await asyncio.gather(
        bus.maybe(dest, path, PROPERTIES, "Get", "ss", [IFACE + "Table", "NRows"]),
        bus.maybe(dest, path, PROPERTIES, "Get", "ss", [IFACE + "Table", "NColumns"]),
    )
    if not rows or not columns:
        return None
    n_rows, n_columns = int(rows[0].value), int(columns[0].value)
    cells = await asyncio.gather(
        *(
            bus.maybe(dest, path, IFACE + "Table", "GetAccessibleAt", "ii", [first[0], c])
            for c in range(first[1], min(n_columns, first[1] + 64))
        )
    )
    extents = await asyncio.gather(
        *(
            bus.maybe(*ref, IFACE + "Component", "GetExtents", "u", [0])
            for ref in (ref_of(c) for c in cells)
            if ref is not None
        )
    )
    boxes = [tuple(e[0]) for e in extents if e]
    if not boxes or boxes[0][3] <= 0:
        return None
    last_col = first[1] + sum(1 for b in boxes if b[0] < area[2]) - 1
    fit = max(1, (area[3] - boxes[0][1]) // boxes[0][3])
    return min(n_rows - 1, first[0] + fit - 1), last_col


async def _cells(
    bus: Bus, table: Ref, cells: list[tuple[int, int]], columns: range, sheet: bool = False
) -> list[tuple[tuple[int, int], Ref | None]]:
    """((row, column), cell) for these cells, and ((-1, column), header) for the columns' headers.
    A `sheet`'s cells handed out lately are taken again by their paths (`sheet_cell`)."""
    dest, path = table
    headers = await asyncio.gather(
        *(bus.maybe(dest, path, IFACE + "Table", "GetColumnHeader", "i", [c]) for c in columns)
    )
    if sheet:
        found = await asyncio.gather(*(sheet_cell(bus, table, at) for at in cells))
    else:
        found = [
            ref_of(reply)
            for reply in await asyncio.gather(
                *(bus.maybe(dest, path, IFACE + "Table", "GetAccessibleAt", "ii", [r, c]) for r, c in cells)
            )
        ]
    return [((-1, c), ref_of(h)) for c, h in zip(columns, headers)] + list(zip(cells, found))


async def sheet_cell(bus: Bus, table: Ref, at: Place) -> Ref | None:
    """The cell of a sheet at (row, column): the object handed out for that place within its
    lease if it is still alive, else one asked of the table (and kept for the next reads)."""
    kept = bus.leases.get(table, at)
    if kept is not None and await tree.alive(bus, kept):
        return kept
    cell = ref_of(await bus.maybe(table[0], table[1], IFACE + "Table", "GetAccessibleAt", "ii", list(at)))
    if cell is not None:
        bus.leases.keep(table, at, cell)
    return cell


async def _leased_corner(bus: Bus, table: Ref, top_left: bool, x: int, y: int) -> Place | None:
    """The cell under (x, y) near one corner of the sheet's last visible grid (that corner or a
    row or column off it, as a key scrolls the view), when its object is still leased: what a
    hit test there would find, without a new object."""
    corner = bus.leases.corner(table, top_left)
    if corner is None:
        return None
    (row, col), _ = corner
    for dr, dc in ((0, 0), (1, 0), (0, 1), (-1, 0), (0, -1), (1, 1), (-1, -1)):
        at = (row + dr, col + dc)
        ref = bus.leases.get(table, at)
        if ref is None:
            continue
        alive, extents = await asyncio.gather(
            tree.alive(bus, ref), bus.maybe(ref[0], ref[1], IFACE + "Component", "GetExtents", "u", [0])
        )
        if alive and extents:
            left, top, width, height = extents[0]
            if left <= x < left + width and top <= y < top + height:
                return at
    return None


async def _cell_near(
    bus: Bus, table: Ref, area: tuple[int, int, int, int], top_left: bool, sheet: bool = False
) -> tuple[int, int] | None:
    """(row, column) of the first cell hit-tested inward from one corner of the visible area;
    on a `sheet`, the last read's corner cell when it is still there (no hit test)."""
    left, top, right, bottom = area
    if sheet:
        x, y = (left + 1, top + 1) if top_left else (right - 2, bottom - 2)
        kept = await _leased_corner(bus, table, top_left, x, y)
        if kept is not None:
            return kept
    for k in range(HIT_PROBES):
        step = 1 + k * HIT_STEP
        x, y = (left + step, top + step) if top_left else (right - 1 - step, bottom - 1 - step)
        if not (left <= x < right and top <= y < bottom):
            break
        hit = ref_of(await bus.maybe(table[0], table[1], IFACE + "Component", "GetAccessibleAtPoint", "iiu", [x, y, 0]))
        if hit is None or hit == table:
            continue
        at = None if sheet else await _cell_position(bus, hit, parent=True)
        if at is not None:  # a web table's cell sits in a row: its index there is its column
            return at
        index = await bus.maybe(hit[0], hit[1], ACCESSIBLE, "GetIndexInParent")
        if not index or int(index[0]) < 0:
            # while a formula is typed, Calc's cells have no index: their address still says where they are
            name = await bus.maybe(hit[0], hit[1], PROPERTIES, "Get", "ss", [ACCESSIBLE, "Name"])
            at = place(str(name[0].value)) if name else None
            if at is not None:
                return at
            continue
        row, col = await asyncio.gather(
            bus.maybe(table[0], table[1], IFACE + "Table", "GetRowAtIndex", "i", [int(index[0])]),
            bus.maybe(table[0], table[1], IFACE + "Table", "GetColumnAtIndex", "i", [int(index[0])]),
        )
        if row and col and int(row[0]) >= 0 and int(col[0]) >= 0:
            if sheet:
                bus.leases.keep(table, (int(row[0]), int(col[0])), hit)
            return int(row[0]), int(col[0])
    return None


async def _header_rows(bus: Bus, table: Ref, column: int) -> int:
    """1 when the table's row 0 is column headers (a web table's <th> row), else 0."""
    first = ref_of(await bus.maybe(table[0], table[1], IFACE + "Table", "GetAccessibleAt", "ii", [0, column]))
    role = await bus.maybe(first[0], first[1], ACCESSIBLE, "GetRoleName") if first is not None else None
    return 1 if role and "header" in str(role[0]) else 0


async def _cell_position(bus: Bus, cell: Ref, parent: bool = False) -> tuple[int, int] | None:
    """(row, column) a cell says it has (AT-SPI TableCell's Position); None without it. With
    `parent`, an element without it asks its parent (a page's hit test finds a cell's text)."""
    reply = await bus.maybe(cell[0], cell[1], PROPERTIES, "Get", "ss", [IFACE + "TableCell", "Position"])
    at = reply[0].value if reply else None
    if not isinstance(at, (list, tuple)) or len(at) != 2 or min(at) < 0:
        if not parent:
            return None
        up = await bus.maybe(cell[0], cell[1], PROPERTIES, "Get", "ss", [ACCESSIBLE, "Parent"])
        above = ref_of([up[0].value]) if up else None
        return await _cell_position(bus, above) if above is not None else None
    return int(at[0]), int(at[1])


async def hit_sweep(bus: Bus, node: Ref, area: tuple[int, int, int, int]) -> list[Ref]:
    """Children found by hit tests down the visible area, one row (its height) at a time:
    down the middle first (a word processor's page sits in the middle of grey margins),
    then near the left edge (a list's rows may be short)."""
    left, top, right, bottom = area
    for x in ((left + right) // 2, left + min(20, (right - left) // 4)):
        found = await _sweep_at(bus, node, x, top, bottom)
        if found:
            return found
    return []


async def _sweep_at(bus: Bus, node: Ref, x: int, top: int, bottom: int) -> list[Ref]:
    """Hit tests down one vertical line, skipping past each element found."""
    y = top + 1
    found: list[Ref] = []
    for _ in range(MAX_SWEEP_HITS):
        if y >= bottom:
            break
        hit = ref_of(await bus.maybe(node[0], node[1], IFACE + "Component", "GetAccessibleAtPoint", "iiu", [x, y, 0]))
        extents = None
        if hit is not None and hit != node:
            if hit not in found:
                found.append(hit)
            extents = await bus.maybe(hit[0], hit[1], IFACE + "Component", "GetExtents", "u", [0])
        bottom_of_hit = extents[0][1] + extents[0][3] if extents else 0
        y = max(y + HIT_STEP, bottom_of_hit) if hit is not None and hit != node else y + HIT_STEP
    return found


def cells_to_read(grid: Grid, limit: int, columns: list[int] | None = None) -> list[tuple[int, int]]:
    """Which cells of the visible grid to read for real: the first row and column (they give
    every row's and column's place), then whole rows from the top while `limit` allows —
    of those `columns` only (none: the first row and column alone)."""
    r0, c0, r1, c1 = grid
    chosen = [(r0, c) for c in range(c0, c1 + 1)] + [(r, c0) for r in range(r0 + 1, r1 + 1)]
    chosen = chosen[:limit]
    wanted = range(c0 + 1, c1 + 1) if columns is None else [c for c in columns if c != c0]
    for r in range(r0 + 1, r1 + 1):
        row = [(r, c) for c in wanted]
        if len(chosen) + len(row) > limit:
            break
        chosen.extend(row)
    return chosen


def virtual_cell(table: Ref, row: int, col: int, grid: Grid, read: dict[tuple[int, int], Raw]) -> Raw | None:
    """A cell placed from its row's and column's real cells: address and rectangle, no text;
    None unless the table's cells are named by address ("B12") and both were read. Its states
    and interfaces are its neighbours' (less focus and selection, the real cell's own)."""
    r0, c0 = grid[0], grid[1]
    column, line = read.get((r0, col)), read.get((row, c0))
    if column is None or line is None or column.extents is None or line.extents is None:
        return None
    letters, digits = ADDRESS.match(column.name), ADDRESS.match(line.name)
    if letters is None or digits is None:
        return None
    states = list(line.states)
    if states:
        states[0] &= ~(FOCUSED_BIT | 1 << 23)  # FOCUSED, SELECTED
    x, w = column.extents[0], column.extents[2]
    y, h = line.extents[1], line.extents[3]
    return Raw(
        ref=cell_ref(table, row, col),
        name=letters.group(1) + digits.group(2),
        description="",
        child_count=0,
        automation_id="",
        role_number=line.role_number,
        states=states,
        interfaces=line.interfaces,
        extents=(x, y, w, h),
    )


async def resolve(bus: Bus, handle: str) -> Ref:
    """The element behind a handle; a virtual cell is asked of its table only now, by its place,
    and must carry the address of that place: StaleElement (nothing done) when the sheet hands
    out another cell there, NotFound when none."""
    dest, path = split_handle(handle)
    if CELL_MARK not in path:
        return dest, path
    path, _, where = path.partition(CELL_MARK)
    row_text, _, col_text = where.partition(",")
    try:
        row, col = int(row_text), int(col_text)
    except ValueError:
        raise NotFound(f"not an element handle: {handle!r}", hint="run `winctl state`") from None
    cell = ref_of(await bus.maybe(dest, path, IFACE + "Table", "GetAccessibleAt", "ii", [row, col]))
    if cell is None:
        raise NotFound("the cell is gone", hint="run `winctl state`")
    name = await bus.maybe(cell[0], cell[1], PROPERTIES, "Get", "ss", [ACCESSIBLE, "Name"])
    found = str(name[0].value) if name else ""
    expected = address(row, col)
    if ADDRESS.match(found) and found.replace("$", "") != expected:
        raise StaleElement(
            f"the table's cell at row {row + 1}, column {col + 1} is {found}, not {expected}; nothing was done",
            hint="the sheet changed — run `winctl state`",
        )
    return cell


async def cell_named(bus: Bus, table: Ref, name: str) -> str | None:
    """The handle of a spreadsheet's cell by its address ("Z200", "b12"), shown or not: the
    table's cell at that place, if it is named so; None otherwise."""
    name = name.strip().upper()  # "b12" is meant as B12
    at = place(name)
    if at is None:
        return None
    cell = ref_of(await bus.maybe(table[0], table[1], IFACE + "Table", "GetAccessibleAt", "ii", list(at)))
    if cell is None:
        return None
    found = await bus.maybe(cell[0], cell[1], PROPERTIES, "Get", "ss", [ACCESSIBLE, "Name"])
    if not found or str(found[0].value).replace("$", "") != name.replace("$", ""):
        return None
    ref = cell_ref(table, *at)
    return ref[0] + ref[1]


class HelperCalls:
    """What `sheet_cursor` and `table_search` ask of the client they are handed, over a bus."""

    def __init__(self, bus: Bus) -> None:
        self._bus = bus

    async def _maybe(
        self, dest: str, path: str, interface: str, method: str, signature: str = "", body: list[Any] | None = None
    ) -> list[Any] | None:
        return await self._bus.maybe(dest, path, interface, method, signature, body)

    async def _children(self, ref: Ref) -> list[Ref]:
        return await tree.children(self._bus, ref)

    async def _sheet_cell(self, table: Ref, at: Place) -> Ref | None:
        return await sheet_cell(self._bus, table, at)
