"""Which sheet cells a read takes again by their paths, and which it asks the app for anew.

LibreOffice Calc keeps every cell object it hands out for good, while at-spi2-atk keeps the
object's path for 15 s (measured: a path read 15 s after it was handed out answers, 35 s
after it does not). A read asks for a place only when no object for it was handed out in
the last LEASE_SECONDS; a hit test is spared while the last grid's corner cell is leased.
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


def test_a_place_handed_out_lately_is_taken_again_and_an_old_one_is_not():
    clock = Clock()
    leases = CellLeases(clock)
    leases.keep(SHEET, (3, 2), cell(1))
    clock.now += LEASE_SECONDS - 0.5
    assert leases.get(SHEET, (3, 2)) == cell(1)
    assert leases.get(OTHER, (3, 2)) is None  # another sheet's place is another cell
    clock.now += 1.0  # past the lease: the app may have dropped the path, ask again
    assert leases.get(SHEET, (3, 2)) is None


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
