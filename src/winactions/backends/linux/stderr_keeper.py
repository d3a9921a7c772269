"""What a launched program says on stderr: its first STDERR_KEEP bytes, for `launch` to quote
when the program exits without opening a window.

The app outlives winctl (a one-shot `winctl launch` ends at once), so its stderr cannot be a
pipe that winctl reads: a reader that ends takes a writing app with it (SIGPIPE), or blocks it
once the pipe is full. Nor a plain file: a long-lived app's warnings would grow it without
bound. So the app writes into a pipe read by `sh -c 'head -c N > FILE; exec cat > /dev/null'`:
the first N bytes are kept, the rest drained for as long as the app writes, by one small
process that ends with it.
"""

from __future__ import annotations

import contextlib
import os
import re
import subprocess
import tempfile
from dataclasses import dataclass
from typing import IO

from winactions.backends.linux.children import reap

STDERR_KEEP = 16384  # bytes kept of what a program writes to stderr
QUOTED_LINES = 6  # the last lines quoted in an error ...
QUOTED_CHARS = 600  # ... and at most this many characters of them
FLUSH_SECONDS = 0.3  # how long the keeper may take to finish once the program is gone
_CONTROL = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|[\x00-\x08\x0b-\x1f\x7f]")  # terminal colours, control bytes


@dataclass
class Kept:
    """Where a program's first words on stderr go — a file with no name (nothing to leave
    behind in any folder: it goes when the keeper and we close it) — and the process keeping them."""

    file: IO[bytes]
    keeper: subprocess.Popen[bytes]

    def discard(self) -> None:
        """Drop what was kept; the keeper is reaped when it ends (with the program's stderr)."""
        self.file.close()
        reap(self.keeper)


def keep_stderr() -> tuple[int, Kept]:
    """A pipe's write end to give a program as its stderr, and where its first bytes go. The
    caller closes the write end once the program has it."""
    kept = tempfile.TemporaryFile()  # noqa: SIM115  (returned open to the caller) O_TMPFILE where the OS has it: never a name in /tmp
    read_end, write_end = os.pipe()
    try:
        keeper = subprocess.Popen(
            ["sh", "-c", 'head -c "$1"; exec cat > /dev/null', "sh", str(STDERR_KEEP)],
            stdin=read_end,
            stdout=kept,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
    except OSError:
        os.close(write_end)
        kept.close()
        raise
    finally:
        os.close(read_end)
    return write_end, Kept(kept, keeper)


def last_words(kept: Kept, settle: bool) -> str:
    """The last lines the program wrote, on one line ("" when it wrote nothing); what was kept
    is dropped. `settle`: the program is gone, so let the keeper finish writing (it ends when
    the program's stderr closes; a child that keeps it open is waited for FLUSH_SECONDS at most)."""
    if settle:
        with contextlib.suppress(subprocess.TimeoutExpired):
            kept.keeper.wait(FLUSH_SECONDS)
    if kept.file.closed:
        return ""
    try:
        kept.file.seek(0)
        data = kept.file.read(STDERR_KEEP)
    except OSError:
        data = b""
    finally:
        kept.discard()
    lines = [line.strip() for line in _CONTROL.sub("", data.decode("utf-8", "replace")).splitlines()]
    quoted = " | ".join([line for line in lines if line][-QUOTED_LINES:])
    return quoted if len(quoted) <= QUOTED_CHARS else "…" + quoted[-QUOTED_CHARS:]
