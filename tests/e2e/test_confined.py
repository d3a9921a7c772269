"""Confined mode against real X windows: every way an agent could reach an app it was not
granted is tried, and the app's own log says whether anything reached it.

Two fixture apps (tests/fixtures/access_app.py) named by their WM_CLASS: `granted` (in the
user's policy file) and `other` (not). The policy file is the user's
($XDG_CONFIG_HOME/winactions/policy.toml); the prompt is answered by xdotool, standing for
the person, never through winctl.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.conftest import start_app, stop_app, wait_for_window
from tests.fixtures.applog import AppLog
from tests.fixtures.launch import HERE, SYSTEM_PYTHON

GRANTED, OTHER = "Granted App", "Other App"
PROMPT_TITLE = "winctl: allow access?"


def app_command(name: str, title: str, log: Path, x: int, y: int, child: bool = False) -> list[str]:
    argv = [SYSTEM_PYTHON, str(HERE / "access_app.py"), "--app", name, "--title", title, "--log", str(log)]
    argv += ["--x", str(x), "--y", str(y)]
    if child:
        argv += ["--child-name", "spawned", "--child-title", "Spawned Window", "--child-log", str(log) + ".child"]
    return argv


def write_policy(config: Path, body: str) -> None:
    folder = config / "winactions"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "policy.toml").write_text(body)


@pytest.fixture
def apps(desktop, winctl, tmp_path, monkeypatch):
    """The two apps, the policy confining to `granted`, and the session on the granted app."""
    config = tmp_path / "config"
    monkeypatch.setitem(desktop.env, "XDG_CONFIG_HOME", str(config))
    write_policy(config, 'confine = true\ngrant = ["granted"]\n')
    logs = {"granted": tmp_path / "granted.jsonl", "other": tmp_path / "other.jsonl"}
    procs = [
        start_app(desktop, app_command("other", OTHER, logs["other"], 520, 40), OTHER),
        start_app(desktop, app_command("granted", GRANTED, logs["granted"], 40, 40, child=True), GRANTED),
    ]
    winctl("focus", GRANTED)
    yield {name: AppLog(str(path)) for name, path in logs.items()} | {"config": config, "tmp": tmp_path}
    for proc in procs:
        stop_app(proc)
    subprocess.run(["pkill", "-f", "access_app.py --app spawned"], check=False)


def centre(winctl, window: str, name: str, session: str = "default") -> tuple[int, int]:
    """The centre of a button, read from the window's tree (reading is never refused)."""
    reading = ("--session", session, "--json", "--window", window, "get", "rect", name)
    left, top, right, bottom = winctl(*reading).json["result"]["value"]
    if session == "default":
        winctl("focus", GRANTED)  # reading another window made it the session's: back to the granted one
    return (left + right) // 2, (top + bottom) // 2


def refused(run, app: str) -> str:
    assert run.code == 9, f"{run.code}\n{run.out}\n{run.err}"
    assert "not_granted" in run.err or "confined" in run.err or "winctl's own" in run.err, run.err
    assert app in run.err, run.err
    return run.err


def test_a_click_at_coordinates_on_another_apps_window_is_refused(winctl, apps):
    x, y = centre(winctl, OTHER, "Press")
    err = refused(winctl("click-at", str(x), str(y), expect=None), "other")
    assert "request-access other" in err  # says how a person grants it
    time.sleep(0.3)
    assert apps["other"].events("pressed") == []
    gx, gy = centre(winctl, GRANTED, "Press")
    winctl("click-at", str(gx), str(gy))
    deadline = time.monotonic() + 5
    while not apps["granted"].events("pressed") and time.monotonic() < deadline:
        time.sleep(0.1)
    assert apps["granted"].events("pressed"), "the granted app's click did not arrive"


def test_an_action_by_id_or_name_on_another_app_and_focusing_it_are_refused(winctl, apps):
    refused(winctl("--window", OTHER, "click", "Press", expect=None), "other")
    refused(winctl("--window", OTHER, "input", "Text", "leak", expect=None), "other")
    refused(winctl("focus", OTHER, expect=None), "other")
    refused(winctl("--window", OTHER, "close", expect=None), "other")
    time.sleep(0.3)
    assert apps["other"].events("pressed") == [] and apps["other"].events("text") == []
    wait_for_window(winctl.desk, OTHER, timeout=2)  # still open
    winctl("focus", GRANTED)
    winctl("click", "Press")
    assert apps["granted"].events("pressed")


