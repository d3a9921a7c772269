"""The console script and its session daemon on a phone: `--device` and `WINCTL_DEVICE`
reach the daemon with each call, and a call naming another phone switches the daemon to it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.android.conftest import Phone
from tests.android.helpers import ids
from tests.android.phone import AdbServer, new_state
from tests.fixtures.android.fake_device import FakeDevice

WINCTL = str(Path(sys.executable).with_name("winctl"))
SRC = str(Path(__file__).resolve().parents[2] / "src")


def test_the_daemon_follows_the_device_of_each_call(phone: Phone, adb: AdbServer) -> None:
    env = {
        **os.environ,
        **phone.server.env,
        "XDG_RUNTIME_DIR": str(phone.runtime),
        "WINCTL_SESSION": "droid",
        "PYTHONPATH": SRC + os.pathsep + os.environ.get("PYTHONPATH", ""),
    }
    env.pop("WINCTL_NO_DAEMON", None)
    env.pop("WINCTL_DEVICE", None)

    def winctl(*args: str, extra: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [WINCTL, *args], env={**env, **(extra or {})}, capture_output=True, text=True, timeout=120
        )

    other = FakeDevice(new_state("launcher"))
    adb.connect(other)
    try:
        first = winctl("--device", phone.serial, "state")
        assert first.returncode == 0, first.stderr
        assert "com.wdiodemoapp" in first.stdout
        login = ids(first.stdout)["Button button-LOGIN"]
        clicked = winctl("--device", phone.serial, "click", str(login))
        assert clicked.returncode == 0, clicked.stderr
        assert phone.inputs() == [["input", "tap", "539", "1514"]]
        switched = winctl("state", extra={"WINCTL_DEVICE": other.serial})
        assert switched.returncode == 0, switched.stderr
        assert "com.motorola.launcher3" in switched.stdout
        assert "droid" in winctl("sessions").stdout
    finally:
        winctl("session", "close", "droid")
        other.close()
        adb.adb("disconnect", other.serial)


def test_a_phone_that_goes_away_mid_session_is_a_clear_error(phone: Phone) -> None:
    login = ids(phone.winctl("state").out)["Button button-LOGIN"]
    phone.device.close()
    run = phone.winctl("--json", "click", str(login))
    assert run.code != 0
    error = run.json["error"]
    assert error["code"] in ("backend_unavailable", "not_found") and phone.serial in error["message"]
    assert "internal error" not in error["message"]
