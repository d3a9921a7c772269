"""Plan data: a `TaskPlan` of `StepPlan`s, JSON in and out, validated.

A plan comes from a template (trusted, ours) or from a model (untrusted): both go through
`parse_plan`, so a malformed plan is one `InvalidInput` naming the step and field at fault —
which the runner turns into a replan or a clear failure, never a crash.

A step's `target_ref` is unambiguous: a bare string is a *name* (`"Save"`, `"7"` is the
button named 7, never id 7), `id:N` an id of the current state, `image:NAME` a reference
image, `text:…` painted text, `dynamic:…` a description for the vision model.
"""

from __future__ import annotations

import json
from enum import Enum
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, ValidationError, model_validator

from winactions.agent.shapes import check_params
from winactions.agent.success import Success
from winactions.errors import InvalidInput


class Action(str, Enum):
    """What a step does; `click`/`scroll` are the desktop's words for a phone's `tap`/`swipe`."""

    TAP = "tap"
    CLICK = "click"
    LONG_PRESS = "long_press"
    SWIPE = "swipe"
    SCROLL = "scroll"
    INPUT_TEXT = "input_text"
    PRESS_KEY = "press_key"
    WAIT = "wait"
    GO_HOME = "go_home"
    LAUNCH_APP = "launch_app"
    OPEN_URL = "open_url"
    CALL = "call"  # dial params.number through the platform's tel: handler


# Level 0: act, no check (launch, wait, keys, go_home, open_url, call).
LEVEL0 = frozenset({Action.WAIT, Action.PRESS_KEY, Action.GO_HOME, Action.LAUNCH_APP, Action.OPEN_URL, Action.CALL})
# What a level-0 step waits after acting unless it says `wait_after` (ms): an app takes a
# moment to start, a page to load.
LEVEL0_WAIT = {Action.LAUNCH_APP: 500, Action.OPEN_URL: 2500, Action.CALL: 500}
LEVEL0_WAIT_OTHER = 100
REF_PREFIXES = ("id", "image", "text", "dynamic")


def _checked_ref(value: str | None) -> str | None:
    """A target_ref as written, stripped; `ValueError` for an empty one or a bad prefix."""
    if value is None:
        return None
    value = value.strip()
    if not value:
        raise ValueError("target_ref is empty")
    prefix, sep, rest = value.partition(":")
    if sep and prefix == "id" and not rest.strip().isdigit():
        raise ValueError(f"{value!r}: id: takes a number from the state, e.g. id:12")
    if sep and prefix in REF_PREFIXES and not rest.strip():
        raise ValueError(f"{value!r} names nothing after {prefix}:")
    return value


TargetRef = Annotated[str | None, AfterValidator(_checked_ref)]


class Fallback(BaseModel):
    """What to do when a step's target is not found, before looking again (up to 3 times)."""

    model_config = ConfigDict(extra="forbid")

    action: Action
    target_ref: TargetRef = None
    params: dict[str, Any] = Field(default_factory=dict)
    description: str = ""

    @model_validator(mode="before")
    @classmethod
    def _back_by_default(cls, data: Any) -> Any:
        """A press_key fallback that names no key presses BACK (key code 4), as phone plans mean."""
        if isinstance(data, dict) and data.get("action") == "press_key" and not data.get("params"):
            return {**data, "params": {"keycode": 4}}
        return data

    @model_validator(mode="after")
    def _fits(self) -> Fallback:
        """A fallback is checked like a step when the plan is read: a bad one is refused there,
        naming its field, not met as a crash when the runner reaches it."""
        check_params(self.action.value, self.params, bool(self.target_ref))
        return self

    def as_step(self, step: int, wait_after: int = 500) -> StepPlan:
        """The fallback as a step of its own (already checked: this does not fail)."""
        return StepPlan(
            step=step, action=self.action, target_ref=self.target_ref, params=self.params, wait_after=wait_after
        )


class Expect(BaseModel):
    """An outcome checked without a model. Names are element names of the tree."""

    model_config = ConfigDict(extra="forbid")

    appears: str | None = Field(default=None, description="an element of this name is on screen afterwards")
    disappears: str | None = Field(default=None, description="no element of this name is left")
    text: dict[str, str] | None = Field(default=None, description="element name → text (or value) it must hold")
    contains: dict[str, str] | None = Field(default=None, description="element name → text its text must contain")
    title: str | None = Field(default=None, description="the window title contains this")
    window_changed: bool | None = Field(default=None, description="another window (or app) is in front")
    image: str | None = Field(default=None, description="this reference image is on screen")
    no_image: str | None = Field(default=None, description="this reference image is not on screen")
    value: str | None = Field(default=None, description="the step's own target holds this text (or value) afterwards")
    changed: bool | None = Field(default=None, description="anything changed at all (the tree or the pixels)")

    @property
    def empty(self) -> bool:
        return not any(v is not None for v in self.model_dump().values())


