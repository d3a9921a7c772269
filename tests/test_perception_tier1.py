"""Tier 1 reduction: what the agent sees of a raw tree, decided by geometry, with stable ids."""

import dataclasses

from winactions.backends.base import IN_POPUP
from winactions.model import Node, Operation, Rect, Snapshot, Source, Target
from winactions.perception.accessibility import targets_from_snapshot
from winactions.session.ids import IdRegistry

SCREEN = [Rect(left=0, top=0, right=1920, bottom=1080)]
SHOWN = frozenset({"visible", "showing", "enabled"})


def node(handle, parent, role, name="", rect=None, states=SHOWN, ops=frozenset(), value=None):
    return Node(
        handle=handle,
        parent=parent,
        role=role,
        native_role=role.lower(),
        name=name,
        rect=Rect.from_xywh(*rect) if rect else None,
        states=states,
        operations=ops,
        value=value,
    )


def table_snapshot(rows: int) -> Snapshot:
    """A window with a button and a 3-column table whose viewport shows 10 rows of 20 px."""
    nodes = [
        node("w", None, "Window", "App", (0, 0, 800, 600)),
        node("filler", 0, "Pane", "", (0, 0, 800, 600)),
        node("ok", 1, "Button", "OK", (10, 10, 80, 30), ops=frozenset({Operation.INVOKE})),
        node("scroll", 1, "ScrollPane", "", (10, 100, 600, 200)),
        node("table", 3, "Table", "Files", (10, 100, 600, 200)),
    ]
    for r in range(rows):  # GTK reports every row "showing", even scrolled out ones
        for c in range(3):
            nodes.append(node(f"cell{r}.{c}", 4, "DataItem", f"r{r}c{c}", (10 + 200 * c, 100 + 20 * r, 200, 20)))
    return Snapshot(nodes=nodes)


def test_rows_scrolled_out_of_the_viewport_are_clipped_by_geometry():
    targets = targets_from_snapshot(table_snapshot(50), SCREEN)
    cells = [t for t in targets if t.type == "DataItem"]
    assert len(cells) == 30  # 10 visible rows x 3 columns, not 150
    assert {t.name for t in cells} == {f"r{r}c{c}" for r in range(10) for c in range(3)}
    assert all(t.rect.bottom <= 300 for t in cells)


def test_unnamed_layout_is_dropped_and_interactive_kept():
    targets = targets_from_snapshot(table_snapshot(2), SCREEN)
    types = [t.type for t in targets]
    assert "Pane" not in types and "ScrollPane" not in types and "Window" not in types
    assert types[:2] == ["Button", "Table"]
    ok = targets[0]
    assert ok.name == "OK" and ok.operations == [Operation.INVOKE] and ok.source is Source.ACCESSIBILITY


def test_parent_links_skip_dropped_ancestors():
    targets = targets_from_snapshot(table_snapshot(1), SCREEN)
    table_pos = next(i for i, t in enumerate(targets) if t.type == "Table")
    cells = [t for t in targets if t.type == "DataItem"]
    assert all(t.parent_id == table_pos for t in cells)
    assert all(t.depth == 1 for t in cells)


def test_partly_visible_element_keeps_only_its_visible_part():
    snap = Snapshot(
        nodes=[
            node("w", None, "Window", "App", (0, 0, 800, 600)),
            node("list", 0, "List", "L", (0, 0, 300, 100)),
            node("item", 1, "ListItem", "half", (0, 90, 300, 20)),
        ]
    )
    item = targets_from_snapshot(snap, SCREEN)[1]
    assert item.rect == Rect(left=0, top=90, right=300, bottom=100)


def test_off_screen_and_hidden_nodes_are_dropped():
    snap = Snapshot(
        nodes=[
            node("w", None, "Window", "App", (0, 0, 800, 600)),
            node("off", 0, "Button", "Off screen", (-500, -500, 50, 20)),
            node("hid", 0, "Button", "Hidden", (10, 10, 50, 20), states=frozenset({"enabled"})),
            node("child", 2, "Button", "Child of hidden", (10, 10, 50, 20)),
            node("noscroll", 0, "ScrollBar", "", (-(2**31), -(2**31), 1, 1)),
            node("on", 0, "Button", "On", (100, 100, 50, 20)),
        ]
    )
    assert [t.name for t in targets_from_snapshot(snap, SCREEN)] == ["On"]


