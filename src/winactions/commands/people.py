"""People beside the agent: the status indicator and teach mode.

The status label says, at the bottom of the window the agent works in, what it is doing;
teach mode shows a person one step at a time — an element ringed, the step's text, Next —
after the person allowed it. Both are drawn by the session's overlay process
(`winactions.overlays`); these commands tell it what to show and check it shows. While the
label shows, every action and window command of the session puts its name and target on it
(`_say_doing`).
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from winactions.backends.base import Capability
from winactions.commands.base import BEFORE_ACTION, Command, Context, Kind, OptionalRef, Params, Result, command
from winactions.commands.formats import clean, safe
from winactions.errors import ActionFailed, BackendUnavailable, InvalidInput, NotFound, WaitTimeout, shown
from winactions.model import Rect, WindowInfo
from winactions.overlays import channel

STEP_WAIT = 60.0  # s a teach step waits for Next unless told
MAX_WAIT = 110.0  # s a teach call waits at most: a daemon's call must end within its deadline (120 s)
ASK = (
    "The agent asks to guide you step by step on this screen: it will ring what to look at, "
    "say what to do, and wait for you to click Next."
)


def _folder(ctx: Context) -> Path:
    store = ctx.session.store
    return channel.folder(store.directory, store.name)


def _box(rect: Rect) -> list[int]:
    return [rect.left, rect.top, rect.right, rect.bottom]


def _rect(value: Any) -> Rect | None:
    return Rect(left=value[0], top=value[1], right=value[2], bottom=value[3]) if value else None


def labelled_window(ctx: Context) -> WindowInfo:
    """The window the status label goes under: the bound window while one is bound (its
    input goes there), else the session's window."""
    bound = ctx.session.backend.bound_window()
    if bound is not None:
        found = next((w for w in ctx.session.backend.list_windows() if w.id == bound), None)
        if found is not None:
            return found
    return ctx.window()


# -- the status indicator --------------------------------------------------------------------
class IndicatorParams(Params):
    action: Literal["show", "hide", "status"] = Field(
        description="show the label, hide it, or status: change its text (report it with no message)"
    )
    message: str | None = Field(None, max_length=200, description="what the agent is doing, in a few words")


class IndicatorResult(Result):
    """`status-indicator`: whether the label shows, its text, where, under which window."""

    action: str
    shown: bool
    message: str = ""
    doing: str = ""  # the action last put on it, after the message
    window: str | None = None  # the labelled window's title, when this call looked it up
    rect: Rect | None = None  # the label on screen

    def text(self) -> str:
        words = f' "{safe(self.message)}"' if self.message else ""
        if not self.shown:
            later = " (shows with `winctl status-indicator show`)" if self.action == "status" and words else ""
            return f"status label hidden{words and ';'}{words}{later}"
        under = f' under "{clean(self.window)}"' if self.window else ""
        at = f" at {self.rect}" if self.rect else ""
        doing = f" · {safe(self.doing)}" if self.doing else ""
        return f"status label shown{under}{at}:{words or ' (no message)'}{doing}"


@command(
    "status-indicator",
    IndicatorParams,
    kind=Kind.SESSION,
    capability=Capability.OVERLAYS,
    positional=("action", "message"),
    profiles=("people",),
)
def status_indicator(ctx: Context, p: IndicatorParams) -> IndicatorResult:
    """Show, hide or change the agent's status label.

    The label sits at the bottom of the agent's window (the bound window while one is bound).
    `show [MESSAGE]` shows it, `status MESSAGE` changes its text, `hide` removes it. While it
    shows, each action puts its name and target after the message, and the label follows the
    window when it moves. Clicks pass through it to the app; perception that reads pixels
    leaves it out.
    """
    where = _folder(ctx)
    if p.action == "hide" or (p.action == "status" and p.message is None):
        if not channel.running(where):
            return IndicatorResult(action=p.action, shown=False)
        before = _rect(channel.ask(where, {"op": "where"})["status"])
        reply = channel.ask(where, {"op": "status", **({"show": False} if p.action == "hide" else {})})
        if p.action == "hide" and before is not None:
            _check_label(ctx, before, gone=True)
        return _indicator(p.action, reply)
    channel.ensure(where)
    window = labelled_window(ctx)
    request: dict[str, Any] = {
        "op": "status",
        "text": p.message,
        "window": window.id,
        "rect": _box(window.rect) if window.rect else None,
        "screens": [_box(s) for s in ctx.session.backend.screens()],
    }
    if p.action == "show":
        request["show"] = True
    reply = channel.ask(where, request)
    if reply["shown"]:
        if not reply["visible"]:
            raise ActionFailed(
                f'the status label cannot show: window "{window.title}" is not on screen (minimized?)',
                hint="restore the window; the label shows under it as soon as it is back",
            )
        _check_label(ctx, _rect(reply["rect"]))
    return _indicator(p.action, reply, window.title)


