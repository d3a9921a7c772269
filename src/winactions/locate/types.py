"""What every locate strategy returns: candidates on screen, best first."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from PIL import Image

from winactions.model import Rect, WindowInfo


class PixelSource(Protocol):
    """What the locator needs to read pixels: a platform backend, or a screenshot on disk."""

    def screens(self) -> list[Rect]: ...

    def capture(self, rect: Rect) -> Image.Image: ...

    def covering(self, window_id: str, x: int, y: int, in_popup: bool) -> str | None:
        """What lies over the window at (x, y): another window, a tooltip (`Backend.covering`);
        None when the window shows there, or when it cannot be told (a screenshot on disk)."""
        ...

    def density(self, window: WindowInfo | None) -> float | None:
        """Screen pixels per logical pixel in the window (`Backend.density`); for a screenshot on
        disk, what the file recorded; None when nothing says."""
        ...


@dataclass(frozen=True)
class Candidate:
    """One place on screen where a strategy believes the target is.

    `rect` is in screen pixels (strategies add the origin of the image they searched).
    `confidence` is in 0..1 and comparable across strategies only roughly: each strategy
    documents what its number means. `label` is what was matched (the OCR text, the asset
    name); `detail` carries strategy-specific facts (scale, matcher, OCR score).
    """

    rect: Rect
    confidence: float
    method: str
    label: str = ""
    detail: dict[str, float | str] = field(default_factory=dict)
