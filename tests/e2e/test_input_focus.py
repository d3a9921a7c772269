"""`input` puts its keys where it says (issue 40), on the real apps where they went elsewhere:
Enter after a text set through the accessibility API reaches the field that took the text,
typing waits until the element holds the focus, a terminal is typed into at its prompt, and a
field that took the text says so in one plain line. Each outcome is read in the app: the
folder its file dialog shows, its cell cursor, the file it saved, what its program read."""

from __future__ import annotations

import json
import subprocess
import time
from typing import Any

import pytest

from tests.conftest import FIXTURES, SYSTEM_PYTHON, start_app, stop_app, wait_for_window
from tests.e2e.helpers.apps import ids, target, wait_for, wait_for_file
from tests.e2e.helpers.mcp_client import run_client
from tests.e2e.helpers.office import invoices_csv, saved_rows, start_soffice
from tests.fixtures.applog import AppLog
from tests.fixtures.toolkit_apps import firefox_command, mousepad_command

pytestmark = pytest.mark.desktop
CSV_FILTER = "--infilter=Text - txt - csv (StarCalc):44,34,76,1"


def address_box(state: dict[str, Any]) -> int:
    """The spreadsheet's own cell-address field (Calc's Name Box, Gnumeric's): the first Edit
    that reads a cell address."""
    return next(
        t["id"]
        for t in state["targets"]
        if t["type"] == "Edit" and t.get("value", "")[:1].isalpha() and t.get("value", "")[1:].isdigit()
    )


def reads(winctl, element: int, wanted: str, timeout: float = 10.0) -> str:
    """The element's text once it is `wanted` (the app moves on its own time), or as it reads
    after `timeout`."""
    deadline = time.monotonic() + timeout
    while (now := winctl("get", "text", str(element)).out.strip()) != wanted and time.monotonic() < deadline:
        time.sleep(0.2)
    return now


# -- 1. Enter reaches the field that took the text ---------------------------------------------------
def test_a_path_entered_in_a_gtk_file_chooser_opens_that_folder(winctl, daemon, desktop, launch, tmp_path):
    """Mousepad's Open dialog, its location field shown (ctrl+l) and the focus in the file list
    (as after browsing): `input LOCATION /path/ --enter` set the path through EditableText, which
    does not move the focus, and the Enter went to the file list: the dialog never changed
    folder (twice), and winctl said `via EditableText.SetTextContents`. The field now takes the
    focus first; the dialog shows the folder, whose file then opens by name (the editor's title
    names it), through the one-shot CLI and through the daemon."""
    for name in ("first", "second"):
        (tmp_path / name).mkdir()
        (tmp_path / name / f"{name}-file.txt").write_text(f"{name}\n")
    doc = tmp_path / "doc.txt"
    doc.write_text("doc\n")
    launch(mousepad_command(doc), title="doc.txt")
    for front, folder in ((winctl, "first"), (daemon, "second")):
        winctl("keys", "ctrl+o")
        wait_for_window(desktop, "Open File")
        winctl("focus", "Open File")
        winctl("keys", "ctrl+l")
        state = wait_for(winctl, ("Edit", None), ("Table", "Files"))
        location = ids(state, "Edit")[0]
        winctl("click", str(target(state, "Table", "Files")), "--via", "input")  # the focus is in the file list
        done = front("input", str(location), f"{tmp_path / folder}/", "--enter").out
        wait_for(winctl, ("DataItem", f"{folder}-file.txt"), timeout=10)  # the dialog shows that folder
        assert "Enter pressed in it" in done, done
        winctl("click", f"{folder}-file.txt")
        winctl("click", "Open")
        wait_for_window(desktop, f"{folder}-file.txt")
        winctl("focus", f"{folder}-file.txt")


@pytest.fixture
def invoices(desktop, tmp_path, winctl):
    data = invoices_csv(tmp_path / "invoices.csv")
    proc = start_soffice(desktop, tmp_path, "--calc", CSV_FILTER, str(data), title="invoices.csv - LibreOffice Calc")
    winctl("focus", "invoices.csv - LibreOffice Calc")
    yield data
    stop_app(proc)
    subprocess.run(["pkill", "-P", str(proc.pid)], check=False)