def _indicator(action: str, reply: dict[str, Any], title: str | None = None) -> IndicatorResult:
    return IndicatorResult(
        action=action,
        shown=reply["shown"],
        message=reply["text"],
        doing=reply.get("doing", ""),
        window=title,
        rect=_rect(reply.get("rect")),
    )


def _check_label(ctx: Context, rect: Rect | None, gone: bool = False) -> None:
    """That the desktop shows a status label at `rect` (`gone`: no longer), as the platform
    sees its windows; ActionFailed when it does not (after a short wait for the map to land)."""
    deadline = time.monotonic() + 2.0
    while True:
        shown = [r for r, instance in ctx.session.backend.overlays() if instance == "status"]
        if (rect in shown) != gone:
            return
        if time.monotonic() > deadline:
            said = "still shows" if gone else "does not show"
            raise ActionFailed(
                f"the screen {said} the status label at {rect} (labels on screen: "
                f"{', '.join(str(r) for r in shown) or 'none'})",
                hint="run the command again; `winctl session close` ends the overlay process",
            )
        time.sleep(0.05)


def _say_doing(ctx: Context, cmd: Command, params: Params) -> None:
    """Put the action about to run on the status label, when the label shows (one short local
    round trip; nothing when no overlay process runs). Only the element is named, never text
    being typed."""
    where = _folder(ctx)
    if not (where / channel.SOCKET).exists():
        return
    ref = getattr(params, "id", None)  # an int is an id; a str a name (the command line gives ids as ints)
    words = cmd.name
    state = ctx.session.data.state
    target = state.target(ref) if isinstance(ref, int) and state is not None else None
    if target is not None and target.name:
        words += f' "{target.name[:40]}"'
    elif isinstance(ref, (int, str)) and ref != "":
        words += f" {str(ref)[:40]}"
    window = ctx.session.backend.bound_window() or ctx.session.data.window_id
    channel.tell(where, {"op": "doing", "text": words, "window": window})


BEFORE_ACTION.append(_say_doing)


# -- teach mode ------------------------------------------------------------------------------
class TeachAccessParams(Params):
    reason: str | None = Field(None, max_length=300, description="why the agent wants to guide the person")
    timeout: float = Field(60.0, gt=0, le=MAX_WAIT, description="seconds to wait for the person's answer")


class TeachAccessResult(Result):
    answer: Literal["granted", "already granted"]

    def text(self) -> str:
        return f"teach mode {self.answer} by the person: teach-step and teach-batch may run"


