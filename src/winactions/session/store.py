"""Where a session's memory lives between separate `winctl` processes.

One JSON file per session name in the user's runtime directory, readable only by its owner,
written atomically so a crash never leaves half a file. It holds the selected window, the
id registry and the last state (with handles), which is all a later process needs to act
on an id printed by an earlier one.

The file is the session's one id authority. Every process that serves the session — a
one-shot `winctl`, the daemon, an MCP server — runs each command under the session's lock
and first re-reads the file if another process wrote it since (`changed`), so two
processes can never hand the same id to two elements.
"""

from __future__ import annotations

from pathlib import Path

from pydantic import BaseModel, Field

from winactions.access.rules import Granted
from winactions.errors import BackendUnavailable, InvalidInput
from winactions.files import stamp, write_whole
from winactions.model import Target, UIState
from winactions.session.filelock import Held
from winactions.session.paths import UnsafeRuntimeDir, bad_session_name, runtime_dir


class SessionData(BaseModel):
    """Everything a session remembers."""

    window_id: str | None = None
    bound_window_id: str | None = None  # bound-window mode: input goes to this window in the background
    bound_pointer: tuple[int, int, int] | None = None  # its virtual pointer: x, y, buttons held
    registry: dict[str, object] = Field(default_factory=dict)
    state: UIState | None = None
    run: str | None = None  # the run of the state's app (`Backend.run_of`): its ids are that run's
    handles: dict[int, str] = Field(default_factory=dict)  # id -> handle of the last state
    written: dict[int, str] = Field(default_factory=dict)  # id -> the name its text gave it after our input
    found: list[Target] = Field(default_factory=list)  # found out of view by `find` in the state's window
    # the last state the caller was shown (`state`, an action's `--return-state`): what `state --diff`
    # and `--return-state` compare with — not `state`, which every read of the window replaces
    shown: UIState | None = None
    display: int | None = None  # `switch-display N`: coordinates are that monitor's; None: the whole screen
    access: Granted = Field(default_factory=Granted)  # a person's grants at the prompt, and what was revoked
    held_keys: list[str] = Field(default_factory=list)  # chords `key-down` left down, in order: `key-up` lets them go
    held_buttons: list[str] = Field(default_factory=list)  # mouse buttons `mouse-down` left down
    pressed_at: list[int] = Field(default_factory=list)  # where the last `mouse-down` pressed: [x, y]


class SessionStore:
    """Load and save one named session's data."""

    def __init__(self, name: str = "default", directory: Path | None = None) -> None:
        problem = bad_session_name(name)
        if problem:
            raise InvalidInput(problem, hint="e.g. --session work1")
        self.name = name
        try:
            self.directory = directory or runtime_dir() / "sessions"
        except UnsafeRuntimeDir as exc:
            raise BackendUnavailable(str(exc), hint="nothing was written; see `winctl --help` on sessions") from None
        self.directory.mkdir(mode=0o700, parents=True, exist_ok=True)
        self.path = self.directory / f"{name}.json"
        self._seen: tuple[int, int, int] | None = None  # the file as we last read or wrote it

    def lock(self) -> Held:
        """The session's lock: hold it for the whole of one command."""
        return Held(str(self.directory / f"{self.name}.lock"))

    def changed(self) -> bool:
        """Did another process write the session since this one last read or wrote it?"""
        return stamp(self.path) != self._seen

    def load(self) -> SessionData:
        """The session as saved, its targets' handles put back; an empty session when there is no
        file or it is of another version (never an error)."""
        self._seen = stamp(self.path)
        try:
            raw = self.path.read_text()
        except FileNotFoundError:
            return SessionData()
        try:
            data = SessionData.model_validate_json(raw)
        except ValueError:
            return SessionData()  # a file from another version: start over rather than fail
        if data.state is not None:
            data.state = data.state.model_copy(
                update={"targets": [_with_handle(t, data.handles.get(t.id)) for t in data.state.targets]}
            )
        data.found = [_with_handle(t, data.handles.get(t.id)) for t in data.found]
        return data

    def save(self, data: SessionData) -> None:
        """Write the session whole (a reader never sees half of it), its targets' handles kept
        beside them (`handles`)."""
        if data.state is not None:
            data.handles = {t.id: t.handle for t in [*data.state.targets, *data.found] if t.handle}
        payload = data.model_dump_json()
        self._seen = write_whole(self.path, payload)

    def locate_cache_path(self) -> Path:
        """The session's locate cache (`winactions.locate.cache`): shared by its processes."""
        return self.directory / f"{self.name}.locate.json"

    def locate_cache_lock(self) -> Held:
        """The locate cache file's own lock (not the session's: a process holding the session's
        lock for its command takes this one inside it, and flock does not nest on one file)."""
        return Held(str(self.directory / f"{self.name}.locate.lock"))

    def artifacts_dir(self) -> Path:
        """Where screenshots of this session go."""
        path = self.directory / f"{self.name}.files"
        path.mkdir(mode=0o700, exist_ok=True)
        return path


def _with_handle(target: Target, handle: str | None) -> Target:
    """The target with its saved handle, if it had one."""
    return target.model_copy(update={"handle": handle}) if handle else target


__all__ = ["SessionData", "SessionStore", "runtime_dir"]
