"""Short labels by their shape: `7`, `+`, `=`, `MR`, `÷`, `√` on keypads and toolbars.

`ink_groups` finds the words of a grey image from its strokes (frames, rules and outlines
left out; glyphs on a line or stacked joined); `match_words` ranks them by correlation with
the query drawn in the desktop's sans-serif fonts; `classify` judges a symbol the recogniser
cannot read on its shape. The shape only ranks: the recogniser (`ocr`) decides. Why OCR alone
fails on short labels, and how the steps answer it: docs/locator.md ("Labels by their
shape").
"""

from __future__ import annotations

import os
import threading
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from winactions.model import Rect
from winactions.opencv import cv2

GRADIENT = 30  # grey-level step that counts as a stroke edge
MAX_GLYPH = 48  # px: taller or wider components are frames, pictures or panels, not glyphs
SPACE = 0.5  # of the taller word's height: words at most this far apart are one label (a space is ~0.35)
FRAME_MARGIN = 2  # px: a component holding another this far inside its edges is a frame around it
FONT_FILES = (  # common UI sans-serif faces, regular and bold, looked for in the usual font folders
    "DejaVuSans.ttf",
    "DejaVuSans-Bold.ttf",
    "Cantarell-Regular.otf",
    "Cantarell-VF.otf",
    "NotoSans-Regular.ttf",
    "Ubuntu-R.ttf",
    "LiberationSans-Regular.ttf",
    "Roboto-Regular.ttf",
    "segoeui.ttf",
    "arial.ttf",
)
STYLED_FONT_FILES = ("DejaVuSerif-Italic.ttf", "LiberationSerif-Italic.ttf", "timesi.ttf")
FONT_DIRS = (
    "/usr/share/fonts",
    "/usr/local/share/fonts",
    "~/.local/share/fonts",
    "~/.fonts",
    "C:/Windows/Fonts",
    "/System/Library/Fonts",
    "/Library/Fonts",
)
MAX_FONTS = 3
RENDER_SIZE = 64  # px: the query is drawn once this large, then scaled to each word
OTHER_WORD_COUNT = 0.8  # a word or run of another number of words than the query is ranked this much lower
BACKGROUND_RING = 3  # px outside a word where its background is read
INK_EDGE = 0.25  # of the peak: a word's pixels this far off its background are its ink (`rendered` crops so)
ICON_TALL = 1.8  # a blob about square and this many times the usual glyph's height is an icon, not a letter
MNEMONIC_ROWS = 2  # px: how thick a mnemonic's underline is drawn
ASPECT_SLACK = 2.0  # a word's width/height may differ this much from the rendered query's (a drop-down arrow)


@dataclass(frozen=True)
class Word:
    """A group of glyphs: its ink box in the image, and how many glyphs it joins."""

    rect: Rect
    glyphs: int
    alone: bool = True  # no other word close on its line: a label of its own, not a part of one
    words: int = 1  # how many words a run joins
    beside: int = 0  # glyphs of the largest word a space away on its line, icons (`_icon`) not counted


def ink_groups(grey: np.ndarray, max_words: int = 3) -> list[Word]:
    """The words of an image (glyphs joined on a line or in a stack), and runs of up to
    `max_words` words close on a line: a label such as `+/-` or `a / b` is drawn with gaps
    between its signs, and "Add Row" with a space. A word or run with another word a space
    before or after it on its line is part of a longer label (`Word.alone`)."""
    words = _words(grey)
    runs: list[tuple[int, int, Rect, int, int]] = []  # first and last word, box, glyphs, words
    line = sorted(words, key=lambda w: w.rect.left)
    before_it: dict[int, int] = {}  # a word's index on the line: glyphs of the word a space before it ...
    after_it: dict[int, int] = {}  # ... and after it (0 for an icon: `_icon`)
    for i, first in enumerate(line):
        if first.rect.height > MAX_GLYPH:
            continue  # glyphs stacked into a blob taller than any text: no line of words starts or runs through it
        box, glyphs, count, last = first.rect, first.glyphs, 1, i
        for j, other in enumerate(line[i + 1 :], start=i + 1):
            if other.rect.left > box.right + 2 * MAX_GLYPH:
                break
            if other.rect.height > MAX_GLYPH:
                continue
            h = max(box.height, other.rect.height)
            overlap = min(box.bottom, other.rect.bottom) - max(box.top, other.rect.top)
            if overlap >= 0.4 * min(box.height, other.rect.height) and 0 <= other.rect.left - box.right <= 0.9 * h:
                box = Rect(
                    left=box.left,
                    top=min(box.top, other.rect.top),
                    right=other.rect.right,
                    bottom=max(box.bottom, other.rect.bottom),
                )
                glyphs, count = glyphs + other.glyphs, count + 1
                runs.append((i, j, box, glyphs, count))
                # a neighbour a space away makes a word part of a longer label unless it is a mere
                # mark beside it (the arrow of a drop-down button is much smaller than the label);
                # one further off is the next control of a row ("Shipping" beside its drop-down)
                before = line[last]
                if other.rect.left - before.rect.right <= SPACE * h:
                    if before.rect.height >= 0.75 * other.rect.height:
                        before_it[j] = max(before_it.get(j, 0), 0 if _icon(before, other) else before.glyphs)
                    if other.rect.height >= 0.75 * before.rect.height:
                        after_it[last] = max(after_it.get(last, 0), 0 if _icon(other, before) else other.glyphs)
                last = j
                if count >= max_words:
                    break

    def placed(rect: Rect, glyphs: int, first: int, last: int, count: int = 1) -> Word:
        alone = first not in before_it and last not in after_it
        return Word(rect, glyphs, alone=alone, words=count, beside=max(before_it.get(first, 0), after_it.get(last, 0)))

    return [placed(w.rect, w.glyphs, k, k) for k, w in enumerate(line)] + [
        placed(box, glyphs, first, last, count) for first, last, box, glyphs, count in runs
    ]


