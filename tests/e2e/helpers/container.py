"""The container's entry script run on this machine (no Docker engine needed), and what it started.

`Desktop` runs `container/entrypoint.sh` — the script the image runs — on a private display,
bus and runtime folder and a free port, with this checkout's `winctl`, and waits until its own
health check passes.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

from tests.fixtures.toolkit_apps import isolated_env

ROOT = Path(__file__).resolve().parents[3]
ENTRYPOINT = ROOT / "container" / "entrypoint.sh"
VENV_BIN = Path(sys.executable).parent
DESKTOP_VARIABLES = ("DISPLAY", "DBUS_SESSION_BUS_ADDRESS", "XDG_RUNTIME_DIR", "WAYLAND_DISPLAY", "XAUTHORITY")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def marked(runtime: Path) -> dict[int, str]:
    """Every process (pid: name) whose environment carries the desktop's mark."""
    mark = f"WINACTIONS_DESKTOP={runtime}".encode()
    found = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if mark in (entry / "environ").read_bytes().split(b"\0"):
                found[int(entry.name)] = (entry / "comm").read_text().strip()
        except OSError:
            continue
    return found


def descendants(pid: int) -> dict[int, str]:
    """The processes under `pid` (pid: name), through their parents, as they stand now."""
    parents: dict[int, int] = {}
    names: dict[int, str] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        name, rest = stat[stat.index("(") + 1 : stat.rindex(")")], stat[stat.rindex(")") + 2 :].split()
        parents[int(entry.name)], names[int(entry.name)] = int(rest[1]), name
    found: dict[int, str] = {}
    todo = [pid]
    while todo:
        parent = todo.pop()
        for child, its_parent in parents.items():
            if its_parent == parent and child not in found:
                found[child] = names[child]
                todo.append(child)
    return found


def running(pid: int) -> bool:
    """Is `pid` there and not a zombie?"""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat[stat.rindex(")") + 2] != "Z"


class Desktop:
    """`container/entrypoint.sh` started with `settings` (MCP_TOKEN, VNC...) in `folder`."""

    def __init__(self, folder: Path, **settings: str) -> None:
        self.runtime = folder / "runtime"  # made by the script, as in the image
        self.port = free_port()
        env = {k: v for k, v in os.environ.items() if k not in DESKTOP_VARIABLES}
        self.env = {
            **env,
            **isolated_env(folder / "home"),
            "PATH": f"{VENV_BIN}:{env.get('PATH', '/usr/bin:/bin')}",
            "WINCTL": str(VENV_BIN / "winctl"),
            "XDG_RUNTIME_DIR": str(self.runtime),
            "MCP_HOST": "127.0.0.1",
            "MCP_PORT": str(self.port),
            "MCP_TOOLS": "core,windows",
            **settings,
        }
        self.log = folder / "entrypoint.log"
        with self.log.open("w") as log:
            self.proc = subprocess.Popen(
                ["bash", str(ENTRYPOINT)], env=self.env, stdout=log, stderr=log, start_new_session=True
            )
        self.url = f"http://127.0.0.1:{self.port}/mcp"

    def healthy(self) -> bool:
        done = subprocess.run(["bash", str(ENTRYPOINT), "health"], env=self.env, capture_output=True, timeout=30)
        return done.returncode == 0

    def wait_healthy(self, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            assert self.proc.poll() is None, f"the entry script ended: {self.said()}"
            if self.healthy():
                return
            time.sleep(0.3)
        raise AssertionError(f"not healthy after {timeout}s: {self.said()}")

    def said(self) -> str:
        return self.log.read_text()

    def token(self) -> str:
        return (self.runtime / "mcp-token").read_text().strip()

    def stop(self, timeout: float = 30) -> int:
        """SIGTERM, as `docker stop` sends; the script's exit code."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        return self.proc.wait(timeout=timeout)

    def clean_up(self) -> None:
        """After a failed test: nothing of this desktop stays behind."""
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        for pid in marked(self.runtime):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
