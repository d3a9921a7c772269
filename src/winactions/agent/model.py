"""The runner's one model handle: the llm layer's client, with the run's caps on calls and tokens.

Every model call of a run (plan, replan, verify in words, blocker advice) goes through
`Model.ask`, which refuses once a cap is reached — so a model that loops cannot spend
without bound — and keeps the count every result reports.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from PIL import Image

from winactions.errors import LLMFailed
from winactions.llm.config import LLMFlags
from winactions.llm.jsonx import NoJSON, extract_json


@dataclass
class Usage:
    calls: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    seconds: float = 0.0

    @property
    def tokens(self) -> int:
        return self.input_tokens + self.output_tokens

    def as_dict(self) -> dict[str, float]:
        return {
            "calls": self.calls,
            "input_tokens": self.input_tokens,
            "output_tokens": self.output_tokens,
            "seconds": round(self.seconds, 3),
        }


@dataclass
class Model:
    """A model for one run; `None` flags (nothing configured) make every ask a clear error."""

    flags: LLMFlags | None
    max_calls: int = 8
    max_tokens: int = 200_000
    usage: Usage = field(default_factory=Usage)
    _client: Any = None

    @property
    def ready(self) -> bool:
        return self.flags is not None and self.flags.configured

    @property
    def left(self) -> bool:
        return self.usage.calls < self.max_calls and self.usage.tokens < self.max_tokens

    def ask(self, system: str, prompt: str, images: Sequence[Image.Image] = (), *, want: type = dict) -> Any:
        """One call; the JSON of the reply (of type `want`). Raises `LLMFailed` for no model,
        a spent budget, a failed call or a reply without JSON."""
        if not self.ready or self.flags is None:
            raise LLMFailed(
                "this needs a model, and none is configured",
                hint="set WINCTL_VISION_BASE_URL or an API key (see `winctl --help`), "
                "or use a task an app module's template knows",
            )
        if not self.left:
            raise LLMFailed(
                f"the run's model budget is spent ({self.usage.calls} calls, {self.usage.tokens} tokens)",
                hint="raise --max-model-calls / --max-tokens, or split the task",
            )
        if self._client is None:
            from winactions.llm.client import LLMClient

            self._client = LLMClient(self.flags.resolve())
        started = time.perf_counter()
        try:
            reply = self._client.complete(prompt, images, system=system)
        finally:
            self.usage.seconds += time.perf_counter() - started
        self.usage.calls += 1
        self.usage.input_tokens += reply.input_tokens
        self.usage.output_tokens += reply.output_tokens
        try:
            return extract_json(reply.text, want=want)
        except NoJSON:
            shown = reply.text.strip().replace("\n", " ")[:160]
            raise LLMFailed(
                f"the model replied without usable JSON: {shown!r}", hint="try again, or use a stronger model"
            ) from None

    def ask_json(self, system: str, prompt: str, images: Sequence[Image.Image] = ()) -> Any:
        """The locator's model interface (`winactions.locate.vision`), counted in this run's budget."""
        return self.ask(system, prompt, images, want=dict)
