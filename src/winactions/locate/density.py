"""Pixel density: how many screen pixels an app draws per logical pixel, for screenshots and
reference images, so that a reference is searched for first at the scale the two densities
give.

`winctl screenshot` records it in the PNG (`pnginfo`: a text chunk and the matching DPI); a
name ending in `@2x` says it too (`recorded` reads either). `search` gives the scales to try
for a reference's density and a window's (its backend's `Backend.density`): their ratio and
KNOWN around it when both are known, else TOLERANCE (an image that says nothing is guessed
1x). Why: docs/locator.md ("Pixel density").
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

from PIL import Image, PngImagePlugin, UnidentifiedImageError

KEY = "winctl-density"  # the PNG text chunk `winctl screenshot` writes
DPI_PER_UNIT = 96  # the DPI of a 1x screen, as Windows and X11 count it
LIMITS = (0.25, 4.0)  # densities outside this are no screen's: an @100x name is not one
TOLERANCE = (0.5, 1.5)  # a reference is searched drawn half to one and a half times the size expected
KNOWN = (0.7, 1.4)  # ... and within this of it when both densities are known (only rounding and rendering differ)
SUFFIX = r"@(?P<density>\d+(?:\.\d+)?)x"  # a name's `@2x`: part of no asset's name (`assets`, `agent.images`)
_SUFFIX = re.compile(SUFFIX + "$")


def recorded(path: str | os.PathLike[str]) -> float | None:
    """The density an image file says it was captured at: its `@Nx` name, else the text chunk
    `winctl screenshot` wrote; None when it says nothing (or something no screen has)."""
    file = Path(path)
    found = _SUFFIX.search(file.stem)
    value: str | None = found.group(1) if found else None
    if value is None:
        try:
            with Image.open(file) as image:  # reads the header chunks only, not the pixels
                value = getattr(image, "text", {}).get(KEY)
        except (UnidentifiedImageError, OSError, ValueError, SyntaxError):
            return None  # the image's reader says what is wrong with it, later, to the user
    return _valid(value)


def pnginfo(density: float | None) -> dict[str, object]:
    """What `Image.save` takes to record `density` in a PNG (nothing when it is unknown)."""
    if density is None:
        return {}
    info = PngImagePlugin.PngInfo()
    info.add_text(KEY, f"{density:g}")
    return {"pnginfo": info, "dpi": (DPI_PER_UNIT * density, DPI_PER_UNIT * density)}


@dataclass(frozen=True)
class Search:
    """The scales to search a reference at, and the one to try first (None: none is expected)."""

    scales: tuple[float, float]
    first: float | None

    @property
    def then(self) -> tuple[float, float] | None:
        """The scales searched next when these find nothing: the default tolerance, if these
        leave out the reference's own size (a file may say its density wrongly)."""
        return None if self.scales[0] <= 1 <= self.scales[1] else TOLERANCE


def search(reference: float | None, window: float | None, remembered: float | None = None) -> Search:
    """Where to look for a reference of density `reference` in a window of density `window`
    (either None when not known), `remembered` being the scale at which this session last
    found the app's references drawn (as `learned` keeps it).

    - Both known: the reference is drawn window / reference times its size, tried first, then
      0.7-1.4 times that (KNOWN). Equal densities search as if nothing were said.
    - Otherwise the unknown density is guessed to be 1x: the tolerance spans both the guess and
      the reference's own size (a crop that says nothing may have been taken on this very
      display), and the scale remembered, else the guess, is tried first.

    Why KNOWN is narrower than TOLERANCE: docs/locator.md ("Known behaviour")."""
    low, high = TOLERANCE
    if reference is not None and window is not None and round(window / reference, 3) != 1:
        expected = window / reference
        return Search(_clipped(KNOWN[0] * expected, KNOWN[1] * expected), _unless_one(expected))
    guess = (window or 1.0) / (reference or 1.0)
    first = remembered / (reference or 1.0) if remembered is not None else guess
    return Search(_clipped(min(low, low * guess), max(high, high * guess)), _unless_one(first))


def learned(scale: float, reference: float | None) -> float:
    """The scale to remember from a find at `scale` of a reference of density `reference`: as if
    the reference had been captured at 1x, so that references of any density share it."""
    return scale * (reference or 1)


def _clipped(low: float, high: float) -> tuple[float, float]:
    return max(LIMITS[0], low), min(LIMITS[1], high)


def _unless_one(scale: float | None) -> float | None:
    return None if scale is None or round(scale, 3) == 1 else scale


def _valid(value: str | None) -> float | None:
    try:
        density = float(value) if value is not None else None
    except ValueError:
        return None
    return density if density is not None and LIMITS[0] <= density <= LIMITS[1] else None
