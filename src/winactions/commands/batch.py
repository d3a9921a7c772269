"""`batch`: several commands in one call.

One round trip for a known sequence — fill three fields and press Save — with each step
reported. It stops at the first failure unless told otherwise, so later steps never act
on a screen the agent has not seen.
"""

from __future__ import annotations

import json
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from winactions.commands.base import REGISTRY, Context, Kind, Params, Result, command, dispatch
from winactions.commands.results import BatchResult, BatchStep
from winactions.errors import InvalidInput, WinctlError, shown

EXAMPLE = 'steps are a JSON list: [{"command": "click", "args": {"id": 3}}, {"command": "state"}]'


class Step(BaseModel):
    model_config = ConfigDict(extra="forbid")

    command: str = Field(description='a command name, e.g. "click" or "get text"')
    args: dict[str, Any] = Field(default_factory=dict, description="its parameters by name")


class BatchParams(Params):
    steps: list[Step] | str = Field(description='the steps: a JSON list like [{"command": "click", "args": {"id": 3}}]')
    keep_going: bool = Field(False, description="run the remaining steps after a failure")


@command("batch", BatchParams, kind=Kind.ACTION, positional=("steps",), profiles=("core",))
def batch(ctx: Context, p: BatchParams) -> BatchResult:
    """Run several commands in order and report each step.

    `winctl batch '[{"command": "input", "args": {"id": 5, "text": "Ada"}},
                    {"command": "keys", "args": {"keys": "ctrl+s"}}]'`
    """
    steps = _parse(p.steps)
    if not steps:
        raise InvalidInput("batch has no steps", hint='give a JSON list like [{"command": "state"}]')
    report: list[BatchStep] = []
    for index, step in enumerate(steps, 1):
        name = _command_name(step.command)
        if name == "batch":
            raise InvalidInput(f"step {index}: a batch cannot contain a batch", hint="flatten the steps")
        if name is None:
            raise InvalidInput(f"step {index}: unknown command {shown(step.command)}", hint="see `winctl --help`")
        try:
            result: Result = dispatch(name, step.args, ctx)
            ctx.forget_window()
            report.append(BatchStep(step=index, command=step.command, ok=True, result=result))
        except WinctlError as exc:
            report.append(BatchStep(step=index, command=step.command, ok=False, error=exc.to_dict()))
            if not p.keep_going:
                break
    return BatchResult(steps=report, completed=sum(1 for r in report if r.ok), total=len(steps))


def _command_name(given: str) -> str | None:
    """A command by its CLI name ("click-element", "get text") or its MCP tool name ("click_element")."""
    if given in REGISTRY:
        return given
    return next((c.name for c in REGISTRY.values() if c.tool_name == given), None)


def _parse(steps: list[Step] | str) -> list[Step]:
    if not isinstance(steps, str):
        return steps
    try:
        raw = json.loads(steps)
    except ValueError as exc:
        raise InvalidInput(f"steps are not JSON: {exc}", hint=EXAMPLE) from None
    if not isinstance(raw, list):
        raise InvalidInput("steps must be a JSON list", hint=EXAMPLE)
    try:
        return [Step.model_validate(item) for item in raw]
    except ValueError as exc:
        raise InvalidInput(f"bad step: {exc}".splitlines()[0], hint=EXAMPLE) from None
