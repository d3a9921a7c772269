"""A read tree as kept between reads: its entries, and what events made stale in it.

The walk (`walk`) builds `Entry` trees; live mode (`live`) keeps one per window (`Cached`)
and hands the walk what the events since made stale (`Reuse`), so it reads only that again.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from winactions.backends.linux.atspi.element import Raw
from winactions.backends.linux.atspi.refs import CELL_MARK, Ref
from winactions.model import Node, Snapshot


@dataclass
class Entry:
    """One element of a read tree, kept so that the next read can take what did not change."""

    raw: Raw
    selects: bool  # its parent has Selection: a click on it selects
    label: str | None = None  # it replaced its defunct parent (LibreOffice), whose name it may take
    kids: list[tuple[int, Entry]] | None = None  # (position among siblings, entry); None: not expanded
    managed: bool = False  # its children were read by what is visible
    note: str = ""  # what the read of its children left out
    node: Node | None = None  # made from `raw` once


@dataclass
class Read:
    """One walk's result: its tree (None when nothing was read) and the snapshot made of it."""

    top: Entry | None
    snapshot: Snapshot
    timed_out: bool = False  # the time budget cut it: another read may get more (not kept)


@dataclass
class Cached:
    """A live read kept: its tree, the app's event count when it began, its probes' answers."""

    snapshot: Snapshot
    top: Entry
    mark: int
    probes: list[Any]

    def index(self) -> tuple[dict[Ref, Entry], dict[Ref, Ref]]:
        """Every kept element by its reference, and its parent's reference."""
        index = {self.top.raw.ref: self.top}
        parent_of: dict[Ref, Ref] = {}
        stack = [self.top]
        while stack:
            entry = stack.pop()
            for _, kid in entry.kids or ():
                index[kid.raw.ref] = kid
                parent_of[kid.raw.ref] = entry.raw.ref
                stack.append(kid)
        return index, parent_of


@dataclass
class Reuse:
    """The previous read and what events made stale since: the walk reads only that again."""

    old: dict[Ref, Entry]
    touched: set[Ref]  # read these elements again
    regrown: set[Ref]  # ...and list their children again
    holds: set[Ref]  # ancestors of those
    places: bool = False  # read every kept element's place again (a toolkit that moves things untold)

    def regrow(self, old: Entry) -> bool:
        """Must this element's children be listed again (not just re-visited)?"""
        ref = old.raw.ref
        if ref in self.regrown:
            return True
        # cells known by their place (a sheet's) cannot be re-visited: read the visible grid again
        return old.managed and ref in self.holds and any(CELL_MARK in kid.raw.ref[1] for _, kid in old.kids or ())


def count(entry: Entry) -> int:
    """Elements in a kept subtree, itself included."""
    total, stack = 0, [entry]
    while stack:
        top = stack.pop()
        total += 1
        stack.extend(kid for _, kid in top.kids or ())
    return total
