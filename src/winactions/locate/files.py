"""Screenshots on disk as the locator's screen: locate, match and verify on a saved
screenshot, without a display, an accessibility bus or a window.

`ScreenFile` offers the two things the locator asks of a backend — `screens()` and
`capture(rect)` — from one image, whose top-left is (0, 0): boxes found in it are pixels of
the file. Every bad input (a missing file, a folder, something that is not an image) is an
`InvalidInput` naming the file and its role, never a decoder's traceback.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from PIL import Image, UnidentifiedImageError

from winactions.errors import InvalidInput
from winactions.locate import density
from winactions.model import Rect, WindowInfo

Image.MAX_IMAGE_PIXELS = None  # our own screenshots: a 3-monitor capture is no decompression bomb


def read_image(path: str | os.PathLike[str], role: str = "image") -> Image.Image:
    """The RGB pixels of an image file; `role` ("the screenshot", "the reference") names it in errors."""
    file = Path(path).expanduser()
    if not file.exists():
        raise InvalidInput(f"{role} {file} does not exist", hint="check the path (relative to the current folder)")
    if not file.is_file():
        raise InvalidInput(f"{role} {file} is not a file", hint="pass an image file (PNG, JPEG, BMP)")
    try:
        with Image.open(file) as image:
            image.load()
            rgb = image.convert("RGB")
    except (UnidentifiedImageError, OSError, ValueError, SyntaxError) as exc:
        raise InvalidInput(
            f"{role} {file} is not an image that can be read ({exc.__class__.__name__})",
            hint="save it as PNG (e.g. `winctl screenshot shot.png`)",
        ) from None
    if rgb.width < 1 or rgb.height < 1:
        raise InvalidInput(f"{role} {file} has no pixels")
    return rgb


def to_bgr(image: Image.Image) -> np.ndarray:
    """PIL RGB → the BGR array OpenCV and the strategies use."""
    return np.ascontiguousarray(np.asarray(image.convert("RGB"))[:, :, ::-1])


@dataclass
class ScreenFile:
    """One saved screenshot standing in for the screens: what the locator needs of a backend."""

    image: Image.Image
    name: str = "screenshot"
    recorded: float | None = None  # the density the file says it was captured at (`locate.density`)

    @classmethod
    def open(cls, path: str | os.PathLike[str]) -> ScreenFile:
        return cls(read_image(path, "the screenshot"), str(path), density.recorded(path))

    @property
    def rect(self) -> Rect:
        return Rect(left=0, top=0, right=self.image.width, bottom=self.image.height)

    def screens(self) -> list[Rect]:
        return [self.rect]

    def covering(self, window_id: str, x: int, y: int, in_popup: bool) -> str | None:
        return None  # a picture has no windows over one another

    def density(self, window: WindowInfo | None) -> float | None:
        return self.recorded

    def capture(self, rect: Rect) -> Image.Image:
        part = rect.intersect(self.rect)
        if part is None:
            raise InvalidInput(f"{rect} is outside {self.name} ({self.image.width}x{self.image.height})")
        return self.image.crop((part.left, part.top, part.right, part.bottom))
