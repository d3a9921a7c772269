"""The Python API on the real desktop: the README's example as written, the daemon's
structured calls, and options that must stay on their call (issue 12)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import start_app, stop_app
from tests.e2e.helpers.apps import stop_windows, window_pids
from tests.fixtures.applog import AppLog
from tests.fixtures.launch import gtk_fixture_command
from tests.fixtures.readme import printed_as_promised, promised_prints, python_block
from tests.fixtures.toolkit_apps import isolated_env

pytestmark = pytest.mark.desktop
WINCTL = str(Path(sys.executable).with_name("winctl"))


@pytest.fixture
def fixture_app(desktop, tmp_path):
    log = tmp_path / "events.jsonl"
    proc = start_app(desktop, gtk_fixture_command(str(log), rows=10), "Winactions Fixture")
    yield AppLog(str(log))
    stop_app(proc)


def test_the_readmes_python_example_runs_as_written(winctl, tmp_path):
    """From a scratch folder, so it needs no file of the checkout; Mousepad is checked from
    its side: the file it saved, and its window gone (wmctrl)."""
    code = python_block("## Python API")
    env = {**winctl.env, **isolated_env(tmp_path / "home")}
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120, cwd=tmp_path
    )
    try:
        assert done.returncode == 0, done.stderr
        assert printed_as_promised(code, done.stdout), f"README.md promises:\n{promised_prints(code)}\n{done.stdout}"
        assert (tmp_path / "hello.txt").read_text().rstrip("\n") == "hello"
        assert window_pids(env, "- Mousepad") == [], "close_window() said closed, but Mousepad's window is there"
    finally:
        stop_windows(env, "- Mousepad")


def daemon_call(env: dict[str, str], command: str, args: dict | None = None, options: dict | None = None) -> dict:
    code = (
        "import json, sys; from winactions.daemon.client import call; "
        "print(json.dumps(call('api', sys.argv[1], json.loads(sys.argv[2]), json.loads(sys.argv[3]))))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, command, json.dumps(args or {}), json.dumps(options or {})],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_the_daemon_takes_structured_calls(winctl, fixture_app):
    try:
        focus = daemon_call(winctl.env, "focus", {"window": "Winactions Fixture"})
        assert focus["ok"] and focus["type"] == "WindowResult"
        state = daemon_call(winctl.env, "state")
        assert state["ok"] and state["type"] == "StateResult"
        apply = next(t["id"] for t in state["result"]["targets"] if t["name"] == "Apply")
        clicked = daemon_call(winctl.env, "click", {"id": apply}, {"return_state": True})
        assert clicked["ok"] and clicked["result"]["method"] == "action:click" and clicked["result"]["state"]
        changes = clicked["result"]["changes"]  # what changed since the state above: the label
        named = {t["id"]: t["name"] for t in clicked["result"]["state"]["targets"]}
        assert changes["since"] and not changes["window_changed"] and changes["unchanged"] > 0, changes
        assert any(named[c["id"]] == "Applied 1" for c in changes["changed"]), changes
        assert apply not in [c["id"] for c in changes["changed"]] + changes["added"], changes
        fixture_app.wait_for("clicked", widget="Apply")
        missing = daemon_call(winctl.env, "click", {"id": 99999})
        assert missing["ok"] is False and missing["error"]["code"] == "not_found"
        assert "winctl" not in missing["error"]["hint"]
        bad = daemon_call(winctl.env, "click", {"id": apply, "bogus": 1})
        assert bad["error"]["code"] == "invalid_input" and "bogus" in bad["error"]["message"]
        unknown = daemon_call(winctl.env, "frobnicate")
        assert unknown["error"]["code"] == "invalid_input"
        options = daemon_call(winctl.env, "state", {}, {"infer": "sideways"})
        assert options["error"]["code"] == "invalid_input"
        # a batch that ran but whose step failed is not ok: its steps come back beside the error
        steps = [{"command": "click", "args": {"id": apply}}, {"command": "click", "args": {"id": 99999}}]
        stopped = daemon_call(winctl.env, "batch", {"steps": steps})
        assert stopped["ok"] is False and stopped["error"]["code"] == "not_found", stopped
        assert stopped["result"]["completed"] == 1 and "step 2 of 2 (click)" in stopped["error"]["message"]
        fixture_app.wait_for("clicked", widget="Apply", count=2)
    finally:
        winctl("session", "close", "--all", expect=None)


def test_a_locate_threshold_stays_on_its_call_in_the_daemon(winctl, fixture_app):
    """`locate --reliable 0.2` once must not make later `click text:...` accept 0.2 matches."""
    env = winctl.env
    try:
        run = lambda *a: subprocess.run(  # noqa: E731
            [WINCTL, "--session", "leak", *a],
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert run("focus", "Winactions Fixture").returncode == 0
        loose = run("--json", "locate", "text:Aplly", "--reliable", "0.2", "--no-cache")
        assert loose.returncode == 0, loose.stderr
        assert json.loads(loose.stdout)["result"]["located"]["element"]["confidence"] < 0.8
        strict = run("--json", "locate", "text:Aplly", "--no-cache")
        assert strict.returncode == 3, "the daemon kept the previous call's threshold"
        mark = fixture_app.mark()
        refused = run("click", "text:Aplly")
        assert refused.returncode == 3 and fixture_app.events("clicked", since=mark) == []
    finally:
        winctl("session", "close", "--all", expect=None)


def test_a_warning_is_said_once_through_the_daemon(winctl, fixture_app):
    run = lambda *a: subprocess.run(  # noqa: E731
        [WINCTL, "--session", "notes", "--json", *a],
        env=winctl.env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    try:
        run("focus", "Winactions Fixture")
        state = json.loads(run("state").stdout)["result"]
        run("click", str(next(t["id"] for t in state["targets"] if t["name"] == "File")))
        menu = json.loads(run("state").stdout)["result"]
        run("click", str(next(t["id"] for t in menu["targets"] if t["type"] == "MenuItem" and "Dialog" in t["name"])))
        fixture_app.wait_for("dialog_opened")
        followed = json.loads(run("state").stdout)["result"]
        again = json.loads(run("state").stdout)["result"]
        assert followed["window"]["title"] == "Confirm" and any("following" in w for w in followed["warnings"])
        assert again["window"]["title"] == "Confirm" and not any("following" in w for w in again["warnings"])
        run("keys", "Escape")
        fixture_app.wait_for("dialog_response", response="cancel")
    finally:
        winctl("session", "close", "--all", expect=None)


def test_each_call_takes_its_callers_variables_into_the_daemon(winctl, fixture_app):
    """The daemon was started by an earlier client; a threshold set for one call applies to
    that call only (and a bad one is refused naming the variable), a flag given wins."""

    def run(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [WINCTL, "--session", "vars", *args], env={**winctl.env, **env}, capture_output=True, text=True, timeout=120
        )

    try:
        assert run("focus", "Winactions Fixture").returncode == 0
        bad = run("--infer", "state", WINCTL_INFER_MIN_CONFIDENCE="high")
        assert bad.returncode == 2 and "WINCTL_INFER_MIN_CONFIDENCE" in bad.stderr, bad.stderr
        assert run("--infer", "state").returncode == 0, "the previous caller's variable stayed in the daemon"
        flag_wins = run("--infer", "--infer-min-confidence", "0.5", "state", WINCTL_INFER_MIN_CONFIDENCE="high")
        assert flag_wins.returncode == 0, flag_wins.stderr
    finally:
        winctl("session", "close", "--all", expect=None)
