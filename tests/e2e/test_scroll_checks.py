"""`scroll` says it scrolled only when something under the wheel moved.

A wheel event is accepted by every window and reported by none: whether it scrolled shows only
in what the app paints. An element the wheel moved nothing in is a failure that says so.
"""

from __future__ import annotations

import pytest

from tests.e2e.helpers.apps import ids, wait_for
from tests.e2e.helpers.office import invoices_csv

pytestmark = pytest.mark.desktop


def scroll_bar_values(winctl) -> list[str]:
    """What Gnumeric's own scroll bars read (its tree's ScrollBar values)."""
    return [t.get("value", "") for t in winctl("--json", "state").json["result"]["targets"] if t["type"] == "ScrollBar"]


def test_a_wheel_that_moves_nothing_in_gnumeric_is_a_failure(winctl, daemon, launch, tmp_path):
    """Agent trial, round 2: `scroll 74 down 5` on Gnumeric's sheet printed `via wheel — down 5`
    and the sheet did not move. Element 74 is Gnumeric's only canvas in the tree, a header cell
    55 pixels wide; the grid itself is no element, and the wheel over that cell moves nothing.
    Now nothing moved is exit 4, saying so, through the one-shot CLI and the daemon; Gnumeric's
    own scroll bars still read 0."""
    data = invoices_csv(tmp_path / "invoices.csv", rows=200)
    launch(["gnumeric", str(data)], title="invoices.csv")
    state = wait_for(winctl, ("Canvas", None))
    canvas = ids(state, "Canvas")[0]
    assert set(scroll_bar_values(winctl)) == {"0"}
    for front in (winctl, daemon):
        failed = front("scroll", str(canvas), "down", "5", expect=4)
        assert "nothing in element" in failed.err and "moved" in failed.err, failed.err
        assert "via wheel" not in failed.out
        assert set(scroll_bar_values(winctl)) == {"0"}


def test_a_wheel_that_scrolls_the_sheet_still_says_so(winctl, launch, tmp_path):
    """The other side of the check: the wheel over Gnumeric's scroll bar moves the sheet, the
    move is seen and the scroll reports success, and the bar's own value has changed."""
    data = invoices_csv(tmp_path / "invoices.csv", rows=200)
    launch(["gnumeric", str(data)], title="invoices.csv")
    state = wait_for(winctl, ("Canvas", None))
    bar = ids(state, "ScrollBar")[0]
    done = winctl("scroll", str(bar), "down", "5")
    print(done.out)
    assert "via wheel" in done.out, done.out
    assert any(v != "0" for v in scroll_bar_values(winctl))
