"""The `calc` app module's templates run for real on LibreOffice Calc, with no model.

Each task is phrased as a person asks it, planned by the module's template (0 model calls),
and checked in what Calc saved: the .ods parsed cell by cell, the .xlsx and .csv read back.
"""

from __future__ import annotations

import csv
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import run_in_process
from tests.e2e.helpers.module_app import template_succeeded
from tests.e2e.helpers.office_docs import Office
from winactions.agent import TaskRunner, TaskStatus
from winactions.agent.documents import document_text
from winactions.agent.odf import read_sheet, write_sheet

pytestmark = pytest.mark.desktop

ROWS: list[list[str | float]] = [["item", "qty"], ["apple", 3], ["pear", 5], ["plum", 8]]


@pytest.fixture(scope="module")
def office(desktop, tmp_path_factory) -> Iterator[Office]:
    app = Office(desktop, tmp_path_factory.mktemp("calc"))
    yield app
    app.stop()


def sheet(folder: Path, name: str = "stock.ods") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    return write_sheet(folder / name, ROWS)


def run(desktop, task: str, template: str):
    result = TaskRunner(desktop).run(task)
    template_succeeded(result, "calc", template)
    return result


def test_set_a_cell_and_save(office, tmp_path):
    path = sheet(tmp_path)
    with office.open("--calc", str(path), title="stock.ods") as desktop:
        run(desktop, "in calc, set C3 to 42 and save", "set_cell_and_save")
    assert read_sheet(path) == [["item", "qty"], ["apple", "3"], ["pear", "5", "42"], ["plum", "8"]]


def test_fill_a_range_and_save(office, tmp_path):
    path = sheet(tmp_path)
    with office.open("--calc", str(path), title="stock.ods") as desktop:
        run(desktop, "fill C2:C4 with ok and save", "fill_range_and_save")
    assert [row[2:] for row in read_sheet(path)] == [[], ["ok"], ["ok"], ["ok"]]


def test_sum_a_range_into_a_cell_and_save(office, tmp_path):
    path = sheet(tmp_path)
    with office.open("--calc", str(path), title="stock.ods") as desktop:
        run(desktop, "put the sum of B2:B4 into B5 and save", "sum_into_cell_and_save")
    assert read_sheet(path)[4] == ["", "16"]
    with zipfile.ZipFile(path) as z:
        assert "of:=SUM([.B2:.B4])" in z.read("content.xml").decode()  # a formula, not a typed 16


@pytest.mark.parametrize(
    ("task", "expected"),
    [
        ("in calc, fill column C from C2 with 10, 20, 30 and save", [[], ["10"], ["20"], ["30"]]),
        ("fill row 5 in the spreadsheet with east, west and save", [[], [], [], [], ["east", "west"]]),
    ],
)
def test_fill_a_column_or_a_row_with_values_and_save(office, tmp_path, task, expected):
    """A list of values is planned by the handler's `plan` hook (no model): each value goes
    into its own cell, and the last cell is checked in the Input line before saving."""
    path = sheet(tmp_path)
    with office.open("--calc", str(path), title="stock.ods") as desktop:
        result = TaskRunner(desktop).run(task)
        assert result.status is TaskStatus.SUCCESS, (result.error, [s.error for s in result.step_results])
        assert (result.module, result.template, result.model["calls"]) == ("calc", "handler.plan", 0)
        assert any(c.what.startswith("the 'Input line' holds") and c.ok for c in result.checks)
        check = result.step_results[-2].verify
        assert check is not None and check.verified and check.method == "code"
    rows = read_sheet(path)
    if "column" in task:
        assert [row[2:] for row in rows] == expected
    else:
        assert rows[: len(ROWS)] == [[str(c) for c in row] for row in ROWS] and rows[4] == expected[4]


def test_save_as_ods_through_winctl_run(office, tmp_path):
    path = sheet(tmp_path)
    target = tmp_path / "out" / "copy.ods"
    target.parent.mkdir()
    with office.open("--calc", str(path), title="stock.ods") as desktop:
        env = {**office.env, "XDG_RUNTIME_DIR": str(office.folder / "rt")}
        done = run_in_process(["--json", "run", f"save the spreadsheet as {target}"], env)
        assert done.code == 0, done.out + done.err
        body = done.json["result"]["run"]
        assert (body["status"], body["template"], body["model"]["calls"]) == ("success", "save_as_ods", 0)
        assert "copy.ods - LibreOffice Calc" in desktop.state().window.title
    assert read_sheet(target) == [[str(c) for c in row] for row in ROWS]


def test_save_as_xlsx(office, tmp_path):
    path = sheet(tmp_path)
    target = tmp_path / "stock.xlsx"
    with office.open("--calc", str(path), title="stock.ods") as desktop:
        run(desktop, f"save it as {target}", "save_as_xlsx")
    assert zipfile.is_zipfile(target)
    assert document_text(target) == "item\tqty\napple\t3\npear\t5\nplum\t8"


def test_save_as_csv(office, tmp_path):
    path = sheet(tmp_path)
    target = tmp_path / "stock.csv"
    with office.open("--calc", str(path), title="stock.ods") as desktop:
        run(desktop, f"export the sheet to {target}", "save_as_csv")
    assert list(csv.reader(target.read_text().splitlines())) == [[str(c) for c in row] for row in ROWS]


def test_save_into_a_missing_folder_is_not_a_success(office, tmp_path):
    """The file dialog cannot save into a folder that does not exist: the run fails (the
    window never takes the file's name) and no file appears."""
    path = sheet(tmp_path)
    target = tmp_path / "nowhere" / "copy.ods"
    with office.open("--calc", str(path), title="stock.ods") as desktop:
        result = TaskRunner(desktop).run(f"save the spreadsheet as {target}")
        assert result.template == "save_as_ods" and result.model["calls"] == 0
        assert result.status is not TaskStatus.SUCCESS, result
    assert not target.exists() and not target.parent.exists()
