"""Clicks with held modifiers, keys held across commands, and drags by any button, checked in
what the apps themselves saw: a GTK tree view's own selection (its log and its accessibility
states), a pad that logs each press's button and modifiers, and the X server's keymap."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from Xlib.display import Display

from tests.conftest import Winctl, run_in_process, start_app, stop_app
from tests.e2e.helpers.keyboard import held_down
from tests.fixtures.applog import AppLog
from tests.fixtures.launch import HERE, SYSTEM_PYTHON, gtk_fixture_command

pytestmark = pytest.mark.desktop

LIST = "Several Rows"
PAD = "Pointer Pad"


@pytest.fixture
def rows(desktop, winctl: Winctl, tmp_path: Path) -> Iterator[AppLog]:
    """The GTK fixture whose tree view keeps several rows selected, focused; its event log."""
    log = AppLog(str(tmp_path / "rows.jsonl"))
    proc = start_app(desktop, gtk_fixture_command(log.path.as_posix(), rows=20, title=LIST, multiple=True), LIST)
    winctl("focus", LIST)
    yield log
    stop_app(proc)


@pytest.fixture
def pad(desktop, winctl: Winctl, tmp_path: Path) -> Iterator[AppLog]:
    """tests/fixtures/pointer_pad.py, focused; its event log."""
    log = AppLog(str(tmp_path / "pad.jsonl"))
    command = [SYSTEM_PYTHON, str(HERE / "pointer_pad.py"), "--title", PAD, "--log", log.path.as_posix()]
    proc = start_app(desktop, command, PAD)
    winctl("focus", PAD)
    yield log
    stop_app(proc)


def selection(log: AppLog, rows: list[int], since: int) -> None:
    """Wait until the app's own selection is exactly `rows` (0-based)."""
    deadline = time.monotonic() + 5
    while True:
        seen = log.events("selection", since=since)
        if seen and seen[-1]["rows"] == rows:
            return
        assert time.monotonic() < deadline, f"the app's selection is {seen[-1:]} not {rows}"
        time.sleep(0.05)


def selected_names(winctl: Winctl) -> set[str]:
    """The file names whose cells the accessibility tree says are selected."""
    return {
        t["name"]
        for t in winctl.state("--verbose")["targets"]
        if t["name"].startswith("file-") and "selected" in t.get("states", [])
    }


def test_shift_click_selects_a_range_and_ctrl_click_adds_a_row(winctl, rows):
    """The range runs from the row the app last took a click on: the first row is clicked with
    the mouse (a row selected through the tree's Table.AddRowSelection does not move GTK's
    cursor, and a shift-click after it selected nothing new)."""
    start = rows.mark()
    winctl("click", "file-003.txt", "--via", "input")
    selection(rows, [2], start)
    ranged = winctl("--json", "click", "file-006.txt", "--modifiers", "shift").json["result"]
    assert ranged["method"] == "mouse" and "with shift held" in ranged["detail"], ranged
    selection(rows, [2, 3, 4, 5], start)
    added = winctl("--json", "click", "file-009.txt", "--modifiers", "ctrl").json["result"]
    assert added["method"] == "mouse", added
    selection(rows, [2, 3, 4, 5, 8], start)
    assert selected_names(winctl) == {f"file-{i:03d}.txt" for i in (3, 4, 5, 6, 9)}
    assert held_down(winctl.desk) == set()


def test_key_down_shift_then_a_click_selects_a_range(winctl, rows):
    start = rows.mark()
    winctl("click", "file-002.txt", "--via", "input")
    selection(rows, [1], start)
    down = winctl("key-down", "shift").out
    assert "down now: shift" in down, down
    assert held_down(winctl.desk) == {"shift"}  # still down after the command's process let go of X
    clicked = winctl("--json", "click", "file-005.txt").json["result"]
    assert clicked["method"] == "mouse" and "shift down" in clicked["detail"], clicked
    selection(rows, [1, 2, 3, 4], start)
    up = winctl("key-up", "shift").out
    assert "still down: none" in up, up
    assert held_down(winctl.desk) == set()
    later = rows.mark()
    winctl("click", "file-010.txt", "--via", "input")  # shift is up: a plain click replaces the range
    selection(rows, [9], later)


def test_a_key_left_down_is_released_when_the_session_closes(winctl, rows, one_shot):
    """Pressed by a process of its own (`--no-daemon`) that has ended since: X keeps the key
    down, and the session file remembers it for `session close`."""
    one_shot("key-down", "ctrl")
    assert held_down(winctl.desk) == {"ctrl"}
    elsewhere = run_in_process(("--json", "session", "close", "default"), {**winctl.env, "DISPLAY": ":97"})
    assert elsewhere.code == 0, elsewhere.err  # the daemon is closed however the release went
    assert elsewhere.json["result"]["released"][0].startswith("nothing of session default: "), elsewhere.out
    assert held_down(winctl.desk) == {"ctrl"}  # still remembered, for a close that can reach the display
    closed = winctl("--json", "session", "close", "default").json["result"]
    assert closed["released"] == ["ctrl (session default)"], closed
    assert held_down(winctl.desk) == set()
    again = winctl("--json", "session", "close", "default").json["result"]
    assert again["released"] == []  # nothing is held any more


