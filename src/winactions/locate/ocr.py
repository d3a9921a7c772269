"""The `ocr` strategy: find text on screen with rapidocr (its ONNX models ship in the wheel).

`find_text` detects lines on a downscaled copy, drops those too narrow for the query, and
recognises the rest in growing batches from the full-resolution image, stopping at the first
good match; `find_by_ink` looks for short queries by their ink first (`glyphs`). Matching is
exact, then case-insensitive, then fuzzy (MIN_SIMILARITY); a query inside a longer line gets
a box cut in proportion. Confidence = text similarity × the recogniser's score. A label read
as well in two places (within TIE) is reported in both at TIED, below the locator's reliable
bar. Why, and what it costs: docs/locator.md ("Reading text").
"""

from __future__ import annotations

import difflib
import re
import threading
import unicodedata
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from winactions.errors import BackendUnavailable, InvalidInput, shown
from winactions.locate.types import Candidate
from winactions.model import Rect
from winactions.opencv import cv2

DET_SIDE = 960  # detection input's long side for window-sized images; larger images keep 2/3 of theirs
MIN_SIMILARITY = 0.8
CHAR_WIDTH = (0.2, 1.0)  # a character's width as a share of its (padded) line box height, narrowest to widest
PAD = 1.4  # extra line width allowed for padding around the text
BATCH = 4  # lines recognised in the first batch (then 8, 16...) before checking for a match
GOOD_MATCH = 0.85  # a whole-line match this confident ends the search early
WHOLE_LINE = 0.97  # similarity of a whole-line exact or case-insensitive match
INK_WORDS = 4  # queries of fewer words are looked for by their ink first (find_by_ink), then by lines
SHORT = 3  # characters (spaces aside) of a short label: only a whole label counts (see match_line)
SHORT_READS = 6  # best-shaped words read by the recogniser for a short query...
SHORT_BATCH = 2  # ...a few at a time (each read costs ~20 ms), stopping at a good match
INK_READS = 12  # the same for a longer query, whose shape ranks words less surely
INK_BATCH = 4
SHORT_CLASSIFY = 3  # of those, how many a symbol the recogniser cannot read is judged on by shape
SHAPE_SURE = 0.8  # shape correlation that counts as a sure match of a symbol
BASELINE_MARKS = {".", ",", "_"}
TIE = 0.05  # a second place read within this of the best: the label is written twice ...
TIED = 0.75  # ... and both are reported at this confidence, below the locator's reliable bar (0.8)
SPACED = 0.95  # similarity of a line that differs from the label only in its spaces
PART_OF_LINE = 0.75  # a short label's confidence when other words stand close on its line


@dataclass(frozen=True)
class TextBox:
    rect: Rect
    text: str
    score: float