def test_keys_never_reach_an_app_that_took_the_focus(desktop, winctl, apps):
    """A third app opens and takes the focus; `keys` brings the session's window back first,
    so the keys land in the granted app and never in the newcomer; and sent straight to the
    backend while the newcomer holds the focus, they are refused."""
    log = apps["tmp"] / "intruder.jsonl"
    intruder = start_app(desktop, app_command("intruder", "Intruder", log, 300, 420), "Intruder")
    try:
        time.sleep(0.5)
        winctl("keys", "x")
        time.sleep(0.3)
        assert AppLog(str(log)).events("key") == []
        assert [e["key"] for e in apps["granted"].events("key")] == ["x"]
        subprocess.run(["wmctrl", "-a", "Intruder"], env=desktop.env, check=True)
        time.sleep(0.5)
        from tests.conftest import environment

        with environment({**desktop.env, "XDG_RUNTIME_DIR": str(winctl.runtime_dir)}):
            from winactions.api import Desktop
            from winactions.errors import NotGranted
            from winactions.keys import parse_keys

            with Desktop() as d, pytest.raises(NotGranted, match="intruder"):
                d.session.backend.press_chords(parse_keys("y"))
                d.session.backend.type_text("z")
        time.sleep(0.3)
        assert AppLog(str(log)).events("key") == []
    finally:
        stop_app(intruder)


def test_a_dialog_of_the_granted_app_is_allowed_a_window_it_spawned_is_not(winctl, apps):
    winctl("click", "Open dialog")
    wait_for_window(winctl.desk, f"{GRANTED} dialog")
    winctl("--window", f"{GRANTED} dialog", "click", "Dialog press")
    assert apps["granted"].events("dialog_pressed")
    winctl("--window", GRANTED, "click", "Open child")
    wait_for_window(winctl.desk, "Spawned Window")
    time.sleep(0.5)
    x, y = centre(winctl, "Spawned Window", "Press")
    refused(winctl("click-at", str(x), str(y), expect=None), "spawned")
    refused(winctl("--window", "Spawned Window", "click", "Press", expect=None), "spawned")
    time.sleep(0.3)
    assert AppLog(str(apps["tmp"] / "granted.jsonl.child")).events("pressed") == []


def test_a_batch_stops_at_the_step_that_reaches_an_ungranted_app(winctl, apps):
    ox, oy = centre(winctl, OTHER, "Press")
    steps = [
        {"command": "input", "args": {"id": "Text", "text": "one"}},
        {"command": "click-at", "args": {"x": ox, "y": oy}},
        {"command": "input", "args": {"id": "Text", "text": "two"}},
    ]
    run = winctl("--json", "--window", GRANTED, "batch", json.dumps(steps), expect=None)
    steps_done = json.loads(run.out)["result"]["steps"] if run.out else json.loads(run.err)["error"]
    assert [s["ok"] for s in steps_done] == [True, False], steps_done
    assert steps_done[1]["error"]["code"] == "not_granted" and "other" in steps_done[1]["error"]["message"]
    time.sleep(0.3)
    assert apps["other"].events("pressed") == []
    assert [e["text"] for e in apps["granted"].events("text")][-1] == "one"  # step 3 never ran


def test_the_clipboard_and_system_keys_need_their_rights(desktop, winctl, apps):
    refused(winctl("clipboard", "secret", expect=None), "clipboard-write")
    refused(winctl("clipboard", expect=None), "clipboard-read")
    refused(winctl("keys", "alt+F4", expect=None), "system-keys")
    wait_for_window(winctl.desk, GRANTED, timeout=2)  # alt+f4 did not close it
    write_policy(apps["config"], 'confine = true\ngrant = ["granted"]\nclipboard_write = true\nsystem_keys = true\n')
    winctl("clipboard", "shared")
    out = subprocess.run(["xclip", "-o", "-selection", "clipboard"], env=desktop.env, capture_output=True, text=True)
    assert out.stdout == "shared"
    refused(winctl("clipboard", expect=None), "clipboard-read")
    winctl("keys", "alt+F4")
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline and apps["granted"].events() and not _gone(winctl, GRANTED):
        time.sleep(0.1)
    assert _gone(winctl, GRANTED)


