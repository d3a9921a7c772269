"""What handlers return, and how each is read: its `text()` (the command line, MCP), its
`data()` when JSON differs from its fields, its `images()` for MCP. `winactions.render` is the
front ends' door to these; the pieces they are written with are in `commands.formats`.
"""

from __future__ import annotations

import json
from typing import Any

from pydantic import BaseModel, SerializeAsAny

from winactions.agent.result import TaskResult
from winactions.backends.base import uncover_hint
from winactions.commands.base import Result
from winactions.commands.formats import (
    changes_text,
    clean,
    diff_data,
    safe,
    state_data,
    state_text,
    target_line,
    window_line,
)
from winactions.commands.stateview import StateDiff
from winactions.errors import ActionFailed, Unverified, WinctlError, of_code
from winactions.model import Rect, Target, WindowInfo


class StateResult(Result):
    """`state`: the indexed elements of the window (in `state`), or the part shown."""

    verbose: bool = False
    tree: bool = False
    scope: int | None = None  # only this element's subtree is in `state`
    omitted: int = 0  # elements left out by --max-elements (their ids stay valid)
    diff: StateDiff | None = None  # --diff: what changed since the session's previous state
    searched: str | None = None  # `find`: what was looked for, where (an empty list: none matched)
    budget: int | None = None  # tokens the text may cost (`compact.fit`); None: every element, one line each

    def text(self) -> str:
        """The elements one per line under the window's header (`--diff`: what changed), and
        what --max-elements left out with the way to list it."""
        assert self.state is not None
        if self.diff is not None:  # + added, - removed, ~ changed (with what changed), then a count
            return changes_text(self.state, self.diff, self.omitted, self.verbose)
        text = state_text(self.state, self.verbose, self.tree, self.searched, self.budget)
        if self.omitted:
            text += (
                f"\n({self.omitted} more elements not listed (--max-elements); their ids stay valid — "
                "`winctl state --scope ID` lists one part)"
            )
        return text

    def returned_text(self) -> str:
        """Nothing: the state is this result's text already."""
        return ""

    def data(self) -> dict[str, Any]:
        """The state in its compact JSON form (every field when verbose), with the scope, what
        was left out or looked for, and the diff when there is one."""
        assert self.state is not None
        data = state_data(self.state, self.verbose)
        if self.scope is not None:
            data["scope"] = self.scope
        if self.omitted:
            data["omitted"] = self.omitted
        if self.searched is not None:
            data["searched"] = self.searched
        if self.diff is not None:
            data["diff"] = diff_data(self.state, self.diff, self.verbose)
        return data

    def images(self) -> list[str]:
        """The annotated screenshot, else the plain one, when the call asked for it."""
        path = self.state.annotated_screenshot or self.state.screenshot if self.state is not None else None
        return [path] if path else []


class WindowsResult(Result):
    """`windows`: the desktop's top-level windows."""

    windows: list[WindowInfo]

    def text(self) -> str:
        """One window a line (`window_line`), or "(no windows)"."""
        return "\n".join(window_line(w) for w in self.windows) or "(no windows)"


class DeviceEntry(BaseModel):
    """One phone the adb server knows."""

    serial: str
    state: str  # device, offline, unauthorized, ...
    model: str = ""
    product: str = ""


class DevicesResult(Result):
    """`devices`: the phones winctl can drive with `--device SERIAL`."""

    devices: list[DeviceEntry]
    note: str = ""

    def text(self) -> str:
        """One device a line: serial, state and model, tab-separated; else the note, or that none is attached."""
        return (
            "\n".join(
                f"{safe(d.serial)}\t{safe(d.state)}" + (f"\t{safe(d.model)}" if d.model else "") for d in self.devices
            )
            or safe(self.note)
            or "(no devices attached)"
        )


class WindowResult(Result):
    """A window was selected, launched, closed or changed."""

    action: str
    window: WindowInfo
    detail: str = ""

    def text(self) -> str:
        """`ACTION: WINDOW-LINE`, then the detail on its own line."""
        return f"{self.action}: {window_line(self.window)}" + (f"\n{safe(self.detail)}" if self.detail else "")