def test_click_at_holds_the_modifiers_the_app_then_sees(winctl, pad):
    spot = next(t for t in winctl.state("--verbose")["targets"] if t["name"] == "Pad")
    left, top, right, bottom = spot["rect"]
    x, y = (left + right) // 2, (top + bottom) // 2
    seen = pad.mark()
    winctl("click-at", str(x), str(y), "--modifiers", "shift,ctrl")
    press = pad.wait_for("press", since=seen)
    assert (press["button"], press["modifiers"], press["x"], press["y"]) == (1, ["shift", "ctrl"], x, y), press
    seen = pad.mark()
    winctl("click-at", str(x), str(y), "--button", "middle", "--modifiers", "shift")
    press = pad.wait_for("press", since=seen)
    assert (press["button"], press["modifiers"]) == (2, ["shift"]), press
    assert held_down(winctl.desk) == set()  # released after the click


@pytest.mark.parametrize(("button", "number"), [("middle", 2), ("right", 3)])
def test_drag_holds_the_button_asked_for(winctl, pad, button, number):
    spot = next(t for t in winctl.state("--verbose")["targets"] if t["name"] == "Pad")
    left, top, right, bottom = spot["rect"]
    seen = pad.mark()
    done = winctl("drag", str(spot["id"]), str(left + 20), str(top + 20), "--button", button).out
    assert f"with the {button} button" in done, done
    press = pad.wait_for("press", since=seen)
    release = pad.wait_for("release", since=seen)
    assert press["button"] == release["button"] == number, (press, release)
    assert (press["x"], press["y"]) == ((left + right) // 2, (top + bottom) // 2)
    assert (release["x"], release["y"]) == (left + 20, top + 20) and release["moves"] > 0, release


def test_bad_modifiers_and_unheld_keys_are_refused_before_anything_is_done(winctl, rows):
    start = rows.mark()
    bad = winctl("--json", "click", "file-004.txt", "--modifiers", "shift,banana", expect=None)
    assert bad.code != 0 and "banana" in bad.json["error"]["message"], bad.out
    semantic = winctl("--json", "click", "file-004.txt", "--modifiers", "ctrl", "--via", "semantic", expect=None)
    assert semantic.code != 0 and "--via semantic" in semantic.json["error"]["message"], semantic.out
    accent = winctl("--json", "key-down", "é", expect=None)
    assert accent.code != 0 and "keymap" in accent.json["error"]["message"], accent.out
    time.sleep(0.3)
    assert rows.events("selection", since=start) == []
    assert held_down(winctl.desk) == set()
    assert "released nothing; still down: none" in winctl("key-up", "all").out  # the session holds nothing


def test_a_button_left_down_is_released_when_the_session_closes(winctl, pad, one_shot):
    spot = next(t for t in winctl.state("--verbose")["targets"] if t["name"] == "Pad")
    left, top, right, bottom = spot["rect"]
    seen = pad.mark()
    one_shot("mouse-down", str((left + right) // 2), str((top + bottom) // 2), "--button", "middle")
    assert pad.wait_for("press", since=seen)["button"] == 2
    closed = winctl("--json", "session", "close", "default").json["result"]
    assert closed["released"] == ["the middle mouse button (session default)"], closed
    assert pad.wait_for("release", since=seen)["button"] == 2  # the app saw the button go up
    display = Display(winctl.desk.env["DISPLAY"])
    try:
        assert not display.screen().root.query_pointer().mask & 0x1F00  # no button down
    finally:
        display.close()


def test_keys_held_through_the_daemon_go_up_with_its_session(winctl, rows, daemon):
    """The daemon pressed them; `session close` stops it, then lets go of what its session
    still holds."""
    assert "down now: shift alt" in daemon("key-down", "shift", "alt").out
    assert held_down(winctl.desk) == {"shift", "alt"}
    assert "still down: alt" in daemon("key-up", "shift").out
    closed = daemon("--json", "session", "close", "--all").json["result"]
    assert closed["released"] == ["alt (session default)"], closed
    assert held_down(winctl.desk) == set()


def test_mcp_takes_modifiers_as_a_list_or_a_comma_string(winctl, pad, desktop, tmp_path):
    """Super, not alt, with the right button: openbox takes alt with a button for itself (alt
    and the left button moves the window, alt and the right resizes it); the app saw nothing."""
    from tests.e2e.helpers.mcp_client import run_client

    spot = next(t for t in winctl.state("--verbose")["targets"] if t["name"] == "Pad")
    left, top, right, bottom = spot["rect"]
    x, y = (left + right) // 2, (top + bottom) // 2

    async def script(session):
        await session.call_tool("focus", {"window": PAD})
        first = await session.call_tool("click_at", {"x": x, "y": y, "modifiers": "ctrl,shift"})
        second = await session.call_tool("click_at", {"x": x, "y": y, "modifiers": ["super"], "button": "right"})
        bad = await session.call_tool("click_at", {"x": x, "y": y, "modifiers": "hyper"})
        return first, second, bad

    seen = pad.mark()
    first, second, bad = run_client(desktop, tmp_path, script)
    assert not first.is_error and not second.is_error, (first, second)
    presses = pad.events("press", since=seen)
    assert [(p["button"], p["modifiers"]) for p in presses] == [(1, ["shift", "ctrl"]), (3, ["super"])], presses
    assert bad.is_error and "hyper" in bad.content[0].text, bad
    assert held_down(winctl.desk) == set()
