"""The thin client: forward one winctl invocation to the session's daemon, start it if needed.

It imports only the standard library, so `winctl --session s click 3` costs little more
than starting Python. The daemon's address and secret live in a file only its owner can
read: `{pid, socket | port, token, version}` — a Unix socket in the same private folder on
POSIX, a loopback port on Windows. Nothing of a request leaves the client before the
daemon has proven itself: on a Unix socket the peer must be the recorded pid of this user,
and on either transport it must answer the client's fresh nonce with a proof only the
token's holder can make. A daemon of another version is replaced; a file whose daemon is
provably gone (its socket refuses, or its pid is not a live daemon of this session and user)
is removed; a daemon that may be alive but is busy is waited for, never replaced; and two
clients starting the same session end with one daemon (the start is serialized by a lock).
"""

from __future__ import annotations

import contextlib
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
BUSY_WAIT = 10.0  # how long a call waits for a daemon that is alive but busy or silent
MAX_MESSAGE = 8 * 1024 * 1024
# What decides which desktop (display, buses, backend) a daemon reads and drives.
IDENTITY_VARS = (
    "DISPLAY",
    "WAYLAND_DISPLAY",
    "DBUS_SESSION_BUS_ADDRESS",
    "AT_SPI_BUS_ADDRESS",
    "WINACTIONS_BACKEND",
    "WINACTIONS_WINDOWS_NATIVE",
)


class DaemonError(Exception):
    """The daemon could not be reached or started."""


class NotSent(DaemonError):
    """Failed before any part of the request left the client: retrying it is safe."""


class DaemonGone(NotSent):
    """The recorded daemon is provably not there: its Unix socket refuses or is missing."""


class DaemonBusy(NotSent):
    """The daemon proved itself and said it has no free connection."""


class Impostor(NotSent):
    """What listens at the recorded address is not the session's daemon (wrong peer, no proof)."""


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


def _forget(name: str, info: dict[str, Any] | None) -> None:
    """Remove the session file, if it still describes the daemon `info` describes (another
    client may have started a new daemon and written its file meanwhile)."""
    current = read_session_file(name)
    if info is None or current is None or current.get("token") != info.get("token"):
        return
    with contextlib.suppress(FileNotFoundError):
        os.unlink(session_file_path(name))