def test_a_popup_menu_is_not_clipped_by_its_menu_bar():
    snap = Snapshot(
        nodes=[
            node("w", None, "Window", "App", (0, 0, 800, 600)),
            node("bar", 0, "MenuBar", "", (0, 0, 800, 25)),
            node("file", 1, "Menu", "File", (0, 0, 40, 25)),
            node("open", 2, "MenuItem", "Open", (0, 25, 150, 25)),
        ]
    )
    assert [t.name for t in targets_from_snapshot(snap, SCREEN)] == ["File", "Open"]


def test_a_qt_scroll_areas_content_is_clipped_by_its_viewport():
    """Qt Linguist drawn at 2x (read off the real tree): its message editor's QScrollArea shows
    its content, reported as a frame, through a filler viewport; the translation field lies
    below the viewport, under the "Phrases and guesses" pane, and Qt calls it showing. Listed,
    a mouse click on it landed on that pane. A popup window (not in a viewport) stays unclipped."""
    snap = Snapshot(
        nodes=[
            node("w", None, "Window", "Qt Linguist", (30, 39, 1860, 1020)),
            node("area", 0, "Pane", "", (554, 683, 1336, 140)),
            node("viewport", 1, "Pane", "", (556, 685, 1304, 136)),
            node("content", 2, "Window", "", (556, 685, 1304, 338)),
            node("label", 3, "Text", "Translation to Deutsch", (570, 807, 1276, 28)),
            node("field", 3, "Edit", "", (570, 847, 1276, 48)),
            node("phrases", 0, "Pane", "", (554, 830, 640, 180)),
            node("guess", 6, "Button", "Guess", (560, 840, 80, 30), ops=frozenset({Operation.INVOKE})),
            node("combo", 0, "ComboBox", "Language", (100, 100, 200, 30)),
            node("popup", 8, "Window", "", (100, 130, 200, 400)),
            node("french", 9, "MenuItem", "French", (100, 480, 200, 30)),
        ]
    )
    shown = {t.handle: t.rect for t in targets_from_snapshot(snap, SCREEN)}
    assert "field" not in shown
    assert shown["label"] == Rect(left=570, top=807, right=1846, bottom=821)  # the part the viewport shows
    assert "guess" in shown and "french" in shown


def test_ids_are_stable_across_states_and_never_reused():
    registry = IdRegistry()
    first = registry.assign(targets_from_snapshot(table_snapshot(2), SCREEN))
    again = registry.assign(targets_from_snapshot(table_snapshot(2), SCREEN))
    assert [t.id for t in first] == [t.id for t in again] == list(range(1, len(first) + 1))
    # the first row disappears and a new one appears: old ids stay put, new ids are fresh
    snap = table_snapshot(3)
    snap.nodes[:] = [n for n in snap.nodes if not n.handle.startswith("cell0.")]
    third = registry.assign(targets_from_snapshot(snap, SCREEN))
    by_name = {t.name: t.id for t in third}
    assert by_name["r1c0"] == next(t.id for t in first if t.name == "r1c0")
    assert min(by_name[f"r2c{c}"] for c in range(3)) > max(t.id for t in first)
    assert "r0c0" not in by_name


def test_targets_without_handles_get_ids_by_what_and_where():
    registry = IdRegistry()
    border = Target(
        id=0,
        type="ColumnBorder",
        rect=Rect(left=10, top=0, right=14, bottom=20),
        source=Source.INFERRED,
        confidence=1.0,
        derived_from="[3].rect.right",
    )
    a = registry.assign([border])[0]
    b = registry.assign([border])[0]
    moved = registry.assign([border.model_copy(update={"rect": Rect(left=50, top=0, right=54, bottom=20)})])[0]
    assert a.id == b.id and moved.id != a.id


def test_an_unnamed_control_is_named_by_its_tooltip():
    """Qt and Java leave an icon-only button's name empty and put its tooltip in the
    description (featherpad's search bar, jEdit's toolbar): the agent reads the tooltip, as a
    browser names an element after its `title`. A name of its own, or a text's own text, wins."""
    snap = Snapshot(
        nodes=[
            node("w", None, "Window", "App", (0, 0, 800, 600)),
            Node(
                handle="next",
                parent=0,
                role="Button",
                native_role="push button",
                description="Next (F3)",
                rect=Rect.from_xywh(10, 10, 24, 24),
                states=SHOWN,
            ),
            Node(
                handle="count",
                parent=0,
                role="Button",
                native_role="push button",
                description="<p style='white-space:pre'>Calculate number of words\n(For huge texts.)</p>",
                rect=Rect.from_xywh(40, 10, 24, 24),
                states=SHOWN,
            ),
            Node(
                handle="save",
                parent=0,
                role="Button",
                native_role="push button",
                name="Save",
                description="Save the current tab",
                rect=Rect.from_xywh(70, 10, 24, 24),
                states=SHOWN,
            ),
            Node(
                handle="label",
                parent=0,
                role="Text",
                native_role="label",
                value="Encoding: UTF-8",
                description="the file's encoding",
                rect=Rect.from_xywh(100, 10, 200, 24),
                states=SHOWN,
            ),
            Node(
                handle="plain",
                parent=0,
                role="Button",
                native_role="push button",
                rect=Rect.from_xywh(310, 10, 24, 24),
                states=SHOWN,
            ),
        ]
    )
    names = [t.name for t in targets_from_snapshot(snap, SCREEN)]
    assert names == ["Next (F3)", "Calculate number of words (For huge texts.)", "Save", "Encoding: UTF-8", ""]


