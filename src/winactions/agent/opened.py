"""Dialogs and windows nobody asked for: one a step opened that its plan did not expect, and
one of the app left open when the run ends.

A step that opens a dialog or a second window of its app is fine when its `expect` says so
(`window_changed`, `appears`, `title`, a `success_condition`) or when the next step acts in it
(its target is found there). Otherwise the step fails, naming what opened: a Save As dialog
that a save opened on a document with no file is not a save.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from winactions.agent.actor import Actor, read_state
from winactions.agent.plan import Action, StepPlan
from winactions.agent.resolve import in_tree
from winactions.errors import ActionFailed, WinctlError
from winactions.model import UIState, WindowInfo

if TYPE_CHECKING:
    from winactions.agent.verify import VerifyResult

DIALOG_TYPES = ("Dialog", "Alert")
# a dialog's answers, named before its other buttons (a file chooser's path bar has many)
ANSWERS = frozenset({"Cancel", "Close", "OK", "Save", "Open", "Yes", "No", "Replace", "Don't Save", "Discard", "Apply"})
OPAQUE_REFS = ("id:", "image:", "text:", "dynamic:")  # refs not looked up in the tree here: trusted to act there


class UnexpectedWindow(ActionFailed):
    """A step opened a dialog or window its plan did not expect, and the next step does not act in it."""

    code = "unexpected_window"


def describe(state: UIState, *, dialog: bool = True) -> str:
    """`the dialog "Save As" (buttons Cancel, Save)`: what a person would call it."""
    named = [t.name for t in state.targets if t.type == "Button" and t.name]
    buttons = ([b for b in named if b in ANSWERS] or named)[:6]
    kind = "dialog" if dialog else "window"
    return f'the {kind} "{state.window.title}"' + (f" (buttons {', '.join(buttons)})" if buttons else "")


def _dialogs(state: UIState) -> int:
    return sum(1 for t in state.targets if t.type in DIALOG_TYPES)


def step_words(step: StepPlan) -> str:
    """A step as a person would say it: `keys ctrl+s`, `click Save`, `type 'hello'`."""
    p = step.params
    if step.action is Action.PRESS_KEY:
        return f"keys {p.get('keys') or p.get('key') or p.get('keycode')}"
    if step.action is Action.INPUT_TEXT:
        return f"type {str(p.get('text', ''))[:40]!r}" + (f" into {step.target_ref}" if step.target_ref else "")
    return " ".join(x for x in (step.action.value, step.target_ref or step.target_type or "") if x)


def _expected(step: StepPlan) -> bool:
    e = step.expect
    said = e is not None and (e.window_changed is True or bool(e.appears) or bool(e.title))
    return said or bool(step.success_condition)


def acts_in(step: StepPlan | None, state: UIState) -> bool:
    """Whether `step` has a target, and it is found in `state` (refs other than names are trusted)."""
    if step is None or (not step.target_ref and not step.target_type):
        return False
    if step.target_ref and step.target_ref.startswith(OPAQUE_REFS):
        return True
    return bool(in_tree(state, step.target_ref, step.target_type))


def check_step(
    step: StepPlan,
    before: UIState,
    after: UIState,
    next_step: StepPlan | None,
    verdict: VerifyResult | None = None,
    home: WindowInfo | None = None,
) -> None:
    """Raise `UnexpectedWindow` when `step` opened a dialog or window (the state moved to another
    window of the app than `home`, the run's window, or a dialog appeared in it) that nothing
    expected; `verdict` says so too."""
    moved = after.window.id != before.window.id and (home is None or after.window.id != home.id)
    if not moved and _dialogs(after) <= _dialogs(before):
        return
    if (moved and after.window.pid != before.window.pid) or _expected(step) or acts_in(next_step, after):
        return
    message = f"step {step.step} ({step_words(step)}) opened {describe(after)} the plan did not expect"
    if verdict is not None:
        verdict.verified, verdict.change_description = False, message
    raise UnexpectedWindow(message, hint=hint_for(after.window.title))


def check_batch(
    items: list[Any], before: UIState, read: Callable[[], UIState], next_step: StepPlan | None, home: WindowInfo | None
) -> None:
    """`check_step` once for a batch of level-0 steps that all ran (`items`, StepResults):
    a window the batch opened fails its last step."""
    if not items or any(i.status.value != "success" for i in items):
        return
    try:
        check_step(items[-1].step, before, read(), next_step, home=home)
    except UnexpectedWindow as exc:
        items[-1].status = type(items[-1].status)("failed")
        items[-1].error = exc.message + (f" ({exc.hint})" if exc.hint else "")


def hint_for(title: str) -> str:
    """What the user can say instead: a save that asks for a name wants one; a question
    about unsaved changes wants the document saved first."""
    said = title.casefold()
    if "change" in said or "unsaved" in said:
        return "the document has unsaved changes: save it first, or say in the task what to do with them"
    if "save" in said:
        return 'the document has no file yet: name one, e.g. "... and save as ~/notes/note.txt"'
    return "say in the task what to do in it, or close it and run again"


def left_open(actor: Actor, home: WindowInfo | None) -> list[str]:
    """The dialogs and second windows of the app (`home`'s process) open now, described."""
    try:
        state = read_state(actor)
    except WinctlError:
        state = None
    found: list[str] = []
    if home is not None:
        try:
            listed = actor.call("windows").windows
        except WinctlError:
            listed = []
        for window in listed:
            if window.pid == home.pid and window.id != home.id and not window.minimized:
                found.append(
                    describe(state) if state is not None and state.window.id == window.id else f'"{window.title}"'
                )
    if state is not None and (home is None or state.window.id == home.id) and _dialogs(state):
        names = [t.name or t.type for t in state.targets if t.type in DIALOG_TYPES]
        found.append(f'a dialog inside "{state.window.title}": {", ".join(names[:3])}')
    return found
