"""Screenshots prepared for vision models, and model coordinates mapped back to the screen.

Vision models see images at most ~1568 px on the long edge (larger ones are downscaled by
the provider, silently, and coordinates come back in the downscaled space). We resize first,
remember the factor and map every box back — then add the captured area's screen origin.
Models answer boxes in one of two conventions: pixels of the image they saw, or a 0–1000
grid (GLM, Qwen-VL, Gemini); `to_screen` handles both.
"""

from __future__ import annotations

import base64
import io
from dataclasses import dataclass
from typing import Literal

from PIL import Image

from winactions import settings
from winactions.model import Rect

MAX_SIDE = 1568

BoxUnits = Literal["pixels", "per_mille", "auto"]


@dataclass(frozen=True)
class PreparedImage:
    """An image as sent to the model, and how to get from its pixels back to the screen."""

    image: Image.Image
    scale: float  # sent pixels per screen pixel (≤ 1)
    origin: tuple[int, int]  # screen position of the original image's top-left

    @property
    def size(self) -> tuple[int, int]:
        return self.image.size

    def to_screen(self, box: list[float] | tuple[float, ...], units: BoxUnits = "pixels") -> Rect:
        """Map `[x1, y1, x2, y2]` in the model's units back to screen pixels."""
        if len(box) != 4:
            raise ValueError(f"a box needs 4 numbers, got {len(box)}")
        x1, y1, x2, y2 = (float(v) for v in box)
        width, height = self.image.size
        if units == "auto":
            units = (
                "per_mille"
                if max(x2, y2) <= 1000 and (width > 1000 or height > 1000 or max(x2, y2) > max(width, height))
                else "pixels"
            )
        if units == "per_mille":
            x1, x2 = x1 * width / 1000, x2 * width / 1000
            y1, y2 = y1 * height / 1000, y2 * height / 1000
        left, right = sorted((x1, x2))
        top, bottom = sorted((y1, y2))
        ox, oy = self.origin
        return Rect(
            left=ox + round(left / self.scale),
            top=oy + round(top / self.scale),
            right=ox + round(right / self.scale),
            bottom=oy + round(bottom / self.scale),
        )


def prepare(image: Image.Image, origin: tuple[int, int] = (0, 0), max_side: int = MAX_SIDE) -> PreparedImage:
    """Downscale so the long edge is at most `max_side`; keep the factor for mapping back."""
    long_edge = max(image.size)
    if long_edge <= max_side:
        return PreparedImage(image.convert("RGB"), 1.0, origin)
    scale = max_side / long_edge
    size = (max(1, round(image.width * scale)), max(1, round(image.height * scale)))
    return PreparedImage(image.convert("RGB").resize(size, Image.Resampling.LANCZOS), scale, origin)


def to_base64_png(image: Image.Image) -> str:
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", compress_level=1)
    return base64.b64encode(buffer.getvalue()).decode("ascii")


UNITS_TEXT = {"pixels": "pixel coordinates", "per_mille": "coordinates on a 0-1000 grid over the width and height"}


def box_units(model_name: str | None) -> str:
    """Which box convention to ask a model for: GLM and Qwen-VL are trained on a 0–1000 grid.
    WINCTL_VISION_BOX_UNITS (pixels | per_mille) overrides the guess."""
    configured = settings.VISION_BOX_UNITS.read()
    if configured in UNITS_TEXT:
        return configured
    name = (model_name or settings.VISION_MODEL.read() or "").lower()
    return "per_mille" if any(k in name for k in ("glm", "qwen")) else "pixels"
