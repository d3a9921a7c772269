"""Tree reads stop at a node budget and a time budget, and say what they left out.

A GTK window with thousands of ordinary widgets (every one "showing", so a walk reads
them all) and one with a single box of thousands of children (read by hit tests of what
is visible, never listed).
"""

from __future__ import annotations

import re

import pytest

from tests.conftest import FIXTURES, SYSTEM_PYTHON, start_app, stop_app

pytestmark = pytest.mark.desktop


@pytest.fixture
def many(desktop):
    """6,000 buttons in 60 rows: about 6,100 accessible nodes, none of them managed."""
    title = "Budget Deep"
    proc = start_app(
        desktop,
        [SYSTEM_PYTHON, str(FIXTURES / "many_widgets.py"), "--title", title, "--boxes", "60", "--per-box", "100"],
        title,
    )
    yield title
    stop_app(proc)


def test_node_budget_cuts_the_read_and_says_how_much_was_left(winctl, many, monkeypatch):
    monkeypatch.setenv("WINCTL_MAX_NODES", "2000")
    winctl("focus", many)
    state = winctl.state()
    assert state["truncated"] is True
    assert state["node_count"] <= 2000
    message = next(w for w in state["warnings"] if w.startswith("read "))
    read, total = (int(n.replace(",", "")) for n in re.findall(r"[\d,]+(?= )", message)[:2])
    assert read == state["node_count"] and total > read, message
    assert "budget of 2,000 elements" in message and "WINCTL_MAX_NODES" in message
    assert "(truncated" in winctl("state").out


def test_time_budget_cuts_the_read(winctl, many, monkeypatch):
    monkeypatch.setenv("WINCTL_STATE_SECONDS", "0.3")
    winctl("focus", many)
    state = winctl.state()
    assert state["truncated"] is True
    assert any("0.3 s time budget" in w for w in state["warnings"]), state["warnings"]


def test_whole_window_is_read_within_the_default_budgets(winctl, many):
    winctl("focus", many)
    state = winctl.state()
    assert not state["truncated"], state["warnings"]
    names = {t["name"] for t in state["targets"] if t["type"] == "Button"}
    assert "r0-0" in names and "r59-99" not in names  # read, then clipped: row 59 is scrolled out


def test_bad_budget_settings_are_clear_errors(winctl, many, monkeypatch):
    monkeypatch.setenv("WINCTL_MAX_NODES", "lots")
    winctl("focus", many)
    run = winctl("state", expect=2)
    assert "WINCTL_MAX_NODES='lots' is not a whole number" in run.err and "internal error" not in run.err


def test_a_box_with_thousands_of_children_is_read_by_what_is_visible(winctl, desktop):
    title = "Budget Flat"
    proc = start_app(
        desktop, [SYSTEM_PYTHON, str(FIXTURES / "many_widgets.py"), "--title", title, "--flat", "5000"], title
    )
    try:
        winctl("focus", title)
        state = winctl.state()
        names = [t["name"] for t in state["targets"] if t["type"] == "Button"]
        assert "item-00000" in names and "item-04999" not in names
        assert 5 < len(names) < 100 and state["node_count"] < 200  # the visible ones, not 5,000
        first = winctl.find("Button", "item-00001", state)
        assert winctl("get", "text", str(first)).out.strip() == "item-00001"
    finally:
        stop_app(proc)
