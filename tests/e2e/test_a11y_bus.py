"""The accessibility bus, told truly: this display's, live, and pixels without it.

Issue 40 item 15. With the accessibility bus's socket gone, `doctor` printed `ok
accessibility bus` (it only asked the session bus for an address, never connected), and
`state --vision local` failed as `state` did, though `screenshot` and `locate` worked. With
the session bus of another display, `doctor` printed `ok accessible apps: 1 applications
expose a tree` (the other display's) and `state` said the app "exposes no accessibility
tree" and to start it with `winctl launch` — the app was fine: winctl read the other
display's bus, where apps find theirs on the X root window (AT_SPI_BUS) first.

Each test breaks a desktop of its own (the shared one stays whole for the other tests).
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import start_app, stop_app
from winactions.backends.linux.virtual_desktop import VirtualDesktop

pytestmark = pytest.mark.desktop
WINCTL = str(Path(sys.executable).with_name("winctl"))
TITLE = "Who goes there"


def winctl(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([WINCTL, *args], env=env, capture_output=True, text=True, timeout=120)


def doctor(env: dict[str, str]) -> dict[str, dict[str, str]]:
    done = winctl(env, "doctor", "--json")
    return {c["name"]: c for c in json.loads(done.stdout)["result"]["checks"]}


def bus_socket(desk: VirtualDesktop) -> Path:
    address = subprocess.run(["xprop", "-root", "AT_SPI_BUS"], env=desk.env, capture_output=True, text=True).stdout
    return Path(re.search(r"path=([^,\"]+)", address).group(1))  # type: ignore[union-attr]


@pytest.fixture
def own_desktop() -> Iterator[VirtualDesktop]:
    with VirtualDesktop() as desk:
        yield desk


@pytest.fixture
def zenity(own_desktop, tmp_path) -> Iterator[dict[str, str]]:
    """zenity's entry dialog on a desktop of the test's own; yields winctl's environment."""
    proc = start_app(own_desktop, ["zenity", "--entry", f"--title={TITLE}", "--text=Name:"], TITLE)
    runtime = tmp_path / "runtime"
    runtime.mkdir(mode=0o700)
    try:
        yield {**own_desktop.env, "XDG_RUNTIME_DIR": str(runtime)}
    finally:
        stop_app(proc)
        winctl({**own_desktop.env, "XDG_RUNTIME_DIR": str(runtime)}, "session", "close", "--all")


def state(env: dict[str, str], *args: str, title: str = TITLE) -> subprocess.CompletedProcess[str]:
    """`winctl [ARGS] --json --window TITLE state` ("--vision local" and such go in ARGS)."""
    return winctl(env, *args, "--json", "--window", title, "state")


def from_tree(target: dict[str, str], type_: str) -> bool:
    return target["type"] == type_ and target.get("source", "accessibility") == "accessibility"


def _pixels_only(done: subprocess.CompletedProcess[str], why: str) -> None:
    assert done.returncode == 0, done.stderr
    state = json.loads(done.stdout)["result"]
    assert state["targets"] and all(t.get("source") in ("ocr", "vision") for t in state["targets"]), state["targets"]
    assert any("Name" in t["name"] for t in state["targets"]), state["targets"]
    assert any(why in w and "seen in its pixels" in w for w in state["warnings"]), state["warnings"]


def test_a_bus_whose_socket_is_gone_fails_in_doctor_and_state_and_pixels_still_work(own_desktop, zenity):
    assert doctor(zenity)["accessibility bus"]["status"] == "ok"
    socket = bus_socket(own_desktop)
    socket.rename(socket.with_name("moved-away"))

    check = doctor(zenity)["accessibility bus"]
    assert check["status"] == "fail" and "is gone" in check["detail"] and str(socket) in check["detail"], check
    for session in ((), ("--session", "nobus")):  # one-shot, and through a daemon
        done = state(zenity, *session)
        error = json.loads(done.stdout)["error"]
        assert done.returncode == 5 and error["code"] == "no_accessibility" and "is gone" in error["message"], error
        assert "kill " in error["hint"] and "which switches its bridge on" not in error["hint"], error
        _pixels_only(state(zenity, *session, "--vision", "local"), "is gone")

    _apply_the_fix(check["fix"], zenity)
    restarted = start_app(own_desktop, ["zenity", "--entry", "--title=Again", "--text=Name:"], "Again")
    try:
        read = json.loads(state(zenity, title="Again").stdout)["result"]
        assert any(from_tree(t, "Edit") for t in read["targets"]), read
    finally:
        stop_app(restarted)


