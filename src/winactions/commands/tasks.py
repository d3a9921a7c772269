"""`run` and `replay`: the task runner (winactions.agent) as commands of the table.

The runner drives the table through `TableActor`, which dispatches on the call being
served — the same session, ids and lock turn — so the CLI, the daemon, the MCP server and
`Desktop.call("run", ...)` all get it without any code of their own.
"""

from __future__ import annotations

import sys
from typing import Any

from pydantic import Field

from winactions import progress
from winactions.agent.plan import StepPlan, TaskPlan, parse_plan
from winactions.agent.record import replay_plan
from winactions.agent.runner import RunOptions, TaskRunner
from winactions.commands.base import Context, Kind, Params, Result, available, command, dispatch
from winactions.commands.results import RunResult
from winactions.commands.saving import record_folder
from winactions.commands.session_replay import SessionReplayResult, replay_session
from winactions.errors import InvalidInput
from winactions.session.recording import is_session_record


class TableActor:
    """The runner's view of the call being served: each command through `dispatch`."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self._names = [c.name for c in available(ctx.session.backend)]

    def call(self, command: str, /, **args: Any) -> Result:
        options = self.ctx.options.model_copy(update={"return_state": False})
        return dispatch(command, args, Context(self.ctx.session, options, outputs=self.ctx.outputs))

    def commands(self) -> list[str]:
        return self._names


class RunParams(Params):
    task: str = Field(description='the task in words, e.g. "write hello in mousepad and save"')
    plan: str | None = Field(None, description="run this JSON plan instead of planning (see the runner's docs)")
    dry_run: bool = Field(False, description="show the plan with every target located; do nothing")
    confirm: bool = Field(False, description="ask on the terminal before each step")
    max_steps: int = Field(30, ge=1, le=500, description="stop after this many steps")
    max_replans: int = Field(2, ge=0, le=20, description="new plans after a failed step")
    max_model_calls: int = Field(8, ge=0, le=200, description="model calls the run may make")
    max_tokens: int = Field(200_000, ge=0, description="model tokens the run may spend")
    timeout: float = Field(
        100.0,
        gt=0,
        le=3600,
        description="seconds for the whole run (a session daemon answers within 120 s: use --no-daemon for longer)",
    )
    record: str | None = Field(None, description="record the run (JSON lines and screenshots) into this folder")
    no_templates: bool = Field(False, description="plan with the model even when an app template matches")
    no_pixels: bool = Field(False, description="find names only in the tree (no OCR, images or vision model)")
    apps: list[str] = Field(default_factory=list, description="more app-module folders (also WINCTL_APPS)")


@command("run", RunParams, kind=Kind.ACTION, positional=("task",), profiles=("tasks",))
def run(ctx: Context, p: RunParams) -> RunResult:
    """Do a task in words: plan it (an app template, else the model), then locate, act and
    verify each step, dismissing dialogs in the way and replanning when a step fails.

    `winctl run "write hello in mousepad and save"`; `--dry-run` shows the plan located and
    does nothing; `--record DIR` keeps a run to `winctl replay DIR` later.

    A run routed to an app module acts on that app's window (launched when none is open). The
    task is `success` only when its success criteria were checked in the app and hold (one
    `check:` line each); `unverified`, exit 10, when its steps ran but that could not be shown;
    `failed`, exit 4, when a step failed or a criterion does not hold."""
    plan = parse_plan(p.plan, where="--plan") if p.plan else None
    options = _options(ctx, p.max_steps, p.max_replans, p.max_model_calls, p.max_tokens, p.record, p.apps, p.confirm)
    options.dry_run, options.use_templates, options.pixels = p.dry_run, not p.no_templates, not p.no_pixels
    options.timeout = p.timeout
    result = TaskRunner(TableActor(ctx), options).run(p.task, plan)
    return RunResult(run=result)


class ReplayParams(Params):
    run: str = Field(description="the folder of a record: `winctl run --record DIR` or `winctl record start DIR`")
    dry_run: bool = Field(False, description="show the recorded steps located now; do nothing")
    record: str | None = Field(None, description="record the replay too, into this folder")
    max_steps: int = Field(100, ge=1, le=1000, description="stop after this many steps")
    timeout: float = Field(100.0, gt=0, le=3600, description="seconds for the whole replay")


@command("replay", ReplayParams, kind=Kind.ACTION, positional=("run",), profiles=("tasks",))
def replay(ctx: Context, p: ReplayParams) -> RunResult | SessionReplayResult:
    """Run a recorded run's successful steps again, with no model (a macro, or a regression
    test of an app), checked by the recorded run's success criteria; a step whose target is gone
    fails and stops the replay.

    A session's record (`winctl record start DIR`, told apart by its log's header) replays its
    acting commands that succeeded: each element found by its recorded name (and type, and
    path), each step checked to act on the recorded element and leave its recorded value; the
    first step that cannot be done stops the replay, which fails naming it and why."""
    if is_session_record(p.run):
        return replay_session(ctx, p.run, dry_run=p.dry_run, record=p.record, max_steps=p.max_steps, timeout=p.timeout)
    task, plan = replay_plan(p.run)
    options = _options(ctx, p.max_steps, 0, 0, 0, p.record, [], False)
    options.dry_run, options.timeout = p.dry_run, p.timeout
    options.llm = None
    runner = TaskRunner(TableActor(ctx), options)
    runner.model.flags = None  # a replay never asks a model, even when one is configured
    return RunResult(run=runner.run(task, plan, source="replay"))


def _options(
    ctx: Context,
    max_steps: int,
    max_replans: int,
    max_calls: int,
    max_tokens: int,
    record: str | None,
    apps: list[str],
    confirm: bool,
) -> RunOptions:
    ask = None
    if confirm:
        if not sys.stdin.isatty():
            raise InvalidInput(
                "--confirm asks on a terminal, and this call has none (a daemon or MCP call)",
                hint="run with --dry-run first to see the plan, or call winctl --no-daemon run",
            )
        ask = _ask
    return RunOptions(
        max_steps=max_steps,
        max_replans=max_replans,
        max_model_calls=max_calls,
        max_tokens=max_tokens,
        record=record_folder(ctx, record),
        apps=apps,
        llm=ctx.options.llm,
        confirm=ask,
        progress=_progress,
    )


def _ask(step: StepPlan, target: str) -> bool:
    sys.stderr.write(f"step {step.step} {step.action.value} {target} {step.params or ''} — do it? [y/N] ")
    sys.stderr.flush()
    return sys.stdin.readline().strip().lower() in ("y", "yes")


def _progress(line: str) -> None:
    """One line per step on stderr, as it happens (stdout keeps the result), and the step as
    the call's progress: through the daemon the client's terminal shows it live, and an MCP
    client that asked for progress gets it as notifications."""
    progress.step(f"run: {line}")
    sys.stderr.write(f"run: {line}\n")
    sys.stderr.flush()


__all__ = ["TableActor", "TaskPlan"]