class OcrEngine:
    """One rapidocr instance per process (model loading costs ~1 s), safe to share."""

    _shared: OcrEngine | None = None
    _shared_lock = threading.Lock()

    def __init__(self) -> None:
        try:
            from rapidocr import RapidOCR
        except ImportError:
            raise BackendUnavailable(
                "OCR needs rapidocr and onnxruntime", hint="pip install 'winactions[vision]'"
            ) from None
        # we downscale for detection ourselves (see `detect`), so rapidocr must not resize again
        self._engine = RapidOCR(
            params={
                "Global.use_cls": False,
                "Global.log_level": "error",
                "Det.limit_type": "max",
                "Det.limit_side_len": 8192,
            }
        )
        self._lock = threading.Lock()  # onnxruntime sessions are thread-safe; rapidocr's state is not

    @classmethod
    def shared(cls) -> OcrEngine:
        with cls._shared_lock:
            if cls._shared is None:
                cls._shared = cls()
            return cls._shared

    def detect(self, image: np.ndarray, *, origin: tuple[int, int] = (0, 0)) -> list[Rect]:
        """Text line boxes (screen coordinates), detected on a downscaled copy."""
        if image.size == 0:
            return []
        from winactions.opencv import cv2

        height, width = image.shape[:2]
        long_side = max(height, width)
        side = DET_SIDE if long_side <= 1.5 * DET_SIDE else round(long_side * 2 / 3)
        scale = min(1.0, side / long_side)
        small = (
            image
            if scale == 1.0
            else cv2.resize(image, (round(width * scale), round(height * scale)), interpolation=cv2.INTER_AREA)
        )
        with self._lock:
            out = self._engine(small, use_det=True, use_cls=False, use_rec=False)
        boxes = getattr(out, "boxes", None)
        if boxes is None:
            return []
        ox, oy = origin
        rects = []
        for quad in boxes:
            x1, y1 = np.floor(quad.min(axis=0) / scale).astype(int)
            x2, y2 = np.ceil(quad.max(axis=0) / scale).astype(int)
            x1, y1, x2, y2 = max(0, x1), max(0, y1), min(width, x2), min(height, y2)
            if x2 > x1 and y2 > y1:
                rects.append(Rect(left=ox + x1, top=oy + y1, right=ox + x2, bottom=oy + y2))
        return sorted(rects, key=lambda r: (r.top, r.left))

    def recognize(self, image: np.ndarray, boxes: list[Rect], *, origin: tuple[int, int] = (0, 0)) -> list[TextBox]:
        """The text in each box, read at full resolution in one batch."""
        if not boxes:
            return []
        ox, oy = origin
        crops = [image[b.top - oy : b.bottom - oy, b.left - ox : b.right - ox] for b in boxes]
        from rapidocr.ch_ppocr_rec import TextRecInput

        with self._lock:
            recognizer: Any = self._engine._load_rec_model()  # type: ignore[no-untyped-call]  # batch recognition of given crops
            out = recognizer(TextRecInput(img=crops))
        texts = out.txts or ()
        scores = list(out.scores) if out.scores is not None else [0.0] * len(texts)
        return [TextBox(b, str(t), float(s)) for b, t, s in zip(boxes, texts, scores)]

    def read(self, image: np.ndarray, *, origin: tuple[int, int] = (0, 0)) -> list[TextBox]:
        """Every text line: detection, then recognition of all boxes."""
        return [t for t in self.recognize(image, self.detect(image, origin=origin), origin=origin) if t.text.strip()]


def shared_engine() -> OcrEngine:
    return OcrEngine.shared()


def find_text(
    image: np.ndarray,
    query: str,
    *,
    origin: tuple[int, int] = (0, 0),
    mode: str = "auto",
    min_similarity: float = MIN_SIMILARITY,
    engine: OcrEngine | None = None,
) -> list[Candidate]:
    """Where `query` is written in `image`, best first (see the module docstring)."""
    wanted = _normal(query)
    if not wanted:
        raise InvalidInput("the text to find is empty", hint="e.g. text:Save")
    if mode not in ("auto", "exact", "ci", "fuzzy"):
        raise InvalidInput(f"unknown OCR match mode {shown(mode)}", hint="auto, exact, ci or fuzzy")
    engine = engine or OcrEngine.shared()
    short: list[Candidate] = []
    if len(wanted.split(" ")) < INK_WORDS:
        short = find_by_ink(image, query, origin=origin, mode=mode, min_similarity=min_similarity, engine=engine)
        if short and short[0].confidence >= GOOD_MATCH:
            return _unless_tied(_merge(short, []))
    boxes = [b for b in engine.detect(image, origin=origin) if could_hold(b, len(wanted))]
    # read the lines whose width best fits the query first, a batch at a time, and stop at a good match
    boxes.sort(key=lambda b: abs(b.width - expected_width(b, len(wanted))) / expected_width(b, len(wanted)))
    found: list[Candidate] = []
    start, size = 0, BATCH
    while start < len(boxes):
        lines = engine.recognize(image, boxes[start : start + size], origin=origin)
        start, size = start + size, size * 2
        found += [c for line in lines if (c := match_line(line, query, mode, min_similarity)) is not None]
        if any(float(c.detail.get("similarity", 0)) >= WHOLE_LINE and c.confidence >= GOOD_MATCH for c in found):
            break
    found = _merge(short, found)
    found.sort(key=lambda c: (-c.confidence, c.rect.top, c.rect.left))
    return _unless_tied(found)


