"""Widget-like shapes in a window screenshot, by classical vision — Tier 2 with no model.

Two cues, both cheap (tens of milliseconds for a window):
- bordered boxes: edges (Canny), closed a little, whose contours are nearly rectangular —
  buttons, fields, tabs, tool buttons painted on a canvas;
- coloured blobs: saturated connected regions of icon size (8–64 px) — the symbol of an
  icon-only button, a status light.
Type guesses are modest ("Button" for a small box with content, "Edit" for a wide one that is
empty or shows text from its left edge, "Icon" for a blob) and every result carries the cue it
came from. OCR text and the IOU merge with the tree happen in `vision.py`.
"""

from __future__ import annotations

import numpy as np

from winactions.locate.types import Candidate
from winactions.model import Rect
from winactions.opencv import cv2

MIN_SIDE = 10
MAX_ICON = 64
RECTANGULARITY = 0.85  # contour area / bounding box area for a "box"
SATURATION = 90  # HSV saturation of a "coloured" pixel
PANEL_SIDE = 96  # px: a box whose sides are both longer is a panel, not a control (buttons at 2x are ~70 px tall)
TALL_STRIP = 64  # px: an upright strip taller than this (a gutter, a side bar) is no control either
CARET_INK = 24  # grey levels off a field's inside that are drawn (a cursor, or greyed-out text: 54 off in Tk) ...
CARET_WIDTH = 3  # ... drawn in at most this many px of columns
BEVEL = 3  # px inside a box's contour that its own frame may take (Motif sinks a field in 2)
FIELD_INDENT = 12  # px at most between a field's edge (past its bevel) and its text


def detect_widgets(
    image: np.ndarray, *, origin: tuple[int, int] = (0, 0), min_size: int = MIN_SIDE, max_fraction: float = 0.5
) -> list[Candidate]:
    """Boxes and icons in a BGR window image, in screen coordinates, most confident first."""
    if image.size == 0 or float(image.std()) < 1.0:
        return []
    height, width = image.shape[:2]
    limit = max_fraction * width * height
    found = [*_boxes(image, min_size, limit), *_icons(image, min_size)]
    kept = _suppress(found)
    ox, oy = origin
    return [
        Candidate(
            Rect(left=c.rect.left + ox, top=c.rect.top + oy, right=c.rect.right + ox, bottom=c.rect.bottom + oy),
            c.confidence,
            c.method,
            c.label,
            c.detail,
        )
        for c in kept
    ]


def _boxes(image: np.ndarray, min_size: int, limit: float) -> list[Candidate]:
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    edges = cv2.Canny(grey, 30, 90)
    edges = cv2.morphologyEx(edges, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))
    contours, _ = cv2.findContours(edges, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
    out = []
    for contour in contours:
        x, y, w, h = cv2.boundingRect(contour)
        if w < min_size or h < min_size or w * h > limit or not _widget_sized(w, h):
            continue
        fill = cv2.contourArea(contour) / float(w * h)
        if fill < RECTANGULARITY:
            continue
        inside = grey[y + 2 : y + h - 2, x + 2 : x + w - 2]
        busy = float(inside.std()) if inside.size else 0.0
        wide = w >= 3 * h
        label = "Edit" if wide and (busy < 6 or _empty(inside) or _text_from_the_left(inside)) else "Button"
        confidence = round(min(0.95, 0.55 + 0.4 * (fill - RECTANGULARITY) / (1 - RECTANGULARITY)), 2)
        out.append(
            Candidate(
                Rect.from_xywh(x, y, w, h), confidence, "shape", label, {"cue": "bordered box", "fill": round(fill, 2)}
            )
        )
    return out


def _empty(inside: np.ndarray) -> bool:
    """Whether a box shows nothing inside but its own bevel and, at most, a text cursor: ink
    within BEVEL px of its edges, or in one upright stroke CARET_WIDTH px wide at most (an
    empty focused field blinks a cursor; Motif sinks its fields in a bevel two pixels deep)."""
    if inside.shape[0] <= 2 * BEVEL or inside.shape[1] <= 2 * BEVEL:
        return False
    middle = inside[BEVEL:-BEVEL, BEVEL:-BEVEL].astype(np.int16)
    columns = np.flatnonzero((np.abs(middle - int(np.median(middle))) > CARET_INK).any(axis=0))
    return columns.size == 0 or (columns.size <= CARET_WIDTH and int(columns[-1] - columns[0]) < CARET_WIDTH)


def _text_from_the_left(inside: np.ndarray) -> bool:
    """Whether a box's ink starts at its left edge and leaves most of it empty to the right:
    a field's text (a button centres its label; a combo box draws its arrow at the right)."""
    if inside.shape[0] <= 2 * BEVEL or inside.shape[1] <= 2 * BEVEL:
        return False
    middle = inside[BEVEL:-BEVEL, BEVEL:-BEVEL].astype(np.int16)
    columns = np.flatnonzero((np.abs(middle - int(np.median(middle))) > CARET_INK).any(axis=0))
    if columns.size == 0:
        return False
    before, after = int(columns[0]), middle.shape[1] - 1 - int(columns[-1])
    return before <= FIELD_INDENT and after >= max(3 * before, middle.shape[1] // 3)


def _widget_sized(w: int, h: int) -> bool:
    """Whether a bordered box is the size of a control: not a panel (both sides over PANEL_SIDE)
    nor a strip standing upright (twice as tall as wide, and taller than TALL_STRIP: a gutter,
    a docked panel)."""
    return min(w, h) <= PANEL_SIDE and not (h > 2 * w and h > TALL_STRIP)


def _icons(image: np.ndarray, min_size: int) -> list[Candidate]:
    hsv = cv2.cvtColor(image, cv2.COLOR_BGR2HSV)
    mask = ((hsv[:, :, 1] >= SATURATION) & (hsv[:, :, 2] >= 60)).astype(np.uint8)
    closed = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))
    count, _, stats, _ = cv2.connectedComponentsWithStats(closed, connectivity=8)
    out = []
    for i in range(1, count):
        x, y, w, h, area = (int(v) for v in stats[i])
        if not (min_size // 2 <= w <= MAX_ICON and min_size // 2 <= h <= MAX_ICON) or area < 30:
            continue
        if max(w, h) > 3 * min(w, h):
            continue  # long thin colour runs are underlines and focus rings, not icons
        density = area / float(w * h)
        out.append(
            Candidate(
                Rect.from_xywh(x, y, w, h),
                round(0.5 + 0.3 * min(1.0, density), 2),
                "shape",
                "Icon",
                {"cue": "coloured blob", "density": round(density, 2)},
            )
        )
    return out


def _suppress(found: list[Candidate]) -> list[Candidate]:
    """Keep the stronger of near-duplicates; an icon inside a kept box names no new element."""
    kept: list[Candidate] = []
    for c in sorted(found, key=lambda c: (c.label == "Icon", -c.confidence, c.rect.area)):
        if any(c.rect.iou(k.rect) > 0.5 for k in kept):
            continue
        if c.label == "Icon" and any(_inside(c.rect, k.rect) and k.rect.area <= 16 * c.rect.area for k in kept):
            continue
        kept.append(c)
    return sorted(kept, key=lambda c: -c.confidence)


def _inside(inner: Rect, outer: Rect) -> bool:
    cx, cy = inner.center
    return outer.contains(cx, cy)
