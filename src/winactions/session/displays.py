"""The display a session looks at (`switch-display N`), and the one place where coordinates
cross between that display and the screen.

On `all` (the default) coordinates are the whole screen's, as the backend's are, and nothing
here runs. On a monitor, every coordinate a caller gives is relative to that monitor's
top-left and every coordinate a result carries is made relative to it, as Anthropic's
computer-use tool treats a display: points in get the origin added and are refused off the
monitor (`Frame.params_in`), results out get it subtracted (`Frame.shown`). `dispatch` is the
only caller of both, so below it everything — the session's store, the backend, an access
check on the window under a point — stays in screen coordinates.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, TypeGuard, TypeVar

from pydantic import BaseModel, ConfigDict

from winactions.backends.base import Backend
from winactions.errors import InvalidInput, NotFound
from winactions.model import Rect, WindowInfo

# parameters that are a screen point, by name: (x, y) and the ends of a drag or swipe
POINT_PARAMS = (("x", "y"), ("x1", "y1"), ("x2", "y2"))
# text parameters that are an area "x,y,width,height" (`locate --region`, `verify-location --at`)
AREA_PARAMS = ("region", "at")
# result fields that are a screen point (an action's, a located element's centre and click point)
POINT_FIELDS = frozenset({"point", "center", "click_point"})
# `ValueResult`-like models (`what`, `value`): values that are a rect list or a point list
VALUE_RECTS, VALUE_POINTS = frozenset({"rect"}), frozenset({"cursor"})
_AREA = re.compile(r"^\s*(-?\d+)\s*,\s*(-?\d+)\s*,\s*(\d+)\s*,\s*(\d+)\s*$")
_RECT_TEXT = re.compile(r"^\[(-?\d+),(-?\d+),(-?\d+),(-?\d+)\]$")  # str(Rect), as `inspect` shows it
# an action's `detail` naming where a drag or swipe ended: "to (2020, 10)"
_DETAIL_POINT = re.compile(r"\bto \((-?\d+), (-?\d+)\)")


class Display(BaseModel):
    """One monitor as a session sees it: its index in the backend's order, its name, its
    rectangle on the whole screen, and whether it is the primary one."""

    model_config = ConfigDict(frozen=True)

    index: int
    name: str
    rect: Rect
    primary: bool = False

    @property
    def label(self) -> str:
        """`display 1 (1920,0 1920x1080)`: what results say they are relative to."""
        r = self.rect
        return f"display {self.index} ({r.left},{r.top} {r.width}x{r.height})"

    def data(self) -> dict[str, Any]:
        return {"index": self.index, "name": self.name, "rect": self.rect.as_list(), "primary": self.primary}


def listed(backend: Backend) -> list[Display]:
    """The backend's monitors as displays, numbered from 0 in its order."""
    return [Display(index=i, name=m.name, rect=m.rect, primary=m.primary) for i, m in enumerate(backend.monitors())]


def described(displays: Sequence[Display]) -> str:
    """`0 LEFT (0,0 1920x1080), 1 RIGHT (1920,0 1920x1080)`: for messages."""
    return ", ".join(f"{d.index} {d.name} {d.label.removeprefix(f'display {d.index} ')}" for d in displays)


def choose(backend: Backend, index: int) -> Display:
    """The display numbered `index`; InvalidInput naming the displays there are otherwise."""
    displays = listed(backend)
    if not 0 <= index < len(displays):
        raise InvalidInput(
            f"there is no display {index}: the displays are {described(displays)}",
            hint="`winctl displays` lists them; `winctl switch-display all` is the whole screen; nothing was changed",
        )
    return displays[index]


def chosen(backend: Backend, index: int | None) -> Display | None:
    """The session's display (`index`, as saved), or None for the whole screen; when that
    monitor is gone (unplugged, the screen reconfigured) an error that says so and what to do."""
    if index is None:
        return None
    displays = listed(backend)
    if index >= len(displays):
        raise NotFound(
            f"the session's display {index} is gone: the displays now are {described(displays)}",
            hint="`winctl switch-display N` picks one, `winctl switch-display all` the whole screen",
        )
    return displays[index]


def on(display: Display, window: WindowInfo) -> bool:
    """Whether the window is on the display: the centre of its client area is."""
    return window.rect is not None and not window.minimized and display.rect.contains(*window.rect.center)


def window_on(
    display: Display, windows: Sequence[WindowInfo], remembered: str | None
) -> tuple[WindowInfo | None, str | None]:
    """Of `windows`, the one a command acts on when none is named and the session looks at
    `display`: the remembered window when it is there (None, for the usual choice among the
    display's windows), else the active one when it is there, else the last one listed there
    (the newest), with a note; NotFound when no window is on the display."""
    here = [w for w in windows if on(display, w)]
    if not here:
        raise NotFound(
            f"no window is on {display.label}",
            hint="`winctl windows` lists every window with its rect; `winctl --window TITLE window move X Y` "
            "brings one there, or `winctl switch-display all` looks at the whole screen",
        )
    if remembered is not None and any(w.id == remembered for w in here):
        return None, None
    pick = next((w for w in here if w.active), here[-1])
    away = "" if remembered is None else f"the session's window is not on {display.label}; "
    return pick, f'{away}now in "{pick.title}", on {display.label}'


M = TypeVar("M", bound=BaseModel)


