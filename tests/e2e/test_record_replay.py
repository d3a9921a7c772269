"""`winctl record` keeps a session's commands from every front end, and `winctl replay` acts
them again by names in a new run of the app, checked by what the app itself did (its event
log), on the live GTK fixture."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import environment, start_app, stop_app
from tests.e2e.helpers.mcp_client import run_client
from tests.fixtures.applog import AppLog
from tests.fixtures.launch import gtk_fixture_command, hostile_command

TITLE = "Record Fixture"


def _app(desktop, winctl, folder: Path, rows: int = 5):
    """The GTK fixture app focused in winctl's session: (its process, its event log)."""
    folder.mkdir(parents=True, exist_ok=True)
    log = folder / "events.jsonl"
    proc = start_app(desktop, gtk_fixture_command(str(log), rows=rows, title=TITLE), TITLE)
    winctl("focus", TITLE)
    return proc, AppLog(str(log))


def _lines(folder: Path) -> list[dict]:
    return [json.loads(line) for line in (folder / "session.jsonl").read_text().splitlines()]


@pytest.fixture
def recorded(desktop, winctl, daemon, tmp_path):
    """A session recorded through the CLI (one-shot and through the session's daemon), the
    Python API and MCP on one run of the app, which is closed after: (the record's folder,
    what that run of the app logged)."""
    record = tmp_path / "record"
    proc, log = _app(desktop, winctl, tmp_path / "first")
    try:
        name = winctl.find("Edit", "Name")
        assert "started" in winctl("record", "start", str(record)).out
        winctl("input", str(name), "hello record")  # by id: the record keeps its name
        winctl("get", "value", str(name))  # a read: kept, without pictures
        from winactions import Desktop

        with environment(winctl.env), Desktop() as live:
            live.click("Enable feature")

        async def script(session):
            return await session.call_tool("input", {"name": "Notes", "text": "from mcp"})

        # the MCP server of the same session (its own is `mcp`): the session's record keeps its calls
        called = run_client(desktop, tmp_path, script, ("--session", "default", "mcp", "--tools", "all"))
        assert not called.is_error, called.content[0].text
        daemon("click", "file-005.txt")  # the session's daemon: a process of its own, the same switch
        status = winctl("--json", "record", "status").json["result"]
        assert status["recording"] and status["steps"] == 5, status
        assert "stopped" in winctl("record", "stop").out
        assert log.wait_for("toggled", active=True) and log.wait_for("notes_changed", text="from mcp")
    finally:
        stop_app(proc)
    return record, log


def test_a_session_is_recorded_from_every_front_end_and_replayed_in_a_new_run(desktop, winctl, tmp_path, recorded):
    record, _ = recorded
    header, *calls = _lines(record)
    assert header["event"] == "session-record" and header["format"] == 1 and header["platform"] == "linux"
    assert [c["command"] for c in calls] == ["input", "get value", "click", "input", "click"]
    first = calls[0]
    assert first["element"]["name"] == "Name" and first["element"]["type"] == "Edit"
    assert first["element"]["value_after"] == "hello record"
    assert calls[4]["element"]["path"] == ['SplitPane "Splitter"', 'Table "Files"']  # its parents, by name
    assert first["args"]["text"] == "hello record" and first["ok"] is True
    assert any("'hello record'" in c for c in first["changes"]), first["changes"]
    for c in (calls[0], *calls[2:]):  # acting calls: the window before and after, as small JPEGs
        for when in ("before", "after"):
            picture = record / c[when]
            assert picture.read_bytes()[:3] == b"\xff\xd8\xff" and picture.stat().st_size < 200_000
    assert "before" not in calls[1] and "after" not in calls[1] and calls[1]["result"].strip() == "hello record"
    assert calls[3]["element"]["name"] == "Notes"  # the MCP call, kept by the session's record

    proc, log = _app(desktop, winctl, tmp_path / "second")  # a new run of the app: other ids, same names
    try:
        again = tmp_path / "replayed"
        out = winctl("replay", str(record), "--record", str(again)).out
        assert out.startswith("replayed 4 of 4 steps"), out
        assert log.wait_for("entry_changed", text="hello record")
        assert log.wait_for("toggled", active=True)
        assert log.wait_for("notes_changed", text="from mcp")
        assert log.wait_for("selection_changed", name="file-005.txt")
        assert winctl("get", "value", "Name").out.strip() == "hello record"  # read back through AT-SPI
        # --record keeps the replay as a session record of its own, which replays too
        assert [c["command"] for c in _lines(again)[1:]] == ["input", "click", "input", "click"]
        assert not (winctl("--json", "record", "status").json["result"]["recording"])
    finally:
        stop_app(proc)


