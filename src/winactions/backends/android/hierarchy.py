"""A uiautomator hierarchy dump turned into the protocol's `Node`s.

The dump is what `uiautomator dump` writes: one `<node>` per view with its class, text,
content-desc, resource-id, bounds and flags. The flags map onto the same capabilities as
UIA patterns and AT-SPI interfaces: clickable → invoke, checkable → toggle, scrollable →
scroll, an edit → set text, focusable → focus; long-clickable is kept as an action.

A handle is the node's position in the tree (child numbers from the root), its
resource-id and class, and — for anything but an edit — its label: a recycled list row that
now shows another item is another element, not the same id with a new name.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass

from winactions.errors import ActionFailed
from winactions.model import Node, Operation, Rect

TRAILER = re.compile(r"UI hie?rc?h?ary dumped to: \S*\s*$")  # "hierchary" (sic) on real phones
BOUNDS = re.compile(r"\[(-?\d+),(-?\d+)\]\[(-?\d+),(-?\d+)\]")
LABEL_IN_HANDLE = 40

# The simple class name (or a well-known base) → the protocol's control type.
CLASS_TYPES = {
    "Button": "Button",
    "ImageButton": "Button",
    "MaterialButton": "Button",
    "FloatingActionButton": "Button",
    "ExtendedFloatingActionButton": "Button",
    "AppCompatButton": "Button",
    "AppCompatImageButton": "Button",
    "Chip": "Button",
    "EditText": "Edit",
    "AutoCompleteTextView": "Edit",
    "MultiAutoCompleteTextView": "Edit",
    "AppCompatEditText": "Edit",
    "TextInputEditText": "Edit",
    "SearchView": "Edit",
    "CheckBox": "CheckBox",
    "AppCompatCheckBox": "CheckBox",
    "MaterialCheckBox": "CheckBox",
    "Switch": "CheckBox",
    "SwitchCompat": "CheckBox",
    "SwitchMaterial": "CheckBox",
    "ToggleButton": "CheckBox",
    "CheckedTextView": "CheckBox",
    "RadioButton": "RadioButton",
    "AppCompatRadioButton": "RadioButton",
    "RadioGroup": "Group",
    "Spinner": "ComboBox",
    "AppCompatSpinner": "ComboBox",
    "SeekBar": "Slider",
    "RatingBar": "Slider",
    "ProgressBar": "ProgressBar",
    "NumberPicker": "Spinner",
    "TextView": "Text",
    "AppCompatTextView": "Text",
    "MaterialTextView": "Text",
    "ImageView": "Image",
    "AppCompatImageView": "Image",
    "ListView": "List",
    "RecyclerView": "List",
    "GridView": "List",
    "ExpandableListView": "Tree",
    "ScrollView": "ScrollPane",
    "HorizontalScrollView": "ScrollPane",
    "NestedScrollView": "ScrollPane",
    "ViewPager": "Pane",
    "ViewPager2": "Pane",
    "TabWidget": "Tab",
    "TabLayout": "Tab",
    "TabView": "TabItem",
    "WebView": "Document",
    "Toolbar": "ToolBar",
    "ActionBar": "ToolBar",
    "ActionMenuView": "ToolBar",
    "Dialog": "Dialog",
    "AlertDialog": "Dialog",
    "DrawerLayout": "Pane",
}
CONTAINERS = {"List", "Tree"}  # a clickable child of one of these is an item of it
EDIT_CLASSES = {"Edit"}


@dataclass(frozen=True)
class RawNode:
    """One `<node>` of the dump, with its position in the tree."""

    path: str
    parent: int | None
    attrs: dict[str, str]
    child_count: int


def strip_trailer(text: str) -> str:
    """The XML of `uiautomator dump /dev/tty`: it prints the XML, then its trailer line."""
    return TRAILER.sub("", text).strip()


def parse_dump(xml_text: str) -> list[RawNode]:
    """The dump's nodes in document order. Raises ValueError when it is not a dump."""
    root = ET.fromstring(xml_text)
    if root.tag != "hierarchy":
        raise ValueError(f"expected <hierarchy>, got <{root.tag}>")
    out: list[RawNode] = []

    def walk(element: ET.Element, path: str, parent: int | None) -> None:
        children = [c for c in element if c.tag == "node"]
        out.append(RawNode(path, parent, dict(element.attrib), len(children)))
        me = len(out) - 1
        for number, child in enumerate(children):
            walk(child, f"{path}.{number}" if path else str(number), me)

    for number, top in enumerate(c for c in root if c.tag == "node"):
        walk(top, str(number), None)
    return out


def bounds(text: str) -> Rect | None:
    match = BOUNDS.fullmatch(text.strip()) if text else None
    if match is None:
        return None
    left, top, right, bottom = (int(g) for g in match.groups())
    return Rect(left=left, top=top, right=max(left, right), bottom=max(top, bottom))


