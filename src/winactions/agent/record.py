"""Records of runs, and their replay without a model.

A record is a folder: `run.jsonl` (one JSON object per event: plan, step, dismissal, replan,
result) and `step-N-before.png` / `step-N-after.png` (level-0 steps sent in one `batch` call
share `batch-K-before.png` / `batch-K-after.png`). Each step's line says what it changed
(`changes`: the window, elements that appeared or disappeared, values), read from the state
before and after it. Replaying takes the steps that
succeeded, with each target pinned to the name it resolved to (ids do not survive a new app
instance; names do), and runs them as a plan: a macro, or a regression test of an app.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from winactions.agent.changes import changes
from winactions.agent.plan import TaskPlan, parse_plan
from winactions.errors import ActionFailed, InvalidInput, WinctlError
from winactions.model import UIState

if TYPE_CHECKING:
    from winactions.agent.actor import Actor
    from winactions.agent.result import StepResult

LOG = "run.jsonl"


class Recorder:
    def __init__(self, folder: Path) -> None:
        if folder.exists() and (folder / LOG).exists():
            raise InvalidInput(f"{folder} already holds a recorded run", hint="record into a new folder")
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise InvalidInput(f"cannot record into {folder}: {exc.strerror}") from None
        self.folder = folder.resolve()
        self._states: dict[tuple[int, str], UIState] = {}  # (step, "before"/"after") → its state

    def event(self, kind: str, **data: Any) -> None:
        line = json.dumps({"event": kind, "time": round(time.time(), 3), **data}, ensure_ascii=False, default=str)
        try:
            with open(self.folder / LOG, "a", encoding="utf-8") as log:
                log.write(line + "\n")
        except OSError as exc:
            raise ActionFailed(
                f"cannot write the record in {self.folder}: {exc.strerror}",
                hint="record into a folder with room and write access",
            ) from None

    def step(self, item: StepResult) -> None:
        """The step's line, with what changed between the states seen before and after it."""
        before, after = (self._states.pop((item.step.step, when), None) for when in ("before", "after"))
        changed = {"changes": changes(before, after)} if before is not None and after is not None else {}
        data = item.model_dump(mode="json")
        data["step"] = item.step.model_dump(mode="json", exclude_unset=True)  # a replay keeps the defaults
        self.event("step", **data, **changed)

    def keep(self, step: int, when: str, state: UIState) -> None:
        """The state seen `when` ("before"/"after") step `step`, for its line's `changes`."""
        self._states[(step, when)] = state

    def screenshot(
        self, actor: Actor, step: int, when: str, state: UIState | None = None, name: str = ""
    ) -> Path | None:
        """The screen saved as `step-N-WHEN.png` (or `NAME-WHEN.png`), and `state` kept for the
        step's line; None when the backend cannot take a picture."""
        if state is not None:
            self.keep(step, when, state)
        stem = f"{name or f'step-{step}'}-{when}"
        path = self.folder / f"{stem}.png"
        again = 2
        while path.exists():  # a step number seen again after a replan keeps its first pictures
            path, again = self.folder / f"{stem}-{again}.png", again + 1
        try:
            actor.call("screenshot", path=str(path))
        except WinctlError:
            return None
        return path


def load_events(folder: str | Path) -> list[dict[str, Any]]:
    path = Path(folder)
    log = path / LOG if path.is_dir() else path
    try:
        lines = log.read_text(encoding="utf-8").splitlines()
    except OSError:
        raise InvalidInput(
            f"no recorded run at {path}", hint=f"give the folder passed to --record (it holds {LOG})"
        ) from None
    events = []
    for number, line in enumerate(lines, 1):
        try:
            events.append(json.loads(line))
        except ValueError:
            raise InvalidInput(f"{log} line {number} is not JSON", hint="the record is damaged") from None
    return events


def replay_plan(folder: str | Path) -> tuple[str, TaskPlan]:
    """The task and the plan of a recorded run's successful steps, targets pinned to names,
    with the recorded plan's success criteria: a replay is checked like the run."""
    events = load_events(folder)
    plans = [e for e in events if isinstance(e, dict) and e.get("event") == "plan"]
    task = str(plans[0].get("task", "")) if plans else ""
    steps = []
    for event in events:
        if not isinstance(event, dict) or event.get("event") != "step" or event.get("status") != "success":
            continue
        if not isinstance(event.get("step"), dict):
            raise InvalidInput(f"a step of the record {folder} has no plan step", hint="the record is damaged")
        step = dict(event["step"])
        ref = step.get("target_ref") or ""
        pinned = event.get("pinned")
        # an id of that run's state means nothing now: the element's name and type instead
        if isinstance(ref, str) and ref.startswith("id:") and isinstance(pinned, dict):
            step["target_ref"], step["target_type"] = pinned.get("target_ref"), pinned.get("target_type")
        steps.append(step)
    if not steps:
        raise InvalidInput(f"the run recorded in {folder} has no successful step to replay")
    first = plans[0].get("plan") if plans else None
    recorded: dict[str, Any] = first if isinstance(first, dict) else {}
    criteria = {k: recorded[k] for k in ("success", "success_criteria") if recorded.get(k)}  # the task's, kept
    return task, parse_plan(
        {"analysis": {"replay_of": str(folder)}, "steps": steps, **criteria}, where=f"the record {folder}"
    )
