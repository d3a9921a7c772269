"""TaskRunner: plan → locate → act → verify, with execution levels, fallbacks, blocker
dismissal, replanning and guards, on nothing but the table's commands.

    from winactions import Desktop
    from winactions.agent import TaskRunner

    with Desktop() as desktop:
        result = TaskRunner(desktop).run("write hello in mousepad and save")
        print(result.status, result.model["calls"])
"""

from __future__ import annotations

import contextlib
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from winactions.agent.actor import Actor, need, read_state
from winactions.agent.apps import AppModule, ModuleRegistry
from winactions.agent.apptarget import select_app_window
from winactions.agent.blockers import Dismissal, Way, settled
from winactions.agent.calls import BATCHABLE, call_for, scrollable, untargeted
from winactions.agent.home import go_home
from winactions.agent.model import Model
from winactions.agent.opened import check_batch, check_step
from winactions.agent.plan import PlanSource, StepPlan, TaskPlan
from winactions.agent.planner import Planner
from winactions.agent.policy import StepClock, StepFailed, checked, next_candidate, skip_reason, tried_list
from winactions.agent.record import Recorder
from winactions.agent.resolve import Resolved, resolve
from winactions.agent.result import StepResult as StepResult  # re-exported: they were defined here
from winactions.agent.result import StepStatus as StepStatus
from winactions.agent.result import TaskResult as TaskResult
from winactions.agent.result import TaskStatus as TaskStatus
from winactions.agent.stopping import stop_reason
from winactions.agent.success import check_success
from winactions.agent.success import verdict as success_verdict
from winactions.agent.verify import Snap, Suggestion, Verifier, closed_verdict, fingerprint
from winactions.errors import Cancelled, InvalidInput, LLMFailed, NotFound, Unsupported, WinctlError, WindowClosed
from winactions.llm.config import LLMFlags
from winactions.model import UIState, WindowInfo
from winactions.progress import cancelled

FALLBACK_ATTEMPTS = 3  # act the fallback, look again, at most three times
SAME_ACTION_LIMIT = 3  # the same action on an unchanged state this often forces a replan
MAX_DISMISSALS = 3  # per step
VISION_RELIABLE = 0.5  # a vision model's box below this confidence is not acted on


@dataclass
class RunOptions:
    dry_run: bool = False
    max_steps: int = 30
    max_replans: int = 2
    max_model_calls: int = 8
    max_tokens: int = 200_000
    timeout: float | None = None  # seconds for the whole run; checked before each step
    record: str | Path | None = None
    pixels: bool = True  # locate names outside the tree from pixels (OCR, images, the vision model)
    use_templates: bool = True
    llm: LLMFlags | None = None  # None: the environment's model, if one is configured
    apps: list[str] = field(default_factory=list)
    confirm: Callable[[StepPlan, str], bool] | None = None  # asked before each step; False skips it
    progress: Callable[[str], None] | None = None


_Failure = StepFailed  # a step that cannot go on


