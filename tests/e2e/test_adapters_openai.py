"""examples/openai_agents_computer.py end to end: the OpenAI Agents SDK's Runner, talking real
HTTP to a scripted Responses API server, drives Mousepad through `WinactionsComputer`; the
editor's own text (read through AT-SPI) says what happened."""

from __future__ import annotations

import base64
import io
import json

import pytest
from PIL import Image

from tests.e2e.helpers.adapters import centre, run_example, stop_app_titled, target, winctl_json
from tests.fixtures.llm_server import API_KEY, AgentServer, Recorded, computer_call, output_message
from tests.fixtures.toolkit_apps import isolated_env, mousepad_command

pytestmark = pytest.mark.desktop


def outputs(request: Recorded) -> list[dict]:
    """The computer call outputs the Runner sent back in this request."""
    return [item for item in request.body["input"] if item.get("type") == "computer_call_output"]


def picture(output: dict) -> Image.Image:
    url = output["output"]["image_url"]
    assert url.startswith("data:image/png;base64,"), url[:40]
    return Image.open(io.BytesIO(base64.b64decode(url.split(",", 1)[1])))


@pytest.fixture
def env(winctl, tmp_path):
    """The example's environment: the private desktop, a fresh home, the model server's key."""
    return {**winctl.env, **isolated_env(tmp_path / "home"), "OPENAI_API_KEY": API_KEY}


def test_the_runner_types_into_mousepad_through_the_computer(env, tmp_path):
    doc = tmp_path / "agent.txt"
    doc.write_text("")
    title = "agent.txt"

    def edit(request: Recorded) -> list[dict]:
        """After the screenshot: click into the text, type with the SDK's key names between."""
        x, y = centre(target(env, title, "Edit")["rect"])
        return [
            computer_call(
                2,
                {"type": "click", "x": x, "y": y, "button": "left"},
                {"type": "type", "text": "helo"},
                {"type": "keypress", "keys": ["ArrowLeft"]},
                {"type": "type", "text": "l"},
                {"type": "keypress", "keys": ["END"]},
                {"type": "keypress", "keys": ["ENTER"]},
                {"type": "type", "text": "world"},
            )
        ]

    with AgentServer() as server:
        server.respond([computer_call(1, {"type": "screenshot"})])
        server.respond(edit)
        server.respond([output_message("Typed it.")])
        try:
            done = run_example(
                "openai_agents_computer.py",
                ["--launch", " ".join(mousepad_command(doc)), "--base-url", server.openai_url, "Write hello world"],
                env,
            )
            text = winctl_json(env, "--window", title, "get", "text", str(target(env, title, "Edit")["id"]))
        finally:
            stop_app_titled(env, title)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Typed it." in done.stdout
    assert text["value"] == "hello\nworld", text  # the editor's text, read through AT-SPI
    first, *_ = server.requests
    screen = winctl_json(env, "displays")["displays"][0]["rect"]
    tool = next(t for t in first.body["tools"] if t["type"] == "computer_use_preview")
    assert (tool["display_width"], tool["display_height"], tool["environment"]) == (screen[2], screen[3], "ubuntu")
    shot = picture(outputs(server.requests[1])[0])  # the screenshot action's picture: the whole screen
    assert shot.size == (screen[2], screen[3])
    assert len(outputs(server.requests[2])) == 2, json.dumps(server.requests[2].body)[:400]
