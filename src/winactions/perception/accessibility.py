"""Tier 1: the accessibility tree, reduced to the elements an agent can use.

A raw tree is mostly layout (fillers, panels, viewports). This module keeps what an agent
can act on or read, and drops what it cannot see: toolkits mark scrolled-out rows as
"showing" (GTK does), so visibility is decided by geometry — each element is clipped by its
scrolling ancestors and by the screens — never trusted from a flag alone.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from winactions.backends.base import CELL_PLACE, TABLE_ROWS
from winactions.model import Node, Operation, Rect, Snapshot, Source, Target

# Types an agent acts on even when they have no name (an unnamed edit is still an edit).
INTERACTIVE_TYPES = frozenset(
    {
        "Button",
        "CheckBox",
        "RadioButton",
        "Edit",
        "ComboBox",
        "MenuItem",
        "Menu",
        "ListItem",
        "DataItem",
        "HeaderItem",
        "TabItem",
        "TreeItem",
        "Hyperlink",
        "Slider",
        "Spinner",
        "ScrollBar",
        "SplitButton",
        "Table",
        "List",
        "Tree",
        "SplitPane",
        "Document",
        "Calendar",
        "ColorChooser",
        "Canvas",
    }
)
# Types worth showing only with a name or text: they give the agent context.
CONTEXT_TYPES = frozenset(
    {
        "Text",
        "Heading",
        "Image",
        "ProgressBar",
        "StatusBar",
        "Group",
        "ToolBar",
        "Dialog",
        "Pane",
        "Label",
        "Tab",
        "MenuBar",
        "Paragraph",
        "Alert",
        "ToolTip",
        "Header",
    }
)
# Static text: it names or describes what is beside it, and acts on nothing.
TEXT_TYPES = frozenset({"Text", "Heading", "Paragraph", "Label"})
# Containers whose content scrolls: a descendant outside them is not visible.
CLIPPING_TYPES = frozenset(
    {
        "ScrollPane",
        "Viewport",
        "Table",
        "List",
        "Tree",
        "Document",
        "Window",
        "Dialog",
    }
)
# Popups live in their own windows: their items are not clipped by the menu bar's rect.
UNCLIPPED_TYPES = frozenset({"Menu", "MenuItem", "ComboBox", "ToolTip", "Window", "Dialog"})
TEXT_PREVIEW = 80
MENU_ROOT_TYPES = frozenset({"Menu", "Window"})  # what holds an open menu's items: the menu, or its window
MENU_PLACE_SLACK = 8  # px a menu's element may lie past the menu's X window (its border, its shadow)
MENU_FILL = 0.5  # of the menu's X window: what such an element covers at least, to be the menu
EMBEDDED = "\ufffc"  # where a text's embedded child (a field in a paragraph) sits in its text


@dataclass(frozen=True)
class Visible:
    node: Node
    rect: Rect | None  # the visible part, None when the element has no geometry


def visible_nodes(snapshot: Snapshot, screens: list[Rect]) -> list[Visible | None]:
    """Each node's visible rectangle after clipping, or None when nothing of it shows."""
    clips: list[Rect | None] = []  # what a child of node i may occupy
    out: list[Visible | None] = []
    nodes = snapshot.nodes
    for node in nodes:
        parent_clip = clips[node.parent] if node.parent is not None else None
        parent_gone = node.parent is not None and out[node.parent] is None
        says_hidden = not ({"visible", "showing"} & node.states)  # trusted only when negative
        hidden = parent_gone or (says_hidden and node.parent is not None)
        unclipped = node.role in UNCLIPPED_TYPES
        if node.role == "Window" and node.parent is not None and nodes[node.parent].role == "Pane":
            # a scroll area's content (Qt's QScrollArea reports it as a frame in its viewport):
            # the viewport shows part of it, and what lies outside is under other panes
            unclipped = False
            shown = out[node.parent]
            if shown is not None and shown.rect is not None:
                parent_clip = shown.rect if parent_clip is None else parent_clip.intersect(shown.rect)
                hidden = hidden or parent_clip is None
        rect = node.rect
        visible: Rect | None = None
        if rect is not None and not rect.is_empty and not hidden:
            visible = _clip_to_screens(rect, screens)
            if visible is not None and parent_clip is not None and not unclipped:
                visible = visible.intersect(parent_clip)
            if visible is None:
                hidden = True
        elif rect is None and not hidden:
            visible = None  # no geometry (some containers): keep the node, pass the clip on
        out.append(None if hidden else Visible(node, visible))
        clip = parent_clip if not unclipped else None
        if not hidden and node.role in CLIPPING_TYPES and visible is not None:
            clip = visible if clip is None else (clip.intersect(visible) or visible)
        clips.append(clip)
    return out


