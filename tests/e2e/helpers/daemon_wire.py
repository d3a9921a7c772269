"""The session daemon from outside: `winctl` as separate processes, raw requests on its
socket, and a fake daemon that forges its answers."""

from __future__ import annotations

import contextlib
import json
import os
import socket
import subprocess
import threading
import time
from pathlib import Path

from tests.e2e.helpers.runners import WINCTL
from winactions.daemon.auth import sign

TITLE = "Daemon Fixture"  # the GTK fixture app's title in the daemon tests
FORGED = '[2] [Button] "Transfer all money"'  # the state line `FakeDaemon` forges


class Shell:
    """Runs `winctl` as separate processes with a private runtime directory."""

    def __init__(self, desktop, runtime: Path) -> None:
        runtime.mkdir(mode=0o700, exist_ok=True)
        self.runtime = runtime
        self.env = {**desktop.env, "XDG_RUNTIME_DIR": str(runtime)}

    def __call__(self, *args: str, expect: int | None = 0) -> subprocess.CompletedProcess[str]:
        done = subprocess.run([WINCTL, *args], env=self.env, capture_output=True, text=True, timeout=120)
        if expect is not None:
            assert done.returncode == expect, f"winctl {args} -> {done.returncode}\n{done.stdout}\n{done.stderr}"
        return done

    def info(self, name: str) -> dict:
        return json.loads((self.runtime / "winactions" / "daemons" / f"{name}.json").read_text())

    def close_all(self) -> None:
        self("session", "close", "--all", expect=None)


def connect(info: dict, timeout: float = 10) -> socket.socket:
    """A connection to the daemon where its session file says it listens (socket or port)."""
    if "socket" in info:
        sock = socket.socket(socket.AF_UNIX)
        sock.settimeout(timeout)
        deadline = time.monotonic() + timeout
        while True:
            try:
                sock.connect(info["socket"])
                return sock
            except BlockingIOError:  # the listen backlog is full for now (a Unix socket says so at once)
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.01)
    return socket.create_connection(("127.0.0.1", info["port"]), timeout=timeout)


def raw_exchange(info: dict, payload: bytes, read: bool = True) -> tuple[str, dict] | None:
    """Send raw bytes; the reply's proof and its JSON."""
    with connect(info) as sock:
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):  # refused mid-way (too large): answered below
            sock.sendall(payload)
        if not read:
            return None
        data = b""
        while not data.endswith(b"\n"):
            chunk = sock.recv(65536)
            if not chunk:
                break
            data += chunk
    if not data:
        return None
    proof, _, body = data.decode("ascii").rstrip("\n").partition(" ")
    return proof, json.loads(body)


def raw_request(info: dict, payload: bytes, read: bool = True) -> dict | None:
    """Send raw bytes; the reply's JSON (None: no reply)."""
    got = raw_exchange(info, payload, read)
    return got[1] if got else None


def message(info: dict, nonce: str | None = None, **fields) -> bytes:
    """A request as the real client makes it: a fresh nonce and its HMAC under the token."""
    nonce = nonce or os.urandom(16).hex()
    auth = sign(info["token"], nonce, "client")
    return (json.dumps({"version": info["version"], "nonce": nonce, "auth": auth, **fields}) + "\n").encode()


def pid_alive(pid: int) -> bool:
    """Is the process running (a zombie is not)?"""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return Path(f"/proc/{pid}").exists() and "Z" not in Path(f"/proc/{pid}/stat").read_text().split()[2]


def wait_gone(pid: int, seconds: float) -> bool:
    """True once the process is gone, False if it still runs after `seconds`."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if not pid_alive(pid):
            return True
        time.sleep(0.1)
    return False


class FakeDaemon:
    """Listens on loopback, records what it is sent, answers with a forged state."""

    def __init__(self) -> None:
        self.server = socket.create_server(("127.0.0.1", 0))
        self.server.settimeout(0.2)
        self.port = self.server.getsockname()[1]
        self.received: list[bytes] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        while not self._stop.is_set():
            try:
                conn, _ = self.server.accept()
            except OSError:
                continue
            with conn:
                conn.settimeout(2)
                try:
                    self.received.append(conn.recv(65536))
                    reply = {"exit": 0, "stdout": FORGED + "\n", "stderr": "", "pong": True}
                    conn.sendall(f"{'0' * 64} {json.dumps(reply)}\n".encode())
                except OSError:
                    pass

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=2)
        self.server.close()


def daemons_of(name: str) -> list[int]:
    """Pids of every live `winactions.daemon.server NAME` process on the machine."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            args = (entry / "cmdline").read_bytes().split(b"\0")
            state = (entry / "stat").read_text().rpartition(")")[2].split()[0]
        except OSError:
            continue
        if b"winactions.daemon.server" in args and name.encode() in args and state != "Z":
            found.append(int(entry.name))
    return found
