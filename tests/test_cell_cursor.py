"""A mouse click on a sheet's cell is done only once the sheet shows its cell cursor there,
that cell alone selected: the mouse is the fallback when the cell's focus through the tree
does not take (Calc's Find toolbar holding the keys), and a click that landed elsewhere, or
added to a selection, would leave the next Bold or typed text on other cells."""

from __future__ import annotations

import pytest

from winactions.errors import ActionFailed
from winactions.execution import cursor_landed
from winactions.model import Node, Rect, Target

CELL = Rect(left=300, top=340, right=356, bottom=357)


class Sheet:
    """What the sheet answers about its cell cursor after the click."""

    def __init__(self, shows: str | None) -> None:
        self.shows = shows
        self.asked: list[str] = []

    def cursor_missed(self, handle: str) -> str | None:
        self.asked.append(handle)
        return self.shows


def d10() -> tuple[Target, Node]:
    return (
        Target(id=156, type="DataItem", name="D10", rect=CELL),
        Node(handle="cell", parent=None, role="DataItem", native_role="table cell", name="D10", rect=CELL),
    )


def test_a_cursor_elsewhere_fails_the_click_saying_what_the_sheet_shows():
    target, node = d10()
    sheet = Sheet("D10 has the cursor, but 2 cells are selected (D9, D10)")
    with pytest.raises(
        ActionFailed,
        match=r"clicked with the mouse at \(328, 348\), but the sheet's cell cursor "
        r"is not on it alone: D10 has the cursor, but 2 cells are selected",
    ):
        cursor_landed(sheet, target, node, 328, 348)  # type: ignore[arg-type]
    assert sheet.asked == ["cell"]


def test_the_cursor_on_the_cell_alone_is_a_done_click():
    target, node = d10()
    sheet = Sheet(None)
    cursor_landed(sheet, target, node, 328, 348)  # type: ignore[arg-type]
    assert sheet.asked == ["cell"]
