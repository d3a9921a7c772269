"""What the adapters share: an action as steps (commands of the table), run on a `Desktop`.

A framework's action (the OpenAI Agents SDK's `drag(path)`, `scroll(x, y, dx, dy)`) becomes a
list of `Step`s, each one command with its parameters; `run_steps` runs them in order on a
`Desktop` and `arun_steps` on an `AsyncDesktop`. Planning is pure, so a bad argument is refused
before anything is done; a mouse button or keys held by the first steps are let go when a later
step fails. `screen_of` and `png_base64` read the screen's size and a screenshot's picture.
"""

from __future__ import annotations

import base64
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from winactions.api import Desktop
from winactions.api_async import AsyncDesktop
from winactions.commands.base import Result
from winactions.commands.displays import DisplaysResult
from winactions.errors import InvalidInput
from winactions.model import Rect


@dataclass(frozen=True)
class Step:
    """One command of the table by its `winctl` name, with its parameters by name."""

    command: str
    args: dict[str, Any] = field(default_factory=dict)


def run_steps(desktop: Desktop, steps: Sequence[Step]) -> Result | None:
    """Run the steps in order on `desktop`; the last one's result (None for no steps). When a
    step fails, what the steps before it hold down (a button, keys) is released, then the
    step's error is raised."""
    held: list[Step] = []
    result = None
    try:
        for step in steps:
            result = desktop.call(step.command, **step.args)
            _note_held(held, step)
    except BaseException:
        for release in reversed(held):
            desktop.call(release.command, **release.args)
        raise
    return result


async def arun_steps(desktop: AsyncDesktop, steps: Sequence[Step]) -> Result | None:
    """`run_steps` on an `AsyncDesktop`, awaited."""
    held: list[Step] = []
    result = None
    try:
        for step in steps:
            result = await desktop.call(step.command, **step.args)
            _note_held(held, step)
    except BaseException:
        for release in reversed(held):
            await desktop.call(release.command, **release.args)
        raise
    return result


def _note_held(held: list[Step], step: Step) -> None:
    """Keep in `held` the step that lets go of what `step` holds down (a button, its keys);
    drop it when a step lets go itself."""
    if step.command == "mouse-down":
        held.append(Step("mouse-up"))
    elif step.command == "key-down":
        held.append(Step("key-up", {"keys": step.args["keys"]}))
    elif step.command in ("mouse-up", "key-up") and held:
        held.pop()


def screen_of(listed: Result) -> Rect:
    """The screen the session's coordinates refer to, as (0, 0, width, height), from the
    `displays` command's result: the monitor chosen by `switch-display`, else the box around
    every monitor."""
    if not isinstance(listed, DisplaysResult):
        raise TypeError(f"screen_of reads the result of `displays`, not {type(listed).__name__}")
    return listed.screen()


def check_points(screen: Rect, points: Sequence[tuple[int, int]], what: str) -> None:
    """Refuse, before anything is done, a point that is not a pair of whole numbers on `screen`."""
    for point in points:
        if not isinstance(point, tuple | list) or len(point) != 2:
            raise InvalidInput(f"{what}: {point!r} is not a point [x, y]; nothing was done")
        x, y = point
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in (x, y)):
            raise InvalidInput(f"{what}: ({x!r}, {y!r}) is not a point of whole numbers; nothing was done")
        if not (0 <= x < screen.right and 0 <= y < screen.bottom):
            raise InvalidInput(
                f"{what}: ({x}, {y}) is off the screen; nothing was done",
                hint=f"the screen is {screen.right}x{screen.bottom}: 0 <= x < {screen.right}, 0 <= y < {screen.bottom}",
            )


def pictures_base64(result: Result | None) -> list[str]:
    """The pictures a result carries (a screenshot's PNG), each base64-encoded."""
    encoded = []
    for path in result.images() if result is not None else []:
        with open(path, "rb") as f:
            encoded.append(base64.b64encode(f.read()).decode())
    return encoded


def png_base64(result: Result | None) -> str:
    """The first picture a result carries, base64-encoded; an error when it carries none."""
    pictures = pictures_base64(result)
    if not pictures:
        raise InvalidInput("the screenshot gave no picture", hint="run `winctl screenshot --screen` to see why")
    return pictures[0]
