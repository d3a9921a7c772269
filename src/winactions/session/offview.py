"""Elements out of view: found by their text or name, and scrolled into view to be acted on.

`find TEXT` looks below the window's lists, tables and sheets (`Backend.text_below`) for what
the state did not list (`found_out_of_view`). Each element found gets a session id like any
other, and is kept in the session's list of elements found (`SessionData.found`), marked
OUT_OF_VIEW, so `get text ID` reads it where it is and `click ID` / `input ID` first scroll it
into view, then act on it once it shows (`brought_into_view`). A plain name the state does not
list is looked for the same way (`named_out_of_view`) and scrolled to (`scrolled_into_view`):
by the app when it can, else with the mouse wheel over its list.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

from winactions import progress
from winactions.backends.base import Backend, TextMatch
from winactions.errors import InvalidInput, NotFound, StaleElement, shown
from winactions.model import CELL_ADDRESS, Node, Source, Target, UIState, WindowInfo
from winactions.perception.accessibility import display_name
from winactions.session.wheel import Landmark, landmarks, wheel_into_view

if TYPE_CHECKING:
    from winactions.session.desktop import DesktopSession

SCROLLERS = frozenset({"Document", "List", "Tree", "Table", "ScrollPane"})  # may hold elements out of view
OUT_OF_VIEW_READS = 5000  # elements read at most while looking for a name out of view
OUT_OF_VIEW_SEARCH = 20000  # elements read at most while looking for a text out of view (`find`)
SCROLL_SETTLE = 1.5  # s for an element scrolled into view to show in the tree
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


def scrolling_roots(state: UIState) -> list[str]:
    """Handles of the state's scrolling containers (SCROLLERS) that no other one of them holds."""
    by_id = {t.id: t for t in state.targets}
    ids = {t.id for t in state.targets if t.type in SCROLLERS and t.handle is not None}

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


def found_targets(backend: Backend, matches: list[TextMatch], state: UIState) -> list[Target]:
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
            shows = shows_in(node, state)
            out.append(found.model_copy(update={"rect": node.rect, "derived_from": None}) if shows else found)
        if len(out) >= MAX_FOUND:
            break
    return out


def _target(node: Node, match: TextMatch) -> Target:
    """A target (id 0) for an element found by its text, its value the text found when that
    is not its name, its `derived_from` where it is (`where`)."""
    name = display_name(node)
    value = match.text if match.text != name else node.value
    return Target(
        id=0,
        type=node.role,
        name=name,
        value=value,
        states=sorted(node.states),
        automation_id=node.automation_id,
        operations=sorted(node.operations, key=lambda o: o.value),
        derived_from=where(match, name if match.place is not None else None),
        source=Source.ACCESSIBILITY,
        handle=match.handle,
    )


def same_text(a: str, b: str) -> bool:
    """Equal ignoring case and runs of white space."""
    return " ".join(a.split()).casefold() == " ".join(b.split()).casefold()


def shows_in(node: Node, state: UIState) -> bool:
    """Does the element show: said so, and its centre inside the window and inside one of
    its lists, tables or pages as the state placed them (GTK says "showing" of rows far out of
    view, and places them outside their list)?"""
    if "showing" not in node.states or node.rect is None:
        return False
    x, y = node.rect.center
    window = state.window.rect
    if window is not None and not window.contains(x, y):
        return False
    return any(t.rect is not None and t.rect.contains(x, y) for t in state.targets if t.type in SCROLLERS)


def is_out_of_view(target: Target) -> bool:
    """A target `find` found out of view and kept with no place on the screen."""
    return target.rect is None and (target.derived_from or "").startswith(OUT_OF_VIEW)


