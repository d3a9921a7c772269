"""The apps' pixels without winctl's own: a capture for perception with the overlays painted out.

The status label and a teach step are drawn over apps (`Backend.overlays`); what reads pixels
as the app's (OCR, vision, `locate` by text or image) must not read them. Each overlay's
rectangle is filled with the colour around it, flat, so no text, edge or shape of it is left;
what the app draws under it is not seen either, and `Backend.covers` names it as covered.
A screenshot for a person (`winctl screenshot`) is taken as it is, overlays and all.
"""

from __future__ import annotations

from PIL import Image, ImageDraw, ImageStat

from winactions.model import Rect


def paint_out(image: Image.Image, origin: tuple[int, int], overlays: list[Rect]) -> Image.Image:
    """`image` (its top-left at `origin` on screen) with each overlay's part filled with the
    median colour of the pixels just around it (mid grey when none is in the image); the
    image itself when no overlay touches it."""
    bounds = Rect.from_xywh(origin[0], origin[1], image.width, image.height)
    parts = [part for r in overlays if (part := r.intersect(bounds)) is not None]
    if not parts:
        return image
    out = image.convert("RGB").copy()
    draw = ImageDraw.Draw(out)
    for part in parts:
        box = part.moved(-origin[0], -origin[1])
        draw.rectangle((box.left, box.top, box.right - 1, box.bottom - 1), fill=_around(image.convert("RGB"), box))
    return out


def _around(image: Image.Image, box: Rect) -> tuple[int, int, int]:
    """The median colour of a 2 px band just outside `box` (image pixels), inside the image."""
    strips = [
        (box.left, box.top - 2, box.right, box.top),
        (box.left, box.bottom, box.right, box.bottom + 2),
        (box.left - 2, box.top, box.left, box.bottom),
        (box.right, box.top, box.right + 2, box.bottom),
    ]
    raw = b""
    for left, top, right, bottom in strips:
        left, top = max(left, 0), max(top, 0)
        right, bottom = min(right, image.width), min(bottom, image.height)
        if right > left and bottom > top:
            raw += image.crop((left, top, right, bottom)).tobytes()
    if not raw:
        return (128, 128, 128)
    band = Image.frombytes("RGB", (len(raw) // 3, 1), raw)
    r, g, b = ImageStat.Stat(band).median
    return (int(r), int(g), int(b))
