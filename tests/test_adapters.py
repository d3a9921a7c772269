"""The adapters on the Windows backend's fake (its SendInput log says what reached the screen):
each framework action becomes the commands it should, and a bad one — an unknown action, key
or button, a point off the screen — is a clear error with nothing sent. The examples' agent
loops on a real desktop: tests/e2e/test_adapters_openai.py and test_adapters_anthropic.py."""

from __future__ import annotations

import asyncio
import base64
import importlib
import io
import sys
from pathlib import Path

import pytest
from agents import Agent, ComputerTool, Runner, set_tracing_disabled
from agents.models.openai_responses import OpenAIResponsesModel
from openai import AsyncOpenAI
from PIL import Image

from tests.fixtures.llm_server import API_KEY, AgentServer, computer_call
from tests.fixtures.windows.fake_native import FakeNative, load_app
from winactions import AsyncDesktop, BackendUnavailable, Desktop, InvalidInput, WinctlError
from winactions.adapters.actions import Step, run_steps
from winactions.adapters.anthropic_computer import ComputerUseExecutor, tool_definition, vision_scale
from winactions.adapters.openai_agents import (
    Actions,
    AsyncWinactionsComputer,
    WinactionsComputer,
    chord,
    environment_of,
)
from winactions.backends.windows.backend import WindowsBackend
from winactions.model import Rect

SCREEN = Rect(left=0, top=0, right=1920, bottom=1080)


@pytest.fixture
def fake(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(tmp_path))
    return FakeNative([load_app("calculator")])


@pytest.fixture
def desktop(fake):
    with Desktop("adapters", window="Calculator", backend=WindowsBackend(native=fake)) as d:
        yield d


def flags(fake: FakeNative) -> list[str]:
    """The mouse buttons and keys SendInput got, in order (moves left out)."""
    return [f for e in fake.sent for f in getattr(e, "flags", ()) if f != "move"] + [
        f"key {e.vk}{' up' if e.up else ''}" for e in fake.sent if hasattr(e, "vk")
    ]


def test_the_sdk_key_names_are_one_chord_of_the_keys_parser():
    assert chord(["CTRL", "A"]) == "ctrl+a"
    assert chord(["ENTER"]) == "Enter"
    assert chord(["ArrowLeft"]) == "Left"
    assert chord(["SHIFT", "CTRL", "T"]) == "ctrl+shift+t"
    assert chord(["CMD", "SPACE"]) == "super+Space"
    assert chord(["CTRL", ","]) == "ctrl+,"
    assert chord(["ctrl", "+"]) == "ctrl++"
    with pytest.raises(InvalidInput, match="unknown key 'ENTR'"):
        chord(["ENTR"])
    with pytest.raises(InvalidInput, match="no keys"):
        chord([])
    assert environment_of("linux") == "ubuntu" and environment_of("win32") == "windows"


def test_actions_plan_commands_and_refuse_bad_ones_before_any():
    plan = Actions(SCREEN, shot=Path("s.png"), notch=100)
    assert plan.click(5, 6, "wheel", None) == [Step("click-at", {"x": 5, "y": 6, "button": "middle", "count": 1})]
    assert plan.click(5, 6, "left", ["SHIFT", "CTRL"])[0].args["modifiers"] == ["ctrl", "shift"]
    assert plan.scroll(5, 6, -250, 30, None) == [
        Step("scroll-at", {"x": 5, "y": 6, "direction": "down", "amount": 1}),
        Step("scroll-at", {"x": 5, "y": 6, "direction": "left", "amount": 2}),
    ]
    assert [s.command for s in plan.move(1, 2, ["ALT"])] == ["key-down", "mouse-move", "key-up"]
    assert [s.command for s in plan.drag([(1, 1), (2, 2), (3, 3)], None)] == ["mouse-down", "mouse-move", "mouse-up"]
    assert [s.command for s in plan.drag([(1, 1), (3, 3)], None)] == ["drag-at"]
    for bad, said in [
        (lambda: plan.click(1, 1, "back", None), "'back' button is not offered"),
        (lambda: plan.click(1, 1, "left", ["A"]), "are modifiers"),
        (lambda: plan.scroll(1, 1, 0, 0, None), "turns nothing"),
        (lambda: plan.drag([(1, 1)], None), "2 points or more"),
        (lambda: plan.drag([(1, 1), (5000, 1), (2, 2)], None), r"\(5000, 1\) is off the screen"),
        (lambda: plan.drag([(1, 1), (True, 1)], None), "not a point of whole numbers"),
    ]:
        with pytest.raises(InvalidInput, match=said):
            bad()


