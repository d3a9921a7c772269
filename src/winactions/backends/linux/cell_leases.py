"""The sheet cells an app handed out lately, by place, so a read asks for each place once.

LibreOffice Calc (7.4) makes a new accessible object each time a cell is asked for (by
`Table.GetAccessibleAt` or a hit test) and never frees it: each registers itself as a
listener of its sheet, which keeps it until the sheet's accessible goes (~8 KB a cell).
at-spi2-atk keeps the D-Bus path of an object it handed out (its "lease") for 15 s; while
the lease holds, the same object read again by its path costs the app nothing, and says
what a new one would (its text, place and states are read from the sheet each time).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

# at-spi2-atk's lease is 15 s from when it handed the object out; a path older than this may
# be dropped before the read that uses it is over
LEASE_SECONDS = 10.0

Ref = tuple[str, str]  # (bus name, object path)
Place = tuple[int, int]  # (row, column)
Grid = tuple[int, int, int, int]  # first row, first column, last row, last column


@dataclass
class _Table:
    cells: dict[Place, tuple[Ref, float]] = field(default_factory=dict)  # place -> (its object, handed out at)
    grid: Grid | None = None  # the visible grid found by the last read


class CellLeases:
    """Per sheet: the cell objects handed out in the last LEASE_SECONDS, and the last visible grid."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._tables: dict[Ref, _Table] = {}
        self._clock = clock

    def get(self, table: Ref, place: Place) -> Ref | None:
        """The object handed out for this place within the lease, or None."""
        kept = self._tables.get(table)
        found = kept.cells.get(place) if kept is not None else None
        if found is None or self._clock() - found[1] > LEASE_SECONDS:
            return None
        return found[0]

    def keep(self, table: Ref, place: Place, cell: Ref) -> None:
        """Remember a cell object the app just handed out for this place; forget expired ones."""
        now = self._clock()
        for ref in [t for t, kept in self._tables.items() if t != table and self._expired(kept, now)]:
            del self._tables[ref]
        kept = self._tables.setdefault(table, _Table())
        if len(kept.cells) > 4 * len(self._live(kept, now)) + 64:
            kept.cells = self._live(kept, now)
        kept.cells[place] = (cell, now)

    def set_grid(self, table: Ref, grid: Grid) -> None:
        self._tables.setdefault(table, _Table()).grid = grid

    def corner(self, table: Ref, top_left: bool) -> tuple[Place, Ref] | None:
        """The top-left (or bottom-right) cell of the last visible grid and its object, if leased."""
        kept = self._tables.get(table)
        if kept is None or kept.grid is None:
            return None
        r0, c0, r1, c1 = kept.grid
        place = (r0, c0) if top_left else (r1, c1)
        ref = self.get(table, place)
        return (place, ref) if ref is not None else None

    def _live(self, kept: _Table, now: float) -> dict[Place, tuple[Ref, float]]:
        return {p: v for p, v in kept.cells.items() if now - v[1] <= LEASE_SECONDS}

    def _expired(self, kept: _Table, now: float) -> bool:
        return not self._live(kept, now)
