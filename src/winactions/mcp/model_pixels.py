"""Pixels as a computer-use model sees them: the screen shrunk as the model's API shrinks it.

Anthropic's API shrinks a picture over 1568 pixels on a side or about 1.15 megapixels before
the model sees it, and the model answers in the shrunk picture's pixels. The tools of another
tool set (`winctl mcp --tools computer`, `computer-use`) and the Anthropic executor
(`winactions.adapters.anthropic_computer`) therefore speak the picture's pixels, at
`vision_scale` of the screen's: a screenshot is sent shrunk by that factor, every coordinate,
region or size the model gives (a `translated.Pixel`, read inside `model_pixels`) is taken
back to screen pixels, and the pointer's position is given shrunk. On a 1920×1080 screen the
model sees 1430×804, and its click at (715, 402) lands at (960, 540). A zoom's picture is its
region at the screen's own resolution, as the tool means it.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from PIL import Image

from winactions.commands.base import Result
from winactions.commands.results import BatchResult, ScreenshotResult, ValueResult
from winactions.errors import WinctlError

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
    """`result` as the model should read it when it sees the screen at `factor`: each picture
    (a screenshot, a batch's screenshot steps) shrunk by it in its file, with its new size, and
    the pointer's position (`cursor`) in the model's pixels. A zoom's picture, and everything
    at 1.0, is left as it is."""
    if factor == 1.0 or command == "zoom":
        return result
    if isinstance(result, ScreenshotResult):
        return _shrunk(result, factor)
    if isinstance(result, ValueResult) and command == "cursor" and isinstance(result.value, list):
        return result.model_copy(update={"value": [round(v * factor) for v in result.value]})
    if isinstance(result, BatchResult):
        steps = [
            s.model_copy(update={"result": shown_to_model(s.result, factor, s.command)}) if s.result else s
            for s in result.steps
        ]
        return result.model_copy(update={"steps": steps})
    return result


def in_screen_pixels(error: WinctlError, factor: float) -> None:
    """Add to `error` that the positions it gives are the screen's, not the shrunk picture's
    (a command's errors speak screen pixels: "(2400, 5) is off every screen")."""
    if factor != 1.0 and _POSITIONS.search(error.message):
        error.message += f" (positions in screen pixels; the screenshot shows the screen at {factor:.3g})"


def _shrunk(shot: ScreenshotResult, factor: float) -> ScreenshotResult:
    """The screenshot with its file shrunk by `factor` (its rect stays the screen's)."""
    size = (max(1, round(shot.width * factor)), max(1, round(shot.height * factor)))
    with Image.open(shot.path) as picture:
        if picture.size != size:
            picture.convert("RGB").resize(size, Image.Resampling.LANCZOS).save(shot.path, "PNG")
    return shot.model_copy(update={"width": size[0], "height": size[1], "shown_at": factor})


__all__ = ["LONG_EDGE", "MEGAPIXELS", "in_screen_pixels", "model_pixels", "shown_to_model", "to_screen", "vision_scale"]
