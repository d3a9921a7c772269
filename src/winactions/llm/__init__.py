"""One small client over the official LLM SDKs (Anthropic, and any OpenAI-compatible server).

Used by the perception tiers (`--infer llm`, `--vision llm`) and the visual locator's vision
strategy. `config` is light (pydantic only); `client` pulls in the SDKs when first used.
"""
