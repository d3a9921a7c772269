"""Tier 2 (`--vision`): elements seen in a screenshot of the window that the tree lacks.

Two ways to see, chosen per call:
- `local` needs nothing but this machine: widget-like shapes by classical detection
  (`shapes.py`) and text by OCR (`locate/ocr.py`). OCR is the slow part, so only text boxes
  that no known element already covers are recognised.
- `llm` sends the screenshot to a vision model (resized to ≤ 1568 px, boxes mapped back to
  the screen through the resize factor and the window's origin).

Either way the result is merged by IOU (threshold 0.1): a detection that overlaps an element
we already have is the same element and is dropped, so only what the tree (and inference)
missed is added — each with its source, confidence and rect.

Over 600 lines: both ways to see end in the same merge and the same popup handling; the
model's half (`llm`) is the candidate for a module of its own.
"""

from __future__ import annotations

import dataclasses
import time
from typing import Any, cast

from PIL import Image

from winactions import screenshots, settings
from winactions.backends import own_pixels
from winactions.backends.base import Backend, uncover_hint
from winactions.llm.images import UNITS_TEXT
from winactions.model import Rect, Source, Target, WindowInfo
from winactions.perception import menus as menus_
from winactions.perception import widgets as widgets_
from winactions.perception.inference_llm import Model
from winactions.perception.provider import Detection, unlisted_popups

IOU_THRESHOLD = settings.VISION_IOU.default  # a detection overlapping a known target more than this is that target
MIN_SIDE = 6  # px: smaller detections are noise, and too small to click reliably anyway
BLANK = 2  # grey levels: a window whose pixels span less than this shows nothing
FRAMED_CONFIDENCE = 0.85  # a button known by its widget window's frame and its text, not by a shape
# Elements whose inside is all their own: a shape or text seen within one is a part of it (its
# label, its arrow, its selected text), not another element. Containers (Canvas, Image, Pane,
# Document, ...) stay out: what they paint is what the tree lacks.
WHOLE_TYPES = frozenset(
    {
        "Button",
        "SplitButton",
        "CheckBox",
        "RadioButton",
        "ComboBox",
        "Edit",
        "Spinner",
        "Slider",
        "ScrollBar",
        "Menu",
        "MenuItem",
        "TabItem",
        "HeaderItem",
        "Hyperlink",
        "ListItem",
        "TreeItem",
        "DataItem",
    }
)

SYSTEM = "You detect UI elements in screenshots. Answer with JSON only."
PROMPT = """This is a screenshot of the window "{title}", {width}x{height} pixels.
List every interactive or informative element you can see: buttons (also icon-only ones), text
fields, checkboxes, tabs, links, menu items, sliders, drag handles, canvas objects, labels.
Reply with a JSON list; each item:
{{"type": "Button", "name": "visible text or a short description of the icon", "box": [x1, y1, x2, y2],
  "confidence": 0.0-1.0}}
Boxes are {units} of this image."""


