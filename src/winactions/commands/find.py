"""Acting on an element by what it is (name, type, automation id) instead of by id.

For agents that know what they want ("the Save button") without reading a state first:
the state is refreshed, the selector must match exactly one element, and the action runs
through the same code as `click ID` / `input ID`. Several matches are an error that lists
them (`winactions.candidates`) — never a guess. `find` lists what matches, and looks for a
name out of view in the rows and cells of lists, tables and sheets (`session.offview`).
"""

from __future__ import annotations

from pydantic import Field

from winactions import execution
from winactions.candidates import only_one
from winactions.commands.act import InputParams, set_text
from winactions.commands.base import Context, Kind, OptionalName, Params, command
from winactions.commands.results import ActionResult, StateResult
from winactions.errors import InvalidInput, NotFound, shown
from winactions.execution import Via
from winactions.model import Target, UIState
from winactions.session import offview


class Selector(Params):
    name: OptionalName = Field(None, description="the element's name (exact; a substring with --partial)")
    type: str | None = Field(None, description="control type, e.g. Button, Edit, CheckBox (case-insensitive)")
    automation_id: str | None = Field(None, description="the platform's automation id")
    partial: bool = Field(False, description="match the name as a case-insensitive substring")


def _matches(t: Target, s: Selector, by_value: bool = False) -> bool:
    """Does the target fit the selector? `by_value`: the name is looked for in its value (the
    text a sheet's cell shows, named by its address "A218")."""
    if s.type is not None and t.type.lower() != s.type.lower():
        return False
    if s.automation_id is not None and t.automation_id != s.automation_id:
        return False
    if s.name is not None:
        have = (t.value or "") if by_value else t.name
        if s.partial:
            return s.name.lower() in have.lower()
        return have == s.name
    return True


def select_one(ctx: Context, selector: Selector) -> Target:
    """The one element of a fresh state that fits the selector; a name fitting none exactly is
    looked for as a substring. InvalidInput when the selector is empty or several fit (they are
    listed: `winactions.candidates`); NotFound when none does."""
    if selector.name is None and selector.type is None and selector.automation_id is None:
        raise InvalidInput("give --name, --type or --automation-id", hint="e.g. --name Save --type Button")
    state = ctx.session.refresh_state(ctx.window())
    found = [t for t in state.targets if _matches(t, selector)]
    if not found and selector.name is not None and not selector.partial:
        selector = selector.model_copy(update={"partial": True})
        found = [t for t in state.targets if _matches(t, selector)]
    one = only_one(found, _fitting(selector), narrow="add --type or --automation-id")
    if one is None:
        raise NotFound("no element matches the selector", hint="run `winctl state` to see what there is")
    return one


def _fitting(s: Selector) -> str:
    """What the elements fitting the selector are, to complete "N elements are …"."""
    parts = [
        f"of type {s.type}" if s.type is not None else "",
        f"named {shown(s.name)}" + (" in part" if s.partial else "") if s.name is not None else "",
        f"with automation id {shown(s.automation_id)}" if s.automation_id is not None else "",
    ]
    return " ".join(p for p in parts if p)


class FindParams(Selector):
    text: OptionalName = Field(None, description="the text to find (as --name)")


@command("find", FindParams, positional=("text",), profiles=("core",), perceives=True)
def find(ctx: Context, p: FindParams) -> StateResult:
    """List the elements matching a selector (name, else value; type; automation id). A name
    not in view is looked for in the rows and cells of lists, tables and sheets; their ids are
    read where they are and scrolled into view when acted on."""
    if p.text is not None:
        if p.name is not None and p.name != p.text:
            raise InvalidInput("give the text once: `winctl find TEXT` or `winctl find --name TEXT`")
        p = p.model_copy(update={"name": p.text, "text": None})
    if p.name is None and p.type is None and p.automation_id is None:
        raise InvalidInput("give a text, --name, --type or --automation-id", hint="e.g. winctl find INV-0277")
    state = ctx.session.refresh_state(ctx.window())
    kept = [t for t in state.targets if _matches(t, p)]
    if not kept and p.name is not None:  # a cell is named by its address: its text is its value
        kept = [t for t in state.targets if _matches(t, p, by_value=True)]
    searched = _described(p, len(state.targets))
    if not kept and p.name is not None:
        kept, more, note = _out_of_view(ctx, p, state)
        searched += note
        away = [t for t in kept if offview.is_out_of_view(t)]
        if away:
            state = state.model_copy(
                update={
                    "warnings": [
                        *state.warnings,
                        f"out of view: {_ids(away)}{more} — `get` reads them where they are; `click` and "
                        "`input` scroll them into view first",
                    ]
                }
            )
    return StateResult(state=state.model_copy(update={"targets": kept}), searched=searched)


def _out_of_view(ctx: Context, p: Selector, state: UIState) -> tuple[list[Target], str, str]:
    """The elements out of view whose text is `p.name` (ignoring case), else holds it (also
    with --partial), kept by type and automation id; what was left unlisted, and what was
    searched, said."""
    assert p.name is not None
    found = ctx.session.found_out_of_view(p.name, state, exact=not p.partial)
    rest = p.model_copy(update={"name": None})
    kept = [t for t in found.targets if _matches(t, rest)]
    listed = len(found.targets)
    more = f" ({listed} of {found.total} found listed: give more of the text)" if found.total > listed else ""
    if not found.searched:
        return kept, more, "; what is out of view is not searched on this platform — scroll to it"
    return (
        kept,
        more,
        ", and out of view in the text of its lists', tables' and sheets' rows and cells"
        + (" (cut short: the window holds more than is read in one search)" if found.cut else ""),
    )


def _ids(targets: list[Target]) -> str:
    """Ids as a list, or a range when they follow each other."""
    ids = [t.id for t in targets]
    if len(ids) > 2 and ids == list(range(ids[0], ids[0] + len(ids))):
        return f"{ids[0]}–{ids[-1]}"
    return ", ".join(map(str, ids))


def _described(p: Selector, searched: int) -> str:
    """What `find` looked for and in how much, for its answer when none matched."""
    parts = [
        f'{"--name" if not p.partial else "--name (partial)"} "{p.name}"' if p.name is not None else "",
        f"--type {p.type}" if p.type is not None else "",
        f'--automation-id "{p.automation_id}"' if p.automation_id is not None else "",
    ]
    return f"{' '.join(x for x in parts if x)} among the {searched:,} elements of the window's state"


class ClickElementParams(Selector):
    via: Via = Field(Via.AUTO, description="auto, semantic or input (see `winctl click --help`)")


@command("click-element", ClickElementParams, kind=Kind.ACTION)
def click_element(ctx: Context, p: ClickElementParams) -> ActionResult:
    """Click the one element matching a selector: `winctl click-element --name Apply`."""
    target = select_one(ctx, p)
    _, node = ctx.session.resolve(target.id, acting=True)
    method, point, note = execution.click(ctx.session.backend, ctx.window(), target, node, via=p.via)
    return ActionResult(action="click", method=method, target=target, point=point, detail=note)


class TypeIntoElementParams(Selector):
    text: str = Field(description="the text to put in the element (replaces its text)")


@command("type-into-element", TypeIntoElementParams, kind=Kind.ACTION, positional=("text",))
def type_into_element(ctx: Context, p: TypeIntoElementParams) -> ActionResult:
    """Set the text of the one element matching a selector: `winctl type-into-element --name Search "hi"`."""
    target = select_one(ctx, p)
    return set_text(ctx, InputParams(id=target.id, text=p.text, append=False, enter=False))
