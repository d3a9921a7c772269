"""`winctl mcp --tools computer-use` and `--tools computer` driven by the official MCP SDK client on the
virtual desktop: an agent written for the computer-use tool set, or for Anthropic's computer
tool, clicks, types and looks through the tools it knows, and the GTK fixture app's own log
says what happened. Coordinates are the shrunk screenshot's pixels, as a model sees it (or the
screen's with `--screen-pixels`). The translations one by one: tests/test_mcp_computer_use.py;
the shrinking: tests/test_model_pixels.py."""

from __future__ import annotations

import base64
import io
import os
import subprocess
import time

import pytest
from PIL import Image

from tests.conftest import start_app, stop_app
from tests.e2e.helpers.adapters import calculator_shows, centre, stop_app_titled, target, winctl_json
from tests.e2e.helpers.mcp_client import TITLE, run_client
from tests.e2e.helpers.runners import WINCTL
from tests.fixtures.applog import AppLog
from tests.fixtures.launch import gtk_fixture_command
from tests.fixtures.toolkit_apps import isolated_env
from winactions.mcp.computer import ACTIONS
from winactions.mcp.computer_use import COMPUTER_USE
from winactions.mcp.model_pixels import model_pixels, to_screen, vision_scale

pytestmark = pytest.mark.desktop
SEED_ARGS = ("mcp", "--tools", "computer-use")
BOUND_ONLY = {"bind_window", "virtual_mouse", "virtual_keyboard", "mouse_wheel"}  # X11 binds no input


def points(winctl, title: str, factor: float = 1.0) -> dict[str, list[int]]:
    """The centre of each named element of the window (an edit's by `Edit:NAME`), read by the
    test itself, not by the agent under test: in screen pixels, or in a picture shrunk by `factor`."""
    state = winctl("--json", "--window", title, "state", "--verbose").json["result"]
    named = [t for t in state["targets"] if t.get("rect") and t["name"]]
    return {
        ("Edit:" if t["type"] == "Edit" else "") + t["name"]: [round(v * factor) for v in centre(t["rect"])]
        for t in named
    }


def shrunk(desktop) -> float:
    """What the model's API keeps of this desktop's screen: the tools' pixels are that picture's."""
    return vision_scale(desktop.width, desktop.height)


def picture(result) -> Image.Image:
    images = [c for c in result.content if c.type == "image"]
    assert len(images) == 1 and images[0].mime_type == "image/png", [c.type for c in result.content]
    return Image.open(io.BytesIO(base64.b64decode(images[0].data)))


def test_the_seed_tools_are_listed_by_their_names_with_their_arguments(desktop, tmp_path):
    async def script(session):
        return (await session.list_tools()).tools

    tools = {t.name: t for t in run_client(desktop, tmp_path, script, args=SEED_ARGS)}
    assert set(tools) == set(COMPUTER_USE) - BOUND_ONLY  # every command the set needs is in the table
    schema = {name: t.input_schema for name, t in tools.items()}
    coordinate = schema["left_click"]["properties"]["coordinate"]
    assert coordinate["type"] == "array" and coordinate["minItems"] == coordinate["maxItems"] == 2
    assert set(schema["left_click"]["properties"]) == {"coordinate", "text"}
    assert schema["left_click"]["required"] == ["coordinate"]
    assert set(schema["scroll"]["properties"]) >= {"coordinate", "scroll_direction", "scroll_amount"}
    assert schema["zoom"]["properties"]["region"]["minItems"] == 4
    assert set(schema["prompt_respond"]["properties"]) == {"response_type", "arrow_direction", "arrow_count", "text"}
    assert set(schema["request_access"]["properties"]) == {
        "apps",
        "reason",
        "clipboardRead",
        "clipboardWrite",
        "systemKeyCombos",
    }
    assert schema["computer_batch"]["required"] == ["actions"]
    assert all(s.get("additionalProperties") is False for s in schema.values())
    assert all(len(t.description) < 100 for t in tools.values())