class VisionProvider:
    """Adds what a screenshot shows and the known targets do not."""

    name = "vision"

    def __init__(self, mode: str, model: Model | None = None, iou_threshold: float = IOU_THRESHOLD) -> None:
        if mode not in ("local", "llm"):
            raise ValueError(f"unknown vision mode {mode!r}")
        if mode == "llm" and model is None:
            raise ValueError("vision by model needs a model")
        self.mode = mode
        self.model = model
        self.iou_threshold = iou_threshold
        self.name = f"vision-{mode}"

    def detect(self, backend: Backend, window: WindowInfo, base: Detection | None) -> Detection:
        if base is None:
            raise ValueError("vision needs the accessibility tier's result to merge with")
        if window.rect is None:
            raise ValueError(f'window "{window.title}" has no geometry (minimized?)')
        started = time.perf_counter()
        popups = base.popups
        image, origin = _capture(backend, window.rect, popups)
        # a menu opened (or closed) since the tree was read is in the picture, or gone from it: look again
        now = unlisted_popups(backend.popups(window), base.targets, base.nodes)
        if now != popups:
            popups = now
            image, origin = _capture(backend, window.rect, popups)
        # what lies under such a menu is hidden by it: it must not pass for the menu's items
        shown = [
            t for t in base.targets if t.rect is not None and not any(menu.contains(*t.rect.center) for menu in popups)
        ]
        known = [t.rect for t in shown if t.rect is not None]
        said = [t.rect for t in shown if t.rect is not None and (t.name or t.value or t.type in WHOLE_TYPES)]
        if self.mode == "local":
            widgets = backend.widget_windows(window) if not base.targets else []
            found, detail = self._local(image, origin, said, shown, popups, widgets, window.rect)
        else:
            found, detail = self._llm(image, origin, window)
        added, left = sift(found, known, [*popups, window.rect], self.iou_threshold, said, shown)  # menus on top
        shown_added, covers = _shown(backend, window, added)
        left += [(t, "under another window") for t in added if t not in shown_added]
        added = shown_added
        report = (
            f"{self.name}: +{len(added)} of {len(found)} seen in {time.perf_counter() - started:.2f}s"
            f" ({detail})" + (f"; {left_out(left)}" if left else "")
        )
        warnings = [
            *base.warnings,
            *(
                f'part of window "{window.title}" is covered by {cover}: vision lists nothing '
                f"there ({uncover_hint(cover)})"
                for cover in covers
            ),
        ]
        low, high = cast(tuple[int, int], image.convert("L").getextrema())  # one band: its darkest and lightest
        if high - low < BLANK:  # a window just mapped shows its background until it has drawn itself
            warnings.append(
                f'window "{window.title}" shows one colour only: it has not drawn itself yet, or shows '
                "nothing; `winctl state` again in a moment"
            )
        return dataclasses.replace(
            base, targets=[*base.targets, *added], warnings=warnings, reports=[*base.reports, report]
        )

    # -- local: shapes and OCR -----------------------------------------------------------
    def _local(  # noqa: C901  (one branch per vision step)
        self,
        image: Image.Image,
        origin: tuple[int, int],
        said: list[Rect],
        targets: list[Target],
        popups: list[Rect],
        widgets: list[Rect],
        window: Rect | None = None,
    ) -> tuple[list[Target], str]:
        """Shapes and text the tree lacks. `said`: the places of the listed elements that have
        a name or a value, or are controls (WHOLE_TYPES); text on a nameless canvas, image or
        pane is read, as the tree has none of it. `widgets`: the app's widget windows, where it
        has a window per widget and no tree (`perception.widgets`)."""
        from winactions.extras import require

        require("vision", feature="--vision local")
        import numpy as np

        from winactions.locate.ocr import shared_engine
        from winactions.opencv import cv2
        from winactions.perception.shapes import detect_widgets

        bgr = np.ascontiguousarray(np.asarray(image.convert("RGB"))[:, :, ::-1])
        known = [t.rect for t in targets if t.rect is not None]
        wholes = [t.rect for t in targets if t.type in WHOLE_TYPES and t.rect is not None]
        named = [t.rect for t in targets if t.type in WHOLE_TYPES and t.rect is not None and (t.name or t.value)]
        shapes = [
            Target(
                id=0,
                type=c.label or "Element",
                name="",
                rect=c.rect,
                source=Source.VISION,
                confidence=round(c.confidence, 2),
                states=["enabled"],
                derived_from=f"vision: shape ({c.detail.get('cue', 'contour')})",
            )
            for c in detect_widgets(bgr, origin=origin)
            if not _part_of(c.rect, wholes, popups) and not _group(c.rect, known)
        ]
        # a shape the tree has already (a canvas, a panel) goes at the merge: text in it stands alone
        shapes_kept = [
            s for s in shapes if s.rect is not None and not any(s.rect.iou(k) > self.iou_threshold for k in known)
        ]
        engine = shared_engine()
        # a line across a menu's edge is the menu's inside it, the window's outside; the window's
        # widgets under a menu are hidden by it
        detected = menus_.split_at(engine.detect(bgr, origin=origin), popups)
        in_menus = [b for b in detected if menus_.within(b, popups) is not None]
        boxes = widgets_.cut_at([b for b in detected if menus_.within(b, popups) is None], widgets)
        grey = cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY)
        toggles = _toggles(grey, origin, boxes, widgets)
        # a toggle's text is read without its mark before it (a square read as "口")
        boxes = [
            b
            if (t := toggles.get(_key(widgets_.holder(b, widgets)))) is None or b.left >= t.mark.right
            else b.model_copy(update={"left": min(b.right - 1, t.mark.right + widgets_.MARK_GAP)})
            for b in boxes
        ]
        # recognising is the slow half of OCR: only read text that no element saying something covers
        fresh = [*(b for b in boxes if not _covered(b, said) and not _part_of(b, named, popups)), *in_menus]
        fields = [w for w in widgets if w.height <= widgets_.CONTROL_HEIGHT and widgets_.sunken(grey, origin, w)]
        read = engine.recognize(_without_carets(bgr, grey, origin, fields), fresh, origin=origin) if fresh else []
        texts = [box for box in read if menus_.within(box.rect, popups) is None]
        text_targets = _menu_items(grey, origin, popups, [box for box in read if box not in texts])
        opened = [
            menu for menu in popups if any(t.rect is not None and menu.contains(*t.rect.center) for t in text_targets)
        ]
        bars: list[Target] = []  # shapes that turned out to be a row of labels: a menu bar, not a control
        inked: list[tuple[Target, float]] = []  # the widget windows' controls, and how bold their text is
        latin = _mostly_latin([box.text for box in texts])
        for box in texts:
            if not box.text.strip() or _already_named(box.text, box.rect, targets):
                continue
            if latin and _ideographs_only(box.text):  # an icon the recogniser (Chinese and English) read as a sign
                if not any(s.rect is not None and _inside(box.rect, s.rect) for s in shapes):
                    text_targets.append(
                        Target(
                            id=0,
                            type="Icon",
                            name="",
                            rect=box.rect,
                            source=Source.VISION,
                            confidence=round(min(box.score, 0.5), 2),
                            states=["enabled"],
                            derived_from=f"vision: an icon (OCR read it as {box.text.strip()!r})",
                        )
                    )
                continue
            widget = widgets_.holder(box.rect, widgets)
            mark = toggles.get(_key(widget))
            if widget is not None and mark is not None:  # a check box of a toolkit without a tree
                # (before any shape: Tk's focus ring around its text is a shape too)
                text_targets.append(
                    Target(
                        id=0,
                        type=mark.kind,
                        name=box.text.strip(),
                        rect=widget,
                        source=Source.VISION,
                        confidence=round(min(box.score, widgets_.MARK_CONFIDENCE), 2),
                        states=["enabled", *(["checked"] if mark.checked else [])],
                        derived_from=f"vision: widget window, its mark ({'filled' if mark.checked else 'empty'}) + ocr "
                        f"{box.score:.2f}",
                    )
                )
                inked.append((text_targets[-1], widgets_.ink(grey, origin, box.rect)))
                continue
            if widget is not None and widget in fields:  # a field: its text is its value
                text_targets.append(
                    Target(
                        id=0,
                        type="Edit",
                        name="",
                        value=box.text.strip(),
                        rect=widget,
                        source=Source.VISION,
                        confidence=round(min(box.score, FRAMED_CONFIDENCE), 2),
                        states=["enabled"],
                        derived_from=f"vision: widget window, sunken + ocr {box.score:.2f}",
                    )
                )
                continue
            if widget is not None and window is not None and widgets_.bar_cell(widget, widgets, window):
                text_targets.append(
                    Target(
                        id=0,
                        type="Menu",
                        name=box.text.strip(),
                        rect=widget,
                        source=Source.VISION,
                        confidence=round(box.score, 2),
                        states=["enabled"],
                        derived_from=f"vision: a menu bar's widget window + ocr {box.score:.2f}",
                    )
                )
                continue
            # a shape holding more lines than this one is a panel, not a control this text names
            holder = next(
                (
                    s
                    for s in shapes_kept
                    if s.rect is not None
                    and _inside(box.rect, s.rect)
                    and sum(_inside(other.rect, s.rect) for other in texts if other.text.strip()) == 1
                ),
                None,
            )
            boxed = widget is not None and widgets_.framed(grey, origin, widget)
            # a strip holding the line (a shape, a framed widget window) may be a bar of labels: a menu bar
            strip = holder.rect if holder is not None else widget if boxed else None
            row = widgets_.spaced_words(grey, origin, box.rect, box.text.strip()) if strip is not None else []
            if strip is not None and row:
                bar = window is not None and widgets_.menu_bar(strip, window)
                text_targets += [
                    Target(
                        id=0,
                        type="Menu" if bar else "Text",
                        name=word,
                        rect=rect,
                        source=Source.VISION if bar else Source.OCR,
                        confidence=round(box.score, 2),
                        derived_from=f"{'vision: a menu bar' if bar else 'ocr'}, a word apart",
                    )
                    for word, rect in row
                ]
                bars += [holder] if holder is not None and not holder.name else []
                continue
            if holder is not None and holder.type == "Edit" and not holder.value:
                holder.value = box.text.strip()  # a field's text is what it holds, not its name
                holder.derived_from = f"{holder.derived_from} + ocr {box.score:.2f}"
                continue
            if holder is not None and not holder.name:
                holder.name = box.text.strip()  # the text on a shape names it ("OK" on a drawn button)
                holder.derived_from = f"{holder.derived_from} + ocr {box.score:.2f}"
                if widget is not None:
                    inked.append((holder, widgets_.ink(grey, origin, box.rect)))
                continue
            if widget is not None and boxed:  # a key no shape was seen for: its window
                text_targets.append(
                    Target(
                        id=0,
                        type="Button",
                        name=box.text.strip(),
                        rect=widget,
                        source=Source.VISION,
                        confidence=round(min(box.score, FRAMED_CONFIDENCE), 2),
                        states=["enabled"],
                        derived_from=f"vision: widget window, framed + ocr {box.score:.2f}",
                    )
                )
                inked.append((text_targets[-1], widgets_.ink(grey, origin, box.rect)))
                continue
            text_targets.append(
                Target(
                    id=0,
                    type="Text",
                    name=box.text.strip(),
                    rect=widget or box.rect,
                    source=Source.OCR,
                    confidence=round(box.score, 2),
                    derived_from="ocr in a widget window" if widget else "ocr",
                )
            )
        # beside all the text the widgets show (a label is never greyed out): a dialog's one button counts too
        strokes = [bold for _, bold in inked] + [
            widgets_.ink(grey, origin, box.rect)
            for box in texts
            if inked and box.text.strip() and widgets_.holder(box.rect, widgets)
        ]
        for control, bold in inked:  # Tk greys out a disabled button's or check box's text
            if not widgets_.enabled(bold, strokes):
                control.states = ["disabled", *(s for s in control.states if s != "enabled")]
        # a coloured blob inside a line of text read is a coloured glyph (jEdit's "01" in a line), no icon;
        # a shape inside a check box's widget is its mark
        marked = [t.rect for t in text_targets if t.source is Source.VISION and t.rect is not None]
        glyphs = [
            s
            for s in shapes
            if s.rect is not None
            and (
                (s.type == "Icon" and any(_inside(s.rect, box.rect) for box in texts if box.text.strip()))
                or any(m.contains(*s.rect.center) for m in [*marked, *opened])
            )
        ] + bars  # a menu's rows are its items
        # a nameless shape around two or more seen (zenity's Cancel and OK in one frame) groups them
        seen = [t.rect for t in [*shapes, *text_targets] if t.rect is not None]
        frames = [s for s in shapes if not s.name and s.rect is not None and _group(s.rect, seen) and s not in glyphs]
        glyphs += frames
        unread = len(boxes) + len(in_menus) - len(fresh)
        detail = (
            f"{len(shapes)} shapes, {len(boxes)} text boxes, {len(fresh)} read"
            + (f", {unread} not read: on listed elements" if unread else "")
            + (f", {len(frames)} frame(s) around others left out" if frames else "")
            + (f", {len(widgets)} widget windows" if widgets else "")
        )
        return [*(s for s in shapes if s not in glyphs), *text_targets], detail

    # -- by model ------------------------------------------------------------------------
    def _llm(self, image: Image.Image, origin: tuple[int, int], window: WindowInfo) -> tuple[list[Target], str]:
        from winactions.llm.images import box_units, prepare

        assert self.model is not None
        prepared = prepare(image, origin)
        units = box_units(getattr(getattr(self.model, "flags", None), "model", None))
        width, height = prepared.size
        reply = self.model.ask_json(
            SYSTEM,
            PROMPT.format(title=window.title, width=width, height=height, units=UNITS_TEXT[units]),
            [prepared.image],
        )
        found = []
        for item in reply if isinstance(reply, list) else []:
            target = _from_model(item, prepared, units)
            if target is not None:
                found.append(target)
        skipped = (len(reply) if isinstance(reply, list) else 0) - len(found)
        detail = f"scale {prepared.scale:.3f}, {skipped} unusable item(s), {self.model.usage()}"
        if not isinstance(reply, list):
            raise ValueError(f"the vision model answered {type(reply).__name__}, not a list of elements")
        return found, detail


