"""The thin client: forward one winctl invocation to the session's daemon, start it if needed.

It imports only the standard library, so `winctl --session s click 3` costs little more
than starting Python. The daemon's address and secret live in a file only its owner can
read: `{pid, port, token, version}`. A daemon of another version is replaced, a file whose
daemon is gone is removed, and two clients starting the same session end with one daemon
(the start is serialized by a lock file).
"""

from __future__ import annotations

import os
import sys
import time

from winactions._version import __version__
from winactions.daemon import auth, wire
from winactions.session.filelock import Held
from winactions.session.paths import UnsafeRuntimeDir, bad_session_name, runtime_path

TYPE_CHECKING = False  # not `from typing import`: typing costs the thin client ~5 ms

if TYPE_CHECKING:  # only names: the client imports the standard library's cheapest parts
    from pathlib import Path
    from typing import Any

CONNECT_TIMEOUT = 2.0
PING_TIMEOUT = 2.0
READ_TIMEOUT = 150.0  # above the daemon's own command deadline, so the daemon answers first
START_TIMEOUT = 20.0
MAX_MESSAGE = 8 * 1024 * 1024
# What decides which desktop (display, buses, backend) a daemon reads and drives.
IDENTITY_VARS = ("DISPLAY", "WAYLAND_DISPLAY", "DBUS_SESSION_BUS_ADDRESS", "AT_SPI_BUS_ADDRESS",
                 "WINACTIONS_BACKEND", "WINACTIONS_WINDOWS_NATIVE")


class DaemonError(Exception):
    """The daemon could not be reached or started."""


def daemons_path() -> str:
    path = os.path.join(runtime_path(), "daemons")
    os.makedirs(path, mode=0o700, exist_ok=True)
    return path


def daemons_dir() -> Path:
    from pathlib import Path

    return Path(daemons_path())


def session_file_path(name: str) -> str:
    return os.path.join(daemons_path(), f"{name}.json")


def session_file(name: str) -> Path:
    from pathlib import Path

    return Path(session_file_path(name))


def _remove_session_file(name: str) -> None:
    try:
        os.unlink(session_file_path(name))
    except FileNotFoundError:
        pass


