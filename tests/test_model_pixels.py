"""The computer-use tools in a model's pixels (`winactions.mcp.model_pixels`): every position,
region and size a translated tool takes is read back to screen pixels exactly once (a batch's
steps, Anthropic's `computer` passing its arguments on, teach regions, window geometry), and
what the model reads is shrunk the same way (screenshots, a batch's screenshots, the pointer),
a zoom's picture excepted. The same on a real desktop over MCP: tests/e2e/test_mcp_computer_use.py."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from winactions.commands.results import (
    ActionResult,
    BatchResult,
    BatchStep,
    ScreenshotResult,
    ValueResult,
    WindowsResult,
)
from winactions.errors import InvalidInput, WindowClosed
from winactions.mcp.computer import COMPUTER
from winactions.mcp.computer_use import COMPUTER_USE
from winactions.mcp.model_pixels import in_screen_pixels, model_pixels, shown_to_model, to_screen, vision_scale
from winactions.model import Rect, WindowInfo

HALF = 0.5  # the model sees the screen at half size: its (100, 200) is the screen's (200, 400)


def call(tool: str, arguments: dict[str, Any], factor: float = HALF) -> tuple[str, dict[str, Any]]:
    with model_pixels(factor):
        return (COMPUTER if tool == "computer" else COMPUTER_USE[tool]).call(arguments)


def test_the_factor_is_what_the_api_keeps_of_a_screen():
    assert vision_scale(1280, 800) == 1.0  # under both limits: whole
    assert vision_scale(1920, 1080) == pytest.approx(0.7447, abs=1e-4)  # the area limit
    assert vision_scale(3000, 500) == pytest.approx(1568 / 3000)  # the long side's
    with model_pixels(vision_scale(1920, 1080)):
        assert (to_screen(715), to_screen(402)) == (960, 540)
    assert to_screen(715) == 715  # outside: screen pixels


def test_a_factor_outside_zero_to_one_is_refused():
    for wrong in (0, -0.5, 1.5):
        with pytest.raises(ValueError, match="factor in"), model_pixels(wrong):
            pass


@pytest.mark.parametrize(
    ("tool", "arguments", "expected"),
    [
        ("left_click", {"coordinate": [100, 200]}, ("click-at", {"x": 200, "y": 400, "button": "left", "count": 1})),
        ("mouse_move", {"coordinate": [1, 3]}, ("mouse-move", {"x": 2, "y": 6})),
        (
            "left_click_drag",
            {"start_coordinate": [10, 20], "coordinate": [30, 40]},
            ("drag-at", {"x1": 20, "y1": 40, "x2": 60, "y2": 80}),
        ),
        (
            "scroll",
            {"coordinate": [50, 60], "scroll_direction": "down", "scroll_amount": 3},
            ("scroll-at", {"x": 100, "y": 120, "direction": "down", "amount": 3}),
        ),
        ("zoom", {"region": [10, 20, 60, 45]}, ("zoom", {"x": 20, "y": 40, "width": 100, "height": 50})),
        ("activate_window", {"click_x": 7, "click_y": 8}, ("click-at", {"x": 14, "y": 16})),
        (
            "window_management",
            {"action": "move_resize", "x": 5, "y": 6, "width": 300, "height": 200},
            ("window", {"action": "move", "x": 10, "y": 12, "width": 600, "height": 400}),
        ),
        (
            "mouse_wheel",
            {"coordinate": [4, 5], "delta": -2},
            ("scroll-at", {"x": 8, "y": 10, "direction": "down", "amount": 2}),
        ),
        ("virtual_mouse", {"action": "move", "coordinate": [9, 9]}, ("mouse-move", {"x": 18, "y": 18})),
        (
            "computer",
            {"action": "left_click", "coordinate": [100, 200]},
            ("click-at", {"x": 200, "y": 400, "button": "left", "count": 1}),
        ),
        (
            "computer",
            {"action": "zoom", "region": [0, 0, 50, 50]},
            ("zoom", {"x": 0, "y": 0, "width": 100, "height": 100}),
        ),
    ],
)
def test_each_pixel_argument_is_read_back_to_the_screen_once(tool, arguments, expected):
    name, params = call(tool, arguments)
    assert (name, {k: v for k, v in params.items() if k in expected[1]}) == expected
    assert set(expected[1]) <= set(params)


def test_a_batchs_steps_and_a_teach_batchs_regions_are_read_back_once():
    _, batch = call(
        "computer_batch",
        {
            "actions": [
                {"action": "left_click", "coordinate": [100, 200]},
                {"action": "mouse_move", "coordinate": [5, 5]},
            ]
        },
    )
    assert [(s["command"], s["args"]["x"], s["args"]["y"]) for s in batch["steps"]] == [
        ("click-at", 200, 400),
        ("mouse-move", 10, 10),
    ]
    _, teach = call("teach_batch", {"steps": [{"text": "here", "region": [10, 10, 20, 30]}]})
    assert json.loads(teach["steps"])[0]["rect"] == [20, 20, 20, 40]


def test_numbers_that_are_not_pixels_stay_as_given():
    _, params = call("scroll", {"coordinate": [1, 1], "scroll_direction": "up", "scroll_amount": 5})
    assert params["amount"] == 5
    _, params = call("key", {"text": "Down", "repeat": 4})
    assert params["times"] == 4
    _, params = call("wait", {"duration": 2})
    assert params["seconds"] == 2


def shot(path: Path, size: tuple[int, int]) -> ScreenshotResult:
    Image.new("RGB", size, "white").save(path)
    return ScreenshotResult(
        path=str(path), rect=Rect(left=0, top=0, right=size[0], bottom=size[1]), width=size[0], height=size[1]
    )


def test_a_screenshot_is_shrunk_in_its_file_and_says_so(tmp_path):
    factor = vision_scale(1920, 1080)
    seen = shown_to_model(shot(tmp_path / "s.png", (1920, 1080)), factor, "screenshot")
    assert isinstance(seen, ScreenshotResult)
    assert (seen.width, seen.height) == (1430, 804)
    with Image.open(seen.path) as png:
        assert png.size == (1430, 804)
    assert seen.rect == Rect(left=0, top=0, right=1430, bottom=804), "the area, in the picture's pixels too"
    assert seen.text().endswith(
        "(1430x804, rect=[0,0,1430,804], shrunk to 0.745 of the screen: coordinates are this picture's pixels)"
    )


def test_a_zoom_keeps_its_resolution_and_a_factor_of_one_changes_nothing(tmp_path):
    close = shot(tmp_path / "z.png", (400, 200))  # the screen's 200x100 at (0, 0), enlarged 2x
    seen = shown_to_model(close.model_copy(update={"rect": Rect(left=0, top=0, right=200, bottom=100)}), 0.5, "zoom")
    assert isinstance(seen, ScreenshotResult)
    assert (seen.width, seen.height, seen.shown_at) == (400, 200, None)
    assert seen.rect == Rect(left=0, top=0, right=100, bottom=50), "the region, as the model gave it"
    with Image.open(close.path) as png:
        assert png.size == (400, 200)
    whole = shot(tmp_path / "w.png", (800, 600))
    assert shown_to_model(whole, 1.0, "screenshot") is whole
    with Image.open(whole.path) as png:
        assert png.size == (800, 600)


def test_the_pointer_and_a_batchs_screenshots_are_in_the_models_pixels(tmp_path):
    where = ValueResult(what="cursor", target_id=0, value=[960, 540])
    assert shown_to_model(where, vision_scale(1920, 1080), "cursor").value == [715, 402]  # type: ignore[attr-defined]
    batch = BatchResult(
        steps=[
            BatchStep(step=1, command="click-at", ok=True, result=where),
            BatchStep(step=2, command="screenshot", ok=True, result=shot(tmp_path / "b.png", (1000, 500))),
        ],
        completed=2,
        total=2,
    )
    seen = shown_to_model(batch, HALF, "batch")
    assert isinstance(seen, BatchResult)
    assert seen.steps[0].result == where, "a click's result is not the pointer's position"
    with Image.open(seen.images()[0]) as png:
        assert png.size == (500, 250)


def test_an_error_that_gives_positions_says_they_are_the_screens():
    off = InvalidInput("(134277, 7) is off every screen", hint="screens: [0,0,1920,1080]")
    in_screen_pixels(off, 0.745)
    assert off.message == (
        "(134277, 7) is off every screen (positions in screen pixels; the screenshot shows the screen at 0.745)"
    )
    gone = WindowClosed("the session's window is closed")
    in_screen_pixels(gone, 0.745)
    assert gone.message == "the session's window is closed", "no positions: nothing added"
    whole = InvalidInput("(5000, 7) is off every screen")
    in_screen_pixels(whole, 1.0)
    assert whole.message == "(5000, 7) is off every screen"


def test_the_point_acted_at_and_the_windows_rectangles_are_in_the_models_pixels():
    clicked = ActionResult(action="click-at", method="mouse", point=(960, 540))
    seen = shown_to_model(clicked, vision_scale(1920, 1080), "click-at")
    assert seen.text() == "click-at at (715, 402) via mouse"
    listed = WindowsResult(
        windows=[WindowInfo(id="0x1", title="galculator", pid=7, rect=Rect(left=800, top=400, right=1200, bottom=700))]
    )
    window = shown_to_model(listed, HALF, "windows").windows[0]  # type: ignore[attr-defined]
    assert window.rect == Rect(left=400, top=200, right=600, bottom=350)
    assert listed.windows[0].rect.left == 800, "the command's own result is not changed"