def _clip_to_screens(rect: Rect, screens: list[Rect]) -> Rect | None:
    best: Rect | None = None
    for screen in screens:
        part = rect.intersect(screen)
        if part is not None and (best is None or part.area > best.area):
            best = part
    return best


def is_useful(node: Node) -> bool:
    """Would an agent want this element in its list?"""
    if node.role in INTERACTIVE_TYPES:
        return True
    if node.operations - {Operation.FOCUS}:
        return True
    if node.role in CONTEXT_TYPES:  # a paragraph's text that is only its children ("￼ ￼") says nothing
        return bool(node.name.strip() or (node.value or "").replace(EMBEDDED, " ").strip())
    return False


def display_name(node: Node) -> str:
    """The name; for textual elements without one, the start of their text; for other
    elements without one, their description.

    The description is where toolkits put a tooltip (and Qt a field's placeholder), often the
    only name of an icon-only button of Qt or GTK: this names such an element after it, as
    browsers do after its `title` (the accessible-name computation's last step)."""
    if node.name.strip():
        return node.name.strip()
    if node.role in TEXT_TYPES and node.value:
        return _preview(node.value)
    if node.description.strip():
        return _preview(_TAGS.sub(" ", node.description))
    return ""


_TAGS = re.compile(r"<[^<>]*>")  # Qt tooltips may be rich text: "<p style='white-space:pre'>Count words</p>"


def _preview(text: str) -> str:
    """One line of at most TEXT_PREVIEW characters, without the marks where children sit."""
    text = " ".join(text.replace(EMBEDDED, " ").split())
    return text if len(text) <= TEXT_PREVIEW else text[: TEXT_PREVIEW - 1] + "…"


def targets_from_snapshot(snapshot: Snapshot, screens: list[Rect]) -> list[Target]:
    """Turn a backend snapshot into unnumbered targets (id 0) in document order, but for the
    elements of a menu open over the window, which come first: they lie on top, and the next
    click reaches them (a menu of its own window may come last in the tree).

    Parent links point at the nearest kept ancestor through `parent_id` placeholders:
    they hold the ancestor's index in the returned list until ids are assigned.
    """
    in_menu = _in_open_menus(snapshot)
    nodes_of: list[int] = []  # the node each target was made from
    kept_index: dict[int, int] = {}
    targets: list[Target] = []
    depth_of: dict[int, int] = {}
    visibles = visible_nodes(snapshot, screens)
    borrowed, lenders = _named_by_wrappers(snapshot.nodes)
    by_text = _named_by_text(snapshot.nodes)
    by_label = _named_by_label(snapshot.nodes)
    wrappers = _inert_wrappers(snapshot.nodes) | lenders
    # A Swing popup menu is reached twice: from its menu, and from the layered pane that shows
    # it. An element is listed where it is first met: one id, one line.
    listed: set[str] = set()
    for i, vis in enumerate(visibles):
        if vis is None or i == 0:
            continue
        node = vis.node
        if node.handle and node.handle in listed:
            if node.parent is not None and node.parent in kept_index:
                kept_index[i] = kept_index[node.parent]
            continue
        ancestor = node.parent
        while ancestor is not None and ancestor not in kept_index:
            ancestor = snapshot.nodes[ancestor].parent
        parent_pos = kept_index.get(ancestor) if ancestor is not None else None
        if not is_useful(node) or vis.rect is None or i in wrappers or _repeats_parent(node, targets, parent_pos):
            if ancestor is not None:
                kept_index[i] = kept_index[ancestor]
            continue
        depth = depth_of.get(parent_pos, -1) + 1 if parent_pos is not None else 0
        targets.append(
            Target(
                id=0,
                type=node.role,
                name=borrowed.get(i) or by_text.get(i) or by_label.get(i) or display_name(node),
                derived_from=NAMED_BY_WRAPPER
                if i in borrowed
                else NAMED_BY_TEXT
                if i in by_text
                else named_by_label(None if _names_its_choice(node) else display_name(node))
                if i in by_label
                else None,
                rect=vis.rect,
                source=Source.ACCESSIBILITY,
                states=sorted(node.states),
                value=_value_for(node),
                automation_id=node.automation_id,
                operations=sorted(node.operations, key=lambda o: o.value),
                parent_id=parent_pos,
                depth=depth,
                handle=node.handle,
                cell=_cell_place(node),
                rows=int(node.extra[TABLE_ROWS]) if node.extra.get(TABLE_ROWS, "").isdigit() else None,
            )
        )
        kept_index[i] = len(targets) - 1
        depth_of[len(targets) - 1] = depth
        listed.add(node.handle)
        nodes_of.append(i)
    return _menus_first(targets, [in_menu[i] for i in nodes_of])