@command(
    "request-teach-access", TeachAccessParams, kind=Kind.SESSION, capability=Capability.OVERLAYS, profiles=("people",)
)
def request_teach_access(ctx: Context, p: TeachAccessParams) -> TeachAccessResult:
    """Ask the person to allow teach mode.

    Teach steps run only once allowed.

    A prompt with Allow and Deny shows on the agent's screen and the call waits for the
    answer. Denied, or no answer in time, is an error; the grant lasts as long as the
    session's overlay process (`winctl session close` ends it).
    """
    where = _folder(ctx)
    channel.ensure(where)
    question = ASK + (f"\n\nWhy: {p.reason}" if p.reason else "")
    reply = channel.ask(
        where, {"op": "ask", "question": question, "screen": _screen(ctx), "timeout": p.timeout}, p.timeout
    )
    answer = reply.get("answer")
    if answer == "denied":
        raise ActionFailed(
            "the person denied teach mode",
            hint="teach steps stay refused; go on without them, or ask once more if they want it",
        )
    if answer == "timeout":
        raise WaitTimeout(
            f"the person did not answer within {p.timeout:g}s; the question was taken down",
            hint="ask again when someone is at the screen (raise --timeout)",
        )
    if answer not in ("granted", "already granted"):
        raise BackendUnavailable(f"the overlay process answered {shown(str(answer), 40)}", hint="run the command again")
    return TeachAccessResult(answer=answer)


def _screen(ctx: Context) -> list[int] | None:
    """The screen the session's window is on (else the first), for the prompt."""
    screens = ctx.session.backend.screens()
    try:
        window = ctx.window()
    except (NotFound, InvalidInput):
        window = None
    if window is not None and window.rect is not None:
        cx, cy = window.rect.center
        screens = [s for s in screens if s.contains(cx, cy)] or screens
    return _box(screens[0]) if screens else None


class TeachStepParams(Params):
    text: str = Field(min_length=1, max_length=500, description="what the person should look at or do")
    id: OptionalRef = Field(None, description="the element to highlight: its id, or a name the window shows")
    rect: list[int] | None = Field(
        None, min_length=4, max_length=4, description="or the area to highlight: x y width height on screen"
    )
    timeout: float = Field(STEP_WAIT, gt=0, le=MAX_WAIT, description="seconds to wait for the person's Next")

    @model_validator(mode="after")
    def _one_target(self) -> TeachStepParams:
        if (self.id is None) == (self.rect is None):
            raise ValueError("give the element's id or --rect X Y W H, one of them")
        if self.rect is not None and (self.rect[2] <= 0 or self.rect[3] <= 0):
            raise ValueError("--rect needs a positive width and height")
        return self


class TeachResult(Result):
    """`teach-step` and `teach-batch`: how far the person went and how it ended."""

    total: int
    done: int  # steps the person clicked Next on
    ended: Literal["next", "done", "timeout", "stopped", "deadline"]
    answers: list[str]  # each step shown: next, timeout or stopped

    def text(self) -> str:
        if self.total == 1:
            said = {
                "next": "the person clicked Next",
                "timeout": "no Next in time",
                "stopped": "the person clicked Stop",
            }
            return f"teach step: {said.get(self.ended, self.ended)}"
        how = {
            "done": "the person went through every step",
            "timeout": f"step {self.done + 1} had no Next in time",
            "stopped": f"the person clicked Stop at step {self.done + 1}",
            "deadline": f"the call's time ran out before step {self.done + 1}: send the rest in another teach-batch",
        }
        return f"teach batch: {self.done} of {self.total} steps done; {how[self.ended]}"


@command(
    "teach-step",
    TeachStepParams,
    kind=Kind.SESSION,
    capability=Capability.OVERLAYS,
    positional=("id",),
    profiles=("people",),
)
def teach_step(ctx: Context, p: TeachStepParams) -> TeachResult:
    """Show the person one step: ring an element (by id) or an area (--rect), show the text
    with a Next button, and wait until they click Next (or Stop) or the timeout passes.

    Needs `winctl request-teach-access` first. The result says `next`, `stopped` or `timeout`.
    """
    result = _teach(ctx, [(p.text, p.id, p.rect)], p.timeout)
    if result.ended == "done":
        result.ended = "next"
    return result


class TeachStepItem(BaseModel):
    model_config = ConfigDict(extra="forbid")

    text: str = Field(min_length=1, max_length=500)
    id: OptionalRef = None
    rect: list[int] | None = Field(None, min_length=4, max_length=4)


