"""From a found box to a safe click: on which screen, how much is visible, where to press.

Coordinates off every screen are rejected; a partly visible element gets a `safe_region`
(its visible part, shrunk by a margin) and the click goes to that region's centre, not to
the box centre that may lie off screen. Multi-monitor aware: the screens are the backend's,
so negative coordinates on a monitor left of the primary are valid.
"""

from __future__ import annotations

from pydantic import BaseModel

from winactions.model import Rect

MARGIN = 2  # px kept from the visible edge, so a click never lands on a border pixel
MIN_SIDE = 4  # px: a visible sliver of a partly hidden box thinner than this cannot be clicked reliably
MIN_VISIBLE = 0.5  # share of the box that must be visible for `can_interact`


class Validation(BaseModel):
    """Whether and where a located box can be acted on."""

    valid: bool
    error: str | None = None
    click_point: tuple[int, int] | None = None
    visible_region: Rect | None = None
    safe_region: Rect | None = None
    visible_fraction: float = 0.0
    can_interact: bool = False


def validate(rect: Rect, screens: list[Rect], within: Rect | None = None) -> Validation:
    """Check `rect` against the screens (and the window `within`, if given)."""
    if rect.is_empty:
        return Validation(valid=False, error=f"the box {rect} is empty")
    parts = [p for s in screens if (p := rect.intersect(s)) is not None]
    if within is not None:
        parts = [p for part in parts if (p := part.intersect(within)) is not None]
    if not parts:
        where = "the window" if within is not None and any(rect.intersect(s) for s in screens) else "every screen"
        return Validation(
            valid=False, error=f"the box {rect} is off {where} (screens: {', '.join(str(s) for s in screens)})"
        )
    visible = max(parts, key=lambda r: r.area)
    fraction = sum(p.area for p in parts) / rect.area
    inner = Rect(
        left=visible.left + MARGIN,
        top=visible.top + MARGIN,
        right=visible.right - MARGIN,
        bottom=visible.bottom - MARGIN,
    )
    safe = inner if not inner.is_empty and inner.width >= 1 and inner.height >= 1 else visible
    whole = fraction >= 0.999  # a small box seen whole (the `−` of a key is 10x2 px) is hit at its centre
    clickable = (
        (safe.width >= MIN_SIDE and safe.height >= MIN_SIDE)
        or (visible.width >= MIN_SIDE and visible.height >= MIN_SIDE)
        or whole
    )
    point = rect.center if safe.contains(*rect.center) else safe.center
    return Validation(
        valid=True,
        click_point=point,
        visible_region=visible,
        safe_region=safe,
        visible_fraction=round(fraction, 3),
        can_interact=(clickable and fraction >= MIN_VISIBLE) or (clickable and safe.contains(*rect.center)),
    )


def point_on_screens(x: int, y: int, screens: list[Rect]) -> Validation:
    """Validation of a bare point (`click-at`, fixed points)."""
    for s in screens:
        if s.contains(x, y):
            box = Rect(left=x, top=y, right=x + 1, bottom=y + 1)
            return Validation(
                valid=True,
                click_point=(x, y),
                visible_region=box,
                safe_region=box,
                visible_fraction=1.0,
                can_interact=True,
            )
    return Validation(
        valid=False, error=f"({x}, {y}) is off every screen (screens: {', '.join(str(s) for s in screens)})"
    )