def merge(
    found: list[Target], known: list[Rect], shown: list[Rect], threshold: float, said: list[Rect] | None = None
) -> list[Target]:
    """The detections `sift` keeps."""
    return sift(found, known, shown, threshold, said)[0]


def sift(
    found: list[Target],
    known: list[Rect],
    shown: list[Rect],
    threshold: float,
    said: list[Rect] | None = None,
    listed: list[Target] | None = None,
) -> tuple[list[Target], list[tuple[Target, str]]]:
    """Keep detections that overlap no known or already kept element, each clipped to what it
    lies in: a menu open over the window, or the window (`shown`, top first); the others are
    returned with why they were left out (`listed`: the known elements, to name them). The
    screenshot spans them, and what lies between a menu reaching past the window and the window
    is another app's. Text read (OCR) is matched only against the elements that say something
    or are controls (`said`): text drawn on a nameless canvas is not that canvas. A detection
    is that element only where both show in the same place: a menu's row hides what lies under
    it. Two lines of text read are one only when one's middle lies in the other: lines set
    close (a terminal's) overlap by a few pixels."""
    kept: list[Target] = []
    left: list[tuple[Target, str]] = []
    names = {_key(t.rect): t for t in listed or [] if t.rect is not None}

    def place(rect: Rect) -> Rect | None:
        return next((a for a in shown if a.contains(*rect.center)), None)

    for t in sorted(found, key=lambda t: -(t.confidence or 0)):
        area = place(t.rect) if t.rect is not None else None
        rect = t.rect.intersect(area) if t.rect is not None and area is not None else None
        if rect is None:
            left.append((t, "outside the window"))
            continue
        if rect.width < MIN_SIDE or rect.height < MIN_SIDE:
            left.append((t, f"under {MIN_SIDE} px where the window shows it"))
            continue
        listed_here = said if said is not None and t.source is Source.OCR else known
        same = next((k for k in listed_here if place(k) == area and rect.iou(k) > threshold), None)
        if same is not None:
            other = names.get(_key(same))
            left.append((t, f"where {_label(other)} is listed" if other is not None else "where an element is listed"))
            continue
        twin = next((k for k in kept if k.rect is not None and _same(t, rect, k, k.rect, threshold)), None)
        if twin is not None:
            left.append((t, f"where {_label(twin)} was seen"))
            continue
        kept.append(t if rect == t.rect else t.model_copy(update={"rect": rect}))
    return kept, left


