"""`winctl choose-file PATH`: a file opened or saved through the app's own file dialog in one
call, checked in the app (its window title, read by wmctrl) and on disk (the file's bytes).

Round 2 of the agent trial (issue 39, item 4): each file dialog took an agent 4+ calls —
ctrl+o, ctrl+l, the path into the location field, a click on Open (Enter in a GTK chooser's
location or Name field left the dialog open), then a state to see what happened. On Mousepad
(GTK 3, the trial's mousepad-open and mousepad-save-as), Geany (GTK 3), FeatherPad (Qt 5) and
LibreOffice (its GTK plugin), through the one-shot CLI, the session's daemon and MCP.
"""

from __future__ import annotations

import os
import subprocess
import time
import zipfile
from pathlib import Path

import pytest

from tests.conftest import start_app, stop_app, wait_for_window, window_gone
from tests.e2e.helpers.apps import wait_for
from tests.e2e.helpers.mcp_client import run_client
from tests.e2e.helpers.office import start_soffice
from tests.fixtures.toolkit_apps import featherpad_command, mousepad_command
from winactions.agent import odf

pytestmark = pytest.mark.desktop
TITLE_WAIT = 10.0


def titles(desktop) -> list[str]:
    """Every window's title, read by wmctrl (not by us)."""
    out = subprocess.run(["wmctrl", "-l"], env=desktop.env, capture_output=True, text=True).stdout
    return [parts[3] for line in out.splitlines() if len(parts := line.split(None, 3)) == 4]


def wait_title(desktop, part: str) -> str:
    deadline = time.monotonic() + TITLE_WAIT
    while not any(part in t for t in titles(desktop)):
        assert time.monotonic() < deadline, f"no window names {part}: {titles(desktop)}"
        time.sleep(0.2)
    return next(t for t in titles(desktop) if part in t)


def invoices(folder: Path) -> Path:
    """The trial's folder of 400 invoices; the path of inv-0217.txt."""
    folder.mkdir()
    for n in range(1, 401):
        (folder / f"inv-{n:04d}.txt").write_text(f"Invoice INV-{n:04d}\n")
    return folder / "inv-0217.txt"


def front_of(winctl, daemon, via: str):
    return winctl if via == "cli" else daemon


@pytest.mark.parametrize("via", ["cli", "daemon"])
def test_mousepad_opens_one_of_400_files_by_path_in_one_call(desktop, tmp_path, winctl, daemon, via):
    """The trial's mousepad-open: one call opens inv-0217.txt; the title names it (wmctrl) and
    the app shows its text. Before, no such command: 4 calls, and Enter in the field did not
    open the file."""
    front = front_of(winctl, daemon, via)
    wanted = invoices(tmp_path / "invoices")
    doc = tmp_path / "start.txt"
    doc.write_text("start\n")
    proc = start_app(desktop, mousepad_command(doc), "start.txt")
    try:
        refused = front("--json", "choose-file", str(wanted), expect=3).json["error"]  # no dialog open
        assert "is no file dialog" in refused["message"] and "--keys ctrl+o" in refused["hint"], refused
        relative = front("--json", "choose-file", "invoices/inv-0217.txt", expect=2).json["error"]
        assert "absolute path" in relative["message"], relative
        out = front("choose-file", str(wanted), "--keys", "ctrl+o").out
        assert f"opened {wanted}" in out and "inv-0217.txt" in out, out
        assert "inv-0217.txt" in wait_title(desktop, "Mousepad")
        assert not any(t == "Open File" for t in titles(desktop))
        state = front("--json", "state").json["result"]
        assert any("Invoice INV-0217" in (t.get("value") or "") for t in state["targets"]), state["targets"]
    finally:
        stop_app(proc)