def find_bar(winctl) -> tuple[int, int]:
    """Calc's Find bar opened (ctrl+f): (its search field, the Name Box)."""
    winctl("keys", "ctrl+f")
    state = wait_for(winctl, ("Pane", "Find Values"), timeout=15)
    return target(state, "Edit", after="Find Values"), address_box(state)


def test_a_search_entered_in_calcs_find_bar_finds_the_cell(winctl, daemon, invoices):
    """The Find bar's field set with `--enter` while the sheet held the focus: the search never
    ran, and the Enter moved Calc's cell cursor one row down (D219 → D220). Now the field takes
    the focus first and the Enter searches: the Name Box, Calc's own, names the cell found."""
    find, box = find_bar(winctl)
    for front, wanted, found in ((winctl, "INV-0250", "A251"), (daemon, "INV-0120", "A121")):
        column_d = next(t for t in winctl.state()["targets"] if t["type"] == "DataItem" and t["name"][0] == "D")
        winctl("click", str(column_d["id"]), "--via", "input")  # the focus is in the sheet
        assert reads(winctl, box, column_d["name"]) == column_d["name"]
        done = front("input", str(find), wanted, "--enter").out
        assert reads(winctl, box, found) == found, done
        assert "Enter pressed in it" in done, done


UNFOCUSABLE = "Unfocusable"


def test_a_field_that_never_takes_the_focus_is_refused_before_anything_is_typed(winctl, daemon, desktop, tmp_path):
    """A field that takes text but not the focus, the focus on a button beside it: `input FIELD
    new --enter` set the text and the Enter pressed the button, rc 0. Now the field is given
    the focus first and, as it never takes it, nothing is done: no text, no Enter (the app's
    log has neither), and the error says so; typed (`--via input`) alike. A text set without
    any key still needs no focus and is done."""
    log = AppLog(str(tmp_path / "unfocusable.jsonl"))
    proc = start_app(
        desktop,
        [SYSTEM_PYTHON, str(FIXTURES / "unfocusable_app.py"), "--title", UNFOCUSABLE, "--log", str(log.path)],
        UNFOCUSABLE,
    )
    try:
        log.wait_for("ready")
        winctl("focus", UNFOCUSABLE)
        field = winctl.find("Edit", "Locked field")
        mark = log.mark()
        for front, extra in ((winctl, ("--enter",)), (daemon, ("--enter",)), (winctl, ("--via", "input"))):
            refused = front("input", str(field), "new", *extra, expect=4)
            assert "did not take the keyboard focus: nothing was typed" in refused.err, refused.err
            if "--enter" in extra:
                assert "and Enter was not pressed" in refused.err, refused.err
        time.sleep(0.5)
        assert log.events(since=mark) == [], log.events(since=mark)  # no text, no Enter, no press
        assert winctl("input", str(field), "set").out.strip().endswith("via EditableText.SetTextContents")
        log.wait_for("field_changed", since=mark, text="set")
        assert not log.events("button_clicked") and not log.events("field_activated")
    finally:
        stop_app(proc)


# -- 2. typed text waits for the focus; a read-back that differs fails ------------------------------
def test_a_cell_typed_into_while_the_find_field_has_the_focus_takes_all_of_it(
    winctl, daemon, desktop, tmp_path, invoices
):
    """With the Find field focused on the cell it found, `input CELL "Paid"` clicked the cell and
    typed at once: "P" went to the Find field (it read "INV-0151P") and the cell read "aid",
    rc 0 — one time in five here, as the click's focus change raced the keys. The keys now wait
    until the cell holds the focus: twelve rounds, each through the one-shot CLI or the daemon,
    and one through MCP; the saved file has "Paid" in every cell found, while the Find field
    keeps each search.

    Each round's search is `keys ctrl+f` then `type` through the daemon. Calc focuses its Find
    field at once, then takes the focus away and gives it back with the field's text selected
    (~40 ms after the keys): the first two characters typed in between were replaced, and the
    field read "V-0059" (once in CI). `keys` now returns once the app's focus stays put."""
    data = invoices
    find, box = find_bar(winctl)
    rows = list(range(20, 260, 20))
    for round_, row in enumerate(rows):
        search = f"INV-{row - 1:04d}"
        daemon("keys", "ctrl+f")  # the Find field takes the focus, its text selected, as a user searches
        daemon("type", search)
        daemon("keys", "Enter")
        assert reads(daemon, box, f"A{row}") == f"A{row}"
        state = daemon.state()
        assert "focused" in next(t for t in state["targets"] if t["id"] == find)["states"]
        front = winctl if round_ % 2 == 0 else daemon
        front("input", str(target(state, "DataItem", f"A{row}")), "Paid")
        assert reads(daemon, find, search) == search  # no key of "Paid" went to the Find field
    rows.append(280)  # and once through MCP
    daemon("keys", "ctrl+f")
    daemon("type", "INV-0279")
    daemon("keys", "Enter")
    assert reads(daemon, box, "A280") == "A280"

    async def script(session):
        targets = (await session.call_tool("state", {})).structured_content["result"]["targets"]
        cell = next(t["id"] for t in targets if t["type"] == "DataItem" and t["name"] == "A280")
        return await session.call_tool("input", {"id": cell, "text": "Paid"})

    done = run_client(desktop, tmp_path, script)
    assert not done.is_error, done.content[0].text
    assert reads(daemon, find, "INV-0279") == "INV-0279"
    saved = saved_rows(winctl, data, lambda saved: len(saved) > rows[-1] and saved[rows[-1] - 1][0] == "Paid")
    assert [saved[row - 1][0] for row in rows] == ["Paid"] * len(rows), [saved[row - 1] for row in rows]
    assert saved[rows[0]][0] == f"INV-{rows[0]:04d}"  # the row below the first is untouched