def _cell_place(node: Node) -> tuple[int, int] | None:
    """A cell's (row, column) as the backend put it in `Node.extra["cell"]` ("ROW,COL")."""
    place = node.extra.get(CELL_PLACE)
    if not place:
        return None
    row, _, col = place.partition(",")
    return (int(row), int(col)) if row.isdigit() and col.isdigit() else None


def _in_open_menus(snapshot: Snapshot) -> list[bool]:
    """Which nodes lie in a menu open over the window: below a menu, or a window holding one,
    that fills the place where the backend sees a popup menu (`Snapshot.popups`). Elements of
    the window hidden under the menu lie there too, but no such element fills it as a menu."""
    inside: list[bool] = []
    for node in snapshot.nodes:
        parent_inside = node.parent is not None and node.parent < len(inside) and inside[node.parent]
        inside.append(
            parent_inside
            or (
                node.parent is not None
                and node.role in MENU_ROOT_TYPES
                and _fills_a_popup(node.rect, snapshot.popups or [])
            )
        )
    return inside


def _fills_a_popup(rect: Rect | None, popups: list[Rect]) -> bool:
    if rect is None or rect.is_empty:
        return False
    return any(p.grown(MENU_PLACE_SLACK).encloses(rect) and rect.area >= MENU_FILL * p.area for p in popups)


def _menus_first(targets: list[Target], in_menu: list[bool]) -> list[Target]:
    """The targets with those in an open menu moved before the rest, each group in its order,
    their `parent_id` placeholders (indexes into the list) following them."""
    if not any(in_menu) or all(in_menu):
        return targets
    order = [i for i, inside in enumerate(in_menu) if inside] + [i for i, inside in enumerate(in_menu) if not inside]
    moved_to = {old: new for new, old in enumerate(order)}
    out = []
    for old in order:
        parent = targets[old].parent_id
        out.append(targets[old].model_copy(update={"parent_id": None if parent is None else moved_to[parent]}))
    return out


def _inert_wrappers(nodes: list[Node]) -> set[int]:
    """Elements that only wrap a child of their own type and name which does the acting (GTK 4's
    menu button is a button named "Menu" holding a button named "Menu", the one with the
    action): listed, they would make the name ambiguous and give an id that does nothing."""
    found: set[int] = set()
    for node in nodes:
        if node.parent is None or not node.operations - {Operation.FOCUS}:
            continue
        outer = nodes[node.parent]
        if (
            outer.role == node.role
            and not outer.operations - {Operation.FOCUS}
            and display_name(outer) == display_name(node) != ""
        ):
            found.add(node.parent)
    return found


WRAPPER_DEPTH = 3  # single-child wrappers walked up from an unnamed button for its name
NAMED_BY_WRAPPER = "name: the element wrapping it alone"  # a target's derived_from when so named
BORROWS_NAME = frozenset({"Button", "SplitButton"})
CONTENT_NODES = 12  # elements a button may hold and still be named by its one text


