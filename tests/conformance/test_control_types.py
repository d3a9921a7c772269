"""Control types are a closed set (`winactions.model.CONTROL_TYPES`): every backend's role
table maps into it, and a role a table does not know becomes "Custom"."""

from __future__ import annotations

from winactions.backends.linux.atspi_roles import ROLES, role_of
from winactions.backends.windows.tree import control_type
from winactions.backends.windows.uia import CONTROL_TYPES as UIA_TYPES
from winactions.backends.windows.uia import TYPE_ALIASES
from winactions.model import CONTROL_TYPES


def test_every_atspi_role_maps_into_the_set():
    assert {ctype for _, ctype in ROLES} <= CONTROL_TYPES
    assert role_of(10_000) == ("role-10000", "Custom")
    assert role_of(-1)[1] == "Custom"


def test_every_uia_control_type_maps_into_the_set():
    assert {control_type(name) for name in UIA_TYPES.values()} <= CONTROL_TYPES
    assert set(TYPE_ALIASES.values()) <= CONTROL_TYPES
    assert control_type("SomeFutureControl") == "Custom"
    assert control_type("DataGrid") == "Table"


def test_every_android_class_maps_into_the_set():
    """Android names views by class; a class the table does not know (an app's own view) is
    typed by what it does — a tap target is a Button (a ListItem inside a list), a scroll
    view a ScrollPane, anything else a Pane — since its flags say more than "Custom" would."""
    from winactions.backends.android.hierarchy import CLASS_TYPES, RawNode
    from winactions.backends.android.hierarchy import control_type as android_type

    assert set(CLASS_TYPES.values()) <= CONTROL_TYPES

    def typed(cls: str, parent: str | None = None, **flags: str) -> str:
        return android_type(RawNode("0", None, {"class": cls, **flags}, 0), parent)

    assert typed("com.example.FancyView") == "Pane"
    assert typed("com.example.FancyView", clickable="true") == "Button"
    assert typed("com.example.FancyView", "List", clickable="true") == "ListItem"
    assert typed("com.example.FancyView", scrollable="true") == "ScrollPane"
    assert typed("android.widget.TextView", clickable="true") == "Button"
    assert typed("android.widget.Switch", checkable="true") == "CheckBox"
    assert typed("android.widget.EditText") == "Edit"
