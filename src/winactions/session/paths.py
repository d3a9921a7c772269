"""Where per-user runtime files live. Standard library only: the thin client imports this."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def runtime_dir() -> Path:
    """$XDG_RUNTIME_DIR/winactions, else a private folder in the temp directory (mode 0700)."""
    base = os.environ.get("XDG_RUNTIME_DIR")
    root = Path(base) / "winactions" if base else Path(tempfile.gettempdir()) / f"winactions-{os.getuid()}"
    root.mkdir(mode=0o700, parents=True, exist_ok=True)
    return root