def _same(a: Target, a_rect: Rect, b: Target, b_rect: Rect, threshold: float) -> bool:
    """Whether two detections are one element: overlapping, or, for two lines of text read,
    one's middle lying in the other."""
    if a.source is Source.OCR and b.source is Source.OCR:
        return b_rect.contains(*a_rect.center) or a_rect.contains(*b_rect.center)
    return a_rect.iou(b_rect) > threshold


def _label(t: Target | None) -> str:
    if t is None:
        return "an element"
    said = t.name or t.value or ""
    return f'[{t.type}] "{said}"' if said else f"a [{t.type}]"


def left_out(left: list[tuple[Target, str]], most: int = 6) -> str:
    """What was seen and not listed, and why: each text by itself, nameless shapes counted by reason."""
    if not left:
        return ""
    named = [(t, why) for t, why in left if t.name or t.value]
    parts = [f'"{t.name or t.value}" ({why})' for t, why in named[:most]]
    if len(named) > most:
        parts.append(f"{len(named) - most} more text(s)")
    counts: dict[str, int] = {}
    for t, why in left:
        if not (t.name or t.value):
            counts[why] = counts.get(why, 0) + 1
    parts += [f"{n} shape{'s' if n > 1 else ''} ({why})" for why, n in counts.items()]
    return "not listed: " + ", ".join(parts)