class BindResult(Result):
    """Bound-window mode: which window input goes to, and how; no window means global input."""

    action: str
    window: WindowInfo | None = None
    input: str = "global (like a real mouse and keyboard; acts on the window in front)"
    capture: str = "the screen"
    detail: str = ""

    def text(self) -> str:
        """The window input goes to (or that there is none), then how input and capture work."""
        bound = self.action == "bind" or (self.action == "status" and self.window is not None)
        head = (
            f"bound to {window_line(self.window)}"
            if bound and self.window
            else (f"unbound from {window_line(self.window)}" if self.window else "not bound")
        )
        lines = [f"{self.action}: {head}", f"input: {self.input}", f"capture: {self.capture}"]
        return "\n".join(lines + ([safe(self.detail)] if self.detail else []))


class ActionResult(Result):
    """An action ran. `method` says how: a semantic operation or synthesized input."""

    action: str
    method: str
    target: Target | None = None
    point: tuple[int, int] | None = None
    detail: str = ""

    def text(self) -> str:
        """`ACTION [id] [Type] "Name" at (x, y) via METHOD — detail`; a target found on screen
        (id 0) by its name and how it was found."""
        what = f' [{self.target.id}] [{self.target.type}] "{clean(self.target.name)}"' if self.target else ""
        if self.target is not None and self.target.id == 0:  # found on screen, not in the state
            what = f' "{clean(self.target.name)}" ({safe(self.target.derived_from or "")})'
        at = f" at ({self.point[0]}, {self.point[1]})" if self.point else ""
        detail = f" — {safe(self.detail)}" if self.detail else ""
        return f"{self.action}{what}{at} via {self.method}{detail}"


class ValueResult(Result):
    """`get text|rect|value`."""

    what: str
    target_id: int
    value: Any

    def text(self) -> str:
        """The value alone: a list or mapping as JSON, text escaped like a name in `state`
        (`\\n`), so a text never passes for a state line."""
        value = self.value
        return json.dumps(value) if isinstance(value, (list, dict)) else safe(str(value))


class InspectResult(Result):
    """`inspect`: one element's line in full, then every property known of it now."""

    target: Target
    element: dict[str, Any]

    def text(self) -> str:
        """The element's verbose line, then `  key: value` for each property that is set."""
        lines = [target_line(self.target, verbose=True)]
        lines += [f"  {k}: {safe(str(v))}" for k, v in self.element.items() if v not in (None, "", [], {})]
        return "\n".join(lines)


class ScreenshotResult(Result):
    """A PNG written: where, of what part of the screen, at what size."""

    path: str
    rect: Rect
    width: int
    height: int
    density: float | None = None  # screen pixels per logical pixel, recorded in the file (None: unknown)
    covered_by: list[str] = []  # noqa: RUF012  (pydantic copies a field's default) what lies over part of the window, and so is in the picture instead of it
    shown_at: float | None = None  # shrunk for a model to this fraction of the screen's pixels (`mcp.model_pixels`)

    def text(self) -> str:
        """`PATH (WxH, rect=...)`, the density it was drawn at or the fraction it was shrunk to,
        and a warning per window over it."""
        drawn = "" if self.density is None else f", drawn at {self.density:g}x"
        if self.shown_at is not None:
            drawn += f", shrunk to {self.shown_at:.3g} of the screen: coordinates are this picture's pixels"
        covered = "".join(
            f"\nwarning: part of the window is covered by {safe(what)}: the picture shows it there "
            f"({uncover_hint(what)})"
            for what in self.covered_by
        )
        return f"{self.path} ({self.width}x{self.height}, rect={self.rect}{drawn}){covered}"

    def images(self) -> list[str]:
        """The picture itself."""
        return [self.path]


class BatchStep(BaseModel):
    """One step of a batch: its result, or the error that stopped it."""

    step: int
    command: str
    ok: bool
    result: SerializeAsAny[Result] | None = None
    error: dict[str, str] | None = None