def test_a_cell_that_shows_what_is_typed_otherwise_fails_with_what_it_reads(winctl, invoices):
    """Calc takes "1/2" typed into a cell for a date and shows it in its own format. The cell
    reads otherwise than the text asked for, and winctl cannot tell a format from keys gone
    astray: exit 4, saying what it reads (it said "committed; the cell reads ..." at rc 0)."""
    cell = target(winctl.state(), "DataItem", "A5")
    failed = winctl("input", str(cell), "1/2", expect=4)
    now = winctl("get", "text", str(cell)).out.strip()
    assert now != "1/2", now
    assert f"typed '1/2' and Enter into the cell, but it reads {now!r}" in failed.err, failed.err
    assert "If the element formats what it is given" in failed.err, failed.err


# -- 1 again, on a third app, and through MCP -----------------------------------------------------
def test_an_address_entered_in_gnumerics_address_box_moves_the_cursor_there(winctl, daemon, desktop, launch, tmp_path):
    """Gnumeric's cell-address box set with `--enter` while the sheet held the focus: the Enter
    moved the sheet's cursor A1 → A2 instead of jumping to B4. The box takes the focus first
    now, and Gnumeric's own entry line shows the content of the cell it jumped to, through the
    one-shot CLI, the daemon and MCP."""
    data = invoices_csv(tmp_path / "invoices.csv")
    launch(["gnumeric", str(data)], title="invoices.csv")
    state = wait_for(winctl, ("Canvas", None))
    box = address_box(state)
    line = ids(state, "Edit")[ids(state, "Edit").index(box) + 1]  # the entry line: the cell's content
    canvas = ids(state, "Canvas")[0]
    for front, address, content in ((winctl, "B4", "Cust 3"), (daemon, "C7", "60")):
        winctl("click", str(canvas), "--via", "input")  # the focus is in the sheet
        done = front("input", str(box), address, "--enter").out
        assert reads(winctl, line, content) == content, done
        assert reads(winctl, box, address) == address
        assert "Enter pressed in it" in done, done
    winctl("click", str(canvas), "--via", "input")

    async def script(session):
        targets = (await session.call_tool("state", {})).structured_content["result"]["targets"]
        return await session.call_tool(
            "input", {"id": address_box({"targets": targets}), "text": "A300", "enter": True}
        )

    done = run_client(desktop, tmp_path, script)
    assert not done.is_error, done.content[0].text
    assert reads(winctl, line, "INV-0299") == "INV-0299", done.content[0].text
    assert "Enter pressed in it" in done.content[0].text