def test_the_computer_acts_through_commands_and_refuses_with_nothing_sent(desktop, fake):
    computer = WinactionsComputer(desktop, wait_seconds=0.05)
    assert computer.dimensions == (1920, 1080)
    shot = Image.open(io.BytesIO(base64.b64decode(computer.screenshot())))
    assert shot.size == (1920, 1080)
    for bad in (
        lambda: computer.click(5000, 10, "left"),
        lambda: computer.click(10, 10, "forward"),
        lambda: computer.keypress(["CTRL", "NOPE"]),
        lambda: computer.drag([(10, 10), (20, 20), (9999, 20)]),
        lambda: computer.move(10, 10, keys=["Q"]),
    ):
        with pytest.raises(WinctlError, match=r"nothing was done|off every screen|unknown key"):
            bad()
    assert fake.sent == []  # nothing reached the screen
    computer.click(100, 200, "right")
    assert flags(fake) == ["right_down", "right_up"]
    fake.sent.clear()
    computer.drag([(10, 10), (20, 20), (30, 30)])
    assert flags(fake) == ["left_down", "left_up"] and (fake.sent[-1].x, fake.sent[-1].y) == (30, 30)
    fake.sent.clear()
    computer.scroll(300, 300, 0, -250)  # up, two notches of 100 pixels
    computer.type("12")
    computer.wait()
    wheel = [e for e in fake.sent if "wheel" in getattr(e, "flags", ())]
    typed = "".join(chr(e.char) for e in fake.sent if getattr(e, "unicode", False) and not e.up)
    assert sum(e.wheel for e in wheel) == 2 * 120 and typed == "12", (wheel, typed)


def test_the_async_computer_awaits_the_same_commands(fake):
    async def main() -> tuple[tuple[int, int], int]:
        async with AsyncDesktop("adapters", window="Calculator", backend=WindowsBackend(native=fake)) as d:
            computer = await AsyncWinactionsComputer.open(d)
            shot = Image.open(io.BytesIO(base64.b64decode(await computer.screenshot())))
            with pytest.raises(InvalidInput, match="off the screen"):
                await computer.drag([(10, 10), (20, 20), (9999, 20)])
            assert fake.sent == []
            await computer.double_click(100, 200)
            await computer.keypress(["CTRL", "A"])
            return computer.dimensions, shot.size[0]

    assert asyncio.run(main()) == ((1920, 1080), 1920)
    assert flags(fake)[:4] == ["left_down", "left_up", "left_down", "left_up"] and len(flags(fake)) == 8


def test_a_step_that_fails_lets_go_of_what_the_steps_before_it_hold(desktop, fake):
    with pytest.raises(InvalidInput, match="off every screen"):
        run_steps(desktop, [Step("mouse-down", {"x": 10, "y": 10}), Step("mouse-move", {"x": -5000, "y": 10})])
    assert flags(fake) == ["left_down", "left_up"]  # the button is not left held
    fake.sent.clear()
    with pytest.raises(InvalidInput, match="off every screen"):
        run_steps(desktop, WinactionsComputer(desktop).actions.move(-5000, 10, ["SHIFT"]))
    shift = [(e.vk, e.up) for e in fake.sent if hasattr(e, "vk")]
    assert shift == [(0x10, False), (0x10, True)], shift  # shift down, then up again


