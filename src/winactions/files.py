"""Files that several processes of one session share: written whole, and noticed when rewritten.

A writer never leaves a half-written file behind (it writes a temporary file beside the real
one and renames it over it), so every save is a new file; a reader tells that another process
saved since it last looked by the file's identity (inode, modification time, size).
Standard library only: the session store and the locator's cache both use it.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

Stamp = tuple[int, int, int]


def stamp(path: Path) -> Stamp | None:
    """The file's identity now; None when it does not exist."""
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return None
    return st.st_ino, st.st_mtime_ns, st.st_size  # every save is a new file (os.replace)


def write_whole(path: Path, text: str) -> Stamp | None:
    """Replace `path` by a file holding `text` (readable by this user only); its new stamp."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.chmod(tmp, 0o600)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return stamp(path)
