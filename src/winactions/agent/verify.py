"""Verifier, code first: a step's expected outcome is checked on the tree (and pixels when
asked); only a `success_condition` in words asks the model.

A step that declares nothing records whether anything changed and passes: some actions
change nothing visible (an operator key on a calculator), and that is not a failure. A step
that expected a change and got none fails.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Any

from PIL import Image, ImageChops
from pydantic import BaseModel

from winactions.agent.actor import Actor
from winactions.agent.model import Model
from winactions.agent.plan import Expect, StepPlan
from winactions.agent.planner import compact_state
from winactions.agent.resolve import Resolved, in_tree
from winactions.errors import NotFound, WinctlError
from winactions.model import UIState

PIXEL_THRESHOLD = 0.002  # share of pixels that must differ for "the screen changed"


class Suggestion(str, Enum):
    CONTINUE = "continue"
    RETRY = "retry"
    SKIP = "skip"
    WAIT = "wait"
    DISMISS = "dismiss"
    ABORT = "abort"
    REPLAN = "replan"


class Blocker(BaseModel):
    type: str  # dialog / permission / error / popup / ad / loading / keyboard / app
    description: str
    dismiss: str | None = None  # the button the rule table would press (how "click"), or the key (how "key")
    how: str = "click"  # click (a button, else the model's advice, else Escape) / key / wait


class VerifyResult(BaseModel):
    verified: bool
    confidence: float = 1.0
    screen_changed: bool = False
    change_description: str = ""
    blocker: Blocker | None = None
    suggestion: Suggestion = Suggestion.CONTINUE
    method: str = "code"  # code | model | none


@dataclass
class Snap:
    """What the verifier compares: the state, its fingerprint and, when taken, a screenshot."""

    state: UIState
    fingerprint: str
    screenshot: Path | None = None


def fingerprint(state: UIState) -> str:
    parts = [state.window.id, state.window.title]
    parts += [f"{t.type}|{t.name}|{t.value}|{','.join(sorted(set(t.states) - {'focused'}))}" for t in state.targets]
    return hashlib.sha1("\n".join(parts).encode()).hexdigest()


def pixels_differ(a: Path | None, b: Path | None) -> bool | None:
    """Whether two screenshots differ in more than a sliver; None when either is missing."""
    if a is None or b is None or not a.exists() or not b.exists():
        return None
    with Image.open(a) as first, Image.open(b) as second:
        if first.size != second.size:
            return True
        diff = ImageChops.difference(first.convert("L"), second.convert("L")).point(lambda v: 255 if v > 24 else 0)
        histogram = diff.histogram()
        return histogram[255] / max(1, first.width * first.height) > PIXEL_THRESHOLD


class Verifier:
    def __init__(self, actor: Actor, model: Model) -> None:
        self.actor = actor
        self.model = model

    def check(self, step: StepPlan, before: Snap, after: Snap, resolved: Resolved | None) -> VerifyResult:
        tree_changed = before.fingerprint != after.fingerprint
        pixels = pixels_differ(before.screenshot, after.screenshot)
        changed = tree_changed or bool(pixels)
        what = "the tree changed" if tree_changed else "the pixels changed" if pixels else "nothing changed"
        expect = step.expect or Expect()
        failures = self._expectations(expect, step, before, after, resolved, changed)
        if step.verify_ref:
            failures += self._image(step.verify_ref, present=True)
        if failures:
            return VerifyResult(
                verified=False,
                screen_changed=changed,
                change_description="; ".join(failures),
                suggestion=Suggestion.RETRY if not changed else Suggestion.REPLAN,
            )
        if step.success_condition:
            return self._in_words(step.success_condition, after, changed, what)
        method = "code" if not expect.empty or step.verify_ref else "none"
        return VerifyResult(verified=True, screen_changed=changed, change_description=what, method=method)

    def _expectations(  # noqa: C901  (one branch per expectation kind)
        self,
        e: Expect,
        step: StepPlan,
        before: Snap,
        after: Snap,
        resolved: Resolved | None,
        changed: bool,
    ) -> list[str]:
        out: list[str] = []
        state = after.state
        if e.changed is True and not changed:
            out.append("a change was expected and nothing changed")
        if e.changed is False and changed:
            out.append("nothing should have changed, and something did")
        if e.appears and not in_tree(state, e.appears, None):
            out.append(f"{e.appears!r} did not appear")
        if e.disappears and in_tree(state, e.disappears, None):
            out.append(f"{e.disappears!r} is still there")
        if e.title and e.title.casefold() not in state.window.title.casefold():
            out.append(f"the window title {state.window.title!r} does not contain {e.title!r}")
        if e.window_changed is not None and (state.window.id != before.state.window.id) != e.window_changed:
            out.append("the window in front " + ("did not change" if e.window_changed else "changed"))
        for name, wanted in (e.text or {}).items():
            got = self._text_of(state, name)
            if got is None or got.strip() != wanted.strip():
                out.append(f"{name!r} holds {got!r}, not {wanted!r}")
        for name, part in (e.contains or {}).items():
            got = self._text_of(state, name)
            if got is None or part not in got:
                out.append(f"{name!r} holds {got!r}, without {part!r}")
        if e.value is not None:
            target_id = resolved.target.id if resolved and resolved.target else None
            got = self._read(target_id) if target_id is not None else None
            if got is None or got.strip() != e.value.strip():
                out.append(f"the target holds {got!r}, not {e.value!r}")
        if e.image:
            out += self._image(e.image, present=True)
        if e.no_image:
            out += self._image(e.no_image, present=False)
        return out

    def _text_of(self, state: UIState, name: str) -> str | None:
        found = in_tree(state, name, None)
        return self._read(found[0].id) if found else None

    def _read(self, target_id: int) -> str | None:
        try:
            return self.actor.call("get text", id=target_id).value
        except WinctlError:
            try:
                value = self.actor.call("get value", id=target_id).value
                return None if value is None else str(value)
            except WinctlError:
                return None

    def _image(self, name: str, *, present: bool) -> list[str]:
        try:
            self.actor.call("locate", target=f"image:{name}", strategy=["template"], no_cache=True)
            seen = True
        except NotFound:
            seen = False
        if seen == present:
            return []
        return [f"reference image {name!r} is " + ("not on screen" if present else "still on screen")]

    def _in_words(self, condition: str, after: Snap, changed: bool, what: str) -> VerifyResult:
        images: list[Any] = []
        if after.screenshot is not None and after.screenshot.exists():
            images.append(Image.open(after.screenshot))
        reply = self.model.ask(
            "You check whether a desktop UI step succeeded. Reply with JSON: "
            '{"verified": true|false, "confidence": 0-1, "reason": "...", '
            '"suggestion": "continue|retry|skip|wait|dismiss|abort|replan"}',
            f"Condition: {condition}\nWhat changed: {what}\n\nState now:\n{compact_state(after.state)}",
            images,
        )
        try:
            suggestion = Suggestion(str(reply.get("suggestion", "continue")).lower())
        except ValueError:
            suggestion = Suggestion.CONTINUE
        verified = reply.get("verified") is True
        if not verified and suggestion is Suggestion.CONTINUE:
            suggestion = Suggestion.REPLAN
        confidence = reply.get("confidence", 0.5)
        return VerifyResult(
            verified=verified,
            confidence=float(confidence) if isinstance(confidence, (int, float)) else 0.5,
            screen_changed=changed,
            change_description=str(reply.get("reason", what)),
            suggestion=suggestion,
            method="model",
        )


# what a closed window shows: it changed, and every name and picture in it is gone
SHOWN_BY_CLOSING = frozenset({"window_changed", "disappears", "no_image"})


def closed_verdict(step: StepPlan, gone: str) -> VerifyResult:
    """The verdict on a step after which the task's window is gone (`gone` says which).

    Verified when the step expected nothing, or only what a closed window shows (another
    window in front, a name or picture gone); a step that expected something to be seen or
    held afterwards cannot have it, and is not verified."""
    wanted = {} if step.expect is None else step.expect.model_dump(exclude_none=True)
    unseen = sorted(set(wanted) - SHOWN_BY_CLOSING)
    if not unseen and wanted.get("window_changed", True):
        return VerifyResult(verified=True, screen_changed=True, change_description=f"{gone} (the act closed it)")
    missing = ", ".join(unseen) or "window_changed: false"
    return VerifyResult(
        verified=False,
        screen_changed=True,
        change_description=f"{gone}, so what the step expected ({missing}) cannot be there",
        suggestion=Suggestion.ABORT,
    )