def _named_by_wrappers(nodes: list[Node]) -> tuple[dict[int, str], set[int]]:
    """Unnamed buttons named by the element that wraps them alone, and the wrappers that then
    say nothing more (LibreOffice's sidebar: each deck's nameless button in a panel carrying its
    tooltip, in a toolbar named after the deck). Each is named by the nearest such wrapper that
    has a name or tooltip; the wrappers up to it, and named ones above whose name it already
    says, are not listed."""
    names: dict[int, str] = {}
    hidden: set[int] = set()
    for i, node in enumerate(nodes):
        if node.role not in BORROWS_NAME or node.parent is None or display_name(node):
            continue
        chain: list[int] = []
        up: int | None = node.parent
        while (
            up is not None
            and len(chain) < WRAPPER_DEPTH
            and nodes[up].child_count == 1
            and not nodes[up].operations - {Operation.FOCUS}
        ):
            chain.append(up)
            if display_name(nodes[up]):
                break
            up = nodes[up].parent
        if not chain or not display_name(nodes[chain[-1]]):
            continue
        names[i] = display_name(nodes[chain[-1]])
        hidden.update(chain)
        up = nodes[chain[-1]].parent
        while (
            up is not None
            and nodes[up].child_count == 1
            and not nodes[up].operations - {Operation.FOCUS}
            and display_name(nodes[up])
            and display_name(nodes[up]) in names[i]
        ):
            hidden.add(up)
            up = nodes[up].parent
    return names, hidden


NAMED_BY_TEXT = "name: the text it holds"  # a target's derived_from when so named


def _named_by_text(nodes: list[Node]) -> dict[int, str]:
    """Unnamed buttons named by the one text they show, as a user reads them (ARIA's name from
    content; GTK 4 names its path bar's and column headers' buttons only by a label inside). A
    button holding anything that acts, or several texts, is left as it is. The text is then not
    listed again (`_repeats_parent`)."""
    names: dict[int, str] = {}
    for i, node in enumerate(nodes):
        if node.role in BORROWS_NAME and not display_name(node) and (text := _only_text(nodes, i)):
            names[i] = text
    return names


def _only_text(nodes: list[Node], i: int) -> str:
    """The one text shown inside element i (its descendants, up to CONTENT_NODES of them); ""
    when there is none, several, or something among them acts."""
    if not nodes[i].child_count:
        return ""
    inside, j = {i}, i + 1
    texts: list[str] = []
    while j < len(nodes) and nodes[j].parent in inside and len(inside) <= CONTENT_NODES:
        inner = nodes[j]  # in document order, a node's descendants follow it
        if inner.operations - {Operation.FOCUS}:
            return ""
        rect = inner.rect
        if inner.role in TEXT_TYPES and display_name(inner) and rect is not None and not rect.is_empty:
            texts.append(display_name(inner))
        inside.add(j)
        j += 1
    complete = j == len(nodes) or nodes[j].parent not in inside
    return texts[0] if len(texts) == 1 and complete else ""


NAMED_BY_LABEL = "name: the label beside it"  # a target's derived_from starts so when so named
PLACED_LABELS = frozenset({"Edit", "Spinner", "ComboBox", "Slider"})  # named by a label beside them
LABEL_GAP = 200  # px at most between a label and the field right of it
LABEL_NEIGHBOURS = 4  # siblings looked at on each side of a field, in the tree's order, for its label
INHERITED_DEPTH = 3  # ancestors whose name a field may repeat when it has none of its own


def named_by_label(own: str | None) -> str:
    """The derived_from of a field named by the label beside it: says its own name (None: its
    choice), which is what it still answers when read again (`session.identity.check_identity`)."""
    return f"{NAMED_BY_LABEL}; its own is " + ("its choice" if own is None else repr(own))


def _named_by_label(nodes: list[Node]) -> dict[int, str]:
    """Fields with no name of their own named by the label beside them, as a user reads a form:
    left of it on its row, or right above it. Covers Qt's fallback (a spin box or line edit
    without a buddy label takes its group box's name) and a GTK combo box named by its choice.
    A field named by a relation (GTK, Swing's labelFor) or by the page (browsers) keeps its
    name. A label of symbols alone ("×" between two spin boxes) names nothing, and a label with
    another field between names nothing either."""
    children: dict[int, list[int]] = {}
    place: dict[int, int] = {}  # each node's place among its parent's children
    for i, node in enumerate(nodes):
        if node.parent is not None:
            kids = children.setdefault(node.parent, [])
            place[i] = len(kids)
            kids.append(i)
    names: dict[int, str] = {}
    for i, node in enumerate(nodes):
        if node.role not in PLACED_LABELS or node.parent is None or node.rect is None or node.rect.is_empty:
            continue
        own = display_name(node)
        if own and not _inherited(nodes, i, own) and not _names_its_choice(node):
            continue
        # a label sits next to its field in the tree too (a page of a thousand rows is not searched)
        near = children[node.parent][max(0, place[i] - LABEL_NEIGHBOURS) : place[i] + LABEL_NEIGHBOURS + 1]
        label = _label_beside(nodes, i, near)
        if label:
            names[i] = label
    return names


