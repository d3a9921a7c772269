"""Planner: a task in words → a `TaskPlan`. Templates first (free), then the model.

The model sees the task, the compact state (id, type, name of each element) and, only when
the tree says little (fewer than a handful of named elements), a screenshot. Its reply is
validated like any plan; a malformed one is sent back once with the error, then fails clearly.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from PIL import Image

from winactions.agent.apps import AppModule, ModuleRegistry
from winactions.agent.hooks import call_hook
from winactions.agent.images import catalogue
from winactions.agent.model import Model
from winactions.agent.plan import PLAN_HINT, Action, PlanSource, StepPlan, TaskPlan, parse_plan
from winactions.agent.success import keys as success_keys
from winactions.errors import InvalidInput, LLMFailed
from winactions.model import UIState

MAX_LISTED = 150  # elements shown to the model; the rest are summarised
FEW_NAMES = 4  # below this many named elements the tree says too little: send the screen too

SYSTEM = f"""You plan desktop UI tasks as JSON for an automation runner.
Reply with one JSON object: {{"analysis": {{...}}, "steps": [...], "success_criteria": "...",
"success": {{...}}, "potential_issues": [...]}}. Each step: {{"action": A, "target_ref": R, "target_type": T,
"params": {{...}}, "description": "...", "expect": {{...}}, "fallback": {{...}}}}.
Actions: {", ".join(a.value for a in Action)}.
- click/tap/long_press need target_ref. input_text needs params.text (target_ref or target_type
  names the field; without them it types where the keyboard focus is). press_key needs
  params.keys like "ctrl+s" or "Down Enter". scroll/swipe take params.direction (up/down/left/right).
  wait takes params.duration in ms. launch_app takes params.command (a list), open_url params.url.
- target_ref: an element's NAME exactly as listed (a bare string is always a name, never an id),
  or "id:N" for an id of the listed state, "text:WORDS" for painted text, "dynamic:DESCRIPTION"
  only when nothing in the list fits. target_type narrows a name by its type (Button, Edit, ...).
- expect (checked by code, cheap): appears / disappears (a name), value (the target's text after),
  title (window title contains), changed (true/false). Use success_condition (words, costs a
  model call) only when no expect can say it.
- fallback, for a target that may be out of view: {{"action": "scroll", "params": {{"direction": "down"}}}}.
- A step that opens a dialog or window says so (expect window_changed: true, or appears: NAME)
  unless the next step acts in it. "success" (checked by code after the last step) says what
  must hold when the task is done, by these keys: {success_keys()}; a file is an absolute
  path, e.g. {{"file": "/home/u/a.txt", "file_contains": "hello", "title_lacks": "*"}}.
  Without it the task is only unverified.
Example: {PLAN_HINT}"""


@dataclass
class Planned:
    plan: TaskPlan
    source: PlanSource
    module: AppModule | None
    template: str | None = None
    score: float = 0.0


def compact_state(state: UIState) -> str:
    """The state as the model sees it: one line per element, id, type and name."""
    lines = [f'window: "{state.window.title}" ({state.window.process})']
    for target in state.targets[:MAX_LISTED]:
        value = f" = {target.value[:40]!r}" if target.value else ""
        marks = " (focused)" if "focused" in target.states else ""
        lines.append(f'[{target.id}] {target.type} "{target.name[:80]}"{value}{marks}')
    if len(state.targets) > MAX_LISTED:
        lines.append(f"... {len(state.targets) - MAX_LISTED} more elements not listed")
    return "\n".join(lines)


Screen = Callable[[], "Image.Image | None"] | None  # takes a screenshot when called


def needs_screen(state: UIState) -> bool:
    return sum(1 for t in state.targets if t.name.strip()) < FEW_NAMES


def _shot(screen: Screen, state: UIState) -> Image.Image | None:
    """The screen, only when the tree says too little for the model to plan from it."""
    return screen() if screen is not None and needs_screen(state) else None


def about(module: AppModule | None) -> str:
    """What the model is told of the routed app: its module's instructions and the reference
    images it ships (each usable as `image:NAME`, or by a bare alias)."""
    if module is None:
        return ""
    text = f"\n\nAbout this app ({module.name}):\n{module.prompt.strip()}" if module.prompt else ""
    images = catalogue(module.images)
    if images:
        lines = [
            f"- image:{name}" + (f" (also by name: {', '.join(repr(a) for a in aliases)})" if aliases else "")
            for name, aliases in images.items()
        ]
        text += (
            f"\n\nReference images of {module.name} (a target_ref may name one, matched in the screenshot):\n"
            + "\n".join(lines)
        )
    return text


def _hook_plan(module: AppModule, task: str, state: UIState) -> TaskPlan | None:
    """The module handler's `plan(task, state)`: a plan in JSON shape (validated like any), or None."""
    hook = module.hook("plan")
    if hook is None:
        return None
    raw = call_hook(hook, "plan", module.folder, task, state)
    if raw is None:
        return None
    return parse_plan(raw, where=f"{module.folder / 'handler.py'} plan()")


class Planner:
    def __init__(self, model: Model, registry: ModuleRegistry) -> None:
        self.model = model
        self.registry = registry

    def plan(self, task: str, state: UIState, screen: Screen = None, use_templates: bool = True) -> Planned:
        """A template's plan when one matches (no model call), else the model's."""
        module, score = self.registry.route(task, state.window.process, state.window.title)
        if module is not None and use_templates:
            coded = _hook_plan(module, task, state)
            if coded is not None:
                return Planned(coded, "template", module, "handler.plan", score)
            found = module.template_plan(task)
            if found is not None:
                return Planned(found[0], "template", module, found[1], score)
        prompt = f"Task: {task}\n\nCurrent state:\n{compact_state(state)}" + about(module)
        return Planned(self._ask(prompt, _shot(screen, state)), "model", module, None, score)

    def replan(
        self,
        task: str,
        state: UIState,
        failed_step: StepPlan | None,
        reason: str,
        executed: list[StepPlan],
        screen: Screen = None,
        module: AppModule | None = None,
    ) -> TaskPlan:
        """New steps from the current state to the goal, told what was done and what failed."""
        done = [s.model_dump(exclude_defaults=True, exclude={"step"}) for s in executed]
        failed = failed_step.model_dump(exclude_defaults=True, exclude={"step"}) if failed_step else None
        prompt = (
            f"Task: {task}\n\nSteps already done (do not repeat them): {json.dumps(done, ensure_ascii=False)}\n"
            f"This step failed: {json.dumps(failed, ensure_ascii=False)}\nWhy: {reason}\n\n"
            f"Current state:\n{compact_state(state)}\n\n"
            "Plan only the remaining steps from this state to the goal; do not use a name that is "
            "not in the current state unless it must be scrolled into view (then give a fallback)."
        )
        return self._ask(prompt + about(module), _shot(screen, state))

    def _ask(self, prompt: str, screen: Image.Image | None) -> TaskPlan:
        images = [screen] if screen is not None else []
        raw: Any = self.model.ask(SYSTEM, prompt, images, want=dict)
        try:
            return parse_plan(raw, where="the model's plan")
        except InvalidInput as first:
            if not self.model.left:
                raise
            retry = f"{prompt}\n\nYour previous reply was rejected: {first.message}. Reply with a corrected plan."
            raw = self.model.ask(SYSTEM, retry, images, want=dict)
            try:
                return parse_plan(raw, where="the model's plan")
            except InvalidInput as second:
                raise LLMFailed(
                    f"the model gave no valid plan twice: {second.message}",
                    hint="try a stronger model, or phrase the task more concretely",
                ) from None
