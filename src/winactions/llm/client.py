"""`LLMClient.complete(prompt, images)`: one call, either API, with accounting.

Both official SDKs do the HTTP, retries and timeouts; this layer only shapes the request
(content blocks with base64 images), normalises the reply (text, token counts, latency)
and turns every SDK failure into `LLMFailed` with a message an agent can act on.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from PIL import Image

from winactions import progress
from winactions.errors import BackendUnavailable, Cancelled, LLMFailed
from winactions.llm.config import LLMConfig
from winactions.llm.images import to_base64_png
from winactions.llm.jsonx import NoJSON, extract_json


@dataclass(frozen=True)
class LLMReply:
    """The text of one answer and what it cost."""

    text: str
    provider: str
    model: str
    input_tokens: int
    output_tokens: int
    latency_s: float


class LLMClient:
    """A thread-safe wrapper over one SDK client; `calls` keeps every reply for accounting."""

    def __init__(self, config: LLMConfig) -> None:
        self.config = config
        self.calls: list[LLMReply] = []
        self._lock = threading.Lock()
        self._sdk: Any = None

    # -- public -------------------------------------------------------------------------
    def complete(
        self,
        prompt: str,
        images: Sequence[Image.Image] = (),
        *,
        system: str | None = None,
        max_tokens: int | None = None,
    ) -> LLMReply:
        """Send one user turn (images first, then the text) and return the model's text.

        A call whose caller cancels it (`winactions.progress`) raises `Cancelled` at once,
        without waiting for the model's answer."""
        sdk = self._client()
        started = time.perf_counter()
        ask = self._anthropic if self.config.provider == "anthropic" else self._openai
        try:
            waiting = f"while waiting for the model ({self.config.model})"
            text, tokens_in, tokens_out = progress.interruptible(
                lambda: ask(sdk, prompt, images, system, max_tokens), waiting
            )
        except (LLMFailed, Cancelled):
            raise
        except Exception as exc:  # every SDK error type maps to one clear message
            raise _explain(exc, self.config) from exc
        reply = LLMReply(
            text, self.config.provider, self.config.model, tokens_in, tokens_out, time.perf_counter() - started
        )
        with self._lock:
            self.calls.append(reply)
        return reply

    def complete_json(
        self, prompt: str, images: Sequence[Image.Image] = (), *, system: str | None = None, want: type | None = None
    ) -> tuple[Any, LLMReply]:
        """`complete`, then the JSON inside the reply; a reply with none is `LLMFailed`."""
        reply = self.complete(prompt, images, system=system)
        try:
            return extract_json(reply.text, want=want), reply
        except NoJSON:
            shown = reply.text.strip().replace("\n", " ")[:160]
            raise LLMFailed(
                f"the model ({self.config.model}) replied without usable JSON: {shown!r}",
                hint="try again, or use a stronger model (--vision-model)",
            ) from None

    @property
    def totals(self) -> dict[str, float]:
        with self._lock:
            return {
                "calls": len(self.calls),
                "input_tokens": sum(c.input_tokens for c in self.calls),
                "output_tokens": sum(c.output_tokens for c in self.calls),
                "latency_s": round(sum(c.latency_s for c in self.calls), 3),
            }

    # -- per API ------------------------------------------------------------------------
    def _anthropic(
        self, sdk: Any, prompt: str, images: Sequence[Image.Image], system: str | None, max_tokens: int | None
    ) -> tuple[str, int, int]:
        content: list[dict[str, Any]] = [
            {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": to_base64_png(i)}}
            for i in images
        ]
        content.append({"type": "text", "text": prompt})
        kwargs: dict[str, Any] = {
            "model": self.config.model,
            "max_tokens": max_tokens or self.config.max_tokens,
            "messages": [{"role": "user", "content": content}],
        }
        if system:
            kwargs["system"] = system
        message = sdk.messages.create(**kwargs)
        text = "".join(getattr(block, "text", "") for block in message.content if block.type == "text")
        usage = message.usage
        return text, int(usage.input_tokens or 0), int(usage.output_tokens or 0)

    def _openai(
        self, sdk: Any, prompt: str, images: Sequence[Image.Image], system: str | None, max_tokens: int | None
    ) -> tuple[str, int, int]:
        content: list[dict[str, Any]] = [{"type": "text", "text": prompt}]
        content += [
            {"type": "image_url", "image_url": {"url": f"data:image/png;base64,{to_base64_png(i)}"}} for i in images
        ]
        messages: list[dict[str, Any]] = [{"role": "system", "content": system}] if system else []
        # plain text as a string: several OpenAI-compatible servers reject content lists without images
        messages.append({"role": "user", "content": content if images else prompt})
        completion = sdk.chat.completions.create(
            model=self.config.model, messages=messages, max_tokens=max_tokens or self.config.max_tokens
        )
        if not completion.choices:
            raise LLMFailed(f"the model ({self.config.model}) returned no choices")
        text = completion.choices[0].message.content or ""
        usage = completion.usage
        return text, int(getattr(usage, "prompt_tokens", 0) or 0), int(getattr(usage, "completion_tokens", 0) or 0)

    def _client(self) -> Any:
        with self._lock:
            if self._sdk is None:
                self._sdk = _make_sdk(self.config)
            return self._sdk


def _make_sdk(config: LLMConfig) -> Any:
    common: dict[str, Any] = {"api_key": config.api_key, "timeout": config.timeout, "max_retries": config.max_retries}
    if config.base_url:
        common["base_url"] = config.base_url
    try:
        if config.provider == "anthropic":
            import anthropic

            return anthropic.Anthropic(**common)
        import openai

        return openai.OpenAI(**common)
    except ImportError:
        raise BackendUnavailable(
            f"the {config.provider} SDK is not installed", hint="pip install 'winactions[llm]'"
        ) from None


def _explain(exc: Exception, config: LLMConfig) -> LLMFailed:
    """One message per failure kind, the same for both SDKs (their error classes share names)."""
    kind = type(exc).__name__
    where = config.base_url or f"the {config.provider} API"
    status = getattr(exc, "status_code", None)
    if kind == "APITimeoutError":
        return LLMFailed(
            f"{where} did not answer within {config.timeout:g}s", hint="raise WINCTL_LLM_TIMEOUT, or try a faster model"
        )
    if kind == "APIConnectionError":
        return LLMFailed(f"cannot reach {where}", hint="check --vision-base-url and the network")
    if kind in ("AuthenticationError", "PermissionDeniedError"):
        return LLMFailed(f"{where} refused the API key ({status})", hint="check --vision-api-key")
    if kind == "RateLimitError":
        return LLMFailed(
            f"{where} is rate-limiting us (429) after {config.max_retries} retries", hint="wait and try again"
        )
    if kind == "NotFoundError":
        return LLMFailed(f"{where} does not know model {config.model!r} (404)", hint="check --vision-model")
    if status is not None:
        return LLMFailed(f"{where} answered HTTP {status}: {str(exc)[:200]}")
    return LLMFailed(f"the call to {where} failed: {kind}: {str(exc)[:200]}")