def read_session_file(name: str) -> dict[str, Any] | None:
    try:
        with open(session_file_path(name)) as f:
            data = wire.loads(f.read())
    except (FileNotFoundError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def request(info: dict[str, Any], message: dict[str, Any], timeout: float) -> dict[str, Any]:
    """One request, one reply, one connection. The token never travels: the request proves
    it knows it (HMAC of a fresh nonce), and the reply must prove the same — so whatever
    else listens on that port neither learns the token nor gets its answer printed."""
    nonce = auth.new_nonce()
    token = str(info["token"])
    payload = (wire.dumps({**message, "version": info["version"], "nonce": nonce,
                           "auth": auth.sign(token, nonce, "client")}) + "\n").encode()
    raw = wire.exchange(int(info["port"]), payload, CONNECT_TIMEOUT, timeout, MAX_MESSAGE).decode("ascii", "replace")
    proof, _, body = raw.rstrip("\n").partition(" ")
    if not raw:
        raise DaemonError("the daemon closed the connection without answering")
    if not auth.same(proof, auth.sign(token, nonce, body)):
        raise DaemonError(f"what answers on port {info['port']} is not the session's daemon (its reply has no "
                          "valid proof); nothing it said was used")
    reply = wire.loads(body)
    if not isinstance(reply, dict):
        raise DaemonError("the daemon's reply is not an object")
    return reply


def desktop_identity(env: dict[str, str] | os._Environ[str]) -> str:
    """Which desktop a process works on: a daemon serves only clients of its own desktop."""
    return "|".join(env.get(k, "") for k in IDENTITY_VARS)


def ping(info: dict[str, Any]) -> dict[str, Any] | None:
    try:
        reply = request(info, {"op": "ping"}, PING_TIMEOUT)
    except (OSError, ValueError, DaemonError):
        return None
    return reply if reply.get("pong") else None


def _alive(pid: int) -> bool:
    if sys.platform == "win32":  # os.kill(pid, 0) there sends CTRL_C_EVENT: never use it as a probe
        import psutil

        return bool(psutil.pid_exists(pid))
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def live_daemon(name: str) -> dict[str, Any] | None:
    """The session file of a running daemon of our version and desktop; a stale file is
    removed, and a daemon of another version or desktop is stopped."""
    info = read_session_file(name)
    if info is None:
        return None
    if not _alive(int(info.get("pid", 0))) or ping(info) is None:
        _remove_session_file(name)
        return None
    if info.get("version") != __version__ or info.get("desktop") != desktop_identity(os.environ):
        stop(name, info)
        return None
    return info


def stop(name: str, info: dict[str, Any] | None = None) -> bool:
    """Ask a session's daemon to exit; True if one was running."""
    info = info or read_session_file(name)
    if info is None:
        return False
    try:
        request(info, {"op": "shutdown"}, PING_TIMEOUT)
    except (OSError, ValueError, DaemonError):
        pass
    deadline = time.monotonic() + 5
    while _alive(int(info.get("pid", 0))) and time.monotonic() < deadline:
        time.sleep(0.05)
    _remove_session_file(name)
    return True


def ensure_daemon(name: str) -> dict[str, Any]:
    """A running daemon for the session, started if there is none."""
    info = live_daemon(name)
    if info is not None:
        return info
    import subprocess

    with Held(os.path.join(daemons_path(), f"{name}.lock")):  # a racing client waits here, then finds ours
        info = live_daemon(name)
        if info is not None:
            return info
        detach: dict[str, Any] = {"start_new_session": True}
        if sys.platform == "win32":  # no sessions there: a detached process of its own group
            detach = {"creationflags": subprocess.DETACHED_PROCESS | subprocess.CREATE_NEW_PROCESS_GROUP}
        subprocess.Popen([sys.executable, "-m", "winactions.daemon.server", name],
                         stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                         close_fds=True, **detach)
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            info = read_session_file(name)
            if info is not None and ping(info) is not None:
                return info
            time.sleep(0.02)
    raise DaemonError(f"the daemon for session {name!r} did not start within {START_TIMEOUT:g}s")


def _caller() -> dict[str, Any]:
    """This call's folder and WINCTL_* variables (model keys, thresholds, budgets): the daemon
    was started by some earlier client, and runs each call in its own caller's setting."""
    return {"cwd": os.getcwd(), "env": {k: v for k, v in os.environ.items() if k.startswith("WINCTL_")}}


def _send_run(name: str, argv: list[str]) -> dict[str, Any]:
    """The fast path trusts the session file (same version and desktop, live pid) and sends
    at once; only when that fails does it check, clean up and start a daemon."""
    message = {"op": "run", "argv": argv, **_caller()}
    info = read_session_file(name)
    if info is not None and info.get("version") == __version__ and _alive(int(info.get("pid", 0))) \
            and info.get("desktop") == desktop_identity(os.environ):
        try:
            return request(info, message, READ_TIMEOUT)
        except (ConnectionRefusedError, DaemonError):
            pass  # a daemon that died without removing its file, or an impostor: start anew below
    return request(ensure_daemon(name), message, READ_TIMEOUT)


def _send_watched(name: str, argv: list[str]) -> dict[str, Any]:
    """`_send_run`, showing the daemon's progress on this terminal while it works: after a
    second, the running command's latest step (from the daemon's pings) on one stderr line."""
    import threading

    from winactions import progress

    box: dict[str, Any] = {}

    def send() -> None:
        try:
            box["reply"] = _send_run(name, argv)
        except BaseException as exc:  # handed to the caller's thread below
            box["error"] = exc

    worker = threading.Thread(target=send, name="winctl-request", daemon=True)
    started = time.monotonic()
    worker.start()
    shown = False
    worker.join(1.0)
    while worker.is_alive():
        info = read_session_file(name)
        pong = ping(info) if info is not None else None
        step = (pong or {}).get("progress") or {}
        if step.get("step"):
            sys.stderr.write(progress.line(str(step["step"]), time.monotonic() - started))
            sys.stderr.flush()
            shown = True
        worker.join(0.5)
    if shown:
        sys.stderr.write(progress.CLEAR)
    if "error" in box:
        raise box["error"]
    reply: dict[str, Any] = box["reply"]
    return reply


def call(name: str, command: str, args: dict[str, Any] | None = None,
         options: dict[str, Any] | None = None) -> dict[str, Any]:
    """One structured call in the session's daemon (started if needed): `{"ok", "type",
    "result"}` or `{"ok": false, "error": {"code", "message", "hint"}}`."""
    problem = bad_session_name(name)
    if problem:
        return {"ok": False, "error": {"code": "invalid_input", "message": problem}}
    message = {"op": "call", "command": command, "args": args or {}, "options": options or {}, **_caller()}
    reply = request(ensure_daemon(name), message, READ_TIMEOUT)
    if "ok" not in reply:  # refused before it ran (a malformed request)
        return {"ok": False, "error": {"code": "invalid_input", "message": str(reply.get("error"))}}
    return reply


def _fail(argv: list[str], code: str, message: str, hint: str, exit_code: int) -> int:
    if "--json" in argv:
        print(wire.dumps({"ok": False, "error": {"code": code, "message": message, "hint": hint}}))
    else:
        print(f"error: {message}\nhint: {hint}", file=sys.stderr)
    return exit_code


def forward(name: str, argv: list[str]) -> int:
    """Run `winctl ARGV` in the session's daemon, print what it printed, return its exit code."""
    problem = bad_session_name(name)  # before any file is named after it
    if problem:
        return _fail(argv, "invalid_input", problem, "e.g. --session work1", 2)
    try:
        reply = _send_watched(name, argv) if sys.stderr.isatty() else _send_run(name, argv)
    except UnsafeRuntimeDir as exc:
        return _fail(argv, "backend_unavailable", str(exc), "nothing was written", 5)
    except (OSError, ValueError, DaemonError) as exc:
        return _fail(argv, "daemon_unavailable", f"cannot reach the session daemon {name!r}: {exc}",
                     f"try again; `winctl session close {name}` restarts it, `--no-daemon` runs without it", 5)
    if "error" in reply and "exit" not in reply:
        print(f"error: {reply['error']}", file=sys.stderr)
        return 5
    sys.stdout.write(reply.get("stdout", ""))
    sys.stderr.write(reply.get("stderr", ""))
    return int(reply.get("exit", 1))
