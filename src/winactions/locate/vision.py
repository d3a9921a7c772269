"""The `vision` strategy: ask a vision model where an element is — described in words
(`find_described`), or shown by its reference images (`find_reference`, one-shot: the
references and the screenshot go together, the prompt says which is which).

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


REFERENCES = 3  # reference images sent at most (an asset's first variants): each costs tokens
MIN_REFERENCE_SIDE = 32  # px: smaller icons are enlarged (nearest neighbour) so the model can see them
REFERENCE_PROMPT = """{first} the reference: {kind} of one UI element{named}, cropped from an earlier
screenshot. Image {last} is the current screenshot, {width}x{height}. Find that element in the screenshot
(it may be a little larger or smaller, or drawn in another theme or state).{described}
Reply with JSON: {{"found": true, "box": [x1, y1, x2, y2], "confidence": 0.0-1.0, "label": "what you see"}}
or {{"found": false, "reason": "..."}}. If several places fit, add "candidates": [{{"box": [...],
"confidence": ..., "label": "..."}}]. Boxes are {units} of the screenshot (image {last}), not of the reference."""


def find_described(model: Any, image: Image.Image, origin: tuple[int, int], description: str) -> list[Candidate]:
    """Candidates for `description`, best first; [] when the model says it is not there."""
    prepared = prepare(image, origin)
    units = box_units(getattr(getattr(model, "flags", None), "model", None))
    width, height = prepared.size
    reply = model.ask_json(
        SYSTEM,
        PROMPT.format(width=width, height=height, description=description, units=UNITS_TEXT[units]),
        [prepared.image],
    )
    return _candidates(reply, prepared, units, description, "vision")


def find_reference(
    model: Any,
    image: Image.Image,
    origin: tuple[int, int],
    references: list[Image.Image],
    name: str,
    description: str | None = None,
) -> list[Candidate]:
    """Candidates for the element the `references` show, best first; [] when the model says
    it is not there. The references go first, the screenshot last; boxes are the screenshot's."""
    if not references:
        raise ValueError("find_reference needs at least one reference image")
    prepared = prepare(image, origin)
    units = box_units(getattr(getattr(model, "flags", None), "model", None))
    width, height = prepared.size
    count = len(references)
    prompt = REFERENCE_PROMPT.format(
        first="Image 1 is" if count == 1 else f"Images 1-{count} are",
        kind="a crop" if count == 1 else "crops (variants)",
        named=f' named "{name}"',
        last=count + 1,
        width=width,
        height=height,
        units=UNITS_TEXT[units],
        described=f" It is described as: {description}." if description else "",
    )
    reply = model.ask_json(SYSTEM, prompt, [*(_visible(r) for r in references), prepared.image])
    return _candidates(reply, prepared, units, name, "vision:reference")


def _visible(reference: Image.Image) -> Image.Image:
    """A reference as sent: RGB, small icons enlarged by a whole factor (edges stay sharp),
    large crops downscaled like screenshots."""
    reference = prepare(reference).image
    side = min(reference.size)
    if side >= MIN_REFERENCE_SIDE:
        return reference
    factor = -(-MIN_REFERENCE_SIDE // max(1, side))
    return reference.resize((reference.width * factor, reference.height * factor), Image.Resampling.NEAREST)


def _candidates(reply: Any, prepared: PreparedImage, units: str, label: str, method: str) -> list[Candidate]:
    if not isinstance(reply, dict):
        raise LLMFailed(f"the vision model answered a {type(reply).__name__}, not an object with a box")
    if reply.get("found") is False:
        return []
    items = [reply, *[c for c in reply.get("candidates", []) or [] if isinstance(c, dict)]]
    out = [c for item in items if (c := _candidate(item, prepared, units, label, method)) is not None]
    if not out:
        raise LLMFailed(f"the vision model's reply has no usable box: {str(reply)[:160]}")
    unique: list[Candidate] = []
    for c in sorted(out, key=lambda c: -c.confidence):
        if all(c.rect.iou(u.rect) < 0.5 for u in unique):
            unique.append(c)
    return unique


def _candidate(item: dict[str, Any], prepared: PreparedImage, units: str, label: str, method: str) -> Candidate | None:
    box = item.get("box", item.get("bbox"))
    if not isinstance(box, list) or len(box) != 4 or not all(isinstance(v, (int, float)) for v in box):
        return None
    confidence = item.get("confidence", 0.5)
    confidence = float(confidence) if isinstance(confidence, (int, float)) and 0 <= confidence <= 1 else 0.5
    rect = prepared.to_screen(box, units)  # type: ignore[arg-type]
    if rect.is_empty:
        return None
    return Candidate(
        rect, confidence, method, str(item.get("label") or label), {"units": units, "scale": round(prepared.scale, 4)}
    )
