"""Where each id label goes on an annotated screenshot (Set-of-Mark), so that no mark misleads.

An agent reads an annotated screenshot by matching a number to the frame it sits on. A
label drawn in the row above its own element is read as the wrong element; two labels side
by side read as one number ("1" and "7" as "17"); a label under another is lost. So
placement is a small constraint problem:

- hard rules: a label touches its own frame (from inside or outside) and cannot be taken
  for another's (`unambiguous`: every other frame strictly farther, unless the label is
  inside its own box and that box separates it from the other); labels keep a gap between
  them; a label stays inside the image;
- among the places that obey them, the one covering the least ink (an element's text or
  icon) wins, a place inside the box before one outside it, and one not inside another
  element's box (the part of a text area hidden by a popup menu).

Elements with the same box (edges within SAME pixels) share one label ("9,12"). The most
constrained elements choose first. What cannot be placed is reported, not drawn somewhere
misleading: the caller says the area is too dense and suggests a close-up. This module is
geometry only (no drawing, no platform), so the rules are tested on their own and on real
screenshots.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field

from winactions.model import Rect

GAP = 1  # pixels kept free between two labels, so that "1" and "7" never read as "17"

# Label colours, all dark enough for white text (contrast >= 4.5:1) and far apart in hue,
# so that neighbouring marks can always be told apart.
PALETTE: tuple[tuple[int, int, int], ...] = (
    (200, 30, 30),
    (25, 90, 200),
    (0, 120, 50),
    (140, 40, 170),
    (165, 80, 0),
    (0, 112, 122),
    (185, 0, 110),
    (70, 70, 70),
)


@dataclass
class Mark:
    """One label: the ids it names, their shared box, where the label goes, its colour."""

    ids: list[int]
    box: Rect
    label: Rect
    text: str
    colour: tuple[int, int, int] = PALETTE[0]


@dataclass
class Layout:
    marks: list[Mark] = field(default_factory=list)
    unplaced: list[int] = field(default_factory=list)  # ids whose label would have misled
    unplaced_boxes: list[Rect] = field(default_factory=list)  # their boxes, for a close-up


Box = tuple[int, int, int, int]  # left, top, right, bottom: plain tuples, thousands are compared
SAME = 2  # boxes whose edges are this close are one place (a tab page and its only child): one label
CELL = 64  # the spatial index's cell: only boxes near a label are checked against it


def _contains(outer: Box, inner: Box) -> bool:
    return outer[0] <= inner[0] and outer[1] <= inner[1] and outer[2] >= inner[2] and outer[3] >= inner[3]


def _overlaps(a: Box, b: Box, gap: int = 0) -> bool:
    return a[0] < b[2] + gap and b[0] < a[2] + gap and a[1] < b[3] + gap and b[1] < a[3] + gap


class _Grid:
    """Boxes bucketed by CELL-sized cells, to find those near a label quickly."""

    def __init__(self) -> None:
        self.cells: dict[tuple[int, int], list[Box]] = {}

    def add(self, box: Box) -> None:
        for cx in range(box[0] // CELL, (box[2] - 1) // CELL + 1):
            for cy in range(box[1] // CELL, (box[3] - 1) // CELL + 1):
                self.cells.setdefault((cx, cy), []).append(box)

    def near(self, area: Box, margin: int) -> set[Box]:
        found: set[Box] = set()
        for cx in range((area[0] - margin) // CELL, (area[2] + margin) // CELL + 1):
            for cy in range((area[1] - margin) // CELL, (area[3] + margin) // CELL + 1):
                found.update(self.cells.get((cx, cy), ()))
        return found


def _candidates(box: Box, w: int, h: int) -> list[tuple[Box, bool]]:
    """Label places inside and around `box`, in order of preference, each with `inside`."""
    left, top, right, bottom = box
    mid = top + (bottom - top - h) // 2
    # inside: along the top or bottom edge but 3 px from the side, so that a side shared
    # with a neighbour (menu bar items, a popup flush with the window's edge) stays farther
    inside = [
        (left + 3, top + 1),
        (right - 3 - w, top + 1),
        (left + 3, bottom - 1 - h),
        (right - 3 - w, bottom - 1 - h),
        (left + 1, top + 3),
        (right - 1 - w, top + 3),
        (left + 1, mid),
        (right - 1 - w, mid),
    ]
    # and along the top edge further in, for wide boxes whose ends are taken (a table cell
    # under an overlay scroll bar, text at the left)
    span = right - left - w
    if span > 4 * w:
        inside += [(left + span * k // 4, top + 1) for k in (1, 2, 3)]
    outside = [
        (left, top - h),
        (right - w, top - h),
        (left, bottom),
        (right - w, bottom),
        (left - w, top),
        (right, top),
        (left - w, bottom - h),
        (right, bottom - h),
    ]
    return [((x, y, x + w, y + h), True) for x, y in inside] + [((x, y, x + w, y + h), False) for x, y in outside]


def outline_distance(label: Box, box: Box) -> float:
    """How far a label is from a box's frame, the line a reader matches it to: the gap
    between them outside, the margin to the nearest edge inside, 0 across the line."""
    if not _overlaps(label, box):
        dx = max(box[0] - label[2], 0, label[0] - box[2])
        dy = max(box[1] - label[3], 0, label[1] - box[3])
        return math.hypot(dx, dy)
    if _contains(box, label):
        return min(label[0] - box[0], label[1] - box[1], box[2] - label[2], box[3] - label[3])
    return 0.0


def _contains_nearly(outer: Box, inner: Box) -> bool:
    return all(
        abs(d) <= SAME or d > 0
        for d in (inner[0] - outer[0], inner[1] - outer[1], outer[2] - inner[2], outer[3] - inner[3])
    )


def unambiguous(label: Box, box: Box, other: Box) -> bool:
    """Whether `other`'s frame cannot be taken for the one `label` names (`box`'s).

    Inside its own box, a label is separated by its own frame from every box it does not
    overlap (rows flush with each other share a line, yet the label is in one row), and a
    box around its own (a menu around its item) loses to the innermost. Otherwise — outside
    its box, or over a box that merely overlaps (a text area under a popup) — the other
    frame must be strictly farther than its own, and it may never overlap a box inside its own."""
    if _overlaps(label, other) and _contains(box, other):
        return False
    if _contains(box, label) and (not _overlaps(label, other) or _contains_nearly(other, box)):
        return True
    return outline_distance(label, other) > outline_distance(label, box)


def _allowed(label: Box, box: Box, bounds: Box, grid: _Grid) -> bool:
    """The hard rules for one label against the boxes (not against the other labels)."""
    if not _contains(bounds, label) or outline_distance(label, box) > 1:
        return False
    return all(other == box or unambiguous(label, box, other) for other in grid.near(label, 2))


def _foreign(label: Box, box: Box, grid: _Grid) -> int:
    """How many boxes other than its own and its containers the label sits in: allowed (a
    popup menu lies over a text area, and its items' labels over the text area's box), but
    a text area's own label is better not drawn inside a menu item."""
    cx, cy = (label[0] + label[2]) // 2, (label[1] + label[3]) // 2
    return sum(
        1
        for other in grid.near(label, 0)
        if other != box and not _contains(other, box) and other[0] <= cx < other[2] and other[1] <= cy < other[3]
    )