def _unless_tied(found: list[Candidate]) -> list[Candidate]:
    """The matches (one per place, best first), their confidence lowered to TIED when a second
    place reads within TIE of the best (`detail["runner_up"]` says why), so that a label
    written twice is reported, not clicked in one of its places."""
    if len(found) < 2 or found[1].confidence < TIED or found[0].confidence - found[1].confidence >= TIE:
        return found
    runner_up = round(found[1].confidence, 3)
    return [replace(c, confidence=min(c.confidence, TIED), detail={**c.detail, "runner_up": runner_up}) for c in found]


def find_by_ink(
    image: np.ndarray,
    query: str,
    *,
    origin: tuple[int, int] = (0, 0),
    mode: str = "auto",
    min_similarity: float = MIN_SIMILARITY,
    engine: OcrEngine | None = None,
) -> list[Candidate]:
    """A label found by its ink (glyphs.ink_groups) rather than by text lines: words and runs of
    words, the best-shaped few read by the recogniser and matched with look-alikes folded; a
    symbol the recogniser cannot read (`.`, `/`) counts on its shape when it fits no other
    character as well. See glyphs.py for why text lines fail short labels; for words it is
    about 10x cheaper than detecting the lines (no detector pass). [] when nothing fits, and
    find_text then reads lines as before."""
    from winactions.locate import glyphs

    engine = engine or OcrEngine.shared()
    grey = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    short = len(glyphs.normal(query)) <= SHORT
    words = glyphs.ink_groups(grey, max_words=3 if short else len(_normal(query).split(" ")) + 1)
    matches = glyphs.match_words(grey, words, query)[: SHORT_READS if short else INK_READS]
    if not matches:
        return []
    usual = glyphs.usual_height(words)
    height, width = grey.shape[:2]
    ox, oy = origin
    boxes = []
    for m in matches:
        box = _reading_box(m.word.rect, usual, query, width, height)
        boxes.append(Rect(left=box.left + ox, top=box.top + oy, right=box.right + ox, bottom=box.bottom + oy))
    image = _without_mnemonics(image, grey, [m.word.rect for m in matches], query)
    found: list[Candidate] = []
    batch = SHORT_BATCH if short else INK_BATCH
    for start in range(0, len(matches), batch):  # the best-shaped first: usually one batch
        found += _read_short(
            grey,
            image,
            matches[start : start + batch],
            boxes[start : start + batch],
            query,
            start,
            origin,
            mode,
            min_similarity,
            engine,
        )
        if any(c.confidence >= GOOD_MATCH for c in found):
            break
    found.sort(key=lambda c: -c.confidence)
    return found


def _without_mnemonics(image: np.ndarray, grey: np.ndarray, words: list[Rect], query: str) -> np.ndarray:
    """`image` with the mnemonic underlines of these words (`glyphs.mnemonic_bar`) painted over
    in the blank row above them, for the recogniser, which misreads an underlined letter. A
    copy, when there are any; not for a query with an underscore, which is drawn where such a
    bar is."""
    from winactions.locate import glyphs

    if "_" in query:
        return image
    bars = [bar for word in words if (bar := glyphs.mnemonic_bar(grey, word)) is not None]
    if not bars:
        return image
    image = image.copy()
    for bar in bars:
        image[bar.top : bar.bottom, bar.left : bar.right] = image[bar.top - 1 : bar.top, bar.left : bar.right]
    return image


