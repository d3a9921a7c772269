"""The only code that talks to adb: a thin seam over adbutils, the maintained pure-Python
client of the standard adb server.

Everything above this module is decisions (which command, which fallback, which error);
everything here is transport: list devices, pick one, run a shell command as an argv
(quoted by adbutils with shlex, so text never meets the device's shell unquoted), read
binary output. The server is found where the user put it (`ANDROID_ADB_SERVER_PORT`,
`ANDROID_ADB_SERVER_HOST`, read by adbutils); when none answers, adbutils starts the `adb`
binary its wheel ships, as `adb` itself does.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

import adbutils

from winactions.errors import BackendUnavailable, InvalidInput, NotFound, shown

SHELL_TIMEOUT = 30.0  # seconds one shell command may take (a dump of a busy screen takes ~2-5 s)


@dataclass(frozen=True)
class DeviceEntry:
    """One line of `adb devices -l`."""

    serial: str
    state: str  # device, offline, unauthorized, ...
    model: str = ""
    product: str = ""


def server_address() -> str:
    host = os.environ.get("ANDROID_ADB_SERVER_HOST", "127.0.0.1")
    return f"{host}:{os.environ.get('ANDROID_ADB_SERVER_PORT', '5037')}"


def _client() -> adbutils.AdbClient:
    port = os.environ.get("ANDROID_ADB_SERVER_PORT", "5037")
    if not port.isdigit():
        raise InvalidInput(
            f"ANDROID_ADB_SERVER_PORT is {port!r}, not a port number",
            hint="set it to the adb server's port (5037 by default) or unset it",
        )
    return adbutils.AdbClient(host=os.environ.get("ANDROID_ADB_SERVER_HOST", "127.0.0.1"), port=int(port))


def server_running() -> bool:
    """Does anything listen where the adb server should be? (Asking adbutils would start one.)"""
    import socket

    host, _, port = server_address().rpartition(":")
    try:
        with socket.create_connection((host, int(port)), timeout=1):
            return True
    except (OSError, ValueError):
        return False


def list_devices() -> list[DeviceEntry]:
    """Every device the adb server knows, in every state (starting the server if none runs,
    as `adb devices` does)."""
    try:
        infos = _client().list(extended=True)
    except (adbutils.AdbError, OSError) as exc:
        raise BackendUnavailable(
            f"no adb server answers at {server_address()} ({exc})",
            hint="start one with `adb start-server` (or check ANDROID_ADB_SERVER_PORT)",
        ) from None
    return [DeviceEntry(i.serial, i.state, i.tags.get("model", ""), i.tags.get("product", "")) for i in infos]


def choose(serial: str | None) -> DeviceEntry:
    """The device to drive: the named one, or the only one attached. Refuses a device that
    cannot take commands (offline, unauthorized) with what to do about it."""
    devices = list_devices()
    listed = ", ".join(f"{d.serial} ({d.state}{', ' + d.model if d.model else ''})" for d in devices) or "none"
    if serial:
        found = next((d for d in devices if d.serial == serial), None)
        if found is None:
            raise NotFound(f"no device {shown(serial)} is attached", hint=f"attached: {listed} — run `winctl devices`")
    else:
        if not devices:
            raise BackendUnavailable(
                "no Android device is attached", hint="plug one in with USB debugging on, or `adb connect HOST:PORT`"
            )
        if len(devices) > 1:
            raise InvalidInput(
                f"{len(devices)} devices are attached: {listed}",
                hint="choose one with --device SERIAL (or WINCTL_DEVICE)",
            )
        found = devices[0]
    if found.state == "unauthorized":
        raise BackendUnavailable(
            f"device {found.serial} has not authorized this computer",
            hint='unlock the phone and accept the "Allow USB debugging?" prompt',
        )
    if found.state != "device":
        raise BackendUnavailable(
            f"device {found.serial} is {found.state}",
            hint="reconnect it (`adb reconnect`, or replug the cable), then try again",
        )
    return found


class AdbError(Exception):
    """A transport failure: the device went away or a command did not finish."""


class Device:
    """One device's shell. `shell` returns text, `shell_bytes` raw bytes (exec-out)."""

    def __init__(self, serial: str) -> None:
        self.serial = serial
        self._device = _client().device(serial)

    def shell(self, argv: list[str], timeout: float = SHELL_TIMEOUT) -> str:
        return self.shell_bytes(argv, timeout).decode("utf-8", errors="replace")

    def shell_bytes(self, argv: list[str], timeout: float = SHELL_TIMEOUT) -> bytes:
        try:
            out: bytes = self._device.shell(argv, encoding=None, timeout=timeout)
        except (adbutils.AdbError, OSError) as exc:
            raise AdbError(str(exc) or type(exc).__name__) from None
        return out

    def state(self) -> str:
        """The device's state as the server sees it now ("" when it is not listed at all)."""
        try:
            return next((d.state for d in list_devices() if d.serial == self.serial), "")
        except BackendUnavailable:
            return ""