@pytest.mark.parametrize("via", ["cli", "daemon"])
def test_mousepad_saves_as_a_new_file_and_refuses_to_replace_one(desktop, tmp_path, winctl, daemon, via):
    """The trial's mousepad-save-as: the typed text is on disk under the new name, and the title
    names it. A file that is there is left as it was (bytes and time) without --overwrite, the
    dialog still open; with it, the app's "replace?" question is answered and the file saved."""
    front = front_of(winctl, daemon, via)
    doc = tmp_path / "draft.txt"
    doc.write_text("")
    (tmp_path / "reports").mkdir()
    proc = start_app(desktop, mousepad_command(doc), "draft.txt")
    try:
        front("type", "Minutes of Monday")
        target = tmp_path / "reports" / "minutes.txt"
        out = front("choose-file", str(target), "--keys", "ctrl+shift+s").out
        assert f"saved {target}" in out, out
        assert target.read_text().rstrip("\n") == "Minutes of Monday"
        assert "minutes.txt" in wait_title(desktop, "Mousepad")

        there = tmp_path / "reports" / "old.txt"
        there.write_text("keep me\n")
        before = os.stat(there)
        failed = front("--json", "choose-file", str(there), "--keys", "ctrl+shift+s", expect=4).json["error"]
        assert "is there already: not replaced" in failed["message"] and "--overwrite" in failed["hint"], failed
        assert there.read_text() == "keep me\n" and os.stat(there).st_mtime_ns == before.st_mtime_ns
        wait_for_window(desktop, "Save As")  # the dialog stays for another try
        out = front("choose-file", str(there), "--overwrite").out
        assert "the app asked to replace the file: replaced" in out, out
        assert there.read_text().rstrip("\n") == "Minutes of Monday"
        assert "old.txt" in wait_title(desktop, "Mousepad")
    finally:
        stop_app(proc)


def test_mousepad_a_missing_file_or_folder_fails_with_what_the_app_said(desktop, tmp_path, winctl):
    """A file that is not there: Mousepad's "Failed to open the document" window, quoted, exit 4
    (its window, titled "Mousepad", was read as the main window "a.txt - Mousepad" before: the
    error's text was not found). A save into a missing folder: GTK's message, quoted; no file."""
    doc = tmp_path / "a.txt"
    doc.write_text("a\n")
    proc = start_app(desktop, mousepad_command(doc), "a.txt")
    try:
        missing = tmp_path / "nope.txt"
        failed = winctl("--json", "choose-file", str(missing), "--keys", "ctrl+o", expect=4).json["error"]
        assert "Failed to open the document" in failed["message"], failed
        assert "No such file or directory" in failed["message"] and "nothing was opened" in failed["message"], failed
        assert not any("nope.txt" in t for t in titles(desktop))
        winctl("keys", "Escape")  # the app's message
        deadline = time.monotonic() + TITLE_WAIT
        while any(t == "Mousepad" for t in titles(desktop)):
            assert time.monotonic() < deadline, titles(desktop)
            time.sleep(0.1)

        nowhere = tmp_path / "no-such-folder" / "b.txt"
        failed = winctl("--json", "choose-file", str(nowhere), "--keys", "ctrl+shift+s", expect=4).json["error"]
        assert "No such file or directory" in failed["message"] and "nothing was saved" in failed["message"], failed
        assert not nowhere.parent.exists()
    finally:
        stop_app(proc)


