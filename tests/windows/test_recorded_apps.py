"""File Explorer and a WinForms DataGridView: items select rather than open, the shared
Tier 1+ rules find the grid's and the details view's column borders, cells take text."""

from __future__ import annotations

import pytest

from tests.fixtures.windows.fake_native import FakeNative, load_app


@pytest.fixture
def apps(fake):
    fake.apps += [load_app("explorer"), load_app("grid")]
    return fake


def test_explorer_rows_select_on_click_and_headers_give_column_borders(winctl, apps: FakeNative):
    winctl("focus", "File Explorer")
    state = winctl("--json", "--infer", "state", "--verbose").json["result"]
    by = {(t["type"], t["name"]): t for t in state["targets"]}
    assert ("TreeItem", "This PC") in by and ("ListItem", "report.docx") in by
    borders = {t["name"] for t in state["targets"] if t["type"] == "ColumnBorder"}
    assert borders == {"Name | Date modified", "Date modified | Type", "Type | Size"}
    out = winctl("click", str(by[("ListItem", "report.docx")]["id"])).out
    assert "via SelectionItem.Select" in out, "a click selects the file; Invoke would open it"
    assert not any(call[0] == "Invoke" for call in apps.pattern_calls)


def test_grid_cells_take_text_and_column_borders_are_inferred(winctl, apps: FakeNative):
    winctl("focus", "Orders Grid")
    state = winctl("--json", "--infer", "state", "--verbose").json["result"]
    headers = {t["name"]: t for t in state["targets"] if t["type"] == "HeaderItem"}
    borders = {t["name"]: t for t in state["targets"] if t["type"] == "ColumnBorder"}
    assert {"Name | Qty", "Qty | Price"} <= set(borders)
    border = borders["Name | Qty"]
    assert (border["rect"][0] + border["rect"][2]) // 2 == headers["Name"]["rect"][2]
    cell = next(t for t in state["targets"] if t["name"] == "Name Row 2")
    assert "via Value.SetValue" in winctl("input", str(cell["id"]), "Gadget").out
    assert winctl("get", "value", str(cell["id"])).out.strip() == "Gadget"
