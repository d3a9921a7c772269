"""`winctl doctor` (issue 16.3): each check on a real desktop and without one, and each
fix applied for real to show that it fixes what the check found."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.desktop
WINCTL = str(Path(sys.executable).with_name("winctl"))


def run(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([WINCTL, *args], env=env, capture_output=True, text=True, timeout=120)


def checks(env: dict[str, str]) -> tuple[int, dict[str, dict[str, str]]]:
    done = run(env, "doctor", "--json")
    data = json.loads(done.stdout)
    assert data["ok"] is True and data["result"]["healthy"] == (done.returncode == 0)
    return done.returncode, {c["name"]: c for c in data["result"]["checks"]}


@pytest.fixture
def bare_env(tmp_path) -> dict[str, str]:
    """A newcomer's shell with no display and no session bus."""
    runtime = tmp_path / "runtime"
    runtime.mkdir(mode=0o700)
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("DISPLAY", "WAYLAND_DISPLAY", "DBUS_SESSION_BUS_ADDRESS", "WINCTL_SESSION")
    }
    env.update(XDG_RUNTIME_DIR=str(runtime), WINCTL_NO_DAEMON="1")
    return env


@pytest.fixture
def desk_env(desktop, tmp_path) -> dict[str, str]:
    runtime = tmp_path / "runtime"
    runtime.mkdir(mode=0o700)
    env = {k: v for k, v in desktop.env.items() if not k.startswith(("WINCTL_VISION", "ANTHROPIC", "OPENAI"))}
    return {**env, "XDG_RUNTIME_DIR": str(runtime), "QT_ACCESSIBILITY": "1", "QT_LINUX_ACCESSIBILITY_ALWAYS_ON": "1"}


def test_without_a_display_state_says_what_to_do_and_doctor_names_the_fixes(bare_env):
    state = run(bare_env, "state")
    assert state.returncode == 5
    assert "DISPLAY is not set" in state.stderr and "winctl doctor" in state.stderr
    assert "Bad display name" not in state.stderr and "internal error" not in state.stderr
    code, found = checks(bare_env)
    assert code == 1
    assert found["display"]["status"] == "fail" and "virtual_desktop" in found["display"]["fix"]
    assert found["session bus"]["status"] == "fail" and "dbus-run-session" in found["session bus"]["fix"]
    text = run(bare_env, "doctor").stdout
    assert "FAIL  display" in text and "fix: " in text


def test_on_a_working_desktop_every_platform_check_passes(desk_env):
    code, found = checks(desk_env)
    assert code == 0, found
    for name in ("display", "session bus", "accessibility bus", "accessibility enabled"):
        assert found[name]["status"] == "ok", found[name]
    assert "window manager" in found["display"]["detail"]
    assert found["OCR models"]["status"] == "ok"
    assert found["model"]["status"] == "warn" and "WINCTL_VISION_API_KEY" in found["model"]["fix"]


def test_a_bridge_switched_off_and_accessibility_off_are_found_and_their_fixes_work(desk_env):
    _, found = checks({**desk_env, "NO_AT_BRIDGE": "1"})
    assert found["NO_AT_BRIDGE"]["status"] == "warn" and "unset NO_AT_BRIDGE" in found["NO_AT_BRIDGE"]["fix"]
    off = [
        "dbus-send",
        "--session",
        "--print-reply",
        "--dest=org.a11y.Bus",
        "/org/a11y/bus",
        "org.freedesktop.DBus.Properties.Set",
        "string:org.a11y.Status",
        "string:IsEnabled",
        "variant:boolean:false",
    ]
    subprocess.run(off, env=desk_env, check=True, timeout=20, stdout=subprocess.DEVNULL)
    try:
        _, found = checks(desk_env)
        check = found["accessibility enabled"]
        assert check["status"] == "warn" and "Chromium" in check["detail"]
        fix = check["fix"].split(" (or:")[0].split()
        subprocess.run(fix, env=desk_env, check=True, timeout=20, stdout=subprocess.DEVNULL)  # the fix, as given
        _, found = checks(desk_env)
        assert found["accessibility enabled"]["status"] == "ok"
    finally:  # whatever happened, the shared desktop gets accessibility back
        subprocess.run(
            [*off[:-1], "variant:boolean:true"], env=desk_env, check=True, timeout=20, stdout=subprocess.DEVNULL
        )


def test_a_stale_daemon_file_is_found_and_its_fix_removes_it(desk_env):
    folder = Path(desk_env["XDG_RUNTIME_DIR"]) / "winactions" / "daemons"
    folder.mkdir(parents=True, mode=0o700)
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    (folder / "ghost.json").write_text(json.dumps({"pid": dead.pid, "port": 1, "token": "x", "version": "0"}))
    _, found = checks(desk_env)
    assert found["daemon ghost"]["status"] == "warn" and "stale" in found["daemon ghost"]["detail"]
    fix = found["daemon ghost"]["fix"].split(" (")[0].split()
    assert fix[:3] == ["winctl", "session", "close"]
    run(desk_env, *fix[1:])
    _, found = checks(desk_env)
    assert "daemon ghost" not in found and not (folder / "ghost.json").exists()


def test_a_configured_model_server_is_reached_or_said_unreachable(desk_env):
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        port = server.getsockname()[1]
        env = {
            **desk_env,
            "WINCTL_VISION_BASE_URL": f"http://127.0.0.1:{port}/v1",
            "WINCTL_VISION_MODEL": "m",
            "WINCTL_VISION_API_KEY": "k",
        }
        _, found = checks(env)
        assert found["model"]["status"] == "ok", found["model"]
    code, found = checks(env)  # the server is gone now
    assert found["model"]["status"] == "fail" and "cannot connect" in found["model"]["detail"] and code == 1


def test_the_settings_set_are_listed_with_their_effective_values_and_a_bad_one_fails(desk_env):
    code, found = checks(
        {**desk_env, "WINCTL_TYPING_LIMIT": "20", "WINCTL_MAX_NODES": "lots", "WINCTL_IDLE_TIMEOUT": "never"}
    )
    assert code == 1
    typing = found["setting WINCTL_TYPING_LIMIT"]
    assert typing["status"] == "ok" and typing["detail"].startswith("20 (default 10000): "), typing
    nodes = found["setting WINCTL_MAX_NODES"]
    assert nodes["status"] == "fail" and "'lots' is not a whole number" in nodes["detail"]
    assert "1 or more" in nodes["fix"]
    idle = found["setting WINCTL_IDLE_TIMEOUT"]
    assert idle["status"] == "warn" and "the default (1800 seconds) applies" in idle["detail"]
    text = run({**desk_env, "WINCTL_MAX_NODES": "lots"}, "doctor").stdout
    assert "FAIL  setting WINCTL_MAX_NODES: WINCTL_MAX_NODES='lots'" in text
