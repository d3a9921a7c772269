"""Which perception providers run, in which order — seed 000's table as code.

    (none)            tree
    --infer           tree → rules
    --infer llm       tree → rules → text model
    --vision ...      tree [→ inference] → screenshot detection (local or model), merged by IOU

Model-backed providers get a lazily built client: no SDK is imported and no key is needed
until a state with that tier is actually taken, and a missing key becomes a warning there.
"""

from __future__ import annotations

from winactions.llm.config import LLMFlags
from winactions.llm.lazy import LazyModel
from winactions.perception.inference_llm import LLMInferenceProvider
from winactions.perception.provider import Provider
from winactions.perception.structural import StructuralProvider
from winactions.perception.vision import VisionProvider

INFER_MODES = ("off", "rules", "llm")
VISION_MODES = ("off", "auto", "local", "llm")


def compose(tree: Provider, infer: str, vision: str, llm: LLMFlags) -> list[Provider]:
    if infer not in INFER_MODES or vision not in VISION_MODES:
        raise ValueError(f"unknown tier choice infer={infer!r} vision={vision!r}: "
                         f"infer is one of {INFER_MODES}, vision one of {VISION_MODES}")
    providers: list[Provider] = [tree]
    model = LazyModel(llm)
    if infer in ("rules", "llm"):
        providers.append(StructuralProvider())
    if infer == "llm":
        providers.append(LLMInferenceProvider(model))
    if vision != "off":
        mode = "llm" if vision == "llm" or (vision == "auto" and llm.configured) else "local"
        providers.append(VisionProvider(mode, model if mode == "llm" else None))
    return providers
