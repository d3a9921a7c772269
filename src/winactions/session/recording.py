"""A session's record: the folder its commands are kept in while `winctl record` is on.

Whether a session records, and into which folder, is a small file beside the session's own
(`NAME.recording.json` in the session store's folder), so every process serving the session —
a one-shot `winctl`, the daemon, an MCP server, the Python API — sees the same switch. The
record itself is a folder: `session.jsonl`, whose first line is the header
(`{"event": "session-record", "format": 1, ...}`: what tells it from a task run's record), then
one `call` line per command, and the window's pictures before and after each acting command
(`step-N-before.jpg`, `step-N-after.jpg`). What a line holds is written by
`winactions.commands.recorder`; this module owns the files, the switch and the masking.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

from winactions.errors import ActionFailed, InvalidInput
from winactions.files import write_whole
from winactions.model import Rect, Source, Target, UIState

if TYPE_CHECKING:
    from winactions.backends.base import Backend
    from winactions.session.store import SessionStore

LOG = "session.jsonl"
HEADER = "session-record"  # the header line's event: a session's record, not a task run's
FORMAT = 1
MASK = "[secret]"  # what the record holds in place of text typed into a password field
SHOT_SIDE = 960  # px: a picture's longer side at most (the window's crop, scaled down)
SHOT_QUALITY = 70  # JPEG quality of a picture
OTHER_RECORDS = ("run.jsonl", LOG)  # a folder holding one of these already holds a record


class Recording(BaseModel):
    """The switch: a session records into `folder` (absolute); `steps` lines written so far."""

    folder: str
    started: float
    steps: int = 0

    @property
    def log(self) -> Path:
        return Path(self.folder) / LOG


def switch_path(store: SessionStore) -> Path:
    """The session's switch file, beside its own file in the store's folder."""
    return store.directory / f"{store.name}.recording.json"


def current(store: SessionStore) -> Recording | None:
    """The session's recording, or None when it does not record (or the switch is damaged)."""
    try:
        return Recording.model_validate_json(switch_path(store).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def start(store: SessionStore, folder: str | Path, about: dict[str, Any] | None = None) -> Recording:
    """Start recording the session into `folder` (made if missing): its header written (with
    `about`, facts of the recording's desktop) and the switch set. Refuses a session that
    records already and a folder holding a record."""
    on = current(store)
    if on is not None:
        raise InvalidInput(
            f"session {store.name!r} records into {on.folder} already",
            hint="`winctl record stop` first; nothing was changed",
        )
    path = Path(folder).expanduser()
    held = [name for name in OTHER_RECORDS if (path / name).exists()]
    if held:
        raise InvalidInput(f"{path} already holds a record ({held[0]})", hint="record into a new folder")
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise InvalidInput(f"cannot record into {path}: {exc.strerror}", hint="give a folder you can write") from None
    recording = Recording(folder=str(path.resolve()), started=round(time.time(), 3))
    header = {"event": HEADER, "format": FORMAT, "session": store.name, "time": recording.started}
    append(recording, header | (about or {}))
    save(store, recording)
    return recording


def save(store: SessionStore, recording: Recording) -> None:
    """Write the switch (whole: a reader never sees half of it)."""
    write_whole(switch_path(store), recording.model_dump_json())


def stop(store: SessionStore) -> Recording | None:
    """Stop recording the session; the recording that was on, None when none was."""
    on = current(store)
    switch_path(store).unlink(missing_ok=True)
    return on


def append(recording: Recording, line: dict[str, Any]) -> None:
    """One JSON line added to the record's log."""
    text = json.dumps(line, ensure_ascii=False, default=str)
    try:
        with open(recording.log, "a", encoding="utf-8") as log:
            log.write(text + "\n")
    except OSError as exc:
        raise ActionFailed(
            f"cannot write the record in {recording.folder}: {exc.strerror}",
            hint="`winctl record stop`, or free room in that folder",
        ) from None


def read(folder: str | Path) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A session record's header and its `call` lines; InvalidInput when `folder` (or the log
    file given itself) holds none, or its log is damaged."""
    path = Path(folder)
    log = path / LOG if path.is_dir() else path
    try:
        lines = log.read_text(encoding="utf-8").splitlines()
    except OSError:
        raise InvalidInput(f"no session record at {path}", hint="give the folder of `winctl record start`") from None
    events = []
    for number, line in enumerate(lines, 1):
        try:
            event = json.loads(line)
        except ValueError:
            raise InvalidInput(f"{log} line {number} is not JSON", hint="the record is damaged") from None
        if not isinstance(event, dict):
            raise InvalidInput(f"{log} line {number} is not an object", hint="the record is damaged")
        events.append(event)
    if not events or not is_header(events[0]):
        raise InvalidInput(f"{log} does not start with a session record's header", hint="the record is damaged")
    return events[0], [e for e in events[1:] if e.get("event") == "call"]


def is_header(line: object) -> bool:
    """Whether a log's first line is a session record's header."""
    return isinstance(line, dict) and line.get("event") == HEADER


def is_session_record(folder: str | Path) -> bool:
    """Whether `folder` (or the log file given itself) is a session's record, by its log's own
    header; False for a task run's record and for anything unreadable."""
    path = Path(folder)
    log = path / LOG if path.is_dir() else path
    try:
        with open(log, encoding="utf-8") as f:
            first = f.readline()
        return is_header(json.loads(first))
    except (OSError, ValueError):
        return False


def is_secret(target: Target | None) -> bool:
    """A password field: its text is never kept."""
    return target is not None and "protected" in target.states


def focused(state: UIState | None) -> Target | None:
    """The element of the state that has keyboard focus, if the state says."""
    if state is None:
        return None
    return next((t for t in state.targets if "focused" in t.states), None)


def masked(args: dict[str, Any], secret: bool) -> dict[str, Any]:
    """The arguments as kept: a call's text (`text`, `value`) replaced by MASK when it went
    into a password field."""
    if not secret:
        return args
    return {k: MASK if k in ("text", "value") and isinstance(v, str) else v for k, v in args.items()}


def element(target: Target, state: UIState | None) -> dict[str, Any]:
    """How a record names an element: its name, type and path (the chain of its parents'
    `Type "Name"` in `state`) — what finds it again in another run of the app — and its id,
    which is only this session's."""
    path: list[str] = []
    by_id = {t.id: t for t in state.targets} if state is not None else {}
    parent = by_id.get(target.parent_id) if target.parent_id is not None else None
    while parent is not None and len(path) < 32:
        path.append(f'{parent.type} "{parent.name}"' if parent.name else parent.type)
        parent = by_id.get(parent.parent_id) if parent.parent_id is not None else None
    found: dict[str, Any] = {"id": target.id, "name": target.name, "type": target.type, "path": path[::-1]}
    if target.automation_id:
        found["automation_id"] = target.automation_id
    if target.source is not Source.ACCESSIBILITY:  # found in pixels: a replay looks there too
        found["source"] = target.source.value
    return found


def picture(backend: Backend, rect: Rect | None, path: Path) -> str | None:
    """The window's crop saved as a JPEG at most SHOT_SIDE px on its longer side; the file's
    name, None when there is no rectangle or the platform cannot capture it."""
    if rect is None or rect.right <= rect.left or rect.bottom <= rect.top:
        return None
    try:
        image = backend.capture(rect).convert("RGB")
        image.thumbnail((SHOT_SIDE, SHOT_SIDE))
        image.save(path, "JPEG", quality=SHOT_QUALITY)
    except Exception:  # a picture is a record's extra: no picture never fails the command
        return None
    return path.name
