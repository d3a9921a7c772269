"""Window commands: focus, launch, close, and window management."""

from __future__ import annotations

import contextlib
import os
import shutil
import time
from typing import Literal

import psutil
from pydantic import Field

from winactions import progress
from winactions.backends.base import Capability, WindowAction
from winactions.commands.base import Context, Kind, Params, command
from winactions.commands.binding import bind_launched, launch_binds
from winactions.commands.results import WindowResult
from winactions.errors import ActionFailed, DialogInFront, InvalidInput, NotFound, WaitTimeout, WinctlError
from winactions.model import Rect, WindowInfo

TREE_WAIT = 10.0  # `launch` waits for the app's accessibility tree until its timeout, and this long at least
# A launched program that exits at once may have handed its work to a running instance of itself:
EXIT_GRACE = 0.3  # s to look for its windows when none runs
HANDOVER_SETTLE = 1.0  # s after which the running instance's active window is taken as the one showing it
HANDOVER_WAIT = 3.0  # s before giving up on a running instance that shows nothing of it
SPLASH_WAIT = 15.0  # s to wait past a splash screen for the app's window (jEdit's JVM: ~3 s)


class FocusParams(Params):
    window: str = Field(description="window id, title or part of it, or process name")


@command("focus", FocusParams, kind=Kind.WINDOW, positional=("window",), profiles=("core", "windows"))
def focus(ctx: Context, p: FocusParams) -> WindowResult:
    """Make a window the session's window and bring it to the front; when a modal dialog of
    its app holds it, the dialog becomes the session's window, and the result says so."""
    window = ctx.session.find_window(p.window)
    try:
        ctx.session.backend.window_action(window.id, WindowAction.ACTIVATE)
    except DialogInFront as held:
        dialog = next((w for w in ctx.session.backend.list_windows() if w.id == held.dialog), None)
        if dialog is None:
            raise
        ctx.session.select_window(dialog)
        return WindowResult(
            action="focus",
            window=_reread(ctx, dialog),
            detail=f'"{window.title}" stays behind its dialog, which takes the input until it is '
            "closed: the dialog is now the session window",
        )
    ctx.session.select_window(window)
    return WindowResult(action="focus", window=_reread(ctx, window))


class LaunchParams(Params):
    command: list[str] = Field(min_length=1, description="program and its arguments")
    timeout: float = Field(20.0, gt=0, le=300, description="seconds to wait for its window and its accessibility tree")
    title: str | None = Field(None, description="wait for a window whose title contains this")
    bind: bool = Field(False, description="bind input to its window (Windows; done anyway while bound)")


@command("launch", LaunchParams, kind=Kind.WINDOW, variadic="command", profiles=("windows", "phone"))
def launch(ctx: Context, p: LaunchParams) -> WindowResult:
    """Start a program, wait for its window and make it the session's window.

    A program that hands its work to an instance of itself already running (mousepad,
    LibreOffice, Firefox) and exits: that instance's window is selected, and the result says so.
    A splash screen is waited past: the window selected is the one that shows the app.

    Put -- before the program when its arguments start with a dash:
    `winctl launch -- mousepad --disable-server`. On a phone (--device), give an app's
    package or package/activity: `winctl launch com.android.settings`.

    While input is bound to a window (`bind-window`), or with --bind, the new window is
    bound, and the result says so.
    """
    backend = ctx.session.backend
    binding = launch_binds(ctx.session, asked=p.bind)
    before = {w.id for w in backend.list_windows()}
    pid = backend.launch(p.command)
    deadline = time.monotonic() + p.timeout
    exited: float | None = None  # when the launched process was seen gone, leaving no child
    splashed: float | None = None  # when a splash screen was first seen
    handed = ""
    while time.monotonic() < deadline:
        windows = backend.list_windows()
        window = _new_window(windows, before, pid, p.title, family=not backend.one_screen)
        if window is not None and window.splash and p.title is None:
            # a splash closes once the app is up: selected, the next command would find it gone
            splashed = splashed or time.monotonic()
            if time.monotonic() - splashed < SPLASH_WAIT and time.monotonic() + 0.1 < deadline:
                window = None
        if window is None and exited is not None:
            related, waited = _instances(windows, backend.program_of(p.command)), time.monotonic() - exited
            if (not related and waited > EXIT_GRACE) or waited > HANDOVER_WAIT:
                raise _exited_without_window(p.command[0], related, backend.launch_stderr(pid, exited=True))
            window = _handed_over(related, before, settled=waited > HANDOVER_SETTLE)
            handed = f"; handed over to the running {window.process} (pid {window.pid})" if window else ""
        if window is not None:
            if not window.active:
                try:
                    backend.window_action(window.id, WindowAction.ACTIVATE)
                except ActionFailed:
                    pass  # some windows refuse focus; the session still selects them
                except NotFound:  # it closed as it was reached (jEdit under load): look again
                    time.sleep(0.1)
                    continue
            ctx.session.select_window(window)
            backend.launch_stderr(pid, exited=False)  # not needed: its file goes
            detail = f"pid {pid}{handed}" + _tree_note(ctx, window, max(deadline, time.monotonic() + TREE_WAIT))
            detail += bind_launched(ctx.session, window, binding, asked=p.bind)
            return WindowResult(action="launch", window=_reread(ctx, window), detail=detail)
        if backend.one_screen:
            pass  # the pid is the phone's, not this machine's: only the foreground tells
        elif _ended(pid) and p.title is None and not _children_alive(pid):
            exited = exited or time.monotonic()
        progress.pause(0.1)
    said = backend.launch_stderr(pid, exited=False)
    raise WaitTimeout(
        f"{p.command[0]} opened no window within {p.timeout:g}s" + (f"; it said: {said}" if said else ""),
        hint="raise --timeout, or pass --title if it opens a window of another process",
    )