def _menu_items(grey: Any, origin: tuple[int, int], popups: list[Rect], texts: list[Any]) -> list[Target]:
    """The rows of the open menus the tree lacks, from the text read in them (`perception.menus`)."""
    found = []
    for menu in popups:
        inside = [
            (box.text.strip(), box.rect, box.score)
            for box in texts
            if box.text.strip() and menus_.within(box.rect, [menu]) == menu
        ]
        for item in menus_.items(inside, menu, grey, origin):
            found.append(
                Target(
                    id=0,
                    type="MenuItem",
                    name=item.name,
                    rect=item.rect,
                    source=Source.VISION,
                    confidence=round(item.score, 2),
                    states=["enabled" if item.enabled else "disabled"],
                    derived_from="vision: a row of a menu the app does not list"
                    + (f", its shortcut {item.shortcut}" if item.shortcut else ""),
                )
            )
    return found


def _capture(backend: Backend, window: Rect, popups: list[Rect]) -> tuple[Image.Image, tuple[int, int]]:
    """A picture of the window and of the menus open over it (one may reach past it), and its origin."""
    seen = window
    for menu in popups:
        seen = seen.union(menu)
    image = screenshots.capture(backend, seen)  # winctl's own overlays painted out: they are not the app's
    return own_pixels.paint_out(image, (seen.left, seen.top), [r for r, _ in backend.overlays()]), (seen.left, seen.top)