@dataclass(frozen=True)
class Frame:
    """The coordinates of one display: points in are moved onto the screen and checked to lie
    on the display; rects and points out are moved back (see the module's docstring)."""

    display: Display

    @property
    def origin(self) -> tuple[int, int]:
        return self.display.rect.left, self.display.rect.top

    def point_in(self, x: int, y: int, what: str = "the point") -> tuple[int, int]:
        """The screen point of (x, y) on the display; InvalidInput when it is off the display."""
        r = self.display.rect
        if not (0 <= x < r.width and 0 <= y < r.height):
            raise InvalidInput(
                f"{what} ({x}, {y}) is off {self.display.label}",
                hint=f"coordinates on display {self.display.index} run from (0, 0) to ({r.width - 1}, "
                f"{r.height - 1}); `winctl switch-display all` takes whole-screen ones; nothing was done",
            )
        return x + r.left, y + r.top

    def rect_in(self, rect: Rect, what: str = "the area") -> Rect:
        """The screen rect of a rect on the display; InvalidInput unless all of it is on it."""
        local = Rect.from_xywh(0, 0, self.display.rect.width, self.display.rect.height)
        if rect.is_empty or not local.encloses(rect):
            raise InvalidInput(
                f"{what} {rect} is not all on {self.display.label}",
                hint=f"give an area inside (0, 0)-({local.right}, {local.bottom}); "
                "`winctl switch-display all` takes whole-screen ones; nothing was done",
            )
        return rect.moved(*self.origin)

    def params_in(self, params: M) -> M:
        """`params` with every screen point and area moved onto the screen (`POINT_PARAMS`;
        with `width` and `height` beside `x` and `y`, an area; `AREA_PARAMS` as text), each
        checked to lie on the display. A text area that does not parse is left to its command."""
        update: dict[str, Any] = {}
        for fx, fy in POINT_PARAMS:
            x, y = getattr(params, fx, None), getattr(params, fy, None)
            if not (_is_int(x) and _is_int(y)):
                continue
            w, h = getattr(params, "width", None), getattr(params, "height", None)
            if fx == "x" and _is_int(w) and _is_int(h):
                moved = self.rect_in(Rect.from_xywh(x, y, w, h))
                update[fx], update[fy] = moved.left, moved.top
            else:
                update[fx], update[fy] = self.point_in(x, y, f"{fx},{fy}")
        for name in AREA_PARAMS:
            match = _AREA.match(text) if isinstance(text := getattr(params, name, None), str) else None
            if match:
                x, y, w, h = (int(g) for g in match.groups())
                moved = self.rect_in(Rect.from_xywh(x, y, w, h), f"--{name}")
                update[name] = f"{moved.left},{moved.top},{moved.width},{moved.height}"
        return params.model_copy(update=update) if update else params

    def shown(self, value: Any) -> tuple[Any, bool]:
        """`value` with every screen rect and point in it made relative to the display, and
        whether it held any: Rects anywhere in models, lists and dicts; `POINT_FIELDS`; the
        `what`/`value` pairs of `VALUE_RECTS`/`VALUE_POINTS`; a rect as `inspect` writes it; the
        end point a drag's or a swipe's `detail` names.
        A model whose `_display` is set was shown already (a batch's step) and is kept."""
        dx, dy = self.origin
        if isinstance(value, Rect):
            return value.moved(-dx, -dy), True
        if isinstance(value, BaseModel):
            return self._model(value)
        if isinstance(value, (list, tuple)):
            pairs = [self.shown(v) for v in value]
            return type(value)(v for v, _ in pairs) if isinstance(value, tuple) else [v for v, _ in pairs], any(
                seen for _, seen in pairs
            )
        if isinstance(value, dict):
            out, seen = {}, False
            for key, item in value.items():
                match = _RECT_TEXT.match(item) if isinstance(item, str) and str(key).endswith("rect") else None
                if match:
                    left, top, right, bottom = (int(g) for g in match.groups())
                    item, hit = str(Rect(left=left - dx, top=top - dy, right=right - dx, bottom=bottom - dy)), True
                else:
                    item, hit = self.shown(item)
                out[key], seen = item, seen or hit
            return out, seen
        return value, False

    def _model(self, model: BaseModel) -> tuple[BaseModel, bool]:
        if getattr(model, "_display", None) is not None:
            return model, False
        dx, dy = self.origin
        update: dict[str, Any] = {}
        seen = False
        for name in type(model).model_fields:
            item = getattr(model, name)
            if name in POINT_FIELDS and _is_point(item):
                update[name], hit = (item[0] - dx, item[1] - dy), True
            elif name == "detail" and isinstance(item, str) and _DETAIL_POINT.search(item):
                update[name] = _DETAIL_POINT.sub(lambda m: f"to ({int(m[1]) - dx}, {int(m[2]) - dy})", item)
                hit = True
            elif name == "value" and getattr(model, "what", None) in VALUE_RECTS | VALUE_POINTS:
                update[name], hit = _moved_list(item, dx, dy)
            else:
                new, hit = self.shown(item)
                if hit:
                    update[name] = new
            seen = seen or hit
        return (model.model_copy(update=update) if update else model), seen


def _is_int(value: Any) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_point(value: Any) -> bool:
    return isinstance(value, (tuple, list)) and len(value) == 2 and all(_is_int(v) for v in value)


def _moved_list(value: Any, dx: int, dy: int) -> tuple[Any, bool]:
    """A [x, y] or [left, top, right, bottom] list moved by (-dx, -dy); anything else kept."""
    if isinstance(value, list) and len(value) in (2, 4) and all(_is_int(v) for v in value):
        return [v - (dx if i % 2 == 0 else dy) for i, v in enumerate(value)], True
    return value, False
