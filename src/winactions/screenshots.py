"""Screenshots of a window, saved as PNG, and the annotated kind with element ids drawn on.

The annotated image is how an agent connects what it sees to what it can act on: each
target's rectangle framed, its id in a label, colour by source (tree, inferred, vision).
"""

from __future__ import annotations

import time
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from winactions.backends.base import Backend
from winactions.errors import ActionFailed, InvalidInput
from winactions.model import Rect, Source, Target

_COLOURS = {
    Source.ACCESSIBILITY: (220, 30, 30),
    Source.INFERRED: (20, 120, 220),
    Source.VISION: (20, 160, 60),
    Source.OCR: (200, 120, 0),
    Source.TEMPLATE: (150, 40, 200),
    Source.FIXED: (90, 90, 90),
}


def capture(backend: Backend, rect: Rect) -> Image.Image:
    """Capture `rect`, clipped to the screens; an area off every screen is an error —
    except in a bound window, which the backend captures from the window itself wherever
    it is (seed 003's "move off-screen and keep working")."""
    if backend.bound_window() is not None:
        return backend.capture(rect)
    visible = [part for s in backend.screens() if (part := rect.intersect(s)) is not None]
    if not visible:
        raise InvalidInput(f"the area {rect} is off every screen",
                           hint=f"screens: {', '.join(str(s) for s in backend.screens())}")
    return backend.capture(max(visible, key=lambda r: r.area))


def save_png(image: Image.Image, path: Path) -> Path:
    """Fast PNG (compression level 1): screenshots are read once, speed beats size.

    A path that cannot be written (a full disk, /dev/full, no permission, a folder) is the
    caller's error, said plainly; a half-written file is removed."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        image.save(path, format="PNG", compress_level=1)
    except (OSError, ValueError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        if path.is_file():  # half written
            path.unlink(missing_ok=True)
        raise ActionFailed(f"cannot save the screenshot to {path}: {reason}",
                           hint="give a writable path ending in .png") from None
    return path


def default_path(directory: Path, stem: str) -> Path:
    return directory / f"{stem}-{time.strftime('%Y%m%d-%H%M%S')}-{int(time.time() * 1000) % 1000:03d}.png"


def annotate(image: Image.Image, origin: tuple[int, int], targets: list[Target]) -> Image.Image:
    """Draw each target's frame and id; `origin` is the image's top-left on screen."""
    out = image.convert("RGB").copy()
    draw = ImageDraw.Draw(out)
    font = ImageFont.load_default()
    ox, oy = origin
    for t in targets:
        if t.rect is None:
            continue
        colour = _COLOURS.get(t.source, (220, 30, 30))
        box = (t.rect.left - ox, t.rect.top - oy, t.rect.right - ox - 1, t.rect.bottom - oy - 1)
        draw.rectangle(box, outline=colour, width=1)
        label = str(t.id)
        left, top, right, bottom = draw.textbbox((0, 0), label, font=font)
        w, h = right - left + 4, bottom - top + 2
        lx, ly = box[0], max(0, box[1] - h)
        draw.rectangle((lx, ly, lx + w, ly + h), fill=colour)
        draw.text((lx + 2, ly - top + 1), label, fill=(255, 255, 255), font=font)
    return out
