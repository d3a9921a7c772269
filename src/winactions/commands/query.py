"""Reading commands: get text|rect|value, and wait."""

from __future__ import annotations

import time

from pydantic import Field

from winactions import progress
from winactions.backends.base import Backend
from winactions.commands.base import ID_OR_NAME, Context, OptionalId, OptionalName, Params, Ref, command
from winactions.commands.results import ValueResult, WaitResult
from winactions.errors import ActionFailed, InvalidInput, NotFound, StaleElement, WaitTimeout
from winactions.model import Node, Rect, Target, WindowInfo

TEXT_VALUED = frozenset({"Edit", "DataItem"})  # value is the text shown: a field's, a table cell's


class GetParams(Params):
    id: Ref = ID_OR_NAME


@command("get text", GetParams, positional=("id",), profiles=("core",))
def get_text(ctx: Context, p: GetParams) -> ValueResult:
    """The element's full text (its text content, else its value, else its name)."""
    target, node = ctx.session.resolve_to_read(p.id, ctx.window())
    _refuse_protected(target, node, "text")
    text = ctx.session.backend.read_text(node.handle) if node is not None else target.name
    return ValueResult(what="text", target_id=target.id, value=text)


@command("get rect", GetParams, positional=("id",), profiles=("vision",))
def get_rect(ctx: Context, p: GetParams) -> ValueResult:
    """The element's rectangle now: [left, top, right, bottom] in screen pixels."""
    target, node = ctx.session.resolve_to_read(p.id, ctx.window())
    rect = node.rect if node is not None and node.rect is not None else target.rect
    return ValueResult(what="rect", target_id=target.id, value=rect.as_list() if rect else None)


@command("get value", GetParams, positional=("id",), profiles=("core",))
def get_value(ctx: Context, p: GetParams) -> ValueResult:
    """The element's value: an edit's text, a slider's number, a check box's checked state,
    a combo box's chosen option."""
    target, node = ctx.session.resolve_to_read(p.id, ctx.window())
    _refuse_protected(target, node, "value")
    return ValueResult(what="value", target_id=target.id, value=element_value(ctx.session.backend, target, node))


def _refuse_protected(target: Target, node: Node | None, what: str) -> None:
    """A password field's text is never read: the backends mark it "protected" (UIA's
    IsPassword, AT-SPI's password-text role), and the refusal says nothing of the text."""
    if "protected" in target.states or (node is not None and "protected" in node.states):
        raise ActionFailed(
            f'element {target.id} ([{target.type}] "{target.name}") is a password field: its {what} is never read',
            hint="set it with `winctl input` if the task needs a new one",
        )


def element_value(backend: Backend, target: Target, node: Node | None) -> object:
    """An element's value as `get value` says it (and `inspect` shows it): a check box's
    checked state; a field's or a cell's text (as `state` lists a cell: "Total", where its
    numeric Value says 0); else its value, else its name. A password field's: None."""
    if node is None:
        return target.value or target.name
    if "protected" in node.states or "protected" in target.states:
        return None  # a password field's text is never read
    if "checkable" in node.states or node.role in ("CheckBox", "RadioButton"):
        return (
            "indeterminate"
            if "indeterminate" in node.states
            else ("checked" if "checked" in node.states else "unchecked")
        )
    if node.role in TEXT_VALUED:
        return backend.read_text(node.handle)
    if node.value is not None:
        return node.value
    return node.name


class WaitParams(Params):
    seconds: float | None = Field(None, ge=0, le=3600, description="just wait this long")
    visible: OptionalId = Field(None, description="wait until this element is on screen")
    enabled: OptionalId = Field(None, description="wait until this element is enabled")
    gone: OptionalId = Field(None, description="wait until this element no longer exists")
    text: str | None = Field(
        None, min_length=1, description="wait until an element's name or value holds this text (any case)"
    )
    gone_text: str | None = Field(None, min_length=1, description="wait until no element of the window shows this text")
    window_shown: OptionalName = Field(
        None, description="until a window with this title part or id is open (it becomes the session's)"
    )
    window_gone: OptionalName = Field(
        None, description="until no window with this title part or id is open (`current`: the session's)"
    )
    timeout: float = Field(10.0, gt=0, le=3600, description="seconds before giving up")


