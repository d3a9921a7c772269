"""What handlers return. One renderer (`winactions.render`) turns these into text or JSON."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, SerializeAsAny

from winactions.agent.runner import TaskResult
from winactions.commands.base import Result
from winactions.commands.stateview import StateDiff
from winactions.errors import ActionFailed, WinctlError, of_code
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


class WindowsResult(Result):
    windows: list[WindowInfo]


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


class WindowResult(Result):
    """A window was selected, launched, closed or changed."""

    action: str
    window: WindowInfo
    detail: str = ""


class BindResult(Result):
    """Bound-window mode: which window input goes to, and how; no window means global input."""

    action: str
    window: WindowInfo | None = None
    input: str = "global (like a real mouse and keyboard; acts on the window in front)"
    capture: str = "the screen"
    detail: str = ""


class ActionResult(Result):
    """An action ran. `method` says how: a semantic operation or synthesized input."""

    action: str
    method: str
    target: Target | None = None
    point: tuple[int, int] | None = None
    detail: str = ""


class ValueResult(Result):
    """`get text|rect|value`."""

    what: str
    target_id: int
    value: Any


class InspectResult(Result):
    target: Target
    element: dict[str, Any]


class ScreenshotResult(Result):
    path: str
    rect: Rect
    width: int
    height: int
    density: float | None = None  # screen pixels per logical pixel, recorded in the file (None: unknown)
    covered_by: list[str] = []  # what lies over part of the window, and so is in the picture instead of it


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
        message = (f"step {first.step} of {self.total} ({first.command}) failed: {error.get('message', '?')}"
                   + (f"; {len(failed) - 1} more failed" if len(failed) > 1 else "")
                   + f"; done: {', '.join(done) if done else 'none'}"
                   + (f"; not run: {never}" if never else ""))
        return of_code(error.get("code", ""))(message, hint=error.get("hint"))


class WaitResult(Result):
    condition: str
    waited_seconds: float
    target: Target | None = None  # --text: the element whose name or value holds the text
    window: WindowInfo | None = None  # --window-shown: the window; --window-gone: the one left active
    selected: bool = False  # the window became the session's window


class LocateCommandResult(Result):
    """`locate`: where the target is, how it was found, and the locator's cache counters."""

    located: Any  # winactions.locate.locator.LocateResult (kept untyped: the locator imports numpy)
    cache: dict[str, float]


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


class VerifyResult(Result):
    """`verify-location`: is the element still where it was found, and why (or why not)."""

    verification: Any  # winactions.locate.verify.Verification (untyped here: the locator imports numpy)


class LocateCacheResult(Result):
    action: str
    cleared: int
    stats: dict[str, float]


class RunResult(Result):
    """`run` / `replay`: the task's status, its plan and what each step did."""

    run: TaskResult

    def failure(self) -> WinctlError | None:
        if self.run.ok:
            return None
        return ActionFailed(f"the task {self.run.status.value}: {self.run.error}",
                            hint="the steps above say where; replan, or act step by step from `winctl state`")
