"""`find TEXT` finds a sheet's cells, a list's rows and a web table's rows by their text, out of
view too, and their ids are acted on by scrolling them into view first (issue 39, item 4).

Round 2 of the agent trial: on a sheet of 300 invoices, agents guessed the row of INV-0277
from its number and checked the guess cell by cell (`get text A278`), as `find` searched only
what showed ("what is out of view is not searched"); in a file chooser of 400 files they typed
the path, as a row below the fold could not be named. Each test checks the app's own outcome:
the saved .ods parsed, the file the editor opened, the page's title set by its own handler.
"""

from __future__ import annotations

import re
import shutil
import time

import pytest

from tests.conftest import Winctl, start_app, stop_app, wait_for_window
from tests.e2e.helpers.apps import wait_for
from tests.e2e.helpers.mcp_client import run_client
from tests.e2e.helpers.office import invoices, reports_page, saved
from tests.e2e.helpers.toolkit_steps import many_notes
from tests.fixtures.applog import AppLog
from tests.fixtures.launch import chromium_command, gtk_fixture_command
from tests.fixtures.toolkit_apps import featherpad_command, mousepad_command

pytestmark = pytest.mark.desktop


def found(out: str, text: str) -> list[tuple[int, str, str]]:
    """(id, type, name) of the lines of a `find` answer whose value or name is `text`."""
    lines = re.findall(r'^\[(\d+)\] \[(\w+)\] "([^"]*)"(?: value="([^"]*)")?', out, re.M)
    return [(int(i), kind, name) for i, kind, name, value in lines if text in (name, value)]


def test_find_a_cell_of_a_sheet_out_of_view_then_write_next_to_it(winctl: Winctl, sheet):
    """`find INV-0277` failed ("Got unexpected extra argument"), and `find --name INV-0277`
    said "what is out of view is not searched": row 278 is far below the view. Now it names
    the cell (A278) with an id; `get` reads it where it is, without scrolling; `click ID`
    scrolls it into view; `input` by address writes beside it, in the CLI and the daemon."""
    answer = winctl("find", "INV-0277").out
    ((cell_id, kind, name),) = found(answer, "INV-0277")
    assert (kind, name) == ("DataItem", "A278") and f"out of view: {cell_id}" in answer, answer
    assert winctl("get", "text", str(cell_id)).out.strip() == "INV-0277"
    assert not any(t["name"] == "A278" for t in winctl.state()["targets"]), "reading scrolled the sheet"
    clicked = winctl("click", str(cell_id)).out
    assert "scrolled 'A278' into view" in clicked, clicked
    shown = {t["name"] for t in winctl.state()["targets"]}
    assert "A278" in shown, "the cell clicked is not in view"
    winctl("input", "D278", "Paid")
    daemon = winctl("--session", "cells", "find", "INV-0123").out
    assert [name for _, _, name in found(daemon, "INV-0123")] == ["A124"], daemon
    winctl("--session", "cells", "input", "C124", "450")
    assert winctl("--session", "cells", "get", "text", "C124").out.strip() == "450"
    winctl("session", "close", "cells")
    before = sheet.stat().st_mtime
    winctl("keys", "ctrl+s")
    wanted = [[str(v) for v in row] for row in invoices()]
    wanted[123][2], wanted[277][3] = "450", "Paid"
    assert saved(sheet, before) == wanted


def test_find_several_cells_lists_them_by_address(winctl: Winctl, sheet):
    """A text held by many cells lists them (at most 40, saying how many there are)."""
    answer = winctl("find", "INV-02").out
    assert "40 of 100 found listed" in answer, answer
    assert re.search(r'"A201" value="INV-0200"', answer), answer


def test_bad_addresses_say_so(winctl: Winctl, sheet):
    """`get text A0` said "no element of the window is named 'A0'", and `input ZZZZ0 x` went
    on to read the screen's pixels for the text ZZZZ0 (OCR) before failing."""
    for args in (("get", "text", "A0"), ("input", "ZZZZ0", "x"), ("--session", "bad", "get", "value", "A0")):
        refused = winctl(*args, expect=2)
        assert "is no cell address: rows are numbered from 1" in refused.err and "ocr" not in refused.err, args
    beyond = winctl("get", "text", "ZZZ1", expect=3)
    assert "the sheet has no cell 'ZZZ1'" in beyond.err, beyond.err
    assert winctl("get", "text", "a2").out.strip() == "INV-0001"  # an address in lower case is one
    winctl("session", "close", "bad")