def test_a_replay_stops_at_the_step_whose_element_is_gone_and_says_which(desktop, winctl, tmp_path, recorded):
    record, _ = recorded
    proc, log = _app(desktop, winctl, tmp_path / "short", rows=3)  # no row file-005.txt in this run
    try:
        looked = winctl("replay", str(record), "--dry-run", expect=4).out  # a dry run finds it gone too...
        assert "failed at step 5 (click); located 3 of 4 steps" in looked, looked
        assert not log.events("entry_changed") and not log.events("toggled")  # ...and acts on nothing
        failed = winctl("replay", str(record), expect=4)
        assert "failed at step 5 (click)" in failed.out, failed.out
        assert "file-005.txt" in failed.out and "the replay stopped at step 5" in failed.err, failed.err
        assert log.wait_for("notes_changed", text="from mcp")  # the steps before it were done...
        assert not log.events("selection_changed", name="file-005.txt")  # ...and nothing after
    finally:
        stop_app(proc)


def test_a_password_typed_while_recording_is_never_kept(desktop, winctl, tmp_path):
    record = tmp_path / "secret-record"
    log_path = tmp_path / "hostile.jsonl"
    proc = start_app(desktop, hostile_command(str(log_path), title="Hostile Record"), "Hostile Record")
    try:
        winctl("focus", "Hostile Record")
        winctl("record", "start", str(record))
        winctl("input", "Secret", "n3w-passw0rd")
        winctl("record", "stop")
        assert AppLog(str(log_path)).wait_for("secret_changed", length=len("n3w-passw0rd"))
        kept = (record / "session.jsonl").read_text()
        assert "n3w-passw0rd" not in kept and "hunter2" not in kept
        call = _lines(record)[1]
        assert call["args"]["text"] == "[secret]" and call["masked"] is True
        failed = winctl("replay", str(record), expect=4)  # the text is not there to type again
        assert "password field" in failed.out, failed.out
    finally:
        stop_app(proc)


def test_a_mousepad_session_replays_into_a_new_mousepad_and_saves_the_same_file(desktop, winctl, launch, tmp_path):
    """A Debian app: text written into Mousepad's unnamed text view and saved with ctrl+s;
    the replay, in a new Mousepad on the emptied file, finds the view by its type and path
    and saves the same text."""
    from tests.e2e.helpers.apps import stop_group
    from tests.fixtures.toolkit_apps import mousepad_command

    doc, record = tmp_path / "doc.txt", tmp_path / "mousepad-record"
    doc.write_text("")
    first = launch(mousepad_command(doc), title="doc.txt")
    edit = winctl.find("Edit", "")
    winctl("record", "start", str(record))
    winctl("input", str(edit), "written by a record")
    winctl("keys", "ctrl+s")
    winctl("record", "stop")
    assert _saved(doc, "written by a record")
    view = _lines(record)[1]["element"]
    assert view["name"] == "" and view["type"] == "Edit" and view["path"]  # found again by type and path
    stop_group(first.group)

    doc.write_text("")
    launch(mousepad_command(doc), title="doc.txt")
    out = winctl("replay", str(record)).out
    assert out.startswith("replayed 2 of 2 steps"), out
    assert _saved(doc, "written by a record")  # the app's own file


def _saved(path: Path, text: str, timeout: float = 5.0) -> bool:
    import time

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and path.read_text() != text:
        time.sleep(0.1)
    return path.read_text() == text


def test_a_record_that_cannot_be_written_leaves_mousepads_save_reported_done(desktop, winctl, launch, tmp_path):
    """The record's log taken away mid-session (a full disk, a folder removed): the `keys
    ctrl+s` that found it out still exits 0 and says the record stopped; Mousepad saved the
    file, and recording is off. Before, the call failed after its act was done."""
    from tests.e2e.helpers.apps import stop_group
    from tests.fixtures.toolkit_apps import mousepad_command

    doc, record = tmp_path / "doc.txt", tmp_path / "lost-record"
    doc.write_text("")
    opened = launch(mousepad_command(doc), title="doc.txt")
    try:
        winctl("input", str(winctl.find("Edit", "")), "kept by the app")
        winctl("record", "start", str(record))
        log = record / "session.jsonl"
        log.unlink()
        log.mkdir()  # the log can no longer be opened for writing
        saved = winctl("keys", "ctrl+s")
        assert "cannot write the record in" in saved.out and "recording stopped before step 1" in saved.out, saved.out
        assert _saved(doc, "kept by the app")  # the app's own file
        assert "not recording" in winctl("record", "status").out
    finally:
        stop_group(opened.group)
