"""What a recording session keeps of each command as it runs (`winctl record start DIR`).

`dispatch` — the one call path of the CLI, the daemon, MCP and the Python API — runs every
handler through `kept`. While the session records (`winactions.session.recording`), each call
becomes one `call` line of the record: the command and its arguments, the element it acted on
by name, type and path (its id is only this session's), its result or error, the seconds it
took, and for an acting command (kind action or window) the window's pictures before and after
and what changed in its tree. A reading command changes nothing, so it has no pictures and no
changes: its line says what it read. Text typed into a password field is never kept (MASK).

A command another command runs (a `batch` step, a `run` step) is kept too, its line saying the
step it ran `within`: a replay acts the innermost calls, never their container twice.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import BeforeValidator

from winactions.agent.changes import changes
from winactions.errors import ActionFailed, WinctlError
from winactions.model import Target, UIState
from winactions.session import recording as rec

if TYPE_CHECKING:
    from winactions.commands.base import Command, Context, Params, Result

ACTING = ("action", "window")  # kinds whose calls are kept with pictures and changes
RESULT_CHARS = 400  # characters of a result's text kept on its line


@dataclass
class _Open:
    """A call being kept: its record's folder, its step, and the secrets its inner calls typed
    (a `batch` holds its steps' text in its own arguments: it is masked there too)."""

    folder: str
    step: int
    secrets: list[str] = field(default_factory=list)


# the calls being kept in this process, outermost first: a process serves one session, one
# call at a time (the session's lock), so one stack is enough
_OPEN: list[_Open] = []


def kept(ctx: Context, cmd: Command, params: Params, run: Callable[[], Result]) -> Result:
    """`run()` (the command's handler), kept in the session's record when it records; as it
    is otherwise. `params` are the call's as the caller gave them (coordinates in the chosen
    display's, as a replay gives them again). The handler's error is kept and raised again.
    A record that cannot be written (a full disk) stops recording, and the call's result says
    so (`done_on_the_way`): the call did what it did, and the record ends before its step."""
    recording = None if ctx.opened is None or cmd.name.startswith("record ") else rec.current(ctx.session.store)
    if recording is None:
        return run()
    recording.steps += 1
    rec.save(ctx.session.store, recording)
    step, acting = recording.steps, cmd.kind.value in ACTING
    within = _OPEN[-1].step if _OPEN and _OPEN[-1].folder == recording.folder else None
    before = _before(ctx) if acting else ctx.session.data.state
    line: dict[str, Any] = {"event": "call", "step": step, "within": within, "command": cmd.name}
    line |= {"kind": cmd.kind.value, "time": round(time.time(), 3)}
    folder = Path(recording.folder)
    if acting:
        line["before"] = rec.picture(ctx.session.backend, _window_rect(before), folder / f"step-{step}-before.jpg")
    referred = _referred(params, before)
    started, this = time.monotonic(), _Open(recording.folder, step)
    _OPEN.append(this)
    outcome: Result | Exception
    try:
        outcome = run()
    except Exception as exc:
        outcome = exc
    finally:
        _OPEN.pop()
    line["seconds"] = round(time.monotonic() - started, 3)
    try:
        hidden = _keep(ctx, recording, line, (params, referred, before, this.secrets), outcome)
    except ActionFailed as lost:  # the record cannot be written; the call itself is done
        rec.stop(ctx.session.store)
        hidden = []
        ctx.session.done_on_the_way.append(f"{lost.message}; recording stopped before step {step}")
    if _OPEN:  # the call that ran this one holds its arguments too
        _OPEN[-1].secrets.extend(hidden)
    if isinstance(outcome, Exception):
        raise outcome
    return outcome


def _keep(
    ctx: Context,
    recording: rec.Recording,
    line: dict[str, Any],
    call: tuple[Params, Target | None, UIState | None, list[str]],
    outcome: Result | Exception,
) -> list[str]:
    """The call's line completed and added to the record; for an acting call, with the state
    after it and the window's picture. The secrets masked in it."""
    acting = line["kind"] in ACTING
    after = _after(ctx) if acting else None
    hidden = _finish(line, *call, outcome, after)
    if acting:
        if after is not None:
            line["window"] = {"title": after.window.title, "process": after.window.process}
        path = Path(recording.folder) / f"step-{line['step']}-after.jpg"
        line["after"] = rec.picture(ctx.session.backend, _window_rect(after), path)
    rec.append(recording, line)
    return hidden


def _finish(
    line: dict[str, Any],
    params: Params,
    referred: Target | None,
    before: UIState | None,
    inner: list[str],
    outcome: Result | Exception,
    after: UIState | None,
) -> list[str]:
    """Fill the line with what the call did: its element, its arguments, its result or error,
    and what changed between `before` and `after` — each without the text it typed into a
    password field, nor what its `inner` calls did (the secrets returned)."""
    acted = getattr(outcome, "target", None)
    target = acted if isinstance(acted, Target) else referred
    secret = rec.is_secret(target) or (target is None and rec.is_secret(rec.focused(before)))
    args = params.model_dump(mode="json", exclude_defaults=True)
    hide = [*inner, *(v for k, v in args.items() if secret and k in ("text", "value") and isinstance(v, str) and v)]
    line["args"] = _scrubbed(rec.masked(args, secret), hide)
    if hide:
        line["masked"] = True
    if target is not None:
        holding = next(
            (s for s in (before, after) if s is not None and any(t.id == target.id for t in s.targets)), None
        )
        line["element"] = rec.element(target, holding)
        now = next((t for t in after.targets if t.id == target.id), None) if after is not None else None
        if now is not None and not secret:
            line["element"]["value_after"] = now.value
    line["ok"] = not isinstance(outcome, Exception)
    if isinstance(outcome, Exception):
        found = outcome.to_dict() if isinstance(outcome, WinctlError) else {"code": "internal", "message": str(outcome)}
        line["error"] = {k: _scrubbed(v, hide) for k, v in found.items()}
    else:
        line["result"] = _scrubbed(outcome.text(), hide)[:RESULT_CHARS]
    if before is not None and after is not None:
        line["changes"] = [_scrubbed(c, hide) for c in changes(before, after)]
    return hide


def _before(ctx: Context) -> UIState | None:
    """The window's state before an acting call: the session's latest when it is of the window
    the call acts on (a recording session reads it after each act), else read now."""
    try:
        window = ctx.window()
        state = ctx.session.data.state
        if state is not None and state.window.id == window.id:
            return state
        return ctx.session.refresh_state(window)
    except WinctlError:
        return None
    finally:
        ctx.forget_window()  # the handler resolves its window itself, as it would unrecorded


def _after(ctx: Context) -> UIState | None:
    """The state once the UI settled after an acting call, None when there is no window to read."""
    try:
        return ctx.session.settled_state()
    except WinctlError:
        return None


def _window_rect(state: UIState | None) -> Any:
    return state.window.rect if state is not None else None


def ref_fields(params: type[Params]) -> list[str]:
    """The parameters that take an element reference (an id or a name: `Ref` and its kin)."""
    return [
        name
        for name, info in params.model_fields.items()
        if any(
            isinstance(m, BeforeValidator) and getattr(m.func, "__name__", "") == "element_ref" for m in info.metadata
        )
    ]


def _referred(params: Params, state: UIState | None) -> Target | None:
    """The element an id among the parameters names in `state` (the one the caller saw)."""
    for name in ref_fields(type(params)):
        value = getattr(params, name)
        if isinstance(value, int) and state is not None:
            return next((t for t in state.targets if t.id == value), None)
    return None


def _scrubbed(value: Any, secrets: list[str]) -> Any:
    """`value` (text, or lists and dicts of it) with each secret replaced by MASK."""
    if isinstance(value, str):
        for secret in secrets:
            value = value.replace(secret, rec.MASK)
        return value
    if isinstance(value, dict):
        return {k: _scrubbed(v, secrets) for k, v in value.items()}
    if isinstance(value, list):
        return [_scrubbed(v, secrets) for v in value]
    return value