def _tree_note(ctx: Context, window: WindowInfo, until: float) -> str:
    """Wait until the app's accessibility tree shows its window: an app maps its window a moment
    before it joins the accessibility bus (Qt, Java: up to seconds), and a `state` in between
    would list nothing. "" once it is there, else a note saying so. The window is looked up
    again each time: its title and place may change while the app settles. An app whose
    toolkit has no accessibility at all (Tk, Xt) is not waited for."""
    never = ctx.session.backend.without_tree(window)
    if never:
        return f"; {never}"
    while True:
        try:
            window = next((w for w in ctx.session.backend.list_windows() if w.id == window.id), window)
            if len(ctx.session.backend.snapshot(window).nodes) > 1:
                return ""
        except WinctlError:
            pass  # not on the bus yet
        if time.monotonic() >= until:
            return (
                "; its accessibility tree has not appeared in time: `winctl state` may list "
                "nothing until it does — its toolkit may need an accessibility switch"
            )
        progress.pause(0.2)


def _instances(windows: list[WindowInfo], program: str) -> list[WindowInfo]:
    """The windows of processes that run `program` (found on PATH)."""
    found = shutil.which(program)
    if found is None:
        return []
    path = os.path.realpath(found)
    return [w for w in windows if w.pid is not None and _runs(w.pid, path)]


def _handed_over(related: list[WindowInfo], before: set[str], settled: bool) -> WindowInfo | None:
    """The window of an instance that was already running, when the launched one handed its
    work over and exited (single-instance apps: mousepad opens the file as a tab of its window,
    LibreOffice, Firefox and GNOME apps in their running process): a new window of theirs, or
    once it had time to show the work (`settled`), the active one."""
    chosen = [w for w in related if w.id not in before] or [w for w in related if w.active and settled]
    return chosen[0] if chosen else None


def _exited_without_window(program: str, related: list[WindowInfo], said: str) -> ActionFailed:
    words = f"; it said: {said}" if said else ""
    if related:
        w = related[0]
        return ActionFailed(
            f"{program} exited without opening a window{words}; the running {w.process} "
            f"(pid {w.pid}) may have taken its work over without showing it",
            hint=f'see its windows with `winctl windows`, then `winctl focus "{w.title}"`',
        )
    return ActionFailed(
        f"{program} exited without opening a window{words}",
        hint="check the command" + ("" if said else "; run it in a terminal to see its errors"),
    )


def _runs(pid: int, path: str) -> bool:
    """Whether process `pid` runs the program at `path`: its very file, or — for a launcher
    script kept off PATH beside its binary, as LibreOffice's soffice beside soffice.bin — a
    file in the same folder."""
    try:
        exe = os.path.realpath(psutil.Process(pid).exe())
    except (psutil.Error, OSError):
        return False
    folder = os.path.dirname(path)
    on_path = {os.path.realpath(d) for d in os.environ.get("PATH", "").split(os.pathsep) if d}
    return exe == path or (os.path.dirname(exe) == folder and folder not in on_path)


