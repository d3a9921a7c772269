"""Geany (GTK 3, Debian's `geany`): the state an action returns is of the window it left active.

Outcomes are read from the app's side: the active window's title as xdotool reads it.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import Winctl
from tests.e2e.helpers.apps import active_title

pytestmark = pytest.mark.desktop
WINCTL = str(Path(sys.executable).with_name("winctl"))


def names(state: dict) -> set[tuple[str, str]]:
    return {(t["type"], t["name"]) for t in state["targets"]}


def test_return_state_follows_the_dialog_the_keys_opened(winctl: Winctl, desktop, geany):
    """`keys ctrl+h --return-state` printed Geany's main window: the window was chosen the
    moment the keys were sent, before the Replace dialog they open had mapped, and the state
    settled on the main window. A plain `state` just after followed the dialog. The returned
    state now is of the window the action left active (the app's dialog), as xdotool sees it."""
    winctl("focus", geany)
    result = winctl("--json", "keys", "ctrl+h", "--return-state").json["result"]
    assert active_title(desktop) == "Replace"
    state = result["state"]
    assert state["window"]["title"] == "Replace", state["window"]
    assert {("Button", "Replace All"), ("CheckBox", "Case sensitive")} <= names(state), names(state)
    assert not any(t["type"] == "Menu" and t["name"] == "File" for t in state["targets"])  # not the main window
    assert any("following the active window" in w for w in state["warnings"]), state["warnings"]
    changes = result["changes"]  # no state was seen before it: all of the dialog is new
    assert changes["since"] is None and changes["added"] == [t["id"] for t in state["targets"]], changes
    assert winctl.state()["window"]["title"] == "Replace"  # a plain state agrees


def test_return_state_follows_the_dialog_through_the_daemon(winctl: Winctl, desktop, geany):
    """The same through the session daemon (`--session`), run as separate processes."""
    env = winctl.env

    def daemon(*args: str) -> subprocess.CompletedProcess[str]:
        done = subprocess.run([WINCTL, "--session", "ans", *args], env=env, capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, f"winctl {args} -> {done.returncode}\n{done.stdout}\n{done.stderr}"
        return done

    try:
        daemon("focus", geany)
        daemon("state")
        state = json.loads(daemon("--json", "keys", "ctrl+h", "--return-state").stdout)["result"]["state"]
        assert active_title(desktop) == "Replace"
        assert state["window"]["title"] == "Replace", state["window"]
        assert ("Button", "Replace All") in names(state), names(state)
    finally:
        subprocess.run([WINCTL, "session", "close", "--all"], env=env, capture_output=True, timeout=60)
