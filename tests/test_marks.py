"""Label placement for annotated screenshots (issue 16.1), on the layouts that misled before:
stacked menu rows, a menu bar, a popup over a text area, and a grid too dense for labels."""

from __future__ import annotations

import itertools

from tests.marks_checker import problems
from winactions import marks
from winactions.model import Rect


def size_of(text: str) -> tuple[int, int]:
    return 7 * len(text) + 4, 14


def check(items: list[tuple[int, Rect]], width: int = 640, height: int = 480, ink=None) -> marks.Layout:
    layout = marks.place(items, size_of, Rect(left=0, top=0, right=width, bottom=height), ink)
    labels = {m.text: (m.label.left, m.label.top, m.label.right, m.label.bottom) for m in layout.marks}
    boxes = {m.text: (m.box.left, m.box.top, m.box.right, m.box.bottom) for m in layout.marks}
    assert problems(labels, boxes, (width, height)) == []
    return layout


def rows(first_id: int, count: int, top: int = 30, height: int = 25, width: int = 300) -> list[tuple[int, Rect]]:
    return [(first_id + i, Rect.from_xywh(0, top + i * height, width, height)) for i in range(count)]


def test_each_menu_row_gets_its_own_label_inside_it():
    items = rows(10, 18)
    layout = check(items)
    assert layout.unplaced == []
    for mark in layout.marks:  # the number sits in its own row, never in the row above
        row = dict(items)[mark.ids[0]]
        assert row.top <= mark.label.top and mark.label.bottom <= row.bottom


def test_adjacent_menu_bar_items_do_not_merge_into_one_number():
    bar = [
        (1, Rect(left=0, top=0, right=39, bottom=25)),
        (7, Rect(left=39, top=0, right=80, bottom=25)),
        (10, Rect(left=80, top=0, right=140, bottom=25)),
    ]
    layout = check(bar)
    assert [m.ids for m in layout.marks] == [[1], [7], [10]]
    a, b = layout.marks[0].label, layout.marks[1].label
    assert b.left - a.right >= 1 or a.left - b.right >= 1


def test_popup_rows_over_a_text_area_and_the_text_areas_label_outside_the_popup():
    text_area = (9, Rect(left=1, top=52, right=639, bottom=477))
    layout = check([text_area, *rows(10, 12, top=25)])
    assert layout.unplaced == []
    label = next(m.label for m in layout.marks if m.ids == [9])
    assert label.left >= 300  # not drawn inside a menu row that hides that part of the text area


def test_same_box_shares_one_label_and_a_label_avoids_ink():
    tab, edit = (8, Rect(left=0, top=0, right=400, bottom=300)), (9, Rect(left=1, top=1, right=399, bottom=299))
    layout = check([tab, edit], ink=lambda r: 1.0 if r.left < 100 else 0.0)
    assert [m.text for m in layout.marks] == ["8,9"]
    assert layout.marks[0].label.left >= 100  # text on the left: the label went right


def test_a_grid_too_dense_for_labels_is_reported_not_drawn_misleadingly():
    cells = [(i * 10 + j + 1, Rect.from_xywh(j * 6, i * 6, 6, 6)) for i in range(10) for j in range(10)]
    layout = check(cells, width=60, height=60)
    assert layout.unplaced  # some cells get no label ...
    assert sorted(layout.unplaced + [i for m in layout.marks for i in m.ids]) == list(range(1, 101))  # none lost
    region = marks.dense_region(layout.unplaced_boxes)
    assert region.width > 0 and region.height > 0


def test_neighbours_get_different_colours():
    layout = check(rows(1, 6))
    colours = [m.colour for m in sorted(layout.marks, key=lambda m: m.box.top)]
    assert all(a != b for a, b in itertools.pairwise(colours))


def test_the_checker_catches_the_old_rule():
    """The old placement (above the top-left corner) on stacked rows: each label sits in the
    row above, which the checker must reject."""
    items = rows(10, 3)
    labels = {str(i): (r.left, r.top - 14, r.left + 18, r.top) for i, r in items}
    boxes = {str(i): (r.left, r.top, r.right, r.bottom) for i, r in items}
    assert any("as near" in p for p in problems(labels, boxes, (640, 480)))