def _without_carets(bgr: Any, grey: Any, origin: tuple[int, int], fields: list[Rect]) -> Any:
    """The picture with the text cursors shown in `fields` painted over with the field's colour:
    OCR reads a cursor as a letter of the field's text."""
    import numpy as np

    ox, oy = origin
    out = bgr
    for field in fields:
        cursor = widgets_.caret(grey, origin, field)
        if cursor is None:
            continue
        out = bgr.copy() if out is bgr else out
        inside = bgr[field.top - oy + 4 : field.bottom - oy - 4, field.left - ox + 4 : field.right - ox - 4]
        out[cursor.top - oy : cursor.bottom - oy, cursor.left - ox : cursor.right - ox] = np.median(
            inside.reshape(-1, 3), axis=0
        ).astype(bgr.dtype)
    return out


def _key(rect: Rect | None) -> tuple[int, int, int, int] | None:
    return None if rect is None else (rect.left, rect.top, rect.right, rect.bottom)


def _toggles(
    grey: Any, origin: tuple[int, int], boxes: list[Rect], widgets: list[Rect]
) -> dict[tuple[int, int, int, int] | None, widgets_.Toggle]:
    """The toggles' marks in the widget windows that hold text, by the widget's place."""
    found = {}
    for box in boxes:
        widget = widgets_.holder(box, widgets)
        if widget is not None and _key(widget) not in found and (mark := widgets_.toggle(grey, origin, widget)):
            found[_key(widget)] = mark
    return found


