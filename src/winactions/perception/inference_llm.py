"""Tier 1+ by model (`--infer llm`): a text model reads the tree's rects and names hidden handles.

The rules in `structural.py` cover the common patterns exactly; a model knows more patterns
(a grip drawn at a pane edge, a custom splitter between two panels). It gets the tree as text
only — `[i] [Type] "Name" rect=[l,t,r,b]`, no screenshot — and is asked for JSON.

A model can invent, so nothing it says is taken on trust:
- confidence below the threshold (0.7 by default) is dropped;
- `derived_from` must name at least one anchor `[i]` that exists;
- the rect must follow from those anchors: a thin border or grip must sit on one of their
  edges, any other element must share two edges with them, and all of it must lie near them;
- what the rules or the tree already have is not added twice.
Every rejection is reported as a warning, so an agent sees what the model claimed.
"""

from __future__ import annotations

import dataclasses
import re
import time
from typing import Any, Protocol

from winactions.backends.base import Backend
from winactions.model import Rect, Source, Target, WindowInfo
from winactions.perception.provider import Detection

EDGE_TOLERANCE = 6  # px: a border's centre line may be this far from the anchor edge it claims
NEAR = 24  # px: how far outside its anchors an inferred element may reach
MAX_CELLS_PER_PARENT = 12  # table cells sent per table: enough to show the pattern, not 2,000 lines
THIN = 12  # px: narrower (or lower) than this, an element is a border or grip

SYSTEM = (
    "You infer UI elements that accessibility trees omit — column borders, row borders, resize "
    "handles, splitters, panel grips — from the rectangles of the elements they do list. "
    "Coordinates are screen pixels [left, top, right, bottom]. Answer with JSON only."
)

PROMPT = """Window "{title}" at {window_rect}. Accessible elements:
{tree}

List hidden draggable or clickable elements that must exist between or at the edges of these
elements (ColumnBorder, RowBorder, ResizeHandle, Splitter, PanelGrip, or another type), and only
those whose position follows from the rects above. Do not repeat listed elements.
Reply with a JSON list; each item:
{{"type": "ColumnBorder", "name": "ID | Name", "rect": [l, t, r, b], "confidence": 0.0-1.0,
  "derived_from": "border_x = [3].rect.right = [4].rect.left"}}
derived_from must cite the element numbers in [brackets] that the rect was computed from.
Reply [] if there are none."""

_REF = re.compile(r"\[(\d+)\]")


class Model(Protocol):
    """What the tiers need of a model: a JSON answer, and what the calls so far cost."""

    def ask_json(self, system: str, prompt: str, images: Any = ()) -> Any: ...

    def usage(self) -> str: ...


