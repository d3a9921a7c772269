"""`go_home`: back to the app's start screen (its home marker), and to the launcher only when asked.

- A phone (the table has `go-home`): Back is pressed until the app module's `home.marker`
  shows, at most `home.limit` (10) times, HOME_PAUSE apart; then HOME to the launcher only
  when the step asks (`params.launcher: true`). With no module marker, the step means the
  launcher: the table's `go-home`.
- A desktop: the module's `home.keys` (Escape) until its marker shows in the task's window,
  at most `home.limit` times — there is no launcher to go to.
"""

from __future__ import annotations

import time
from typing import Any

from winactions.agent.actor import Actor, read_state
from winactions.agent.blockers import settled
from winactions.agent.policy import StepFailed
from winactions.agent.resolve import in_tree
from winactions.errors import Unsupported
from winactions.model import WindowInfo

HOME_LIMIT = 10  # presses at most, before giving up
HOME_PAUSE = 0.3  # seconds between presses


def go_home(actor: Actor, module: Any, window: WindowInfo | None, launcher: bool = False) -> str:
    """Go back to the start; what was pressed. StepFailed when the marker never shows."""
    home: dict[str, Any] = dict(getattr(module, "home", None) or {})
    marker = str(home["marker"]) if home.get("marker") else None
    limit = int(home.get("limit", HOME_LIMIT))
    if "go-home" in actor.commands():
        pressed = _until(actor, marker, "back", limit, None) if marker else "nothing"
        if launcher or marker is None:
            actor.call("go-home")
            return f"{pressed}, then HOME"
        return pressed
    if marker is None:
        raise Unsupported(
            "go_home needs a `go-home` command (Android) or an app module with a home marker",
            hint="add home: {marker: NAME, keys: Escape} to the app's config.yaml",
        )
    return _until(actor, marker, str(home.get("keys", "Escape")), limit, window)


def _until(actor: Actor, marker: str, keys: str, limit: int, window: WindowInfo | None) -> str:
    """Press `keys` until `marker` is in the tree (of `window`, when given)."""
    for pressed in range(limit + 1):
        state = settled(actor, window) if window is not None else read_state(actor)
        if in_tree(state, marker, None) and (window is None or state.window.id == window.id):
            return f"{keys} x{pressed}"
        if pressed == limit:
            break
        actor.call("keys", keys=keys)
        time.sleep(HOME_PAUSE)
    raise StepFailed(f"go_home: {marker!r} not seen after {limit} presses of {keys}")
