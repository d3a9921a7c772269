"""Seed 003's computer-use tools as winctl commands, checked by the fixture app's own log."""

from __future__ import annotations

import json
import time

import pytest
from PIL import Image

from tests.conftest import start_app, stop_app
from tests.fixtures.applog import AppLog
from tests.fixtures.launch import gtk_fixture_command

pytestmark = pytest.mark.desktop
TITLE = "Computer Use Fixture"


@pytest.fixture
def app(desktop, tmp_path, winctl):
    log = tmp_path / "events.jsonl"
    proc = start_app(desktop, gtk_fixture_command(str(log), rows=30, title=TITLE), TITLE)
    winctl("focus", TITLE)
    yield AppLog(str(log))
    stop_app(proc)


def rect_of(winctl, type_, name):
    state = winctl.state("--verbose")
    return next(t["rect"] for t in state["targets"] if t["type"] == type_ and t["name"] == name)


def test_find_and_act_by_selector(winctl, app):
    found = winctl("--json", "find", "--type", "button").json["result"]["targets"]
    assert {"Apply", "Reset", "Open Dialog", "Add Row"} <= {t["name"] for t in found}
    out = winctl("click-element", "--name", "Apply").out
    assert "via action:click" in out
    app.wait_for("clicked", widget="Apply")
    winctl("type-into-element", "--name", "Name", "--type", "Edit", "by selector")
    app.wait_for("entry_changed", text="by selector")
    run = winctl("click-element", "--name", "Name", expect=2)  # an Edit, a label and a column header
    assert "3 elements are named 'Name': [" in run.err and "--type" in run.err
    assert winctl("click-element", "--name", "No such thing", expect=3).code == 3
    assert winctl("click-element", expect=2).code == 2


def test_batch_runs_steps_in_order_and_stops_at_a_failure(winctl, app):
    apply = winctl.find("Button", "Apply")
    steps = [
        {"command": "click", "args": {"id": apply}},
        {"command": "click", "args": {"id": apply}},
        {"command": "click", "args": {"id": 99999}},
        {"command": "click", "args": {"id": apply}},
    ]
    stopped = winctl("--json", "batch", json.dumps(steps), expect=3).json
    data = stopped["result"]
    assert data["completed"] == 2 and data["total"] == 4 and len(data["steps"]) == 3
    assert data["steps"][2]["error"]["code"] == "not_found"
    # a batch whose step failed is a failed call: the exit code and `ok` say so, not only a count
    assert stopped["ok"] is False and stopped["error"]["code"] == "not_found"
    assert "step 3 of 4 (click) failed" in stopped["error"]["message"]
    assert "done: 1, 2; not run: 1" in stopped["error"]["message"]
    app.wait_for("clicked", widget="Apply", count=2)
    time.sleep(0.3)
    assert not app.events("clicked", count=3)
    text = winctl("batch", json.dumps(steps), "--keep-going", expect=3)
    assert text.out.startswith("batch: 3 of 4 steps done") and "step 3 of 4 (click) failed" in text.err
    app.wait_for("clicked", widget="Apply", count=5)
    assert winctl("batch", "not json", expect=2).code == 2
    assert winctl("batch", json.dumps([{"command": "batch"}]), expect=2).code == 2


def test_mouse_primitives_drag_the_splitter(winctl, app):
    state = winctl.state("--verbose")
    paned = next(t for t in state["targets"] if t["type"] == "SplitPane")
    x, y = paned["rect"][0] + int(paned["value"]), (paned["rect"][1] + paned["rect"][3]) // 2
    winctl("mouse-down", str(x), str(y))
    for step in (20, 40, 60):
        winctl("mouse-move", str(x + step), str(y))
    assert json.loads(winctl("--json", "cursor").out)["result"]["value"] == [x + 60, y]
    winctl("mouse-up")
    app.wait_for("paned_position", position=int(paned["value"]) + 60)


def test_scroll_at_press_and_hold(winctl, app):
    table = rect_of(winctl, "Table", "Files")
    winctl("scroll-at", str((table[0] + table[2]) // 2), str((table[1] + table[3]) // 2), "down", "5")
    app.wait_for("scrolled")
    mark = app.mark()
    winctl("press", "Down", "3")
    deadline = time.monotonic() + 5  # the app logs each key as its main loop gets to it
    while len(app.events("key", since=mark, keyval="Down")) < 3 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert len(app.events("key", since=mark, keyval="Down")) == 3
    mark = app.mark()
    winctl("hold-key", "shift", "0.3")
    app.wait_for("key", since=mark, keyval="Shift_L")


def test_zoom_enlarges_a_region(winctl, app, tmp_path):
    apply = rect_of(winctl, "Button", "Apply")
    path = tmp_path / "zoom.png"
    winctl(
        "zoom",
        str(apply[0]),
        str(apply[1]),
        str(apply[2] - apply[0]),
        str(apply[3] - apply[1]),
        "--scale",
        "3",
        "--path",
        str(path),
    )
    image = Image.open(path)
    assert image.size == (3 * (apply[2] - apply[0]), 3 * (apply[3] - apply[1]))
    assert winctl("zoom", "5000", "5000", "10", "10", expect=2).code == 2


def test_clipboard_both_ways(winctl, app):
    winctl("clipboard", "pasted ✓ text")
    assert winctl("clipboard").out.strip() == "pasted ✓ text"
    name = winctl.find("Edit", "Name")
    winctl("input", str(name), "")
    winctl("click", str(name), "--via", "input")
    winctl("keys", "ctrl+v")
    app.wait_for("entry_changed", text="pasted ✓ text")
    winctl("input", str(name), "copied from the app")
    winctl("click", str(name), "--via", "input")
    winctl("keys", "ctrl+a ctrl+c")
    deadline = time.monotonic() + 5
    while winctl("clipboard").out.strip() != "copied from the app":
        assert time.monotonic() < deadline, winctl("clipboard").out
        time.sleep(0.2)
