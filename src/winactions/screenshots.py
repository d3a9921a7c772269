"""Screenshots of a window, saved as PNG, and the annotated kind with element ids drawn on.

The annotated image is how an agent connects what it sees to what it can act on: each
target's rectangle framed and its id in a label placed so that it cannot be read as
another element's (`winactions.marks`); frames not from the tree are dashed.
"""

from __future__ import annotations

import functools
import time
from pathlib import Path
from typing import BinaryIO

from PIL import Image, ImageDraw, ImageFont, ImageStat

from winactions import marks, outputs
from winactions.backends.base import Backend
from winactions.errors import InvalidInput
from winactions.model import Rect, Source, Target, WindowInfo


def covered(backend: Backend, window: WindowInfo) -> list[tuple[Rect, str]]:
    """What lies over the window in its capture (`Backend.covers`): nothing while it is bound,
    as the backend then captures the window itself, covered or not."""
    return [] if backend.bound_window() == window.id else backend.covers(window)


def capture(backend: Backend, rect: Rect) -> Image.Image:
    """Capture `rect`, clipped to the screens it lies on (all of them: an area across two
    monitors is both parts); an area off every screen is an error — except in a bound window,
    which the backend captures from the window itself wherever it is (a window parked
    off-screen keeps working)."""
    if backend.bound_window() is not None:
        return backend.capture(rect)
    visible = [part for s in backend.screens() if (part := rect.intersect(s)) is not None]
    if not visible:
        raise InvalidInput(
            f"the area {rect} is off every screen", hint=f"screens: {', '.join(str(s) for s in backend.screens())}"
        )
    return backend.capture(functools.reduce(Rect.union, visible))


def whole_screen(backend: Backend, display: Rect | None = None) -> Rect:
    """What `screenshot --screen` captures: the chosen display (`switch-display`) when there
    is one, else the rectangle holding every screen."""
    if display is not None:
        return display
    screens = backend.screens()
    return Rect(
        left=min(s.left for s in screens),
        top=min(s.top for s in screens),
        right=max(s.right for s in screens),
        bottom=max(s.bottom for s in screens),
    )


def save_png(
    image: Image.Image, path: Path, metadata: dict[str, object] | None = None, *, replace: bool = True
) -> Path:
    """Fast PNG (compression level 1): screenshots are read once, speed beats size. `metadata`:
    what PIL's PNG encoder writes besides the pixels (`locate.density.pnginfo`). Where it may
    go is the caller's to check (`winactions.outputs`); `replace`: over what is at `path`,
    else under the first free numbered name. Returns where it went.

    A path that cannot be written (a full disk, /dev/full, no permission, a folder) is the
    caller's error, said plainly; nothing half-written is left, and nothing is removed."""

    def fill(f: BinaryIO) -> None:
        try:
            image.save(f, format="PNG", compress_level=1, **(metadata or {}))
        except ValueError as exc:
            raise OSError(str(exc)) from None

    return outputs.write(path, fill, replace)


def default_path(directory: Path, stem: str) -> Path:
    return directory / f"{stem}-{time.strftime('%Y%m%d-%H%M%S')}-{int(time.time() * 1000) % 1000:03d}.png"


Font = ImageFont.FreeTypeFont | ImageFont.ImageFont
UNLABELLED = {"Separator"}  # a line between menu items: nothing to act on, and no room for a label
LABEL_SIZES = (12, 10)  # font pixel sizes: the smaller one only where the larger cannot fit


def annotate(image: Image.Image, origin: tuple[int, int], targets: list[Target]) -> tuple[Image.Image, marks.Layout]:
    """Draw each target's frame and id; `origin` is the image's top-left on screen.

    Labels are placed by `winactions.marks` so that each touches its own frame and no other
    and none hides another; the layout (in image pixels) comes back with the ids that could
    not be labelled without misleading. Frames from outside the tree (inferred, vision,
    OCR...) are dashed."""
    out = image.convert("RGB").copy()
    ox, oy = origin
    items = [
        (t.id, Rect(left=t.rect.left - ox, top=t.rect.top - oy, right=t.rect.right - ox, bottom=t.rect.bottom - oy))
        for t in targets
        if t.rect is not None and t.type not in UNLABELLED
    ]
    bounds = Rect(left=0, top=0, right=out.width, bottom=out.height)
    grey = out.convert("L")

    def ink(rect: Rect) -> float:
        """How busy the picture is under a label: the grey levels' spread, 0 (flat) to 1."""
        stddev = ImageStat.Stat(grey.crop((rect.left, rect.top, rect.right, rect.bottom))).stddev[0]
        return min(stddev / 64.0, 1.0)

    best: tuple[marks.Layout, Font] | None = None
    for size in LABEL_SIZES:
        font = _font(size)
        layout = marks.place(items, functools.partial(_label_size, font), bounds, ink)
        if best is None or len(layout.unplaced) < len(best[0].unplaced):
            best = (layout, font)
        if not layout.unplaced:
            break
    assert best is not None
    layout, font = best
    sources = {t.id: t.source for t in targets}
    draw = ImageDraw.Draw(out)
    for mark in layout.marks:
        box = (mark.box.left, mark.box.top, mark.box.right - 1, mark.box.bottom - 1)
        if all(sources.get(i) is Source.ACCESSIBILITY for i in mark.ids):
            draw.rectangle(box, outline=mark.colour, width=1)
        else:
            _dashed(draw, box, mark.colour)
    for mark in layout.marks:  # labels over every frame, so that no frame line crosses a number
        lab = mark.label
        draw.rectangle((lab.left, lab.top, lab.right - 1, lab.bottom - 1), fill=mark.colour)
        left, top, _right, _bottom = draw.textbbox((0, 0), mark.text, font=font)
        draw.text((lab.left + 2 - left, lab.top + 1 - top), mark.text, fill=(255, 255, 255), font=font)
    return out, layout


def _font(size: int) -> Font:
    """Pillow's bundled font at `size` pixels (FreeType); its bitmap font where FreeType is missing."""
    try:
        return ImageFont.load_default(size=size)
    except (ImportError, OSError):  # pragma: no cover - Pillow built without FreeType
        return ImageFont.load_default()


def _label_size(font: Font, text: str) -> tuple[int, int]:
    left, top, right, bottom = font.getbbox(text)
    return int(right - left) + 4, int(bottom - top) + 3


def _dashed(
    draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], colour: tuple[int, int, int], dash: int = 4
) -> None:
    left, top, right, bottom = box
    for x in range(left, right + 1, dash * 2):
        draw.line((x, top, min(x + dash - 1, right), top), fill=colour)
        draw.line((x, bottom, min(x + dash - 1, right), bottom), fill=colour)
    for y in range(top, bottom + 1, dash * 2):
        draw.line((left, y, left, min(y + dash - 1, bottom)), fill=colour)
        draw.line((right, y, right, min(y + dash - 1, bottom)), fill=colour)
