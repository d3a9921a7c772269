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

from pydantic import BaseModel, ConfigDict

from winactions import settings
from winactions.llm.config import LLMFlags
from winactions.llm.lazy import LazyModel
from winactions.options import INFER_MODES, VISION_MODES
from winactions.perception.inference_llm import LLMInferenceProvider
from winactions.perception.provider import Provider
from winactions.perception.structural import StructuralProvider
from winactions.perception.vision import IOU_THRESHOLD, VisionProvider

MIN_CONFIDENCE = settings.INFER_MIN_CONFIDENCE.default  # a model's inferred item below this is dropped


class Thresholds(BaseModel):
    """The tiers' two tunable numbers, resolved: flag, else environment, else the default."""

    model_config = ConfigDict(frozen=True)

    min_confidence: float = MIN_CONFIDENCE
    iou: float = IOU_THRESHOLD

    @classmethod
    def resolve(cls, min_confidence: float | None = None, iou: float | None = None) -> Thresholds:
        return cls(
            min_confidence=_fraction(min_confidence, settings.INFER_MIN_CONFIDENCE),
            iou=_fraction(iou, settings.VISION_IOU),
        )


def _fraction(value: float | None, setting: settings.Number) -> float:
    """`value` when given (a flag, a call), else the setting's; InvalidInput when out of range."""
    return setting.read() if value is None else setting.check(value)


def compose(
    tree: Provider, infer: str, vision: str, llm: LLMFlags, thresholds: Thresholds | None = None
) -> list[Provider]:
    if infer not in INFER_MODES or vision not in VISION_MODES:
        raise ValueError(
            f"unknown tier choice infer={infer!r} vision={vision!r}: "
            f"infer is one of {INFER_MODES}, vision one of {VISION_MODES}"
        )
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
