"""`record start|stop|status`: keep every command of a session in a folder, to replay later.

The record is kept by `winactions.commands.recorder` (what each line holds) in the files of
`winactions.session.recording`; `winctl replay DIR` acts it again (`commands.session_replay`).
"""

from __future__ import annotations

import time
from pathlib import Path

from pydantic import Field

from winactions.commands.base import GROUP_HELP, Context, Kind, Params, Result, command
from winactions.commands.saving import record_folder
from winactions.session import recording as rec

GROUP_HELP["record"] = "Record this session's commands into a folder, to replay them (`winctl replay FOLDER`)."


class RecordingResult(Result):
    """Whether the session records, where, and how many commands its record holds."""

    recording: bool
    folder: str | None = None
    steps: int = 0
    seconds: float | None = None
    note: str = ""

    def text(self) -> str:
        """`recording into DIR (N commands, S s)`, `not recording`, and what just changed."""
        if self.folder is None:
            head = "not recording"
        else:
            state = "recording into" if self.recording else "recorded into"
            head = f"{state} {self.folder} ({self.steps} commands"
            head += f", {self.seconds:.0f}s)" if self.seconds is not None else ")"
        return f"{self.note}: {head}" if self.note else head


class RecordStartParams(Params):
    folder: str = Field(description="the folder to keep the record in (made if missing; not one holding a record)")


@command("record start", RecordStartParams, kind=Kind.SESSION, positional=("folder",), profiles=("tasks",))
def record_start(ctx: Context, p: RecordStartParams) -> RecordingResult:
    """Record this session (`--session NAME`): from now on every command of it — from the
    CLI, the daemon, MCP or the Python API — is kept in FOLDER as it runs, until `record stop`.

    `FOLDER/session.jsonl` gets one JSON line per command: its arguments, the element it acted
    on by name, type and path, its result or error, and for an acting command what changed in
    the window's tree, with the window's pictures before and after (`step-N-before.jpg`,
    `step-N-after.jpg`, at most 960 px a side). Reading commands are kept without pictures:
    they change nothing. Text typed into a password field is kept as `[secret]`. Each acting
    command costs about one tree read and two window captures more while recording.
    `winctl replay FOLDER` acts the record again, by names."""
    folder = record_folder(ctx, p.folder) or p.folder
    on = rec.start(ctx.session.store, Path(folder), {"platform": ctx.session.backend.platform})
    return RecordingResult(recording=True, folder=on.folder, note="started")


class RecordStopParams(Params):
    pass


@command("record stop", RecordStopParams, kind=Kind.SESSION, profiles=("tasks",))
def record_stop(ctx: Context, p: RecordStopParams) -> RecordingResult:
    """Stop recording this session; says where the record is and how many commands it holds
    (`winctl replay FOLDER` acts it again). Stopping a session that does not record says so."""
    on = rec.stop(ctx.session.store)
    if on is None:
        return RecordingResult(recording=False, note="nothing to stop")
    return RecordingResult(recording=False, folder=on.folder, steps=on.steps, seconds=_age(on), note="stopped")


class RecordStatusParams(Params):
    pass


@command("record status", RecordStatusParams, kind=Kind.READ, profiles=("tasks",))
def record_status(ctx: Context, p: RecordStatusParams) -> RecordingResult:
    """Whether this session records, into which folder, and how many commands it kept so far."""
    on = rec.current(ctx.session.store)
    if on is None:
        return RecordingResult(recording=False)
    return RecordingResult(recording=True, folder=on.folder, steps=on.steps, seconds=_age(on))


def _age(on: rec.Recording) -> float:
    return max(0.0, time.time() - on.started)
