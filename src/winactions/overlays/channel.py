"""The session's line to its overlay process: start it, ask it, stop it.

The process lives in a private folder of the session (`folder`: 0700, beside the session's
file), listens on a Unix socket there (`s`) and writes its pid (`pid`); only this user can
reach the folder, and the process checks its peer's uid too. No TCP port. It is started
detached (a session of its own), so it outlives the one-shot `winctl` or the daemon that
started it; `session close` ends it (`stop`). One request and one reply per connection,
each one JSON line.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from winactions.errors import BackendUnavailable

SOCKET = "s"
PID = "pid"
LOG = "host.log"
START_WAIT = 10.0  # s for a new overlay process to listen (Tk's start under load: ~1 s)
REPLY_SLACK = 5.0  # s a reply may take past the wait the request itself asks for
TELL_WAIT = 0.5  # s a label update before an action may take (measured: ~0.7 ms)
WINDOWS = "overlays (the status label, teach mode) are drawn on Linux (X11) only, not on Windows"
ON_X11 = "run the agent on an X11 desktop for them; every other command works"


def folder(sessions: Path, name: str) -> Path:
    """The overlay folder of session `name` whose files are in `sessions`."""
    return sessions / f"{name}.overlay"


UNIX_PATH_MAX = 107  # bytes of a Unix socket's path, less its final NUL


@contextlib.contextmanager
def socket_path(where: Path) -> Iterator[str]:
    """The socket's path to bind or connect: as it is, or — when the folder's path is too
    long for a Unix socket — through this process's open handle on the folder (Linux)."""
    if sys.platform == "win32":
        raise BackendUnavailable(WINDOWS, hint=ON_X11)
    path = str(where / SOCKET)
    if len(os.fsencode(path)) <= UNIX_PATH_MAX:
        yield path
        return
    fd = os.open(where, os.O_RDONLY | os.O_DIRECTORY)
    try:
        yield f"/proc/self/fd/{fd}/{SOCKET}"
    finally:
        os.close(fd)


def _connect(where: Path, timeout: float) -> socket.socket:
    if sys.platform == "win32":
        raise BackendUnavailable(WINDOWS, hint=ON_X11)
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.settimeout(timeout)
    try:
        with socket_path(where) as path:
            s.connect(path)
    except OSError:
        s.close()
        raise
    return s


def running(where: Path) -> bool:
    """Whether an overlay process answers in `where` (a connect, nothing sent)."""
    with contextlib.suppress(OSError), _connect(where, 1.0):
        return True
    return False


def ensure(where: Path) -> None:
    """Start the session's overlay process unless one answers; BackendUnavailable when it
    does not come up, with what it said."""
    if running(where):
        return
    where.mkdir(mode=0o700, parents=True, exist_ok=True)
    with contextlib.suppress(FileNotFoundError):
        (where / SOCKET).unlink()
    log = open(where / LOG, "wb")  # noqa: SIM115  (handed to the child)
    with log:
        child = subprocess.Popen(
            [sys.executable, "-m", "winactions.overlays.host", str(where)],
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=log,
            start_new_session=True,
            close_fds=True,
        )
    deadline = time.monotonic() + START_WAIT
    while time.monotonic() < deadline:
        if running(where):
            return
        if child.poll() is not None:  # it could not open the display, or Tk is missing
            break
        time.sleep(0.05)
    said = (where / LOG).read_text(errors="replace").strip().splitlines()[-3:]
    raise BackendUnavailable(
        "the overlay process did not start" + (f": {' / '.join(said)}" if said else ""),
        hint="overlays need Tk (Debian: python3-tk) and an X display; `winctl doctor` checks the display",
    )


def ask(where: Path, request: dict[str, Any], wait: float = 0.0, slack: float = REPLY_SLACK) -> dict[str, Any]:
    """Send one request and return the reply; `wait`: how long the request itself may wait
    (a teach step), `slack`: how much longer the reply may take. BackendUnavailable when the
    process cannot be reached, does not answer in time, or says an error."""
    try:
        with _connect(where, wait + slack) as s:
            s.sendall(json.dumps(request).encode() + b"\n")
            data = b""
            while not data.endswith(b"\n"):
                chunk = s.recv(65536)
                if not chunk:
                    break
                data += chunk
    except OSError as exc:
        raise BackendUnavailable(
            f"the overlay process did not answer ({exc})", hint="run the command again: it starts a new one"
        ) from None
    try:
        reply: dict[str, Any] = json.loads(data)
    except ValueError:
        raise BackendUnavailable(
            "the overlay process closed without a reply", hint="run the command again: it starts a new one"
        ) from None
    if "error" in reply:
        raise BackendUnavailable(f"the overlay process failed: {reply['error']}", hint="see its log in " + str(where))
    return reply


def tell(where: Path, request: dict[str, Any]) -> None:
    """Send a request to a running overlay process, if one runs; never starts one, never
    fails, and gives up after `TELL_WAIT` s (a stuck process must not slow the agent's actions)."""
    if (where / SOCKET).exists():
        with contextlib.suppress(BackendUnavailable):
            ask(where, request, slack=TELL_WAIT)


def _pid(where: Path) -> int | None:
    try:
        return int((where / PID).read_text().strip())
    except (OSError, ValueError):
        return None


def _is_host(pid: int) -> bool:
    """Whether `pid` is an overlay process (its command line says so), not a reused pid."""
    try:
        return b"winactions.overlays.host" in Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return False


def stop(where: Path) -> bool:
    """End the overlay process of `where` (asked to quit, else terminated when its pid is
    provably one); True when one was running."""
    pid = _pid(where)
    alive = pid is not None and _is_host(pid)
    if running(where):
        with contextlib.suppress(BackendUnavailable):
            ask(where, {"op": "quit"})
        alive = True
    deadline = time.monotonic() + 3
    while pid is not None and _is_host(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    if pid is not None and _is_host(pid):
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGTERM)
    for leftover in (SOCKET, PID):
        with contextlib.suppress(FileNotFoundError):
            (where / leftover).unlink()
    return alive
