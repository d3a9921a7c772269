"""The `vision` strategy: ask a vision model where a described element is.

The screenshot is resized to ≤ 1568 px for the model and the box mapped back (both pixel
and 0–1000 grid conventions). The model may say it did not find the element, or offer
several candidates; a reply that is not JSON is a failed attempt with the reason, so the
fallback chain goes on.
"""

from __future__ import annotations

from typing import Any

from PIL import Image

from winactions.errors import LLMFailed
from winactions.llm.images import UNITS_TEXT, PreparedImage, box_units, prepare
from winactions.locate.types import Candidate

SYSTEM = "You locate UI elements in screenshots. Answer with JSON only."
PROMPT = """Screenshot {width}x{height}. Find: {description}
Reply with JSON: {{"found": true, "box": [x1, y1, x2, y2], "confidence": 0.0-1.0, "label": "what you see"}}
or {{"found": false, "reason": "..."}}. If several elements fit, add "candidates": [{{"box": [...],
"confidence": ..., "label": "..."}}]. Boxes are {units} of this image."""


def find_described(model: Any, image: Image.Image, origin: tuple[int, int], description: str) -> list[Candidate]:
    """Candidates for `description`, best first; [] when the model says it is not there."""
    prepared = prepare(image, origin)
    units = box_units(getattr(getattr(model, "flags", None), "model", None))
    width, height = prepared.size
    reply = model.ask_json(SYSTEM, PROMPT.format(width=width, height=height, description=description,
                                                 units=UNITS_TEXT[units]), [prepared.image])
    if not isinstance(reply, dict):
        raise LLMFailed(f"the vision model answered a {type(reply).__name__}, not an object with a box")
    if reply.get("found") is False:
        return []
    items = [reply, *[c for c in reply.get("candidates", []) or [] if isinstance(c, dict)]]
    out = [c for item in items if (c := _candidate(item, prepared, units, description)) is not None]
    if not out:
        raise LLMFailed(f"the vision model's reply has no usable box: {str(reply)[:160]}")
    unique: list[Candidate] = []
    for c in sorted(out, key=lambda c: -c.confidence):
        if all(c.rect.iou(u.rect) < 0.5 for u in unique):
            unique.append(c)
    return unique


def _candidate(item: dict[str, Any], prepared: PreparedImage, units: str, description: str) -> Candidate | None:
    box = item.get("box", item.get("bbox"))
    if not isinstance(box, list) or len(box) != 4 or not all(isinstance(v, (int, float)) for v in box):
        return None
    confidence = item.get("confidence", 0.5)
    confidence = float(confidence) if isinstance(confidence, (int, float)) and 0 <= confidence <= 1 else 0.5
    rect = prepared.to_screen(box, units)  # type: ignore[arg-type]
    if rect.is_empty:
        return None
    return Candidate(rect, confidence, "vision", str(item.get("label") or description),
                     {"units": units, "scale": round(prepared.scale, 4)})
