"""Choosing a device, and every way that can go wrong: each a clear error, nothing sent."""

from __future__ import annotations

import os
import socket
import subprocess
import threading
import time
from collections.abc import Iterator

import adbutils
import pytest

from tests.android.conftest import Phone
from tests.android.phone import AdbServer, new_state
from tests.fixtures.android.fake_device import FakeDevice


@pytest.fixture
def second(adb: AdbServer) -> Iterator[FakeDevice]:
    device = FakeDevice(new_state("launcher"))
    adb.connect(device)
    try:
        yield device
    finally:
        device.close()
        adb.adb("disconnect", device.serial)


def test_several_devices_and_no_serial_is_an_error_listing_them(phone: Phone, second: FakeDevice) -> None:
    run = phone.winctl("--json", "state", env={"WINCTL_DEVICE": "", "WINACTIONS_BACKEND": "android"})
    assert run.code != 0
    error = run.json["error"]
    assert error["code"] == "invalid_input" and phone.serial in error["message"] and second.serial in error["message"]
    assert "--device" in error["hint"]
    chosen = phone.winctl("--device", second.serial, "state", env={"WINCTL_DEVICE": ""})
    assert chosen.code == 0, chosen.err
    assert "com.motorola.launcher3" in chosen.out  # the flag chose the second phone
    assert second.state.commands and not phone.state.commands[1:]


def test_an_unknown_serial_names_the_attached_ones(phone: Phone) -> None:
    run = phone.winctl("--json", "--device", "emulator-5554", "state")
    assert run.code != 0
    error = run.json["error"]
    assert error["code"] == "not_found" and phone.serial in error["hint"]


def test_an_unauthorized_device_says_to_accept_the_prompt(adb: AdbServer, phone: Phone) -> None:
    locked = FakeDevice(new_state(), authorized=False)
    try:
        adb.adb("connect", locked.serial)
        listed = {d["serial"]: d["state"] for d in phone.winctl("--json", "devices").json["result"]["devices"]}
        assert listed[locked.serial] == "unauthorized"
        run = phone.winctl("--json", "--device", locked.serial, "state")
        assert run.code != 0
        error = run.json["error"]
        assert error["code"] == "backend_unavailable" and "authorized" in error["message"]
        assert "Allow USB debugging" in error["hint"]
        assert locked.state.commands == []
    finally:
        locked.close()
        adb.adb("disconnect", locked.serial)


def test_an_offline_device_is_a_clear_error(adb: AdbServer, phone: Phone) -> None:
    """A phone that connects and never answers (a hung adbd) is listed offline."""
    hung = FakeDevice(new_state(), mute=True)
    connecting = subprocess.Popen(
        [adbutils.adb_path(), "-P", str(adb.port), "connect", hung.serial],
        env={**os.environ, **adb.env},
        stdout=subprocess.DEVNULL,
    )
    try:
        states: dict[str, str] = {}
        for _ in range(50):
            states = {d["serial"]: d["state"] for d in phone.winctl("--json", "devices").json["result"]["devices"]}
            if states.get(hung.serial) == "offline":
                break
            time.sleep(0.1)
        assert states[hung.serial] == "offline"
        run = phone.winctl("--json", "--device", hung.serial, "state")
        assert run.code != 0
        error = run.json["error"]
        assert error["code"] == "backend_unavailable" and "offline" in error["message"]
        assert "reconnect" in error["hint"]
        assert hung.state.commands == []
    finally:
        connecting.kill()
        connecting.wait()
        hung.close()
        adb.adb("disconnect", hung.serial)


def test_no_adb_server_is_a_clear_error(phone: Phone) -> None:
    """A port where something that is not an adb server answers (and hangs up)."""
    listener = socket.create_server(("127.0.0.1", 0))
    port = listener.getsockname()[1]

    def hang_up() -> None:
        while True:
            try:
                conn, _ = listener.accept()
            except OSError:
                return
            conn.close()

    threading.Thread(target=hang_up, daemon=True).start()
    try:
        run = phone.winctl("--json", "state", env={"ANDROID_ADB_SERVER_PORT": str(port)})
        assert run.code != 0
        error = run.json["error"]
        assert error["code"] == "backend_unavailable" and f"127.0.0.1:{port}" in error["message"]
        assert "adb start-server" in error["hint"]
        bad = phone.winctl("--json", "state", env={"ANDROID_ADB_SERVER_PORT": "fifty"})
        assert bad.code != 0 and "ANDROID_ADB_SERVER_PORT" in bad.json["error"]["message"]
    finally:
        listener.close()


def test_listing_devices_without_a_server_starts_none(monkeypatch: pytest.MonkeyPatch) -> None:
    """`winctl devices` from a desktop session must not leave an adb daemon behind."""
    from winactions.backends import phone_devices

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    monkeypatch.setenv("ANDROID_ADB_SERVER_PORT", str(port))
    devices, note = phone_devices()
    assert devices == [] and f"127.0.0.1:{port}" in note and "adb start-server" in note
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.1", port), timeout=1).close()
