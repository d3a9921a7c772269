"""What the task runner drives: anything with the Python API's call shape.

`winactions.api.Desktop` is one (`TaskRunner(Desktop())`); `winctl run` passes the command
table itself, through the call it is serving, so the runner never parses argv and never
takes the session's lock twice. The runner uses only command names of the table, so a
backend that lacks one (Android's `go_home` on a desktop, `open_url` where nothing opens
URLs) is a clear `Unsupported`, never a guess.
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
        raise Unsupported(f"{what} needs the `{command}` command, which this backend does not have",
                          hint="nothing was done; plan the step with actions this platform offers "
                               "(see `winctl --help`)")
