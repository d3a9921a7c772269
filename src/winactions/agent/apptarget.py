"""The app a run acts on: a run routed to an app module acts on that app's window.

Before the first step the runner selects the module's window — the session's window when it
is one, else the newest window of one of the module's `processes` whose title matches its
`window` pattern — or launches the module's `launch` command and waits for it. A dialog of
the app left open by an earlier run holds that window: it is a blocker, closed by a button
that commits nothing (Cancel, Close) or Escape, and said so; when it will not close, the run
refuses to start rather than type into it.
"""

from __future__ import annotations

import re
import time
from typing import TYPE_CHECKING, Any

from winactions.agent.actor import Actor, read_state
from winactions.agent.opened import describe
from winactions.errors import ActionFailed, InvalidInput, NotFound, WinctlError
from winactions.model import WindowInfo

if TYPE_CHECKING:
    from winactions.agent.apps import AppModule

HARMLESS = ("Cancel", "Close")  # buttons that close a leftover dialog without committing or discarding work
LEFTOVER_LIMIT = 3  # dialogs closed before the run refuses
CLOSE_WAIT = 2.0  # s for a closed dialog to unmap


def main_window(module: AppModule, windows: list[WindowInfo], current: WindowInfo | None) -> WindowInfo | None:
    """The module's window to act on: the current one when it qualifies, else the newest listed."""
    pattern = _pattern(module)
    ok = [w for w in windows if w.process in module.processes and (pattern is None or pattern.search(w.title))]
    if current is not None and any(w.id == current.id for w in ok):
        return next(w for w in ok if w.id == current.id)
    return ok[-1] if ok else None


def _pattern(module: AppModule) -> re.Pattern[str] | None:
    raw = getattr(module, "window", None)
    if not raw:
        return None
    try:
        return re.compile(raw)
    except re.error as exc:
        raise InvalidInput(f"app module {module.name}: window is not a regular expression: {exc}") from None


def select_app_window(actor: Actor, module: AppModule | None, current: WindowInfo) -> tuple[WindowInfo, list[str]]:
    """The window the run acts on, focused, and what was done to get there (launched, dialogs
    closed). Without a module (or one that names no processes) the current window."""
    if module is None or not module.processes:
        return current, []
    done: list[str] = []
    window = main_window(module, actor.call("windows").windows, current)
    if window is None:
        if not module.launch:
            raise NotFound(
                f"no window of {module.name} is open", hint=f"open {module.name}, or give its module a launch command"
            )
        window = actor.call("launch", command=list(module.launch)).window
        done.append(f"launched {' '.join(module.launch)}")
    done += _clear(actor, window, _pattern(module))
    return window, done


def _leftover(other: WindowInfo, window: WindowInfo, pattern: re.Pattern[str] | None) -> bool:
    """A window of the app beside its main window that is not a main window itself (a dialog);
    without a title pattern only a dialog that holds the window is known as one."""
    return other.pid == window.pid and other.id != window.id and pattern is not None and not pattern.search(other.title)


def _clear(actor: Actor, window: WindowInfo, pattern: re.Pattern[str] | None) -> list[str]:
    """Focus `window`; close each dialog of its app that holds it or stands beside it."""
    done: list[str] = []
    for _ in range(LEFTOVER_LIMIT + 1):
        focused = actor.call("focus", window=window.id).window
        others = [w for w in actor.call("windows").windows if _leftover(w, window, pattern)]
        if focused.id == window.id and not others:
            return done
        if len(done) >= LEFTOVER_LIMIT:
            break
        if focused.id == window.id:
            actor.call("focus", window=others[-1].id)
        done.append(_close_one(actor))
    state = read_state(actor)
    raise ActionFailed(
        f"{describe(state)} of {window.process} is still open: the run did not start, so nothing typed into it",
        hint="close it (or finish what it asks), then run again",
    )


def _close_one(actor: Actor) -> str:
    """Close the session's window (a leftover dialog) by a harmless button, else Escape."""
    state = read_state(actor)
    what = describe(state)
    buttons = {t.name for t in state.targets if t.type == "Button"}
    button = next((b for b in HARMLESS if b in buttons), None)
    calls: list[tuple[str, dict[str, Any]]] = [("keys", {"keys": "Escape"})]
    if button is not None:
        calls.insert(0, ("click", {"id": button}))
    for command, args in calls:
        try:
            actor.call(command, **args)
        except WinctlError:
            continue
        if _gone(actor, state.window.id):
            return f"closed {what}, left open before this run, by {button if command == 'click' else 'Escape'}"
    return f"could not close {what}"


def _gone(actor: Actor, window_id: str) -> bool:
    deadline = time.monotonic() + CLOSE_WAIT
    while time.monotonic() < deadline:
        if all(w.id != window_id for w in actor.call("windows").windows):
            return True
        time.sleep(0.1)
    return False
