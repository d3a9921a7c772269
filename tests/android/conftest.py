"""Fixtures for the Android backend: one private adb server per test session, and a fresh
fake phone per test connected to it (and disconnected after, so no test sees another's)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.android.phone import AdbServer, adb_server, new_state
from tests.conftest import Run, run_in_process
from tests.fixtures.android.fake_device import DeviceState, FakeDevice


@pytest.fixture(scope="session")
def adb() -> Iterator[AdbServer]:
    with adb_server() as server:
        yield server


@dataclass
class Phone:
    """A fake phone on the test's adb server, and `winctl --device` against it."""

    device: FakeDevice
    server: AdbServer
    runtime: Path

    @property
    def state(self) -> DeviceState:
        return self.device.state

    @property
    def serial(self) -> str:
        return self.device.serial

    @property
    def env(self) -> dict[str, str]:
        return {
            **self.server.env,
            "XDG_RUNTIME_DIR": str(self.runtime),
            "WINCTL_DEVICE": self.serial,
            "WINCTL_NO_DAEMON": "1",
        }

    def winctl(self, *args: str, env: dict[str, str] | None = None) -> Run:
        return run_in_process(args, {**self.env, **(env or {})})

    def inputs(self) -> list[list[str]]:
        return self.state.inputs()


@pytest.fixture
def phone(adb: AdbServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Phone]:
    device = FakeDevice(new_state())
    adb.connect(device)
    runtime = tmp_path / "runtime"
    runtime.mkdir(mode=0o700)
    for key, value in adb.env.items():
        monkeypatch.setenv(key, value)  # for the Python API and backend calls made in the test itself
    try:
        yield Phone(device, adb, runtime)
    finally:
        device.close()
        adb.adb("disconnect", device.serial)


@pytest.fixture
def session_env(phone: Phone, monkeypatch: pytest.MonkeyPatch) -> Phone:
    """The phone, for calls made in this test process (Python API, daemon client, MCP runner):
    their sessions live in the test's runtime folder and name the phone by --device only."""
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(phone.runtime))
    monkeypatch.delenv("WINCTL_DEVICE", raising=False)
    return phone
