"""`wait --window-shown` / `--window-gone` on real apps, through the CLI, the daemon and MCP
(issue 39, item 4).

In the agent trial, agents re-read `windows` or `state` in a loop after pressing ctrl+o or
clicking a dialog's OK, until the dialog showed or went; `wait` could only watch elements and
texts inside one window. Each check here is made from outside winctl too (wmctrl).
"""

from __future__ import annotations

import subprocess
import time

import pytest

from tests.conftest import Winctl, environment, wait_for_window, window_gone
from tests.e2e.helpers.apps import wait_for
from tests.e2e.helpers.mcp_client import run_client
from tests.e2e.helpers.runners import WINCTL, NamedSession
from tests.fixtures.toolkit_apps import mousepad_command
from winactions.api import Desktop

pytestmark = pytest.mark.desktop
DIALOG = "Open File"


def later(desktop, seconds: float, *argv: str) -> subprocess.Popen[bytes]:
    """Start `argv` after `seconds`, as an app opens a window while winctl waits."""
    return subprocess.Popen(
        ["sh", "-c", f'sleep {seconds}; exec "$@"', "later", *argv],
        env=desktop.env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def wmctrl_id(desktop, title: str) -> int:
    return int(wait_for_window(desktop, title, timeout=1), 16)


@pytest.mark.parametrize("front", ["cli", "daemon"])
def test_wait_for_mousepads_open_dialog_to_show_and_go(winctl: Winctl, desktop, launch, tmp_path, front):
    """ctrl+o in Mousepad opens its Open File dialog a moment later: `wait --window-shown`
    returns the dialog (id, title, process) as wmctrl sees it and makes it the session's
    window; Escape closes it and `wait --window-gone` returns once wmctrl no longer lists it."""
    doc = tmp_path / "waits.txt"
    doc.write_text("")
    app = launch(mousepad_command(doc), title="waits.txt")
    wait_for(winctl, ("Menu", "File"), ("Edit", None), app=app)
    daemon = NamedSession(winctl, "waitwin") if front == "daemon" else None
    say = daemon or (lambda *args: winctl(*args).out)
    try:
        say("keys", "ctrl+o")
        shown = say("wait", "--window-shown", "open file", "--timeout", "15")
        dialog = wmctrl_id(desktop, DIALOG)
        assert shown.startswith(f'window "{DIALOG}" shown after '), shown
        assert f'0x{dialog:08x} "{DIALOG}" (mousepad, pid {app.pid})' in shown, shown
        assert "now the session's window" in shown, shown
        assert DIALOG in say("state").splitlines()[0]  # the session acts in the dialog now
        say("keys", "Escape")
        went = say("wait", "--window-gone", DIALOG, "--timeout", "15")
        assert window_gone(desktop, DIALOG), went
        assert went.startswith(f'window "{DIALOG}" gone after '), went
        assert "waits.txt" in went  # the window left active, so the agent knows where it is
        session = ["--session", "waitwin"] if daemon is not None else []
        stays = subprocess.run(
            [WINCTL, *session, "wait", "--window-gone", "waits.txt", "--timeout", "0.5"],
            env=winctl.env,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert stays.returncode == 6 and "is still open after 0.5s" in stays.stderr, stays
    finally:
        if daemon is not None:
            daemon.close()


def test_wait_for_a_window_that_never_shows_times_out_naming_the_windows(winctl: Winctl, desktop, launch, tmp_path):
    """A window that never shows: exit code 6 (timeout) after the timeout, and the message
    names the windows there are, so the agent can pick the right title."""
    doc = tmp_path / "alone.txt"
    doc.write_text("")
    launch(mousepad_command(doc), title="alone.txt")
    started = time.monotonic()
    run = winctl("wait", "--window-shown", "Print Preview", "--timeout", "1", expect=6)
    assert time.monotonic() - started >= 1
    assert 'error: no window titled "Print Preview" showed within 1s' in run.err, run.err
    assert "alone.txt" in run.err and "hint:" in run.err, run.err
    stays = winctl("wait", "--window-gone", "alone.txt", "--timeout", "1", expect=6)
    assert 'alone.txt - Mousepad" is still open after 1s' in stays.err, stays.err


def test_wait_for_zenity_started_late_then_for_the_session_window_to_go(winctl: Winctl, desktop):
    """zenity shows its window 1.5 s after the call began (another process than any window
    open before); the session's window (`--window-gone current`) goes when zenity is ended."""
    proc = later(desktop, 1.5, "zenity", "--info", "--title", "Late Notice", "--text", "done")
    try:
        shown = winctl("wait", "--window-shown", "late notice", "--timeout", "20").out
        assert f"(zenity, pid {proc.pid})" in shown, shown
        assert float(shown.split(" after ")[1].split("s")[0]) > 0.5, shown  # it did wait for it
        wmctrl_id(desktop, "Late Notice")
        subprocess.Popen(["sh", "-c", f"sleep 1; kill {proc.pid}"])
        went = winctl("wait", "--window-gone", "current", "--timeout", "20").out
        assert went.startswith('window "Late Notice" gone after '), went
        assert window_gone(desktop, "Late Notice")
    finally:
        proc.kill()
        proc.wait()


def test_bad_window_waits_are_refused(winctl: Winctl, desktop):
    """One condition at a time; a blank title would match every window."""
    two = winctl("wait", "--window-shown", "A", "--window-gone", "B", expect=2)
    assert "one condition at a time" in two.err
    blank = winctl("wait", "--window-shown", "  ", expect=2)
    assert "window_shown: cannot be empty" in blank.err, blank.err


def test_wait_for_windows_over_mcp(desktop, tmp_path):
    """The same waits as MCP tool calls: a window shown, gone, and a timeout as a tool error
    that names its code."""
    proc = later(desktop, 1.0, "zenity", "--info", "--title", "MCP Notice", "--text", "hi")

    async def script(session):
        shown = await session.call_tool("wait", {"window_shown": "MCP Notice", "timeout": 20})
        subprocess.Popen(["sh", "-c", f"sleep 0.5; kill {proc.pid}"])
        went = await session.call_tool("wait", {"window_gone": "MCP Notice", "timeout": 20})
        never = await session.call_tool("wait", {"window_shown": "Nothing Like It", "timeout": 0.5})
        return shown, went, never

    try:
        shown, went, never = run_client(desktop, tmp_path, script)
    finally:
        proc.kill()
        proc.wait()
    assert not shown.is_error and f"(zenity, pid {proc.pid})" in shown.content[0].text, shown
    assert not went.is_error and went.content[0].text.startswith('window "MCP Notice" gone'), went
    assert window_gone(desktop, "MCP Notice")
    assert never.is_error and never.content[0].text.startswith("error (timeout): no window titled"), never


def test_wait_for_a_window_from_python(winctl: Winctl, desktop):
    """`Desktop.wait(window_shown=...)` returns the window as a field, not only as text."""
    proc = later(desktop, 0.5, "zenity", "--info", "--title", "Python Notice", "--text", "hi")
    try:
        with environment(winctl.env), Desktop("waitapi") as d:
            result = d.wait(window_shown="python notice", timeout=20)
        assert result.window is not None and result.window.pid == proc.pid and result.selected
        assert result.window.id == f"0x{wmctrl_id(desktop, 'Python Notice'):08x}"
    finally:
        proc.kill()
        proc.wait()
