"""A list with columns and a web table print as rows, not one line per cell (issue 39, item 3).

A GTK TreeView (the fixture's Files; Mousepad's file chooser of 400 files in the trial) and
Chromium's <table> were listed one line per cell; over the window's budget the list was cut
to six cells (two rows of a file list) and an unnamed web table could be cut whole. They now
print a line with the columns and which rows of how many are in view, then one line per row
led by the id of the row's first cell. Each test checks the row lines against what the app
holds and clicks a row by its printed id: the fixture's event log / the page's own click
handler say which row the app selected.
"""

from __future__ import annotations

import re
import shutil
import time
from collections.abc import Callable

import pytest

from tests.conftest import Winctl, start_app, stop_app, wait_for_window
from tests.e2e.helpers.apps import wait_for
from tests.e2e.helpers.office import reports_page
from tests.fixtures.applog import AppLog
from tests.fixtures.launch import chromium_command, gtk_fixture_command
from tests.fixtures.toolkit_apps import mousepad_command

pytestmark = pytest.mark.desktop
HEAD = re.compile(r"^\[(\d+)\] \[Table\] \"([^\"]*)\" rows (\d+)–(\d+) of (\d+) in view; columns: (.*?);", re.M)
ROW = re.compile(r"^  \[(\d+)\] (.*?)( selected)?( focused)?$", re.M)


def table(text: str, name: str) -> tuple[tuple[int, int, int], list[str], dict[int, list[str]]]:
    """(first row, last row, of how many), the column headers, and {row's id: its cells} of
    the table `name` as `state` printed it."""
    head = next((m for m in HEAD.finditer(text) if m.group(2) == name), None)
    assert head is not None, text
    rows: dict[int, list[str]] = {}
    for line in text[head.end() :].split("\n")[1:]:
        if not (m := ROW.match(line)):
            break
        rows[int(m.group(1))] = m.group(2).split(" | ")
    return (int(head.group(3)), int(head.group(4)), int(head.group(5))), head.group(6).split(" | "), rows


def read_until(winctl: Winctl, ready: Callable[[str], bool], timeout: float = 10.0) -> str:
    """`state` read again until `ready` holds of it (or the time is up: the last one read).
    Chromium builds a page's tree and scrolls asynchronously: a read in between shows half."""
    deadline = time.monotonic() + timeout
    text = winctl("state").out
    while not ready(text) and time.monotonic() < deadline:
        time.sleep(0.3)
        text = winctl("state").out
    return text


def _in_view(text: str, row: int) -> bool:
    head = re.search(r'^\[\d+\] \[Table\] "" rows (\d+)–(\d+) of \d+ in view;', text, re.M)
    return head is not None and int(head.group(1)) <= row <= int(head.group(2))


def fixture_row(n: int) -> list[str]:
    """Row n (from 1) of the GTK fixture's Files, as its ListStore holds it."""
    return [str(n), f"file-{n:03d}.txt", f"{(n * 37) % 900 + 10} KB"]


@pytest.fixture
def files(desktop, tmp_path):
    log = tmp_path / "events.jsonl"
    proc = start_app(desktop, gtk_fixture_command(str(log), rows=400, title="Table Fixture"), "Table Fixture")
    yield AppLog(str(log))
    stop_app(proc)


@pytest.mark.parametrize("via", [(), ("--session", "tables")], ids=["cli", "daemon"])
def test_a_gtk_list_prints_its_rows_and_a_row_clicked_by_its_id_is_selected(winctl: Winctl, files, via):
    """The fixture's Files (400 rows, 3 columns) in a window over its budget: it printed its
    column headers and the first two rows' cells, one line each, the rest cut. Now each row
    in view is one line equal to the app's row; a click on a row's printed id selects that
    row (the app's selection log), in the CLI and the daemon; after a row found out of view
    is clicked (the list scrolls to it), the rows said in view are the ones printed."""
    winctl(*via, "focus", "Table Fixture")
    (first, last, total), columns, rows = table(winctl(*via, "state").out, "Files")
    assert (first, total, columns) == (1, 400, ["ID", "Name", "Size"]) and last >= 10, (first, last, columns)
    assert list(rows.values()) == [fixture_row(n) for n in range(first, last + 1)], rows
    row_id = list(rows)[6]
    assert winctl(*via, "get", "text", str(row_id)).out.strip() == "7"
    winctl(*via, "click", str(row_id))
    files.wait_for("selection_changed", row=6, name="file-007.txt")
    answer = winctl(*via, "find", "file-300.txt").out  # out of view: `click` scrolls it in
    found = re.search(r"^\[(\d+)\] \[DataItem\] \"file-300.txt\"", answer, re.M)
    assert found is not None, answer
    winctl(*via, "click", found.group(1))
    files.wait_for("selection_changed", row=299, name="file-300.txt")
    text = winctl(*via, "state").out
    (first, last, total), _, rows = table(text, "Files")
    assert first <= 300 <= last and total == 400, text
    assert list(rows.values()) == [fixture_row(n) for n in range(first, last + 1)], text
    assert re.search(r"^  \[\d+\] 300 \| file-300.txt \| .* selected$", text, re.M), text
    row_id, cells = list(rows.items())[2]
    winctl(*via, "click", str(row_id))
    files.wait_for("selection_changed", row=first + 1, name=cells[1])
    if via:
        winctl("session", "close", "tables")


