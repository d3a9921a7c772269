"""Where a command may write a file, and writing it without harming what is already there.

Two callers, two rules:
- a person at the command line (or a program through the Python API) names a path and gets
  it — in a folder that exists (none is created on the way), replacing an existing file only
  when that file is a PNG or they said `force`, never a device or other special file;
- a model (an MCP client, the daemon's structured `call`) names a file *inside one folder*
  the user configured (`Outputs`): its path is taken as a name there (no `..`, absolute path
  or symlink leads out), and an existing file is never replaced — a taken name gets a number.

Either way a file appears whole or not at all: it is written beside its place and renamed
into it, and nothing is deleted when writing fails. Standard library only.
"""

from __future__ import annotations

import os
import secrets
import stat
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from winactions import settings
from winactions.errors import ActionFailed, InvalidInput

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
FOLDER_ENV = settings.OUTPUT_DIR.name  # the folder files for a model go into (MCP, the daemon's `call`)
MAX_NUMBERED = 1000  # x-2.png ... x-1000.png: after that a taken name is an error


@dataclass(frozen=True)
class Outputs:
    """Files go inside `folder` (None: the session's own folder) and replace nothing."""

    folder: Path | None = None

    @classmethod
    def from_env(cls, folder: str | os.PathLike[str] | None = None) -> Outputs:
        """`folder`, else $WINCTL_OUTPUT_DIR, else the session's folder."""
        chosen = folder or settings.OUTPUT_DIR.read()
        return cls(Path(chosen).expanduser() if chosen else None)


def own_folder(folder: Path) -> Path:
    """The folder, created (0700) when missing, as its real path."""
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    except OSError as exc:
        raise ActionFailed(
            f"cannot use the output folder {folder}: {exc.strerror or exc}",
            hint=f"set {FOLDER_ENV} (or `winctl mcp --output-dir`) to a folder you can write",
        ) from None
    if not folder.is_dir():
        raise ActionFailed(
            f"the output folder {folder} is not a folder",
            hint=f"set {FOLDER_ENV} (or `winctl mcp --output-dir`) to a folder",
        )
    return Path(os.path.realpath(folder))


def inside(folder: Path, given: str, suffix: str | None = ".png") -> Path:
    """Where `given` goes inside `folder` (a real path): kept when its folder is `folder` or a
    folder under it (after resolving symlinks), else its last part as a name in `folder`.
    `suffix` is added when the name does not end in it."""
    candidate = Path(given) if os.path.isabs(given) else folder / given
    name = candidate.name
    if name in ("", ".", ".."):
        raise InvalidInput(f"{given!r} names no file", hint="give a file name such as shot.png")
    if suffix and not name.lower().endswith(suffix):
        name += suffix
    parent = Path(os.path.realpath(candidate.parent))
    if parent.is_dir() and (parent == folder or folder in parent.parents):
        return parent / name
    return folder / name


def check_given(path: Path, force: bool) -> None:
    """A path named at the command line may be written: its folder exists, and what is there
    now (if anything) is a regular file that is a PNG, or `force` says to replace it."""
    parent = path.parent
    if not parent.is_dir():
        raise InvalidInput(
            f"the folder {parent} does not exist; nothing was written",
            hint=f"create it first (mkdir -p {parent}), or give a path in an existing folder",
        )
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return
    except OSError as exc:
        raise InvalidInput(f"cannot write {path}: {exc.strerror or exc}", hint="give another path") from None
    if not stat.S_ISREG(st.st_mode):
        raise InvalidInput(
            f"{path} is not a regular file (a folder, device or pipe); nothing was written",
            hint="give the path of a .png file",
        )
    if not force and not _is_png(path):
        raise InvalidInput(
            f"{path} exists and is not a PNG; it was left as it was",
            hint="give another path, or add --force to replace it",
        )


def _is_png(path: Path) -> bool:
    try:
        with open(path, "rb") as f:
            return f.read(len(PNG_MAGIC)) == PNG_MAGIC
    except OSError:  # unreadable (/proc/self/mem): not a PNG we may replace
        return False


def write(path: Path, fill: Callable[[BinaryIO], None], replace: bool) -> Path:
    """Write a new file with `fill` beside `path` and move it into place. `replace`: over
    whatever is at `path`; else never over anything — a taken name becomes `stem-2.png`,
    `stem-3.png`... Returns where the file went. On failure nothing is left and nothing was
    removed; the error says why."""
    tmp = path.with_name(f".{path.name}.{secrets.token_hex(4)}.tmp")
    try:
        fd = os.open(
            tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o666 if replace else 0o600
        )
    except OSError as exc:
        raise _cannot(path, exc) from None
    try:
        with os.fdopen(fd, "wb") as f:
            fill(f)
        return _move(tmp, path) if replace else _link_fresh(tmp, path)
    except OSError as exc:
        raise _cannot(path, exc) from None
    finally:
        tmp.unlink(missing_ok=True)


def _move(tmp: Path, path: Path) -> Path:
    os.replace(tmp, path)
    return path


def _link_fresh(tmp: Path, path: Path) -> Path:
    """Give `tmp` the first free name of `path`, `path`-2, ... (a hard link: it fails, never
    replaces, when the name is taken — even by a symlink or a file created a moment ago)."""
    for n in range(1, MAX_NUMBERED + 1):
        target = path if n == 1 else path.with_name(f"{path.stem}-{n}{path.suffix}")
        try:
            os.link(tmp, target)
        except FileExistsError:
            continue
        return target
    raise ActionFailed(
        f"{path} and {MAX_NUMBERED - 1} numbered names after it are taken; nothing was written",
        hint="give another name",
    )


def _cannot(path: Path, exc: BaseException) -> ActionFailed:
    reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
    return ActionFailed(
        f"cannot save {path}: {reason}; nothing was written", hint="give a writable path ending in .png"
    )
