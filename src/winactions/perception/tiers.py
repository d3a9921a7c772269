"""Which perception providers run, in which order.

    (none)            tree
    --infer           tree → rules
    --infer llm       tree → rules → text model
    --vision ...      tree [→ inference] → screenshot detection (local or model), merged by IOU

Model-backed providers get a lazily built client: no SDK is imported and no key is needed
until a state with that tier is actually taken, and a missing key becomes a warning there.

Two thresholds are tunable, by flag or environment: the confidence a model-inferred item
needs to be kept (`--infer-min-confidence`, WINCTL_INFER_MIN_CONFIDENCE, default 0.7) and
the overlap above which a vision detection counts as a known target (`--vision-iou`,
WINCTL_VISION_IOU, default 0.1).
"""

from __future__ import annotations

import os

from pydantic import BaseModel, ConfigDict

from winactions.errors import InvalidInput
from winactions.llm.config import LLMFlags
from winactions.llm.lazy import LazyModel
from winactions.options import INFER_MODES, VISION_MODES
from winactions.perception.inference_llm import LLMInferenceProvider
from winactions.perception.provider import Provider
from winactions.perception.structural import StructuralProvider
from winactions.perception.vision import IOU_THRESHOLD, VisionProvider

MIN_CONFIDENCE = 0.7  # a model's inferred item below this is dropped


class Thresholds(BaseModel):
    """The tiers' two tunable numbers, resolved: flag, else environment, else the default."""

    model_config = ConfigDict(frozen=True)

    min_confidence: float = MIN_CONFIDENCE
    iou: float = IOU_THRESHOLD

    @classmethod
    def resolve(cls, min_confidence: float | None = None, iou: float | None = None) -> Thresholds:
        return cls(min_confidence=_fraction(min_confidence, "WINCTL_INFER_MIN_CONFIDENCE", MIN_CONFIDENCE),
                   iou=_fraction(iou, "WINCTL_VISION_IOU", IOU_THRESHOLD))


def _fraction(value: float | None, variable: str, default: float) -> float:
    hint = f"give a number from 0 to 1 (default {default})"
    if value is None:
        raw = os.environ.get(variable, "").strip()
        if not raw:
            return default
        try:
            value = float(raw)
        except ValueError:
            raise InvalidInput(f"{variable}={raw!r} is not a number", hint=hint) from None
    if not 0 <= value <= 1:
        raise InvalidInput(f"{variable} must lie between 0 and 1, not {value:g}", hint=hint)
    return value


def compose(tree: Provider, infer: str, vision: str, llm: LLMFlags,
            thresholds: Thresholds | None = None) -> list[Provider]:
    if infer not in INFER_MODES or vision not in VISION_MODES:
        raise ValueError(f"unknown tier choice infer={infer!r} vision={vision!r}: "
                         f"infer is one of {INFER_MODES}, vision one of {VISION_MODES}")
    thresholds = thresholds or Thresholds()
    providers: list[Provider] = [tree]
    model = LazyModel(llm)
    if infer in ("rules", "llm"):
        providers.append(StructuralProvider())
    if infer == "llm":
        providers.append(LLMInferenceProvider(model, thresholds.min_confidence))
    if vision != "off":
        mode = "llm" if vision == "llm" or (vision == "auto" and llm.configured) else "local"
        providers.append(VisionProvider(mode, model if mode == "llm" else None, thresholds.iou))
    return providers
