"""A cached UIA subtree (`RawElement`s) turned into the protocol's `Node`s.

States and operations come from the patterns an element supports and their cached
properties, so reading them costs nothing after the one CacheRequest. The element budget
is applied here: a truncated read keeps whole levels from the top and says so.
"""

from __future__ import annotations

from winactions.backends.windows.native import RawElement
from winactions.backends.windows.uia import EXPAND_STATES, TOGGLE_STATES, TYPE_ALIASES
from winactions.model import CONTROL_TYPES, Node, Operation

TEXT_TYPES = {"Edit", "Document", "ComboBox"}
CHOOSERS = {"List", "Tab", "Tree", "DataGrid", "Table", "ComboBox"}
# Clicking these opens them: with no Invoke pattern, a click means ExpandCollapse.
OPENED_BY_CLICK = {"MenuItem", "SplitButton", "ComboBox", "Button", "TreeItem"}
# On a selectable item, Invoke is the double click (Explorer opens the file, a grid edits the
# cell); a click selects it. The same rule as AT-SPI's "activate" on cells.
ITEM_TYPES = {"ListItem", "DataItem", "TreeItem"}


def invoke_means_click(raw: RawElement) -> bool:
    return "Invoke" in raw.patterns and not (raw.control_type in ITEM_TYPES and "SelectionItem" in raw.patterns)


def encode_handle(hwnd: int, runtime_id: tuple[int, ...]) -> str:
    """`hwnd:rid.rid.rid` — the window to search from and the element's runtime id."""
    return f"{hwnd}:{'.'.join(str(part) for part in runtime_id)}"


def decode_handle(handle: str) -> tuple[int, tuple[int, ...]]:
    hwnd, _, rid = handle.partition(":")
    return int(hwnd), tuple(int(part) for part in rid.split(".") if part)


def states_of(raw: RawElement) -> frozenset[str]:  # noqa: C901  (one branch per UIA state property)
    states = {"visible", "showing"} if not raw.offscreen else set()
    if raw.enabled:
        states.add("enabled")
    if raw.focusable:
        states.add("focusable")
    if raw.focused:
        states.add("focused")
    p = raw.patterns
    if "Toggle" in p:
        states.add("checkable")
        toggle = TOGGLE_STATES.get(int(p["Toggle"].get("ToggleState", 0)), "off")
        if toggle == "on":
            states.add("checked")
        elif toggle == "indeterminate":
            states.add("indeterminate")
    if "ExpandCollapse" in p:
        expand = EXPAND_STATES.get(int(p["ExpandCollapse"].get("ExpandCollapseState", 3)), "leaf")
        if expand != "leaf":
            states.add("expandable")
            states.add("expanded" if expand in ("expanded", "partially_expanded") else "collapsed")
    if "SelectionItem" in p:
        states.add("selectable")
        if p["SelectionItem"].get("IsSelected"):
            states.add("selected")
    if p.get("Selection", {}).get("CanSelectMultiple"):
        states.add("multiselectable")
    value = p.get("Value")
    if value is not None:
        states.add("read_only" if value.get("IsReadOnly") else "editable")
    if p.get("RangeValue", {}).get("IsReadOnly"):
        states.add("read_only")
    if raw.password:
        states.add("protected")
    return frozenset(states)


def operations_of(raw: RawElement) -> frozenset[Operation]:
    p, kind = raw.patterns, raw.control_type
    ops: set[Operation] = set()
    expandable = "ExpandCollapse" in p and int(p["ExpandCollapse"].get("ExpandCollapseState", 3)) != 3
    if invoke_means_click(raw) or (
        expandable and kind in OPENED_BY_CLICK and "Toggle" not in p and "SelectionItem" not in p
    ):
        ops.add(Operation.INVOKE)
    if "Toggle" in p:
        ops.add(Operation.TOGGLE)
    if "SelectionItem" in p:
        ops.add(Operation.SELECT)
    if expandable:
        ops.update((Operation.EXPAND, Operation.COLLAPSE))
    if "Value" in p and not p["Value"].get("IsReadOnly") and raw.enabled:
        ops.add(Operation.SET_TEXT)
    if "RangeValue" in p and not p["RangeValue"].get("IsReadOnly"):
        ops.add(Operation.SET_VALUE)
    if kind in CHOOSERS and ("Selection" in p or kind == "ComboBox"):
        ops.add(Operation.CHOOSE)
    scroll = p.get("Scroll", {})
    if scroll.get("VerticallyScrollable") or scroll.get("HorizontallyScrollable"):
        ops.add(Operation.SCROLL)
    if raw.focusable:
        ops.add(Operation.FOCUS)
    return frozenset(ops)


def value_of(raw: RawElement) -> str | None:
    p = raw.patterns
    if raw.password:
        return None  # a password is never read, not even its length
    if "Value" in p:
        return str(p["Value"].get("Value", ""))
    if "RangeValue" in p:
        return f"{p['RangeValue'].get('Value', 0):g}"
    if "Toggle" in p:
        return TOGGLE_STATES.get(int(p["Toggle"].get("ToggleState", 0)), "off")
    return None


def control_type(uia_name: str) -> str:
    """The protocol's type for a UIA control type name; one it does not know is "Custom"."""
    name = TYPE_ALIASES.get(uia_name, uia_name)
    return name if name in CONTROL_TYPES else "Custom"


def to_node(raw: RawElement, hwnd: int, parent: int | None, child_count: int = 0) -> Node:
    extra = {
        "class_name": raw.class_name,
        "framework": raw.framework_id,
        "runtime_id": ".".join(str(x) for x in raw.runtime_id),
    }
    if raw.hwnd:
        extra["hwnd"] = hex(raw.hwnd)
    return Node(
        handle=encode_handle(hwnd, raw.runtime_id),
        parent=parent,
        role=control_type(raw.control_type),
        native_role=raw.control_type,
        name=raw.name,
        value=value_of(raw),
        states=states_of(raw),
        rect=raw.rect if raw.rect is not None and not raw.rect.is_empty else None,
        operations=operations_of(raw),
        automation_id=raw.automation_id or None,
        actions=tuple(sorted(raw.patterns)),
        interfaces=tuple(f"{name}Pattern" for name in sorted(raw.patterns)),
        child_count=child_count,
        extra={k: v for k, v in extra.items() if v},
    )


def to_nodes(raws: list[RawElement], hwnd: int, max_nodes: int) -> tuple[list[Node], bool]:
    """Nodes in document order, at most `max_nodes`; (nodes, truncated).

    When the budget runs out, elements are kept breadth-first (the top of the window before
    the depths of one list), so the structure an agent navigates by is never what is cut.
    """
    children: dict[int | None, list[int]] = {}
    for i, raw in enumerate(raws):
        children.setdefault(raw.parent, []).append(i)
    keep: set[int] = set()
    level = children.get(None, [])
    while level and len(keep) < max_nodes:
        take = level[: max_nodes - len(keep)]
        keep.update(take)
        level = [c for i in take for c in children.get(i, [])]
    truncated = len(keep) < len(raws)
    position: dict[int, int] = {}
    nodes: list[Node] = []
    for i, raw in enumerate(raws):
        if i not in keep:
            continue
        position[i] = len(nodes)
        parent = position.get(raw.parent) if raw.parent is not None else None
        nodes.append(to_node(raw, hwnd, parent, len(children.get(i, []))))
    return nodes, truncated
