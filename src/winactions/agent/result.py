"""What a run returns: each step's result and the task's, with its status.

A task is `success` only when its success criteria were checked and hold (`checks`);
`unverified` when the steps ran but its success could not be shown (the checks say what
could not be checked); `failed` when a step failed or a criterion does not hold.
"""

from __future__ import annotations

from enum import Enum
from typing import Any

from pydantic import BaseModel, Field

from winactions.agent.plan import PlanSource, StepPlan, TaskPlan
from winactions.agent.success import SuccessCheck
from winactions.agent.verify import VerifyResult


class StepStatus(str, Enum):
    PENDING = "pending"
    RUNNING = "running"
    SUCCESS = "success"
    FAILED = "failed"
    SKIPPED = "skipped"
    PLANNED = "planned"  # dry run: located, not done


class TaskStatus(str, Enum):
    PENDING = "pending"
    RUNNING = "running"
    SUCCESS = "success"
    FAILED = "failed"
    ABORTED = "aborted"
    PLANNED = "planned"
    UNVERIFIED = "unverified"  # the steps ran, but the task's success could not be shown (`checks` say why)


class StepResult(BaseModel):
    step: StepPlan
    status: StepStatus = StepStatus.PENDING
    level: int = 0
    target: str = ""  # where it acted, and how that was found
    pinned: dict[str, str | None] | None = None  # the target by name and type, for a replay
    call: dict[str, Any] = Field(default_factory=dict)  # the command it ran
    batch: int | None = None  # level-0 steps sent in one `batch` call share a number
    start_time: float = 0.0
    end_time: float = 0.0
    retry_count: int = 0
    fallbacks: int = 0
    model_calls: int = 0  # what this step cost in model calls (a model target, a check in words, advice)
    error: str = ""
    verify: VerifyResult | None = None
    dismissals: list[dict[str, Any]] = Field(default_factory=list)
    screenshot_before: str | None = None
    screenshot_after: str | None = None


class TaskResult(BaseModel):
    task: str
    status: TaskStatus = TaskStatus.PENDING
    plan: TaskPlan | None = None
    plan_source: PlanSource | None = None
    module: str | None = None
    template: str | None = None
    route_score: float = 0.0
    step_results: list[StepResult] = Field(default_factory=list)
    checks: list[SuccessCheck] = Field(default_factory=list)  # the task's success criteria, checked after the last step
    prepared: list[str] = Field(default_factory=list)  # done before the first step: the app launched, a dialog closed
    replans: int = 0
    model: dict[str, float] = Field(default_factory=dict)  # calls, tokens, seconds
    total_time: float = 0.0
    error: str = ""
    record: str | None = None

    @property
    def ok(self) -> bool:
        return self.status in (TaskStatus.SUCCESS, TaskStatus.PLANNED)
