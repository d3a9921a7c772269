"""The protocol's data: what `winctl state` prints and what every command acts on.

Everything here is platform-neutral. Backends produce `Node`s (their raw view of one
accessible element); the perception layer turns nodes into `Target`s with stable ids; a
`UIState` is one indexed snapshot of a window.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from enum import Enum

from pydantic import BaseModel, ConfigDict, Field


class Rect(BaseModel):
    """A screen rectangle in physical pixels, `right`/`bottom` exclusive."""

    model_config = ConfigDict(frozen=True)

    left: int
    top: int
    right: int
    bottom: int

    @classmethod
    def from_xywh(cls, x: int, y: int, width: int, height: int) -> Rect:
        return cls(left=x, top=y, right=x + width, bottom=y + height)

    @property
    def width(self) -> int:
        return max(0, self.right - self.left)

    @property
    def height(self) -> int:
        return max(0, self.bottom - self.top)

    @property
    def area(self) -> int:
        return self.width * self.height

    @property
    def is_empty(self) -> bool:
        return self.width == 0 or self.height == 0

    @property
    def center(self) -> tuple[int, int]:
        return (self.left + self.right) // 2, (self.top + self.bottom) // 2

    def contains(self, x: int, y: int) -> bool:
        return self.left <= x < self.right and self.top <= y < self.bottom

    def moved(self, dx: int, dy: int) -> Rect:
        """This rectangle `dx` px to the right and `dy` px down."""
        return Rect(left=self.left + dx, top=self.top + dy, right=self.right + dx, bottom=self.bottom + dy)

    def grown(self, margin: int) -> Rect:
        """This rectangle with `margin` px more on every side (a border, a shadow, slack)."""
        return Rect(
            left=self.left - margin, top=self.top - margin, right=self.right + margin, bottom=self.bottom + margin
        )

    def encloses(self, other: Rect) -> bool:
        """Whether all of `other` lies within this rectangle."""
        return (
            self.left <= other.left
            and other.right <= self.right
            and self.top <= other.top
            and other.bottom <= self.bottom
        )

    def intersect(self, other: Rect) -> Rect | None:
        left, top = max(self.left, other.left), max(self.top, other.top)
        right, bottom = min(self.right, other.right), min(self.bottom, other.bottom)
        if right <= left or bottom <= top:
            return None
        return Rect(left=left, top=top, right=right, bottom=bottom)

    def union(self, other: Rect) -> Rect:
        """The smallest rectangle holding both."""
        return Rect(
            left=min(self.left, other.left),
            top=min(self.top, other.top),
            right=max(self.right, other.right),
            bottom=max(self.bottom, other.bottom),
        )

    def iou(self, other: Rect) -> float:
        inter = self.intersect(other)
        if inter is None:
            return 0.0
        union = self.area + other.area - inter.area
        return inter.area / union if union else 0.0

    def as_list(self) -> list[int]:
        return [self.left, self.top, self.right, self.bottom]

    def __str__(self) -> str:
        return f"[{self.left},{self.top},{self.right},{self.bottom}]"


class Source(str, Enum):
    """Where a target came from. Anything not from the tree carries a confidence."""

    ACCESSIBILITY = "accessibility"
    INFERRED = "inferred"
    VISION = "vision"
    OCR = "ocr"
    TEMPLATE = "template"
    FIXED = "fixed"


# How a spreadsheet names its cells ("B12": column letters, row from 1), one rule for every
# reader of a sheet (the state's grid, addresses given to `get`/`input`).
CELL_ADDRESS = re.compile(r"^([A-Z]{1,4})([1-9][0-9]{0,7})$")


# The closed set of element types (`Node.role`, `Target.type` of the tree): UI Automation's
# control type names, so an agent learns one vocabulary, plus the few roles UIA has no name
# for. Every backend maps its roles into this set; a role it cannot map is "Custom".
CONTROL_TYPES: frozenset[str] = frozenset(
    {
        "Alert",
        "AppBar",
        "Application",
        "Button",
        "Calendar",
        "Canvas",
        "CheckBox",
        "ColorChooser",
        "ComboBox",
        "Custom",
        "DataGrid",
        "DataItem",
        "Dialog",
        "Document",
        "Edit",
        "Group",
        "Header",
        "HeaderItem",
        "Heading",
        "Hyperlink",
        "Image",
        "List",
        "ListItem",
        "Menu",
        "MenuBar",
        "MenuItem",
        "Pane",
        "Paragraph",
        "ProgressBar",
        "RadioButton",
        "Row",
        "ScrollBar",
        "ScrollPane",
        "SemanticZoom",
        "Separator",
        "Slider",
        "Spinner",
        "SplitButton",
        "SplitPane",
        "StatusBar",
        "Tab",
        "TabItem",
        "Table",
        "Text",
        "Thumb",
        "TitleBar",
        "ToolBar",
        "ToolTip",
        "Tree",
        "TreeItem",
        "Viewport",
        "Window",
    }
)


class Operation(str, Enum):
    """Semantic operations an element may support without synthesizing input.

    One vocabulary for every platform: UIA Invoke/Toggle/SelectionItem/ExpandCollapse/
    Value/RangeValue, AT-SPI Action/EditableText/Value/Selection and Android's
    clickable/checkable/scrollable flags all map onto these.
    """

    INVOKE = "invoke"  # press a button, activate a menu item or link
    TOGGLE = "toggle"  # flip a check box or toggle button
    SELECT = "select"  # make this item the selection of its container
    EXPAND = "expand"  # open a tree node, combo box or menu
    COLLAPSE = "collapse"
    SET_TEXT = "set_text"  # replace an editable text's contents
    SET_VALUE = "set_value"  # set a range value (slider, spin button)
    CHOOSE = "choose"  # select the option named by the argument (combo box, list, tab list)
    FOCUS = "focus"  # give keyboard focus
    SCROLL = "scroll"  # scroll the element's content by itself (no mouse wheel)


@dataclass(frozen=True)
class Node:
    """One accessible element as a backend reads it, in document order.

    `handle` is the backend's identity for the element (AT-SPI bus name + object path,
    a UIA runtime id, an Android resource path); the core treats it as opaque.
    `parent` is the index of the parent node in the same snapshot list, or None for the root.
    """

    handle: str
    parent: int | None
    role: str  # normalized control type: "Button", "Edit", "CheckBox", ...
    native_role: str  # the platform's own role name, for `inspect`
    name: str = ""
    description: str = ""
    value: str | None = None
    states: frozenset[str] = frozenset()
    rect: Rect | None = None
    operations: frozenset[Operation] = frozenset()
    automation_id: str | None = None
    actions: tuple[str, ...] = ()
    interfaces: tuple[str, ...] = ()
    child_count: int = 0
    extra: dict[str, str] = field(default_factory=dict)


class Snapshot(BaseModel):
    """A backend's read of one window's tree: nodes in document order, root first."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    nodes: list[Node]
    truncated: bool = False  # the element budget ran out before the walk finished
    elapsed_ms: float = 0.0
    # What was left out and how to get more, in words an agent can act on ("read 2,000 of at
    # least 20,013 elements in 4.0 s; ..."); also set when nothing is missing but some
    # values were not read (a spreadsheet's cells beyond its read budget).
    truncation: str = ""
    # menus open over the window in windows of their own, as seen while it was read (see
    # `Backend.popups`); None when the backend did not look
    popups: list[Rect] | None = None