def test_find_a_file_far_down_a_gtk_file_chooser(winctl: Winctl, desktop, launch, tmp_path):
    """A GTK 3 file chooser of 400 files: `find` answered "none matched" for a file below the
    fold. Now it names the row with an id; `click ID` wheels the list until it shows, and Open
    opens that file in the editor (its title says so)."""
    folder = tmp_path / "reports"
    folder.mkdir()
    for i in range(1, 401):
        (folder / f"report-{i:04d}.txt").write_text(f"report {i}\n")
    launch(mousepad_command(folder / "report-0001.txt"), title="report-0001.txt")
    winctl("keys", "ctrl+o")
    wait_for_window(desktop, "Open File")
    winctl("focus", "Open File")
    wait_for(winctl, ("DataItem", "report-0001.txt"), ("Button", "Open"))
    answer = winctl("--session", "files", "find", "report-0277").out
    ((row, _kind, _name),) = found(answer, "report-0277.txt")
    assert f"out of view: {row}" in answer, answer
    clicked = winctl("--session", "files", "click", str(row)).out
    assert "scrolled 'report-0277.txt' into view" in clicked, clicked
    winctl("session", "close", "files")
    winctl("click", "Open")
    wait_for_window(desktop, "report-0277.txt")


def test_find_a_row_far_down_a_web_table(winctl: Winctl, desktop, tmp_path):
    """Chromium with a table of 3,000 rows: rows below the fold are not showing, and `find`
    did not search them. Now `find report-2777` names its cell; `click ID` scrolls it into view
    and the page's own click handler names it in the title. A row in view is found as in view."""
    if shutil.which("chromium") is None:
        pytest.fail("chromium is not installed: run scripts/setup.sh")
    page = reports_page(tmp_path / "reports.html")
    proc = start_app(desktop, chromium_command(page, str(tmp_path / "profile")), "Reports")
    try:
        winctl("focus", "Reports")
        deadline = time.monotonic() + 20
        while not any(t["name"] == "Pages" for t in winctl.state()["targets"]):  # the table's header
            assert time.monotonic() < deadline, winctl("state").out
            time.sleep(0.5)
        near = winctl("find", "report-0002").out  # in view, though a state does not list such a long table's rows
        assert found(near, "report-0002") and "out of view" not in near, near
        answer = winctl("find", "report-2777").out
        ((cell, _kind, _name),) = found(answer, "report-2777")
        assert f"out of view: {cell}" in answer, answer
        clicked = winctl("click", str(cell)).out
        assert "scrolled 'report-2777' into view" in clicked, clicked
        wait_for_window(desktop, "Picked report-2777")
    finally:
        stop_app(proc)


def test_find_a_file_far_down_a_qt_file_dialog(winctl: Winctl, desktop, launch, tmp_path):
    """Qt's own file dialog with 80 files (a Qt list): `find note-75` names the row out of view,
    `click ID` wheels the list to it (Qt does not scroll when asked), Open opens that file."""
    folder = many_notes(tmp_path)
    launch(featherpad_command(folder / "note-01.txt"), title="note-01.txt")
    winctl("keys", "ctrl+o")
    wait_for_window(desktop, "Open file...")
    winctl("focus", "Open file...")
    wait_for(winctl, ("DataItem", "note-01.txt"), ("Button", "Open"))
    answer = winctl("find", "note-75").out
    ((row, _kind, _name),) = found(answer, "note-75.txt")
    assert f"out of view: {row}" in answer, answer
    clicked = winctl("click", str(row)).out
    assert "scrolled 'note-75.txt' into view" in clicked, clicked
    winctl("click", "Open")
    wait_for_window(desktop, "note-75.txt")


def test_find_and_click_a_row_out_of_view_through_mcp(desktop, tmp_path):
    """The same through MCP (the `find` tool's `text`): a GTK TreeView of 400 rows, the row
    found out of view is selected by `click` on its id, as the app's own log says."""
    log = tmp_path / "events.jsonl"
    proc = start_app(desktop, gtk_fixture_command(str(log), rows=400, title="Find Fixture"), "Find Fixture")

    async def script(session):
        await session.call_tool("focus", {"window": "Find Fixture"})
        answer = await session.call_tool("find", {"text": "file-377"})
        cell = next(t for t in answer.structured_content["result"]["targets"] if t["name"] == "file-377.txt")
        clicked = await session.call_tool("click", {"id": cell["id"]})
        return answer, clicked

    try:
        answer, clicked = run_client(desktop, tmp_path, script)
        assert "out of view" in answer.content[0].text, answer.content[0].text
        assert not clicked.is_error and "scrolled 'file-377.txt' into view" in clicked.content[0].text, clicked.content
        AppLog(str(log)).wait_for("selection_changed", name="file-377.txt")
    finally:
        stop_app(proc)