def _icon(word: Word, beside: Word) -> bool:
    """Whether `word` is drawn like an icon beside a label: one blob, about square, as tall as
    the label or taller (a digit or a letter is narrower, or shorter)."""
    r = word.rect
    return word.glyphs == 1 and r.width >= 0.8 * r.height and r.height >= beside.rect.height


def _words(grey: np.ndarray) -> list[Word]:
    """Glyphs (gradient components) joined on a line or in a stack."""
    edges = cv2.morphologyEx(grey, cv2.MORPH_GRADIENT, np.ones((2, 2), np.uint8))
    count, _, stats, _ = cv2.connectedComponentsWithStats((edges > GRADIENT).astype(np.uint8), connectivity=8)
    boxes = []
    for x, y, w, h, area in stats[1:count]:
        if h > MAX_GLYPH or w > 4 * MAX_GLYPH:
            continue
        if w * h > 300 and area < 0.18 * w * h:
            continue  # a frame drawn around something, not a glyph
        if max(w, h) > 30 and max(w, h) > 8 * min(w, h):
            continue  # a rule or a separator
        boxes.append((int(x), int(y), int(x + w), int(y + h)))
    boxes = _without_frames(boxes)
    # a sign stacked from pieces (the bars of `=`, the dots of `÷`) is no taller than two glyphs
    # of the window's text: two lines of text are (a wide word would otherwise stack onto the
    # word below it, and a table header onto the row above it)
    stack = 2.0 * float(np.median([b[3] - b[1] for b in boxes])) if boxes else 0.0
    parent = list(range(len(boxes)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    order = sorted(range(len(boxes)), key=lambda i: boxes[i][0])
    for k, i in enumerate(order):
        a = boxes[i]
        for j in order[k + 1 :]:
            b = boxes[j]
            if b[0] > a[2] + MAX_GLYPH // 2:
                break
            if _joined(a, b, stack):
                parent[root(j)] = root(i)
    merged: dict[int, list[int]] = {}
    sizes: dict[int, int] = {}
    for i, (x1, y1, x2, y2) in enumerate(boxes):
        r = root(i)
        box = merged.setdefault(r, [x1, y1, x2, y2])
        box[0], box[1], box[2], box[3] = min(box[0], x1), min(box[1], y1), max(box[2], x2), max(box[3], y2)
        sizes[r] = sizes.get(r, 0) + 1
    return [Word(Rect(left=b[0], top=b[1], right=b[2], bottom=b[3]), sizes[r]) for r, b in merged.items()]


def _without_frames(boxes: list[tuple[int, int, int, int]]) -> list[tuple[int, int, int, int]]:
    """The boxes less those drawn around another with a margin on every side: the outline of a
    drop-down or a key holds its label and is no glyph; left in, it joins the label to whatever
    is drawn beside it (a link after a drop-down read as one word with it). The pieces of a
    glyph (the circles of `%` in the box of its slash) touch its box's edges."""
    if len(boxes) < 2:
        return boxes
    b = np.array(boxes)
    big = np.flatnonzero(((b[:, 2] - b[:, 0]) >= 2 * FRAME_MARGIN + 3) & ((b[:, 3] - b[:, 1]) >= 2 * FRAME_MARGIN + 3))
    frames = set()
    for i in big:
        x1, y1, x2, y2 = b[i]
        held = (
            (b[:, 0] >= x1 + FRAME_MARGIN)
            & (b[:, 1] >= y1 + FRAME_MARGIN)
            & (b[:, 2] <= x2 - FRAME_MARGIN)
            & (b[:, 3] <= y2 - FRAME_MARGIN)
        )
        if held.any():
            frames.add(int(i))
    return [box for i, box in enumerate(boxes) if i not in frames]


def _joined(a: tuple[int, int, int, int], b: tuple[int, int, int, int], stack: float) -> bool:
    """Two glyphs of one word: side by side on a line, or stacked (the bars of `=`) into a sign
    at most `stack` px tall."""
    ha, hb, wa, wb = a[3] - a[1], b[3] - b[1], a[2] - a[0], b[2] - b[0]
    tall = ICON_TALL * stack / 2  # stack is twice the window's usual glyph height
    if (ha >= tall and wa >= 0.8 * ha) != (hb >= tall and wb >= 0.8 * hb) and max(ha, hb) >= 1.5 * min(ha, hb):
        # an icon beside a letter (Java's magnifier joined "F̲ind..." as one word with it), not
        # an "m" of a heading beside its other letters
        return False
    overlap_y = min(a[3], b[3]) - max(a[1], b[1])
    overlap_x = min(a[2], b[2]) - max(a[0], b[0])
    gap_x = b[0] - a[2]
    gap_y = max(a[1], b[1]) - min(a[3], b[3])
    on_a_line = overlap_y >= 0.4 * min(ha, hb) and gap_x <= max(2.0, 0.3 * max(ha, hb))
    stacked = (
        overlap_x >= 0.5 * min(wa, wb)
        and gap_y <= max(3.0, 0.5 * max(wa, wb))
        and max(ha, hb) <= 2.5 * max(wa, wb)
        and max(a[3], b[3]) - min(a[1], b[1]) <= stack
    )
    return on_a_line or stacked


# -- rendering the query -------------------------------------------------------------------------
@lru_cache(maxsize=1)
def ui_fonts() -> tuple[str, ...]:
    """Paths of up to MAX_FONTS UI faces on this machine, in FONT_FILES order ('' = Pillow's own)."""
    return _faces(FONT_FILES, MAX_FONTS) or ("",)


@lru_cache(maxsize=1)
def styled_fonts() -> tuple[str, ...]:
    """Faces a toolbar draws its one-letter style buttons in (the serif italic I of Italic,
    beside a bold B and an underlined U): tried for a one-letter query only."""
    return _faces(STYLED_FONT_FILES, 1)


def _faces(files: tuple[str, ...], limit: int) -> tuple[str, ...]:
    """Paths of up to `limit` of these font files found on this machine, in their order."""
    wanted = {name.lower(): rank for rank, name in enumerate(files)}
    found: dict[int, str] = {}
    for folder in FONT_DIRS:
        base = Path(os.path.expanduser(folder))
        if not base.is_dir():
            continue
        for dirpath, _, names in os.walk(base):
            for name in names:
                rank = wanted.get(name.lower())
                if rank is not None and rank not in found:
                    found[rank] = os.path.join(dirpath, name)
    return tuple(found[r] for r in sorted(found))[:limit]


_render_lock = threading.Lock()


@lru_cache(maxsize=512)
def rendered(text: str, font_path: str) -> np.ndarray | None:
    """`text` drawn at RENDER_SIZE in that face: ink 0..1 cropped to its box; None if blank."""
    from PIL import Image, ImageDraw, ImageFont

    with _render_lock:
        font = ImageFont.truetype(font_path, RENDER_SIZE) if font_path else ImageFont.load_default(size=RENDER_SIZE)
        canvas = Image.new("L", (RENDER_SIZE * (len(text) + 2), RENDER_SIZE * 2), 0)
        ImageDraw.Draw(canvas).text((RENDER_SIZE // 2, RENDER_SIZE // 2), text, fill=255, font=font)
    ink = np.asarray(canvas, dtype=np.float32) / 255.0
    rows, cols = np.nonzero(ink > 0.25)
    if rows.size == 0:
        return None
    return ink[rows.min() : rows.max() + 1, cols.min() : cols.max() + 1]


def normal(text: str) -> str:
    return "".join(unicodedata.normalize("NFKC", text).split())


# -- matching -------------------------------------------------------------------------------------
@dataclass(frozen=True)
class GlyphMatch:
    word: Word
    score: float  # shape correlation in 0..1
    size_fit: float  # 1 when the word is drawn at the window's usual text size, less the farther off


def match_words(grey: np.ndarray, words: list[Word], query: str) -> list[GlyphMatch]:
    """Every word that may show `query`, scored by shape, best first."""
    text = normal(query)
    faces = ui_fonts() + (styled_fonts() if len(text) == 1 and text.isalpha() else ())
    shapes = [s for path in faces if (s := rendered(text, path)) is not None]
    if not shapes:
        return []
    usual = usual_height(words)
    tall = max(s.shape[0] / RENDER_SIZE for s in shapes)  # the query's ink height per pixel of font size
    out = []
    for word in words:
        r = word.rect
        if r.width < 1 or r.height < 1:
            continue
        best = 0.0
        for ink in (r, _above_underline(grey, r)):
            if ink is None:
                continue
            aspect = ink.width / ink.height
            for shape in shapes:
                want = shape.shape[1] / shape.shape[0]
                if not (want / ASPECT_SLACK <= aspect <= want * ASPECT_SLACK or (ink.width <= 3 and ink.height <= 3)):
                    continue
                best = max(best, _correlate(grey, ink, shape))
        if best <= 0:
            continue
        fit = 1.0
        if usual:
            implied = r.height / max(tall, 1e-3)  # the font size this word would be, were it the query
            normal_size = usual / 0.75  # words of several glyphs are about 3/4 of their font size tall
            fit = min(1.0, max(0.0, 1.0 - abs(np.log(implied / normal_size)) / np.log(3.0)))
            if fit <= 0:  # 3x off the window's text size: a speck of a resampled corner, a whole button's blob
                continue
        out.append(GlyphMatch(word, best, fit))
    # a query of several words is first looked for in runs of as many words: stretched to a
    # run's box, its shape scores "Item 2" about as well in the word "Item" as in "Item 2"
    # (a short label's words are its signs, `+/-` is three, so it is not counted)
    wanted = len(unicodedata.normalize("NFKC", query).split())
    counted = len(text) > 3

    def rank(m: GlyphMatch) -> float:
        fewer = counted and m.word.words != wanted
        return -m.score * (0.75 + 0.25 * m.size_fit) * (OTHER_WORD_COUNT if fewer else 1.0)

    out.sort(key=rank)
    return out


def _above_underline(grey: np.ndarray, rect: Rect) -> Rect | None:
    """The word without the line under it (a link's underline, joined to the word by the
    gradient across a one-pixel gap): its last ink rows run the whole width below a row with
    almost none. None when the word is not underlined."""
    if rect.height < 8 or rect.width < 3 * rect.height // 2:
        return None
    crop = grey[rect.top : rect.bottom, rect.left : rect.right].astype(np.int16)
    border = np.concatenate([crop[0], crop[-1]])
    ink = np.abs(crop - int(np.median(border))) > 48
    rows = ink.mean(axis=1)
    for bar in range(rect.height - 1, rect.height - 4, -1):
        if rows[bar] >= 0.85:
            gap = bar - 1
            while gap > 0 and rows[gap] >= 0.85:  # a bar two pixels thick
                gap -= 1
            if gap > 0 and rows[gap] <= 0.1 and ink[:gap].any():
                return Rect(left=rect.left, top=rect.top, right=rect.right, bottom=rect.top + gap)
            return None
    return None


def mnemonic_bar(grey: np.ndarray, rect: Rect) -> Rect | None:
    """The underline of a mnemonic at the foot of a word, if it has one: one to MNEMONIC_ROWS
    rows of ink in a single run about a letter wide, under a blank row (Qt and Java's Metal
    underline a letter of every menu item and button). None when the word has none (a
    descender joins its letter; a link's underline runs the whole word)."""
    if rect.height < 8:
        return None
    crop = grey[rect.top : rect.bottom, rect.left : rect.right].astype(np.int16)
    ink = np.abs(crop - int(np.median(np.concatenate([crop[0], crop[:, 0], crop[:, -1]])))) > 48
    inked = np.flatnonzero(ink.any(axis=1))
    if inked.size < 4:
        return None
    last = int(inked[-1])
    first = last
    while first - 1 >= 0 and ink[first - 1].any():
        first -= 1
    if last - first + 1 > MNEMONIC_ROWS or first < 3 or ink[first - 1].any() or not ink[: first - 1].any():
        return None
    cols = np.flatnonzero(ink[first : last + 1].any(axis=0))
    width, text = int(cols[-1] - cols[0] + 1), np.flatnonzero(ink[:first].any(axis=0))
    if width != cols.size or width < 3 or width > 0.5 * (text[-1] - text[0] + 1):
        return None  # not one short bar: a run of marks, or a link's whole underline
    return Rect(
        left=rect.left + int(cols[0]),
        top=rect.top + first,
        right=rect.left + int(cols[-1]) + 1,
        bottom=rect.top + last + 1,
    )


def usual_height(words: list[Word]) -> float:
    """The ink height of most words of several glyphs here (the window's body text), 0 if none."""
    heights = [w.rect.height for w in words if w.glyphs >= 2 and 6 <= w.rect.height <= 30]
    return float(np.median(heights)) if heights else 0.0


def _correlate(grey: np.ndarray, rect: Rect, shape: np.ndarray) -> float:
    """Normalised correlation of the word's ink (either polarity) with the rendered query, the
    query scaled to the ink's own box (`_inked`), as `rendered` crops it."""
    pad = 1
    top, left = max(0, rect.top - pad), max(0, rect.left - pad)
    crop = grey[top : rect.bottom + pad, left : rect.right + pad].astype(np.float32)
    if crop.size == 0:
        return 0.0
    background = _background(grey, rect)
    ink = np.abs(crop - background)
    peak = float(ink.max())
    if peak < 20:
        return 0.0
    ink /= peak
    dy, dx = rect.top - top, rect.left - left
    y0, y1, x0, x1 = _inked(ink[dy : dy + rect.height, dx : dx + rect.width])
    y0, y1, x0, x1 = y0 + dy, y1 + dy, x0 + dx, x1 + dx
    h, w = y1 - y0, x1 - x0
    template = cv2.resize(shape, (max(1, w), max(1, h)), interpolation=cv2.INTER_AREA)
    if float(template.std()) < 1e-3:  # a solid box (`.` or `-` at a few pixels): compare as plain ink
        return float(max(0.0, 1.0 - np.abs(ink[y0:y1, x0:x1] - template).mean() * 2))
    around = ink[max(0, y0 - pad) : y1 + pad, max(0, x0 - pad) : x1 + pad]
    result = cv2.matchTemplate(around, template, cv2.TM_CCOEFF_NORMED)
    return float(max(0.0, np.nan_to_num(result, nan=0.0).max()))


def _background(grey: np.ndarray, rect: Rect) -> float:
    """The grey level around a word: the median of a ring BACKGROUND_RING px outside its box
    (the ring right at its edge may be a frame around the word, such as a maximize button's
    hollow square)."""
    ring = BACKGROUND_RING
    top, left = max(0, rect.top - ring), max(0, rect.left - ring)
    around = grey[top : rect.bottom + ring, left : rect.right + ring]
    return float(np.median(np.concatenate([around[0], around[-1], around[:, 0], around[:, -1]])))


def _inked(ink: np.ndarray) -> tuple[int, int, int, int]:
    """(top, bottom, left, right) of the pixels more than INK_EDGE of the peak ink: a word's
    box from the stroke gradient is a pixel too tall and too wide (the 2x2 gradient marks the
    pixel after each edge), and a theme's embossed highlight under a stroke falls in it too."""
    rows, cols = np.flatnonzero(ink.max(axis=1) > INK_EDGE), np.flatnonzero(ink.max(axis=0) > INK_EDGE)
    if rows.size == 0:
        return 0, ink.shape[0], 0, ink.shape[1]
    return int(rows[0]), int(rows[-1]) + 1, int(cols[0]), int(cols[-1]) + 1


ALPHABET = (
    "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz+-=*/%().,:;!?<>[]{}|#&@$^~_'\"×÷−±√π∑€£¥°→←↑↓•"
)
EQUIVALENT = [set("-−–—‐"), set("×✕"), set("/∕⁄"), set(".·•"), set("0Oo"), set("1lI|"), set("'`´")]


def same_symbol(a: str, b: str) -> bool:
    """Whether two characters are drawn alike enough that a label of one is found for the other."""
    return a == b or any(a in group and b in group for group in EQUIVALENT)


def classify(grey: np.ndarray, match: GlyphMatch, query: str) -> float:
    """How much better the word fits `query` than any other character: 1 = clearly the query,
    0 = another character fits it as well or better."""
    fonts = ui_fonts()
    rival = 0.0
    for other in ALPHABET:
        if same_symbol(other, query):
            continue
        for path in fonts:
            shape = rendered(other, path)
            if shape is None:
                continue
            want = shape.shape[1] / shape.shape[0]
            aspect = match.word.rect.width / match.word.rect.height
            if want / ASPECT_SLACK <= aspect <= want * ASPECT_SLACK:
                rival = max(rival, _correlate(grey, match.word.rect, shape))
    return float(min(1.0, max(0.0, (match.score - rival) / 0.15)))
