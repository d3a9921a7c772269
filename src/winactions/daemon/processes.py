"""The session daemons this user runs, found among the processes rather than by their files.

A daemon whose session file is gone (deleted, or replaced by a client that gave up on it)
runs on unseen by `winctl sessions`; these find it by its command line,
`python -m winactions.daemon.server NAME`, in processes of this user whose runtime folder is
ours (other desktops' and other test runs' daemons are not ours to list or stop), and stop it
by pid after checking again that the pid is still that daemon. Linux reads /proc; elsewhere
psutil.
"""

from __future__ import annotations

import os
import signal
import sys
import time
from typing import NamedTuple

from winactions.daemon.client import daemon_session, proc_state

# what decides a process's runtime folder (`session.paths.runtime_path`)
RUNTIME_VARS = ("XDG_RUNTIME_DIR", "LOCALAPPDATA") if sys.platform == "win32" else ("XDG_RUNTIME_DIR", "TMPDIR", "HOME")
STOP_SECONDS = 5.0


class DaemonProcess(NamedTuple):
    pid: int
    session: str


def daemon_processes() -> list[DaemonProcess]:
    """Every session daemon of this user and runtime folder, by pid."""
    mine = tuple(os.environ.get(k, "") for k in RUNTIME_VARS)
    found = []
    for pid in _pids():
        if pid == os.getpid():
            continue
        name = _daemon_session(pid, mine)
        if name is not None:
            found.append(DaemonProcess(pid, name))
    return sorted(found, key=lambda d: (d.session, d.pid))


def stop_process(daemon: DaemonProcess) -> bool:
    """Stop that daemon (SIGTERM, then SIGKILL after STOP_SECONDS) if its pid is still that
    daemon of ours; True once it is gone. On Linux the pid is held as a pidfd first, so a
    pid reused in between is never signalled."""
    mine = tuple(os.environ.get(k, "") for k in RUNTIME_VARS)
    if sys.platform == "win32":
        return _stop_psutil(daemon, mine)
    try:
        handle = os.pidfd_open(daemon.pid) if hasattr(os, "pidfd_open") else None
    except OSError:
        return False  # gone already, or not ours
    try:
        if _daemon_session(daemon.pid, mine) != daemon.session:
            return False
        for sig in (signal.SIGTERM, signal.SIGKILL):
            if handle is not None:
                signal.pidfd_send_signal(handle, sig)
            else:  # pragma: no cover - POSIX without pidfd
                os.kill(daemon.pid, sig)
            if _ended(daemon.pid, STOP_SECONDS):
                return True
        return False
    except ProcessLookupError:
        return True
    finally:
        if handle is not None:
            os.close(handle)


def _pids() -> list[int]:
    if sys.platform == "win32":
        import psutil

        return list(psutil.pids())
    try:
        return [int(entry) for entry in os.listdir("/proc") if entry.isdigit()]
    except OSError:  # pragma: no cover - no /proc (macOS)
        return []


def _daemon_session(pid: int, runtime: tuple[str, ...]) -> str | None:
    """The session `pid` serves when it is a daemon of this user with this runtime folder."""
    if sys.platform == "win32":
        return _psutil_session(pid, runtime)
    try:
        if os.stat(f"/proc/{pid}").st_uid != os.getuid():
            return None
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            cmdline = [a.decode("utf-8", "surrogateescape") for a in f.read().split(b"\0")]
        name = daemon_session(cmdline)
        if name is None:
            return None
        with open(f"/proc/{pid}/environ", "rb") as f:
            env = dict(
                item.decode("utf-8", "surrogateescape").partition("=")[::2] for item in f.read().split(b"\0") if item
            )
    except OSError:  # gone, or not readable: not ours to judge
        return None
    return name if tuple(env.get(k, "") for k in RUNTIME_VARS) == runtime else None


def _ended(pid: int, seconds: float) -> bool:
    """Did `pid` end (gone, or a zombie its parent has not reaped) within `seconds`?"""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if proc_state(pid) in (None, b"Z", b"X"):
            return True
        time.sleep(0.05)
    return False


def _psutil_session(pid: int, runtime: tuple[str, ...]) -> str | None:
    import psutil

    try:
        proc = psutil.Process(pid)
        if proc.username() != psutil.Process().username():
            return None
        name = daemon_session(proc.cmdline())
        if name is None:
            return None
        env = proc.environ()
    except psutil.Error:
        return None
    return name if tuple(env.get(k, "") for k in RUNTIME_VARS) == runtime else None


def _stop_psutil(daemon: DaemonProcess, runtime: tuple[str, ...]) -> bool:
    import psutil

    try:
        proc = psutil.Process(daemon.pid)  # holds the pid's creation time: a reused pid is not it
        if _psutil_session(daemon.pid, runtime) != daemon.session:
            return False
        proc.terminate()
        proc.wait(STOP_SECONDS)
    except psutil.NoSuchProcess:
        return True
    except psutil.TimeoutExpired:
        proc.kill()
    except psutil.Error:
        return False
    return not proc.is_running()
