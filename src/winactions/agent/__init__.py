"""The task runner: a task in words → plan → locate → act → verify, on any backend.

It drives nothing but the command table, through anything with the Python API's call shape
(`winactions.api.Desktop`, or the table itself when `winctl run` serves it).
"""

from winactions.agent.plan import Action, Expect, Fallback, StepPlan, TaskPlan, parse_plan
from winactions.agent.result import StepResult, StepStatus, TaskResult, TaskStatus
from winactions.agent.runner import RunOptions, TaskRunner
from winactions.agent.success import Success, SuccessCheck
from winactions.agent.verify import Suggestion, VerifyResult

__all__ = [
    "Action",
    "Expect",
    "Fallback",
    "RunOptions",
    "StepPlan",
    "StepResult",
    "StepStatus",
    "Success",
    "SuccessCheck",
    "Suggestion",
    "TaskPlan",
    "TaskResult",
    "TaskRunner",
    "TaskStatus",
    "VerifyResult",
    "parse_plan",
]
