"""What `--return-state` and `state --diff` compare with, and an action that closes its window.

Found in round 3 of the agent trial: on Chromium's checkout page an agent filled five fields in
one `batch`, then `click 26 --return-state` and `state --diff` showed none of the five values:
every read of the window inside an action (an input's read-back) had become the "state seen
last". The diff is now taken against the last state the caller was shown. On zenity's form,
`click OK --return-state` closed the dialog as asked and then failed ("the session's window …
is closed", exit 3), so the agent ran `windows` to learn that its click had worked.
"""

from __future__ import annotations

import json
import re
import subprocess

import pytest

from tests.conftest import start_app, stop_app
from tests.fixtures.applog import AppLog
from tests.fixtures.launch import gtk_fixture_command

pytestmark = pytest.mark.desktop
TITLE = "Baseline Fixture"
CHANGED = re.compile(r"^~ \[(\d+)\] ")


def changed_ids(out: str) -> set[int]:
    return {int(m.group(1)) for line in out.splitlines() if (m := CHANGED.match(line))}


@pytest.fixture
def app(desktop, tmp_path, winctl):
    log = AppLog(str(tmp_path / "events.jsonl"))
    proc = start_app(desktop, gtk_fixture_command(log.path.as_posix(), rows=5, title=TITLE), TITLE)
    winctl("focus", TITLE)
    yield log
    stop_app(proc)


@pytest.mark.parametrize("via", ["cli", "daemon"])
def test_changes_made_by_a_batch_show_in_the_next_diff(winctl, daemon, app, via):
    front = winctl if via == "cli" else daemon
    front("focus", TITLE)
    state = json.loads(front("--json", "state").out)["result"]  # what the agent saw
    ids = {(t["type"], t["name"]): t["id"] for t in state["targets"]}
    name, quantity, apply = ids["Edit", "Name"], ids["Spinner", "Quantity"], ids["Button", "Apply"]
    steps = [
        {"command": "input", "args": {"id": name, "text": "Ada"}},
        {"command": "input", "args": {"id": quantity, "text": "7"}},
    ]
    front("batch", json.dumps(steps))
    app.wait_for("entry_changed", text="Ada")
    app.wait_for("value_changed", widget="Quantity", value=7.0)
    out = front("click", str(apply), "--return-state").out
    assert {name, quantity} <= changed_ids(out), out  # both, though the batch read the window after each
    app.wait_for("clicked", widget="Apply")
    steps = [{"command": "input", "args": {"id": name, "text": "Grace"}}]
    front("batch", json.dumps(steps))
    app.wait_for("entry_changed", text="Grace")
    diff = front("state", "--diff").out
    assert name in changed_ids(diff) and '"Ada" -> "Grace"' in diff, diff
    assert quantity not in changed_ids(diff), diff  # shown already by the click's return


@pytest.mark.parametrize("via", ["cli", "daemon"])
def test_an_action_that_closes_its_window_succeeds_and_says_so(desktop, winctl, daemon, via):
    front = winctl if via == "cli" else daemon
    title = f"Closing {via}"
    proc = start_app(desktop, ["zenity", "--entry", f"--title={title}", "--text=Name:"], title)
    try:
        front("focus", title)
        ok = next(
            t["id"]
            for t in json.loads(front("--json", "state").out)["result"]["targets"]
            if t["type"] == "Button" and t["name"] == "OK"
        )
        done = front("click", str(ok), "--return-state")  # exit 0: the click did what it was asked
        assert "its window closed" in done.out, done.out
        assert proc.wait(timeout=10) == 0  # zenity's own word: OK, not Cancel (exit 1)
    finally:
        stop_app(proc)
    wmctrl = subprocess.run(["wmctrl", "-l"], env=desktop.env, capture_output=True, text=True).stdout
    assert title not in wmctrl


def test_input_at_a_column_header_is_refused_and_types_nothing(winctl, app):
    """The fixture's Edit "Name", its label and its table's column header "Name" share a name;
    `input 22 Ada` given the header's id typed "Ada" through GrabFocus and the keyboard into
    the table (its type-ahead search) and said `input [22] [HeaderItem] "Name" via
    Component.GrabFocus, keyboard`: a success the app never saw."""
    state = winctl.state()
    header = next(t["id"] for t in state["targets"] if t["type"] == "HeaderItem" and t["name"] == "Name")
    mark = app.mark()
    refused = winctl("input", str(header), "Ada", expect=4)
    assert "takes no text" in refused.err and "nothing was typed" in refused.err, refused.err
    assert app.events("key", since=mark) == [] and app.events("entry_changed", since=mark) == []
