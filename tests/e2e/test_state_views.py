"""What agent CLIs have that we lacked (issue 16.6), against the GTK fixture app:
`state --diff`, `--max-elements`, `--scope ID`, `wait --text / --gone-text`, and global
options after the command (16.2). Outcomes are checked in the app's own event log too."""

from __future__ import annotations

import time

import pytest

from tests.conftest import start_app, stop_app
from tests.fixtures.applog import AppLog
from tests.fixtures.launch import gtk_fixture_command

pytestmark = pytest.mark.desktop
TITLE = "Winactions Fixture"


@pytest.fixture
def app(desktop, tmp_path, winctl):
    log_path = tmp_path / "events.jsonl"
    proc = start_app(desktop, gtk_fixture_command(str(log_path), rows=60, title=TITLE), TITLE)
    winctl("focus", TITLE)
    yield AppLog(str(log_path))
    stop_app(proc)


def test_global_options_after_the_command(winctl, app):
    run = winctl("state", "--json", "--window", TITLE)
    assert run.json["ok"] is True and run.json["result"]["window"]["title"] == TITLE
    assert winctl("state", "--session", "other", "--json").json["result"]["window"]["title"] == TITLE


def test_max_elements_caps_the_list_and_says_how_many_were_left_out(winctl, app):
    full = winctl.state()["targets"]
    capped = winctl("--json", "state", "--max-elements", "5").json["result"]
    assert [t["id"] for t in capped["targets"]] == [t["id"] for t in full[:5]]
    assert capped["omitted"] == len(full) - 5
    text = winctl("state", "--max-elements", "5").out
    assert f"({len(full) - 5} more elements not listed" in text
    later = {t["id"] for t in full[5:]}
    assert later <= {t["id"] for t in winctl.state()["targets"]}  # the ids left out stay valid


def test_scope_lists_only_one_elements_subtree(winctl, app):
    full = winctl("--json", "state", "--verbose").json["result"]["targets"]
    table = next(t for t in full if t["type"] == "Table")
    scoped = winctl("--json", "state", "--scope", str(table["id"]), "--verbose").json["result"]
    ids = [t["id"] for t in scoped["targets"]]
    assert ids[0] == table["id"] and len(ids) > 20
    assert {t["type"] for t in scoped["targets"][1:]} <= {"HeaderItem", "DataItem", "ScrollBar"}
    assert not any(t["type"] == "Button" for t in scoped["targets"])
    missing = winctl("state", "--scope", "99999", expect=None)
    assert missing.code == 3 and "scope 99999: no element" in missing.err and "internal error" not in missing.err


def test_diff_shows_added_removed_and_changed_elements(winctl, app):
    state = winctl.state()
    assert "(nothing changed)" in winctl("state", "--diff").out
    name = winctl.find("Edit", "Name", state)
    winctl("input", str(name), "hello diff")
    run = winctl("--json", "state", "--diff")
    diff = run.json["result"]["diff"]
    change = next(c for c in diff["changed"] if c["id"] == name)
    assert change["value"]["after"] == "hello diff"
    assert "hello diff" in winctl("get", "text", str(name)).out  # the app holds it

    winctl("click", str(winctl.find("Menu", "File", state)))
    time.sleep(0.5)
    opened = winctl("state", "--diff").out
    assert "+ [" in opened and '"Open Dialog…"' in opened and "unchanged)" in opened
    winctl("keys", "Escape")
    time.sleep(0.5)
    closed = winctl("state", "--diff").out
    assert "- [" in closed and '"Open Dialog…"' in closed

    winctl("click", str(winctl.find("Button", "Add Row", state)))
    app.wait_for("row_added")
    added = winctl("state", "--diff").out
    assert any(line.startswith(("+", "~")) and "added-1.txt" in line for line in added.splitlines()), added


def test_wait_for_text_to_appear_and_go(winctl, app):
    state = winctl.state()
    winctl("click", str(winctl.find("Button", "Apply", state)))
    run = winctl("--json", "wait", "--text", "applied 1", "--timeout", "5")
    assert run.json["result"]["target"]["name"] == "Applied 1"
    app.wait_for("clicked")
    winctl("click", str(winctl.find("Button", "Reset", state)))
    assert 'text "Applied" gone' in winctl("wait", "--gone-text", "Applied", "--timeout", "5").out
    late = winctl("wait", "--text", "never shown anywhere", "--timeout", "0.5", expect=None)
    assert late.code != 0 and "no element shows" in late.err


def test_options_after_the_command_reach_the_daemon_through_the_console_script(app, desktop, tmp_path):
    """The thin client finds `--session` after the command too, so the call goes to that
    session's daemon, and `--json` after it shapes the daemon's answer."""
    import json
    import subprocess
    import sys
    from pathlib import Path

    winctl_script = str(Path(sys.executable).with_name("winctl"))
    env = {**desktop.env, "XDG_RUNTIME_DIR": str(tmp_path / "runtime")}
    (tmp_path / "runtime").mkdir(mode=0o700, exist_ok=True)

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([winctl_script, *args], env=env, capture_output=True, text=True, timeout=120)

    try:
        done = run("state", "--window", TITLE, "--json", "--session", "after")
        assert done.returncode == 0, done.stderr
        assert json.loads(done.stdout)["result"]["window"]["title"] == TITLE
        listed = json.loads(run("sessions", "--json").stdout)["result"]["sessions"]
        assert [s["session"] for s in listed] == ["after"]
    finally:
        run("session", "close", "--all")


def test_the_python_api_takes_scope_max_elements_and_diff(winctl, app):
    from tests.conftest import environment
    from winactions import Desktop

    with environment(winctl.env), Desktop(window=TITLE) as desktop:
        full = desktop.state()
        table = next(t for t in full.targets if t.type == "Table")
        scoped = desktop.state(scope=table.id)
        assert scoped.targets[0].id == table.id and all(t.type != "Button" for t in scoped.targets)
        assert len(desktop.state(max_elements=4).targets) == 4
        changes = desktop.call("state", diff=True)
        assert changes.diff is not None and changes.diff.since is not None and not changes.diff.removed
