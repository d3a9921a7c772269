"""The wheel's way to an element out of view, against a list modelled in a few lines: rows of
20 px, 3 rows to a notch, a view of 10 rows; rows far out of view have no place (GTK 3)."""

from winactions.model import Node, Rect
from winactions.session.wheel import Landmark, wheel_into_view

VIEW = Rect(left=0, top=100, right=300, bottom=300)


class ListOnScreen:
    """What `wheel_into_view` uses of a backend: `refresh` (where a row is now) and `scroll`."""

    def __init__(self, rows: int, first: int = 0, movable: bool = True) -> None:
        self.rows, self.first, self.movable, self.turned = rows, first, movable, []

    def refresh(self, handle: str) -> Node | None:
        row = int(handle)
        top = VIEW.top + (row - self.first) * 20
        near = VIEW.top - 100 <= top <= VIEW.bottom + 100  # farther, GTK 3 gives no place
        return Node(
            handle=handle,
            parent=None,
            role="DataItem",
            native_role="table cell",
            rect=Rect.from_xywh(0, top, 300, 20) if near else None,
        )

    def scroll(self, x: int, y: int, dx: int, dy: int) -> None:
        self.turned.append(dy)
        if self.movable:
            self.first = max(0, min(self.rows - 10, self.first + 3 * dy))

    def landmarks(self) -> list[Landmark]:
        return [
            Landmark(str(r), node.rect)
            for r in range(self.first, self.first + 3)
            if (node := self.refresh(str(r))) is not None and node.rect is not None
        ]


def shows(screen: ListOnScreen, row: int) -> bool:
    node = screen.refresh(str(row))
    return node is not None and node.rect is not None and VIEW.top <= node.rect.top and node.rect.bottom <= VIEW.bottom


def test_a_row_far_below_is_reached_in_bursts_then_counted_notches():
    screen = ListOnScreen(rows=100)
    turned = wheel_into_view(screen, "70", VIEW, screen.landmarks(), screen.landmarks)  # type: ignore[arg-type]
    assert turned == sum(screen.turned) and shows(screen, 70)
    assert turned <= 70 // 3 + 3, screen.turned  # about the notches needed, not a notch at a time


def test_a_row_above_is_reached_after_the_first_turns_find_the_list_at_its_end():
    screen = ListOnScreen(rows=100, first=90)
    assert wheel_into_view(screen, "2", VIEW, screen.landmarks(), screen.landmarks)  # type: ignore[arg-type]
    assert shows(screen, 2) and screen.turned[0] > 0 > screen.turned[-1]


def test_the_last_row_at_the_lists_end_is_enough():
    screen = ListOnScreen(rows=40)
    assert wheel_into_view(screen, "39", VIEW, screen.landmarks(), screen.landmarks)  # type: ignore[arg-type]
    assert shows(screen, 39)


def test_a_list_the_wheel_does_not_move_is_given_up_both_ways():
    screen = ListOnScreen(rows=100, movable=False)
    assert wheel_into_view(screen, "70", VIEW, screen.landmarks(), screen.landmarks) == 0  # type: ignore[arg-type]
    assert len(screen.turned) == 2 and screen.turned[0] == -screen.turned[1]  # down, then back up


def test_a_row_that_goes_away_stops_the_wheel():
    screen = ListOnScreen(rows=100)
    screen.refresh = lambda handle: None  # type: ignore[method-assign]
    assert wheel_into_view(screen, "70", VIEW, screen.landmarks(), screen.landmarks) == 0  # type: ignore[arg-type]
    assert screen.turned == []


def test_a_short_list_whose_notch_jumps_past_the_middle_is_not_turned_back_and_forth():
    """A view of 10 rows that a notch moves by 7: the row jumps over the middle half (5 rows)
    from below it to above it; once it passed the middle inside the view, the wheel stops
    instead of swinging back and forth for 200 notches."""
    screen = ListOnScreen(rows=100)
    real_scroll = screen.scroll

    def coarse(x: int, y: int, dx: int, dy: int) -> None:
        real_scroll(x, y, dx, dy)
        screen.first = max(0, min(screen.rows - 10, screen.first + 4 * dy))  # 3 + 4 = 7 rows a notch

    screen.scroll = coarse  # type: ignore[method-assign]
    turned = wheel_into_view(screen, "15", VIEW, screen.landmarks(), screen.landmarks)  # type: ignore[arg-type]
    assert turned and shows(screen, 15) and len(screen.turned) < 10, screen.turned