class TeachBatchParams(Params):
    steps: list[TeachStepItem] | str = Field(
        description='the steps, a JSON list: [{"text": "Type your name here", "id": 5}, '
        '{"text": "Then save", "rect": [100, 40, 80, 24]}]'
    )
    timeout: float = Field(STEP_WAIT, gt=0, le=MAX_WAIT, description="seconds each step waits for the person's Next")


@command(
    "teach-batch",
    TeachBatchParams,
    kind=Kind.SESSION,
    capability=Capability.OVERLAYS,
    positional=("steps",),
    profiles=("people",),
)
def teach_batch(ctx: Context, p: TeachBatchParams) -> TeachResult:
    """Show the person several steps, each until Next.

    Reports how far the person went.

    Needs `winctl request-teach-access` first. It stops at a step's timeout or at Stop; the
    whole call ends within the daemon's command deadline, and the result says where.
    """
    steps = _steps(p.steps)
    return _teach(ctx, [(s.text, s.id, s.rect) for s in steps], p.timeout)


def _steps(steps: list[TeachStepItem] | str) -> list[TeachStepItem]:
    """The batch's steps, from JSON text or as given; each names one element or one area."""
    if isinstance(steps, str):
        try:
            raw = json.loads(steps)
            steps = [TeachStepItem.model_validate(s) for s in raw] if isinstance(raw, list) else []
        except (ValueError, ValidationError) as exc:
            raise InvalidInput(
                f"teach-batch: the steps are not a JSON list of steps ({shown(str(exc), 120)})",
                hint='e.g. [{"text": "Click Save", "id": 5}]',
            ) from None
    if not steps:
        raise InvalidInput("teach-batch has no steps", hint='e.g. [{"text": "Click Save", "id": 5}]')
    for i, step in enumerate(steps, 1):
        if (step.id is None) == (step.rect is None):
            raise InvalidInput(
                f"teach-batch step {i}: give an id or a rect, one of them", hint='e.g. {"text": "…", "id": 5}'
            )
    return steps


def _target_rect(ctx: Context, ref: int | str | None, rect: list[int] | None) -> Rect:
    if rect is not None:
        if rect[2] <= 0 or rect[3] <= 0:
            raise InvalidInput(f"the rect {rect} has no area", hint="give x y width height, width and height > 0")
        return Rect.from_xywh(*rect)
    assert ref is not None
    target, node = ctx.session.resolve_to_read(ref, ctx.window())
    found = node.rect if node is not None and node.rect is not None else target.rect
    if found is None or found.is_empty:
        raise ActionFailed(
            f"element {ref} has no place on the screen to highlight",
            hint="scroll it into view, then run `winctl state`",
        )
    return found


def _teach(ctx: Context, steps: list[tuple[str, int | str | None, list[int] | None]], timeout: float) -> TeachResult:
    """Resolve every step's place first (a bad one fails before the person sees anything),
    then hand the steps to the overlay process and wait for the person."""
    where = _folder(ctx)
    if not channel.running(where) or not channel.ask(where, {"op": "where"}).get("granted"):
        raise ActionFailed(
            "teach mode is not allowed: the person has not granted it in this session",
            hint="run `winctl request-teach-access` first; the person answers on the screen",
        )
    places = [(text, _target_rect(ctx, ref, rect)) for text, ref, rect in steps]
    budget = min(timeout * len(places), MAX_WAIT)
    request = {
        "op": "teach",
        "steps": [{"text": text, "rect": _box(rect)} for text, rect in places],
        "screens": [_box(s) for s in ctx.session.backend.screens()],
        "timeout": timeout,
        "budget": budget,
    }
    reply = channel.ask(where, request, budget)
    if reply.get("refused"):
        raise ActionFailed("teach mode is not allowed", hint="run `winctl request-teach-access` first")
    if "ended" not in reply:
        raise BackendUnavailable("the overlay process gave no teach result", hint="run the command again")
    ended = {"budget": "deadline"}.get(reply["ended"], reply["ended"])
    return TeachResult.model_validate(
        {"total": len(places), "done": reply["done"], "ended": ended, "answers": reply["answers"]}
    )