def control_type(raw: RawNode, parent_type: str | None) -> str:
    a = raw.attrs
    simple = a.get("class", "").rsplit(".", 1)[-1].rsplit("$", 1)[-1]
    kind = CLASS_TYPES.get(simple)
    clickable = _flag(a, "clickable") or _flag(a, "long-clickable")
    if kind == "CheckBox" and not _flag(a, "checkable"):
        kind = "ListItem" if simple == "CheckedTextView" else "Button"
    if kind is None or (kind in ("Text", "Image") and clickable):
        if _flag(a, "checkable"):
            kind = "CheckBox"
        elif clickable:
            kind = "ListItem" if parent_type in CONTAINERS else "Button"
        elif _flag(a, "scrollable"):
            kind = "ScrollPane"
        elif kind is None:
            kind = "Pane"
    if kind == "Text" and _flag(a, "password"):
        kind = "Edit"
    return kind


def _flag(attrs: dict[str, str], name: str) -> bool:
    return attrs.get(name) == "true"


def _label(raw: RawNode) -> str:
    a = raw.attrs
    return _words(a.get("content-desc") or "") or _words(a.get("text") or "")


def _words(text: str) -> str:
    """The text, or "" when it is only an icon font's glyphs (private-use code points, which
    apps draw as icons: they tell an agent nothing and cannot be typed back)."""
    text = text.strip()
    return "" if all(_private_use(ch) or ch.isspace() for ch in text) else text


def _private_use(ch: str) -> bool:
    code = ord(ch)
    return 0xE000 <= code <= 0xF8FF or code >= 0xF0000


def to_nodes(raws: list[RawNode], root: Node) -> list[Node]:
    """The window node first, then every dump node under it (parent indices shift by one).

    A clickable container with no label of its own (a settings row: a LinearLayout around a
    title and a summary) is named by the first label inside it, as TalkBack reads it."""
    types: list[str] = []
    nodes = [root]
    for i, raw in enumerate(raws):
        parent_type = types[raw.parent] if raw.parent is not None else None
        kind = control_type(raw, parent_type)
        types.append(kind)
        name = _name(raw, kind) or (_first_label(raws, i) if kind in ("Button", "ListItem", "CheckBox") else "")
        nodes.append(to_node(raw, kind, name, 0 if raw.parent is None else raw.parent + 1))
    return nodes


def _first_label(raws: list[RawNode], index: int) -> str:
    prefix = raws[index].path + "."
    for raw in raws[index + 1 :]:
        if not raw.path.startswith(prefix):
            break
        label = _label(raw)
        if label:
            return label
    return ""


def _name(raw: RawNode, kind: str) -> str:
    a = raw.attrs
    if kind == "Edit":  # an edit's text is its value; its name is what describes it
        return _words(a.get("content-desc") or "") or _words(a.get("hint") or "")
    return _label(raw)


def handle_of(raw: RawNode, kind: str, name: str) -> str:
    label = "" if kind == "Edit" else name[:LABEL_IN_HANDLE]
    return "|".join((raw.path, raw.attrs.get("resource-id", ""), raw.attrs.get("class", ""), label))


def path_of(handle: str) -> str:
    return handle.split("|", 1)[0]


def to_node(raw: RawNode, kind: str, name: str, parent: int | None) -> Node:
    a = raw.attrs
    flags = {
        f
        for f in (
            "clickable",
            "long-clickable",
            "checkable",
            "checked",
            "scrollable",
            "focusable",
            "focused",
            "enabled",
            "selected",
            "password",
        )
        if _flag(a, f)
    }
    states = {"visible", "showing"}
    states |= {f.replace("-", "_") for f in flags - {"password"}}
    if "password" in flags:
        states.add("protected")
    ops: set[Operation] = set()
    actions: list[str] = []
    enabled = "enabled" in flags
    if "clickable" in flags and enabled:
        ops.add(Operation.INVOKE)
        actions.append("click")
    if "long-clickable" in flags and enabled:
        actions.append("long_click")
    if "checkable" in flags and enabled:
        ops.add(Operation.TOGGLE)
    if "scrollable" in flags:
        ops.add(Operation.SCROLL)
        actions.append("scroll")
    if kind in EDIT_CLASSES and enabled:
        ops.add(Operation.SET_TEXT)
        states.add("editable")
    if "focusable" in flags and enabled:
        ops.add(Operation.FOCUS)
    value: str | None = None
    if kind == "Edit" and "password" not in flags:
        # an empty field shows its hint as its text (Android 8+ dumps say which it is)
        value = "" if a.get("hint") and a.get("text") == a.get("hint") else a.get("text", "")
    elif kind == "CheckBox" or "checkable" in flags:
        value = "on" if "checked" in flags else "off"
    description = a.get("content-desc", "") if name != a.get("content-desc", "") else ""
    return Node(
        handle=handle_of(raw, kind, name),
        parent=parent,
        role=kind,
        native_role=a.get("class", ""),
        name=name,
        description=description,
        value=value,
        states=frozenset(states),
        rect=bounds(a.get("bounds", "")),
        operations=frozenset(ops),
        automation_id=a.get("resource-id") or None,
        actions=tuple(actions),
        child_count=raw.child_count,
        extra={k: a[k] for k in ("package", "index", "hint") if a.get(k)},
    )


def text_of(raw_attrs: dict[str, str]) -> str:
    if raw_attrs.get("password") == "true":
        raise ActionFailed(
            "the element is a password field: its text is never read", hint="type a new one with `winctl input`"
        )
    return raw_attrs.get("text", "") or raw_attrs.get("content-desc", "")