def test_an_agent_of_the_seed_clicks_types_and_batches_in_a_real_app(desktop, tmp_path, mcp_app, winctl):
    at = points(winctl, TITLE, shrunk(desktop))
    apply, name = at["Apply"], at["Edit:Name"]

    async def script(session):
        clicked = await session.call_tool("left_click", {"coordinate": apply})
        await session.call_tool("left_click", {"coordinate": name})
        typed = await session.call_tool("type", {"text": "seed words"})
        keyed = await session.call_tool("key", {"text": "BackSpace", "repeat": 3})
        where = await session.call_tool("cursor_position", {})
        batch = await session.call_tool(
            "computer_batch",
            {
                "actions": [
                    {"action": "triple_click", "coordinate": name},
                    {"action": "type", "text": "batched"},
                    {"action": "key", "text": "ctrl+a"},
                    {"action": "left_click", "coordinate": apply},
                    {"action": "screenshot"},
                ]
            },
        )
        return clicked, typed, keyed, where, batch

    clicked, typed, keyed, where, batch = run_client(desktop, tmp_path, script, args=SEED_ARGS)
    assert not clicked.is_error, clicked.content[0].text
    mcp_app.wait_for("clicked", widget="Apply", count=1)  # the app pressed its button
    assert not typed.is_error and not keyed.is_error, (typed.content, keyed.content)
    mcp_app.wait_for("entry_changed", text="seed wo")  # typed, then three BackSpaces
    assert where.content[0].text == f"[{name[0]}, {name[1]}]"
    assert not batch.is_error, batch.content[0].text
    assert batch.content[0].text.startswith("batch: 5 of 5 steps done"), batch.content[0].text
    # the triple click, soon after a click at the same point, still reached GTK as one triple
    # click (click-at spaces a multi-click from an earlier click there): it selected the line
    mcp_app.wait_for("entry_changed", text="batched")
    mcp_app.wait_for("clicked", widget="Apply", count=2)
    assert picture(batch).size[0] > 0  # the batch's screenshot step, as an image


def test_with_screen_pixels_the_screenshot_is_the_screen_and_zoom_the_region_enlarged(
    desktop, tmp_path, mcp_app, winctl
):
    apply = points(winctl, TITLE)["Apply"]
    x, y = apply

    async def script(session):
        shot = await session.call_tool("screenshot", {})
        zoomed = await session.call_tool("zoom", {"region": [x - 20, y - 10, x + 20, y + 10]})
        return shot, zoomed

    shot, zoomed = run_client(desktop, tmp_path, script, args=(*SEED_ARGS, "--screen-pixels"))
    screen = picture(shot)
    size = subprocess.run(["xdpyinfo"], env=desktop.env, capture_output=True, text=True).stdout
    width, height = screen.size
    assert f"dimensions:    {width}x{height} pixels" in size, "the whole screen, unscaled"
    close = picture(zoomed)
    assert close.size == (80, 40)  # 40x20 pixels, enlarged 2x
    # the close-up is those pixels of the screen: compare it, shrunk back, with the screenshot's crop
    crop = screen.convert("RGB").crop((x - 20, y - 10, x + 20, y + 10))
    shrunk = close.convert("RGB").resize((40, 20))
    same = sum(abs(a - b) <= 40 for a, b in zip(crop.tobytes(), shrunk.tobytes(), strict=True))
    assert same >= 0.9 * 40 * 20 * 3


