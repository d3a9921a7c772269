"""Where the overlays go: geometry only, no toolkit.

All rectangles are screen pixels (`Rect`, right and bottom exclusive). A screen is one
monitor's rectangle; an overlay is kept whole on the screen that holds the point it is
anchored to, and never grows past it.
"""

from __future__ import annotations

from winactions.model import Rect

LABEL_MARGIN = 8  # px between the status label and the window's bottom edge
BUBBLE_GAP = 10  # px between a highlighted element's ring and the step's bubble
RING = 3  # px: the highlight ring's thickness, drawn just outside the element


def screen_of(x: int, y: int, screens: list[Rect]) -> Rect:
    """The screen holding the point, else the nearest one (by its centre's distance); a
    whole-desktop rectangle when no screen is known."""
    if not screens:
        return Rect(left=x - 4096, top=y - 4096, right=x + 4096, bottom=y + 4096)
    for screen in screens:
        if screen.contains(x, y):
            return screen
    return min(screens, key=lambda s: (s.center[0] - x) ** 2 + (s.center[1] - y) ** 2)


def clamp(rect: Rect, screen: Rect) -> Rect:
    """`rect` moved (not resized, unless it is larger than the screen) to lie whole on `screen`."""
    width, height = min(rect.width, screen.width), min(rect.height, screen.height)
    left = min(max(rect.left, screen.left), screen.right - width)
    top = min(max(rect.top, screen.top), screen.bottom - height)
    return Rect.from_xywh(left, top, width, height)


def label_width_limit(window: Rect) -> int:
    """The widest the status label may be over this window: its width less the margins, but
    never below 120 px (a tiny window still gets a readable label)."""
    return max(120, window.width - 2 * LABEL_MARGIN)


def status_label(window: Rect, size: tuple[int, int], screens: list[Rect]) -> Rect:
    """The status label's place: centred on the window, its bottom `LABEL_MARGIN` px above the
    window's bottom edge, inside the window. Where the window's bottom is off its screen, the
    label sits at the bottom of what shows; it is kept whole on that screen."""
    width, height = min(size[0], label_width_limit(window)), size[1]
    cx = window.left + window.width // 2
    bottom = window.bottom - LABEL_MARGIN
    screen = screen_of(cx, min(bottom, window.top + window.height // 2), screens)
    bottom = min(bottom, screen.bottom - LABEL_MARGIN)
    return clamp(Rect.from_xywh(cx - width // 2, bottom - height, width, height), screen)


def ring(target: Rect) -> Rect:
    """The highlight ring's outer rectangle: `RING` px around the element, one px apart from it."""
    return target.grown(RING + 1)


def bubble(target: Rect, size: tuple[int, int], screens: list[Rect]) -> Rect:
    """The teach step's bubble (its text and Next button): below the highlighted element when
    it fits on the element's screen, else above, else right of it, else left, else at the
    screen's bottom centre — never over the element when any side has room; kept whole on
    the screen."""
    width, height = size
    around = ring(target).grown(BUBBLE_GAP)
    screen = screen_of(*target.center, screens)
    cx = target.left + target.width // 2 - width // 2
    cy = target.top + target.height // 2 - height // 2
    sides = (
        Rect.from_xywh(cx, around.bottom, width, height),  # below
        Rect.from_xywh(cx, around.top - height, width, height),  # above
        Rect.from_xywh(around.right, cy, width, height),  # right
        Rect.from_xywh(around.left - width, cy, width, height),  # left
    )
    for side in sides:
        placed = clamp(side, screen)
        if placed.intersect(around) is None:
            return placed
    return clamp(
        Rect.from_xywh(screen.left + (screen.width - width) // 2, screen.bottom - height, width, height), screen
    )