def _names_its_choice(node: Node) -> bool:
    """A combo box whose name is only its chosen option (GTK)."""
    return node.role == "ComboBox" and bool(node.value) and display_name(node) == node.value


def _inherited(nodes: list[Node], i: int, name: str) -> bool:
    """Whether the element's name is an ancestor's (Qt's fallback for an unlabelled field)."""
    up = nodes[i].parent
    for _ in range(INHERITED_DEPTH):
        if up is None:
            return False
        if display_name(nodes[up]) == name:
            return True
        up = nodes[up].parent
    return False


def _label_beside(nodes: list[Node], i: int, siblings: list[int]) -> str:
    """The text of the label beside element i among its siblings: the nearest left of it on its
    row, else the nearest right above it; in either order of the tree (GTK's grid lists a combo
    box before the label left of it). No label when another field stands between."""
    field = nodes[i].rect
    assert field is not None
    parent = nodes[nodes[i].parent or 0]
    if parent.role in TEXT_TYPES and EMBEDDED in (parent.value or ""):
        return _text_before_embedded(nodes, i)  # its siblings are written into the parent's text
    left: list[tuple[Rect, str]] = []
    above: list[tuple[Rect, str]] = []
    fields: list[Rect] = []
    for j in siblings:
        sibling, rect = nodes[j], nodes[j].rect
        if j == i or rect is None or rect.is_empty:
            continue
        beside = (
            rect.top <= field.center[1] <= rect.bottom
            and rect.right <= field.left + 2
            and field.left - rect.right <= LABEL_GAP
        )
        over = field.top - field.height * 1.5 <= rect.bottom <= field.top + 2 and abs(rect.left - field.left) <= 20
        if not (beside or over):
            continue
        if sibling.role in INTERACTIVE_TYPES:
            fields.append(rect)
            continue
        # a label, or a box holding one (a web page's <div>Phone number</div> above its input)
        text = display_name(sibling) if sibling.role in TEXT_TYPES else _only_text(nodes, j)
        if any(c.isalnum() for c in text):  # not "×" between a width and a height
            (left if beside else above).append((rect, text))
    if left:
        rect, text = max(left, key=lambda found: found[0].right)
        between = any(
            f.top <= field.center[1] <= f.bottom and rect.right - 2 <= f.left and f.right <= field.left + 2
            for f in fields
        )
        return "" if between else text
    if above:
        rect, text = max(above, key=lambda found: found[0].bottom)
        between = any(
            rect.bottom - 2 <= f.top and f.bottom <= field.top + 2 and abs(f.left - field.left) <= 20 for f in fields
        )
        return "" if between else text
    return ""


def _text_before_embedded(nodes: list[Node], i: int) -> str:
    """The text just before element i in its parent's text, where the parent writes its children
    inline (Firefox's paragraph "Email: ￼" holding its input as the object character)."""
    text = nodes[nodes[i].parent or 0].value or ""
    # its place among the embedded children: a text child written out in the parent's text is a
    # run of that text, not an object (Chromium lists "Email:" as a child of "Email: ￼")
    k = sum(
        1
        for j in range(nodes[i].parent or 0, i)
        if nodes[j].parent == nodes[i].parent
        and not (nodes[j].role in TEXT_TYPES and display_name(nodes[j]) and display_name(nodes[j]) in text)
    )
    segments = text.split(EMBEDDED)
    label = segments[k].strip() if k < len(segments) else ""
    return label if any(c.isalnum() for c in label) else ""


def _repeats_parent(node: Node, targets: list[Target], parent_pos: int | None) -> bool:
    """A text leaf that only repeats its parent's name (web pages: a button's label text,
    a cell's text) adds a line and no information."""
    if parent_pos is None or node.role not in ("Text", "Label") or node.operations - {Operation.FOCUS}:
        return False
    return display_name(node) == targets[parent_pos].name


def _value_for(node: Node) -> str | None:
    if node.value is None:
        return None
    if node.role in TEXT_TYPES and not node.name.strip():
        return None  # already shown as the name
    return node.value