class WindowInfo(BaseModel):
    """A top-level window. `rect` is the client area (no frame), in screen pixels."""

    id: str
    title: str
    pid: int | None = None
    process: str = ""
    rect: Rect | None = None
    active: bool = False
    minimized: bool = False
    maximized: bool = False
    app_class: str = ""
    # shown while the app starts and gone once it is up (a splash screen): `launch` waits past it
    splash: bool = False


class Target(BaseModel):
    """One indexed element of a state: what an agent reads and acts on by `id`."""

    id: int
    type: str
    name: str = ""
    rect: Rect | None = None
    source: Source = Source.ACCESSIBILITY
    states: list[str] = Field(default_factory=list)
    value: str | None = None
    automation_id: str | None = None
    operations: list[Operation] = Field(default_factory=list)
    parent_id: int | None = None
    depth: int = 0
    confidence: float | None = None  # set for every source but the accessibility tree
    derived_from: str | None = None  # what an inferred/vision target was computed from
    cell: tuple[int, int] | None = None  # a table cell's (row, column), from 0, when the backend knows it
    rows: int | None = None  # a table's number of rows (in view or not), when the backend knows it
    screen: list[str] | None = None  # a terminal's screen rows, trailing blanks dropped
    cursor_row: int | None = None  # ...and the index of the row its cursor is on
    handle: str | None = Field(default=None, exclude=True)  # backend identity, never printed

    @property
    def acts_by_coordinates(self) -> bool:
        """Targets without a tree handle can only be acted on at their rectangle."""
        return self.handle is None


class UIState(BaseModel):
    """One indexed snapshot of a window: the perception side of the protocol."""

    window: WindowInfo
    targets: list[Target]
    timestamp: str
    screenshot: str | None = None
    annotated_screenshot: str | None = None
    truncated: bool = False
    warnings: list[str] = Field(default_factory=list)
    tiers: list[str] = Field(default_factory=list)  # what each tier beyond the tree added, and its cost
    node_count: int = 0  # accessible nodes read, of which `targets` are the useful ones
    # the window's document has unsaved changes (True) or none (False), as the app shows it;
    # None when it shows neither (perception/document.py)
    modified: bool | None = None

    def target(self, target_id: int) -> Target | None:
        for t in self.targets:
            if t.id == target_id:
                return t
        return None