class StepPlan(BaseModel):
    """One step of a plan; `expect` holds outcomes checked by code."""

    model_config = ConfigDict(extra="forbid")

    step: int = Field(ge=1)
    action: Action
    target_ref: TargetRef = None
    target_type: str | None = None  # a role ("Button", "Edit") narrowing a name; also icon/ui/dynamic
    description: str = ""
    params: dict[str, Any] = Field(default_factory=dict)
    verify_ref: str | None = None  # a reference image that must be on screen afterwards
    success_condition: str | None = None  # in words: the only check that needs a model
    expect: Expect | None = None
    fallback: Fallback | None = None
    timeout: int = Field(default=3000, ge=0, le=600_000)  # ms
    retry: int = Field(default=2, ge=0, le=5)
    wait_before: int = Field(default=0, ge=0, le=60_000)  # ms
    wait_after: int = Field(default=300, ge=0, le=60_000)  # ms

    @model_validator(mode="after")
    def _fits(self) -> StepPlan:
        check_params(self.action.value, self.params, bool(self.target_ref))
        return self

    @property
    def settle_ms(self) -> int:
        """Milliseconds to wait after acting: `wait_after` when the step gives it, else for a
        level-0 step its action's own wait (launch_app 500, open_url 2500, others 100)."""
        if "wait_after" in self.model_fields_set or self.level > 0:
            return self.wait_after
        return LEVEL0_WAIT.get(self.action, LEVEL0_WAIT_OTHER)

    @property
    def level(self) -> int:
        """The step's execution level: 0 act blind, 1 known scroll, 2 tree/template target, 3 model target."""
        if self.action in LEVEL0:
            return 0
        if self.action in (Action.SWIPE, Action.SCROLL) and not self.target_ref:
            return 1
        if not self.target_ref and "x" in self.params:  # a tap or long press at a known point
            return 1
        if (self.target_ref or "").startswith("dynamic:") or self.success_condition:
            return 3
        return 2 if self.target_ref or self.action is not Action.INPUT_TEXT else 0


class TaskPlan(BaseModel):
    model_config = ConfigDict(extra="forbid")

    analysis: dict[str, Any] = Field(default_factory=dict)
    steps: list[StepPlan]
    success_criteria: str = ""
    success: Success | None = None  # checked by code after the last step (`agent.success`)
    potential_issues: list[str] = Field(default_factory=list)

    @model_validator(mode="after")
    def _numbered(self) -> TaskPlan:
        for index, step in enumerate(self.steps, 1):
            step.step = index  # models number loosely; the runner reports by position
        return self


PlanSource = Literal["template", "model", "replan", "given", "replay"]


def parse_plan(raw: Any, *, where: str = "the plan") -> TaskPlan:
    """A validated plan from JSON text or already-decoded data; errors name step and field."""
    if isinstance(raw, str):
        try:
            raw = json.loads(raw)
        except ValueError as exc:
            raise InvalidInput(f"{where} is not JSON: {exc}", hint=PLAN_HINT) from None
    if isinstance(raw, list):
        raw = {"steps": raw}
    if not isinstance(raw, dict):
        raise InvalidInput(f"{where} must be a JSON object with steps", hint=PLAN_HINT)
    if isinstance(raw.get("steps"), list):  # models often omit step numbers
        raw = {
            **raw,
            "steps": [
                ({"step": i, **s} if isinstance(s, dict) and "step" not in s else s)
                for i, s in enumerate(raw["steps"], 1)
            ],
        }
    try:
        return TaskPlan.model_validate(raw)
    except ValidationError as exc:
        problems = []
        for err in exc.errors()[:4]:
            loc = list(err["loc"])
            if len(loc) >= 2 and loc[0] == "steps" and isinstance(loc[1], int):
                loc = [f"step {loc[1] + 1}", *loc[2:]]
            problems.append(f"{'.'.join(str(p) for p in loc) or 'plan'}: {err['msg']}")
        raise InvalidInput(f"{where} is not a valid plan: " + "; ".join(problems), hint=PLAN_HINT) from None


PLAN_HINT = (
    'a plan is {"steps": [{"action": "click", "target_ref": "Save"}, '
    '{"action": "input_text", "target_ref": "Name", "params": {"text": "x"}}]}'
)