class LLMInferenceProvider:
    """Adds model-inferred targets that pass the checks; needs the tree (and rules) before it."""

    name = "infer-llm"

    def __init__(self, model: Model, min_confidence: float = 0.7) -> None:
        self.model = model
        self.min_confidence = min_confidence

    def detect(self, backend: Backend, window: WindowInfo, base: Detection | None) -> Detection:
        if base is None:
            raise ValueError("LLM inference needs the accessibility tier's result")
        tree = [(i, t) for i, t in enumerate(base.targets) if t.source is Source.ACCESSIBILITY]
        prompt = PROMPT.format(title=window.title, window_rect=window.rect, tree=format_tree(tree))
        started = time.perf_counter()
        reply = self.model.ask_json(SYSTEM, prompt)
        accepted, rejected = self.check(reply, base.targets)
        warnings = [*base.warnings, *(f"infer-llm dropped {why}" for why in rejected)]
        known = (len(reply) if isinstance(reply, list) else 0) - len(accepted) - len(rejected)
        report = (
            f"infer-llm: +{len(accepted)} inferred, {known} already known, {len(rejected)} rejected in "
            f"{time.perf_counter() - started:.2f}s ({self.model.usage()})"
        )
        return dataclasses.replace(
            base, targets=[*base.targets, *accepted], warnings=warnings, reports=[*base.reports, report]
        )

    def check(self, reply: Any, targets: list[Target]) -> tuple[list[Target], list[str]]:
        """The model's items that pass every check, and one reason per item that did not."""
        if not isinstance(reply, list):
            return [], [f"the reply: expected a JSON list, got {type(reply).__name__}"]
        accepted: list[Target] = []
        rejected: list[str] = []
        for item in reply:
            try:
                target = self._one(item, targets, accepted)
            except _Reject as why:
                label = item.get("type", "?") if isinstance(item, dict) else repr(item)[:40]
                rejected.append(f"{label}: {why}")
                continue
            if target is not None:
                accepted.append(target)
        return accepted, rejected

    def _one(self, item: Any, targets: list[Target], accepted: list[Target]) -> Target | None:
        if not isinstance(item, dict):
            raise _Reject("not an object")
        rect = _rect(item.get("rect"))
        confidence = item.get("confidence")
        if not isinstance(confidence, (int, float)) or not 0 <= confidence <= 1:
            raise _Reject("no confidence in 0..1")
        if confidence < self.min_confidence:
            raise _Reject(f"confidence {confidence:.2f} < {self.min_confidence}")
        derived = item.get("derived_from")
        if not isinstance(derived, str) or not derived.strip():
            raise _Reject("no derived_from")
        anchors = [
            int(m)
            for m in _REF.findall(derived)
            if int(m) < len(targets)
            and targets[int(m)].source is Source.ACCESSIBILITY
            and targets[int(m)].rect is not None
        ]
        if not anchors:
            raise _Reject(f"derived_from {derived!r} names no listed element")
        anchor_rects = [r for i in anchors if (r := targets[i].rect) is not None]
        if not follows_from(rect, anchor_rects):
            raise _Reject(f"rect {rect} does not follow from {', '.join(f'[{i}]' for i in anchors)}")
        type_ = str(item.get("type") or "Element")
        for other in [*targets, *accepted]:
            if other.rect is not None and _same(rect, type_, other):
                return None  # already known (tree, rules, or an earlier item): not a rejection
        return Target(
            id=0,
            type=type_,
            name=str(item.get("name") or ""),
            rect=rect,
            source=Source.INFERRED,
            confidence=round(float(confidence), 2),
            states=["enabled"],
            derived_from="llm: " + _REF.sub(lambda m: f"[#{m.group(1)}]", derived.strip()),
        )


class _Reject(Exception):
    pass


def format_tree(tree: list[tuple[int, Target]]) -> str:
    """One line per element, table cells capped per parent so big tables stay small."""
    lines = []
    cells: dict[int | None, int] = {}
    for i, t in tree:
        if t.rect is None:
            continue
        if t.type == "DataItem":
            cells[t.parent_id] = cells.get(t.parent_id, 0) + 1
            if cells[t.parent_id] > MAX_CELLS_PER_PARENT:
                continue
        lines.append(f'[{i}] [{t.type}] "{t.name[:40]}" rect={t.rect}')
    return "\n".join(lines)


def follows_from(rect: Rect, anchors: list[Rect]) -> bool:
    """Whether `rect` can be computed from the anchors' edges (see the module docstring)."""
    hull = Rect(
        left=min(a.left for a in anchors) - NEAR,
        top=min(a.top for a in anchors) - NEAR,
        right=max(a.right for a in anchors) + NEAR,
        bottom=max(a.bottom for a in anchors) + NEAR,
    )
    if hull.intersect(rect) != rect:
        return False
    xs = {e for a in anchors for e in (a.left, a.right)}
    ys = {e for a in anchors for e in (a.top, a.bottom)}

    def near(value: float, edges: set[int]) -> bool:
        return any(abs(value - e) <= EDGE_TOLERANCE for e in edges)

    if rect.width <= THIN:
        return near((rect.left + rect.right) / 2, xs)
    if rect.height <= THIN:
        return near((rect.top + rect.bottom) / 2, ys)
    shared = sum([near(rect.left, xs), near(rect.right, xs), near(rect.top, ys), near(rect.bottom, ys)])
    return shared >= 2


def _rect(value: Any) -> Rect:
    if not isinstance(value, list) or len(value) != 4 or not all(isinstance(v, (int, float)) for v in value):
        raise _Reject(f"rect {value!r} is not [left, top, right, bottom]")
    left, top, right, bottom = (round(v) for v in value)
    if right <= left or bottom <= top:
        raise _Reject(f"rect {value!r} is empty")
    return Rect(left=left, top=top, right=right, bottom=bottom)


def _same(rect: Rect, type_: str, other: Target) -> bool:
    assert other.rect is not None
    if other.source is Source.ACCESSIBILITY:
        return rect.iou(other.rect) > 0.5
    cx, cy = rect.center
    ox, oy = other.rect.center
    return rect.iou(other.rect) > 0.3 or (other.type == type_ and abs(cx - ox) <= 4 and abs(cy - oy) <= 4)
