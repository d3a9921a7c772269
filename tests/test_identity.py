"""Acting on an id checks that the element is still what the agent was shown, including names
the tree does not give (lent by a wrapper, held as text, read off the label beside it)."""

import pytest

from winactions.errors import NotFound, StaleElement
from winactions.model import Node, Target, UIState, WindowInfo
from winactions.perception.accessibility import NAMED_BY_TEXT, named_by_label
from winactions.session.identity import check_fresh, check_identity, lookup, text_naming
from winactions.session.ids import IdRegistry
from winactions.session.offview import OUT_OF_VIEW


def shown(name: str, role: str = "Spinner") -> Node:
    return Node(handle="h", parent=None, role=role, native_role=role.lower(), name=name)


def test_a_field_named_by_its_label_is_itself_while_its_own_name_stays():
    width = Target(id=7, type="Spinner", name="Start with this size:", derived_from=named_by_label("Window Settings"))
    check_identity(width, shown("Window Settings"))
    with pytest.raises(StaleElement, match='is now "Height"'):
        check_identity(width, shown("Height"))


def test_a_button_named_by_its_text_is_itself_while_it_has_no_name():
    header = Target(id=3, type="Button", name="Size", derived_from=NAMED_BY_TEXT)
    check_identity(header, shown("", "Button"))
    with pytest.raises(StaleElement):
        check_identity(header, shown("Delete", "Button"))


def test_a_plain_name_that_changed_is_refused():
    with pytest.raises(StaleElement, match='was \\[Button\\] "Keep" and is now "Delete"'):
        check_identity(Target(id=1, type="Button", name="Keep"), shown("Delete", "Button"))


def test_the_name_the_agents_own_input_gave_is_accepted_and_no_other():
    paragraph = Target(id=15, type="Paragraph", name="first line")
    check_identity(paragraph, shown("written", "Paragraph"), written="written")
    with pytest.raises(StaleElement, match='is now "written by someone else"'):
        check_identity(paragraph, shown("written by someone else", "Paragraph"), written="written")


def test_a_password_fields_text_is_not_read_to_see_whether_it_names_it():
    """`input` asks whether an element is named by its text (`text_naming`): never by reading a
    password's text."""

    class NoReading:
        def read_text(self, handle: str) -> str:
            raise AssertionError("a password's text was read")

    secret = Node(
        handle="h",
        parent=None,
        role="Edit",
        native_role="password text",
        name="",
        states=frozenset({"protected", "editable"}),
    )
    target = Target(id=4, type="Edit", name="", handle="h", states=["protected"])
    assert text_naming(NoReading(), target, secret) is None  # type: ignore[arg-type]


def test_an_id_is_looked_up_in_the_state_then_among_those_found_and_a_missing_one_says_why():
    registry = IdRegistry(next_id=20)
    state = UIState(
        window=WindowInfo(id="0x1", title="w"), targets=[Target(id=7, type="Button", name="OK")], timestamp="now"
    )
    found = [Target(id=12, type="DataItem", name="A218", derived_from=OUT_OF_VIEW)]
    assert lookup(7, state, found, registry).name == "OK"
    assert lookup(12, state, found, registry).name == "A218"
    with pytest.raises(StaleElement, match="not in the latest state"):  # given once, gone now
        lookup(9, state, found, registry)
    with pytest.raises(NotFound, match="no element 30") as never:
        lookup(30, state, found, registry)
    assert "ids in the latest state: 7–7" in str(never.value.hint)
    with pytest.raises(NotFound, match="there is no state yet"):
        lookup(7, None, [], registry)


def test_a_fresh_read_must_be_there_in_its_role_and_shown_to_be_acted_on():
    button = Target(id=3, type="Button", name="Keep", handle="h")
    with pytest.raises(StaleElement, match="is gone"):
        check_fresh(button, None, acting=False)
    with pytest.raises(StaleElement, match="was a Button and is now a Edit"):
        check_fresh(button, shown("Keep", "Edit"), acting=False)
    hidden = Node(
        handle="h", parent=None, role="Button", native_role="push button", name="Keep", states=frozenset({"visible"})
    )
    assert check_fresh(button, hidden, acting=False) is hidden  # visible is enough to read it
    with pytest.raises(StaleElement, match="no longer shown"):
        check_fresh(button, hidden, acting=True)  # an action needs it showing
    away = Target(id=12, type="Button", name="Keep", handle="h", derived_from=OUT_OF_VIEW)
    assert check_fresh(away, shown("Keep", "Button"), acting=False).name == "Keep"  # found by `find`: read there
