"""Acting on an id checks that the element is still what the agent was shown, including names
the tree does not give (lent by a wrapper, held as text, read off the label beside it)."""

import pytest

from winactions.errors import StaleElement
from winactions.model import Node, Target
from winactions.perception.accessibility import NAMED_BY_TEXT, named_by_label
from winactions.session.desktop import _check_identity


def shown(name: str, role: str = "Spinner") -> Node:
    return Node(handle="h", parent=None, role=role, native_role=role.lower(), name=name)


def test_a_field_named_by_its_label_is_itself_while_its_own_name_stays():
    width = Target(id=7, type="Spinner", name="Start with this size:", derived_from=named_by_label("Window Settings"))
    _check_identity(width, shown("Window Settings"))
    with pytest.raises(StaleElement, match='is now "Height"'):
        _check_identity(width, shown("Height"))


def test_a_button_named_by_its_text_is_itself_while_it_has_no_name():
    header = Target(id=3, type="Button", name="Size", derived_from=NAMED_BY_TEXT)
    _check_identity(header, shown("", "Button"))
    with pytest.raises(StaleElement):
        _check_identity(header, shown("Delete", "Button"))


def test_a_plain_name_that_changed_is_refused():
    with pytest.raises(StaleElement, match='was \\[Button\\] "Keep" and is now "Delete"'):
        _check_identity(Target(id=1, type="Button", name="Keep"), shown("Delete", "Button"))


def test_the_name_the_agents_own_input_gave_is_accepted_and_no_other():
    paragraph = Target(id=15, type="Paragraph", name="first line")
    _check_identity(paragraph, shown("written", "Paragraph"), written="written")
    with pytest.raises(StaleElement, match='is now "written by someone else"'):
        _check_identity(paragraph, shown("written by someone else", "Paragraph"), written="written")


def test_a_password_fields_text_is_not_read_to_see_whether_it_names_it():
    """`input` asks whether an element is named by its text (`text_naming`): never by reading a
    password's text."""
    from types import SimpleNamespace

    from winactions.session.desktop import DesktopSession

    class NoReading:
        def read_text(self, handle: str) -> str:
            raise AssertionError("a password's text was read")

    session = SimpleNamespace(backend=NoReading())
    secret = Node(
        handle="h",
        parent=None,
        role="Edit",
        native_role="password text",
        name="",
        states=frozenset({"protected", "editable"}),
    )
    target = Target(id=4, type="Edit", name="", handle="h", states=["protected"])
    assert DesktopSession.text_naming(session, target, secret) is None  # type: ignore[arg-type]
