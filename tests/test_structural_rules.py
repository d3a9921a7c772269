"""The Tier 1+ rules on hand-made geometry: what counts as adjacent, and what does not."""

from winactions.model import Node, Rect, Target
from winactions.perception.structural import column_borders, splitters


def header(name, left, right, parent=7):
    return Target(id=0, type="HeaderItem", name=name, rect=Rect(left=left, top=10, right=right, bottom=30),
                  parent_id=parent, handle=name)


def test_adjacent_headers_give_a_border_at_the_first_ones_right_edge():
    borders = column_borders([header("A", 0, 100), header("B", 100, 250), header("C", 250, 300)])
    assert [(b.name, b.rect.center[0]) for b in borders] == [("A | B", 100), ("B | C", 250)]
    assert borders[0].derived_from == "border_x = [#0].rect.right = [#1].rect.left"


def test_headers_far_apart_or_in_other_tables_give_none():
    assert column_borders([header("A", 0, 100), header("B", 140, 200)]) == []
    assert column_borders([header("A", 0, 100, parent=1), header("B", 100, 200, parent=2)]) == []


def node(role, parent, rect, states=frozenset({"visible", "showing"})):
    return Node(handle=f"{role}{rect}", parent=parent, role=role, native_role=role, rect=Rect.from_xywh(*rect),
                states=states)


def test_splitter_between_two_panes_horizontal_and_vertical():
    side_by_side = [node("SplitPane", None, (0, 0, 600, 400)), node("Pane", 0, (0, 0, 300, 400)),
                    node("Pane", 0, (305, 0, 295, 400))]
    (s,) = splitters(side_by_side, [])
    assert s.rect.left <= 300 and s.rect.right >= 305 and s.rect.height == 400
    stacked = [node("SplitPane", None, (0, 0, 600, 400)), node("Pane", 0, (0, 0, 600, 200)),
               node("Pane", 0, (0, 206, 600, 194))]
    (s,) = splitters(stacked, [])
    assert s.rect.top <= 200 and s.rect.bottom >= 206 and s.rect.width == 600
