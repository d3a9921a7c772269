"""Controls of an app without a tree, read one widget window at a time.

Tk and Xt make an X window of every widget (`Backend.widget_windows`). OCR reads text by
lines, and a line runs across widgets (a row of check boxes reads as one text). Cut at the
widgets' edges, each piece is read on its own, and a widget that draws a toggle's mark before
its text (a square: a check box; a diamond or a circle: a radio button) is listed as that
control, at the widget's place, checked when its mark is filled in; a framed one is a button.
A line read across a bar whose words stand farther apart than spaces is a row of labels: at
the window's top, its menus.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import TYPE_CHECKING

from winactions.model import Rect

if TYPE_CHECKING:
    import numpy as np  # the vision extra: imported where a mark is looked for

CONTROL_HEIGHT = 64  # px: a widget at most this tall holds one control's line, not a page of text
MIN_PIECE = 3  # px: a line reaching less than this into a widget is not in it
MARK_EDGE = 12  # grey levels off the widget's background that are the mark (Tk's white inside: 38; 19 off ...
# ... the lighter background Tk gives the widget under the pointer) ...
MARK_INK = 60  # ... and that are ink: its dark outline, or its middle filled in when checked
MARK_GAP = 3  # px of background at least between a toggle's mark and its text (letters stand 1-2 apart)
SOLID = 0.8  # share of a mark's middle that is not background: filled, where a letter is hollow
MARK_CONFIDENCE = 0.9  # a toggle read from its mark and its text is trusted no more than this
FRAME_STEP = 30  # grey levels between a widget's edge and its inside where it is framed ...
FRAMED = 0.4  # ... along this share of its outer two pixels at least (a raised Tk button's bevel: 0.52; a label: 0)
APART = 0.75  # of its words' height: labels of a row stand at least this far apart (a space is ~0.35-0.6)
BAR_TOP = 40  # px: a row of labels starting this near the window's top, across ...
BAR_SHARE = 0.6  # ... this much of its width at least, is its menu bar
FILLED = 0.2  # share of a mark's middle that is ink when it is checked (Tk fills it, themes draw a tick)
OUTLINE_MIN = 8  # px: a hollow mark smaller than this each way is no toggle (a letter's counter)
OUTLINED = 0.9  # share of an outline's sides drawn (and at most 1 - this of its middle) for a hollow toggle
DIAMOND_BAND = 0.35  # of half its size: how far a diamond's drawn pixels may stand inside its sides (its bevel)
BAR_CELLS = 3  # titles side by side at least, for a row of widget windows to be a menu bar ...
TOUCHING = 2  # ... each at most this many px from the next
CARET_COLUMNS = 3  # px: a text cursor is at most this wide (Motif's I-beam) ...
CARET_SPAN = 0.9  # ... and inked over this share of the line's height at least ...
STIPPLED = 0.7  # ... or, drawn stippled, inked on at most this share of the rows it spans ...
CARET_SERIF_ROWS = 3  # ... and apart from the text but for this many rows at its ends (its serifs)
FAINT = 0.6  # text standing off its background less than this share of its neighbours' boldest is greyed out ...
MIN_INK = 40  # ... unless the boldest stands less than this many grey levels off: then nothing tells
STROKE_FLOOR = 24  # grey levels off its background a pixel must stand to be part of a stroke ...
STROKE_PIXELS = 8  # ... and pixels so found at least, for a text's stroke colour to be told


@dataclass(frozen=True)
class Toggle:
    """A check box's or radio button's mark, in screen pixels."""

    kind: str  # "CheckBox" or "RadioButton"
    mark: Rect
    checked: bool


def cut_at(boxes: list[Rect], widgets: list[Rect]) -> list[Rect]:
    """The text lines cut where they cross from one widget window into another: a line that
    reaches into two or more widgets becomes a piece in each."""
    out: list[Rect] = []
    for box in boxes:
        pieces = [
            p
            for w in widgets
            if (p := box.intersect(w)) is not None and p.width >= MIN_PIECE and p.height >= 0.6 * box.height
        ]
        out.extend(pieces if len(pieces) > 1 else [box])
    return out


def holder(box: Rect, widgets: list[Rect]) -> Rect | None:
    """The control-sized widget window the text lies in, if any."""
    cx, cy = box.center
    return next((w for w in widgets if w.contains(cx, cy) and w.height <= CONTROL_HEIGHT), None)


def toggle(grey: np.ndarray, origin: tuple[int, int], widget: Rect) -> Toggle | None:
    """The mark a check box or radio button draws before its text, if the widget starts with
    one: its first blob is about square, no taller than the widget, filled (white or dark:
    a letter such as the O of "Options" is hollow) and stands apart from the text after it.
    A square has a corner; a diamond (Tk's radio button) or a circle has none. It is checked
    when its middle is dark (Tk fills it; themes draw a tick)."""
    import numpy as np

    ox, oy = origin
    crop = grey[widget.top - oy : widget.bottom - oy, widget.left - ox : widget.right - ox].astype(np.int16)
    crop, inset = _inside_focus_ring(crop, 10)
    if crop.shape[0] < 6 or crop.shape[1] < 12:
        return None
    border = np.concatenate([crop[0], crop[-1], crop[:, 0], crop[:, -1]])
    background = int(np.median(border))
    off = np.abs(crop - background)
    shape, ink = off > MARK_EDGE, off > MARK_INK
    columns = np.flatnonzero(shape.any(axis=0))
    if columns.size == 0:
        return None
    left = right = int(columns[0])
    while right + 1 < shape.shape[1] and shape[:, right + 1].any():
        right += 1
    rows = np.flatnonzero(shape[:, left : right + 1].any(axis=1))
    top, bottom = int(rows[0]), int(rows[-1])
    width, height = right - left + 1, bottom - top + 1
    after = columns[columns > right]
    if (
        not (6 <= height <= crop.shape[0] and 0.7 <= width / height <= 1.4)
        or after.size == 0
        or after[0] - right - 1 < MARK_GAP
    ):
        return None
    inner = (slice(top + height // 4, bottom + 1 - height // 4), slice(left + width // 4, right + 1 - width // 4))
    x, y = widget.left + inset, widget.top + inset  # where the crop starts, inside any focus ring
    mark = Rect(left=x + left, top=y + top, right=x + right + 1, bottom=y + bottom + 1)
    if shape[inner].mean() < SOLID:  # hollow: a letter, or a Motif toggle not set (its inside the background's)
        outline = _outline(shape[top : bottom + 1, left : right + 1])
        return None if outline is None else Toggle(outline, mark, False)
    corner = bool(shape[top : top + 2, left : left + 2].all())
    # set: a tick or dot of ink (Tk), or filled darker than the background (Motif); Tk's unset inside is white
    checked = ink[inner].mean() >= FILLED or float(np.median(crop[inner])) < background - MARK_EDGE
    return Toggle("CheckBox" if corner else "RadioButton", mark, bool(checked))


def sunken(grey: np.ndarray, origin: tuple[int, int], widget: Rect) -> bool:
    """Whether a widget is sunk into the window, as Tk and Motif draw a text field (and a list):
    its top edge, within its first four rows (after Motif's focus ring), darker than its inside
    and than its bottom edge. A raised button is lit from the top; a label or a check box has
    no frame; xcalc's keys are outlined alike all round."""
    import numpy as np

    ox, oy = origin
    crop = grey[widget.top - oy : widget.bottom - oy, widget.left - ox : widget.right - ox].astype(np.int16)
    crop, _ = _inside_focus_ring(crop, 12)
    if crop.shape[0] < 12 or crop.shape[1] < 16:
        return False
    inside = int(np.median(crop[4:-4, 4:-4]))
    span = slice(crop.shape[1] // 5, crop.shape[1] - crop.shape[1] // 5)
    top = min(float(crop[i, span].mean()) for i in range(4))
    bottom = min(float(crop[-1 - i, span].mean()) for i in range(4))
    return top < inside - FRAME_STEP and top < bottom - FRAME_STEP


def caret(grey: np.ndarray, origin: tuple[int, int], field: Rect) -> Rect | None:
    """Where a field's text cursor is drawn, if it shows one: a run of at most CARET_COLUMNS
    columns, apart from the text, each inked over nearly the whole height the field's line
    takes, and taller than every stroke of the text (an "l" has no descender, a "/" leans).
    OCR reads a cursor as a letter; Motif draws the cursor of a field without the focus
    stippled (`_stippled_stem`)."""
    import numpy as np

    ox, oy = origin
    crop = grey[field.top - oy : field.bottom - oy, field.left - ox : field.right - ox].astype(np.int16)
    if crop.shape[0] < 12 or crop.shape[1] < 12:
        return None
    inner = crop[4:-4, 4:-4]
    ink = np.abs(inner - int(np.median(inner))) > MARK_INK
    rows = np.flatnonzero(ink.any(axis=1))
    if rows.size == 0 or rows[-1] - rows[0] + 1 < 8:
        return None
    span = int(rows[-1] - rows[0] + 1)
    columns = _solid_stem(ink, span) or _stippled_stem(ink, span)
    if columns is None:
        return None
    return Rect(
        left=field.left + 4 + columns[0],
        top=field.top + 4 + int(rows[0]),
        right=field.left + 4 + columns[1],
        bottom=field.top + 4 + int(rows[-1]) + 1,
    )


def _solid_stem(ink: np.ndarray, span: int) -> tuple[int, int] | None:
    """The columns (from, to) of a cursor drawn solid over a line `span` rows tall, if `ink`
    shows one."""
    import numpy as np

    heights = ink.sum(axis=0)
    tall = heights >= CARET_SPAN * span
    if not tall.any() or (heights[~tall].max(initial=0) >= heights[tall].min() - 2):
        return None  # as tall as the text's own strokes: a letter (the l of "hello")
    first = int(np.flatnonzero(tall)[0])
    return _apart(np.asarray(ink.any(axis=0)), first)


def _stippled_stem(ink: np.ndarray, span: int) -> tuple[int, int] | None:
    """The columns (from, to) of a cursor drawn stippled, if `ink` shows one: Motif's in a
    field without the focus, every other pixel of its stem inked and its serifs in the columns
    beside it. Its gaps are closed; it reaches across the line with its serifs; it is told apart
    from the text away from its ends (a "/" before it may touch a serif)."""
    import numpy as np

    closed = ink.copy()
    closed[1:-1] |= ink[:-2] & ink[2:]
    heights = closed.sum(axis=0)
    wide = closed.copy()  # each column with those beside it
    wide[:, 1:] |= closed[:, :-1]
    wide[:, :-1] |= closed[:, 1:]
    reach = np.where(wide.any(axis=0), len(wide) - np.argmax(wide[::-1], axis=0) - np.argmax(wide, axis=0), 0)
    stem = (
        (ink.sum(axis=0) <= STIPPLED * heights) & (reach >= CARET_SPAN * span) & (heights >= CARET_SPAN * (reach - 2))
    )
    if not stem.any() or (heights[~stem].max(initial=0) >= heights[stem].min() - 2):
        return None
    first = int(np.flatnonzero(stem)[0])
    inked = np.flatnonzero(closed[:, first])
    columns = _apart(np.asarray(ink[inked[0] + CARET_SERIF_ROWS : inked[-1] + 1 - CARET_SERIF_ROWS].any(axis=0)), first)
    return None if columns is None else (max(columns[0] - 1, 0), min(columns[1] + 1, ink.shape[1]))


def _apart(inked: np.ndarray, first: int) -> tuple[int, int] | None:
    """The run of `inked` columns that holds column `first`, if it is no wider than a cursor:
    wider, it is joined to a letter and not told apart."""
    start, end = first, first + 1
    while start > 0 and inked[start - 1]:
        start -= 1
    while end < len(inked) and inked[end]:
        end += 1
    return (start, end) if end - start <= CARET_COLUMNS else None


def _inside_focus_ring(crop: np.ndarray, least: int) -> tuple[np.ndarray, int]:
    """The crop inside the ring Motif draws round the focused widget, and how many pixels
    that ring took (0 without one), peeled while the crop stays `least` px tall."""
    inset = 0
    while crop.shape[0] >= least and crop.shape[1] >= 16 and _focus_ring(crop):
        crop, inset = crop[1:-1, 1:-1], inset + 1
    return crop, inset


def _focus_ring(crop: np.ndarray) -> bool:
    """Whether the crop's outermost pixels are a frame of one colour far off its inside: the
    ring Motif draws round the widget that has the keyboard focus."""
    import numpy as np

    edge = np.concatenate([crop[0], crop[-1], crop[:, 0], crop[:, -1]])
    ring = int(np.median(edge))
    uniform = float((np.abs(edge - ring) <= MARK_EDGE).mean()) > 0.9
    return uniform and abs(ring - int(np.median(crop[2:-2, 2:-2]))) > MARK_INK


def _outline(blob: np.ndarray) -> str | None:
    """The toggle a hollow blob is the outline of, if any: a square whose four sides and
    corners are all drawn (Motif's check box: a bevelled square) is a CheckBox; a diamond whose
    drawn pixels all lie on its four straight sides (Motif's radio button) a RadioButton. A
    letter is neither: an O's box has no corners, and its curve stands off a diamond's sides
    by a third of its size at the diagonals."""
    import numpy as np

    h, w = blob.shape
    if min(h, w) < OUTLINE_MIN:
        return None
    sides = np.concatenate([blob[0], blob[-1], blob[:, 0], blob[:, -1]])
    if sides.mean() >= OUTLINED and blob[1:-1, 1:-1][2:-2, 2:-2].mean() < 1 - OUTLINED:
        return "CheckBox"
    ys, xs = np.nonzero(blob)
    reach = np.abs(xs - (w - 1) / 2) / (w / 2) + np.abs(ys - (h - 1) / 2) / (h / 2)  # 1 on a diamond's sides
    on_sides = (reach >= 1 - DIAMOND_BAND) & (reach <= 1 + DIAMOND_BAND / 2)
    if on_sides.mean() >= OUTLINED and blob[h // 2, 0] and blob[h // 2, -1] and blob[0, w // 2] and blob[-1, w // 2]:
        return "RadioButton"
    return None


def framed(grey: np.ndarray, origin: tuple[int, int], widget: Rect) -> bool:
    """Whether the widget draws a frame around its text, as buttons do (a Tk button's raised
    bevel, an xcalc key's outline) and labels do not: its outer two pixels stand off its inside."""
    import numpy as np

    ox, oy = origin
    crop = grey[widget.top - oy : widget.bottom - oy, widget.left - ox : widget.right - ox].astype(np.int16)
    if crop.shape[0] < 8 or crop.shape[1] < 8:
        return False
    inside = int(np.median(crop[3:-3, 3:-3]))
    edge = np.concatenate([crop[:2].ravel(), crop[-2:].ravel(), crop[2:-2, :2].ravel(), crop[2:-2, -2:].ravel()])
    return bool((np.abs(edge - inside) > FRAME_STEP).mean() >= FRAMED)


def spaced_words(grey: np.ndarray, origin: tuple[int, int], line: Rect, text: str) -> list[tuple[str, Rect]]:
    """The words of a line read as one that are labels of their own, each with its place: the
    line's words stand farther apart than a space (`glyphs.ink_groups`: none has another word
    a space beside it, and each gap is APART of their height), one word of ink per word read
    (a menu bar is read as one line). [] for a line of words a space apart: a label of several
    words."""
    from winactions.locate import glyphs

    tokens = text.split()
    if len(tokens) < 2:
        return []
    ox, oy = origin
    crop = grey[line.top - oy : line.bottom - oy, line.left - ox : line.right - ox]
    words = sorted((w for w in glyphs.ink_groups(crop, max_words=1) if w.words == 1), key=lambda w: w.rect.left)
    if len(words) != len(tokens) or not all(w.alone for w in words):
        return []
    height = sorted(w.rect.height for w in words)[len(words) // 2]
    if min(b.rect.left - a.rect.right for a, b in itertools.pairwise(words)) < APART * height:
        return []  # a space apart, if a wide one (a monospaced line: 8 px at 15 px tall; menu bars: 12-14)
    return [
        (
            token,
            Rect(
                left=line.left + w.rect.left - 2, top=line.top, right=line.left + w.rect.right + 2, bottom=line.bottom
            ),
        )
        for token, w in zip(tokens, words)
    ]


def menu_bar(row: Rect, window: Rect) -> bool:
    """Whether a row of labels is the window's menu bar: at its top, across most of it."""
    return row.top - window.top <= BAR_TOP and row.width >= BAR_SHARE * window.width


def bar_cell(widget: Rect, widgets: list[Rect], window: Rect) -> bool:
    """Whether a widget window is one of a row of them that is the window's menu bar: Motif
    makes each menu's title a window of its own, side by side at the window's top, together
    across most of it (two labels in a row, apart, are not)."""
    row = sorted(
        (
            w
            for w in widgets
            if abs(w.top - widget.top) <= 1 and abs(w.bottom - widget.bottom) <= 1 and w.height <= CONTROL_HEIGHT
        ),
        key=lambda w: w.left,
    )
    run = longest = 1
    for a, b in itertools.pairwise(row):  # a menu bar's titles touch; a dialog's labels in a row stand apart
        run = run + 1 if 0 <= b.left - a.right <= TOUCHING else 1
        longest = max(longest, run)
    if longest < BAR_CELLS:
        return False
    return menu_bar(
        Rect(left=row[0].left, top=widget.top, right=max(w.right for w in row), bottom=widget.bottom), window
    )


def ink(grey: np.ndarray, origin: tuple[int, int], box: Rect) -> float:
    """How far a text's strokes stand off its background, in grey levels: the 98th percentile
    of its box's pixels off their median. Toolkits draw a disabled control's or menu item's
    text close to its background (Tk: #a3a3a3 on #d9d9d9, 54 levels; its normal text 217)."""
    import numpy as np

    ox, oy = origin
    crop = grey[max(0, box.top - oy) : box.bottom - oy, max(0, box.left - ox) : box.right - ox].astype(np.int16)
    if crop.size == 0:
        return 0.0
    return float(np.percentile(np.abs(crop - int(np.median(crop))), 98))


def stroke(grey: np.ndarray, origin: tuple[int, int], box: Rect) -> tuple[float, int]:
    """The colour a text's strokes are drawn in, as grey levels off its background, and that
    background: the 90th percentile of the pixels standing clearly off the box's median. Unlike
    `ink`, it does not depend on how much of the box a word fills."""
    import numpy as np

    ox, oy = origin
    crop = grey[max(0, box.top - oy) : box.bottom - oy, max(0, box.left - ox) : box.right - ox].astype(np.int16)
    if crop.size == 0:
        return 0.0, 0
    background = int(np.median(crop))
    off = np.abs(crop - background)
    strokes = off[off > STROKE_FLOOR]
    return (float(np.percentile(strokes, 90)) if strokes.size >= STROKE_PIXELS else 0.0), background


def enabled(strokes: float, neighbours: list[float]) -> bool:
    """Whether text with this `ink` is drawn as enabled, beside its neighbours' (the controls
    and labels of one window): not FAINT beside the boldest of them. A menu's items, drawn in
    two colours only, are told apart more finely (`menus.items`)."""
    boldest = max(neighbours, default=0.0)
    return boldest < MIN_INK or strokes >= FAINT * boldest
