"""Keys in confined mode, on the apps where an agent got around the gate: Mousepad granted,
FeatherPad not. The agent held alt with `key-down alt`, pressed Tab (checked alone, it was no
system combo), and in one `keys` call let alt go (the window manager switched to FeatherPad)
and typed on: the focus had been checked once, before the first chord. It also found
`key-down alt` saying "alt already down" after a `keys alt` had let the held alt go.
Each is tried here, and FeatherPad's file and the active window say what happened; the
check of each chord where the focus is when it is sent: tests/test_access.py."""

from __future__ import annotations

import subprocess
import time
from pathlib import Path

import pytest

from tests.e2e.helpers.keyboard import held_down
from tests.fixtures.toolkit_apps import featherpad_command, mousepad_command

SECRET = "account: 4411\n"


def active_title(desktop) -> str:
    active = ["xdotool", "getactivewindow", "getwindowname"]
    return subprocess.run(active, env=desktop.env, capture_output=True, text=True).stdout.strip()


@pytest.fixture
def confined(desktop, winctl, launch, tmp_path):
    """Mousepad on notes.txt (granted by the user's policy file) and FeatherPad on secret.txt."""
    (tmp_path / "notes.txt").write_text("shopping\n")
    secret = tmp_path / "secret.txt"
    secret.write_text(SECRET)
    launch(featherpad_command(secret), title="secret.txt")
    launch(mousepad_command(tmp_path / "notes.txt"), title="notes.txt")
    policy = Path(desktop.env["XDG_CONFIG_HOME"]) / "winactions" / "policy.toml"
    policy.parent.mkdir(parents=True, exist_ok=True)
    policy.write_text('confine = true\ngrant = ["mousepad"]\n')
    winctl("focus", "notes.txt")
    yield secret
    winctl("key-up", "all", expect=None)


def test_a_key_pressed_while_alt_is_held_down_is_the_system_combo_it_makes(desktop, winctl, confined):
    assert "down now: alt" in winctl("key-down", "alt").out  # alone, alt is no system combo
    run = winctl("keys", "Tab", expect=None)
    assert run.code == 9 and "--system-keys" in run.err and "alt held down" in run.err, run.err
    winctl("key-up", "alt")
    time.sleep(0.5)
    assert "notes.txt" in active_title(desktop)  # no window switch began
    assert confined.read_text() == SECRET


def test_key_down_says_what_the_keyboard_holds_not_what_it_remembers(desktop, winctl, confined):
    winctl("key-down", "alt")
    winctl("keys", "alt")  # pressed and let go: the held alt is up now
    assert "alt" not in held_down(desktop)
    again = winctl("key-down", "alt").out
    assert "already down" not in again and "down now: alt" in again, again
    assert "alt" in held_down(desktop)
