"""The step loop's decisions: how long a step may take, what the verifier's SKIP and WAIT
mean, and where to act next when acting changed nothing.

- A step's `timeout` (ms, default 3000) bounds its locate/act/verify loop: a target that is
  not there yet is looked for again until then (a window still drawing, a list still
  filling), and a step still short of its outcome when it runs out fails saying so. A step
  that succeeds at its first try is never failed for its time.
- WAIT (the verifier thinks the outcome is on its way): the state is read and checked again,
  without acting again, up to WAIT_LOOKS times WAIT_POLL seconds apart; still not there is
  a failure to verify, for a replan (acting again could do the step twice).
- SKIP (the verifier thinks the step was not needed): honoured only when the plan says so
  or code has shown it — the step is marked `params.optional: true`, or it declares an
  `expect` that code checked and found to hold (the model's doubt is then only about its
  words). Otherwise SKIP is a failure to verify: a needed step is never skipped on a guess.
- No effect (acting changed neither the tree nor the pixels): the next candidate for the
  same target is tried before failing — another element of that name (any type, or by
  automation id) not tried yet, then the name's painted text from pixels — and the step's
  result says what was tried.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from winactions.agent.actor import Actor
from winactions.agent.plan import StepPlan
from winactions.agent.resolve import Resolved, in_tree
from winactions.agent.verify import Snap, Suggestion, Verifier, VerifyResult
from winactions.errors import BackendUnavailable, InvalidInput, LLMFailed, NotFound
from winactions.model import Operation, Source, UIState

POLL = 0.3  # seconds between looks for a target that is not there yet
WAIT_POLL = 1.0  # seconds between checks when the verifier says WAIT
WAIT_LOOKS = 3  # checks after a WAIT, at most


class StepFailed(Exception):
    """A step that cannot go on; `replan` says whether a new plan could help."""

    def __init__(self, message: str, replan: bool = True) -> None:
        super().__init__(message)
        self.replan = replan


class StepClock:
    """A step's time: its `timeout`, counted from its first look."""

    def __init__(self, step: StepPlan) -> None:
        self.step = step
        self.started = time.monotonic()
        self.deadline = self.started + step.timeout / 1000

    def left(self) -> float:
        return self.deadline - time.monotonic()

    def expired(self, what: str) -> StepFailed:
        return StepFailed(f"step {self.step.step} timed out after {self.step.timeout} ms: {what}")

    def wait_for_target(self, error: str) -> None:
        """The target is not there: wait a moment to look again, or fail when time is up."""
        if self.left() <= 0:
            raise self.expired(error)
        time.sleep(min(POLL, max(self.left(), 0.05)))

    def check(self, what: str) -> None:
        """Before another try: fail when the step is over its time."""
        if self.left() <= 0:
            raise self.expired(what)


SETTLE_POLL = 0.25  # s between looks at an outcome that does not hold yet


def wait_and_recheck(verdict: VerifyResult, check: Callable[[], VerifyResult]) -> tuple[VerifyResult, int]:
    """WAIT: check again without acting, at most WAIT_LOOKS times; the last verdict and the
    looks taken. A verdict still asking to wait is turned into a REPLAN."""
    looks = 0
    while not verdict.verified and verdict.suggestion is Suggestion.WAIT and looks < WAIT_LOOKS:
        time.sleep(WAIT_POLL)
        looks += 1
        verdict = check()
    if not verdict.verified and verdict.suggestion is Suggestion.WAIT:
        verdict.suggestion = Suggestion.REPLAN
        verdict.change_description += f" (still not there after waiting {looks * WAIT_POLL:g}s)"
    return verdict, looks


def checked(
    verifier: Verifier,
    step: StepPlan,
    before: Snap,
    after: Snap,
    where: Resolved,
    again: Callable[[], Snap],
    *,
    clock: StepClock,
    blocked: Callable[[UIState], bool],
) -> tuple[VerifyResult, Snap]:
    """The step's verdict and the last state looked at: the verifier's (level 0 with no
    `expect`: not checked, only whether anything changed), looked at again without acting
    while the outcome is still coming (`settle`) or the verifier says WAIT (`again` reads anew)."""
    if step.level == 0 and not step.expect:
        changed = before.fingerprint != after.fingerprint
        return VerifyResult(
            verified=True, screen_changed=changed, change_description="level 0: not checked", method="none"
        ), after
    last = [after]

    def look() -> VerifyResult:  # the state read anew; the step is never acted again
        last.append(again())
        return verifier.check(step, before, last[-1], where)

    verdict = verifier.check(step, before, after, where)
    if not (verdict.verified or step.success_condition or not (step.expect or step.verify_ref)):
        verdict = settle(
            verdict, look, until=time.monotonic() + max(clock.left(), 0) / 2, blocked=lambda: blocked(last[-1].state)
        )
    return wait_and_recheck(verdict, look)[0], last[-1]


def settle(
    verdict: VerifyResult, look: Callable[[], VerifyResult], *, until: float, blocked: Callable[[], bool]
) -> VerifyResult:
    """An outcome checked by code that does not hold yet, looked at again every `SETTLE_POLL`
    s until `until` (half the step's time left: a retry keeps the other half) without acting
    again: an app takes a moment to show what it did (a dialog unmapping, a page loading).
    Stops at once when something is in the way (`blocked`): that is the blockers' work."""
    while not verdict.verified and time.monotonic() < until and not blocked():
        time.sleep(SETTLE_POLL)
        verdict = look()
    return verdict


def skip_reason(step: StepPlan, verdict: VerifyResult) -> str | None:
    """Why a step the verifier says to SKIP may be skipped, or None when it may not."""
    if verdict.suggestion is not Suggestion.SKIP:
        return None
    if step.params.get("optional") is True:
        return "the plan marked it optional"
    if step.expect is not None and not step.expect.empty:
        return "its expected outcome was checked by code and holds"
    return None


def next_candidate(
    actor: Actor, step: StepPlan, state: UIState, tried: list[Resolved], pixels: bool
) -> Resolved | None:
    """Where to act next after an act that changed nothing: another element of the step's
    name (or, for a step by type only, of its type) not tried yet, preferring one that can be
    pressed; then the name's painted text, located from pixels. None when nothing is left."""
    name = step.target_ref
    if name is not None and ":" in name:
        return None  # an id, an image, a description: nothing else goes by that reference
    ids = {r.target.id for r in tried if r.target is not None}
    pool = [
        t for t in (in_tree(state, name, None) if name else in_tree(state, None, step.target_type)) if t.id not in ids
    ]
    if name and not pool:
        pool = [
            t
            for t in state.targets
            if t.source is Source.ACCESSIBILITY and t.id not in ids and name in (t.automation_id or "")
        ]
    if pool:
        best = sorted(pool, key=lambda t: Operation.INVOKE not in t.operations)[0]
        return Resolved(
            best.id, f"next candidate: another element {'named ' + repr(name) if name else 'of the type'}", 2, best
        )
    ref = f"text:{name}"
    if not name or not pixels or any(r.ref == ref for r in tried):
        return None
    try:
        found = actor.call("locate", target=ref).located.element
    except (NotFound, BackendUnavailable, LLMFailed, InvalidInput):
        return None
    point = found.click_point or found.center
    return Resolved(
        ref, f"next candidate: painted text, {found.method}, confidence {found.confidence:.2f}", 2, point=point
    )


def tried_list(tried: list[Resolved]) -> str:
    return "; tried " + ", ".join(r.describe() for r in tried) if len(tried) > 1 else ""