def check_address(name: str, state: UIState | None) -> None:
    """When the window shows a sheet (cells named by their address) and `name` is meant as an
    address the sheet has no cell at ("A0", "ZZZZ1"), say so: InvalidInput for a row 0,
    NotFound for a place beyond the sheet's columns or rows. Other names pass."""
    found = ADDRESS_LIKE.match(name.strip())
    if (
        found is None
        or state is None
        or not any(CELL_ADDRESS.match(t.name) for t in state.targets if t.type in CELL_TYPES)
    ):
        return
    letters, row = found.group(1).upper(), int(found.group(2))
    if row == 0:
        raise InvalidInput(
            f"{shown(name)} is no cell address: rows are numbered from 1",
            hint=f"the sheet's first cell is A1; e.g. `winctl get text {letters}1`",
        )
    raise NotFound(
        f"the sheet has no cell {shown(letters + str(row))}: it lies beyond its last column or row",
        hint="a sheet's columns run A, B, … Z, AA, … and its rows from 1; `winctl state` shows the cells in view",
    )


CELL_TYPES = frozenset({"DataItem", "Cell", "TableCell"})


# -- driving the session: search, then scroll into view ----------------------------------------
def found_out_of_view(session: DesktopSession, text: str, state: UIState, exact: bool = False) -> Found:
    """Elements whose text holds `text` (ignoring case; `exact`: those whose text is `text`
    when there are some) below the state's lists, tables and sheets, shown or not: those the
    state lists as they are there, the others given ids and kept by the session until its
    window changes (at most KEPT_FOUND), so `get` reads them where they are and an action
    scrolls them into view first (`brought_into_view`)."""
    roots = scrolling_roots(state)
    if not roots:
        return Found([], 0, cut=False, searched=True)
    progress.step(f"looking for {text!r} out of view")
    searched = session.backend.text_below(roots, text, OUT_OF_VIEW_SEARCH)
    if searched is None:
        return Found([], 0, cut=False, searched=False)
    matches, cut = searched
    if exact:
        matches = [m for m in matches if same_text(m.text, text)] or matches
    found = found_targets(session.backend, matches, state)
    data = session.data
    unlisted = session.registry.assign([t for t in found if t.id == 0], run=data.run)
    if unlisted:
        new = {t.id for t in unlisted}
        data.found = [*(t for t in data.found if t.id not in new), *unlisted][-KEPT_FOUND:]
        session.save()
    ids = iter(unlisted)
    return Found([next(ids) if t.id == 0 else t for t in found], len(matches), cut, searched=True)


def brought_into_view(session: DesktopSession, target_id: int, window: WindowInfo, wheel: bool) -> int:
    """Scroll an element `find` found out of view into view, and give the id to act on once it
    shows: its own (its handle is kept), listed in the state read then, or placed where it now
    shows (a row of a table too long for a state to list). StaleElement when it is gone or does
    not show within SCROLL_SETTLE seconds; NotFound when it cannot be scrolled (`scroll_to`)."""
    target = session.target(target_id)
    handle = str(target.handle)
    node = session.backend.refresh(handle)
    if node is None:
        raise StaleElement(
            f'element {target_id} ([{target.type}] "{target.name}") is gone',
            hint="the UI changed — run `winctl find` again",
        )
    scroll_to(session, handle, node, target.name, session.refresh_state(window), wheel)
    deadline = time.monotonic() + SCROLL_SETTLE
    while True:
        state = session.refresh_state(window)
        listed = next((t for t in state.targets if t.handle == handle), None)
        if listed is not None:
            return listed.id
        node = session.backend.refresh(handle)
        if node is not None and shows_in(node, state):
            placed = target.model_copy(update={"rect": node.rect, "derived_from": None})
            session.data.found = [placed if t.id == target_id else t for t in session.data.found]
            session.save()
            return target_id
        if time.monotonic() > deadline:
            raise StaleElement(
                f'element {target_id} ([{target.type}] "{target.name}") was scrolled to but does '
                "not show in the window; nothing was done",
                hint="run `winctl state` to see what shows",
            )
        time.sleep(0.05)