@command("wait", WaitParams, positional=("seconds",), profiles=("core",))
def wait(ctx: Context, p: WaitParams) -> WaitResult:
    """Wait some seconds, or until an element is visible, enabled or gone, a text shows in (or
    leaves) the window's elements, or a window shows (or goes)."""
    conditions = [
        c for c in (p.visible, p.enabled, p.gone, p.text, p.gone_text, p.window_shown, p.window_gone) if c is not None
    ]
    if len(conditions) > 1:
        raise InvalidInput("wait takes one condition at a time", hint="winctl wait --visible 5")
    start = time.monotonic()
    if p.window_shown is not None:
        return _wait_window_shown(ctx, p.window_shown, start, p.timeout)
    if p.window_gone is not None:
        return _wait_window_gone(ctx, p.window_gone, start, p.timeout)
    if p.text is not None or p.gone_text is not None:
        return _wait_text(ctx, p.text, p.gone_text, start + p.timeout, p.timeout)
    ids = [c for c in (p.visible, p.enabled, p.gone) if c is not None]
    if not ids:
        progress.pause(p.seconds if p.seconds is not None else 1.0)
        return WaitResult(condition="waited", waited_seconds=time.monotonic() - start)
    target_id = ids[0]
    target = ctx.session.target(target_id)  # unknown ids fail at once, not after the timeout
    if target.handle is None:
        raise InvalidInput(
            f"element {target_id} comes from {target.source.value}, not the tree; wait can only watch tree elements",
            hint="use `winctl wait SECONDS`",
        )
    name = "visible" if p.visible is not None else "enabled" if p.enabled is not None else "gone"
    deadline = start + p.timeout
    backend = ctx.session.backend
    progress.step(f"waiting for element {target_id} to be {name}")
    while True:
        node = backend.refresh(target.handle) if target.handle else None
        if _holds(name, node, backend.screens()):
            return WaitResult(condition=f"element {target_id} {name}", waited_seconds=time.monotonic() - start)
        if node is None and name != "gone" and target.handle:
            raise StaleElement(f"element {target_id} is gone; it cannot become {name}", hint="run `winctl state`")
        if time.monotonic() >= deadline:
            raise WaitTimeout(
                f"element {target_id} did not become {name} within {p.timeout:g}s",
                hint="raise --timeout or check the app with `winctl state`",
            )
        progress.pause(0.1)


def _wait_text(ctx: Context, text: str | None, gone_text: str | None, deadline: float, timeout: float) -> WaitResult:
    """Poll the window's state (each read also gives new elements their ids) until an
    element shows `text`, or none shows `gone_text`."""
    start = deadline - timeout
    wanted = (text or gone_text or "").casefold()
    waiting = f'waiting for the text "{text}"' if text is not None else f'waiting for "{gone_text}" to go'
    with progress.stage(waiting):  # each read inside says its own step, as part of the wait
        while True:
            ui = ctx.session.refresh_state(ctx.window())
            found = next(
                (t for t in ui.targets if wanted in t.name.casefold() or wanted in (t.value or "").casefold()), None
            )
            if text is not None and found is not None:
                return WaitResult(
                    condition=f'text "{text}" shown', waited_seconds=time.monotonic() - start, target=found
                )
            if gone_text is not None and found is None:
                return WaitResult(condition=f'text "{gone_text}" gone', waited_seconds=time.monotonic() - start)
            if time.monotonic() >= deadline:
                what = (
                    f'no element shows "{text}"'
                    if text is not None
                    else f'element {found.id if found else "?"} still shows "{gone_text}"'
                )
                raise WaitTimeout(
                    f"{what} after {timeout:g}s",
                    hint="raise --timeout, or look with `winctl state` (text drawn on a canvas is not "
                    "in the tree: try `winctl locate text:...`)",
                )
            progress.pause(0.2)


def _titled(windows: list[WindowInfo], wanted: str) -> list[WindowInfo]:
    """The windows whose id is `wanted` (as listed, or as a number) or whose title holds it
    (case-insensitive)."""
    key = wanted.strip().casefold()
    number = _number(key)
    return [
        w
        for w in windows
        if w.id.casefold() == key or (number is not None and _number(w.id) == number) or key in w.title.casefold()
    ]


