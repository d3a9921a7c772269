"""What the task runner drives: anything with the Python API's call shape.

`winactions.api.Desktop` is one (`TaskRunner(Desktop())`); `winctl run` passes the command
table itself, through the call it is serving, so the runner never parses argv and never
takes the session's lock twice. The runner uses only command names of the table, so a
backend that lacks one (Android's `go_home` on a desktop, `open_url` where nothing opens
URLs) is a clear `Unsupported`, never a guess.

How plan actions map onto the table (a backend offers what it can; names in brackets do not
exist on the desktop today and are what an Android backend is expected to register):

    tap / click          click ID (a point from pixels: click-at X Y)
    long_press           [long-press ID --seconds S]
    scroll               scroll ID D N (no target: the largest element that scrolls)
    swipe                [swipe --direction D] on a phone (the table has go-home) when there is no target;
                         on a desktop a scroll the other way (a finger moving up moves the content down)
    input_text           input ID TEXT, or type TEXT into the focus
    press_key            keys CHORDS (an Android key code: the phone's own key, or the desktop's key for it)
    wait                 wait SECONDS
    go_home              [go-home], else the app module's home keys until its marker shows
    launch_app           launch ARGV (params.command, or the app module's launch)
    open_url             open-url URL
    call                 open-url tel:NUMBER
"""

from __future__ import annotations

from typing import Any, Protocol

from winactions.errors import Unsupported
from winactions.model import UIState


class Actor(Protocol):
    def call(self, command: str, /, **args: Any) -> Any:
        """Run one command of the table by its `winctl` name; raise `WinctlError` on failure."""
        ...

    def commands(self) -> list[str]:
        """The commands this actor's backend can run."""
        ...


def read_state(actor: Actor) -> UIState:
    state = actor.call("state").state
    assert isinstance(state, UIState)
    return state


def need(actor: Actor, command: str, what: str) -> None:
    """Refuse a step whose command this backend does not have (checked before acting)."""
    if command not in actor.commands():
        raise Unsupported(
            f"{what} needs the `{command}` command, which this backend does not have",
            hint="nothing was done; plan the step with actions this platform offers (see `winctl --help`)",
        )