def named_out_of_view(session: DesktopSession, name: str, state: UIState) -> set[str]:
    """Handles of the elements named `name` that the window holds out of view: read by the
    latest state (`state`, made from `session.nodes`) but not listed, else found below its
    scrolling containers (a sheet's cell by its address: "A218"; at most OUT_OF_VIEW_READS
    elements read)."""
    listed = {t.handle for t in state.targets}
    read = {
        n.handle
        for n in session.nodes
        if n.rect is not None
        and n.handle not in listed
        and {"showing", "visible"} & n.states
        and display_name(n) == name
    }
    if not read:  # what scrolling containers hold out of view is not read by a state
        scrollers = [n.handle for n in session.nodes if n.role in SCROLLERS and n.handle in listed]
        if scrollers:
            progress.step(f"looking for {name!r} out of view")
            read = set(session.backend.named_below(scrollers, name, OUT_OF_VIEW_READS)) - listed
    return read


def scrolled_into_view(session: DesktopSession, name: str, state: UIState, wheel: bool = True) -> Node | None:
    """The one element of the tree named `name` that is out of view (scrolled away in its list
    or page), as it was read before it was scrolled into view (`scroll_to`); None when there is
    none, several, or it went away. The app is asked to scroll it; where it cannot, the mouse
    wheel turns its list (unless not `wheel`: `--via semantic` never moves the mouse)."""
    read = named_out_of_view(session, name, state)
    if len(read) != 1:
        return None
    handle = read.pop()
    node = session.backend.refresh(handle)
    if node is None:
        return None
    scroll_to(session, handle, node, name, state, wheel)
    return node


def scroll_to(session: DesktopSession, handle: str, node: Node, name: str, state: UIState, wheel: bool) -> None:
    """Ask the app to scroll the element (`handle`, read as `node`) into view, else turn its
    list with the wheel (unless not `wheel`), and add what was done to
    `session.done_on_the_way`; NotFound, naming the list to scroll, when neither can."""
    progress.step(f"scrolling {name!r} into view")
    backend = session.backend
    backend.ensure_active(state.window)  # an app may be moved to it by keys
    if backend.scroll_into_view(handle):
        session.done_on_the_way.append(f"scrolled {name!r} into view")
    elif wheel and (notches := _wheeled_into_view(session, node, name, state)):
        session.done_on_the_way.append(f"scrolled {name!r} into view with the mouse wheel ({notches} notches)")
    else:
        scroller = next((str(t.id) for t in state.targets if t.type in SCROLLERS), "ID")
        raise NotFound(
            f"{shown(name)} is in the window but scrolled out of view, and the app does not scroll it "
            "into view when asked" + ("" if wheel else " (--via semantic: the wheel is not used)"),
            hint=f"scroll to it (`winctl scroll {scroller} down`), then `winctl state`",
        )


def _wheeled_into_view(session: DesktopSession, node: Node, name: str, state: UIState) -> int:
    """Wheel notches turned over the element's list until it showed there (`wheel_into_view`);
    0 when it did not, or there is no list to turn."""
    handle = node.handle
    lists = [t for t in state.targets if t.type in SCROLLERS and t.rect is not None and t.handle is not None]
    if node.rect is not None:  # the lists across whose width it lies
        lists = [t for t in lists if t.rect is not None and t.rect.left <= node.rect.center[0] < t.rect.right]
    elif len(lists) > 1:  # it has no place yet (GTK 3's rows far out of view): the lists that hold it
        lists = [t for t in lists if handle in session.backend.named_below([str(t.handle)], name, OUT_OF_VIEW_READS)]
    if not lists:
        return 0
    box = min(lists, key=lambda t: t.rect.area if t.rect is not None else 0)  # its own list, not the page
    view = box.rect
    assert view is not None

    def fresh() -> list[Landmark]:
        return landmarks(session.refresh_state(state.window).targets, view, node.role)

    return wheel_into_view(session.backend, handle, view, landmarks(state.targets, view, node.role), fresh)