def test_a_model_clicks_in_the_shrunk_picture_and_galculator_computes(desktop, tmp_path, winctl):
    """By default the screenshot is shrunk as Claude's API shrinks it (1920x1080 to 1430x804) and
    the agent's points are that picture's: galculator's 7, clicked where the picture shows it,
    then `*6` and Return; the calculator's own display says 42. Sent whole, the picture would be
    shrunk by the API anyway and every click would land at 0.745 of where the model meant."""
    factor = shrunk(desktop)
    env = {**winctl.env, **isolated_env(tmp_path / "home")}
    subprocess.run(["xdotool", "mousemove", "0", "0"], env=env, check=True)  # no tooltip over the keys

    async def script(session):
        opened = await session.call_tool("open_application", {"app": "galculator"})
        shot = await session.call_tool("screenshot", {})
        seven = centre(target(env, "galculator", "Button", "7")["rect"])
        seven = [round(v * factor) for v in seven]  # where the model sees it in the picture
        clicked = await session.call_tool("left_click", {"coordinate": seven})
        where = await session.call_tool("cursor_position", {})
        typed = await session.call_tool("type", {"text": "*6"})
        keyed = await session.call_tool("key", {"text": "Return"})
        off = await session.call_tool("left_click", {"coordinate": [99999, 5]})
        listed = await session.call_tool("window_management", {"action": "get_rect"})
        return seven, [opened, shot, clicked, where, typed, keyed, listed], off

    try:
        seven, results, off = run_client(desktop, tmp_path, script, args=SEED_ARGS, env=env)
        assert not any(r.is_error for r in results), [r.content[0].text for r in results if r.is_error]
        display = calculator_shows(env, "42")
        window = next(w for w in winctl_json(env, "windows")["windows"] if w["title"] == "galculator")
    finally:
        stop_app_titled(env, "galculator")
    assert "42" in display, display  # the calculator's own display, through AT-SPI
    _, shot, clicked, where, _, _, listed = results
    assert picture(shot).size == (1430, 804)
    assert "(1430x804, rect=[0,0,1430,804], shrunk to 0.745 of the screen" in shot.content[0].text
    # what the tools say back is in the picture's pixels too: the point clicked, the pointer, the window
    assert f" at ({seven[0]}, {seven[1]}) via " in clicked.content[0].text, clicked.content[0].text
    assert where.content[0].text == f"[{seven[0]}, {seven[1]}]"
    seen = ",".join(str(round(window["rect"][side] * factor)) for side in ("left", "top", "right", "bottom"))
    assert f'"galculator" (galculator, pid {window["pid"]}) rect=[{seen}]' in listed.content[0].text, listed.content
    assert off.is_error and "is off every screen (positions in screen pixels" in off.content[0].text, off.content


def test_a_click_with_the_seeds_modifiers_selects_a_range(desktop, tmp_path, winctl):
    """`left_click(text="shift")`, as the set writes a shift-click: rows 2 to 5 selected."""
    log = AppLog(str(tmp_path / "range.jsonl"))
    proc = start_app(
        desktop, gtk_fixture_command(log.path.as_posix(), rows=20, title="Ranges", multiple=True), "Ranges"
    )
    try:
        at = points(winctl, "Ranges", shrunk(desktop))

        async def script(session):
            first = await session.call_tool("left_click", {"coordinate": at["file-002.txt"]})
            second = await session.call_tool("left_click", {"coordinate": at["file-005.txt"], "text": "shift"})
            return first, second

        first, second = run_client(desktop, tmp_path, script, args=SEED_ARGS)
        assert not first.is_error and not second.is_error, (first.content, second.content)
        log.wait_for("selection", rows=[1, 2, 3, 4])
    finally:
        stop_app(proc)