class BatchResult(Result):
    """`batch`: what each step did."""

    steps: list[BatchStep]
    completed: int
    total: int

    def text(self) -> str:
        """How many steps were done, then one line per step: its result's first line, or its error."""
        lines = [f"batch: {self.completed} of {self.total} steps done"]
        for step in self.steps:
            if step.ok and step.result is not None:
                body = step.result.text().splitlines()
                lines.append(f"{step.step}. {step.command}: {body[0] if body else 'ok'}")
            else:
                lines.append(f"{step.step}. {step.command}: error: {safe((step.error or {}).get('message', '?'))}")
        return "\n".join(lines)

    def images(self) -> list[str]:
        """The pictures of the steps that took one (a screenshot step), in order."""
        return [path for step in self.steps if step.ok and step.result is not None for path in step.result.images()]

    def failure(self) -> WinctlError | None:
        """The first failed step's error, with its code and exit code, saying which steps were
        done and which never ran: a batch whose step failed is a failed call, not a success."""
        failed = [s for s in self.steps if not s.ok]
        if not failed:
            return None
        first = failed[0]
        error = first.error or {}
        done = [str(s.step) for s in self.steps if s.ok]
        never = self.total - len(self.steps)
        message = (
            f"step {first.step} of {self.total} ({first.command}) failed: {error.get('message', '?')}"
            + (f"; {len(failed) - 1} more failed" if len(failed) > 1 else "")
            + f"; done: {', '.join(done) if done else 'none'}"
            + (f"; not run: {never}" if never else "")
        )
        return of_code(error.get("code", ""))(message, hint=error.get("hint"))


class WaitResult(Result):
    """`wait`: the condition that held, after how long, and what it found."""

    condition: str
    waited_seconds: float
    target: Target | None = None  # --text: the element whose name or value holds the text
    window: WindowInfo | None = None  # --window-shown: the window; --window-gone: the one left active
    selected: bool = False  # the window became the session's window

    def text(self) -> str:
        """`CONDITION after N.NNs`, then the element or the window it found."""
        found = f": {target_line(self.target)}" if self.target is not None else ""
        if self.window is not None:
            found = (
                f": {window_line(self.window)} — now the session's window"
                if self.selected
                else f"; active now: {window_line(self.window)}"
            )
        return f"{self.condition} after {self.waited_seconds:.2f}s{found}"


class LocateCommandResult(Result):
    """`locate`: where the target is, how it was found, and the locator's cache counters."""

    located: Any  # winactions.locate.locator.LocateResult (kept untyped: the locator imports numpy)
    cache: dict[str, float]

    def text(self) -> str:
        """Where the target was found and how (box, click point, confidence, scale), how much
        of it is visible, the other candidates, and what each strategy tried."""
        r = self.located
        e = r.element
        lines = [
            f'"{clean(r.target)}" found by {r.method_used}{" (cached)" if r.cache_hit else ""}: '
            f'"{clean(e.label)}" at {e.bbox}, click ({e.click_point[0]}, {e.click_point[1]}), '
            f"confidence {e.confidence:.2f}"
            + (f", drawn at {e.scale:g}x the reference's size" if e.scale is not None and e.scale != 1 else "")
        ]
        if e.visible_fraction < 1:
            lines.append(
                f"partly visible ({e.visible_fraction:.0%}): safe region {e.safe_region}, "
                f"can interact: {'yes' if e.can_interact else 'no'}"
            )
        lines += [f'also: "{clean(c.label)}" at {c.bbox} ({c.confidence:.2f})' for c in r.candidates]
        lines += [
            f"tried {a.strategy}: {a.found} found"
            + (f", best {a.best:.2f}" if a.best is not None else "")
            + (f" — {a.error}" if a.error and a.error != "not found" else "")
            + f" ({a.ms:.0f} ms)"
            for a in r.attempts
        ]
        return "\n".join(lines)


