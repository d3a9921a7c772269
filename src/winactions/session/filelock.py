"""An exclusive lock on a file, held across processes (flock; msvcrt on Windows).

Standard library only and no `contextlib`: the thin client takes this lock when it starts a
daemon, and every import there is startup time an agent pays per command.
"""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import IO, Any


def lock_exclusive(file: IO[Any]) -> None:
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


class Held:
    """`with Held(path):` — the lock file `path`, held exclusively for the block."""

    def __init__(self, path: str) -> None:
        self.path = path
        self._file: IO[Any] | None = None

    def __enter__(self) -> Held:
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        self._file = os.fdopen(fd, "r+")
        try:
            lock_exclusive(self._file)
        except BaseException:
            self._file.close()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        if self._file is not None:
            self._file.close()  # closing releases the lock
            self._file = None