def test_bad_arguments_are_tool_errors_named_and_nothing_is_done(desktop, tmp_path, mcp_app, winctl):
    apply = points(winctl, TITLE, shrunk(desktop))["Apply"]

    async def script(session):
        unknown = await session.call_tool("left_click", {"coordinate": apply, "bogus": 1})
        shape = await session.call_tool("left_click", {"coordinate": [apply[0]]})
        batch = await session.call_tool(
            "computer_batch",
            {"actions": [{"action": "left_click", "coordinate": apply}, {"action": "left_click", "x": 1}]},
        )
        not_here = await session.call_tool("virtual_mouse", {"action": "click", "coordinate": apply})
        return unknown, shape, batch, not_here

    unknown, shape, batch, not_here = run_client(desktop, tmp_path, script, args=SEED_ARGS)
    assert unknown.is_error and unknown.content[0].text.startswith(
        "error (invalid_input): left_click takes no argument 'bogus'"
    ), unknown.content[0].text
    assert shape.is_error and "coordinate.1" in shape.content[0].text
    assert batch.is_error and "actions[2] (left_click): left_click takes no argument 'x'" in batch.content[0].text
    assert not_here.is_error and "not available" in not_here.content[0].text
    time.sleep(0.5)
    assert not mcp_app.events("clicked"), "no call with a bad argument clicked anything (nor the batch's good step)"


def test_an_agent_of_anthropics_computer_tool_runs_unchanged(desktop, tmp_path, mcp_app, winctl):
    factor = shrunk(desktop)
    at = points(winctl, TITLE, factor)
    apply, name = at["Apply"], at["Edit:Name"]

    async def script(session):
        tools = (await session.list_tools()).tools
        calls = [
            {"action": "screenshot"},
            {"action": "left_click", "coordinate": apply, "text": None, "scroll_amount": None},
            {"action": "double_click", "coordinate": name},
            {"action": "type", "text": "from computer"},
            {"action": "key", "text": "Return"},
            {"action": "zoom", "region": [apply[0] - 10, apply[1] - 10, apply[0] + 10, apply[1] + 10]},
            {"action": "mouse_move", "coordinate": apply},
            {"action": "cursor_position"},
            {"action": "wait", "duration": 0.1},
        ]
        results = [await session.call_tool("computer", call) for call in calls]
        refused = await session.call_tool("computer", {"action": "left_click", "coordinate": apply, "duration": 1})
        return tools, results, refused

    tools, results, refused = run_client(desktop, tmp_path, script, args=("mcp", "--tools", "computer"))
    assert [t.name for t in tools] == ["computer"]
    assert tools[0].input_schema["properties"]["action"]["enum"] == list(ACTIONS)
    assert not any(r.is_error for r in results), [r.content[0].text for r in results if r.is_error]
    shot, _, _, _, _, zoomed, _, where, _ = results
    assert picture(shot).size == (round(desktop.width * factor), round(desktop.height * factor))
    with model_pixels(factor):  # the zoom's 20x20 of the picture, at the screen's resolution, enlarged 2x
        side = to_screen(apply[0] + 10) - to_screen(apply[0] - 10)
    assert picture(zoomed).size[0] == 2 * side > 40
    mcp_app.wait_for("clicked", widget="Apply", count=1)
    mcp_app.wait_for("entry_changed", text="from computer")
    assert where.content[0].text == f"[{apply[0]}, {apply[1]}]"
    assert refused.is_error and "left_click takes no argument 'duration'" in refused.content[0].text
    time.sleep(0.3)
    assert len(mcp_app.events("clicked")) == 1, "the refused call clicked nothing"


def test_seed_with_a_profile_of_the_same_names_is_refused(tmp_path):
    run = subprocess.run(
        [WINCTL, "mcp", "--tools", "computer-use,core"],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "XDG_RUNTIME_DIR": str(tmp_path)},
    )
    assert run.returncode == 2, run.stderr
    assert "share names" in run.stderr and "screenshot" in run.stderr and "type" in run.stderr, run.stderr


def test_screen_pixels_without_a_computer_profile_is_refused(tmp_path):
    run = subprocess.run(
        [WINCTL, "mcp", "--tools", "core", "--screen-pixels"],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "XDG_RUNTIME_DIR": str(tmp_path)},
    )
    assert run.returncode == 2, run.stderr
    assert "--screen-pixels goes with --tools computer or computer-use" in run.stderr, run.stderr
