"""Bring an element scrolled out of view into its list's view with the mouse wheel, as a user does.

For apps that cannot scroll an element into view when asked (GTK 3's lists answer AT-SPI's
ScrollTo with false). Two things make it more than "turn until it shows":

- Where the element is may be unknown: GTK 3 gives rows far out of view no place at all
  (extents of -2**31), so the first turns go down, and back up if the list does not move.
- Whether the list moved is read from landmarks: the list's scroll bar, whose value changes
  (Java, Qt), and elements that were in view, whose places change or which leave the view
  (GTK 3 hides its scroll bars). A list at its end moves no landmark, and the wheel stops.
  Elements in view run out as the list moves; new ones cost a read of the window's tree
  (1.4 s in jEdit), a scroll bar never runs out.

Once the element has a place, one notch measures how far a notch moves it, and the rest are
counted from that; it is done when the element's centre is in the middle half of the view, or
the whole of it in the view when its list can go no further.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from winactions.backends.base import Backend
from winactions.model import Rect, Target

LIMIT = 200  # notches turned at most
BURST = 10  # notches turned at once while the element has no place, or is far
SETTLE = 0.05  # s for a list to move after the wheel turned
LANDMARKS = 3  # elements in view watched to tell whether the list moved
FIXED_IN_LISTS = frozenset({"HeaderItem", "ScrollBar"})  # stay put while their list scrolls
BAR_REACH = 32  # px from the list's edge within which its scroll bar is drawn


@dataclass(frozen=True)
class Landmark:
    """An element in the view (or the list's scroll bar) when it was last read, and where it was."""

    handle: str
    rect: Rect
    value: str | None = None  # a scroll bar's position
    fixed: bool = False  # a scroll bar: it stays while the list moves


def landmarks(targets: list[Target], view: Rect, role: str) -> list[Landmark]:
    """The list's vertical scroll bar (beside or inside the view), and elements in the view of
    the element's own type (its list's rows), else of any type but the list's fixed parts and
    what holds the list."""
    bars = [
        Landmark(str(t.handle), t.rect, t.value, fixed=True)
        for t in targets
        if t.type == "ScrollBar"
        and t.handle is not None
        and t.rect is not None
        and t.value is not None
        and t.rect.height > t.rect.width
        and t.rect.top < view.bottom
        and view.top < t.rect.bottom
        and view.left - BAR_REACH <= t.rect.left
        and t.rect.right <= view.right + BAR_REACH
    ]
    inside = [
        t
        for t in targets
        if t.handle is not None
        and t.rect is not None
        and t.type not in FIXED_IN_LISTS
        and view.encloses(t.rect)
        and t.rect.area < view.area / 2
    ]
    rows = [
        Landmark(str(t.handle), t.rect) for t in [t for t in inside if t.type == role] or inside if t.rect is not None
    ]
    return bars[:1] + rows[:LANDMARKS]


def wheel_into_view(
    backend: Backend, handle: str, view: Rect, marks: list[Landmark], fresh: Callable[[], list[Landmark]]
) -> int:
    """Notches turned over `view` until the element `handle` showed in its middle half; 0 when it
    did not (the list stopped moving both ways, or the element went away). `marks` are the
    landmarks now; `fresh` reads new ones, when the last has left the view."""
    node = backend.refresh(handle)
    if node is None:
        return 0
    x, y = view.center
    turned, per_notch, direction, turned_back = 0, 0.0, 1, False
    while turned < LIMIT:
        rect = node.rect
        if rect is not None:
            away = rect.center[1] - y
            if view.top + view.height / 4 <= rect.center[1] <= view.bottom - view.height / 4:
                return turned
            if turned and (1 if away > 0 else -1) != direction and view.encloses(rect):
                return turned  # it passed the middle: a notch moves it too far to land there
            direction = 1 if away > 0 else -1
            notches = max(1, min(BURST, round(abs(away) / per_notch))) if per_notch else 1
        else:
            notches = BURST
        backend.scroll(x, y, 0, direction * notches)
        turned += notches
        time.sleep(SETTLE)
        moved = backend.refresh(handle)
        if moved is None:
            return 0
        list_moved, marks = _read_again(backend, marks, view)
        if rect is not None and moved.rect is not None and moved.rect.center[1] != rect.center[1]:
            per_notch = max(per_notch, abs(moved.rect.center[1] - rect.center[1]) / notches)
        elif not list_moved:  # the list is at its end this way, or cannot move
            if moved.rect is not None and view.encloses(moved.rect):
                return turned  # at the end of its list: as far in as it comes
            if moved.rect is not None or turned_back:
                return 0
            direction, turned_back = -direction, True  # the element is the other way
        node = moved
        marks = marks or fresh()
    return 0


def _read_again(backend: Backend, marks: list[Landmark], view: Rect) -> tuple[bool, list[Landmark]]:
    """Whether the list moved (a landmark is gone, hidden, elsewhere or scrolled; with none, it
    is assumed to have), and the landmarks still in use, as they are now."""
    moved, kept = not marks, []
    for mark in marks:
        now = backend.refresh(mark.handle)
        if now is None or now.rect != mark.rect or (mark.fixed and now.value != mark.value):
            moved = True
        if now is not None and now.rect is not None and (mark.fixed or view.contains(*now.rect.center)):
            kept.append(Landmark(mark.handle, now.rect, now.value, mark.fixed))
    return moved, kept
