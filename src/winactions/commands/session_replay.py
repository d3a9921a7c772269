"""A session's record acted again (`winctl replay DIR` on a folder of `winctl record start`).

No model is asked. The record's acting commands that succeeded are dispatched again in order,
each element found by its recorded name, as `click Name` finds it (narrowed by its recorded
type, then its path, when several share the name; by type and path alone when it has no name),
and each step checked against the record: the element acted on is the one recorded (type and
name), and its value after the step is the recorded one. The first step that cannot be done or
does not come out as recorded stops the replay, which fails saying which step and why. Reading
commands, failed commands and commands that ran others (their inner commands are replayed) are
not acted again; a step whose text was a secret (masked) cannot be.
"""

from __future__ import annotations

import time
from typing import Any

from winactions.candidates import named
from winactions.commands.base import Context, Result, dispatch, load_commands
from winactions.commands.formats import clean, safe
from winactions.commands.recorder import ACTING, ref_fields
from winactions.commands.saving import record_folder
from winactions.errors import ActionFailed, InvalidInput, NotFound, WinctlError
from winactions.model import UIState
from winactions.session import recording as rec
from winactions.session.references import NAME_PREFIX

NOT_REPLAYED = ("run", "replay")  # commands whose work is their inner commands' (kept `within` them)


class ReplayedStep(Result):
    """One step of a replayed session record: the recorded command, where it acted now, and
    how it ended (`done`, `located` on a dry run, `failed` with the reason)."""

    step: int
    command: str
    element: str = ""
    status: str = "done"
    reason: str = ""


class SessionReplayResult(Result):
    """`replay` of a session record: each step replayed, and the one that stopped it."""

    record: str
    steps: list[ReplayedStep]
    total: int  # acting steps the record holds
    dry_run: bool = False
    recorded_into: str | None = None

    def text(self) -> str:
        """`replayed N of M steps of DIR` (or `failed at step K`), then one line per step."""
        failed = next((s for s in self.steps if s.status == "failed"), None)
        done = sum(s.status in ("done", "located") for s in self.steps)
        head = "located" if self.dry_run else "replayed"
        lines = [f"{head} {done} of {self.total} steps of {safe(self.record)}"]
        if failed is not None:
            lines[0] = f"failed at step {failed.step} ({safe(failed.command)}); {lines[0]}"
        for s in self.steps:
            what = f" {s.element}" if s.element else ""  # made by `_described`, its name cleaned
            lines.append(
                f"{s.step}. {safe(s.command)}{what}: {s.status}" + (f" — {safe(s.reason)}" if s.reason else "")
            )
        if self.recorded_into:
            lines.append(f"recorded in {safe(self.recorded_into)}")
        return "\n".join(lines)

    def failure(self) -> WinctlError | None:
        """ActionFailed naming the step that stopped the replay; None when every step held."""
        failed = next((s for s in self.steps if s.status == "failed"), None)
        if failed is None:
            return None
        where = f"{safe(failed.command)} {failed.element}".strip()
        return ActionFailed(
            f"the replay stopped at step {failed.step} ({where}): {safe(failed.reason)}",
            hint="the steps above say what was done; look at the app, or record the session again",
        )


def replay_session(
    ctx: Context, folder: str, *, dry_run: bool, record: str | None, max_steps: int, timeout: float
) -> SessionReplayResult:
    """Act the record in `folder` again (see the module); `record`: keep the replay itself as a
    session record there, as `record start` would."""
    _, calls = rec.read(folder)
    steps = replayable(calls)
    if not steps:
        raise InvalidInput(
            f"the session recorded in {folder} has no acting command that succeeded",
            hint="a record keeps reads too, but a replay acts only what changed the app",
        )
    into = record_folder(ctx, record) if record else None
    store = ctx.session.store
    before = rec.stop(store) if into else None  # the session's own recording pauses for the replay's
    if into:
        rec.start(store, into)
    done: list[ReplayedStep] = []
    deadline = time.monotonic() + timeout
    try:
        for call in steps[:max_steps]:
            step = ReplayedStep(step=int(call["step"]), command=str(call["command"]), element=_label(call))
            done.append(step)
            if time.monotonic() > deadline:
                step.status, step.reason = "failed", f"the replay's {timeout:.0f}s ran out"
                break
            try:
                _one(ctx, call, step, dry_run)
            except WinctlError as exc:
                step.status, step.reason = "failed", exc.message
            if step.status == "failed":
                break
    finally:
        if into:
            rec.stop(store)
        if before is not None:
            rec.save(store, before)
    return SessionReplayResult(record=str(folder), steps=done, total=len(steps), dry_run=dry_run, recorded_into=into)