def test_featherpad_qt_dialog_opens_and_saves_by_path(desktop, tmp_path, winctl, launch):
    """Qt 5's own file dialog ("File name:" field, Open/Save buttons): a file opened (the title
    names it), a missing one refused (Qt keeps Open disabled; the dialog stays), a Save As written."""
    doc = tmp_path / "todo.txt"
    doc.write_text("todo\n")
    other = tmp_path / "other.txt"
    other.write_text("call Bob\n")
    app = launch(featherpad_command(doc), title="todo.txt")  # Qt joins the bus when launched so
    wait_for(winctl, ("MenuItem", "File"), ("Button", "Open"), app=app)
    out = winctl("choose-file", str(other), "--keys", "ctrl+o").out
    assert f"opened {other}" in out, out
    assert "other.txt" in wait_title(desktop, "other.txt")
    failed = winctl("--json", "choose-file", str(tmp_path / "nope.txt"), "--keys", "ctrl+o", expect=4).json["error"]
    assert "stayed disabled" in failed["message"] and "no such file" in failed["message"], failed
    assert "is still open" in failed["message"] and not window_gone(desktop, "Open file")
    winctl("keys", "Escape")
    copy = tmp_path / "copy.txt"
    out = winctl("choose-file", str(copy), "--keys", "ctrl+shift+s").out
    assert f"saved {copy}" in out, out
    assert copy.read_text() == "call Bob\n"
    assert "copy.txt" in wait_title(desktop, "copy.txt")


def test_choose_file_through_mcp(desktop, tmp_path):
    """The same command as an MCP tool: Mousepad opens the file; the title names it."""
    wanted = tmp_path / "mcp-note.txt"
    wanted.write_text("from mcp\n")
    doc = tmp_path / "first.txt"
    doc.write_text("first\n")
    proc = start_app(desktop, mousepad_command(doc), "first.txt")
    try:

        async def script(session):
            return await session.call_tool("choose_file", {"path": str(wanted), "keys": "ctrl+o"})

        result = run_client(desktop, tmp_path, script, args=("mcp", "--tools", "core,windows"))
        assert not result.is_error, result.content
        assert f"opened {wanted}" in result.content[0].text
        assert "mcp-note.txt" in wait_title(desktop, "Mousepad")
    finally:
        stop_app(proc)


def test_libreoffice_gtk_dialog_opens_into_a_new_window_and_replaces_when_asked(desktop, tmp_path, winctl):
    """LibreOffice with its GTK plugin: the file opens in a window of its own (a new window is
    not a message: it was taken for one); over an existing file, with --overwrite, its "replace?"
    question — titled "Save" like the dialog under it, whose texts were read for it — is
    answered Yes, and the file on disk is the document saved again."""
    first = odf.write_text_document(tmp_path / "first.odt", ["first"])
    other = odf.write_text_document(tmp_path / "other.odt", ["the other one"])
    there = odf.write_text_document(tmp_path / "there.odt", ["to be replaced"])
    proc = start_soffice(desktop, tmp_path, "--writer", str(first), title="first.odt - LibreOffice Writer")
    try:
        winctl("focus", "first.odt - LibreOffice Writer")
        out = winctl("choose-file", str(other), "--keys", "ctrl+o", "--timeout", "30").out
        assert f"opened {other}" in out, out
        wait_title(desktop, "other.odt - LibreOffice Writer")
        before = os.stat(there).st_mtime_ns
        out = winctl("choose-file", str(there), "--keys", "ctrl+shift+s", "--overwrite", "--timeout", "30").out
        assert f"saved {there}" in out and "the app asked to replace the file: replaced" in out, out
        assert os.stat(there).st_mtime_ns != before
        with zipfile.ZipFile(there) as saved:
            assert b"the other one" in saved.read("content.xml")
        assert "there.odt" in wait_title(desktop, "there.odt")
    finally:
        stop_app(proc)
        subprocess.run(["pkill", "-P", str(proc.pid)], check=False)


def test_geany_opens_by_path(desktop, tmp_path, winctl, geany):
    """Geany's GTK 3 chooser (ctrl+o): the file opens in a tab, and the title names it."""
    wanted = tmp_path / "deep" / "g1.txt"
    wanted.parent.mkdir()
    wanted.write_text("other file\n")
    winctl("focus", geany)
    out = winctl("choose-file", str(wanted), "--keys", "ctrl+o").out
    assert f"opened {wanted}" in out, out
    assert wait_title(desktop, "g1.txt").startswith("g1.txt")
