"""The llm layer through the real anthropic and openai SDKs, over real HTTP, against a local server."""

from __future__ import annotations

import base64
import io
import socket

import pytest
from PIL import Image

from tests.fixtures.llm_server import API_KEY, LLMServer
from winactions.errors import BackendUnavailable, InvalidInput, LLMFailed
from winactions.llm.client import LLMClient
from winactions.llm.config import LLMConfig
from winactions.llm.images import prepare
from winactions.llm.jsonx import NoJSON, extract_json
from winactions.model import Rect

PROVIDERS = ["anthropic", "openai"]


@pytest.fixture
def server():
    with LLMServer() as s:
        yield s


def client_for(server: LLMServer, provider: str, **overrides) -> LLMClient:
    url = server.anthropic_url if provider == "anthropic" else server.openai_url
    config = LLMConfig(provider=provider, model="test-model", api_key=API_KEY, base_url=url, timeout=5, max_retries=1)
    return LLMClient(config.model_copy(update=overrides))


@pytest.mark.parametrize("provider", PROVIDERS)
def test_text_and_image_reach_the_server_in_the_api_format(server, provider):
    server.reply('Here you go:\n```json\n[{"name": "Save"}]\n```')
    client = client_for(server, provider)
    image = Image.new("RGB", (40, 20), (255, 0, 0))
    data, reply = client.complete_json("find the buttons", [image], system="You are a UI detector.")
    assert data == [{"name": "Save"}]
    sent = server.requests[-1]
    assert sent.api == provider and sent.images == 1 and "find the buttons" in sent.prompt
    if provider == "anthropic":
        assert sent.body["system"] == "You are a UI detector."
        block = sent.body["messages"][0]["content"][0]
        png = base64.b64decode(block["source"]["data"])
        assert block["source"]["media_type"] == "image/png"
    else:
        assert sent.body["messages"][0] == {"role": "system", "content": "You are a UI detector."}
        url = sent.body["messages"][1]["content"][1]["image_url"]["url"]
        assert url.startswith("data:image/png;base64,")
        png = base64.b64decode(url.split(",", 1)[1])
    assert Image.open(io.BytesIO(png)).size == (40, 20)
    assert reply.input_tokens > 0 and reply.output_tokens > 0 and reply.latency_s > 0
    assert client.totals["calls"] == 1 and client.totals["input_tokens"] == reply.input_tokens


@pytest.mark.parametrize("provider", PROVIDERS)
def test_a_text_only_prompt_is_plain_text(server, provider):
    server.reply("ok")
    assert client_for(server, provider).complete("hello").text == "ok"
    message = server.requests[-1].body["messages"][-1]
    assert provider == "anthropic" or message["content"] == "hello"


@pytest.mark.parametrize("provider", PROVIDERS)
def test_garbage_reply_is_a_clear_error(server, provider):
    server.reply("I am sorry, I cannot see any buttons in this picture.")
    with pytest.raises(LLMFailed, match=r"without usable JSON.*cannot see"):
        client_for(server, provider).complete_json("find", want=list)


@pytest.mark.parametrize("provider", PROVIDERS)
def test_wrong_key_is_reported_as_refused(server, provider):
    with pytest.raises(LLMFailed, match="refused the API key"):
        client_for(server, provider, api_key="wrong").complete("hi")


@pytest.mark.parametrize("provider", PROVIDERS)
def test_one_retry_absorbs_one_rate_limit(server, provider):
    server.fail(429)
    server.reply("fine")
    assert client_for(server, provider).complete("hi").text == "fine"
    assert len(server.requests) == 2


@pytest.mark.parametrize("provider", PROVIDERS)
def test_persistent_rate_limit_fails_after_the_retry(server, provider):
    server.fail(429, times=2)
    with pytest.raises(LLMFailed, match="rate-limiting"):
        client_for(server, provider).complete("hi")
    assert len(server.requests) == 2


@pytest.mark.parametrize("provider", PROVIDERS)
def test_a_slow_server_times_out(server, provider):
    server.reply("late", delay=2.0)
    server.reply("late", delay=2.0)
    with pytest.raises(LLMFailed, match=r"did not answer within 0.5s"):
        client_for(server, provider, timeout=0.5, max_retries=0).complete("hi")


@pytest.mark.parametrize("provider", PROVIDERS)
def test_an_unreachable_server_is_named(provider):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # closed again when the block ends: nothing listens there
    config = LLMConfig(
        provider=provider, model="m", api_key="k", base_url=f"http://127.0.0.1:{port}/v1", timeout=2, max_retries=0
    )
    with pytest.raises(LLMFailed, match=f"cannot reach http://127.0.0.1:{port}"):
        LLMClient(config).complete("hi")


def test_missing_api_key_says_how_to_give_one():
    with pytest.raises(BackendUnavailable, match="no API key") as err:
        LLMConfig.resolve(env={})
    assert "WINCTL_VISION_API_KEY" in (err.value.hint or "")


def test_config_from_environment_and_flags():
    env = {
        "WINCTL_VISION_BASE_URL": "https://open.bigmodel.cn/api/paas/v4",
        "WINCTL_VISION_API_KEY": "k1",
        "WINCTL_VISION_MODEL": "glm-4v-flash",
    }
    config = LLMConfig.resolve(env=env)
    assert (config.provider, config.model, config.api_key) == ("openai", "glm-4v-flash", "k1")
    assert LLMConfig.resolve(env={"ANTHROPIC_API_KEY": "sk-ant-x"}).provider == "anthropic"
    assert LLMConfig.resolve(api_key="flag", env=env).api_key == "flag"
    local = LLMConfig.resolve(base_url="http://localhost:11434/v1", env={})
    assert local.provider == "openai" and local.api_key  # Ollama needs no key
    with pytest.raises(InvalidInput, match="unknown LLM provider"):
        LLMConfig.resolve(provider="gemini", api_key="k", env={})


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('[{"a": 1}]', [{"a": 1}]),
        ('```json\n{"a": [1, 2]}\n```', {"a": [1, 2]}),
        ('Sure! [{"name": "x]y", "box": [1, 2, 3, 4]}] I hope this helps [0]', [{"name": "x]y", "box": [1, 2, 3, 4]}]),
        ('prefix {"ok": true} suffix', {"ok": True}),
        ("broken [1, 2 then [3, 4]", [3, 4]),
    ],
)
def test_extract_json_finds_the_value(text, expected):
    assert extract_json(text) == expected


def test_extract_json_rejects_prose_and_wrong_types():
    with pytest.raises(NoJSON):
        extract_json("no json here")
    with pytest.raises(NoJSON):
        extract_json('{"a": 1}', want=list)


def test_prepare_resizes_and_maps_back_both_conventions():
    prepared = prepare(Image.new("RGB", (3136, 1000)), origin=(100, 50))
    assert prepared.size == (1568, 500) and prepared.scale == 0.5
    assert prepared.to_screen([10, 20, 30, 40]) == Rect(left=120, top=90, right=160, bottom=130)
    assert prepared.to_screen([500, 500, 1000, 1000], units="per_mille") == Rect(
        left=100 + 1568, top=50 + 500, right=100 + 3136, bottom=50 + 1000
    )
    small = prepare(Image.new("RGB", (800, 600)))
    assert small.scale == 1.0 and small.to_screen([1, 2, 3, 4]) == Rect(left=1, top=2, right=3, bottom=4)
