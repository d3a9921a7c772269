"""Which windows `choose-file` takes for a file dialog, and which field and button in it."""

from __future__ import annotations

from typing import Any

from winactions import file_dialogs as fd
from winactions.backends.base import REVEALS_PATH
from winactions.model import Node, Operation, Snapshot, WindowInfo

SHOWN = frozenset({"showing", "visible", "enabled"})
WINDOW = WindowInfo(id="0x1", title="t", pid=1)


def node(
    role: str,
    name: str = "",
    native: str = "",
    parent: int | None = 0,
    editable: bool = False,
    actions: tuple[str, ...] = (),
) -> Node:
    states = SHOWN | ({"editable"} if editable else set())
    ops = frozenset({Operation.SET_TEXT}) if editable else frozenset()
    chooser = native == "file-chooser"  # the Linux backend marks GTK's chooser so (`atspi.element.extra`)
    return Node(
        handle=f"h:{role}:{name}",
        parent=parent,
        role=role,
        native_role=native or role.lower(),
        name=name,
        states=frozenset(states),
        operations=ops,
        actions=actions,
        extra={REVEALS_PATH: "ctrl+l"} if chooser else {},
    )


class Tree:
    """A backend that only reads one tree (no keys: a GTK chooser without its field fails)."""

    def __init__(self, nodes: list[Node]) -> None:
        self.nodes = nodes

    def snapshot(self, window: WindowInfo) -> Snapshot:
        return Snapshot(nodes=self.nodes)

    def __getattr__(self, name: str) -> Any:
        raise AssertionError(f"{name} was not meant to be called")


def test_a_main_window_with_a_toolbar_open_and_one_text_is_no_file_dialog():
    """FeatherPad's main window has an Open and a Save button and an editable text: taken for a
    dialog, the path would be typed into the document and the toolbar's Open pressed."""
    main = [
        node("Window", "todo.txt", parent=None),
        node("Edit", "", editable=True),
        node("Button", "Open"),
        node("Button", "Save"),
    ]
    assert fd.parts(Tree(main), WINDOW) is None  # type: ignore[arg-type]


def test_qt_and_gtk_save_dialogs_give_their_name_field_and_button():
    qt = [
        node("Dialog", "Open file...", parent=None),
        node("Edit", "Search", editable=True),
        node("Edit", "File name:", editable=True),
        node("Button", "Open"),
        node("Button", "Cancel"),
    ]
    found = fd.parts(Tree(qt), WINDOW)  # type: ignore[arg-type]
    assert found is not None and found.field.name == "File name:" and found.accept.name == "Open"
    assert not found.saves
    gtk = [
        node("Dialog", "Save As", "file-chooser", parent=None),
        node("Dialog", "File Chooser Widget", "file-chooser", actions=("Show location",)),
        node("Edit", "Name", editable=True),
        node("Button", "Cancel"),
        node("Button", "_Save"),
    ]
    found = fd.parts(Tree(gtk), WINDOW)  # type: ignore[arg-type]
    assert found is not None and found.field.name == "Name" and found.saves


def test_an_unnamed_field_is_the_path_field_only_in_gtk_s_chooser():
    """GTK's location field has no name; elsewhere an unnamed field may be anything (a search)."""
    gtk = [
        node("Dialog", "Open File", "file-chooser", parent=None),
        node("Edit", "", editable=True),
        node("Button", "Open"),
    ]
    found = fd.parts(Tree(gtk), WINDOW)  # type: ignore[arg-type]
    assert found is not None and found.field.name == ""
    other = [node("Dialog", "Find", parent=None), node("Edit", "", editable=True), node("Button", "Open")]
    assert fd.parts(Tree(other), WINDOW) is None  # type: ignore[arg-type]


def test_a_replace_question_is_told_from_a_message():
    window = WINDOW
    asks = fd.Message(
        window,
        'A file named "a.txt" already exists. Do you want to replace it?',
        {"Cancel": node("Button", "Cancel"), "Replace": node("Button", "Replace")},
    )
    error = fd.Message(window, "Failed to open the document. No such file or directory.", {})
    assert asks.asks_to_replace and asks.button(fd.REPLACE_NAMES) is not None
    assert not error.asks_to_replace
