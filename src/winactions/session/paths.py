"""Where per-user runtime files live, and which session names may name them.

Imports nothing but `os` and `sys`: the thin client calls `runtime_path` on every
invocation, and every module it imports is startup time an agent pays per command.

The runtime folder holds each daemon's port and secret token, so it must be this user's
alone. Like ssh-agent and tmux, its owner and mode are checked before use: a folder in the
shared temp directory that another user created first (or a symlink planted there) is never
used — a private folder in the home directory is used instead.
"""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False  # not `from typing import`: typing costs the thin client ~5 ms

if TYPE_CHECKING:
    from pathlib import Path

_NAME_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-")


class UnsafeRuntimeDir(PermissionError):
    """The runtime folder is not this user's alone; nothing was written."""


def bad_session_name(name: str) -> str | None:
    """Why `name` cannot name a session (it becomes a file name), or None when it can."""
    if not name or len(name) > 64 or not set(name) <= _NAME_CHARS or name.strip(".") == "":
        cut = f"… ({len(name) - 64:,} more characters not shown)" if len(name) > 64 else ""
        return f"bad session name {name[:64]!r}{cut}: use letters, digits, '.', '_' or '-' (at most 64), not only dots"
    return None


def _private(path: str) -> str | None:
    """Create `path` as a 0700 folder if missing; why it is unsafe, or None when it is ours."""
    if sys.platform == "win32":  # POSIX owners and modes; Windows folders are private by their ACL
        os.makedirs(path, exist_ok=True)
        return None
    try:
        os.mkdir(path, 0o700)
    except FileExistsError:
        pass
    except FileNotFoundError:  # XDG_RUNTIME_DIR names a folder that is gone (a closed login session)
        return f"{os.path.dirname(path)} does not exist"
    st = os.lstat(path)
    import stat

    if not stat.S_ISDIR(st.st_mode):
        return f"{path} is not a folder (a symlink or file is there)"
    if st.st_uid != os.getuid():
        return f"{path} belongs to user {st.st_uid}, not to you ({os.getuid()})"
    if st.st_mode & 0o077:
        os.chmod(path, 0o700)  # ours, but too open (an old umask): close it
    return None


def runtime_path() -> str:
    """$XDG_RUNTIME_DIR/winactions, else a private folder: %LOCALAPPDATA%\\winactions\\runtime on
    Windows (per user by its ACL), a 0700 folder in the temp directory elsewhere — or, when
    that one is not safely ours, ~/.cache/winactions-runtime."""
    base = os.environ.get("XDG_RUNTIME_DIR")
    if sys.platform == "win32":  # folders under the profile are the user's by their ACL
        local = os.environ.get("LOCALAPPDATA") or os.path.expanduser("~")
        root = os.path.join(base, "winactions") if base else os.path.join(local, "winactions", "runtime")
        os.makedirs(root, exist_ok=True)
        return root
    if base:
        root = os.path.join(base, "winactions")
        problem = _private(root)
        if problem:
            raise UnsafeRuntimeDir(f"unsafe runtime folder: {problem}; fix it or point XDG_RUNTIME_DIR elsewhere")
        return root
    import tempfile

    root = os.path.join(tempfile.gettempdir(), f"winactions-{os.getuid()}")
    problem = _private(root)
    if problem is None:
        return root
    cache = os.path.join(os.path.expanduser("~"), ".cache")
    os.makedirs(cache, mode=0o700, exist_ok=True)
    fallback = os.path.join(cache, "winactions-runtime")
    second = _private(fallback)
    if second:
        raise UnsafeRuntimeDir(
            f"unsafe runtime folders: {problem}; {second}; set XDG_RUNTIME_DIR to a folder only you can write"
        )
    return fallback


def runtime_dir() -> Path:
    """`runtime_path` as a Path (UnsafeRuntimeDir as there)."""
    from pathlib import Path

    return Path(runtime_path())