class TaskRunner:
    def __init__(self, actor: Actor, options: RunOptions | None = None, **overrides: Any) -> None:
        self.actor = actor
        self.options = options or RunOptions(**overrides)
        o = self.options
        self.model = Model(o.llm if o.llm is not None else LLMFlags(), o.max_model_calls, o.max_tokens)
        self.registry = ModuleRegistry.load(o.apps)
        self.planner = Planner(self.model, self.registry)
        self.verifier = Verifier(actor, self.model)
        self.module: AppModule | None = None
        self.home: WindowInfo | None = None
        self._recorder: Recorder | None = None
        self._batches = 0
        self._seen: Counter[str] = Counter()
        self._deadline: float | None = None
        self._next: StepPlan | None = None  # the step after the one running: a dialog it acts in was expected
        self._started = 0.0  # wall-clock start: a file saved by the run is newer

    # -- entry points ---------------------------------------------------------------------------
    def run(self, task: str, plan: TaskPlan | None = None, source: PlanSource = "given") -> TaskResult:
        """Do `task` (or the given plan); never raises for the task's own failure: the
        result says what happened, step by step."""
        started, self._started = time.monotonic(), time.time()
        self._deadline = started + self.options.timeout if self.options.timeout else None
        result = TaskResult(task=task, status=TaskStatus.RUNNING)
        if self.options.record is not None:
            self._recorder = Recorder(Path(self.options.record))
            result.record = str(self._recorder.folder)
        try:
            state = read_state(self.actor)
            if not self.options.dry_run:  # act on the app the task names
                routed = self.registry.route(task, state.window.process, state.window.title)[0]
                window, result.prepared = select_app_window(self.actor, routed, state.window)
                state = read_state(self.actor) if window.id != state.window.id or result.prepared else state
            self.home = state.window
            if plan is None:
                planned = self.planner.plan(task, state, self._screen_image, self.options.use_templates)
                plan, source = planned.plan, planned.source
                self.module, result.template, result.route_score = planned.module, planned.template, planned.score
            else:
                self.module, result.route_score = self.registry.route(task, state.window.process, state.window.title)
            result.plan, result.plan_source = plan, source
            result.module = self.module.name if self.module else None
            self._say(f"plan ({source}{': ' + result.template if result.template else ''}): {len(plan.steps)} steps")
            if self._recorder:
                self._recorder.event("plan", task=task, source=source, plan=plan.model_dump(mode="json"))
            if self.options.dry_run:
                self._dry_run(plan, state, result)
            else:
                self._execute(task, plan, result)
        except WinctlError as exc:
            cancel = isinstance(exc, Cancelled)
            result.status, result.error = TaskStatus.ABORTED if cancel else TaskStatus.FAILED, _message(exc)
        result.model = self.model.usage.as_dict()
        result.total_time = round(time.monotonic() - started, 3)
        if self._recorder:
            self._recorder.event("result", result=result.model_dump(mode="json", exclude={"plan", "step_results"}))
        self._say(
            f"{result.status.value}: {len(result.step_results)} steps, {result.replans} replans, "
            f"{result.model['calls']} model calls, {result.total_time:.1f}s"
            + (f" — {result.error}" if result.error else "")
        )
        return result

    # -- dry run --------------------------------------------------------------------------------
    def _dry_run(self, plan: TaskPlan, state: UIState, result: TaskResult) -> None:
        """Every target located in the current state; nothing is done."""
        for step in plan.steps:
            item = StepResult(step=step, level=step.level, start_time=time.monotonic())
            try:
                where = self._resolve(step, state)
                item.target, item.status = where.describe(), StepStatus.PLANNED
            except WinctlError as exc:
                item.status, item.error = StepStatus.FAILED, _message(exc)
            item.end_time = time.monotonic()
            result.step_results.append(item)
            self._say(f"step {step.step} {step.action.value} {step.target_ref or ''}: {item.target or item.error}")
        failed = [r for r in result.step_results if r.status is StepStatus.FAILED]
        result.status = TaskStatus.FAILED if failed else TaskStatus.PLANNED
        if failed:
            result.error = f"{len(failed)} step(s) cannot be located now: " + failed[0].error

    # -- execution ------------------------------------------------------------------------------
    def _execute(self, task: str, plan: TaskPlan, result: TaskResult) -> None:
        queue = list(plan.steps)
        success, criteria = plan.success, plan.success_criteria
        done: list[StepPlan] = []
        while queue:
            if len(result.step_results) >= self.options.max_steps:
                result.status, result.error = TaskStatus.ABORTED, f"the step cap ({self.options.max_steps}) was reached"
                return
            stop = stop_reason(self._deadline, self.options.timeout, queue[0].step, len(done))
            if stop:
                result.status, result.error = TaskStatus.ABORTED, stop
                return
            group = self._level0_group(queue, self.actor.commands())
            if group:
                before = self._state()
                items = self._run_batch(group)
                result.step_results += items
                check_batch(items, before, self._state, queue[0] if queue else None, self.home)
                failed = next((i for i in items if i.status is StepStatus.FAILED), None)
                if failed is None:
                    done += group
                    continue
                step, reason, replan = failed.step, failed.error, True
            else:
                step = queue.pop(0)
                self._next = queue[0] if queue else None
                item = self._run_step(step)
                result.step_results.append(item)
                if item.status in (StepStatus.SUCCESS, StepStatus.SKIPPED):
                    done.append(step)
                    continue
                reason = item.error
                replan = not item.error.startswith("unsupported:") and not (
                    item.verify is not None and item.verify.suggestion is Suggestion.ABORT
                )
            if not replan or result.replans >= self.options.max_replans or not self.model.ready or cancelled():
                why = "" if self.model.ready else " (no model to replan with)"
                if replan and result.replans >= self.options.max_replans:
                    why = f" (after {result.replans} replans)"
                result.status, result.error = TaskStatus.FAILED, f"step {step.step} failed: {reason}{why}"
                return
            result.replans += 1
            self._say(f"replan {result.replans}: {reason}")
            try:
                new = self.planner.replan(task, self._state(), step, reason, done, self._screen_image, self.module)
            except (LLMFailed, InvalidInput) as exc:
                result.status, result.error = (
                    TaskStatus.FAILED,
                    f"step {step.step} failed: {reason}; replanning failed: {_message(exc)}",
                )
                return
            if self._recorder:
                self._recorder.event("replan", reason=reason, plan=new.model_dump(mode="json"))
            offset = len(done)
            queue = [s.model_copy(update={"step": offset + i}) for i, s in enumerate(new.steps, 1)]
            success = new.success or success  # the newest plan that states how to check the task
            criteria = new.success_criteria or criteria
        result.checks = check_success(
            self.actor,
            success,
            criteria,
            home=self.home,
            module=self.module,
            model=self.model,
            started=self._started,
        )
        status, result.error = success_verdict(result.checks)
        result.status = TaskStatus(status)

    def _level0_group(self, queue: list[StepPlan], available: list[str]) -> list[StepPlan]:
        """Consecutive level-0 steps that are each one command this backend has: sent as one
        `batch` call (one round trip; a command it lacks, or a key it has not, runs alone and
        fails clearly)."""
        group: list[StepPlan] = []
        if self.options.confirm is not None:  # each step is asked about on its own
            return group
        while (
            queue
            and queue[0].level == 0
            and queue[0].action in BATCHABLE
            and not queue[0].target_type
            and not queue[0].wait_before
            and not queue[0].expect
            and self._batchable_call(queue[0]) in available
        ):
            group.append(queue.pop(0))
        if len(group) == 1:  # a batch of one is just a step
            queue.insert(0, group.pop())
        return group

    def _batchable_call(self, step: StepPlan) -> str | None:
        try:
            return str(self._call_for(step, Resolved(None, "", 0))["command"])
        except WinctlError:
            return None

    def _run_batch(self, steps: list[StepPlan]) -> list[StepResult]:
        """The steps as one `batch` call, each followed by its own wait (`StepPlan.settle_ms`:
        an app's start, a page's load). Recording, the batch's pictures and states before and
        after are every step's."""
        self._batches += 1
        started = time.monotonic()
        calls = [self._call_for(s, Resolved(None, "level 0", 0)) for s in steps]
        items = [
            StepResult(step=s, level=0, batch=self._batches, start_time=started, call=c, target="level 0")
            for s, c in zip(steps, calls)
        ]
        self._batch_snap(items, "before")
        sent: list[dict[str, Any]] = []
        owner: list[StepResult | None] = []  # whose outcome each sent command is (None: a pause)
        for item, call in zip(items, calls):
            sent.append({"command": call["command"], "args": call["args"]})
            owner.append(item)
            if item is not items[-1] and item.step.settle_ms:
                sent.append({"command": "wait", "args": {"seconds": item.step.settle_ms / 1000}})
                owner.append(None)
        report = self.actor.call("batch", steps=sent)
        for whose, outcome in zip(owner, report.steps):
            if whose is not None:
                whose.status = StepStatus.SUCCESS if outcome.ok else StepStatus.FAILED
                whose.error = "" if outcome.ok else _batch_error(outcome.error or {})
        for item in items:
            if item.status is StepStatus.PENDING:
                item.status, item.error = StepStatus.SKIPPED, "an earlier step of its batch failed"
        time.sleep(steps[-1].settle_ms / 1000)
        self._batch_snap(items, "after")
        ended = time.monotonic()
        for item in items:
            item.end_time = ended
            self._say(
                f"step {item.step.step} {item.step.action.value} (batch {self._batches}): {item.status.value}"
                + (f" — {item.error}" if item.error else "")
            )
            if self._recorder:
                self._recorder.step(item)
        return items

    def _batch_snap(self, items: list[StepResult], when: str) -> None:
        """Recording: one picture and state for a whole batch, shared by its steps."""
        if self._recorder is None:
            return
        state = self._state()
        shot = self._recorder.screenshot(self.actor, items[0].step.step, when, state, name=f"batch-{self._batches}")
        for item in items:
            self._recorder.keep(item.step.step, when, state)
            setattr(item, f"screenshot_{when}", str(shot) if shot is not None else None)

    def _run_step(self, step: StepPlan) -> StepResult:
        item = StepResult(step=step, level=step.level, status=StepStatus.RUNNING, start_time=time.monotonic())
        calls = self.model.usage.calls
        try:
            self._attempts(step, item)
        except _Failure as exc:
            item.status, item.error = StepStatus.FAILED, str(exc)
        except Unsupported as exc:
            item.status, item.error = StepStatus.FAILED, f"unsupported: {_message(exc)}"
        except WinctlError as exc:
            item.status, item.error = StepStatus.FAILED, _message(exc)
        item.end_time = time.monotonic()
        item.model_calls = self.model.usage.calls - calls
        self._say(
            f"step {step.step} {step.action.value} {item.target}: {item.status.value}"
            + (f" — {item.error}" if item.error else "")
        )
        if self._recorder:
            if item.screenshot_after is None:  # it stopped before acting: the screen it left
                with contextlib.suppress(WinctlError):
                    self._snap(item, "after")
            self._recorder.step(item)
        return item

    def _attempts(self, step: StepPlan, item: StepResult) -> None:  # noqa: C901  (the step loop, read in one place)
        """Locate → act → verify within the step's `timeout`, clearing blockers on the way; the
        decisions (time, SKIP, WAIT, the next candidate) are `policy`'s."""
        if step.wait_before:
            time.sleep(step.wait_before / 1000)
        clock, way, tried, dismissals = StepClock(step), self._way(), list[Resolved](), 0
        pending: Resolved | None = None  # the next candidate, after an act that changed nothing
        missed = False  # the target was not found once already
        while True:
            before = self._snap(item, "before")
            try:
                where, pending = pending or self._locate_with_fallback(step, before.state, item, not missed), None
            except (NotFound, InvalidInput) as exc:
                blocker = way.detect(before.state)
                if blocker is not None and dismissals < MAX_DISMISSALS:
                    dismissals += 1
                    self._dismissed(item, way.dismiss(blocker))
                    continue
                if isinstance(exc, InvalidInput):  # several elements have it: waiting will not tell them apart
                    raise _Failure(_message(exc)) from None
                missed = True  # the fallback has run: from now on only look again, until the step's time is up
                clock.wait_for_target(_message(exc))
                continue
            keyboard = way.covering(before.state, where.target)
            if keyboard is not None and dismissals < MAX_DISMISSALS:
                dismissals += 1  # the soft keyboard is over the target: put it away first
                self._dismissed(item, way.dismiss(keyboard))
                continue
            item.target, item.level = where.describe(), max(item.level, where.level)
            if where.target is not None:
                item.pinned = {"target_ref": where.target.name or None, "target_type": where.target.type}
            if self.options.confirm is not None and not self.options.confirm(step, item.target):
                item.status = StepStatus.SKIPPED
                return
            self._guard(step, where, before)
            call = self._call_for(step, where)
            item.call = call
            try:
                self._act(step, call)
            except (NotFound, InvalidInput) as exc:
                if item.retry_count >= step.retry:
                    raise _Failure(_message(exc)) from None
                item.retry_count += 1
                continue
            time.sleep(step.settle_ms / 1000)
            try:
                after = self._snap(item, "after")
            except WindowClosed as exc:  # the act closed the app's window: the step's own outcome?
                item.verify = closed_verdict(step, _message(exc))
                if not item.verify.verified:
                    raise _Failure(f"not verified: {item.verify.change_description}") from None
                item.status = StepStatus.SUCCESS
                return
            verdict, after = checked(
                self.verifier,
                step,
                before,
                after,
                where,
                lambda: self._snap(item, "after"),
                clock=clock,
                blocked=partial(_in_the_way, way, before.state),
            )
            item.verify = verdict
            check_step(step, before.state, after.state, self._next, verdict, self.home)
            if verdict.verified:
                item.status = StepStatus.SUCCESS
                return
            skip = skip_reason(step, verdict)
            if skip is not None:
                item.status, item.error = StepStatus.SKIPPED, f"skipped: {skip} ({verdict.change_description})"
                return
            blocker = way.detect(after.state, before.state)
            if blocker is not None and dismissals < MAX_DISMISSALS:
                verdict.blocker, verdict.suggestion = blocker, Suggestion.DISMISS
                dismissals += 1
                self._dismissed(item, way.dismiss(blocker))
            elif not verdict.screen_changed and verdict.suggestion is not Suggestion.ABORT:
                tried.append(where)
                pending = next_candidate(self.actor, step, after.state, tried, self.options.pixels)
                if pending is not None:
                    self._say(f"step {step.step}: no effect on {where.describe()}; trying {pending.describe()}")
                    continue
            if (
                verdict.suggestion in (Suggestion.REPLAN, Suggestion.ABORT, Suggestion.SKIP)
                or item.retry_count >= step.retry
            ):
                raise _Failure(f"not verified: {verdict.change_description}{tried_list(tried)}")
            clock.check(f"not verified: {verdict.change_description}")
            item.retry_count += 1

    def _guard(self, step: StepPlan, where: Resolved, before: Snap) -> None:
        """The same action on an unchanged state three times is a loop: force a replan."""
        key = f"{step.action.value}|{where.ref}|{sorted(step.params.items())}|{before.fingerprint}"
        self._seen[key] += 1
        if self._seen[key] >= SAME_ACTION_LIMIT:
            raise _Failure(f"the same {step.action.value} on an unchanged screen {SAME_ACTION_LIMIT} times: a loop")

    def _dismissed(self, item: StepResult, dismissal: Dismissal) -> None:
        item.dismissals.append(dismissal.as_dict())
        self._say(
            f"blocker {dismissal.blocker.description}: dismissed by {dismissal.method}"
            + ("" if dismissal.cleared else " (still there)")
        )
        if self._recorder:
            self._recorder.event("dismissal", step=item.step.step, **dismissal.as_dict())

    # -- locate ---------------------------------------------------------------------------------
    def _resolve(self, step: StepPlan, state: UIState) -> Resolved:
        if untargeted(step):
            return Resolved(None, "no target" if "x" not in step.params else "the plan's point", step.level)
        return resolve(
            self.actor,
            step,
            state,
            describe=self._describe if self.model.ready else None,
            pixels=self.options.pixels,
            app=self.module.name if self.module else None,
            module_images=self.module.images if self.module else None,
        )

    def _describe(self, description: str) -> Resolved:
        """Level 3: the vision model finds a described element in the window's screenshot
        (through the locator's own prompt and box mapping), counted in the run's budget."""
        from PIL import Image

        from winactions.locate.vision import find_described

        shot = self.actor.call("screenshot")
        with Image.open(shot.path) as image:
            found = find_described(self.model, image.convert("RGB"), (shot.rect.left, shot.rect.top), description)
        if not found or found[0].confidence < VISION_RELIABLE:
            closest = f"; best {found[0].label!r} at {found[0].confidence:.2f}" if found else ""
            raise NotFound(f"the vision model did not find {description}{closest}")
        best = found[0]
        return Resolved(
            f"dynamic:{description}", f"vision model, confidence {best.confidence:.2f}", 3, point=best.rect.center
        )

    def _locate_with_fallback(
        self, step: StepPlan, state: UIState, item: StepResult, run_fallback: bool = True
    ) -> Resolved:
        """Not found → the fallback action → look again, at most 3 times (`run_fallback` False: look only)."""
        try:
            return self._resolve(step, state)
        except NotFound as first:
            if step.fallback is None or not run_fallback:
                raise
            error: NotFound = first
        fallback = StepPlan(
            step=step.step,
            action=step.fallback.action,
            target_ref=step.fallback.target_ref,
            params=step.fallback.params,
            wait_after=500,
        )
        for _ in range(FALLBACK_ATTEMPTS):
            item.fallbacks += 1
            self._say(
                f"step {step.step}: {error.message}; fallback {fallback.action.value} "
                f"{fallback.target_ref or fallback.params}"
            )
            try:
                self._act(fallback, self._call_for(fallback, self._resolve(fallback, state)))
            except (NotFound, InvalidInput) as exc:
                error = exc if isinstance(exc, NotFound) else NotFound(exc.message)
                continue
            time.sleep(fallback.wait_after / 1000)
            state = self._state()
            try:
                return self._resolve(step, state)
            except NotFound as exc:
                error = exc
        raise NotFound(f"{error.message} (after {FALLBACK_ATTEMPTS} fallbacks)", hint=error.hint)

    # -- act ------------------------------------------------------------------------------------
    def _call_for(self, step: StepPlan, where: Resolved) -> dict[str, Any]:
        """The table command a step runs (see `agent.calls`)."""
        return call_for(
            step,
            where,
            touch="go-home" in self.actor.commands(),  # a phone: a swipe is a finger's gesture there
            launch=self.module.launch if self.module else None,
            scrollable=lambda: scrollable(self._state()),
        )

    def _act(self, step: StepPlan, call: dict[str, Any]) -> None:
        if call["command"] == "go_home":
            self._go_home(step.params.get("launcher") is True)
            return
        need(self.actor, call["command"], f"{step.action.value} (step {step.step})")
        self.actor.call(call["command"], **call["args"])

    def _go_home(self, launcher: bool = False) -> None:
        """Back to the app's start (`home.go_home`): the module's home loop, the launcher when asked."""
        go_home(self.actor, self.module, self.home, launcher)

    # -- perception -----------------------------------------------------------------------------
    def _state(self) -> UIState:
        return settled(self.actor, self.home)

    def _snap(self, item: StepResult, when: str) -> Snap:
        state = self._state()
        shot = self._recorder.screenshot(self.actor, item.step.step, when, state) if self._recorder else None
        if shot is not None:
            setattr(item, f"screenshot_{when}", str(shot))
        return Snap(state, fingerprint(state), shot)

    def _screen_image(self) -> Any:
        """A screenshot for the model (the planner asks only when the tree says too little)."""
        try:
            from PIL import Image

            path = self.actor.call("screenshot").path
            return Image.open(path)
        except WinctlError:
            return None

    def _way(self) -> Way:
        return Way(self.actor, self.model, self.home, self.module)

    def _say(self, line: str) -> None:
        if self.options.progress is not None:
            self.options.progress(line)


def _batch_error(error: dict[str, str]) -> str:
    """A batch step's error as a step's: `unsupported: ...` when the platform cannot do it."""
    said = error.get("message", "failed") + (f" ({error['hint']})" if error.get("hint") else "")
    return f"unsupported: {said}" if error.get("code") == "unsupported" else said


def _in_the_way(way: Way, before: UIState, state: UIState) -> bool:
    """Whether a blocker the step did not open stands in `state` (`before`: the state it acted on)."""
    return way.detect(state, before) is not None


def _message(exc: WinctlError) -> str:
    return exc.message + (f" ({exc.hint})" if exc.hint else "")
