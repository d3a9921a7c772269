"""Bound-window mode: `bind-window list|bind|unbind|status`.

Bound, every input command reaches the session's window by window messages — the real
mouse stays where the person left it and focus does not move — and screenshots come from
the window itself, so it may be covered or parked off-screen (`winctl window offscreen`).
Where messages cannot arrive, commands fail and name the global route instead.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from winactions.backends.base import Capability
from winactions.commands.base import Context, Kind, Params, command
from winactions.commands.results import BindResult, WindowsResult
from winactions.model import WindowInfo

BOUND_INPUT = "window messages (the real mouse and the focus stay untouched)"
BOUND_CAPTURE = "the window itself (PrintWindow), even when covered or off-screen"


class BindWindowParams(Params):
    action: Literal["list", "bind", "unbind", "status"] = Field(description="what to do")
    window: str | None = Field(
        None, description="bind: window id, title or part of it, or process name (default: the session's window)"
    )


def _bound(ctx: Context) -> WindowInfo | None:
    wid = ctx.session.backend.bound_window()
    if wid is None:
        return None
    return next((w for w in ctx.session.backend.list_windows() if w.id == wid), None)


@command(
    "bind-window",
    BindWindowParams,
    kind=Kind.WINDOW,
    capability=Capability.BOUND_WINDOW,
    positional=("action", "window"),
    profiles=("windows",),
)
def bind_window(ctx: Context, p: BindWindowParams) -> BindResult | WindowsResult:
    """Send input to one window in the background, or go back to global input.

    `list` shows the windows that can be bound; `bind [WINDOW]` binds (Windows: a green
    border marks it); `unbind` returns to global input; `status` says which mode is on.
    """
    session = ctx.session
    if p.action == "list":
        return WindowsResult(windows=session.backend.list_windows())
    if p.action == "bind":
        window = session.find_window(p.window) if p.window is not None else ctx.window()
        note = session.bind(window)
        return BindResult(action="bind", window=window, input=BOUND_INPUT, capture=BOUND_CAPTURE, detail=note)
    if p.action == "unbind":
        was = _bound(ctx)
        session.unbind()
        return BindResult(action="unbind", window=was)
    current = _bound(ctx)
    if current is None:
        return BindResult(action="status", detail="; ".join(session.notes))
    return BindResult(action="status", window=current, input=BOUND_INPUT, capture=BOUND_CAPTURE)