def test_a_button_that_only_wraps_a_same_named_button_is_listed_once():
    """GTK 4's menu button: an inert button "Menu" holding the button "Menu" that acts. The one
    that acts is listed, under the wrapper's parent; a wrapper that acts itself stays."""
    click = frozenset({Operation.INVOKE})
    snap = Snapshot(
        nodes=[
            node("w", None, "Window", "App", (0, 0, 800, 600)),
            node("outer", 0, "Button", "Menu", (10, 10, 34, 34)),
            node("inner", 1, "Button", "Menu", (15, 15, 24, 24), ops=click),
            node("split", 0, "Button", "Open", (50, 10, 60, 34), ops=click),
            node("part", 3, "Button", "Open", (55, 15, 24, 24), ops=click),
        ]
    )
    targets = targets_from_snapshot(snap, SCREEN)
    assert [(t.handle, t.parent_id) for t in targets] == [("inner", None), ("split", None), ("part", 1)]


def test_an_unnamed_button_is_named_by_what_wraps_it_alone():
    """LibreOffice's sidebar: a toolbar named after the deck holds a panel with the tooltip,
    which holds the unnamed button. The button takes the tooltip; the panel and the toolbar
    (whose name the tooltip says) are not listed. A wrapper holding more than the button, or
    one that acts, lends nothing."""
    click = frozenset({Operation.INVOKE})
    nodes = [
        node("w", None, "Window", "App", (0, 0, 800, 600)),
        node("bar", 0, "ToolBar", "Gallery", (700, 10, 40, 40)),
        Node(
            handle="panel",
            parent=1,
            role="Pane",
            native_role="panel",
            description="Gallery (Ctrl+Alt+3)",
            rect=Rect.from_xywh(700, 10, 40, 40),
            states=SHOWN,
            child_count=1,
        ),
        node("deck", 2, "Button", "", (704, 14, 32, 32), ops=click),
        node("tools", 0, "ToolBar", "Tools", (10, 10, 200, 40)),
        node("one", 4, "Button", "", (14, 14, 32, 32), ops=click),
        node("two", 4, "Button", "Cut", (50, 14, 32, 32), ops=click),
    ]
    nodes[1] = Node(**{**nodes[1].__dict__, "child_count": 1})
    nodes[4] = Node(**{**nodes[4].__dict__, "child_count": 2})
    targets = targets_from_snapshot(Snapshot(nodes=nodes), SCREEN)
    assert [(t.handle, t.name) for t in targets] == [
        ("deck", "Gallery (Ctrl+Alt+3)"),
        ("tools", "Tools"),
        ("one", ""),
        ("two", "Cut"),
    ]


def test_an_unnamed_button_is_named_by_the_one_text_it_shows():
    """GTK 4's column header: an unnamed button, two layout panels, its label, and a sort arrow
    beside it. The button takes the label's text, and the label is not listed again. A button
    holding two texts, or something that acts, or a text drawn at no size (a hidden stack
    page), is not named by them."""
    click = frozenset({Operation.INVOKE})

    def holding(n: Node, count: int) -> Node:
        return Node(**{**n.__dict__, "child_count": count})

    nodes = [
        holding(node("w", None, "Window", "App", (0, 0, 800, 600)), 3),
        holding(node("header", 0, "Button", "", (10, 10, 200, 24), ops=click), 1),
        holding(node("box", 1, "Pane", "", (10, 10, 200, 24)), 2),
        holding(node("inner", 2, "Pane", "", (10, 10, 60, 24)), 1),
        node("label", 3, "Text", "Size", (10, 10, 60, 24)),
        node("arrow", 2, "Image", "", (190, 10, 16, 24)),
        holding(node("two", 0, "Button", "", (10, 40, 200, 24), ops=click), 2),
        node("a", 6, "Text", "Left", (10, 40, 60, 24)),
        node("b", 6, "Text", "Right", (80, 40, 60, 24)),
        holding(node("combo", 0, "Button", "", (10, 70, 200, 24), ops=click), 2),
        node("hidden page", 9, "Text", "(None)", (10, 70, 0, 0)),
        node("shown page", 9, "Text", "Text Files", (10, 70, 100, 24)),
    ]
    targets = targets_from_snapshot(Snapshot(nodes=nodes), SCREEN)
    assert [(t.handle, t.name) for t in targets if t.type == "Button"] == [
        ("header", "Size"),
        ("two", ""),
        ("combo", "Text Files"),
    ]
    assert "label" not in {t.handle for t in targets}
    assert next(t for t in targets if t.handle == "header").derived_from == "name: the text it holds"
    acting = [
        holding(nodes[0], 2),
        holding(node("outer", 0, "Button", "", (10, 10, 200, 24), ops=click), 1),
        holding(node("check", 1, "CheckBox", "", (10, 10, 20, 24), ops=click), 1),
        node("text", 2, "Text", "Wrap", (30, 10, 60, 24)),
    ]
    assert next(t for t in targets_from_snapshot(Snapshot(nodes=acting), SCREEN) if t.handle == "outer").name == ""