def replayable(calls: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The calls a replay acts, in order: acting ones that succeeded, not those that only ran
    others (their inner calls are replayed instead)."""
    containers = {c.get("within") for c in calls if c.get("within") is not None}
    return sorted(
        (
            c
            for c in calls
            if c.get("kind") in ACTING
            and c.get("ok") is True
            and c.get("step") not in containers
            and c.get("command") not in NOT_REPLAYED
            and isinstance(c.get("step"), int)
        ),
        key=lambda c: int(c["step"]),
    )


def _one(ctx: Context, call: dict[str, Any], step: ReplayedStep, dry_run: bool) -> None:
    """Replay one call into `step`: its element found now, the command dispatched, its
    outcome checked; `step.status` "failed" with the reason when it does not hold."""
    name = str(call["command"])
    cmd = load_commands().get(name)
    if cmd is None:
        step.status, step.reason = "failed", f"winctl has no command {name!r} now"
        return
    if call.get("masked"):
        step.status, step.reason = "failed", "its text went into a password field and the record does not keep it"
        return
    args = dict(call.get("args") or {})
    element = call.get("element")
    for field in ref_fields(cmd.params):
        if field in args and isinstance(element, dict):
            args[field] = _ref_now(ctx, element)
            if dry_run:  # found now, or NotFound saying why not; nothing is acted on
                found, _ = ctx.session.resolve_to_read(args[field], ctx.window())
                step.reason = f"now [{found.id}]"
    if dry_run:
        step.status = "located"
        return
    options = ctx.options.model_copy(update={"return_state": False, "max_elements": None})
    result = dispatch(name, args, Context(ctx.session, options, outputs=ctx.outputs))
    problem = result.failure()
    if problem is not None:
        step.status, step.reason = "failed", problem.message
        return
    if isinstance(element, dict):
        step.reason = _differs(ctx, element, result)
        step.status = "failed" if step.reason else "done"


def _ref_now(ctx: Context, element: dict[str, Any]) -> int | str:
    """The recorded element in the window now: its name, resolved as `click Name` resolves it,
    or — when several elements share it, or it has none — the id of the one element of its
    type (and path) so named; NotFound when no element fits."""
    name, kind, path = str(element.get("name") or ""), str(element.get("type") or ""), element.get("path")
    state = ctx.session.refresh_state(ctx.window())
    tree = "" if element.get("source") else NAME_PREFIX  # a tree element is looked for in the tree only
    if name and len(named(state.targets, name)) <= 1:
        return tree + name
    fits = [t for t in (named(state.targets, name) if name else state.targets) if t.type == kind]
    if len(fits) > 1:
        fits = [t for t in fits if rec.element(t, state)["path"] == path]
    if len(fits) == 1:
        return fits[0].id
    if name:
        return tree + name  # the resolution says what it finds (out of view, in pixels) or why not
    where = " > ".join(path) if isinstance(path, list) else ""
    raise NotFound(
        f"no single unnamed {kind} at {where or 'the window top'} now ({len(fits)} fit)",
        hint="the window changed since the record; record the session again",
    )


def _differs(ctx: Context, element: dict[str, Any], result: Result) -> str:
    """Why the step's outcome is not the recorded one ("" when it is): another element acted
    on, or another value after."""
    acted = getattr(result, "target", None)
    if acted is None:
        return ""
    if acted.type != element.get("type") or (element.get("name") and acted.name != element.get("name")):
        return (
            f"it acted on {_described({'type': acted.type, 'name': acted.name})}, the record on {_described(element)}"
        )
    wanted = element.get("value_after")
    if wanted is None:
        return ""
    state: UIState = ctx.session.settled_state()
    now = next((t for t in state.targets if t.id == acted.id), None)
    if now is not None and (now.value or "") != wanted:
        return f"its value is {safe(repr(now.value or ''))}, the record's {safe(repr(wanted))}"
    return ""


def _described(element: dict[str, Any]) -> str:
    """`[Type] "Name"` of a recorded element, its words made safe to print (a record is a file)."""
    kind, name = clean(str(element.get("type") or "?"), 40), clean(str(element.get("name") or ""))
    return f'[{kind}] "{name}"' if name else f"[{kind}]"


def _label(call: dict[str, Any]) -> str:
    element = call.get("element")
    return _described(element) if isinstance(element, dict) else ""
