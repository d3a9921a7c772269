"""Bring an element scrolled out of view into its list's view with the mouse wheel, as a user does.

For apps that cannot scroll an element into view when asked (GTK 3's lists answer AT-SPI's
ScrollTo with false). Two things make it more than "turn until it shows":

- Where the element is may be unknown: GTK 3 gives rows far out of view no place at all
  (extents of -2**31), so the first turns go down, and back up if the list does not move.
- Whether the list moved is read from an element that was in view (a landmark): its place
  changes, or it leaves the view. A list at its end moves no landmark, and the wheel stops.

Once the element has a place, one notch measures how far a notch moves it, and the rest are
counted from that; it is done when the element's centre is in the middle half of the view, or
the whole of it in the view when its list can go no further.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from winactions.backends.base import Backend
from winactions.model import Rect

LIMIT = 200  # notches turned at most
BURST = 10  # notches turned at once while the element has no place, or is far
SETTLE = 0.05  # s for a list to move after the wheel turned


@dataclass(frozen=True)
class Landmark:
    """An element in the view when it was last read, and where it was."""

    handle: str
    rect: Rect


def wheel_into_view(backend: Backend, handle: str, view: Rect,
                    landmarks: Callable[[], list[Landmark]]) -> int:
    """Notches turned over `view` until the element `handle` showed in its middle half; 0 when it
    did not (the list stopped moving both ways, or the element went away). `landmarks` reads
    the elements in view afresh: it is asked again whenever the last landmark left the view."""
    node = backend.refresh(handle)
    if node is None:
        return 0
    x, y = view.center
    turned, per_notch, direction, turned_back = 0, 0.0, 1, False
    marks = landmarks()
    while turned < LIMIT:
        rect = node.rect
        if rect is not None:
            away = rect.center[1] - y
            if view.top + view.height / 4 <= rect.center[1] <= view.bottom - view.height / 4:
                return turned
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
            if moved.rect is not None and _inside(moved.rect, view):
                return turned  # at the end of its list: as far in as it comes
            if moved.rect is not None or turned_back:
                return 0
            direction, turned_back = -direction, True  # the element is the other way
        node = moved
        marks = marks or landmarks()
    return 0


def _read_again(backend: Backend, marks: list[Landmark], view: Rect) -> tuple[bool, list[Landmark]]:
    """Whether the list moved (a landmark is gone, hidden or elsewhere; with none, it is assumed
    to have), and the landmarks still in the view, where they are now."""
    moved, kept = not marks, []
    for mark in marks:
        now = backend.refresh(mark.handle)
        if now is None or now.rect != mark.rect:
            moved = True
        if now is not None and now.rect is not None and view.contains(*now.rect.center):
            kept.append(Landmark(mark.handle, now.rect))
    return moved, kept


def _inside(rect: Rect, view: Rect) -> bool:
    return view.left <= rect.left and rect.right <= view.right and view.top <= rect.top and rect.bottom <= view.bottom
