"""Finding elements below others by name or text, shown or not (what `find` looks through).

A state's walk does not expand what does not show (a web page's paragraphs below the fold);
these walks read every element, a level at a time, up to a limit. An element that declares
more than HUGE_CHILD_COUNT children (a sheet's 2**31 cells) is never entered: a sheet is
asked by cell address (`grid.cell_named`) or searched through its Table interface
(`table_search`).
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from winactions.backends.base import TextMatch
from winactions.backends.linux import table_search
from winactions.backends.linux.atspi import grid, tree
from winactions.backends.linux.atspi.refs import (
    ACCESSIBLE,
    CELL_MARK,
    HUGE_CHILD_COUNT,
    PROPERTIES,
    SHEET_CELLS,
    Ref,
    split_handle,
)

if TYPE_CHECKING:
    from winactions.backends.linux.atspi.bus import Bus


async def named_below(bus: Bus, handles: list[str], name: str, limit: int) -> list[str]:
    """Handles of the elements below `handles` named `name` (white space runs as one), breadth
    first, up to `limit` elements read; a name that is a cell's address ("Z200") is asked of
    a sheet by its place. Each handle once, in the order found."""
    level = [split_handle(h) for h in handles if CELL_MARK not in h]
    counts = await asyncio.gather(
        *(bus.maybe(r[0], r[1], PROPERTIES, "Get", "ss", [ACCESSIBLE, "ChildCount"]) for r in level)
    )
    found = await _cells_named(bus, level, counts, name)
    # a spreadsheet declares 2**31 cells: asking for them never ends (see `walk`)
    level = [r for r, c in zip(level, counts) if c and 0 < int(c[0].value) <= HUGE_CHILD_COUNT]
    read = 0
    while level and read < limit:
        kids = [kid for got in await asyncio.gather(*(tree.children(bus, r) for r in level)) for kid in got]
        kids = kids[: max(0, limit - read)]
        read += len(kids)
        props = await asyncio.gather(
            *(bus.maybe(k[0], k[1], PROPERTIES, "Get", "ss", [ACCESSIBLE, "Name"]) for k in kids)
        )
        counts = await asyncio.gather(
            *(bus.maybe(k[0], k[1], PROPERTIES, "Get", "ss", [ACCESSIBLE, "ChildCount"]) for k in kids)
        )
        found += [k[0] + k[1] for k, p in zip(kids, props) if p and " ".join(str(p[0].value).split()) == name]
        found += await _cells_named(bus, kids, counts, name)
        level = [k for k, c in zip(kids, counts) if c and 0 < int(c[0].value) <= HUGE_CHILD_COUNT]
    return list(dict.fromkeys(found))


async def text_below(bus: Bus, handles: list[str], text: str, limit: int) -> tuple[list[TextMatch], bool]:
    """Elements below `handles` whose text holds `text`, shown or not (`table_search`): a
    sheet's used area through its Table interface, anything else walked up to `limit`
    elements. True with them when a budget cut the search short. Each handle once."""
    refs = [split_handle(h) for h in handles if CELL_MARK not in h]
    counts = await asyncio.gather(
        *(bus.maybe(r[0], r[1], PROPERTIES, "Get", "ss", [ACCESSIBLE, "ChildCount"]) for r in refs)
    )
    sheets = [r for r, c in zip(refs, counts) if c and int(c[0].value) >= SHEET_CELLS]
    others = [r for r in refs if r not in sheets]
    found: list[TextMatch] = []
    cut = False
    client = grid.HelperCalls(bus)
    if others:
        found, cut, below = await table_search.walk_matches(client, others, text, limit, HUGE_CHILD_COUNT, SHEET_CELLS)
        sheets += below
    for sheet in dict.fromkeys(sheets):
        matches, short = await table_search.sheet_matches(client, sheet, text)
        found, cut = found + matches, cut or short
    return list({m.handle: m for m in found}.values()), cut


async def _cells_named(bus: Bus, refs: list[Ref], counts: list[Any], address: str) -> list[str]:
    """The cells named `address` of those of `refs` that declare over HUGE_CHILD_COUNT children."""
    huge = [r for r, c in zip(refs, counts) if c and int(c[0].value) > HUGE_CHILD_COUNT]
    return [cell for cell in await asyncio.gather(*(grid.cell_named(bus, r, address) for r in huge)) if cell]