def _ended(pid: int) -> bool:
    """The process exited: gone (the backend reaps what it launched) or a zombie."""
    try:
        return psutil.Process(pid).status() == psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return True
    except psutil.Error:  # not ours to read: it runs
        return False


def _children_alive(pid: int) -> bool:
    try:
        return bool(psutil.Process(pid).children(recursive=True))
    except psutil.Error:
        return False


def _new_window(
    windows: list[WindowInfo], before: set[str], pid: int, title: str | None, family: bool = True
) -> WindowInfo | None:
    """The launched program's window. A phone's one screen is never new: there the app is
    up when the screen's foreground app is the launched pid (`family` off: that pid is the
    phone's, and this machine's processes must not be asked about it)."""
    if title is not None:
        fresh = [w for w in windows if title.lower() in w.title.lower()]
        return fresh[0] if fresh else None
    if not family:
        own = [w for w in windows if w.pid == pid and w.active]
        return own[0] if own else None
    fresh = [w for w in windows if w.id not in before]
    pids = {pid}
    with contextlib.suppress(psutil.Error):
        pids |= {c.pid for c in psutil.Process(pid).children(recursive=True)}
    own = sorted((w for w in fresh if w.pid in pids), key=lambda w: w.splash)  # a splash last
    return own[0] if own else None


class CloseParams(Params):
    timeout: float = Field(5.0, gt=0, le=60, description="seconds to wait for the window to go")


@command("close", CloseParams, kind=Kind.WINDOW, destructive=True, profiles=("windows",))
def close(ctx: Context, p: CloseParams) -> WindowResult:
    """Close the session's window (as its close button would) and wait until it is gone.

    If the app asks for confirmation instead, the dialog becomes the session's window.
    """
    backend = ctx.session.backend
    window = ctx.window()
    backend.window_action(window.id, WindowAction.CLOSE)
    deadline = time.monotonic() + p.timeout
    while time.monotonic() < deadline:
        windows = backend.list_windows()
        if all(w.id != window.id for w in windows):
            return WindowResult(action="close", window=window, detail="closed")
        asking = [w for w in windows if w.pid == window.pid and w.id != window.id and w.active]
        if asking:
            ctx.session.select_window(asking[0])
            return WindowResult(
                action="close",
                window=window,
                detail=f'the app asks first: "{asking[0].title}" is now the session window',
            )
        progress.pause(0.1)
    raise ActionFailed(
        f'window "{window.title}" is still open after {p.timeout:g}s',
        hint="the app may be busy or asking something; run `winctl state`",
    )


OFFSCREEN = -32000  # where Windows parks minimized windows: far from every monitor


class WindowParams(Params):
    action: Literal["activate", "minimize", "maximize", "restore", "move", "offscreen"] = Field(
        description="what to do with the session's window (offscreen: park it at -32000,-32000, where a "
        "bound window still takes input and screenshots)"
    )
    x: int | None = Field(None, description="move: new client-area left")
    y: int | None = Field(None, description="move: new client-area top")
    width: int | None = Field(None, gt=0, description="move: new client-area width")
    height: int | None = Field(None, gt=0, description="move: new client-area height")


@command(
    "window",
    WindowParams,
    kind=Kind.WINDOW,
    capability=Capability.WINDOW_MANAGE,
    positional=("action", "x", "y", "width", "height"),
    profiles=("windows",),
)
def window_(ctx: Context, p: WindowParams) -> WindowResult:
    """Activate, minimize, maximize, restore, move and resize, or park off-screen the session's window."""
    window = ctx.window()
    rect = None
    if p.action == "offscreen":
        current = window.rect or Rect(left=0, top=0, right=800, bottom=600)
        rect = Rect.from_xywh(OFFSCREEN, OFFSCREEN, current.width, current.height)
    if p.action == "move":
        if None in (p.x, p.y):
            raise InvalidInput("window move needs X Y [WIDTH HEIGHT]", hint="winctl window move 0 0 800 600")
        current = window.rect or Rect(left=0, top=0, right=800, bottom=600)
        rect = Rect.from_xywh(p.x, p.y, p.width or current.width, p.height or current.height)  # type: ignore[arg-type]
    action = WindowAction.MOVE_RESIZE if p.action in ("move", "offscreen") else WindowAction(p.action)
    ctx.session.backend.window_action(window.id, action, rect)
    return WindowResult(action=p.action, window=_reread(ctx, window))


def _reread(ctx: Context, window: WindowInfo) -> WindowInfo:
    return next((w for w in ctx.session.backend.list_windows() if w.id == window.id), window)