# -- 4. a terminal ---------------------------------------------------------------------------------
def test_input_in_a_terminal_types_at_its_prompt(winctl, daemon, desktop, launch, tmp_path):
    """lxterminal running a script that reads an answer: `input TERMINAL y --enter` pressed
    ctrl+a first, as in a text field, and the script read "\\x01y"; winctl said done. A
    terminal is typed into at its prompt now: the script reads exactly "y", then "no way"
    (through the daemon), then "by mcp" (through MCP), and winctl says what the terminal shows."""
    first, second, third = tmp_path / "first", tmp_path / "second", tmp_path / "third"
    script = (
        f'echo "Continue?"; read x; printf %s "$x" > {first}; echo "got <$x>"; '
        f'read y; printf %s "$y" > {second}; echo "then <$y>"; '
        f'read z; printf %s "$z" > {third}; echo "last <$z>"; sleep 120'
    )
    launch(["lxterminal", "--title=Prompt", "-e", "bash", "-c", script], title="Prompt")
    terminal = target(wait_for(winctl, ("Document", "Terminal")), "Document", "Terminal")
    done = winctl("input", str(terminal), "y", "--enter").out
    assert wait_for_file(first, "y") == "y"
    assert "Enter pressed" in done and "got <y>" in done, done
    done = daemon("input", str(terminal), "no way", "--enter").out
    assert wait_for_file(second, "no way") == "no way"
    assert "then <no way>" in done, done

    async def script(session):
        targets = (await session.call_tool("state", {})).structured_content["result"]["targets"]
        terminal = next(t["id"] for t in targets if t["type"] == "Document" and t["name"] == "Terminal")
        return await session.call_tool("input", {"id": terminal, "text": "by mcp", "enter": True})

    done = run_client(desktop, tmp_path, script)
    assert wait_for_file(third, "by mcp") == "by mcp"
    assert "last <by mcp>" in done.content[0].text, done.content[0].text
    refused = winctl("input", str(terminal), "x", "--via", "semantic", expect=4)
    assert "is a terminal: it takes keys, not text; nothing was typed" in refused.err, refused.err


# -- 11. one plain line ----------------------------------------------------------------------------
def test_a_password_set_in_a_zenity_field_is_said_plainly(winctl, daemon, desktop):
    """zenity's password field took the text through EditableText, but reads it back as
    bullets: `input` printed `set_text failed (the element accepted the text but did not
    change)` at rc 0, typed it again, and said nothing else. It says how it was set now, and
    zenity prints what its field held when Enter closed it."""
    proc = subprocess.Popen(
        ["zenity", "--entry", "--hide-text", "--title", "Secret", "--text", "Password:"],
        env=desktop.env,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        wait_for_window(desktop, "Secret")
        winctl("focus", "Secret")
        field = target(wait_for(winctl, ("Edit", "Password")), "Edit", "Password")
        done = winctl("input", str(field), "hunter2").out
        assert done.strip() == f'input [{field}] [Edit] "Password" via EditableText.SetTextContents', done
        done = daemon("input", str(field), "s3cret", "--enter").out
        assert proc.communicate(timeout=15)[0] == "s3cret\n", done
        assert "failed" not in done and "Enter pressed in it" in done, done
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


FIELDS = 9
FIELDS_PAGE = (
    "<!doctype html><html><head><title>Fields page</title></head><body>"
    + "".join(f'<p><input aria-label="Field {i}" oninput="show()"></p>' for i in range(1, FIELDS + 1))
    + "<script>function show() { document.title = 'got ' + Array.from(document.querySelectorAll('input'))"
    ".map(f => f.value).join(','); }</script></body></html>"
)


def test_a_batch_of_inputs_into_firefox_fields_reads_as_done(winctl, desktop, launch, tmp_path):
    """Firefox's web fields answer SetTextContents with yes and keep their text: `input` typed
    instead, rightly, but printed `via keyboard — set_text failed (...)`, and a batch of nine
    such inputs said all done while every step read like a failure. Each step is one plain line
    now, and the page's title (which shows every field's value) has all nine."""
    page = tmp_path / "page.html"
    page.write_text(FIELDS_PAGE)
    launch(firefox_command(tmp_path / "profile", page.as_uri()), title="Fields page")
    state = wait_for(winctl, *(("Edit", f"Field {i}") for i in range(1, FIELDS + 1)))
    steps = [
        {"command": "input", "args": {"id": target(state, "Edit", f"Field {i}"), "text": f"v{i}"}}
        for i in range(1, FIELDS + 1)
    ]
    done = winctl("batch", json.dumps(steps)).out
    wait_for_window(desktop, "got " + ",".join(f"v{i}" for i in range(1, FIELDS + 1)))
    assert done.startswith(f"batch: {FIELDS} of {FIELDS} steps done"), done
    assert "failed" not in done, done
