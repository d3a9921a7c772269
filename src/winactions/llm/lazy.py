"""A model handle that costs nothing until the first question: no SDK import, no key check.

Tiers and locator strategies hold one; a missing key or SDK surfaces when a call is made,
where the caller turns it into a warning (perception) or a failed attempt (locator).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PIL import Image

from winactions.llm.config import LLMFlags


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
        return (
            f"{t['calls']} call(s), {t['input_tokens']} tokens in, {t['output_tokens']} out, "
            f"{t['latency_s']:.2f}s, {self._client.config.model}"
        )
