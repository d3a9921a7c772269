"""Pixels as a computer-use model sees them: the screen shrunk as the model's API shrinks it.

Anthropic's API shrinks a picture over 1568 pixels on a side or about 1.15 megapixels before
the model sees it, and the model answers in the shrunk picture's pixels. The tools of another
tool set (`winctl mcp --tools computer`, `computer-use`) and the Anthropic executor
(`winactions.adapters.anthropic_computer`) therefore speak the picture's pixels, at
`vision_scale` of the screen's: a screenshot is sent shrunk by that factor, every coordinate,
region or size the model gives (a `translated.Pixel`, read inside `model_pixels`) is taken
back to screen pixels, and every position a result gives (a window's rectangle, the point
clicked, the pointer) is given shrunk. On a 1920×1080 screen the model sees 1430×804, and its
click at (715, 402) lands at (960, 540). A zoom's picture is its region at the screen's own
resolution, as the tool means it. An error still speaks screen pixels, and says so.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, cast

from PIL import Image
from pydantic import BaseModel

from winactions.commands.base import Result
from winactions.commands.results import ActionResult, BatchResult, ScreenshotResult, ValueResult
from winactions.errors import WinctlError
from winactions.model import Rect

LONG_EDGE = 1568  # pixels on a picture's longer side the API keeps
MEGAPIXELS = 1.15  # a picture's area the API keeps, about
_FACTOR: ContextVar[float] = ContextVar("winactions_model_pixels", default=1.0)
_POSITIONS = re.compile(r"-?\d+, -?\d+")  # "(2400, 5)", "[0,0,1920,1080]": what a command's error gives


def vision_scale(width: int, height: int) -> float:
    """The factor the API shrinks a `width`×`height` picture by (1.0: it keeps it whole)."""
    return min(1.0, LONG_EDGE / max(width, height), math.sqrt(MEGAPIXELS * 1_000_000 / (width * height)))


@contextmanager
def model_pixels(factor: float) -> Iterator[None]:
    """Within it, a translated tool's pixel arguments are the model's, `factor` of a screen
    pixel each (1.0: screen pixels), and are read as screen pixels (`to_screen`)."""
    if not 0 < factor <= 1:
        raise ValueError(f"a model's pixels are a factor in (0, 1] of the screen's, not {factor}")
    token = _FACTOR.set(factor)
    try:
        yield
    finally:
        _FACTOR.reset(token)


def to_screen(value: int) -> int:
    """A length or position in the model's pixels, in screen pixels."""
    return round(value / _FACTOR.get())


def shown_to_model(result: Result, factor: float, command: str) -> Result:
    """`result` as the model should read it when it sees the screen at `factor`: every
    position in it in the model's pixels — each rectangle (a window's, an element's, a
    screenshot's area), the point an action acted at, the pointer (`cursor`) — and each picture
    but a zoom's shrunk by `factor` in its file, with its new size. A zoom's picture keeps the
    screen's resolution; at 1.0 the result is left as it is."""
    if factor == 1.0:
        return result
    if isinstance(result, BatchResult):
        steps = [
            s.model_copy(update={"result": shown_to_model(s.result, factor, s.command)}) if s.result else s
            for s in result.steps
        ]
        return result.model_copy(update={"steps": steps})
    if isinstance(result, ScreenshotResult) and command != "zoom":
        result = _shrunk(result, factor)
    if isinstance(result, ValueResult) and command == "cursor" and isinstance(result.value, list):
        result = result.model_copy(update={"value": [round(v * factor) for v in result.value]})
    if isinstance(result, ActionResult) and result.point is not None:
        result = result.model_copy(update={"point": (round(result.point[0] * factor), round(result.point[1] * factor))})
    return cast(Result, _rects_scaled(result, factor))


def _rects_scaled(value: Any, factor: float) -> Any:
    """`value` with every `Rect` in it, at any depth of its models and lists, scaled by `factor`."""
    if isinstance(value, Rect):
        return Rect(
            left=round(value.left * factor),
            top=round(value.top * factor),
            right=round(value.right * factor),
            bottom=round(value.bottom * factor),
        )
    if isinstance(value, BaseModel):
        fields = type(value).model_fields
        return value.model_copy(update={name: _rects_scaled(getattr(value, name), factor) for name in fields})
    if isinstance(value, list):
        return [_rects_scaled(item, factor) for item in value]
    return value


def in_screen_pixels(error: WinctlError, factor: float) -> None:
    """Add to `error` that the positions it gives are the screen's, not the shrunk picture's
    (a command's errors speak screen pixels: "(2400, 5) is off every screen")."""
    if factor != 1.0 and _POSITIONS.search(error.message):
        error.message += f" (positions in screen pixels; the screenshot shows the screen at {factor:.3g})"


def _shrunk(shot: ScreenshotResult, factor: float) -> ScreenshotResult:
    """The screenshot with its file shrunk by `factor`, and its size and `shown_at` saying so."""
    size = (max(1, round(shot.width * factor)), max(1, round(shot.height * factor)))
    with Image.open(shot.path) as picture:
        if picture.size != size:
            picture.convert("RGB").resize(size, Image.Resampling.LANCZOS).save(shot.path, "PNG")
    return shot.model_copy(update={"width": size[0], "height": size[1], "shown_at": factor})


__all__ = ["LONG_EDGE", "MEGAPIXELS", "in_screen_pixels", "model_pixels", "shown_to_model", "to_screen", "vision_scale"]
