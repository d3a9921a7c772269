"""Elements found by their text out of view: given ids, and scrolled into view when acted on.

`find TEXT` looks below the window's lists, tables and sheets (`Backend.text_below`) for what
the state did not list. Each element found gets a session id like any other, and is kept in
the session's list of elements found (`SessionData.found`), marked OUT_OF_VIEW, so `get text ID`
reads it where it is and `click ID` / `input ID` first scroll it into view, then act on it once
it shows.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from winactions.backends.base import Backend, TextMatch
from winactions.errors import InvalidInput, NotFound, shown
from winactions.model import CELL_ADDRESS, Node, Source, Target, UIState
from winactions.perception.accessibility import display_name

ADDRESS_LIKE = re.compile(r"^\$?([A-Za-z]{1,4})\$?([0-9]+)$")  # what an agent means as a cell's address
OUT_OF_VIEW = "out of view"  # derived_from of an element found by its text and not shown
MAX_FOUND = 40  # elements found out of view listed at most
KEPT_FOUND = 200  # elements found out of view whose ids a session keeps


@dataclass(frozen=True)
class Found:
    """What a search out of view found: the targets listed (at most MAX_FOUND), how many
    matched, whether a budget cut it short, and whether the platform could search at all."""

    targets: list[Target]
    total: int
    cut: bool
    searched: bool


def scrolling_roots(state: UIState, scrollers: frozenset[str]) -> list[str]:
    """Handles of the state's scrolling containers that no other one of them holds."""
    by_id = {t.id: t for t in state.targets}
    ids = {t.id for t in state.targets if t.type in scrollers and t.handle is not None}

    def held(t: Target) -> bool:
        up = t.parent_id
        while up is not None:
            if up in ids:
                return True
            parent = by_id.get(up)
            up = parent.parent_id if parent is not None else None
        return False

    return [str(t.handle) for t in state.targets if t.id in ids and not held(t)]


def where(match: TextMatch, address: str | None) -> str:
    """What `find` says of where an out-of-view element is: a cell by its address and row."""
    if match.place is None:
        return OUT_OF_VIEW
    return f"{OUT_OF_VIEW}: cell {address or ''} (row {match.place[0] + 1})".replace("cell  ", "cell ")


def found_targets(backend: Backend, matches: list[TextMatch], state: UIState,
                  scrollers: frozenset[str]) -> list[Target]:
    """Targets of the matches (at most MAX_FOUND): the state's own for those it lists, else
    new ones (id 0) read afresh, placed where they show (a row of a table too long for a
    state to list) or marked OUT_OF_VIEW."""
    listed = {t.handle: t for t in state.targets if t.handle}
    out = []
    for match in matches:
        node = None if match.handle in listed else backend.refresh(match.handle)
        if match.handle in listed:
            out.append(listed[match.handle])
        elif node is not None:
            found = _target(node, match)
            shows = shows_in(node, state, scrollers)
            out.append(found.model_copy(update={"rect": node.rect, "derived_from": None}) if shows else found)
        if len(out) >= MAX_FOUND:
            break
    return out


def _target(node: Node, match: TextMatch) -> Target:
    name = display_name(node)
    value = match.text if match.text != name else node.value
    return Target(id=0, type=node.role, name=name, value=value, states=sorted(node.states),
                  automation_id=node.automation_id, operations=sorted(node.operations, key=lambda o: o.value),
                  derived_from=where(match, name if match.place is not None else None),
                  source=Source.ACCESSIBILITY, handle=match.handle)


def same_text(a: str, b: str) -> bool:
    """Equal ignoring case and runs of white space."""
    return " ".join(a.split()).casefold() == " ".join(b.split()).casefold()


def shows_in(node: Node, state: UIState, scrollers: frozenset[str]) -> bool:
    """Does the element show: said so, and its centre inside the window and inside one of
    its lists, tables or pages as the state placed them (GTK says "showing" of rows far out of
    view, and places them outside their list)?"""
    if "showing" not in node.states or node.rect is None:
        return False
    x, y = node.rect.center
    window = state.window.rect
    if window is not None and not window.contains(x, y):
        return False
    return any(t.rect is not None and t.rect.contains(x, y) for t in state.targets if t.type in scrollers)


def is_out_of_view(target: Target) -> bool:
    return target.rect is None and (target.derived_from or "").startswith(OUT_OF_VIEW)


def check_address(name: str, state: UIState | None) -> None:
    """When the window shows a sheet (cells named by their address) and `name` is meant as an
    address the sheet has no cell at ("A0", "ZZZZ1"), say so: InvalidInput for a row 0,
    NotFound for a place beyond the sheet's columns or rows. Other names pass."""
    found = ADDRESS_LIKE.match(name.strip())
    if found is None or state is None or not any(CELL_ADDRESS.match(t.name) for t in state.targets
                                                  if t.type in CELL_TYPES):
        return
    letters, row = found.group(1).upper(), int(found.group(2))
    if row == 0:
        raise InvalidInput(f"{shown(name)} is no cell address: rows are numbered from 1",
                           hint=f"the sheet's first cell is A1; e.g. `winctl get text {letters}1`")
    raise NotFound(f"the sheet has no cell {shown(letters + str(row))}: it lies beyond its last column or row",
                   hint="a sheet's columns run A, B, … Z, AA, … and its rows from 1; `winctl state` shows the "
                        "cells in view")


CELL_TYPES = frozenset({"DataItem", "Cell", "TableCell"})