@pytest.fixture
def reports(desktop, tmp_path, winctl):
    if shutil.which("chromium") is None:
        pytest.fail("chromium is not installed: run scripts/setup.sh")
    page = reports_page(tmp_path / "reports.html", rows=300)
    proc = start_app(desktop, chromium_command(page, str(tmp_path / "profile")), "Reports")
    winctl("focus", "Reports")
    deadline = time.monotonic() + 20
    while not any(t["name"] == "Pages" for t in winctl.state()["targets"]):  # the table's header
        assert time.monotonic() < deadline, winctl("state").out
        time.sleep(0.5)
    yield
    stop_app(proc)


@pytest.mark.parametrize("via", [(), ("--session", "web")], ids=["cli", "daemon"])
def test_a_web_table_prints_its_rows_and_a_row_clicked_by_its_id_is_the_pages(winctl: Winctl, desktop, reports, via):
    """Chromium with a <table> of 300 reports (header row of <th>): each row in view is one
    line as the page holds it, the header row is the columns; a click on a row's printed id
    reaches the page's own handler on that row (it names the row in the title)."""
    (first, last, total), columns, rows = table(winctl(*via, "state").out, "")
    assert (first, total, columns) == (1, 300, ["Name", "Team", "Pages"]) and last >= 10, (first, last, columns)
    assert list(rows.values()) == [[f"report-{i:04d}", f"team {i % 9}", str(i * 7)] for i in range(1, last + 1)]
    row_id = list(rows)[8]
    assert winctl(*via, "get", "text", str(row_id)).out.strip() == "report-0009"
    winctl(*via, "click", str(row_id))
    wait_for_window(desktop, "Picked report-0009")
    if via:
        winctl("session", "close", "web")


def test_a_file_choosers_rows_name_its_files_and_a_row_clicked_by_its_id_opens(
    winctl: Winctl, desktop, launch, tmp_path
):
    """Mousepad's Open dialog on a folder of 400 files (the trial's mousepad-open task): its
    list printed an unnamed icon cell, an unnamed cell and the name cell of the first row,
    then "208 more rows". Its Name column is one cell holding an icon cell and a text cell;
    each row now prints as one line with the file's name, led by the name cell's id, and
    the row clicked by that id is the file Open opens (the editor's title says so)."""
    folder = tmp_path / "reports"
    folder.mkdir()
    for i in range(1, 401):
        (folder / f"report-{i:04d}.txt").write_text(f"report {i}\n")
    launch(mousepad_command(folder / "report-0001.txt"), title="report-0001.txt")
    winctl("keys", "ctrl+o")
    wait_for_window(desktop, "Open File")
    winctl("focus", "Open File")
    wait_for(winctl, ("DataItem", "report-0001.txt"), ("Button", "Open"))
    text = winctl("state").out
    (first, last, total), columns, rows = table(text, "Files")
    assert (first, total) == (1, 400) and last >= 10 and columns[0] == "Name", text
    assert [cells[0] for cells in rows.values()] == [f"report-{i:04d}.txt" for i in range(first, last + 1)], text
    assert all(cells[1] in ("9 bytes", "10 bytes") for cells in rows.values()), text
    row_id = list(rows)[4]
    winctl("click", str(row_id))
    winctl("click", "Open")
    wait_for_window(desktop, "report-0005.txt")


def test_a_web_table_too_long_to_list_prints_its_rows_in_view_also_scrolled(winctl: Winctl, desktop, tmp_path):
    """A page's table of 3,000 rows declares more children than a state lists, so it is read
    by what shows (hit tests at its corners): Chromium's hit test answers a cell whose index
    is its column in its row, so the view read as row 0 alone and the state printed the
    headers and no row. Now cells say their place (TableCell), the page's view (not the
    browser's bars) bounds the hit tests, rows are numbered below the header row: the rows
    printed are the page's, at the top and after `find` + `click` scrolled to row 2777."""
    if shutil.which("chromium") is None:
        pytest.fail("chromium is not installed: run scripts/setup.sh")
    page = reports_page(tmp_path / "reports.html", rows=3000)
    proc = start_app(desktop, chromium_command(page, str(tmp_path / "profile")), "Reports")
    try:
        winctl("focus", "Reports")
        deadline = time.monotonic() + 20
        while not any(t["name"] == "Pages" for t in winctl.state()["targets"]):
            assert time.monotonic() < deadline, winctl("state").out
            time.sleep(0.5)
        text = read_until(winctl, lambda out: any(m.group(2) == "" for m in HEAD.finditer(out)))
        (first, last, total), columns, rows = table(text, "")
        assert (first, total, columns) == (1, 3000, ["Name", "Team", "Pages"]) and last >= 10, text
        assert list(rows.values()) == [[f"report-{i:04d}", f"team {i % 9}", str(i * 7)] for i in range(1, last + 1)]
        answer = winctl("find", "report-2777").out
        cell = re.search(r'^\[(\d+)\] \[DataItem\] "report-2777"', answer, re.M)
        assert cell is not None, answer
        winctl("click", cell.group(1))
        wait_for_window(desktop, "Picked report-2777")
        text = read_until(winctl, lambda out: _in_view(out, 2777))
        head = re.search(r'^\[\d+\] \[Table\] "" rows (\d+)–(\d+) of 3000 in view;', text, re.M)
        assert head is not None, text
        first, last = int(head.group(1)), int(head.group(2))
        assert first <= 2777 <= last, text
        printed = [m.group(2).split(" | ") for m in ROW.finditer(text[head.end() :])]
        assert printed == [[f"report-{i:04d}", f"team {i % 9}", str(i * 7)] for i in range(first, last + 1)], text
        row_id = next(int(m.group(1)) for m in ROW.finditer(text) if m.group(2).startswith("report-2770 |"))
        winctl("click", str(row_id))
        wait_for_window(desktop, "Picked report-2770")
    finally:
        stop_app(proc)
