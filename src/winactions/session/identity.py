"""Identity checks: an id acts on the element the agent was shown, or on nothing.

An id is looked up in the latest state (`lookup`), its app checked to be the same run
(`check_run`), its element read again and checked to be the same element (`check_fresh`,
`check_identity`, `check_lent_name`). Each refusal is a StaleElement (or NotFound for an
id never given) whose hint says to read the state again; nothing is done on a refusal.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from winactions.backends.base import Backend
from winactions.errors import NotFound, StaleElement, WinctlError
from winactions.model import Node, Target, UIState
from winactions.perception.accessibility import (
    NAMED_BY_LABEL,
    NAMED_BY_TEXT,
    NAMED_BY_WRAPPER,
    display_name,
    named_by_label,
)
from winactions.session import offview
from winactions.session.ids import IdRegistry

NAME_FOLLOWS_TEXT = 1.0  # s an element named by its text may take to be named by the text written into it
LENT_NAMES = (NAMED_BY_WRAPPER, NAMED_BY_TEXT, NAMED_BY_LABEL)  # derived_from of names read off other elements
CHANGED = "the UI changed — run `winctl state`"


def lookup(target_id: int, state: UIState | None, found: list[Target], registry: IdRegistry) -> Target:
    """The target with this id: in the latest state, else among those `find` found out of view.
    NotFound when there is no state yet or the id was never given (the hint names the state's
    ids); StaleElement when it was given but is not in the latest state."""
    target = state.target(target_id) if state else None
    target = target or next((t for t in found if t.id == target_id), None)
    if target is not None:
        return target
    if state is None:
        raise NotFound(f"no element {target_id}: there is no state yet", hint="run `winctl state` first")
    if registry.issued(target_id):
        raise StaleElement(
            f"element {target_id} is not in the latest state",
            hint="it scrolled away, closed or changed — run `winctl state`",
        )
    raise NotFound(f"no element {target_id}", hint=f"ids in the latest state: {_id_range(state)} — run `winctl state`")


def check_run(target: Target, state: UIState | None, run: str | None, backend: Backend) -> None:
    """StaleElement when the app the latest state (`state`, of `run`) was read from has ended:
    the app or the desktop restarted, and another app may now answer to its window id, bus name
    and handles. Passes when no state or run is known."""
    if state is None or run is None or backend.run_of(state.window) == run:
        return
    raise StaleElement(
        f'element {target.id} ([{target.type}] "{target.name}") was read from a run of '
        f'"{state.window.title}" that has ended (the app or the desktop restarted); '
        "nothing was done",
        hint="run `winctl state`: the elements there now get new ids",
    )


def check_fresh(target: Target, node: Node | None, *, acting: bool, written: str | None = None) -> Node:
    """The element's fresh read (`node`), checked to be the target; StaleElement when it is gone,
    has another role, or no longer shows.

    Reads accept an element whose text changed: reading it is how an agent learns the new text,
    and an element `find` found out of view is read where it is. Actions (`acting`) also refuse
    another name or automation id (`check_identity`, with `written`), and an element not
    "showing" (a hidden tab's content, a closed menu's item): acting on it would act on
    something the agent cannot see."""
    if node is None:
        raise StaleElement(f'element {target.id} ([{target.type}] "{target.name}") is gone', hint=CHANGED)
    if node.role != target.type:
        raise StaleElement(
            f"element {target.id} was a {target.type} and is now a {node.role}; nothing was done", hint=CHANGED
        )
    if acting:
        check_identity(target, node, written)
    shows = "showing" in node.states if acting else bool({"visible", "showing"} & node.states)
    if not shows and not (offview.is_out_of_view(target) and not acting):
        raise StaleElement(
            f'element {target.id} is no longer shown ([{target.type}] "{target.name}"); nothing was done', hint=CHANGED
        )
    return node


def check_identity(target: Target, node: Node, written: str | None = None) -> None:
    """StaleElement when the element read now (`node`) is not what the agent was shown: another
    name, or another automation id. Its name may also be `written` (the name the agent's own
    input gave it), the value it mirrors (a GTK combo is named by its choice), or empty or its
    own where the shown name was lent (by a wrapper, its text, the label beside it)."""
    name = display_name(node)
    if written is not None and name == written:
        return
    mirrors_value = bool(target.value) and target.name == target.value
    lent = (
        (name == "" and target.derived_from in (NAMED_BY_WRAPPER, NAMED_BY_TEXT))
        or target.derived_from == named_by_label(name)
        or (target.derived_from == named_by_label(None) and name == (node.value or ""))
    )  # its own name as when listed
    if name != target.name and not mirrors_value and not lent:
        raise StaleElement(
            f'element {target.id} was [{target.type}] "{target.name}" and is now "{name}"; nothing was done',
            hint=CHANGED,
        )
    if target.automation_id and node.automation_id != target.automation_id:
        raise StaleElement(
            f'element {target.id} ([{target.type}] "{target.name}") now has automation id '
            f"{node.automation_id!r}, not {target.automation_id!r}; nothing was done",
            hint=CHANGED,
        )


def check_lent_name(target: Target, read: Callable[[], UIState], written: str | None = None) -> None:
    """For a name the element does not carry itself (lent by a wrapper, its text, the label
    beside it): StaleElement when the window (`read`, one read of its tree, only for such names)
    lends it another name now than the one shown or `written` — the label "Amount to keep"
    beside a field may now say "Amount to delete", the field itself unchanged."""
    if target.derived_from is None or not target.derived_from.startswith(LENT_NAMES):
        return
    now = next((t for t in read().targets if t.handle == target.handle), None)
    if now is not None and now.name not in (target.name, written):
        raise StaleElement(
            f'element {target.id} was [{target.type}] "{target.name}" and is now "{now.name}"; nothing was done',
            hint=CHANGED,
        )


def text_naming(backend: Backend, target: Target, node: Node | None) -> str | None:
    """The element's text when its name is its text (a LibreOffice or web paragraph, a table's
    cell), else None. A password field's text is never read."""
    if node is None or target.handle is None or "protected" in node.states or "protected" in target.states:
        return None
    try:
        text = backend.read_text(target.handle)
    except WinctlError:
        return None
    return text if text and display_name(node) == text else None


def named_after(backend: Backend, handle: str, text: str) -> bool:
    """Whether the element comes to be named `text` within NAME_FOLLOWS_TEXT seconds (typed keys
    and the name arrive a moment later: Chromium updates its tree after them). False when it
    is gone, or the app does not answer."""
    deadline = time.monotonic() + NAME_FOLLOWS_TEXT
    while True:
        try:
            node = backend.refresh(handle)
        except WinctlError:
            return False
        if node is not None and display_name(node) == text:
            return True
        if node is None or time.monotonic() > deadline:
            return False
        time.sleep(0.05)


def _id_range(state: UIState) -> str:
    """The state's lowest and highest ids ("3–41"), or "none"."""
    ids = [t.id for t in state.targets]
    return f"{min(ids)}–{max(ids)}" if ids else "none"