def test_a_field_without_a_name_of_its_own_is_named_by_the_label_before_it():
    """Qt names an unlabelled spin box or line edit after its group box: such a field, or an
    unnamed one, takes the label just before it (beside it on its row, or right above it). A
    label of symbols ("×") names nothing and the search stops at the field before it; a field
    with a name of its own, or a label elsewhere, is left alone. The field's own name is kept
    in derived_from."""
    set_value = frozenset({Operation.SET_VALUE})
    nodes = [
        node("w", None, "Window", "Prefs", (0, 0, 800, 600)),
        node("group", 0, "Group", "Window Settings", (10, 10, 500, 300)),
        node("size", 1, "Text", "Start with this size:", (20, 40, 130, 26)),
        node("width", 1, "Spinner", "Window Settings", (160, 40, 80, 26), ops=set_value),
        node("times", 1, "Text", "×", (245, 40, 10, 26)),
        node("height", 1, "Spinner", "Window Settings", (260, 40, 80, 26), ops=set_value),
        node("cmd label", 1, "Text", "Start with this command:", (20, 100, 200, 20)),
        node("cmd", 1, "Edit", "", (20, 122, 300, 26)),
        node("far", 1, "Text", "Elsewhere", (400, 200, 80, 20)),
        node("named", 1, "Edit", "Own name", (20, 200, 300, 26)),
    ]
    named = {t.handle: t for t in targets_from_snapshot(Snapshot(nodes=nodes), SCREEN)}
    assert named["width"].name == "Start with this size:"
    assert named["width"].derived_from == "name: the label beside it; its own is 'Window Settings'"
    assert named["height"].name == "Window Settings" and named["height"].derived_from is None
    assert named["cmd"].name == "Start with this command:"
    assert named["cmd"].derived_from == "name: the label beside it; its own is ''"
    assert named["named"].name == "Own name"


def test_a_web_field_is_named_by_the_text_before_it_inline_or_in_a_box_above():
    """Firefox writes a paragraph's input into its text as an object character ("Email: ￼"):
    the text before that character names the input (Chromium also lists that text as a child,
    which is not counted as an object). Chromium puts a <div>'s text in a child: a box holding
    one text, right above a field, names it."""
    nodes = [
        Node(**{**node("doc", None, "Document", "Page", (0, 0, 800, 600)).__dict__, "child_count": 4}),
        Node(
            **{
                **node("p", 0, "Paragraph", "", (10, 10, 500, 24), value="Email: \ufffc then \ufffc").__dict__,
                "child_count": 2,
            }
        ),
        node("email", 1, "Edit", "", (60, 10, 150, 24)),
        node("second", 1, "Edit", "", (260, 10, 150, 24)),
        Node(**{**node("div", 0, "Group", "", (10, 50, 500, 20)).__dict__, "child_count": 1}),
        node("div text", 4, "Text", "Phone number", (10, 50, 100, 20)),
        node("phone", 0, "Edit", "", (10, 72, 150, 24)),
    ]
    named = {t.handle: t.name for t in targets_from_snapshot(Snapshot(nodes=nodes), SCREEN)}
    assert named["email"] == "Email:" and named["second"] == "then" and named["phone"] == "Phone number"
    chromium = [  # the same paragraph, its text run also a child of its own
        Node(**{**node("doc", None, "Document", "Page", (0, 0, 800, 600)).__dict__, "child_count": 1}),
        Node(**{**node("p", 0, "Paragraph", "", (10, 10, 500, 24), value="Email: \ufffc").__dict__, "child_count": 2}),
        node("run", 1, "Text", "Email:", (10, 10, 50, 24)),
        node("email", 1, "Edit", "", (60, 10, 150, 24)),
    ]
    assert {t.handle: t.name for t in targets_from_snapshot(Snapshot(nodes=chromium), SCREEN)}["email"] == "Email:"


