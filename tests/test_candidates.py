"""Exactly one element by a name, else the candidates listed: one helper, one form of the error,
whichever way the element was named (`click NAME`, `click-element --name`, a task step)."""

from types import SimpleNamespace

import pytest

from winactions.agent.plan import StepPlan
from winactions.agent.resolve import resolve
from winactions.candidates import LISTED, named, only_one
from winactions.commands.find import Selector, select_one
from winactions.errors import InvalidInput
from winactions.model import Target, UIState, WindowInfo
from winactions.session.references import is_control, resolve_to_read

WINDOW = WindowInfo(id="0x1", title="Save As", pid=7, active=True)
# GTK's Save As: a field, its label and the file list's column header share the name "Name"
SAVE_AS = [
    Target(id=4, type="Edit", name="Name", operations=["set_text"]),
    Target(id=9, type="Text", name="Name"),
    Target(id=12, type="HeaderItem", name="Name"),
    Target(id=15, type="Button", name="Save"),
]
LISTED_THREE = '[4] [Edit] "Name", [9] [Text] "Name", [12] [HeaderItem] "Name"'


def test_a_name_is_matched_exactly_and_ignoring_case_only_when_nothing_matches_exactly():
    both = [Target(id=1, type="Button", name="Save"), Target(id=2, type="Button", name="save")]
    assert [t.id for t in named(both, "save")] == [2]
    assert [t.id for t in named(both, "SAVE")] == [1, 2]
    assert named(both, "Open") == []


def test_one_is_returned_none_is_none_and_several_are_listed_with_the_way_to_pick_one():
    assert only_one(SAVE_AS[3:], "named 'Save'") is SAVE_AS[3]
    assert only_one([], "named 'Open'") is None
    with pytest.raises(InvalidInput) as raised:
        only_one(SAVE_AS[:3], "named 'Name'", narrow="add --type")
    assert raised.value.message == f"3 elements are named 'Name': {LISTED_THREE}"
    assert raised.value.hint == "add --type, or act on one by its id"
    assert raised.value.to_dict()["code"] == "invalid_input" and raised.value.exit_code == 2


def test_the_first_preference_that_picks_out_one_decides():
    assert only_one(SAVE_AS[:2], "named 'Name'", prefer=(is_control,)) is SAVE_AS[0]
    with pytest.raises(InvalidInput, match=r"^3 elements"):  # two controls: the preference picks out none
        only_one(SAVE_AS[:3], "named 'Name'", prefer=(is_control,))


def test_many_candidates_are_cut_and_counted_and_long_names_shortened():
    rows = [Target(id=i, type="ListItem", name=f"row {'x' * 100}") for i in range(1, LISTED + 4)]
    with pytest.raises(InvalidInput) as raised:
        only_one(rows, "named 'row'")
    message = raised.value.message
    assert message.count("[ListItem]") == LISTED and message.endswith(" and 3 more")
    assert f'[1] [ListItem] "row {"x" * 55}…"' in message


def _state(targets: list[Target]) -> UIState:
    return UIState(window=WINDOW, targets=targets, timestamp="now")


def test_every_way_of_naming_an_element_lists_the_candidates_in_the_one_form():
    state = _state(SAVE_AS)
    session = SimpleNamespace(refresh_state=lambda window: state)
    ctx = SimpleNamespace(session=session, window=lambda: WINDOW)

    with pytest.raises(InvalidInput) as by_selector:  # click-element --name Name
        select_one(ctx, Selector(name="Name"))  # type: ignore[arg-type]
    assert by_selector.value.message == f"3 elements are named 'Name': {LISTED_THREE}"
    assert by_selector.value.hint == "add --type or --automation-id, or act on one by its id"

    step = StepPlan(step=1, action="click", target_ref="Name")
    with pytest.raises(InvalidInput) as by_step:  # a task step's target_ref
        resolve(None, step, state, describe=None)  # type: ignore[arg-type]
    assert by_step.value.message == f"3 elements are named 'Name': {LISTED_THREE}"
    assert by_step.value.hint == "give target_type, or act on one by its id (id:N)"

    two = _state([SAVE_AS[0], Target(id=5, type="Edit", name="Name")])
    session.refresh_state = lambda window: two
    with pytest.raises(InvalidInput) as by_name:  # get text Name: two fields, neither preferred
        resolve_to_read(session, "Name", WINDOW)  # type: ignore[arg-type]
    assert by_name.value.message == '2 elements are named \'Name\': [4] [Edit] "Name", [5] [Edit] "Name"'
    assert by_name.value.hint == "act on one by its id"


def test_a_selector_says_what_the_candidates_share():
    state = _state([Target(id=1, type="Button", name="Save all"), Target(id=2, type="Button", name="Save as")])
    ctx = SimpleNamespace(session=SimpleNamespace(refresh_state=lambda window: state), window=lambda: WINDOW)
    with pytest.raises(InvalidInput, match=r"^2 elements are of type button named 'save' in part: "):
        select_one(ctx, Selector(name="save", type="button"))  # type: ignore[arg-type]
