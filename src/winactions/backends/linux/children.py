"""Programs this process starts and leaves running: reaped when they exit, never left as zombies.

`launch` starts an app (and its stderr keeper) and returns while it runs; a long-lived process
(the session daemon, an MCP server) would keep every one that exits as a zombie until some
later `subprocess.Popen` happened to collect it. Each such child is handed to `reap`: one
background thread polls them (`Popen.poll`, which waits for that pid only and never blocks)
and ends when none is left. No SIGCHLD handler: it would steal the exit status of children
that other code waits for.
"""

from __future__ import annotations

import subprocess
import threading
import time
from typing import Any

POLL_SECONDS = 0.5

_watched: list[subprocess.Popen[Any]] = []
_lock = threading.Lock()
_thread: threading.Thread | None = None


def reap(proc: subprocess.Popen[Any]) -> None:
    """Collect `proc` soon after it exits (its pid then no longer exists)."""
    global _thread
    with _lock:
        _watched.append(proc)
        if _thread is None:
            _thread = threading.Thread(target=_poll, name="winctl-reaper", daemon=True)
            _thread.start()


def _poll() -> None:
    global _thread
    while True:
        time.sleep(POLL_SECONDS)
        with _lock:
            _watched[:] = [p for p in _watched if p.poll() is None]
            if not _watched:
                _thread = None  # under the lock: the next `reap` starts a new thread
                return
