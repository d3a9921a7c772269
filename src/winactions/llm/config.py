"""Which model to call and how: flags first, then environment variables.

The variables (WINCTL_LLM_PROVIDER, WINCTL_VISION_API_KEY, WINCTL_VISION_BASE_URL,
WINCTL_VISION_MODEL, WINCTL_LLM_TIMEOUT) are declared in `winactions.settings`; a flag of the
same name wins. Without a provider, it is anthropic if only an Anthropic key is set, otherwise
openai (every other server speaks its format).
"""

from __future__ import annotations

import os
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from winactions import settings
from winactions.errors import BackendUnavailable, InvalidInput, shown

Provider = Literal["anthropic", "openai"]

DEFAULT_MODELS: dict[str, str] = {"anthropic": "claude-sonnet-4-6", "openai": "gpt-4o-mini"}
LOCAL_HOSTS = ("localhost", "127.0.0.1", "[::1]", "0.0.0.0")


class LLMFlags(BaseModel):
    """What the user gave on the command line or in a tool call; the environment fills the rest."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    provider: str | None = None
    api_key: str | None = None
    base_url: str | None = None
    model: str | None = None

    @property
    def configured(self) -> bool:
        """Whether a model could be called without asking anything more (flags or environment)."""
        env = os.environ
        return bool(
            self.api_key
            or self.base_url
            or settings.VISION_API_KEY.read()
            or settings.VISION_BASE_URL.read()
            or env.get("ANTHROPIC_API_KEY")
            or env.get("OPENAI_API_KEY")
        )

    def resolve(self) -> LLMConfig:
        return LLMConfig.resolve(provider=self.provider, api_key=self.api_key, base_url=self.base_url, model=self.model)


class LLMConfig(BaseModel):
    """Everything needed to make one call; immutable so one config can be shared by threads."""

    model_config = ConfigDict(frozen=True)

    provider: Provider
    model: str
    api_key: str
    base_url: str | None = None
    timeout: float = 60.0
    max_retries: int = 1
    max_tokens: int = 4096

    @classmethod
    def resolve(
        cls,
        *,
        provider: str | None = None,
        api_key: str | None = None,
        base_url: str | None = None,
        model: str | None = None,
        timeout: float | None = None,
        env: dict[str, str] | None = None,
    ) -> LLMConfig:
        """Build a config from flags, falling back to the environment; say clearly what is missing."""
        env = dict(os.environ) if env is None else env
        base_url = base_url or settings.VISION_BASE_URL.read(env)
        chosen: Any = provider or settings.LLM_PROVIDER.read(env) or _guess_provider(base_url, api_key, env)
        if chosen not in ("anthropic", "openai"):
            raise InvalidInput(
                f"unknown LLM provider {shown(chosen)}",
                hint="use anthropic, or openai for any OpenAI-compatible endpoint",
            )
        fallback_key = env.get("ANTHROPIC_API_KEY") if chosen == "anthropic" else env.get("OPENAI_API_KEY")
        key = api_key or settings.VISION_API_KEY.read(env) or fallback_key
        if not key:
            if base_url and _is_local(base_url):
                key = "not-needed"  # local servers (Ollama, vLLM) accept any key; the SDKs insist on one
            else:
                raise BackendUnavailable(
                    "no API key for the language model",
                    hint="pass --vision-api-key or set WINCTL_VISION_API_KEY (or ANTHROPIC_API_KEY / "
                    "OPENAI_API_KEY); a local server needs only --vision-base-url",
                )
        seconds = timeout if timeout is not None else settings.LLM_TIMEOUT.read(env)
        return cls(
            provider=chosen,
            model=model or settings.VISION_MODEL.read(env) or DEFAULT_MODELS[chosen],
            api_key=key,
            base_url=base_url,
            timeout=seconds,
        )


def _guess_provider(base_url: str | None, api_key: str | None, env: dict[str, str]) -> str:
    if base_url:
        return "anthropic" if "anthropic" in base_url else "openai"
    if api_key and api_key.startswith("sk-ant-"):
        return "anthropic"
    if env.get("ANTHROPIC_API_KEY") and not env.get("OPENAI_API_KEY"):
        return "anthropic"
    return "openai" if env.get("OPENAI_API_KEY") else "anthropic"


def _is_local(url: str) -> bool:
    host = url.split("://", 1)[-1].split("/", 1)[0].rsplit(":", 1)[0]
    return host in LOCAL_HOSTS or host == "[::1]"
