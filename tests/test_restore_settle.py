"""A click on an element of a minimized window: the window manager has it back in place
before the app has caught up. The positions below are the ones a loaded galculator reported
for its 7 key, read again just after its window came back (six runs of the test in
tests/e2e/test_trust.py under load, each refused as "moved"); it had been seen at [800,559]."""

from __future__ import annotations

import pytest

from winactions import execution
from winactions.errors import StaleElement
from winactions.execution import _back_in_place, click_point
from winactions.model import Node, Rect, Target

SEEN = Rect(left=800, top=559, right=859, bottom=593)
ON_THE_WAY = [(865, 1076), (843, 901), (833, 813)]


class Replay:
    """The element as the app reports it, read after read: on its way back, then in place."""

    def __init__(self, places: list[tuple[int, int]]) -> None:
        self.places = places
        self.reads = 0

    def refresh(self, handle: str) -> Node:
        x, y = self.places[min(self.reads, len(self.places) - 1)]
        self.reads += 1
        return Node(
            handle=handle,
            parent=None,
            role="Button",
            native_role="push button",
            name="7",
            rect=Rect(left=x, top=y, right=x + 59, bottom=y + 34),
        )


def seven() -> tuple[Target, Node]:
    return (
        Target(id=33, type="Button", name="7", rect=SEEN),
        Node(handle="h", parent=None, role="Button", native_role="push button", name="7", rect=SEEN),
    )


def test_the_element_is_read_again_until_it_is_back_where_it_was_seen():
    target, node = seven()
    app = Replay([*ON_THE_WAY, (800, 559)])
    placed = _back_in_place(app, target, node)  # type: ignore[arg-type]
    assert placed.rect == SEEN and app.reads == 4
    assert click_point(target, placed) == SEEN.center


def test_an_element_that_moved_for_good_is_still_refused(monkeypatch):
    monkeypatch.setattr(execution, "RESTORE_SETTLE", 0.2)
    target, node = seven()
    placed = _back_in_place(Replay([(843, 901)]), target, node)  # type: ignore[arg-type]
    with pytest.raises(StaleElement, match="moved since the last state"):
        click_point(target, placed)
