"""`displays` and `switch-display`: which monitor the session's coordinates refer to.

After `switch-display N`, every coordinate a command takes or prints is relative to monitor
N's top-left, `screenshot --screen` is that monitor, and a command with no `--window` acts on
the window there; `switch-display all` (the default) is the whole screen again. The choice is
the session's, so one-shot calls, the daemon and an MCP server of one session share it; the
transform itself is `winactions.session.displays`, applied by `dispatch` alone.
"""

from __future__ import annotations

from typing import Any, ClassVar

from pydantic import Field, field_validator

from winactions.commands.base import Context, Kind, Params, Result, command
from winactions.errors import InvalidInput
from winactions.model import Rect
from winactions.session import displays as chosen_display
from winactions.session.desktop import DesktopSession
from winactions.session.displays import Display


class DisplaysResult(Result):
    """The monitors, in screen coordinates, and which one the session looks at (None: all)."""

    displays: list[Display]
    current: int | None = None
    action: str = "displays"
    screen_coordinates: ClassVar[bool] = True  # a monitor's place is said on the whole screen

    def text(self) -> str:
        """The choice, then one monitor a line: `* 1 RIGHT (1920,0 1920x1080)`, `*` the current one."""
        if self.current is None:
            head = "all: coordinates are the whole screen's"
        else:
            head = f"display {self.current}: coordinates are relative to its top-left"
        lines = [f"{self.action}: {head}" if self.action != "displays" else head]
        for d in self.displays:
            mark = "*" if d.index == self.current else " "
            flags = ", primary" if d.primary else ""
            r = d.rect
            lines.append(f"{mark} {d.index} {d.name} ({r.left},{r.top} {r.width}x{r.height}{flags})")
        return "\n".join(lines)

    def screen(self) -> Rect:
        """The screen the session's coordinates refer to, as (0, 0, width, height): the current
        monitor, else the box around every monitor."""
        shown = self.displays if self.current is None else [self.displays[self.current]]
        rects = [d.rect for d in shown]
        left, top = min(r.left for r in rects), min(r.top for r in rects)
        right, bottom = max(r.right for r in rects), max(r.bottom for r in rects)
        return Rect(left=0, top=0, right=right - left, bottom=bottom - top)

    def data(self) -> dict[str, Any]:
        return {
            "action": self.action,
            "current": "all" if self.current is None else self.current,
            "displays": [d.data() for d in self.displays],
        }


class DisplaysParams(Params):
    pass


@command("displays", DisplaysParams, profiles=("vision",))
def displays(ctx: Context, p: DisplaysParams) -> DisplaysResult:
    """List the monitors: index, name, rect on the whole screen, the primary one, and which
    one the session's coordinates refer to (`switch-display`)."""
    return displays_of(ctx.session)


def displays_of(session: DesktopSession) -> DisplaysResult:
    """The monitors and the session's choice among them (a monitor since gone: the whole screen)."""
    listed = chosen_display.listed(session.backend)
    current = session.data.display
    return DisplaysResult(displays=listed, current=current if current is not None and current < len(listed) else None)


class SwitchParams(Params):
    display: str = Field(description="a display's index from `winctl displays`, or all for the whole screen")

    @field_validator("display", mode="before")
    @classmethod
    def _index_or_all(cls, value: Any) -> Any:
        if isinstance(value, int) and not isinstance(value, bool):
            return str(value)
        if isinstance(value, str) and (value.strip().lower() == "all" or value.strip().isdigit()):
            return value.strip().lower()
        raise ValueError(f"a display is a number like 1, or all; not {value!r}")


@command("switch-display", SwitchParams, kind=Kind.SESSION, positional=("display",), profiles=("vision",))
def switch_display(ctx: Context, p: SwitchParams) -> DisplaysResult:
    """Choose the monitor that coordinates refer to.

    Coordinates, `screenshot --screen` and the window acted on then refer to that monitor.

    After `switch-display 1`, points given (`click-at`, `drag-at`, `zoom`...) and rects
    printed (`state`, `get rect`, `cursor`...) are relative to monitor 1's top-left, a point
    off it is refused, and results say `on display 1 (X,Y WxH)`. `all` (the default) is the
    whole screen again. The session keeps the choice."""
    session = ctx.session
    if p.display == "all":
        session.data.display = None
    else:
        index = int(p.display)
        if index < 0:
            raise InvalidInput("a display index is 0 or more", hint="`winctl displays` lists them")
        session.data.display = chosen_display.choose(session.backend, index).index
    session.save()
    ctx.forget_window()
    return DisplaysResult(
        action="switch-display", displays=chosen_display.listed(session.backend), current=session.data.display
    )
