"""Whether a window's document has unsaved changes, as the app itself shows it.

Apps say it in two ways we can read: a mark on the title (`*notes.txt - Geany`, `*Untitled 1 -
Mousepad`, `*supplies.gnumeric`), or, in LibreOffice, whose title never changes and whose
status-bar "modified" field exposes nothing (no name, description or text), the File menu's
"Save All", enabled while some document of the running soffice has unsaved changes. An app that
shows neither gets no answer (None), never a guess.
"""

from __future__ import annotations

from collections.abc import Callable

from winactions.model import Node, WindowInfo

TITLE_MARK = "*"
LIBREOFFICE = "soffice"  # its process name starts so (soffice.bin)
LIBREOFFICE_TITLE = " - LibreOffice"  # in the title of each of its document windows
SAVE_ALL = "Save All"
OWN_MENU_HOLDER = "root-pane"  # LibreOffice's own menu bar, kept in step (its GTK copy is updated when opened)


def unsaved(
    window: WindowInfo, nodes: list[Node], reread: Callable[[str], Node | None], windows: Callable[[], list[WindowInfo]]
) -> bool | None:
    """True when the window shows that its document has unsaved changes, False when it shows
    that it has none, None when it shows neither. `nodes` is the window's tree as read;
    `reread` reads one element again (its states now); `windows` lists the desktop's windows."""
    if window.title.startswith(TITLE_MARK):
        return True
    if window.process.startswith(LIBREOFFICE):
        return _libreoffice(window, nodes, reread, windows)
    return None


def _libreoffice(
    window: WindowInfo, nodes: list[Node], reread: Callable[[str], Node | None], windows: Callable[[], list[WindowInfo]]
) -> bool | None:
    """Save All disabled: no document of this soffice is modified. Enabled: one is — this one
    when it is the only document window of the process, else it cannot be told which."""
    item = _own_menu_item(nodes, SAVE_ALL)
    now = reread(item.handle) if item is not None else None
    if now is None:
        return None
    if "enabled" not in now.states:
        return False
    documents = [w for w in windows() if w.pid == window.pid and LIBREOFFICE_TITLE in w.title]
    return True if len(documents) == 1 else None


def _own_menu_item(nodes: list[Node], name: str) -> Node | None:
    """The menu item of this name in the app's own menu bar (under its root pane)."""
    for node in nodes:
        if node.role != "MenuItem" or node.name != name:
            continue
        parent = node.parent
        while parent is not None:
            if nodes[parent].native_role == OWN_MENU_HOLDER:
                return node
            parent = nodes[parent].parent
    return None