def _number(window_id: str) -> int | None:
    try:
        return int(window_id, 0)
    except ValueError:
        return None


def _quoted(title: str, limit: int = 200) -> str:
    """A title in double quotes on one line, cut at `limit` characters."""
    line = " ".join(title.split())
    return f'"{line[:limit]}…"' if len(line) > limit else f'"{line}"'


def _open_windows(windows: list[WindowInfo]) -> str:
    return ", ".join(_quoted(w.title) for w in windows) or "none"


def _wait_window_shown(ctx: Context, wanted: str, start: float, timeout: float) -> WaitResult:
    """Poll the window list until a window matches `wanted` (one open already counts): a new
    one first, then the active one. It becomes the session's window."""
    backend = ctx.session.backend
    before = {w.id for w in backend.list_windows()}
    progress.step(f"waiting for a window titled {_quoted(wanted)}")
    while True:
        windows = backend.list_windows()
        found = _titled(windows, wanted)
        if found:
            window = next((w for w in found if w.id not in before), None) or next(
                (w for w in found if w.active), found[0]
            )
            ctx.session.select_window(window)
            ctx.forget_window()
            return WaitResult(
                condition=f"window {_quoted(window.title)} shown",
                waited_seconds=time.monotonic() - start,
                window=window,
                selected=True,
            )
        if time.monotonic() >= start + timeout:
            raise WaitTimeout(
                f"no window titled {_quoted(wanted)} showed within {timeout:g}s; open windows: "
                f"{_open_windows(windows)}",
                hint="raise --timeout, or wait for one of these titles (`winctl windows` lists them)",
            )
        progress.pause(0.1)


def _wait_window_gone(ctx: Context, wanted: str, start: float, timeout: float) -> WaitResult:
    """Poll the window list until no window matches `wanted`, or, for `current`, until the
    session's window is gone; the result names the window left active."""
    backend = ctx.session.backend
    if wanted.strip().casefold() == "current":
        if ctx.session.data.window_id is None:
            raise NotFound(
                "the session has no window to wait for", hint="name the window: `winctl wait --window-gone TITLE`"
            )
        wanted = ctx.session.data.window_id
    first = _titled(backend.list_windows(), wanted)
    title = first[0].title if first else wanted
    progress.step(f"waiting for the window {_quoted(title)} to go")
    while True:
        windows = backend.list_windows()
        left = _titled(windows, wanted)
        if not left:
            gone_at = time.monotonic()
            active = _active_after(ctx, windows)
            ctx.forget_window()
            return WaitResult(condition=f"window {_quoted(title)} gone", waited_seconds=gone_at - start, window=active)
        if time.monotonic() >= start + timeout:
            raise WaitTimeout(
                f"window {_quoted(left[0].title)} is still open after {timeout:g}s"
                + (f" (and {len(left) - 1} more matching {_quoted(wanted)})" if len(left) > 1 else ""),
                hint="raise --timeout, or close it: `winctl focus TITLE`, then `winctl close`",
            )
        progress.pause(0.1)


ACTIVATION_WAIT = 1.0  # s for the window manager to activate a window after one closed


def _active_after(ctx: Context, windows: list[WindowInfo]) -> WindowInfo | None:
    """The active window once one closed: the window manager activates the next a moment
    later, so wait a little for it; None when none is active by then."""
    until = time.monotonic() + ACTIVATION_WAIT
    while True:
        active = next((w for w in windows if w.active), None)
        if active is not None or time.monotonic() >= until:
            return active
        progress.pause(0.05)
        windows = ctx.session.backend.list_windows()


def _holds(condition: str, node: Node | None, screens: list[Rect]) -> bool:
    if condition == "gone":
        return node is None
    if node is None:
        return False
    if condition == "enabled":
        return "enabled" in node.states
    on_screen = node.rect is not None and not node.rect.is_empty and any(node.rect.intersect(s) for s in screens)
    return on_screen and "showing" in node.states  # "visible" alone: a hidden tab's content
