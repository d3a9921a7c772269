"""A step that closes the app's window (a dialog's OK that ends the app) is judged by what the
step expected, on zenity's real form: zenity prints the fields it held when OK closed it."""

from __future__ import annotations

import subprocess
import time

import pytest

from tests.conftest import environment
from winactions.agent import RunOptions, TaskRunner, TaskStatus, parse_plan
from winactions.api import Desktop

pytestmark = pytest.mark.desktop

FILL = {"action": "input_text", "target_ref": "Full name", "target_type": "Edit", "params": {"text": "Ada"}}


def _run_on_form(desktop, tmp_path, ok_expects: dict) -> tuple:
    """Open a one-field zenity form, run FILL then OK (expecting `ok_expects`): (result, zenity's output)."""
    env = {**desktop.env, "XDG_RUNTIME_DIR": str(tmp_path / "rt")}
    (tmp_path / "rt").mkdir(mode=0o700, exist_ok=True)
    form = subprocess.Popen(
        ["zenity", "--forms", "--title", "New account", "--add-entry", "Full name"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        with environment(env), Desktop("closing") as session:
            deadline = time.monotonic() + 20
            while time.monotonic() < deadline:  # the window, then its tree
                try:
                    session.call("focus", window="New account")
                    if any(t.name == "Full name" for t in session.state().targets):
                        break
                except Exception:
                    pass
                time.sleep(0.2)
            ok = {"action": "click", "target_ref": "OK", "target_type": "Button", "expect": ok_expects}
            plan = parse_plan({"steps": [FILL, ok]})
            result = TaskRunner(session, RunOptions(pixels=False)).run("fill the form", plan)
        return result, form.communicate(timeout=10)[0]
    finally:
        if form.poll() is None:
            form.kill()
            form.wait()


def test_ok_that_closes_the_app_is_the_step_it_expected(desktop, tmp_path):
    """Before: the click on OK was reported failed (`no window matches '0x…'`) though zenity
    had taken the form. Now the step succeeds, and the run, with nothing to check the task
    by, ends unverified rather than failed."""
    result, printed = _run_on_form(desktop, tmp_path, {"window_changed": True})
    assert printed == "Ada\n"
    assert result.status is TaskStatus.UNVERIFIED, result.error
    ok = result.step_results[-1]
    assert ok.status.value == "success" and "has closed" in ok.verify.change_description


def test_a_step_that_expected_to_see_something_fails_when_the_window_closed(desktop, tmp_path):
    """The same click, expecting a confirmation to appear: the window closed instead, and the
    step says what it could not see."""
    result, printed = _run_on_form(desktop, tmp_path, {"appears": "Account created"})
    assert printed == "Ada\n"  # the click was delivered: zenity took the form
    assert result.status is TaskStatus.FAILED
    assert "has closed, so what the step expected (appears) cannot be there" in result.error, result.error
