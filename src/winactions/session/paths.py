"""Where per-user runtime files live.

Imports nothing but `os`: the thin client calls `runtime_path` on every invocation, and
every module it imports is startup time an agent pays per command.
"""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False  # not `from typing import`: typing costs the thin client ~5 ms

if TYPE_CHECKING:
    from pathlib import Path


def runtime_path() -> str:
    """$XDG_RUNTIME_DIR/winactions, else a private folder: %LOCALAPPDATA%\\winactions\\runtime on
    Windows (per user by its ACL), a 0700 folder in the temp directory elsewhere."""
    base = os.environ.get("XDG_RUNTIME_DIR")
    if base:
        root = os.path.join(base, "winactions")
    elif sys.platform == "win32":
        local = os.environ.get("LOCALAPPDATA") or os.path.expanduser("~")
        root = os.path.join(local, "winactions", "runtime")
    else:
        import tempfile

        root = os.path.join(tempfile.gettempdir(), f"winactions-{os.getuid()}")
    os.makedirs(root, mode=0o700, exist_ok=True)
    return root


def runtime_dir() -> Path:
    from pathlib import Path

    return Path(runtime_path())
