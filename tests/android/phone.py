"""A private adb server and the fake device, for tests and benchmarks.

The real `adb` binary from the adbutils wheel runs as a server on a free port with its own
HOME (its keys), and `adb connect`s to the fake device on loopback: the host side is all real.
"""

from __future__ import annotations

import os
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import adbutils

from tests.fixtures.android.fake_device import DeviceState, FakeDevice, Screen, dump_text

HERE = Path(__file__).resolve().parents[1] / "fixtures" / "android"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class AdbServer:
    port: int
    home: Path

    @property
    def env(self) -> dict[str, str]:
        return {"ANDROID_ADB_SERVER_PORT": str(self.port), "HOME": str(self.home)}

    def adb(self, *args: str, timeout: float = 30) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [adbutils.adb_path(), "-P", str(self.port), *args],
            capture_output=True,
            text=True,
            timeout=timeout,
            env={**os.environ, **self.env},
        )

    def connect(self, device: FakeDevice) -> None:
        result = self.adb("connect", device.serial)
        assert "connected" in result.stdout, result


@contextmanager
def adb_server() -> Iterator[AdbServer]:
    with tempfile.TemporaryDirectory(prefix="winctl-adb-") as home:
        server = AdbServer(free_port(), Path(home))
        started = server.adb("start-server")
        assert started.returncode == 0, started
        try:
            yield server
        finally:
            server.adb("kill-server")


def screens() -> dict[str, Screen]:
    """The recorded screens of the fake phone, and the taps that lead from one to another."""
    return {
        "launcher": Screen(
            dump_text("launcher_motorola.xml"),
            "com.motorola.launcher3",
            "com.android.launcher3.CustomizationPanelLauncher",
            pid=1711,
        ),
        "login": Screen(dump_text("wdio_login.xml"), "com.wdiodemoapp", ".MainActivity", pid=5120),
        "forms": Screen(dump_text("wdio_forms.xml"), "com.wdiodemoapp", ".MainActivity", pid=5120),
        "messaging": Screen(
            dump_text("messaging_conversation.xml"),
            "com.google.android.apps.messaging",
            "com.google.android.apps.messaging.ui.conversation.LaunchConversationActivity",
            pid=6230,
        ),
        "settings": Screen(dump_text("systemui_shade.xml"), "com.android.systemui", "NotificationShade", pid=901),
        # the screenshot is of the same app and device, another screen (see the fixtures' README)
        "spotlight": Screen(
            dump_text("spotlight_feed.xml"),
            "net.spotlightlabs.spotlight",
            ".MainActivity",
            pid=8100,
            size=(1080, 1920),
            screenshot_path=HERE / "spotlight_feed.png",
        ),
        "game": Screen(None, "com.example.game", "com.unity3d.player.UnityPlayerActivity", pid=7001),
    }


def new_state(current: str = "login", **changes: object) -> DeviceState:
    state = DeviceState(screens=screens(), current=current)
    for key, value in changes.items():
        setattr(state, key, value)
    return state