def _gone(winctl, title: str) -> bool:
    from tests.conftest import window_gone

    return window_gone(winctl.desk, title)


def test_launch_is_refused_for_an_ungranted_program(winctl, apps):
    refused(winctl("launch", "xmessage", "hi", expect=None), "xmessage")


def test_grants_and_revoke_say_where_each_grant_came_from(winctl, apps):
    result = winctl("--json", "grants").json["result"]
    assert result["confined"] is True
    assert result["apps"] == [{"app": "granted", "source": "policy"}]
    winctl("revoke", "granted")
    refused(winctl("click", "Press", expect=None), "granted")
    assert winctl("--json", "grants").json["result"]["apps"] == []


def _agent(desktop, winctl, *args: str, session: str = "default") -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "winactions.cli.entry", "--no-daemon", "--session", session, "--json", *args],
        env=winctl.env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _person_clicks(desktop, winctl, button: str) -> None:
    """The person: xdotool clicks the prompt's button (found by reading the prompt's tree)."""
    x, y = centre(winctl, PROMPT_TITLE, button, session="reader")
    subprocess.run(["xdotool", "mousemove", "--sync", str(x), str(y), "click", "1"], env=desktop.env, check=True)


@pytest.mark.parametrize("answer", ["Allow", "Deny"])
def test_the_prompt_grants_only_on_a_persons_allow_and_refuses_the_agent(desktop, winctl, apps, answer):
    asking = _agent(desktop, winctl, "request-access", "other", "--reason", "press its button", "--timeout", "30")
    try:
        wait_for_window(desktop, PROMPT_TITLE)
        time.sleep(0.5)
        assert asking.poll() is None, asking.communicate()
        # the session that asked waits for the answer (its lock is held): read the prompt from another
        x, y = centre(winctl, PROMPT_TITLE, "Allow", session="reader")
        # the agent, in another session, tries to answer for the person: by coordinates, by name, by keys
        err = refused(winctl("--session", "agent2", "click-at", str(x), str(y), expect=None), "prompt")
        assert "only a person answers" in err
        refused(winctl("--session", "agent2", "--window", PROMPT_TITLE, "click", "Allow", expect=None), "prompt")
        subprocess.run(["wmctrl", "-a", PROMPT_TITLE], env=desktop.env, check=True)
        time.sleep(0.3)
        refused(winctl("--session", "agent2", "--window", OTHER, "keys", "Return", expect=None), "")
        wait_for_window(desktop, PROMPT_TITLE, timeout=2)  # still asking
        _person_clicks(desktop, winctl, answer)
        out, err = asking.communicate(timeout=30)
    finally:
        if asking.poll() is None:
            asking.kill()
    if answer == "Allow":
        assert asking.returncode == 0, err
        assert {"app": "other", "source": "prompt"} in json.loads(out)["result"]["apps"]
        winctl("--window", OTHER, "click", "Press")
        assert apps["other"].events("pressed")
    else:
        assert asking.returncode == 9 and "the person denied it" in out, (out, err)
        refused(winctl("--window", OTHER, "click", "Press", expect=None), "other")
        assert apps["other"].events("pressed") == []


def test_a_confined_mcp_server_refuses_another_app(desktop, tmp_path, monkeypatch, winctl, apps):
    from tests.e2e.helpers.mcp_client import run_client

    write_policy(apps["config"], "")  # no policy: only the server's flags confine
    ox, oy = centre(winctl, OTHER, "Press")
    gx, gy = centre(winctl, GRANTED, "Press")

    async def script(session):
        other = await session.call_tool("click_at", {"x": ox, "y": oy})
        mine = await session.call_tool("click_at", {"x": gx, "y": gy})
        listed = await session.call_tool("grants", {})
        return other, mine, listed

    other, mine, listed = run_client(
        desktop, tmp_path, script, ("mcp", "--tools", "all", "--confine", "--grant", "granted")
    )
    assert other.is_error and "not_granted" in other.content[0].text and "other" in other.content[0].text
    assert not mine.is_error, mine.content[0].text
    assert "granted (flag)" in listed.content[0].text
    time.sleep(0.3)
    assert apps["other"].events("pressed") == []
    assert apps["granted"].events("pressed")


