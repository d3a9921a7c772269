"""examples/anthropic_computer_use.py end to end: the Anthropic SDK, talking real HTTP to a
scripted Messages API server, runs a computer-use loop on galculator through
`ComputerUseExecutor`; the calculator's own display (read through AT-SPI) says what happened,
and a refused action comes back to the model as an error with nothing done."""

from __future__ import annotations

import base64
import io
import subprocess

import pytest
from PIL import Image

from tests.e2e.helpers.adapters import (
    calculator_display,
    calculator_shows,
    centre,
    run_example,
    stop_app_titled,
    target,
    winctl_json,
)
from tests.fixtures.llm_server import API_KEY, AgentServer, Recorded, tool_use
from tests.fixtures.toolkit_apps import isolated_env
from winactions.adapters.anthropic_computer import vision_scale

pytestmark = pytest.mark.desktop
TITLE = "galculator"


def results(request: Recorded) -> list[dict]:
    """The tool_result blocks the loop sent in this request's last message."""
    return [b for b in request.body["messages"][-1]["content"] if b.get("type") == "tool_result"]


def texts(result: dict) -> str:
    return "\n".join(c["text"] for c in result["content"] if c["type"] == "text")


def test_the_loop_computes_on_galculator_and_is_told_of_a_refused_action(winctl, tmp_path):
    env = {**winctl.env, **isolated_env(tmp_path / "home"), "ANTHROPIC_API_KEY": API_KEY}
    before_typing: list[list[str]] = []
    screen = winctl_json(env, "displays")["displays"][0]["rect"]
    factor = vision_scale(screen[2], screen[3])  # the model sees, and answers in, the shrunk screen
    seen = (round(screen[2] * factor), round(screen[3] * factor))

    def click_7(request: Recorded) -> list[dict]:
        """Click galculator's key 7, found where it is when the turn is asked for."""
        x, y = centre(target(env, TITLE, "Button", "7")["rect"])
        return [tool_use(2, action="left_click", coordinate=[round(x * factor), round(y * factor)])]

    def type_times_6(request: Recorded) -> list[dict]:
        before_typing.append(calculator_display(env))  # what the refused actions left: 7, as the click made it
        return [tool_use(5, action="type", text="*6")]

    subprocess.run(["xdotool", "mousemove", "0", "0"], env=env, check=True)  # no tooltip over the keys
    with AgentServer() as server:
        server.answer([{"type": "text", "text": "Let me look."}, tool_use(1, action="screenshot")])
        server.answer(click_7)
        server.answer([tool_use(3, action="left_click", coordinate=[99999, 5]), tool_use(4, action="fly")])
        server.answer(type_times_6)
        server.answer([tool_use(6, action="key", text="Return")])
        server.answer([{"type": "text", "text": "7 times 6 is 42."}])
        try:
            done = run_example(
                "anthropic_computer_use.py",
                ["--launch", "galculator", "--base-url", server.anthropic_url, "Work out 7 times 6"],
                env,
            )
            display = calculator_shows(env, "42")
        finally:
            stop_app_titled(env, TITLE)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "7 times 6 is 42." in done.stdout
    assert "42" in display, (display, done.stdout)  # the calculator's own display, through AT-SPI
    first = server.requests[0]
    assert first.headers["anthropic-beta"] == "computer-use-2025-01-24"
    assert seen == (1430, 804)  # the test desktop's 1920×1080, as the API would shrink its picture
    assert first.body["tools"] == [
        {"type": "computer_20250124", "name": "computer", "display_width_px": seen[0], "display_height_px": seen[1]}
    ]
    (shot,) = results(server.requests[1])
    assert shot["tool_use_id"] == "toolu_1" and not shot.get("is_error")
    picture = next(c for c in shot["content"] if c["type"] == "image")
    png = Image.open(io.BytesIO(base64.b64decode(picture["source"]["data"])))
    assert png.size == seen
    clicked = results(server.requests[2])[0]
    assert not clicked.get("is_error") and [c["type"] for c in clicked["content"]] == ["text", "image"], clicked
    off, unknown = results(server.requests[3])
    assert off["is_error"] and "off every screen" in texts(off), texts(off)
    assert before_typing == [["7"]]  # nothing was done of either refused action
    assert unknown["is_error"] and texts(unknown).startswith("error (invalid_input): computer: action:"), texts(unknown)
