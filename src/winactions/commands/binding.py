"""Bound-window mode: `bind-window list|bind|unbind|status`.

Bound, every input command reaches the session's window by window messages — the real
mouse stays where the person left it and focus does not move — and screenshots come from
the window itself, so it may be covered or parked off-screen (`winctl window offscreen`).
Where messages cannot arrive, commands fail and name the global route instead. Bound mode
stays on until `unbind`: `launch` binds the window it opens while it is on (`launch --bind`
turns it on).
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from winactions.backends.base import Capability
from winactions.commands.base import Context, Kind, Params, command
from winactions.commands.results import BindResult, WindowsResult
from winactions.errors import NotFound, Unsupported, WinctlError, shown
from winactions.model import WindowInfo
from winactions.session.desktop import DesktopSession

BOUND_INPUT = "window messages (the real mouse and the focus stay untouched)"
BOUND_CAPTURE = "the window itself (PrintWindow), even when covered or off-screen"


class BindWindowParams(Params):
    action: Literal["list", "bind", "unbind", "status"] = Field(description="what to do")
    window: str | None = Field(
        None, description="bind: window id, title or part of it, or process name (default: the session's window)"
    )
    pid: int | None = Field(None, gt=0, description="bind: the window of this process (WINDOW picks among several)")


def bound_window(session: DesktopSession) -> WindowInfo | None:
    """The window input is bound to, read afresh (its place now), or None when input is global."""
    wid = session.backend.bound_window()
    if wid is None:
        return None
    return next((w for w in session.backend.list_windows() if w.id == wid), None)


def working_window(session: DesktopSession, selector: str | None = None) -> WindowInfo:
    """The window the agent works in, read afresh: the bound one while input is bound (even
    when another window was selected since: input still goes there), else the session's
    window. Its `rect` (on Windows the client area) is where what follows the agent's window
    is placed, such as the status indicator under it."""
    return bound_window(session) or session.current_window(selector)


def window_of_pid(windows: list[WindowInfo], pid: int, selector: str | None) -> WindowInfo:
    """The one window of process `pid` (of those `selector` names, when given); NotFound
    naming what there is when it has none, or several to choose from."""
    own = [w for w in windows if w.pid == pid]
    if selector is not None and own:
        wanted = selector.strip().lower()
        own = [w for w in own if w.id.lower() == wanted or wanted in w.title.lower()]
    if len(own) == 1:
        return own[0]
    if not own:
        others = ", ".join(f"{shown(w.title, 40)} (pid {w.pid})" for w in windows) or "none"
        which = f" named {shown(selector)}" if selector is not None else ""
        raise NotFound(
            f"process {pid} has no window{which} that can be bound",
            hint=f"windows: {others} — `winctl bind-window list` shows them all",
        )
    listed = "; ".join(f"{w.id} {shown(w.title, 40)}" for w in own)
    raise NotFound(
        f"process {pid} has {len(own)} windows: {listed}",
        hint=f"pick one: `winctl bind-window bind --pid {pid} TITLE` or `winctl bind-window bind {own[0].id}`",
    )


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

    `list` shows the windows that can be bound; `bind [WINDOW]` or `bind --pid N` binds
    (Windows: a green border marks it, a red arrow shows where input points); `unbind`
    returns to global input; `status` says which mode is on. While bound, `launch` binds
    the window it opens.
    """
    session = ctx.session
    if p.action == "list":
        return WindowsResult(windows=session.backend.list_windows())
    if p.action == "bind":
        if p.pid is not None:
            window = window_of_pid(session.backend.list_windows(), p.pid, p.window)
        else:
            window = session.find_window(p.window) if p.window is not None else ctx.window()
        note = session.bind(window)
        return BindResult(action="bind", window=window, input=BOUND_INPUT, capture=BOUND_CAPTURE, detail=note)
    if p.action == "unbind":
        was = bound_window(session)
        session.unbind()
        return BindResult(action="unbind", window=was)
    current = bound_window(session)
    if current is None:
        return BindResult(action="status", detail="; ".join(session.notes))
    return BindResult(action="status", window=current, input=BOUND_INPUT, capture=BOUND_CAPTURE)


def launch_binds(session: DesktopSession, asked: bool) -> bool:
    """Whether `launch` binds the window it opens: asked (`--bind`; Unsupported before anything
    is done where windows cannot be bound), or because input is bound now (bound mode is on)."""
    backend = session.backend
    if asked and Capability.BOUND_WINDOW not in backend.capabilities:
        raise Unsupported(
            f"--bind is not available on the {backend.platform} backend: {backend.lacks(Capability.BOUND_WINDOW)}",
            hint="nothing was done; launch without --bind",
        )
    return asked or backend.bound_window() is not None


def bind_launched(session: DesktopSession, window: WindowInfo, binding: bool, asked: bool) -> str:
    """Bind the window `launch` opened when `binding` (`launch_binds`); the words the result
    adds. When it cannot be bound: asked (`--bind`), the error; else input goes global (the
    old binding would send input to a window the agent left), and it says so."""
    if not binding:
        return ""
    try:
        note = session.bind(window)
    except WinctlError as exc:
        if asked:
            raise type(exc)(
                f"{shown(window.title)} (pid {window.pid}, {window.id}) opened but was not bound: {exc.message}",
                hint=exc.hint,
            ) from exc
        session.unbind()
        return f"; not bound ({exc.message}): input is global now"
    return f"; bound: input goes to it by window messages ({note})"
