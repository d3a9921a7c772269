"""What the core page (`winctl skill`) tells an agent, done on a real app as it says.

Round 1 of the agent trial: agents called `windows` and `focus` before `state` on
one-window tasks (18 and 16 calls in 14 runs), and after ctrl+s spent 2-3 calls looking for
a "modified" mark. The core now says that `state` reads the active window, and that a save
worked when no dialog appears and the title loses its `*`. Both are checked here on
Mousepad, in its window title (wmctrl) and its file on disk, through the one-shot CLI and
the session's daemon.
"""

from __future__ import annotations

import re
import time

import pytest

from tests.conftest import start_app, stop_app
from tests.e2e.helpers.apps import document, title_of, wait_for_file, wait_title
from tests.fixtures.toolkit_apps import mousepad_command
from winactions import skill

pytestmark = pytest.mark.desktop


def test_the_core_says_what_this_test_checks():
    core = skill.core()
    assert "`state` reads the active window" in core
    assert (
        "`winctl keys ctrl+s --return-state`: saved when no dialog appears and the `Window:` line no\n"
        "longer ends in `modified`" in core
    )


@pytest.mark.parametrize("via", ["cli", "daemon"])
def test_state_reads_the_active_window_and_a_save_shows_in_the_title(desktop, tmp_path, winctl, daemon, via):
    front = winctl if via == "cli" else daemon
    doc = tmp_path / "notes.txt"
    doc.write_text("draft\n")
    proc = start_app(desktop, mousepad_command(doc), "notes.txt")
    try:
        state = front("state").out  # the first call: no `windows`, no `focus`
        assert re.match(r'Window: "[^"]*notes\.txt', state), state
        front("input", str(document(front)), "saved by winctl")
        assert wait_title(desktop, "notes.txt", starred=True).startswith("*")
        saved = front("keys", "ctrl+s", "--return-state").out
        header = next(line for line in saved.splitlines() if line.startswith("Window:"))
        assert "notes.txt" in header and '"*' not in header, saved
        assert not wait_title(desktop, "notes.txt", starred=False).startswith("*")
        assert "saved by winctl" in wait_for_file(doc, "saved by winctl")
    finally:
        stop_app(proc)


def test_the_files_topic_opens_a_file_by_path_in_a_gtk_chooser(desktop, tmp_path, winctl):
    """`winctl skill files` gives the recipe the trial's agents arrived at after Enter in the
    location field did not open the file: ctrl+o, ctrl+l, the path into the location field,
    then the Open button. Done word for word on Mousepad; its title (wmctrl) names the file."""
    recipe = skill.topic("files")
    for step in ("winctl keys ctrl+l", 'winctl input ID "/home/me/notes/a.txt"', "winctl click ID"):
        assert step in recipe
    (tmp_path / "deep").mkdir()
    wanted = tmp_path / "deep" / "inv-0217.txt"
    wanted.write_text("invoice 217\n")
    doc = tmp_path / "start.txt"
    doc.write_text("start\n")
    proc = start_app(desktop, mousepad_command(doc), "start.txt")
    try:
        winctl("keys", "ctrl+o")
        winctl("keys", "ctrl+l")
        state = wait_state(winctl, lambda s: "Open" in s["window"]["title"] and edits(s))
        winctl("input", str(edits(state)[0]), str(wanted))
        winctl("click", str(next(t["id"] for t in state["targets"] if t["type"] == "Button" and t["name"] == "Open")))
        deadline = time.monotonic() + 10
        while "inv-0217.txt" not in title_of(desktop, "Mousepad"):
            assert time.monotonic() < deadline, title_of(desktop, "Mousepad")
            time.sleep(0.2)
    finally:
        stop_app(proc)


def edits(state: dict) -> list[int]:
    return [t["id"] for t in state["targets"] if t["type"] == "Edit"]


def wait_state(winctl, ready, timeout: float = 15.0) -> dict:
    """A fresh state once `ready(state)` holds (a dialog's tree fills in after it appears)."""
    deadline = time.monotonic() + timeout
    while True:
        run = winctl("--json", "state", expect=None)
        if run.code == 0 and ready(run.json["result"]):
            return run.json["result"]
        assert time.monotonic() < deadline, f"{run.out}{run.err}"
        time.sleep(0.3)
