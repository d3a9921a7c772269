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
from winactions.options import FORWARDED_ENV
from winactions.session import wire
from winactions.session.paths import runtime_path

TYPE_CHECKING = False  # not `from typing import`: typing costs the thin client ~5 ms

if TYPE_CHECKING:  # only names: the client imports the standard library's cheapest parts
    from pathlib import Path
    from typing import Any

CONNECT_TIMEOUT = 2.0
PING_TIMEOUT = 2.0
READ_TIMEOUT = 150.0  # above the daemon's own command deadline, so the daemon answers first
START_TIMEOUT = 20.0
MAX_MESSAGE = 8 * 1024 * 1024


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
    """One request, one reply, one connection; the token goes with every request."""
    payload = (wire.dumps({**message, "token": info["token"], "version": info["version"]}) + "\n").encode()
    raw = wire.exchange(int(info["port"]), payload, CONNECT_TIMEOUT, timeout, MAX_MESSAGE)
    reply = wire.loads(raw.decode() or "null")
    if not isinstance(reply, dict):
        raise DaemonError("the daemon closed the connection without answering")
    return reply


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
    """The session file of a running daemon of our version; stale files are removed."""
    info = read_session_file(name)
    if info is None:
        return None
    if not _alive(int(info.get("pid", 0))) or ping(info) is None:
        _remove_session_file(name)
        return None
    if info.get("version") != __version__:
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


def _lock_exclusive(file: Any) -> None:
    """Block until this process holds the file's lock (released when the file closes)."""
    if sys.platform == "win32":
        import msvcrt

        while True:
            try:
                msvcrt.locking(file.fileno(), msvcrt.LK_LOCK, 1)  # retries for ~10 s, then raises
                return
            except OSError:
                continue
    else:
        import fcntl

        fcntl.flock(file, fcntl.LOCK_EX)


def ensure_daemon(name: str) -> dict[str, Any]:
    """A running daemon for the session, started if there is none."""
    info = live_daemon(name)
    if info is not None:
        return info
    import subprocess

    with open(os.path.join(daemons_path(), f"{name}.lock"), "w") as lock:
        _lock_exclusive(lock)  # a racing client waits here, then finds our daemon
        info = live_daemon(name)
        if info is not None:
            return info
        detach: dict[str, Any] = {"start_new_session": True}
        if sys.platform == "win32":  # no sessions there: a detached process of its own group
            detach = {"creationflags": subprocess.DETACHED_PROCESS | subprocess.CREATE_NEW_PROCESS_GROUP}
        subprocess.Popen([sys.executable, "-m", "winactions.session.daemon", name],
                         stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                         close_fds=True, **detach)
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            info = read_session_file(name)
            if info is not None and ping(info) is not None:
                return info
            time.sleep(0.02)
    raise DaemonError(f"the daemon for session {name!r} did not start within {START_TIMEOUT:g}s")


def _send_run(name: str, argv: list[str]) -> dict[str, Any]:
    """The fast path trusts the session file (same version, live pid) and sends at once;
    only when that fails does it check, clean up and start a daemon."""
    info = read_session_file(name)
    if info is not None and info.get("version") == __version__ and _alive(int(info.get("pid", 0))):
        try:
            return request(info, {"op": "run", "argv": argv}, READ_TIMEOUT)
        except ConnectionRefusedError:
            pass  # a daemon that died without removing its file: start a new one below
    return request(ensure_daemon(name), {"op": "run", "argv": argv}, READ_TIMEOUT)


def with_env_flags(argv: list[str], env: dict[str, str] | os._Environ[str] = os.environ) -> list[str]:
    """`argv` with this process's model settings spelled as global flags (flags given win).

    The daemon was started by some earlier client and has that client's environment; these
    settings belong to this call, so they travel as the flags they stand for."""
    extra: list[str] = []
    for var, flag in FORWARDED_ENV.items():
        if env.get(var) and not any(a == flag or a.startswith(flag + "=") for a in argv):
            extra += [flag, env[var]]
    return extra + argv


def forward(name: str, argv: list[str]) -> int:
    """Run `winctl ARGV` in the session's daemon, print what it printed, return its exit code."""
    try:
        reply = _send_run(name, with_env_flags(argv))
    except (OSError, ValueError, DaemonError) as exc:
        json_mode = "--json" in argv
        message = f"cannot reach the session daemon {name!r}: {exc}"
        hint = f"try again; `winctl session close {name}` restarts it"
        if json_mode:
            print(wire.dumps({"ok": False, "error": {"code": "daemon_unavailable", "message": message,
                                                      "hint": hint}}))
        else:
            print(f"error: {message}\nhint: {hint}", file=sys.stderr)
        return 5
    if "error" in reply and "exit" not in reply:
        print(f"error: {reply['error']}", file=sys.stderr)
        return 5
    sys.stdout.write(reply.get("stdout", ""))
    sys.stderr.write(reply.get("stderr", ""))
    return int(reply.get("exit", 1))
