"""A toolkit's Open or Save dialog, read from its accessibility tree and driven as a person does.

A file dialog is a window with a path field (Qt's and Windows' "File name:", GTK's "Name" on
Save, GTK's location field on Open, shown by ctrl+L) and an accept button (Open, Save). The
path goes into the field, the dialog's own button is pressed (Enter in a GTK chooser's field
may leave the dialog open), and what the app answers is read: the dialog gone, a question
(replace an existing file?) or a message (no such file) in a window of its own. Names are
the English ones of GTK 3, Qt 5, LibreOffice and Windows' common dialogs.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from winactions.backends.base import REVEALS_PATH, Backend
from winactions.errors import ActionFailed, shown
from winactions.keys import parse_keys
from winactions.model import Node, Operation, WindowInfo

ACCEPT_NAMES = ("Save", "Open", "Export", "Import", "Insert", "Select", "Choose")  # the dialog's own button
SAVE_NAMES = frozenset({"Save", "Export"})
FIELD_NAMES = frozenset({"file name:", "file name", "name", "name:", "location:", "location"})
REPLACE_NAMES = ("Replace", "Overwrite", "Yes")  # what accepts "replace the existing file?"
DECLINE_NAMES = ("Cancel", "No")
DISMISS_NAMES = ("OK", "Close", "Cancel", "No")  # what closes a message, in this order
MESSAGE_ROLES = frozenset({"Dialog", "Alert"})
POLL = 0.1  # s between two looks at the app's windows
ENABLE_WAIT = 1.5  # s the accept button may take to be enabled once the path is in its field
REVEAL_WAIT = 2.0  # s the location field may take to show after ctrl+L


@dataclass(frozen=True)
class FileDialog:
    """The parts of one file dialog: where the path goes, and the button that takes it."""

    window: WindowInfo
    field: Node
    accept: Node

    @property
    def saves(self) -> bool:
        return self.accept.name.replace("_", "") in SAVE_NAMES


@dataclass(frozen=True)
class Message:
    """A window the app opened in answer (a question or an error): its text and buttons."""

    window: WindowInfo
    text: str
    buttons: dict[str, Node]
    dialog: bool = True  # a dialog or alert; else a window of its own (LibreOffice opens a file in one)

    @property
    def asks_to_replace(self) -> bool:
        said = self.text.lower()
        return "Replace" in self.buttons or "exists" in said or "replace" in said or "overwrite" in said

    def button(self, names: tuple[str, ...]) -> Node | None:
        return next((self.buttons[n] for n in names if n in self.buttons), None)


def _shown(node: Node) -> bool:
    return "showing" in node.states or "visible" in node.states


def _enabled(node: Node) -> bool:
    return "enabled" in node.states


def _buttons(nodes: list[Node]) -> dict[str, Node]:
    found: dict[str, Node] = {}
    for n in nodes:
        if n.role == "Button" and n.name and _shown(n):
            found.setdefault(n.name.replace("_", ""), n)
    return found


def _path_field(nodes: list[Node]) -> Node | None:
    """The field a path is typed in: one named as a file name, else in GTK's chooser the only
    editable one shown (its location field has no name)."""
    editable = [n for n in nodes if n.role == "Edit" and _shown(n) and "editable" in n.states]
    named = [n for n in editable if n.name.strip().lower() in FIELD_NAMES]
    if named:
        return named[0]
    return editable[0] if len(editable) == 1 and _reveal_keys(nodes) else None


def parts(backend: Backend, window: WindowInfo) -> FileDialog | None:
    """The window's file dialog parts, or None when it is no file dialog (a dialog window, or
    a chooser the backend marks, with a path field and an accept button: a main window's toolbar
    Open and its text are not one). A chooser whose path field is hidden gets it shown by the
    keys the backend names (`REVEALS_PATH`) and is read again."""
    nodes = backend.snapshot(window).nodes
    reveal = _reveal_keys(nodes)
    if not nodes or not (nodes[0].role == "Dialog" or reveal):
        return None
    accept = next((b for name in ACCEPT_NAMES for b in [_buttons(nodes).get(name)] if b is not None), None)
    if accept is None:
        return None
    field = _path_field(nodes)
    if field is None and reveal:
        backend.ensure_active(window)
        backend.press_chords(parse_keys(reveal, backend.key_names))
        deadline = time.monotonic() + REVEAL_WAIT
        while field is None and time.monotonic() < deadline:
            time.sleep(POLL)
            nodes = backend.snapshot(window).nodes
            field = _path_field(nodes)
            accept = _buttons(nodes).get(accept.name.replace("_", ""), accept)
    return None if field is None else FileDialog(window, field, accept)


def _reveal_keys(nodes: list[Node]) -> str | None:
    """The keys that show a chooser's hidden path field, as its backend says (`REVEALS_PATH`)."""
    return next((n.extra[REVEALS_PATH] for n in nodes if REVEALS_PATH in n.extra), None)


def put_path(backend: Backend, dialog: FileDialog, path: str) -> str:
    """Set the path field's text to `path` (read back by the backend); how it was done."""
    if Operation.SET_TEXT not in dialog.field.operations:
        raise ActionFailed(
            f'the dialog\'s field "{dialog.field.name}" takes no text through accessibility; nothing was chosen',
            hint=f"type the path with `winctl input`, then click the {dialog.accept.name} button",
        )
    return backend.perform(dialog.field.handle, Operation.SET_TEXT, path)


def enabled_accept(backend: Backend, dialog: FileDialog) -> Node | None:
    """The accept button once it is enabled (GTK keeps Open disabled for a file that is not
    there), or None when it stayed disabled for ENABLE_WAIT."""
    deadline = time.monotonic() + ENABLE_WAIT
    while True:
        node = backend.refresh(dialog.accept.handle)
        if node is not None and _enabled(node):
            return node
        if time.monotonic() >= deadline:
            return None
        time.sleep(POLL)


def press(backend: Backend, node: Node) -> str:
    """Press a dialog's button through its action (a question it opens does not hold the call)."""
    return backend.perform(node.handle, Operation.INVOKE)


def message(backend: Backend, window: WindowInfo) -> Message:
    """What a window the app opened says, and its buttons."""
    nodes = backend.snapshot(window).nodes
    texts = [n.name.strip() for n in nodes if n.role == "Text" and n.name.strip() and _shown(n)]
    text = " ".join(dict.fromkeys(texts)) or window.title
    return Message(window, text, _buttons(nodes), bool(nodes) and nodes[0].role in MESSAGE_ROLES)


def dismiss(backend: Backend, note: Message) -> str:
    """Close a message by its own button; what was pressed, or why nothing was."""
    button = note.button(DISMISS_NAMES)
    if button is None and len(note.buttons) == 1:
        button = next(iter(note.buttons.values()))
    if button is None:
        return "it is still open: `winctl keys Escape` closes it"
    press(backend, button)
    return f'pressed its "{button.name}"'


def app_windows(backend: Backend, pid: int | None) -> list[WindowInfo]:
    return [w for w in backend.list_windows() if w.pid == pid]


def titles(windows: list[WindowInfo]) -> str:
    return ", ".join(shown(w.title, 80) for w in windows) or "none"
