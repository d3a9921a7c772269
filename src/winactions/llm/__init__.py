"""One small client over the official LLM SDKs (Anthropic, and any OpenAI-compatible server).

Used by the perception tiers (`--infer llm`, `--vision`) and the visual locator's vision
strategy. Nothing here is imported unless one of those is asked for.
"""

from winactions.llm.client import LLMClient, LLMReply
from winactions.llm.config import LLMConfig
from winactions.llm.jsonx import extract_json

__all__ = ["LLMClient", "LLMConfig", "LLMReply", "extract_json"]