def _shown(backend: Backend, window: WindowInfo, found: list[Target]) -> tuple[list[Target], list[str]]:
    """The detections the window itself shows, and what covers part of it: the screenshot
    holds whatever lies over the window (`screenshots.covered`), which is not the window's."""
    covers = screenshots.covered(backend, window)
    shown = [t for t in found if t.rect is not None and not any(rect.contains(*t.rect.center) for rect, _ in covers)]
    return shown, list(dict.fromkeys(what for _, what in covers))


def _from_model(item: Any, prepared: Any, units: str) -> Target | None:
    if not isinstance(item, dict):
        return None
    box = item.get("box", item.get("bbox", item.get("rect")))
    if not isinstance(box, list) or len(box) != 4 or not all(isinstance(v, (int, float)) for v in box):
        return None
    rect = prepared.to_screen(box, units)
    confidence = item.get("confidence", 0.5)
    confidence = float(confidence) if isinstance(confidence, (int, float)) and 0 <= confidence <= 1 else 0.5
    return Target(
        id=0,
        type=str(item.get("type") or "Element"),
        name=str(item.get("name") or ""),
        rect=rect,
        source=Source.VISION,
        confidence=round(confidence, 2),
        states=["enabled"],
        derived_from=f"vision: model box {[round(v) for v in box]} ({units})",
    )


def _ideographs_only(text: str) -> bool:
    """Whether a read is one or two CJK ideographs and nothing else, other than those the
    recogniser gives for a sign ("二" for "=": `ocr.LOOK_ALIKES`)."""
    from winactions.locate.ocr import LOOK_ALIKES

    signs = text.replace(" ", "")
    return (
        0 < len(signs) <= 2
        and not all(ord(ch) in LOOK_ALIKES for ch in signs)
        and all("\u3400" <= ch <= "\u9fff" or "\uf900" <= ch <= "\ufaff" for ch in signs)
    )


def _mostly_latin(texts: list[str]) -> bool:
    """Whether a window's text is Latin script: more reads hold Latin letters than ideographs.
    Then a lone ideograph or two read on it is an icon (OCR reads toolbar icons as ideographs)."""
    latin = sum(any(ch.isascii() and ch.isalpha() for ch in t) for t in texts)
    return latin > sum(any("\u3400" <= ch <= "\u9fff" for ch in t) for t in texts)


def _already_named(text: str, rect: Rect, targets: list[Target]) -> bool:
    """Text the tree already has: the name or value of an element around it ("Ready" in a status bar)."""
    wanted = " ".join(text.split()).casefold()
    cx, cy = rect.center
    return any(
        t.rect is not None
        and t.rect.contains(cx, cy)
        and wanted in (t.name.casefold().strip(), (t.value or "").casefold().strip())
        for t in targets
    )


def _covered(box: Rect, known: list[Rect]) -> bool:
    cx, cy = box.center
    return any(k.contains(cx, cy) and (k.area <= 4 * box.area or box.iou(k) > 0.1) for k in known)


def _part_of(box: Rect, wholes: list[Rect], popups: list[Rect]) -> bool:
    """Whether `box` lies in a listed element of WHOLE_TYPES, so is a part of it: "=" read as
    "二" on a calculator's "=" key, a combo box's arrow read as "4", a selection's highlight in a
    field taken for a button. Not inside a menu the tree lacks: its items lie over such elements."""
    cx, cy = box.center
    return not any(menu.contains(cx, cy) for menu in popups) and any(w.contains(cx, cy) for w in wholes)


def _group(box: Rect, known: list[Rect]) -> bool:
    """Whether a shape holds two listed elements or more: a frame drawn around a keypad's keys
    is a group of them, not a widget of its own."""
    return sum(box.encloses(k) for k in known if k.area < box.area) >= 2


def _inside(inner: Rect, outer: Rect) -> bool:
    cx, cy = inner.center
    return outer.contains(cx, cy)
