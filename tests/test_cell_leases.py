"""Which sheet cells a read takes again by their paths, and which it asks the app for anew.

LibreOffice Calc keeps every cell object it hands out for good, while at-spi2-atk keeps the
object's path for 15 s (measured: a path read 15 s after it was handed out answers, 35 s
after it does not). A read asks for a place only when no object for it was handed out in
the last LEASE_SECONDS, and after a scroll by a row it asks for the new row's cells only.
"""

from __future__ import annotations

from winactions.backends.linux.cell_leases import LEASE_SECONDS, CellLeases

SHEET = (":1.2", "/org/a11y/atspi/accessible/1498")
OTHER = (":1.2", "/org/a11y/atspi/accessible/77")


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def cell(n: int) -> tuple[str, str]:
    return ":1.2", f"/org/a11y/atspi/accessible/{3000 + n}"


def cross(r0: int, c0: int, r1: int, c1: int) -> list[tuple[int, int]]:
    """The first row and column of a grid: what a read wants for the places of rows and columns."""
    return [(r0, c) for c in range(c0, c1 + 1)] + [(r, c0) for r in range(r0 + 1, r1 + 1)]


def test_a_place_handed_out_lately_is_taken_again_and_an_old_one_is_not():
    clock = Clock()
    leases = CellLeases(clock)
    leases.keep(SHEET, (3, 2), cell(1))
    clock.now += LEASE_SECONDS - 0.5
    assert leases.get(SHEET, (3, 2)) == cell(1)
    assert leases.get(OTHER, (3, 2)) is None  # another sheet's place is another cell
    clock.now += 1.0  # past the lease: the app may have dropped the path, ask again
    assert leases.get(SHEET, (3, 2)) is None


def test_after_a_scroll_by_a_row_leased_cells_in_view_give_places_and_none_out_of_view():
    """A cell scrolled out of view has no extent (LibreOffice says 0 x 0): it gives no column's
    place. The first column's cells still in view, and the corner's hit cell of the new last
    row, are taken again; the new first row is asked for, and the new row's first cell."""
    clock = Clock()
    leases = CellLeases(clock)
    for n, place in enumerate(cross(10, 0, 59, 26)):
        leases.keep(SHEET, place, cell(n))
    leases.keep(SHEET, (60, 26), cell(99))  # the hit test of the new bottom-right corner
    scrolled = (11, 0, 60, 26)
    chosen = leases.stand_ins(SHEET, cross(*scrolled), scrolled)
    asked = [p for p in chosen if leases.get(SHEET, p) is None]
    assert asked == [(11, c) for c in range(1, 26)] + [(60, 0)]
    assert (60, 26) in chosen and (11, 26) not in chosen  # column 26's place from the hit cell
    assert not any(r == 10 for r, _ in chosen)  # out of view: never a stand-in
    assert {(r, 0) for r in range(11, 61)} <= set(chosen)  # the first column is always read


def test_with_nothing_leased_the_first_row_and_column_are_asked_for():
    leases = CellLeases(Clock())
    wanted = cross(0, 0, 49, 26)
    assert leases.stand_ins(SHEET, wanted, (0, 0, 49, 26)) == wanted


def test_the_corner_of_the_last_grid_is_known_while_its_cell_is_leased():
    clock = Clock()
    leases = CellLeases(clock)
    leases.set_grid(SHEET, (4, 1, 53, 27))
    assert leases.corner(SHEET, True) is None  # no object for it: a hit test is needed
    leases.keep(SHEET, (4, 1), cell(1))
    leases.keep(SHEET, (53, 27), cell(2))
    assert leases.corner(SHEET, True) == ((4, 1), cell(1))
    assert leases.corner(SHEET, False) == ((53, 27), cell(2))
    clock.now += LEASE_SECONDS + 1
    assert leases.corner(SHEET, True) is None


def test_expired_cells_are_forgotten_and_do_not_pile_up():
    clock = Clock()
    leases = CellLeases(clock)
    for n in range(2000):
        leases.keep(SHEET, (n, 0), cell(n))
        clock.now += 0.1  # an agent reading all day: 10 cells a second
    kept = leases._tables[SHEET].cells
    assert len(kept) <= 4 * (LEASE_SECONDS / 0.1 + 1) + 64
    leases.keep(OTHER, (0, 0), cell(1))
    clock.now += LEASE_SECONDS + 1
    leases.keep(OTHER, (1, 0), cell(2))  # a sheet whose cells all expired is dropped
    assert SHEET not in leases._tables
