"""`verify_location`: is the element still where it was found?

Two witnesses, cheapest first. The pixels: `locate` keeps a 16×16 grey thumbnail of the box
it found; the same pixels there now (the cache's rule: mean cell difference ≤ 12 of 255, no
cell over 40) mean the element has not moved, changed or been covered — microseconds, no OCR.
When the pixels changed, or no thumbnail was kept, the target is located again (no cache):
found at the same place (IoU ≥ 0.5) it is still there (a hover highlight changes pixels, not
places), found elsewhere it moved, not found it is gone. Every answer says why.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from winactions.locate.cache import MAX_CELL_DIFF, MAX_DIFF, decode_thumbnail, difference, thumbnail
from winactions.locate.locator import Locator, to_grey
from winactions.locate.validate import validate
from winactions.model import Rect, WindowInfo

SAME_PLACE = 0.5  # IoU of the old and the new box still counted as the same place


class Verification(BaseModel):
    """The answer: still there or not, why, and where it is now when that was looked up."""

    target: str
    box: Rect
    still_there: bool
    reason: str
    checked: str  # "pixels" (the thumbnail alone decided) or "located" (looked for again)
    difference: float | None = None  # mean grey difference of the thumbnail's cells, when one was given
    largest: float | None = None  # the largest difference of one cell
    now: Rect | None = None  # where the target is found now, when it was looked for
    method: str | None = None
    confidence: float | None = None


def verify_location(
    locator: Locator,
    target: str,
    box: Rect,
    thumb: str | None = None,
    *,
    window: WindowInfo | None = None,
    reliable: float | None = None,
) -> Verification:
    """Is `target`, found at `box` (with the pixels `thumb`, if kept), still there now?"""

    def answer(still: bool, reason: str, checked: str, **more: Any) -> Verification:
        return Verification(target=target, box=box, still_there=still, reason=reason, checked=checked, **more)

    on_screen = validate(box, locator.backend.screens())
    if not on_screen.valid:
        return answer(False, on_screen.error or f"the box {box} is off every screen", "pixels")
    diff = largest = None
    changed = ""
    if thumb is not None:
        kept = decode_thumbnail(thumb)
        diff, largest = (round(v, 1) for v in difference(kept, thumbnail(to_grey(locator.grab(box)))))
        measured = f"mean difference {diff:g}, largest {largest:g}"
        if diff <= MAX_DIFF and largest <= MAX_CELL_DIFF:
            return answer(
                True,
                f"the pixels at {box} are unchanged ({measured}; limits {MAX_DIFF:g}, {MAX_CELL_DIFF:g})",
                "pixels",
                difference=diff,
                largest=largest,
            )
        changed = f"the pixels at {box} changed ({measured}); "
    result = locator.locate(target, window=window, use_cache=False, reliable=reliable)
    found = result.element
    if not result.success or found is None:
        return answer(
            False, f"{changed}{target} is not found now: {result.error}", "located", difference=diff, largest=largest
        )
    more = {
        "difference": diff,
        "largest": largest,
        "now": found.bbox,
        "method": found.method,
        "confidence": found.confidence,
    }
    overlap = found.bbox.iou(box)
    if overlap >= SAME_PLACE:
        return answer(
            True,
            f"{changed}{target} is found there again by {found.method} ({found.confidence:.2f}, overlap {overlap:.2f})",
            "located",
            **more,
        )
    return answer(
        False,
        f"{changed}{target} moved: now at {found.bbox} by {found.method} ({found.confidence:.2f})",
        "located",
        **more,
    )
