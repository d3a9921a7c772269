"""Which perception providers run, in which order — seed 000's table as code.

    (none)            tree
    --infer           tree → rules
    --infer llm       tree → rules → text model
    --vision ...      tree [→ inference] → screenshot detection (local or model), merged by IOU

Model-backed providers get a lazily built client: no SDK is imported and no key is needed
until a state with that tier is actually taken, and a missing key becomes a warning there.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PIL import Image

from winactions.llm.config import LLMFlags
from winactions.perception.inference_llm import LLMInferenceProvider
from winactions.perception.provider import Provider
from winactions.perception.structural import StructuralProvider
from winactions.perception.vision import VisionProvider


class LazyModel:
    """One LLM client per tier choice, created on the first question."""

    def __init__(self, flags: LLMFlags) -> None:
        self.flags = flags
        self._client: Any = None

    @property
    def client(self) -> Any:
        if self._client is None:
            from winactions.llm.client import LLMClient

            self._client = LLMClient(self.flags.resolve())
        return self._client

    def ask_json(self, system: str, prompt: str, images: Sequence[Image.Image] = ()) -> Any:
        return self.client.complete_json(prompt, images, system=system)[0]

    def usage(self) -> str:
        if self._client is None:
            return "no calls"
        t = self._client.totals
        return (f"{t['calls']} call(s), {t['input_tokens']} tokens in, {t['output_tokens']} out, "
                f"{t['latency_s']:.2f}s, {self._client.config.model}")


def compose(tree: Provider, infer: str, vision: str, llm: LLMFlags) -> list[Provider]:
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
