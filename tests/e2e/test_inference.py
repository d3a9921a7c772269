"""Tier 1+ rules on the real GTK fixture: inferred borders are where the app has them, and
dragging them really resizes."""

from __future__ import annotations

import pytest

from tests.conftest import start_app, stop_app
from tests.fixtures.applog import AppLog
from tests.fixtures.launch import gtk_fixture_command

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
    paned = by(state, "SplitPane")[0]
    splitter = by(state, "Splitter")[0]
    x, y = centre(splitter["rect"])
    winctl("--infer", "drag", str(splitter["id"]), str(x + 100), str(y))
    app.wait_for("paned_position", position=int(paned["value"]) + 100)