def _read_short(
    grey: np.ndarray,
    image: np.ndarray,
    matches: list[Any],
    boxes: list[Rect],
    query: str,
    first: int,
    origin: tuple[int, int],
    mode: str,
    min_similarity: float,
    engine: OcrEngine,
) -> list[Candidate]:
    """One batch of find_by_ink: these words read, matched, or judged by their shape."""
    from winactions.locate import glyphs

    wanted = glyphs.normal(query)
    ox, oy = origin
    lines = engine.recognize(image, boxes, origin=origin)
    found = []
    for rank, (m, line) in enumerate(zip(matches, lines), start=first):
        word = Rect(
            left=m.word.rect.left + ox,
            top=m.word.rect.top + oy,
            right=m.word.rect.right + ox,
            bottom=m.word.rect.bottom + oy,
        )
        read = match_line(TextBox(word, line.text, line.score), query, mode, min_similarity)
        size = 0.75 + 0.25 * m.size_fit  # a display's big digits are not a keypad's button
        if not m.word.alone and (len(wanted) <= SHORT or m.word.beside):
            # "=" of a button that reads "x =" is not the "=" key; a word beside an icon alone
            # (featherpad's magnifier before "Find" in its menu) is still a label of its own
            size *= PART_OF_LINE
        if read is not None:
            # the recogniser is unsure of lone symbols even when it reads them right (`+` as 十 at
            # 0.56): the word's shape vouches for the reading as much as the recogniser's score
            similarity = float(read.detail.get("similarity", 1.0))
            sure = max(line.score, min(1.0, m.score / SHAPE_SURE))
            # a run of words holding the label ("okay cancel" for cancel) gives the label's part of it
            found.append(
                Candidate(
                    read.rect,
                    round(similarity * (0.6 + 0.4 * sure) * size, 3),
                    "ocr:ink",
                    query if _fold(read.label, query) == _fold(query, query) else read.label,
                    {**read.detail, "read": line.text, "shape": round(m.score, 3)},
                )
            )
        elif (
            len(wanted) == 1
            and not wanted.isalnum()
            and rank < SHORT_CLASSIFY
            and not (line.text.strip().isalpha() and line.score >= 0.6)
        ):  # it read a letter there: trust that
            margin = glyphs.classify(grey, m, wanted)  # the recogniser cannot read some symbols
            shape = min(1.0, m.score / SHAPE_SURE) * (0.5 + 0.5 * margin) * size
            found.append(
                Candidate(
                    word,
                    round(shape, 3),
                    "ocr:ink",
                    query,
                    {"read": line.text, "shape": round(m.score, 3), "margin": round(margin, 3)},
                )
            )
    return found


