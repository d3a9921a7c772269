"""Where per-user runtime files live.

Imports nothing but `os`: the thin client calls `runtime_path` on every invocation, and
every module it imports is startup time an agent pays per command.
"""

from __future__ import annotations

import os

TYPE_CHECKING = False  # not `from typing import`: typing costs the thin client ~5 ms

if TYPE_CHECKING:
    from pathlib import Path


def runtime_path() -> str:
    """$XDG_RUNTIME_DIR/winactions, else a private folder in the temp directory (mode 0700)."""
    base = os.environ.get("XDG_RUNTIME_DIR")
    if base:
        root = os.path.join(base, "winactions")
    else:
        import tempfile

        root = os.path.join(tempfile.gettempdir(), f"winactions-{os.getuid()}")
    os.makedirs(root, mode=0o700, exist_ok=True)
    return root


def runtime_dir() -> Path:
    from pathlib import Path

    return Path(runtime_path())
