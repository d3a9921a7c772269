"""Blockers: a dialog, prompt or popup between the task and its target, found in the tree
and dismissed by a rule table, then by the model's advice, then by Escape.

A blocker is only ever looked for when a step cannot go on (its target is missing, or its
outcome failed): a dialog the plan itself opened and acts in is not in the way.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

from winactions.agent.actor import Actor, read_state
from winactions.agent.model import Model
from winactions.agent.planner import compact_state
from winactions.agent.verify import Blocker
from winactions.errors import WinctlError, WindowClosed
from winactions.model import UIState, WindowInfo

# Buttons that dismiss without committing come first; the app module's list goes before these.
DISMISS_BUTTONS = (
    "Close",
    "Cancel",
    "Not now",
    "Not Now",
    "No thanks",
    "Dismiss",
    "Skip",
    "Later",
    "Don't allow",
    "Deny",
    "OK",
    "Got it",
    "Allow",
    "Continue",
)
KINDS = (("permission", ("allow", "permission", "access")), ("error", ("error", "failed", "warning")))


@dataclass
class Dismissal:
    blocker: Blocker
    method: str  # "rule: Cancel", "model: ...", "keys: Escape"
    cleared: bool

    def as_dict(self) -> dict[str, object]:
        return {"blocker": self.blocker.model_dump(), "method": self.method, "cleared": self.cleared}


def detect(state: UIState, home: WindowInfo | None, extra_buttons: Sequence[str] = ()) -> Blocker | None:
    """A blocker in the state: another window of the app in front (a dialog), or a modal
    element inside the window; None when the way is clear."""
    dialog = any(t.type in ("Dialog", "Alert") for t in state.targets)
    other_window = home is not None and state.window.id != home.id
    if not dialog and not other_window:
        return None
    buttons = [t.name for t in state.targets if t.type == "Button" and t.name]
    text = " ".join([state.window.title, *(t.name for t in state.targets if t.type in ("Text", "Label"))]).casefold()
    kind = next((k for k, words in KINDS if any(w in text for w in words)), "dialog")
    rule = next((b for b in (*extra_buttons, *DISMISS_BUTTONS) if b in buttons), None)
    return Blocker(
        type=kind, description=f'"{state.window.title}" with buttons {", ".join(buttons[:8]) or "none"}', dismiss=rule
    )


def dismiss(
    actor: Actor, blocker: Blocker, model: Model, home: WindowInfo | None, extra_buttons: Sequence[str] = ()
) -> Dismissal:
    """Rule table → model's advice → Escape; each checked by reading the state again."""
    attempts: list[tuple[str, dict[str, object]]] = []
    if blocker.dismiss:
        attempts.append((f"rule: {blocker.dismiss}", {"command": "click", "id": blocker.dismiss}))
    if model.ready and model.left:
        attempts.append(("model", {}))
    attempts.append(("keys: Escape", {"command": "keys", "keys": "Escape"}))
    for method, call in attempts:
        try:
            if method == "model":
                advice = model.ask(
                    "A dialog blocks a desktop task. Reply with JSON "
                    '{"button": "NAME of the button to press to dismiss it without harm"}',
                    compact_state(read_state(actor)),
                )
                name = str(advice.get("button") or "")
                if not name:
                    continue
                method = f"model: {name}"
                actor.call("click", id=name)
            else:
                args = dict(call)
                actor.call(str(args.pop("command")), **args)
        except WinctlError:
            continue
        if _clears(actor, home, extra_buttons):
            return Dismissal(blocker, method, True)
    return Dismissal(blocker, attempts[-1][0], False)


def _clears(actor: Actor, home: WindowInfo | None, extra_buttons: Sequence[str], timeout: float = 2.0) -> bool:
    """Whether the blocker goes within `timeout` (a dialog takes a moment to unmap)."""
    deadline = time.monotonic() + timeout
    while True:
        if detect(settled(actor, home), home, extra_buttons) is None:
            return True
        if time.monotonic() >= deadline:
            return False
        time.sleep(0.2)


def settled(actor: Actor, home: WindowInfo | None) -> UIState:
    """The state now, back on the task's window when the window in front has gone
    (a dismissed dialog) — the session must not stay on a closed window."""
    try:
        return read_state(actor)
    except WindowClosed:
        if home is None:
            raise
    actor.call("focus", window=home.id)
    return read_state(actor)