def place(
    items: list[tuple[int, Rect]],
    size_of: Callable[[str], tuple[int, int]],
    bounds: Rect,
    ink: Callable[[Rect], float] | None = None,
) -> Layout:
    """Place one label per distinct box of `items` (id, box in image pixels) inside `bounds`.

    `size_of(text)` is a label's size in pixels; `ink(rect)` (0 blank .. 1 busy) says how much
    of the picture a label there would hide; without it every place is as good as its rank.
    """
    frame: Box = (bounds.left, bounds.top, bounds.right, bounds.bottom)
    groups: dict[Box, list[int]] = {}
    keys = _Grid()
    for target_id, rect in items:
        clipped = rect.intersect(bounds)
        if clipped is None or clipped.is_empty:
            continue
        key: Box = (clipped.left, clipped.top, clipped.right, clipped.bottom)
        same = next(
            (k for k in keys.near(key, SAME) if all(abs(a - b) <= SAME for a, b in zip(k, key, strict=True))), None
        )
        if same is None:
            keys.add(key)
            same = key
        groups.setdefault(same, []).append(target_id)
    grid = _Grid()
    for key in groups:
        grid.add(key)
    options: dict[Box, list[tuple[float, Box]]] = {}
    for box, ids in groups.items():
        w, h = size_of(",".join(str(i) for i in sorted(ids)))
        ranked = []
        for rank, (label, inside) in enumerate(_candidates(box, w, h)):
            if _allowed(label, box, frame, grid):
                busy = ink(_rect(label)) if ink is not None else 0.0
                cost = busy * 10 + (0.0 if inside else 1.5) + 4 * _foreign(label, box, grid) + rank * 0.01
                ranked.append((cost, label))
        options[box] = sorted(ranked)
    layout = Layout()
    placed = _Grid()
    # the most constrained first: fewest places, then the smallest box
    for box in sorted(groups, key=lambda k: (len(options[k]), (k[2] - k[0]) * (k[3] - k[1]))):
        ids = sorted(groups[box])
        chosen = next(
            (
                label
                for _cost, label in options[box]
                if not any(_overlaps(label, other, gap=GAP) for other in placed.near(label, GAP))
            ),
            None,
        )
        if chosen is None:
            layout.unplaced.extend(ids)
            layout.unplaced_boxes.append(_rect(box))
            continue
        placed.add(chosen)
        layout.marks.append(Mark(ids, _rect(box), _rect(chosen), ",".join(str(i) for i in ids)))
    _colour(layout.marks)
    layout.marks.sort(key=lambda m: m.ids[0])
    layout.unplaced.sort()
    return layout


def _rect(box: Box) -> Rect:
    return Rect(left=box[0], top=box[1], right=box[2], bottom=box[3])


def _colour(marks: list[Mark], near: int = 24) -> None:
    """Greedy colouring: marks whose boxes or labels are within `near` pixels get different
    colours, so neighbours never look like one mark."""
    seen = _Grid()
    colour_of: dict[Box, tuple[int, int, int]] = {}
    for i, mark in enumerate(marks):
        label, box = _box(mark.label), _box(mark.box)
        taken = {
            colour_of[other]
            for other in seen.near(label, near) | seen.near(box, 2)
            if _overlaps(other, label, gap=near) or _overlaps(other, box, gap=2)
        }
        mark.colour = next((c for c in PALETTE if c not in taken), PALETTE[i % len(PALETTE)])
        for area in (label, box):
            colour_of.setdefault(area, mark.colour)
            seen.add(area)


def _box(rect: Rect) -> Box:
    return (rect.left, rect.top, rect.right, rect.bottom)


def dense_region(boxes: list[Rect], pad: int = 8) -> Rect:
    """The area to zoom into to see these boxes: their union, padded."""
    return Rect(
        left=min(b.left for b in boxes) - pad,
        top=min(b.top for b in boxes) - pad,
        right=max(b.right for b in boxes) + pad,
        bottom=max(b.bottom for b in boxes) + pad,
    )
