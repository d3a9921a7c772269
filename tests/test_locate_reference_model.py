"""One-shot matching by a model (issue 15.3, seed 004's "Mode A"): an `image:` target the
template ladder misses goes to the vision model as its reference image(s) beside the
screenshot. Driven through the real Anthropic and OpenAI SDKs over HTTP to the local scripted
server (tests/fixtures/llm_server.py), on the real GTK screenshot (truth from its tree), with
the reference drawn in another theme (inverted) so that no template rung can match it."""

from __future__ import annotations

import base64
import io
import json
import os
from pathlib import Path

import cv2
import pytest
from PIL import Image

from tests.fixtures.llm_server import API_KEY, LLMServer, Recorded
from winactions import NotFound, locate_in

SCREENS = Path(__file__).parent / "fixtures" / "screens"
GTK = SCREENS / "gtk_fixture.png"
APPLY = next(
    t["rect"]
    for t in json.loads((SCREENS / "gtk_fixture.json").read_text())["targets"]
    if t["type"] == "Button" and t["name"] == "Apply"
)
SENT_SCALE = 1568 / 1920  # the screenshot as the model sees it: 1568x882


@pytest.fixture(scope="module")
def server():
    with LLMServer() as s:
        yield s


@pytest.fixture(autouse=True)
def clean_env(monkeypatch):
    for key in [k for k in os.environ if k.startswith("WINCTL_")]:
        monkeypatch.delenv(key)


@pytest.fixture(scope="module")
def dark(tmp_path_factory) -> Path:
    """The Apply button as a dark theme draws it (inverted), and a 1.2x variant of it."""
    folder = tmp_path_factory.mktemp("assets")
    image = cv2.imread(str(GTK))
    left, top, right, bottom = APPLY
    crop = 255 - image[top:bottom, left:right]
    (folder / "common").mkdir()
    cv2.imwrite(str(folder / "common" / "apply_dark.png"), crop)
    cv2.imwrite(str(folder / "common" / "apply_dark_v2.png"), cv2.resize(crop, None, fx=1.2, fy=1.2))
    icon = image[top + 8 : top + 20, left + 30 : left + 42]  # a 12x12 piece: a tiny icon
    cv2.imwrite(str(folder / "common" / "tiny.png"), 255 - icon)
    (folder / "index.json").write_text(json.dumps({"apply_dark": {"aliases": ["Apply"]}}))
    return folder


def flags(server: LLMServer, provider: str, model: str) -> dict[str, str]:
    url = server.openai_url if provider == "openai" else server.anthropic_url
    return {"model": model, "api_key": API_KEY, "base_url": url, "provider": provider}


def images_sent(request: Recorded) -> list[Image.Image]:
    """The images of a request, in order, decoded from either API's format."""
    out = []
    for message in request.body["messages"]:
        for block in message["content"] if isinstance(message["content"], list) else []:
            if block["type"] == "image":
                data = block["source"]["data"]
            elif block["type"] == "image_url":
                data = block["image_url"]["url"].partition("base64,")[2]
            else:
                continue
            out.append(Image.open(io.BytesIO(base64.b64decode(data))))
    return out


def reply_box(units: str) -> list[float]:
    left, top, right, bottom = APPLY
    if units == "per_mille":
        return [left / 1.92, top / 1.08, right / 1.92, bottom / 1.08]
    return [v * SENT_SCALE for v in APPLY]


@pytest.mark.parametrize(
    ("provider", "model", "units"),
    [("openai", "gpt-4o", "pixels"), ("anthropic", "claude-sonnet-4-6", "pixels"), ("openai", "glm-4v", "per_mille")],
)
def test_the_reference_and_the_screenshot_go_together_and_the_box_maps_back(
    server, dark, monkeypatch, provider, model, units
):
    monkeypatch.setenv("WINCTL_ASSETS", str(dark))
    server.reply(json.dumps({"found": True, "box": reply_box(units), "confidence": 0.92, "label": "Apply button"}))
    before = len(server.requests)
    located = locate_in(f"image:{dark / 'common' / 'apply_dark.png'}", GTK, **flags(server, provider, model)).located
    request = server.requests[-1]
    assert len(server.requests) == before + 1 and request.api == provider and request.images == 2
    reference, screenshot = images_sent(request)
    assert reference.size == (APPLY[2] - APPLY[0], APPLY[3] - APPLY[1]) and screenshot.size == (1568, 882)
    prompt = request.prompt
    assert "Image 1 is the reference" in prompt and "Image 2 is the current screenshot, 1568x882" in prompt
    assert ("0-1000 grid" in prompt) == (units == "per_mille")
    assert [a.strategy for a in located.attempts] == ["template", "vision"]
    assert located.attempts[0].error == "not found", "the template ladder cannot match another theme"
    assert located.method_used == "vision:reference" and located.element.label == "Apply button"
    box = located.element.bbox
    assert all(abs(a - e) <= 2 for a, e in zip((box.left, box.top, box.right, box.bottom), APPLY)), box


