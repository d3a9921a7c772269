"""Where a command's file goes: the path a person gave, or a name in a model's folder.

`Context.outputs` says who is asking (`winactions.outputs`): None for a person (the CLI, the
Python API), whose path is used as given once it is safe to write; a folder for a model (MCP,
the daemon's structured call), inside which its path is only a name.
"""

from __future__ import annotations

import os
from pathlib import Path

from winactions import outputs, screenshots
from winactions.commands.base import Context


def model_folder(ctx: Context) -> Path:
    """The folder a model's files go into (real path): the configured one, else the session's."""
    assert ctx.outputs is not None
    if ctx.outputs.folder is not None:
        return outputs.own_folder(ctx.outputs.folder)
    return Path(os.path.realpath(ctx.session.store.artifacts_dir()))


def png_path(ctx: Context, given: str | None, stem: str, force: bool = False) -> tuple[Path, bool]:
    """(where to save a PNG, whether it may replace what is there). No path: a fresh name in
    the session's folder (a model's: its folder)."""
    if ctx.outputs is None:
        if not given:
            return screenshots.default_path(ctx.session.store.artifacts_dir(), stem), False
        path = Path(given).expanduser()
        outputs.check_given(path, force)
        return path, True
    folder = model_folder(ctx)
    return (outputs.inside(folder, given) if given else screenshots.default_path(folder, stem)), False


def record_folder(ctx: Context, given: str | None) -> str | None:
    """The folder a run is recorded into: as given by a person, inside the model's folder else."""
    if given is None or ctx.outputs is None:
        return given
    return str(outputs.inside(model_folder(ctx), given, suffix=None))