def _reading_box(word: Rect, usual: float, query: str, width: int, height: int) -> Rect:
    """What the recogniser is shown of a word: the word with a margin, and for a mark much
    smaller than the window's text (`.` `,` `-`) a line of that text's height around it, the
    mark where it sits in a line (on the baseline for `.` `,` `_`, in the middle otherwise): a
    dot alone in a square is read as a quote mark, a bar alone as `=`."""
    pad = max(3, word.height // 2)
    top, bottom = word.top - pad, word.bottom + pad
    line = round(usual * 1.3)
    if usual and word.height < 0.5 * usual:
        if query.strip() in BASELINE_MARKS:
            top, bottom = word.bottom + pad - line, word.bottom + pad
        else:
            middle = (word.top + word.bottom) // 2
            top, bottom = middle - line // 2, middle + line // 2
        pad = max(pad, line // 3)
    return Rect(
        left=max(0, word.left - pad), top=max(0, top), right=min(width, word.right + pad), bottom=min(height, bottom)
    )


def _merge(first: list[Candidate], second: list[Candidate]) -> list[Candidate]:
    """Both lists, one candidate per place: the more confident one (a word read by its ink at a
    lower confidence, as part of a row of labels, gives way to its line read whole)."""
    kept: list[Candidate] = []
    for c in sorted(first + second, key=lambda c: -c.confidence):
        if all(
            c.rect.iou(k.rect) < 0.3 and not k.rect.contains(*c.rect.center) and not c.rect.contains(*k.rect.center)
            for k in kept
        ):
            kept.append(c)
    return kept


def expected_width(box: Rect, chars: int) -> float:
    """About how wide `chars` characters are in a line box this high (boxes include padding)."""
    return chars * 0.28 * box.height + 0.3 * box.height  # measured on GTK and Chromium labels


def could_hold(box: Rect, chars: int) -> bool:
    """Whether a line this wide could contain `chars` characters (it may hold more text)."""
    return box.width * PAD >= chars * CHAR_WIDTH[0] * box.height


def match_line(line: TextBox, query: str, mode: str, min_similarity: float) -> Candidate | None:  # noqa: C901  (one branch per match mode)
    """How well `line` holds `query`: the whole line, or a part of it with its own box.

    A label of one to three characters inside a longer line ("+" in "5 + 2 / 3") is not that
    label: only a whole-line match counts for it, or one whose rest is a single mark (the
    arrow of a drop-down button, "MS▾" read as "MS√")."""
    wanted = _fold(_normal(query), _normal(query))
    text = _fold(_normal(line.text), _normal(query))
    if text.count(" ") != wanted.count(" ") and _spaced(text, mode) == _spaced(wanted, mode):
        # the recogniser drops and inserts spaces: Qalculate's "a / b" button is read "a/b"
        return _candidate(line, line.rect, SPACED, "spacing")
    signs = len(wanted) >= 2 and not wanted.replace(" ", "").isalnum()
    table = SAME_SHAPE_AMONG_SIGNS if signs else SAME_SHAPE
    # a label of two or three letters read with its look-alikes (GNOME Calculator's "Im" as
    # "lm") is that label; a single one is not: a text cursor reads as "|", and "1" is not it
    if (
        len(wanted.replace(" ", "")) <= SHORT
        and text != wanted
        and text.casefold() != wanted.casefold()
        and not (len(wanted) >= 2 and _alike(text, table) == _alike(wanted, table))
    ):
        rest = text[len(wanted) :].strip()
        if not (text.casefold().startswith(wanted.casefold()) and len(rest) <= 1 and not rest.isalnum()):
            return None
    if not text:
        return None
    steps = {
        "auto": ("exact", "ci", "alike", "fuzzy"),
        "exact": ("exact",),
        "ci": ("ci",),
        "fuzzy": ("ci", "alike", "fuzzy"),
    }[mode]
    for step in steps:
        a, b = (text, wanted) if step == "exact" else (text.casefold(), wanted.casefold())
        if step == "alike":  # l I 1 | and O 0 look the same in many UI fonts: equal, but less sure
            a, b = _alike(text, table), _alike(wanted, table)
            if a == b:
                return _candidate(line, line.rect, 0.9, step)
            continue
        if step in ("exact", "ci"):
            if a == b:
                return _candidate(line, line.rect, 1.0 if step == "exact" else 0.97, step)
            start = a.find(b)
            if start >= 0 and _cuts_number(a, start, len(b)):
                start = -1  # "item 9" inside "item 90" is another label, not item 9
            if start >= 0:  # inside a longer line; OCR sometimes glues words, so unbounded still counts, less
                similarity = (0.95 if step == "exact" else 0.92) - (0 if _word_bounded(a, start, len(b)) else 0.1)
                return _candidate(
                    line, _sub_rect(line.rect, len(a), start, len(b)), similarity, step, _part(text, a, start, len(b))
                )
        else:
            similarity, start, length = _best_fuzzy(a, b)
            if similarity >= min_similarity and _numbers(a[start : start + length]) == _numbers(b):
                whole = length == len(a)
                rect = line.rect if whole else _sub_rect(line.rect, len(a), start, length)
                return _candidate(line, rect, similarity * 0.95, step, None if whole else _part(text, a, start, length))
    return None


def _candidate(line: TextBox, rect: Rect, similarity: float, mode: str, part: str | None = None) -> Candidate:
    """A match of the line, or of `part` of it (then labelled by that part, with the line kept
    in the detail: "cancel" clicked, not "okay cancel")."""
    detail: dict[str, Any] = {"mode": mode, "score": round(line.score, 3), "similarity": round(similarity, 3)}
    if part is not None:
        detail["line"] = line.text
    return Candidate(rect, round(similarity * line.score, 3), "ocr", line.text if part is None else part, detail)


def _part(text: str, compared: str, start: int, length: int) -> str:
    """The characters of `text` at start..start+length of its `compared` form (case-folded:
    the same length but for rare letters such as ß, where the whole text is given)."""
    return text[start : start + length] if len(compared) == len(text) else text


def _best_fuzzy(text: str, wanted: str) -> tuple[float, int, int]:
    """(similarity, start, length) of the best-matching word run of `text` against `wanted`."""
    best = (difflib.SequenceMatcher(None, text, wanted).ratio(), 0, len(text))
    words = text.split(" ")
    starts = [sum(len(w) + 1 for w in words[:i]) for i in range(len(words))]
    target_words = max(1, len(wanted.split(" ")))
    for i in range(len(words)):
        for n in range(max(1, target_words - 1), target_words + 2):
            if i + n > len(words):
                break
            part = " ".join(words[i : i + n])
            ratio = difflib.SequenceMatcher(None, part, wanted).ratio()
            if ratio > best[0]:
                best = (ratio, starts[i], len(part))
    return best


def _sub_rect(rect: Rect, total: int, start: int, length: int) -> Rect:
    """The part of a line's box holding characters start..start+length (proportional widths)."""
    per_char = rect.width / max(1, total)
    left = rect.left + round(start * per_char)
    right = rect.left + round((start + length) * per_char)
    return Rect(left=left, top=rect.top, right=max(left + 1, right), bottom=rect.bottom)


def _numbers(text: str) -> list[str]:
    """The numbers in a label, in order: a fuzzy reading may differ in letters (OCR confuses
    them), never in numbers ("Item 9" is not "Item 90")."""
    return re.findall(r"[0-9]+", text)


def _cuts_number(text: str, start: int, length: int) -> bool:
    """Whether text[start:start + length] begins or ends inside a number of the text."""
    end = start + length
    return (start > 0 and text[start - 1].isdigit() and text[start].isdigit()) or (
        end < len(text) and text[end].isdigit() and text[end - 1].isdigit()
    )


def _word_bounded(text: str, start: int, length: int) -> bool:
    before = text[start - 1] if start > 0 else " "
    after = text[start + length] if start + length < len(text) else " "
    return not before.isalnum() and not after.isalnum()


def _normal(text: str) -> str:
    return " ".join(unicodedata.normalize("NFKC", text).split())


LOOK_ALIKES = str.maketrans(
    {
        "二": "=",
        "三": "=",
        "十": "+",
        "一": "-",
        "−": "-",
        "–": "-",
        "—": "-",
        "‐": "-",
        "∕": "/",
        "⁄": "/",
        "✕": "×",
        "·": ".",
        "，": ",",
        "。": ".",
    }
)


SAME_SHAPE = str.maketrans({"i": "l", "1": "l", "|": "l", "0": "o"})  # applied after casefold
# in a label of signs a slash is read as 1 too (galculator's "+/-" as "+1-"); not for "/" alone,
# which would then be any "1" key
SAME_SHAPE_AMONG_SIGNS = {**SAME_SHAPE, ord("/"): "l"}


def _spaced(text: str, mode: str) -> str:
    """`text` as compared when only its spaces differ: without them (`glyphs.normal`, as the
    ink path compares a label), case folded unless `mode` is exact."""
    from winactions.locate import glyphs

    bare = glyphs.normal(text)
    return bare if mode == "exact" else bare.casefold()


def _alike(text: str, table: dict[int, str]) -> str:
    """`text` as the `alike` step compares it: case folded, look-alike shapes made one."""
    return text.casefold().translate(table)


def _fold(text: str, query: str) -> str:
    """Characters the recogniser confuses with a UI symbol, read as that symbol: its dictionary
    is Chinese and English, so `=` comes back as 二, `+` as 十, `−` as 一. Not done when the
    query itself is CJK text, where those characters mean what they say."""
    if any("\u4e00" <= ch <= "\u9fff" for ch in query):
        return text
    return text.translate(LOOK_ALIKES)