def test_variants_go_together_and_a_tiny_icon_is_enlarged(server, dark, monkeypatch):
    monkeypatch.setenv("WINCTL_ASSETS", str(dark))
    server.reply(json.dumps({"found": True, "box": reply_box("pixels"), "confidence": 0.9}))
    located = locate_in("image:Apply", GTK, **flags(server, "openai", "gpt-4o")).located  # by alias
    request = server.requests[-1]
    assert request.images == 3 and "Images 1-2 are the reference" in request.prompt
    assert "Image 3 is the current screenshot" in request.prompt and 'named "apply_dark"' in request.prompt
    sizes = [i.size for i in images_sent(request)]
    assert sizes[0] == (123, 34) and sizes[1] == (148, 41) and sizes[2] == (1568, 882)
    assert located.element.label == "apply_dark" and located.method_used == "vision:reference"
    server.reply(json.dumps({"found": True, "box": reply_box("pixels"), "confidence": 0.9}))
    locate_in(f"image:{dark / 'common' / 'tiny.png'}", GTK, **flags(server, "openai", "gpt-4o"))
    assert images_sent(server.requests[-1])[0].size == (36, 36), "12 px enlarged 3x (nearest), to >= 32 px"


def test_a_reply_that_is_not_json_is_a_failed_attempt_and_the_chain_goes_on(server, dark, monkeypatch):
    monkeypatch.setenv("WINCTL_ASSETS", str(dark))
    server.reply("The Apply button is at the top left of the window.")
    located = locate_in("Apply", GTK, strategy=["template", "vision", "ocr"], **flags(server, "openai", "gpt-4o"))
    attempts = located.located.attempts
    assert [a.strategy for a in attempts] == ["template", "vision", "ocr"]
    assert "replied without usable JSON" in attempts[1].error and attempts[1].found == 0
    assert located.located.method_used.startswith("ocr") and server.requests[-1].images == 3  # two variants + the shot
    server.reply("no idea")
    with pytest.raises(NotFound) as failed:
        locate_in("image:Apply", GTK, **flags(server, "anthropic", "claude-sonnet-4-6"))
    assert "vision: the model (claude-sonnet-4-6) replied without usable JSON" in failed.value.message
    assert "template: not found" in failed.value.message


def test_found_false_is_not_found_with_the_models_reason_kept_out_of_the_guess(server, dark, monkeypatch):
    monkeypatch.setenv("WINCTL_ASSETS", str(dark))
    server.reply(json.dumps({"found": False, "reason": "no such button in the screenshot"}))
    with pytest.raises(NotFound) as failed:
        locate_in("image:Apply", GTK, **flags(server, "openai", "gpt-4o"))
    assert "vision: not found" in failed.value.message and failed.value.code == "not_found"
    server.reply(json.dumps({"found": True, "box": "top left", "confidence": 0.9}))
    with pytest.raises(NotFound) as unusable:
        locate_in("image:Apply", GTK, **flags(server, "openai", "gpt-4o"))
    assert "no usable box" in unusable.value.message


def test_a_description_in_a_saved_screenshot_sends_one_image(server):
    server.reply(json.dumps({"found": True, "box": reply_box("per_mille"), "confidence": 0.85}))
    located = locate_in("dynamic:the Apply button", GTK, **flags(server, "anthropic", "glm-4v")).located
    request = server.requests[-1]
    assert request.images == 1 and "Find: the Apply button" in request.prompt and "0-1000 grid" in request.prompt
    assert located.method_used == "vision" and [a.strategy for a in located.attempts] == ["vision"]
    box = located.element.bbox
    assert all(abs(a - e) <= 2 for a, e in zip((box.left, box.top, box.right, box.bottom), APPLY)), box


def test_without_a_model_an_unmatched_reference_is_a_clear_miss(dark, monkeypatch):
    monkeypatch.setenv("WINCTL_ASSETS", str(dark))
    with pytest.raises(NotFound) as failed:
        locate_in("image:Apply", GTK)
    assert "template: not found" in failed.value.message and "vision" not in failed.value.message
