"""What an AT-SPI change event says needs reading again: the element, its subtree, or everything.

A daemon keeps the tree it read and, when an app reports changes, reads again only what
the events name — a focus move costs two elements, not the window. This trusts the events
exactly as far as AT-SPI promises them: an element announces changes of its own name,
description, value, text and states (`object:property-change`, `object:state-changed`,
`object:text-changed`), and a container announces children added or removed
(`object:children-changed`) and rows or columns moving. Anything else — an event kind not
listed here, a window moved or resized, an element re-parented, more events than the log
keeps — means a whole read, as if nothing had been kept. Scrolling and moving, which toolkits
do not always announce, are caught by the probes of the live read, not here.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from enum import Enum

OBJECT, WINDOW, DOCUMENT = (
    "org.a11y.atspi.Event.Object",
    "org.a11y.atspi.Event.Window",
    "org.a11y.atspi.Event.Document",
)
LOG_SIZE = 512  # events kept per app between two reads; more than this means a whole read

# changes that concern the element alone
ELEMENT_EVENTS = {
    (OBJECT, "PropertyChange"),
    (OBJECT, "TextChanged"),
    (OBJECT, "TextCaretMoved"),
    (OBJECT, "TextSelectionChanged"),
    (OBJECT, "TextAttributesChanged"),
    (OBJECT, "TextBoundsChanged"),
    (OBJECT, "AttributesChanged"),
    (OBJECT, "LinkSelected"),
    (OBJECT, "Announcement"),
    (WINDOW, "Activate"),
    (WINDOW, "Deactivate"),
    (DOCUMENT, "AttributesChanged"),
}
# changes to what is below the element: its children are listed and read again
SUBTREE_EVENTS = {
    (OBJECT, "ChildrenChanged"),
    (OBJECT, "VisibleDataChanged"),
    (OBJECT, "ModelChanged"),
    (OBJECT, "RowInserted"),
    (OBJECT, "RowReordered"),
    (OBJECT, "RowDeleted"),
    (OBJECT, "ColumnInserted"),
    (OBJECT, "ColumnReordered"),
    (OBJECT, "ColumnDeleted"),
    (OBJECT, "ActiveDescendantChanged"),
    (OBJECT, "SelectionChanged"),
    (OBJECT, "BoundsChanged"),
    (DOCUMENT, "ContentChanged"),
    (DOCUMENT, "LoadComplete"),
    (DOCUMENT, "Reload"),
    (DOCUMENT, "LoadStopped"),
    (DOCUMENT, "PageChanged"),
}
# states whose change shows or hides, adds or removes what is below the element
SUBTREE_STATES = {"showing", "visible", "expanded", "collapsed", "manages-descendants"}
# properties whose change moves the element in the tree: nothing kept can be trusted
WHOLE_PROPERTIES = {"accessible-parent"}


class Scope(Enum):
    ELEMENT = "element"  # read the element's own properties again
    SUBTREE = "subtree"  # ...and list and read its children again
    PARENT = "parent"  # the element is gone: its parent's children are listed again
    WHOLE = "whole"  # read the whole window again


@dataclass(frozen=True)
class Event:
    path: str
    interface: str
    member: str
    detail: str
    value: str = ""  # what a property change set the property to, when it is text (a new name)


def scope_of(event: Event) -> Scope:
    """How much one event makes stale."""
    kind = (event.interface, event.member)
    if kind == (OBJECT, "StateChanged"):
        if event.detail == "defunct":
            return Scope.PARENT
        return Scope.SUBTREE if event.detail in SUBTREE_STATES else Scope.ELEMENT
    if kind == (OBJECT, "PropertyChange") and event.detail in WHOLE_PROPERTIES:
        return Scope.WHOLE
    if kind in ELEMENT_EVENTS:
        return Scope.ELEMENT
    if kind in SUBTREE_EVENTS:
        return Scope.SUBTREE
    return Scope.WHOLE


@dataclass
class EventLog:
    """The change events of one app, numbered, the newest LOG_SIZE kept."""

    count: int = 0
    events: deque[Event] = field(default_factory=lambda: deque(maxlen=LOG_SIZE))

    def add(self, event: Event) -> None:
        self.count += 1
        self.events.append(event)

    def since(self, mark: int) -> list[Event] | None:
        """The events after the `mark`-th, or None when some of them are no longer kept."""
        missed = self.count - mark
        if missed > len(self.events):
            return None
        return list(self.events)[len(self.events) - missed :] if missed else []


@dataclass(frozen=True)
class Trust:
    """How far one toolkit's events can be trusted, as found by comparing reads after changes
    with whole reads of the same window (tests/e2e/test_live_tree.py)."""

    # it moves and resizes elements, reads its grids anew and changes the children of
    # defunct-only elements without a word (LibreOffice: status bar fields, the formula bar's
    # text): those are read again after every change, whatever the events named
    untold: bool = False


# Toolkits checked against whole reads; any other app's window is read whole after a change.
TRUSTED = {"gtk": Trust(), "chromium": Trust(), "vcl": Trust(untold=True)}