def test_a_socket_taken_over_by_another_bus_is_not_this_displays(own_desktop, zenity):
    with VirtualDesktop() as other:
        winctl({**other.env, "XDG_RUNTIME_DIR": zenity["XDG_RUNTIME_DIR"]}, "doctor")  # starts its bus
        socket = bus_socket(own_desktop)
        socket.unlink()
        socket.symlink_to(bus_socket(other))  # a second session's bus listening at this one's path
        check = doctor(zenity)["accessibility bus"]
        assert check["status"] == "fail" and "belongs to another bus" in check["detail"], check
        done = state(zenity)
        assert done.returncode == 5 and "belongs to another bus" in json.loads(done.stdout)["error"]["message"]
        _apply_the_fix(check["fix"], zenity)


def _apply_the_fix(fix: str, env: dict[str, str]) -> None:
    """End the launcher the fix names, as it says; a new launcher and bus start on demand, and
    doctor finds this display's bus live again."""
    kill = re.match(r"kill (\d+) ", fix)
    assert kill, fix
    os.kill(int(kill.group(1)), signal.SIGTERM)
    deadline = time.monotonic() + 10
    while doctor(env)["accessibility bus"]["status"] != "ok":
        assert time.monotonic() < deadline, doctor(env)["accessibility bus"]
        time.sleep(0.2)


def test_the_session_bus_of_another_display_does_not_hide_this_displays_apps(own_desktop, zenity):
    with VirtualDesktop() as other:
        other_app = start_app(other, ["zenity", "--info", "--title=Elsewhere", "--text=x"], "Elsewhere")
        try:
            crossed = {**zenity, "DBUS_SESSION_BUS_ADDRESS": other.env["DBUS_SESSION_BUS_ADDRESS"]}
            for session in ((), ("--session", "crossed")):
                done = state(crossed, *session)
                assert done.returncode == 0, done.stderr
                targets = json.loads(done.stdout)["result"]["targets"]
                assert any(from_tree(t, "Edit") for t in targets), targets
            found = doctor(crossed)
            assert found["accessibility bus"]["status"] == "ok", found["accessibility bus"]
            assert "AT_SPI_BUS" in found["accessibility bus"]["detail"]
            warned = found["session's accessibility bus"]
            assert warned["status"] == "warn" and f"display {other.env['DISPLAY']}'s" in warned["detail"], warned
            assert found["accessible apps"]["detail"].endswith("1 with a window on this display")

            # without this display's AT_SPI_BUS, only the other display's bus is left: said, not blamed on the app
            subprocess.run(["xprop", "-root", "-remove", "AT_SPI_BUS"], env=own_desktop.env, check=True)
            crossed["WINCTL_NO_DAEMON"] = "1"  # the daemon above keeps the bus it found then
            done = state(crossed)
            error = json.loads(done.stdout)["error"]
            assert done.returncode == 3 and error["code"] == "no_tree", error
            assert f"display {other.env['DISPLAY']}'s" in error["message"] and "winctl doctor" in error["hint"], error
            assert "winctl launch" not in error["hint"], error
            check = doctor(crossed)["accessibility bus"]
            assert check["status"] == "warn" and f"display {other.env['DISPLAY']}'s" in check["detail"], check
        finally:
            stop_app(other_app)


def test_with_no_accessibility_bus_at_all_pixels_are_read(own_desktop, zenity):
    subprocess.run(["xprop", "-root", "-remove", "AT_SPI_BUS"], env=own_desktop.env, check=True)
    bare = {k: v for k, v in zenity.items() if k != "DBUS_SESSION_BUS_ADDRESS"}
    check = doctor(bare)["accessibility bus"]
    assert check["status"] == "fail" and "no D-Bus session bus" in check["detail"], check
    for session in ((), ("--session", "bare")):
        seen = state(bare, *session, "--vision", "local")
        _pixels_only(seen, "no D-Bus session bus")
        field = next(t for t in json.loads(seen.stdout)["result"]["targets"] if t["type"] == "Edit")
        typed = winctl(bare, *session, "--window", TITLE, "input", str(field["id"]), f"Eve{len(session)}")
        assert typed.returncode == 0, typed.stderr
        read = json.loads(state(zenity).stdout)["result"]  # the app's own tree, through the session bus
        assert any(from_tree(t, "Edit") and t.get("value") == f"Eve{len(session)}" for t in read["targets"]), read
