"""The Tier 1+ rules on hand-made geometry: what counts as adjacent, and what does not."""

from winactions.model import Node, Rect, Target
from winactions.perception.structural import column_borders, panel_edges, splitters


def header(name, left, right, parent=7):
    return Target(
        id=0,
        type="HeaderItem",
        name=name,
        rect=Rect(left=left, top=10, right=right, bottom=30),
        parent_id=parent,
        handle=name,
    )


def test_adjacent_headers_give_a_border_at_the_first_ones_right_edge():
    borders = column_borders([header("A", 0, 100), header("B", 100, 250), header("C", 250, 300)])
    assert [(b.name, b.rect.center[0]) for b in borders] == [("A | B", 100), ("B | C", 250)]
    assert borders[0].derived_from == "border_x = [#0].rect.right = [#1].rect.left"


def test_headers_far_apart_or_in_other_tables_give_none():
    assert column_borders([header("A", 0, 100), header("B", 140, 200)]) == []
    assert column_borders([header("A", 0, 100, parent=1), header("B", 100, 200, parent=2)]) == []


def test_buttons_in_a_header_row_count_as_column_headers():
    # Windows Explorer's details view: SplitButtons of class UIColumnHeader inside a Header
    nodes = [
        Node(handle="list", parent=None, role="List", native_role="List"),
        Node(handle="hdr", parent=0, role="Header", native_role="Header"),
        *(Node(handle=n, parent=1, role="SplitButton", native_role="SplitButton") for n in "AB"),
        Node(handle="C", parent=0, role="SplitButton", native_role="SplitButton"),
    ]
    buttons = [
        header(n, left, right).model_copy(update={"type": "SplitButton"})
        for n, left, right in (("A", 0, 100), ("B", 100, 200), ("C", 200, 300))
    ]
    assert [b.name for b in column_borders(buttons, nodes)] == ["A | B"]  # C is not in the header
    assert column_borders(buttons) == []  # without the tree, a row of buttons is just buttons


def node(role, parent, rect, states=frozenset({"visible", "showing"})):
    return Node(
        handle=f"{role}{rect}", parent=parent, role=role, native_role=role, rect=Rect.from_xywh(*rect), states=states
    )


def test_splitter_between_two_panes_horizontal_and_vertical():
    side_by_side = [
        node("SplitPane", None, (0, 0, 600, 400)),
        node("Pane", 0, (0, 0, 300, 400)),
        node("Pane", 0, (305, 0, 295, 400)),
    ]
    (s,) = splitters(side_by_side, [])
    assert s.rect.left <= 300 and s.rect.right >= 305 and s.rect.height == 400
    stacked = [
        node("SplitPane", None, (0, 0, 600, 400)),
        node("Pane", 0, (0, 0, 600, 200)),
        node("Pane", 0, (0, 206, 600, 194)),
    ]
    (s,) = splitters(stacked, [])
    assert s.rect.top <= 200 and s.rect.bottom >= 206 and s.rect.width == 600


def test_docked_panes_that_touch_share_a_panel_grip_and_a_gap_is_a_splitter():
    ide = [
        node("Document", None, (0, 0, 1000, 600)),
        node("Group", 0, (0, 0, 240, 600)),
        node("Group", 0, (240, 0, 760, 420)),
        node("Group", 0, (240, 426, 760, 174)),
    ]
    kinds = sorted((t.type, t.rect.center) for t in panel_edges(ide, []))
    # the sidebar's edge against the editor; the editor above the bottom panel, 6 px apart
    assert ("PanelGrip", (240, 210)) in kinds  # along the edge the two share: 0..420
    assert any(kind == "Splitter" and 420 <= centre[1] <= 426 for kind, centre in kinds)
    grip = next(t for t in panel_edges(ide, []) if t.type == "PanelGrip")
    assert grip.confidence == 0.7 and grip.derived_from.startswith("grip_x = Group.rect.right")


def test_panes_that_do_not_fill_their_container_or_sit_in_a_split_pane_give_none():
    form = [
        node("Group", None, (0, 0, 1000, 600)),
        node("Group", 0, (20, 20, 300, 500)),
        node("Group", 0, (320, 20, 300, 500)),
    ]
    assert panel_edges(form, []) == []  # two boxes in a form: they stop well short of the edge
    short = [
        node("Group", None, (0, 0, 1000, 600)),
        node("Group", 0, (0, 0, 500, 100)),
        node("Group", 0, (500, 0, 500, 100)),
    ]
    assert [t.type for t in panel_edges(short, [])] == []  # a toolbar row, not docked panels
    split = [
        node("SplitPane", None, (0, 0, 600, 400)),
        node("Pane", 0, (0, 0, 300, 400)),
        node("Pane", 0, (300, 0, 300, 400)),
    ]
    assert panel_edges(split, []) == []  # the split pane's divider is the splitters rule's


def test_an_unknown_tier_choice_is_refused_not_silently_ignored():
    import pytest

    from winactions.llm.config import LLMFlags
    from winactions.perception.tiers import compose

    with pytest.raises(ValueError, match="infer is one of"):
        compose(object(), True, "off", LLMFlags())  # type: ignore[arg-type]
    assert [type(p).__name__ for p in compose(object(), "rules", "off", LLMFlags())][1:] == ["StructuralProvider"]


def test_rules_that_find_nothing_report_nothing():
    from winactions.model import WindowInfo
    from winactions.perception.provider import Detection
    from winactions.perception.structural import StructuralProvider

    button = Target(id=0, type="Button", name="OK", rect=Rect(left=0, top=0, right=80, bottom=30))
    found = StructuralProvider().detect(
        None,
        WindowInfo(id="1", title="t", pid=1),  # type: ignore[arg-type]
        Detection([button], node_count=1),
    )
    assert found.targets == [button] and found.reports == ["rules: +nothing"]
