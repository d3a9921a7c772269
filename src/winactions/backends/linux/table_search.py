"""Finding elements by their text anywhere below a list, table or sheet, shown or not.

A state reads what shows; `find TEXT` also looks where the agent would scroll to. Two ways:

- a spreadsheet (a table declaring 2**31 cells, LibreOffice Calc) is read cell by cell through
  its Table interface over its used area only, block by block of rows until a block holds no
  text: walking its children never ends, and every cell object asked for costs the app
  memory it never frees (see `cell_leases`), so the cells read are capped (SHEET_CELLS_READ);
- anything else (a GTK TreeView's rows, a web page's table, a Qt list) is walked breadth
  first, every element read by its name (and, when unnamed, its text), up to a node budget.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from winactions.backends.base import TextMatch
from winactions.backends.linux.atspi_roles import ITEM_TYPES, role_of

IFACE = "org.a11y.atspi."
ACCESSIBLE = IFACE + "Accessible"
PROPERTIES = "org.freedesktop.DBus.Properties"
IN_FLIGHT = 64  # calls in flight at once: thousands overflow the bus socket (EAGAIN)
FIRST_ROWS = 10  # rows of a sheet read across WIDTH_PROBE columns to learn which columns are used
WIDTH_PROBE = 26  # columns A..Z
BLOCK_ROWS = 50  # a sheet is read this many rows at a time; an empty block ends it
SHEET_CELLS_READ = 6000  # cells of a sheet read at most by one search (~8 KB of the app's memory each)

NULL_PATH = "/org/a11y/atspi/null"  # what AT-SPI answers for "no element"
Ref = tuple[str, str]
Place = tuple[int, int]


class _Client(Protocol):
    async def _maybe(
        self, dest: str, path: str, interface: str, method: str, signature: str = "", body: list[Any] | None = None
    ) -> Any: ...

    async def _children(self, ref: Ref) -> list[Ref]: ...

    async def _sheet_cell(self, table: Ref, place: Place) -> Ref | None: ...


def normalized(text: str) -> str:
    return " ".join(text.split())


def holds(text: str, needle: str) -> bool:
    """Does `text` hold `needle`, ignoring case and runs of white space?"""
    return normalized(needle).casefold() in normalized(text).casefold()


async def _capped(jobs: list[Callable[[], Awaitable[Any]]]) -> list[Any]:
    """Run the jobs with at most IN_FLIGHT at once, results in order."""
    out: list[Any] = []
    for start in range(0, len(jobs), IN_FLIGHT):
        out += await asyncio.gather(*(job() for job in jobs[start : start + IN_FLIGHT]))
    return out


async def _text_of(client: _Client, ref: Ref) -> str:
    got = await client._maybe(ref[0], ref[1], IFACE + "Text", "GetText", "ii", [0, -1])
    return str(got[0]) if got else ""


async def sheet_matches(
    client: _Client, table: Ref, needle: str, limit: int = SHEET_CELLS_READ
) -> tuple[list[TextMatch], bool]:
    """The cells of a sheet whose text holds `needle`, read over its used area: the columns
    with text in its first FIRST_ROWS rows (of A..Z), down to the first BLOCK_ROWS rows with
    none. True with them when the `limit` of cells read cut the search short."""
    dest, path = table
    sizes = await asyncio.gather(
        client._maybe(dest, path, PROPERTIES, "Get", "ss", [IFACE + "Table", "NRows"]),
        client._maybe(dest, path, PROPERTIES, "Get", "ss", [IFACE + "Table", "NColumns"]),
    )
    if not sizes[0] or not sizes[1]:
        return [], False
    n_rows, n_columns = int(sizes[0][0].value), int(sizes[1][0].value)
    read = 0

    async def cells(rows: range, columns: range) -> list[tuple[Place, str]]:
        nonlocal read
        places = [(r, c) for r in rows for c in columns][: max(0, limit - read)]
        read += len(places)

        async def one(place: Place) -> tuple[Place, str]:
            cell = await client._sheet_cell(table, place)
            return place, (await _text_of(client, cell) if cell is not None else "")

        return await _capped([lambda p=place: one(p) for place in places])  # type: ignore[misc]

    first = await cells(range(min(FIRST_ROWS, n_rows)), range(min(WIDTH_PROBE, n_columns)))
    used = [place for place, text in first if text.strip()]
    width = max((c for _, c in used), default=-1) + 1
    if width == 0:
        return [], False
    found = [(place, text) for place, text in first if place[1] < width]
    row = FIRST_ROWS
    while row < n_rows and read < limit:
        block = await cells(range(row, min(n_rows, row + BLOCK_ROWS)), range(width))
        found += block
        if not any(text.strip() for _, text in block):
            break
        row += BLOCK_ROWS
    cut = read >= limit and row < n_rows
    handle = f"{dest}{path}"
    return [
        TextMatch(handle=f"{handle}#cell:{r},{c}", text=text, place=(r, c))
        for (r, c), text in found
        if text.strip() and holds(text, needle)
    ], cut


async def table_matches(client: _Client, table: Ref, needle: str, limit: int) -> tuple[list[TextMatch], bool]:
    """The cells of a (web, list) table too long to walk child by child whose name (else text)
    holds `needle`, asked of its Table interface row by row, up to `limit` cells. True with them
    when the limit cut the search short, or the element has no Table interface to ask (it was
    not searched)."""
    dest, path = table
    sizes = await asyncio.gather(
        client._maybe(dest, path, PROPERTIES, "Get", "ss", [IFACE + "Table", "NRows"]),
        client._maybe(dest, path, PROPERTIES, "Get", "ss", [IFACE + "Table", "NColumns"]),
    )
    if not sizes[0] or not sizes[1]:
        return [], True
    n_rows, n_columns = int(sizes[0][0].value), int(sizes[1][0].value)
    places = [(r, c) for r in range(n_rows) for c in range(n_columns)]

    async def one(place: Place) -> tuple[Ref | None, str]:
        got = await client._maybe(dest, path, IFACE + "Table", "GetAccessibleAt", "ii", list(place))
        cell = (str(got[0][0]), str(got[0][1])) if got and got[0] and got[0][1] != NULL_PATH else None
        if cell is None:
            return None, ""
        name = await client._maybe(cell[0], cell[1], PROPERTIES, "Get", "ss", [ACCESSIBLE, "Name"])
        text = str(name[0].value) if name else ""
        return cell, text if text.strip() else await _text_of(client, cell)

    read = await _capped([lambda p=place: one(p) for place in places[:limit]])  # type: ignore[misc]
    return [
        TextMatch(handle=f"{cell[0]}{cell[1]}", text=normalized(text))
        for cell, text in read
        if cell is not None and text.strip() and holds(text, needle)
    ], len(places) > limit


async def walk_matches(  # noqa: C901  (rows and cells walked in one pass)
    client: _Client,
    roots: list[Ref],
    needle: str,
    limit: int,
    huge: int,
    sheet: int,
) -> tuple[list[TextMatch], bool, list[Ref]]:
    """Elements below `roots` (not the roots) whose name (else text) holds `needle`, read breadth
    first up to `limit` elements. An element that declares more than `huge` children is not
    walked: a table is searched through its Table interface (`table_matches`), and one that
    declares `sheet` or more (a spreadsheet: see `sheet_matches`) is returned with them. Of a match and a match
    inside it (a web table's cell and its text), the outer one is kept. True with them when the
    limit cut the walk short."""
    level: list[tuple[Ref, Ref | None]] = [(r, None) for r in roots]
    matched: dict[Ref, TextMatch] = {}
    parents: dict[Ref, Ref | None] = {}
    sheets: list[Ref] = []
    tables: list[Ref] = []
    read = 0
    while level and read < limit:
        kids = [
            (kid, parent)
            for parent, got in zip(
                [r for r, _ in level],
                await _capped([lambda r=r: client._children(r) for r, _ in level]),  # type: ignore[misc]
            )
            for kid in got
        ]
        kept = kids[: max(0, limit - read)]
        cut = len(kept) < len(kids)
        read += len(kept)

        async def props(ref: Ref) -> tuple[str, int]:
            """Its text and how many children of it to read: none of a named cell, list item or
            tree item (its name is its content: a web table's cell and its text)."""
            name, count = await asyncio.gather(
                client._maybe(ref[0], ref[1], PROPERTIES, "Get", "ss", [ACCESSIBLE, "Name"]),
                client._maybe(ref[0], ref[1], PROPERTIES, "Get", "ss", [ACCESSIBLE, "ChildCount"]),
            )
            text = str(name[0].value) if name else ""
            n = int(count[0].value) if count else 0
            if not text.strip() and n == 0:
                text = await _text_of(client, ref)
            elif text.strip() and 0 < n <= huge:
                role = await client._maybe(ref[0], ref[1], ACCESSIBLE, "GetRole")
                n = 0 if role and role_of(int(role[0]))[1] in ITEM_TYPES else n
            return text, n

        read_props = await _capped([lambda k=k: props(k) for k, _ in kept])  # type: ignore[misc]
        level = []
        for (kid, parent), (text, n) in zip(kept, read_props):
            parents[kid] = parent
            if text.strip() and holds(text, needle):
                matched[kid] = TextMatch(handle=f"{kid[0]}{kid[1]}", text=normalized(text))
            if 0 < n <= huge:
                level.append((kid, parent))
            elif n >= sheet:
                sheets.append(kid)
            elif n > huge:
                tables.append(kid)
        if cut:
            return _outermost(matched, parents), True, sheets
    for table in tables:
        rows, short = await table_matches(client, table, needle, max(0, limit - read))
        read += limit if short else 0
        matched.update({(m.handle, ""): m for m in rows})
        if short:
            return _outermost(matched, parents), True, sheets
    return _outermost(matched, parents), bool(level), sheets


def _outermost(matched: dict[Ref, TextMatch], parents: dict[Ref, Ref | None]) -> list[TextMatch]:
    """The matches no other match holds."""

    def inside_a_match(ref: Ref) -> bool:
        up = parents.get(ref)
        while up is not None:
            if up in matched:
                return True
            up = parents.get(up)
        return False

    return [m for ref, m in matched.items() if not inside_a_match(ref)]
