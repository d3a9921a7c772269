"""Window selection: which of the desktop's windows a command acts on.

Decisions over the list of windows (`Backend.list_windows`), with no other effect; the session
remembers the choice and says the note (`DesktopSession.current_window`).
"""

from __future__ import annotations

from collections.abc import Callable

from winactions.errors import InvalidInput, NotFound, WindowClosed, shown
from winactions.model import WindowInfo


def find_window(listed: Callable[[], list[WindowInfo]], selector: str) -> WindowInfo:
    """The window of those `listed` (asked only for a selector that is not blank) that `selector`
    names: its id (`0x3a00007`, or the same number in decimal), else
    the one whose title is the selector, else one whose title holds it, whose process is it or
    whose class holds it (ignoring case) — of several, an active one first, else the first
    listed. InvalidInput for a blank selector (as a substring it would match every window);
    NotFound, listing the open windows' titles, when none matches."""
    if not selector.strip():
        raise InvalidInput(
            "a window to look for cannot be empty",
            hint="give a window id, a title or part of it, or a process name — `winctl windows` lists them",
        )
    wanted = selector.strip().lower()
    windows = listed()
    for w in windows:
        if w.id.lower() == wanted or (wanted.isdigit() and _int_id(w.id) == int(wanted)):
            return w
    exact = [w for w in windows if w.title.lower() == wanted]
    matches = exact or [
        w for w in windows if wanted in w.title.lower() or wanted == w.process.lower() or wanted in w.app_class.lower()
    ]
    if not matches:
        titles = ", ".join(shown(w.title, 60) for w in windows) or "none"
        raise NotFound(f"no window matches {shown(selector)}", hint=f"open windows: {titles} — run `winctl windows`")
    return next((w for w in matches if w.active), matches[0])


def choose_window(
    windows: list[WindowInfo], remembered: str | None, last_pid: int | None, one_screen: bool
) -> tuple[WindowInfo, str | None]:
    """The window commands act on when none is named, and a note for the agent when it is not
    the remembered one (`remembered`: the session's window id; `last_pid`: the process of the
    window its latest state read).

    - A phone (`one_screen`): the screen, whatever app is in front.
    - Nothing remembered: the active window; NotFound when none is.
    - The remembered window, unless another window of its process is active (a dialog the app
      opened): the agent's attention must go there, so that one, with a note.
    - The remembered window closed: the active window when it is of the process last read
      (the app replaced its window), with a note; else WindowClosed."""
    if one_screen and windows:
        return windows[0], None
    active = next((w for w in windows if w.active), None)
    if remembered is None:
        if active is None:
            raise NotFound(
                "no window is selected and none is active", hint="run `winctl windows`, then `winctl focus TITLE`"
            )
        return active, None
    current = next((w for w in windows if w.id == remembered), None)
    if (
        current is not None
        and active is not None
        and active.id != current.id
        and active.pid == current.pid
        and active.pid is not None
    ):
        return active, f'following the active window "{active.title}" of the same app'
    if current is None:
        if active is not None and last_pid == active.pid:
            return active, f'the previous window closed; now in "{active.title}"'
        raise WindowClosed(
            f"the session's window {remembered} is closed",
            hint="run `winctl windows`, then `winctl focus TITLE` or `winctl launch APP`",
        )
    return current, None


def _int_id(window_id: str) -> int | None:
    """A window id as a number (`0x3a00007`, `58720263`); None when it is not one."""
    try:
        return int(window_id, 0)
    except ValueError:
        return None