def read_session_file(name: str) -> dict[str, Any] | None:
    try:
        with open(session_file_path(name)) as f:
            data = wire.loads(f.read())
    except (FileNotFoundError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def address(info: dict[str, Any]) -> str | int:
    """Where the daemon listens: its socket's path, or its loopback port."""
    path = info.get("socket")
    return path if isinstance(path, str) else int(info["port"])


DAEMON_MODULE = "winactions.daemon.server"


def daemon_session(args: list[str]) -> str | None:
    """The session a `... -m winactions.daemon.server NAME ...` command line serves; None for
    any other command line."""
    for i in range(len(args) - 2):
        if args[i] == "-m" and args[i + 1] == DAEMON_MODULE:
            return args[i + 2]
    return None


def _names_daemon(args: list[str], name: str) -> bool:
    return daemon_session(args) == name


def proc_state(pid: int) -> bytes | None:
    """The state letter of `pid` in /proc (`R`, `S`, `Z`...), or None when it is gone."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            return f.read().rpartition(b")")[2].split()[0]
    except (OSError, IndexError):
        return None


def is_daemon(pid: int, name: str) -> bool:
    """Whether `pid` is a live process of this user running session `name`'s daemon. A pid that
    is dead, a zombie, another user's, or reused by any other program is not."""
    if pid <= 0:
        return False
    if sys.platform == "win32" or not os.path.isdir("/proc/self"):
        return _is_daemon_elsewhere(pid, name)
    try:
        owner = os.stat(f"/proc/{pid}").st_uid
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            args = f.read().decode("utf-8", "surrogateescape").split("\0")
    except OSError:
        return False
    return owner == os.getuid() and proc_state(pid) not in (None, b"Z", b"X") and _names_daemon(args, name)


def _is_daemon_elsewhere(pid: int, name: str) -> bool:
    """`is_daemon` without /proc: through psutil (Windows, macOS), else by liveness alone."""
    try:
        import psutil
    except ImportError:  # pragma: no cover - psutil is installed where /proc is missing
        if sys.platform == "win32":
            return False
        try:
            os.kill(pid, 0)  # never on Windows: there it sends CTRL_C_EVENT
        except OSError:  # gone, or another user's (PermissionError)
            return False
        return True
    try:
        process = psutil.Process(pid)
        if process.status() == psutil.STATUS_ZOMBIE:
            return False
        if sys.platform != "win32" and process.uids().real != os.getuid():
            return False
        return _names_daemon(process.cmdline(), name)
    except (psutil.Error, OSError):  # gone, or another user's (AccessDenied)
        return False


def _check_peer(sock: Any, info: dict[str, Any]) -> None:
    """On a Unix socket: the process listening must be this user's and the recorded pid."""
    if sys.platform == "win32" or not isinstance(info.get("socket"), str):
        return
    pid, uid = wire.peer(sock)
    if uid is not None and uid != os.getuid():
        raise Impostor(f"the socket {info['socket']} is held by user {uid}, not by you; nothing was sent")
    if pid is not None and pid != int(info.get("pid", 0)):
        raise Impostor(
            f"the socket {info['socket']} is held by pid {pid}, which is not the session's daemon "
            f"(pid {info.get('pid')}); nothing was sent"
        )


def _verified(raw: bytes, token: str, nonce: str) -> dict[str, Any]:
    """The JSON of a reply line whose proof is HMAC(token, nonce + body), else DaemonError."""
    text = raw.decode("ascii", "replace")
    proof, _, body = text.rstrip("\n").partition(" ")
    if not text:
        raise DaemonError("the daemon closed the connection without answering")
    if not auth.same(proof, auth.sign(token, nonce, body)):
        raise DaemonError(
            "what answers there is not the session's daemon (its reply has no valid proof); nothing it said was used"
        )
    reply = wire.loads(body)
    if not isinstance(reply, dict):
        raise DaemonError("the daemon's reply is not an object")
    return reply


def _connect(info: dict[str, Any]) -> Any:
    """A connection to the recorded daemon, or NotSent (DaemonGone when provably not there)."""
    where = address(info)
    try:
        return wire.connect(where, CONNECT_TIMEOUT)
    except (ConnectionRefusedError, FileNotFoundError) as exc:
        if isinstance(where, str):  # a socket in our 0700 folder: only this user can listen there
            raise DaemonGone(f"nothing listens at {where}") from exc
        raise NotSent(f"nothing listens on port {where}") from exc
    except OSError as exc:
        raise NotSent(f"cannot connect to {where}: {exc}") from exc


def request(info: dict[str, Any], message: dict[str, Any], timeout: float) -> dict[str, Any]:
    """One request, one reply, one connection. First the daemon proves itself — its peer
    credentials on a Unix socket, and on any transport HMAC(token, nonce) over a fresh nonce
    the client sends alone — and only then does the request go, itself proving it knows the
    token. The token never travels; a reply without a valid proof is never used. Raises
    NotSent (DaemonGone, DaemonBusy) when nothing of the request left the client."""
    nonce = auth.new_nonce()
    token = str(info["token"])
    sock = _connect(info)
    try:
        _check_peer(sock, info)
        try:
            wire.send_line(sock, (wire.dumps({"hello": nonce}) + "\n").encode())
            raw = wire.read_line(sock, CONNECT_TIMEOUT, MAX_MESSAGE)
        except (OSError, ValueError) as exc:
            raise NotSent(f"no answer to the hello ({exc}); nothing was sent") from exc
        if not raw:
            raise NotSent("the connection closed before the hello was answered; nothing was sent")
        try:
            hello = _verified(raw, token, nonce)
        except (ValueError, DaemonError) as exc:
            raise Impostor(
                f"what answers at {address(info)} is not the session's daemon ({exc}); nothing was sent"
            ) from exc
        if hello.get("busy"):
            raise DaemonBusy(str(hello.get("error") or "busy"))
        if hello.get("hello") is not True:
            raise NotSent("the daemon did not greet as expected; nothing was sent")
        payload = (
            wire.dumps(
                {**message, "version": info["version"], "nonce": nonce, "auth": auth.sign(token, nonce, "client")}
            )
            + "\n"
        )
        wire.send_line(sock, payload.encode())
        return _verified(wire.read_line(sock, timeout, MAX_MESSAGE), token, nonce)
    finally:
        sock.close()


def desktop_identity(env: dict[str, str] | os._Environ[str]) -> str:
    """Which desktop a process works on: a daemon serves only clients of its own desktop."""
    return "|".join(env.get(k, "") for k in IDENTITY_VARS)


def ping(info: dict[str, Any]) -> dict[str, Any] | None:
    try:
        reply = request(info, {"op": "ping"}, PING_TIMEOUT)
    except (OSError, ValueError, DaemonError):
        return None
    return reply if reply.get("pong") else None


def _current(info: dict[str, Any]) -> bool:
    """Whether the recorded daemon is of this client's version and desktop."""
    return info.get("version") == __version__ and info.get("desktop") == desktop_identity(os.environ)


def live_daemon(name: str) -> dict[str, Any] | None:
    """The session file of a running daemon of our version and desktop, or None when there is
    none: a file whose daemon is provably gone is removed, and a daemon of another version
    or desktop is stopped. Raises NotSent when the recorded daemon may be alive but did not
    answer (busy, or silent): it is never abandoned for a new one."""
    info = read_session_file(name)
    if info is None:
        return None
    if not _current(info):
        stop(name, info)
        return None
    try:
        reply = request(info, {"op": "ping"}, PING_TIMEOUT)
    except DaemonGone:
        _forget(name, info)
        return None
    except (OSError, ValueError, DaemonError) as exc:
        if not is_daemon(int(info.get("pid", 0)), name):
            _forget(name, info)
            return None
        raise exc if isinstance(exc, NotSent) else NotSent(str(exc)) from exc
    return info if reply.get("pong") else None


def _terminate(pid: int) -> None:
    if sys.platform == "win32":
        import psutil

        psutil.Process(pid).terminate()
    else:
        import signal

        os.kill(pid, signal.SIGTERM)


def stop(name: str, info: dict[str, Any] | None = None) -> bool:
    """Ask a session's daemon to exit — and when it cannot be asked (another version, or no
    answer), terminate its pid if that is provably the session's daemon. True if a file was there."""
    info = info or read_session_file(name)
    if info is None:
        return False
    pid = int(info.get("pid", 0))
    try:
        request(info, {"op": "shutdown"}, PING_TIMEOUT)
    except (OSError, ValueError, DaemonError):
        if is_daemon(pid, name):
            with contextlib.suppress(Exception):  # gone meanwhile, or not ours to end: the wait below tells
                _terminate(pid)
    deadline = time.monotonic() + 5
    while is_daemon(pid, name) and time.monotonic() < deadline:
        time.sleep(0.05)
    _forget(name, info)
    return True


def ensure_daemon(name: str) -> dict[str, Any]:
    """A running daemon for the session, started if there is none (NotSent when the recorded
    one may be alive but does not answer)."""
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
        subprocess.Popen(
            [sys.executable, "-m", "winactions.daemon.server", name],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            close_fds=True,
            **detach,
        )
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


def _send(name: str, message: dict[str, Any]) -> dict[str, Any]:
    """Send `message` to the session's daemon. The fast path trusts a session file of our
    version and desktop and sends at once (the daemon still proves itself first). What failed
    before any of the request left is retried within BUSY_WAIT: a daemon provably gone is
    replaced by a new one, one that may be alive (busy, silent) is waited for and then
    reported busy — never replaced."""
    deadline = time.monotonic() + BUSY_WAIT
    while True:
        info = read_session_file(name)
        try:
            if info is None or not _current(info):
                info = ensure_daemon(name)
            return request(info, message, READ_TIMEOUT)
        except DaemonGone:
            _forget(name, info)
            problem: NotSent | None = None
        except NotSent as exc:
            if info is not None and not is_daemon(int(info.get("pid", 0)), name):
                _forget(name, info)  # what answered (or did not) is not our daemon: start anew
                problem = None
            elif isinstance(exc, Impostor):  # the address lies, yet the recorded daemon runs: waiting cannot help
                raise DaemonError(
                    f"{exc}, yet the recorded daemon (pid {(info or {}).get('pid')}) is running; it was left alone"
                ) from exc
            else:
                problem = exc
        if time.monotonic() > deadline:
            pid = (info or {}).get("pid")
            raise DaemonError(
                f"the session's daemon (pid {pid}) is alive but busy or not answering "
                f"({problem or 'it kept going away'}); it was left running"
            )
        if problem is not None:
            time.sleep(0.2)


def _send_run(name: str, argv: list[str]) -> dict[str, Any]:
    return _send(name, {"op": "run", "argv": argv, **_caller()})


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


def call(
    name: str, command: str, args: dict[str, Any] | None = None, options: dict[str, Any] | None = None
) -> dict[str, Any]:
    """One structured call in the session's daemon (started if needed): `{"ok", "type",
    "result"}` or `{"ok": false, "error": {"code", "message", "hint"}}`; a command that ran to
    the end and reports a failure (a task, a batch with a failed step) has both `result` and
    `error`, with `ok` false."""
    problem = bad_session_name(name)
    if problem:
        return {"ok": False, "error": {"code": "invalid_input", "message": problem}}
    message = {"op": "call", "command": command, "args": args or {}, "options": options or {}, **_caller()}
    reply = _send(name, message)
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
        return _fail(
            argv,
            "daemon_unavailable",
            f"cannot reach the session daemon {name!r}: {exc}",
            f"try again; `winctl session close {name}` restarts it, `--no-daemon` runs without it",
            5,
        )
    if "error" in reply and "exit" not in reply:
        print(f"error: {reply['error']}", file=sys.stderr)
        return 5
    sys.stdout.write(reply.get("stdout", ""))
    sys.stderr.write(reply.get("stderr", ""))
    return int(reply.get("exit", 1))