class MatchResult(Result):
    """`match`: where the reference image appears in the screenshot file, best first."""

    class Match(BaseModel):
        box: Rect
        center: tuple[int, int]
        confidence: float
        method: str  # template:exact, template:multiscale or template:orb
        scale: float  # the factor the reference was resized by to match (0.91: it is 10% larger than on screen)

    reference: str
    image: str
    threshold: float
    matches: list[Match]

    def text(self) -> str:
        """One line per match, best first: box, centre, confidence, method and scale."""
        return "\n".join(
            f"{'found' if i == 0 else 'also'}: {m.box} centre ({m.center[0]}, {m.center[1]}), "
            f"confidence {m.confidence:.2f} by {m.method}, scale {m.scale:g}"
            for i, m in enumerate(self.matches)
        )


class VerifyResult(Result):
    """`verify-location`: is the element still where it was found, and why (or why not)."""

    verification: Any  # winactions.locate.verify.Verification (untyped here: the locator imports numpy)

    def text(self) -> str:
        """`still there: yes|no — REASON`."""
        v = self.verification
        return f"still there: {'yes' if v.still_there else 'no'} — {safe(v.reason)}"


class LocateCacheResult(Result):
    """`locate-cache`: what was cleared, and the cache's counters."""

    action: str
    cleared: int
    stats: dict[str, float]

    def text(self) -> str:
        """`cleared N entries; ` when cleared, then the counters: `hits 1, misses 2`."""
        stats = ", ".join(f"{k} {v}" for k, v in self.stats.items())
        return (f"cleared {self.cleared} entries; " if self.action == "clear" else "") + stats


class RunResult(Result):
    """`run` / `replay`: the task's status, its plan and what each step did."""

    run: TaskResult

    def text(self) -> str:
        """The task's status, plan and cost on one line, then each step (where it acted, its
        status, its error, the blockers it dismissed), what was done before the steps (the app
        launched, a leftover dialog closed), one `check:` line per success criterion, the task's
        error and where it was recorded."""
        r = self.run
        head = (
            f"{r.status.value}: {clean(r.task)} — plan by {r.plan_source or 'none'}"
            + (f" ({r.module}/{r.template})" if r.template else f" ({r.module})" if r.module else "")
            + f", {len(r.step_results)} steps, {r.replans} replans, {int(r.model.get('calls', 0))} model calls, "
            f"{int(r.model.get('input_tokens', 0) + r.model.get('output_tokens', 0))} tokens, "
            f"{r.total_time:.1f}s"
        )
        lines = [head]
        for s in r.step_results:
            where = f" {safe(s.target)}" if s.target else ""
            extra = f" — {safe(s.error)}" if s.error else ""
            lines.append(f"{s.step.step}. {s.step.action.value}{where}: {s.status.value}{extra}")
            lines += [
                f"   dismissed {safe(str(d['blocker']['description']))} by {safe(str(d['method']))}"
                for d in s.dismissals
            ]
        lines += [f"before the steps: {safe(note)}" for note in r.prepared]
        lines += [
            f"check: {safe(c.what)}: {'yes' if c.ok else 'no' if c.ok is False else 'not checked'}"
            + (f" — {safe(c.detail)}" if c.detail else "")
            for c in r.checks
        ]
        if r.error:
            lines.append(f"error: {safe(r.error)}")
        if r.record:
            lines.append(f"recorded in {safe(r.record)}")
        return "\n".join(lines)

    def failure(self) -> WinctlError | None:
        """An action failure (exit 4) when the task failed, `unverified` (exit 10) when its steps
        ran but its success could not be shown; None for success and a dry run."""
        if self.run.ok:
            return None
        if self.run.status.value == "unverified":  # exit 10: the steps ran, success not shown
            return Unverified(
                f"the task is unverified: {self.run.error}",
                hint="the checks above say what could not be checked; look at the app, or give success criteria",
            )
        return ActionFailed(
            f"the task {self.run.status.value}: {self.run.error}",
            hint="the steps above say where; replan, or act step by step from `winctl state`",
        )