def test_an_element_reached_twice_is_listed_once():
    """Swing shows a popup menu in its layered pane, and its items are also the children of their
    menu: the same elements, met twice in one walk, were listed twice with the same ids."""
    snap = Snapshot(
        nodes=[
            node("w", None, "Window", "App", (0, 0, 800, 600)),
            node("popup", 0, "Menu", "", (100, 20, 200, 100)),
            node("item", 1, "MenuItem", "Global Options...", (100, 20, 200, 20), ops=frozenset({Operation.INVOKE})),
            node("bar", 0, "MenuBar", "", (0, 0, 800, 20)),
            node("tools", 3, "Menu", "Utilities", (0, 0, 60, 20), ops=frozenset({Operation.INVOKE})),
            node("item", 4, "MenuItem", "Global Options...", (100, 20, 200, 20), ops=frozenset({Operation.INVOKE})),
        ]
    )
    handles = [t.handle for t in targets_from_snapshot(snap, SCREEN)]
    assert handles == ["popup", "item", "tools"]


def test_a_menu_open_where_nothing_is_listed_is_reported():
    """An open menu (a window of its own) that no listed element lies in: Qt's context menus."""
    from winactions.perception.provider import unlisted_popups

    menu = Rect.from_xywh(960, 536, 348, 260)
    editor = Target(id=1, type="Edit", name="", rect=Rect.from_xywh(0, 60, 1920, 900))
    under = Target(id=3, type="Button", name="Next (F3)", rect=Rect.from_xywh(1170, 745, 24, 23))
    item = Target(id=2, type="MenuItem", name="Select All", rect=Rect.from_xywh(962, 690, 344, 24))
    assert unlisted_popups([menu], [editor, under]) == [menu]  # the window's controls under it do not count
    assert unlisted_popups([menu], [editor, under, item]) == []
    # a popover its backend placed in the popup (GTK 4: a field and buttons, no menu item) lists it
    popover = Node(
        handle=":1.5/popover",
        parent=None,
        role="Pane",
        native_role="filler",
        rect=menu,
        extra={IN_POPUP: "a GTK 4 popover moved by (-23, 13)"},
    )
    assert unlisted_popups([menu], [editor, under], [popover]) == []
    assert unlisted_popups([menu], [editor, under], [dataclasses.replace(popover, extra={})]) == [menu]


def test_an_open_menu_is_listed_before_the_window_it_covers():
    """LibreOffice's context menu, a window of its own that the backend adds last (under the
    frame, placed where the X server shows it): it was listed after every cell of the sheet.
    Its elements come first; a cell under it stays in its place; parent links follow."""
    snapshot = table_snapshot(3)
    base = len(snapshot.nodes)
    menu = [
        node("popup", 0, "Window", "", (200, 110, 220, 120)),
        node("menu", base, "Menu", "", (200, 110, 220, 120)),
        node("cut", base + 1, "MenuItem", "Cut", (202, 112, 216, 24), ops=frozenset({Operation.INVOKE})),
        node("copy", base + 1, "MenuItem", "Copy", (202, 136, 216, 24), ops=frozenset({Operation.INVOKE})),
    ]
    opened = Snapshot(nodes=[*snapshot.nodes, *menu], popups=[Rect.from_xywh(200, 110, 220, 120)])
    targets = targets_from_snapshot(opened, SCREEN)
    assert [(t.type, t.name) for t in targets[:3]] == [("Menu", ""), ("MenuItem", "Cut"), ("MenuItem", "Copy")]
    assert targets[1].parent_id == 0 and targets[2].parent_id == 0
    table = next(i for i, t in enumerate(targets) if t.type == "Table")
    cells = [t for t in targets if t.type == "DataItem"]
    assert len(cells) == 9 and all(t.parent_id == table for t in cells)  # r1c1, wholly under the menu, stays
    assert [t.name for t in targets[3:]] == [t.name for t in targets_from_snapshot(snapshot, SCREEN)]
    closed = opened.model_copy(update={"popups": []})  # the X server shows no menu there: document order
    assert [t.name for t in targets_from_snapshot(closed, SCREEN)][-2:] == ["Cut", "Copy"]
