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
    width = Target(id=7, type="Spinner", name="Start with this size:",
                   derived_from=named_by_label("Window Settings"))
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