def test_the_executor_answers_a_bad_action_with_an_error_and_does_nothing(desktop, fake):
    computer = ComputerUseExecutor(desktop)
    for tool_input, said in [
        ({"action": "fly"}, "error (invalid_input): computer: action: Input should be"),
        ({"action": "left_click", "coordinate": [5000, 10]}, "error (invalid_input): (6714, 13) is off every screen"),
        ({"action": "left_click", "coordinate": [5, 10], "button": "left"}, "computer takes no argument 'button'"),
        ({"action": "left_click"}, "coordinate"),
        ({"action": "key", "text": "ctrl+nope"}, "unknown key 'nope'"),
    ]:
        result = computer.tool_result({"type": "tool_use", "id": "toolu_1", "name": "computer", "input": tool_input})
        assert result["is_error"] is True and result["tool_use_id"] == "toolu_1", result
        assert said in result["content"][0]["text"], result
    assert fake.sent == []
    done = computer.tool_result({"id": "toolu_2", "input": {"action": "left_click", "coordinate": [100, 200]}})
    assert "is_error" not in done and [c["type"] for c in done["content"]] == ["text", "image"]
    assert flags(fake) == ["left_down", "left_up"]
    assert (fake.sent[-1].x, fake.sent[-1].y) == (134, 269)  # the model's (100, 200) on the 1430×804 it sees
    with pytest.raises(InvalidInput, match="an object"):
        computer.run(["left_click"])  # type: ignore[arg-type]


def test_the_tool_definition_is_sized_to_the_screen_the_model_sees(desktop):
    """The API shrinks a 1920×1080 picture to about 1.15 megapixels; the model answers in it."""
    assert tool_definition(desktop) == {
        "type": "computer_20250124",
        "name": "computer",
        "display_width_px": 1430,
        "display_height_px": 804,
    }
    assert tool_definition(desktop, scaled=False)["display_width_px"] == 1920
    assert tool_definition(desktop, "computer_20251124")["enable_zoom"] is True
    with pytest.raises(InvalidInput, match="no computer tool version 'computer_2024'"):
        tool_definition(desktop, "computer_2024")


def test_the_executor_speaks_in_the_shrunk_screens_pixels(desktop, fake):
    """Before: screenshots went at 1920×1080 and the model's coordinates were clicked as they
    came, so a click read off the picture the API had shrunk landed up and left of its target."""
    assert vision_scale(1280, 800) == 1.0 and vision_scale(1920, 1080) == pytest.approx(0.7447, abs=1e-4)
    computer = ComputerUseExecutor(desktop)
    shot = computer.run({"action": "screenshot"})
    picture = Image.open(io.BytesIO(base64.b64decode(shot[-1]["source"]["data"])))
    assert picture.size == (1430, 804)
    computer.run({"action": "mouse_move", "coordinate": [715, 402]})
    assert (fake.sent[-1].x, fake.sent[-1].y) == (960, 540)  # the screen's centre
    assert computer.run({"action": "cursor_position"}) == [{"type": "text", "text": "X=715,Y=402"}]
    zoomed = ComputerUseExecutor(desktop, screenshot_after=False).run({"action": "zoom", "region": [0, 0, 149, 74]})
    close_up = Image.open(io.BytesIO(base64.b64decode(zoomed[-1]["source"]["data"])))
    assert close_up.size[0] >= 200  # the region (200×99 screen pixels) at the screen's resolution or more
    unscaled = ComputerUseExecutor(desktop, scaled=False)
    unscaled.run({"action": "mouse_move", "coordinate": [715, 402]})
    assert (fake.sent[-1].x, fake.sent[-1].y) == (715, 402)


def test_the_runner_stops_with_the_error_of_an_action_refused(desktop, fake):
    """The Agents SDK's Runner re-raises a computer's exception: the run ends with the
    command's error (its call output could carry only a screenshot), and nothing was done."""
    set_tracing_disabled(True)
    with AgentServer() as server:
        server.respond([computer_call(1, {"type": "click", "x": 5000, "y": 10, "button": "left"})])
        model = OpenAIResponsesModel("computer-use-preview", AsyncOpenAI(base_url=server.openai_url, api_key=API_KEY))
        agent = Agent(name="desk", model=model, tools=[ComputerTool(WinactionsComputer(desktop))])
        with pytest.raises(WinctlError, match=r"\(5000, 10\) is off every screen"):
            Runner.run_sync(agent, "click far away")
    assert fake.sent == [] and len(server.requests) == 1


def test_without_the_agents_sdk_the_import_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "agents.computer", None)
    monkeypatch.delitem(sys.modules, "winactions.adapters.openai_agents")
    with pytest.raises(BackendUnavailable, match="needs the OpenAI Agents SDK") as raised:
        importlib.import_module("winactions.adapters.openai_agents")
    assert raised.value.hint == "pip install 'winactions[openai-agents]'"
