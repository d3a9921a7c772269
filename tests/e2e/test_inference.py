"""Tier 1+ rules on real widgets (a GTK TreeView and Paned, a web table and sidebar in
Chromium): inferred borders are where the app has them, and dragging them really resizes."""

from __future__ import annotations

import shutil
import subprocess
import time

import pytest

from tests.conftest import FIXTURES, start_app, stop_app
from tests.fixtures.applog import AppLog
from tests.fixtures.launch import chromium_command, gtk_fixture_command

pytestmark = pytest.mark.desktop
TITLE = "Inference Fixture"


@pytest.fixture
def app(desktop, tmp_path, winctl):
    log = tmp_path / "events.jsonl"
    proc = start_app(desktop, gtk_fixture_command(str(log), rows=30, title=TITLE), TITLE)
    winctl("focus", TITLE)
    yield AppLog(str(log))
    stop_app(proc)


def inferred_state(winctl):
    return winctl("--json", "--infer", "state", "--verbose").json["result"]


def by(state, type_, name=None):
    return [t for t in state["targets"] if t["type"] == type_ and (name is None or t["name"] == name)]


def centre(rect):
    return (rect[0] + rect[2]) // 2, (rect[1] + rect[3]) // 2


def test_column_borders_sit_exactly_on_header_edges(winctl, app):
    state = inferred_state(winctl)
    headers = {t["name"]: t for t in by(state, "HeaderItem")}
    borders = {t["name"]: t for t in by(state, "ColumnBorder")}
    assert set(borders) == {"ID | Name", "Name | Size"}
    border = borders["ID | Name"]
    assert centre(border["rect"])[0] == headers["ID"]["rect"][2]  # 0 px error: the rule is exact
    assert border["source"] == "inferred" and border["confidence"] >= 0.7
    assert f"[{headers['ID']['id']}].rect.right" in border["derived_from"]
    assert by(state, "Splitter") and by(state, "ResizeHandle") and by(state, "RowBorder")
    plain = winctl.state()
    assert not by(plain, "ColumnBorder"), "inference only with --infer"
    again = inferred_state(winctl)
    assert [t["id"] for t in by(again, "ColumnBorder")] == [t["id"] for t in by(state, "ColumnBorder")]


def test_dragging_an_inferred_column_border_resizes_the_column(winctl, app):
    border = by(inferred_state(winctl), "ColumnBorder", "ID | Name")[0]
    x, y = centre(border["rect"])
    winctl("--infer", "drag", str(border["id"]), str(x + 50), str(y))
    app.wait_for("column_width", column="ID", width=60 + 50)


def test_dragging_the_inferred_splitter_moves_the_divider_by_the_same_amount(winctl, app):
    state = inferred_state(winctl)
    splitter = by(state, "Splitter")[0]
    x, y = centre(splitter["rect"])
    winctl("--infer", "drag", str(splitter["id"]), str(x + 100), str(y))
    press = app.wait_for("paned_press")
    assert press["x"] == x
    # only a press on the divider moves it, and then by the pointer's travel from the press;
    # under load GTK sometimes ends one motion step (5 px of the drag's 20) further: it took the
    # drag's start from a layout a frame old (seen in 2 of ~10 full runs, never alone)
    release = app.wait_for("paned_release")
    assert release["x"] == x + 100
    assert abs(app.wait_for("paned_position", since=press["seq"])["position"] - (press["position"] + 100)) <= 5


# --- Chromium: a web data tool whose grab areas are hit-tested by the page, not elements ---

GRID_TITLE = "Grid Fixture"


@pytest.fixture
def grid_page(desktop, winctl, tmp_path):
    if shutil.which("chromium") is None:
        pytest.fail("chromium is not installed: run scripts/setup.sh")
    page = (FIXTURES / "web" / "grid.html").as_uri()
    proc = start_app(desktop, chromium_command(page, str(tmp_path / "profile")), GRID_TITLE)
    winctl("focus", GRID_TITLE)
    deadline = time.monotonic() + 20
    while not by(winctl.state(), "HeaderItem"):  # the renderer's tree arrives after the window
        assert time.monotonic() < deadline, winctl("state").out
        time.sleep(0.5)
    yield
    stop_app(proc)


def wait_for_title(desktop, prefix: str) -> str:
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        out = subprocess.run(["wmctrl", "-l"], env=desktop.env, capture_output=True, text=True).stdout
        for line in out.splitlines():
            if prefix in line:
                return line.split(prefix, 1)[1].split(" - ")[0]
        time.sleep(0.2)
    raise AssertionError(f"no window title with {prefix!r}")


def test_chromium_table_column_borders_are_inferred_and_drag_resizes(winctl, desktop, grid_page):
    state = inferred_state(winctl)
    headers = {t["name"]: t for t in by(state, "HeaderItem")}
    borders = {t["name"]: t for t in by(state, "ColumnBorder")}
    assert set(borders) == {"Product | Qty", "Qty | Price"}
    for name, border in borders.items():
        assert centre(border["rect"])[0] == headers[name.split(" | ")[0]]["rect"][2]
    # Tier 1+ gives the place; `drag-at` acts on it like any coordinates (Tier 3a's last step)
    x, y = centre(borders["Qty | Price"]["rect"])
    winctl("drag-at", str(x), str(y), str(x + 40), str(y))
    widths = wait_for_title(desktop, "widths ").split(",")
    assert widths[2] == "120", widths  # the page's own measure: Qty was 80 wide
    after = {t["name"]: t for t in by(winctl.state("--verbose"), "HeaderItem")}
    width = lambda t: t["rect"][2] - t["rect"][0]  # noqa: E731
    assert width(after["Qty"]) - width(headers["Qty"]) == 40
    assert width(after["Product"]) == width(headers["Product"])


def test_chromium_sidebar_edge_is_a_panel_grip_and_dragging_it_resizes(winctl, desktop, grid_page):
    state = inferred_state(winctl)
    grip = by(state, "PanelGrip", "Explorer | Orders")[0]
    side = by(state, "Group", "Explorer")[0]
    assert centre(grip["rect"])[0] == side["rect"][2]
    assert grip["confidence"] >= 0.7 and f"[{side['id']}].rect.right" in grip["derived_from"]
    x, y = centre(grip["rect"])
    winctl("--infer", "drag", str(grip["id"]), str(x - 60), str(y))
    assert wait_for_title(desktop, "widths ").split(",")[0] == "140"  # 200 - 60
    moved = by(inferred_state(winctl), "PanelGrip", "Explorer | Orders")[0]
    assert centre(moved["rect"])[0] == x - 60