def test_a_run_stops_at_the_step_that_launches_an_ungranted_program(winctl, apps):
    plan = {
        "steps": [
            {"action": "input_text", "target_ref": "Text", "params": {"text": "first"}, "retry": 0},
            {"action": "launch_app", "params": {"command": ["xmessage", "escaped"]}, "retry": 0},
            {"action": "input_text", "target_ref": "Text", "params": {"text": "third"}, "retry": 0},
        ]
    }
    run = winctl("--json", "run", "--no-pixels", "--plan", json.dumps(plan), "fill and launch", expect=None)
    body = json.loads(run.out)
    assert body["ok"] is False, body
    steps = body["result"]["run"]["step_results"]
    assert [s["status"] for s in steps][:2] == ["success", "failed"], steps
    assert len(steps) == 2 and "xmessage" in json.dumps(steps[1]), steps  # step 3 never ran, step 2 named
    time.sleep(0.3)
    assert [e["text"] for e in apps["granted"].events("text")][-1] == "first"
    assert subprocess.run(["pgrep", "-f", "xmessage escaped"], capture_output=True).returncode == 1


def test_the_session_daemon_is_confined_by_the_same_policy(winctl, apps, daemon):
    """`winctl --session`'s daemon reads the user's policy as one-shot calls do, at every call."""
    refused(daemon("--window", OTHER, "click", "Press", expect=None), "other")
    assert "confined; granted apps: granted (policy)" in daemon("grants").out
    write_policy(apps["config"], 'confine = true\ngrant = ["granted", "other"]\n')  # the person edits it
    daemon("--window", OTHER, "click", "Press")
    assert apps["other"].events("pressed")


def _overlay(desktop, role: str, rect: tuple[int, int, int, int]):
    """An override-redirect X window of WM_CLASS (role, "Winctl") over `rect`, as winctl's overlays
    are (a `status` one lets input through)."""
    from Xlib import X, display

    d = display.Display(desktop.env["DISPLAY"])
    x, y, w, h = rect
    win = d.screen().root.create_window(
        x, y, w, h, 0, d.screen().root_depth, X.InputOutput, X.CopyFromParent, override_redirect=True
    )
    win.set_wm_class(role, "Winctl")
    if role == "status":  # click-through: an empty input shape, as the status label has
        from Xlib.ext import shape

        win.shape_rectangles(shape.SO.Set, shape.SK.Input, X.Unsorted, 0, 0, [])
    win.map()
    d.sync()
    time.sleep(0.2)
    return d, win


def test_clicks_look_through_a_status_label_but_never_land_on_a_prompt(desktop, winctl, apps):
    gx, gy = centre(winctl, GRANTED, "Press")
    ox, oy = centre(winctl, OTHER, "Press")
    d, label = _overlay(desktop, "status", (gx - 30, gy - 10, 60, 20))
    d2, label2 = _overlay(desktop, "status", (ox - 30, oy - 10, 60, 20))
    try:
        winctl("click-at", str(gx), str(gy))  # through the label: the granted app's button
        refused(winctl("click-at", str(ox), str(oy), expect=None), "other")  # through it: still the other app
    finally:
        label.destroy()
        d.close()
        label2.destroy()
        d2.close()
    d, teach = _overlay(desktop, "teach", (gx - 30, gy - 10, 60, 20))
    try:
        err = refused(winctl("click-at", str(gx), str(gy), expect=None), "teach")
        assert "only a person answers" in err
    finally:
        teach.destroy()
        d.close()
    time.sleep(0.3)
    assert len(apps["granted"].events("pressed")) == 1 and apps["other"].events("pressed") == []
