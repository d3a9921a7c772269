"""The rest of the stack on a phone: the Python API, the session daemon (with the device
carried in each call's options), the MCP tool list, and the locator on device screenshots."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PIL import Image

from tests.android.conftest import Phone
from winactions import Desktop, StaleElement
from winactions.backends.base import Capability
from winactions.commands.base import load_commands


def test_python_api_drives_the_phone(session_env: Phone) -> None:
    phone = session_env
    phone.state.screens["login"].taps[(463, 2207, 617, 2340)] = "forms"
    with Desktop("api", device=phone.serial) as desktop:
        state = desktop.state()
        assert state.window.process == "com.wdiodemoapp"
        forms = next(t.id for t in state.targets if t.name == "Forms")
        result = desktop.click(forms)
        assert result.method == "tap (clickable)"
        assert phone.inputs() == [["input", "tap", "540", "2273"]]
        email = next(t.id for t in state.targets if t.name == "input-email")
        with pytest.raises(StaleElement):  # the screen changed: the old field is gone
            desktop.input(email, "x")
        assert phone.inputs() == [["input", "tap", "540", "2273"]]
        assert "go-home" in desktop.commands() and "mouse-move" not in desktop.commands()
        assert desktop.call("go-home").method == "KEYCODE_HOME twice"


def test_daemon_calls_carry_the_device(session_env: Phone) -> None:
    from winactions.daemon import client

    phone = session_env
    try:
        reply = client.call("phone", "state", {}, {"device": phone.serial})
        assert reply["ok"], reply
        targets = reply["result"]["targets"]
        login = next(t["id"] for t in targets if t["name"] == "button-LOGIN")
        reply = client.call("phone", "long-press", {"id": login}, {"device": phone.serial})
        assert reply["ok"], reply
        assert phone.inputs() == [["input", "swipe", "539", "1514", "539", "1514", "800"]]
        refused = client.call("phone", "mouse-move", {"x": 1, "y": 1}, {"device": phone.serial})
        assert not refused["ok"] and refused["error"]["code"] == "unsupported"
        assert "pointer" in refused["error"]["message"]
    finally:
        client.stop("phone")


def test_mcp_offers_only_what_a_phone_can_do(session_env: Phone) -> None:
    from winactions.mcp.server import ToolRunner

    runner = ToolRunner("mcp-phone", device=session_env.serial)
    try:
        names = {tool.name for tool in runner.tools()}
        unavailable = {
            c.tool_name
            for c in load_commands().values()
            if c.capability is not None and c.capability is not Capability.DEVICE
        }
        assert names.isdisjoint(unavailable) and {"mouse_move", "hold_key", "window", "bind_window"} <= unavailable
        assert {"state", "click", "go_home", "swipe", "long_press", "launch", "keys"} <= names
        result = runner.call("keys", {"keys": "back"})
        assert not result.is_error
        assert session_env.inputs() == [["input", "keyevent", "KEYCODE_BACK"]]
    finally:
        runner.close()
    from winactions.mcp.profiles import resolve

    lean = ToolRunner("mcp-phone-lean", device=session_env.serial, profile=resolve("core,phone").commands)
    try:  # the profile an agent on a phone asks for: the core tools and the phone's gestures
        names = {tool.name for tool in lean.tools()}
        assert {"state", "click", "input", "keys", "swipe", "long_press", "go_home", "launch"} <= names
        assert "locate" not in names and "mouse_move" not in names
    finally:
        lean.close()


def test_template_locate_on_the_device_screenshot(session_env: Phone, tmp_path: Path) -> None:
    """A reference image cut from a real phone screenshot is found on the device's screen
    and tapped at its centre in device pixels."""
    pytest.importorskip("cv2")
    phone = session_env
    phone.state.current = "spotlight"
    assets = tmp_path / "assets"
    (assets / "spotlight").mkdir(parents=True)
    box = (40, 1700, 240, 1800)
    with Image.open(Path(__file__).parents[1] / "fixtures" / "android" / "spotlight_feed.png") as shot:
        shot.convert("RGB").crop(box).save(assets / "spotlight" / "tab.png")
    (assets / "index.json").write_text(json.dumps({"tab": {"app": "spotlight", "aliases": ["标签"]}}))
    run = phone.winctl("--json", "locate", "image:标签", env={"WINCTL_ASSETS": str(assets)})
    assert run.code == 0, run.err
    located = run.json["result"]["located"]["element"]
    assert located["bbox"] == {"left": box[0], "top": box[1], "right": box[2], "bottom": box[3]}
    click = phone.winctl("click", "image:tab", env={"WINCTL_ASSETS": str(assets)})
    assert click.code == 0, click.err
    assert ["input", "tap", "140", "1750"] in phone.inputs()


def test_a_vision_models_0_1000_box_maps_to_device_pixels(session_env: Phone) -> None:
    """Seed 004: GLM-style models answer on a 0–1000 grid over the screenshot; the box lands
    on the phone's pixels and the tap goes to its centre."""
    from tests.fixtures.llm_server import API_KEY, LLMServer

    phone = session_env
    phone.state.current = "spotlight"  # 1080x1920, a real screenshot
    with LLMServer() as server:
        server.reply(json.dumps({"found": True, "box": [37, 885, 222, 937], "confidence": 0.92, "label": "tab"}))
        flags = ("--vision-base-url", server.openai_url, "--vision-api-key", API_KEY, "--vision-model", "glm-4v-plus")
        run = phone.winctl(*flags, "click", "dynamic:the first tab of the bottom bar")
        assert run.code == 0, run.err
        assert server.requests[-1].images == 1 and "0-1000 grid" in server.requests[-1].prompt
    (tap,) = [c for c in phone.inputs() if c[:2] == ["input", "tap"]]
    x, y = int(tap[2]), int(tap[3])
    assert abs(x - (37 + 222) / 2 / 1000 * 1080) <= 2 and abs(y - (885 + 937) / 2 / 1000 * 1920) <= 2


def test_ocr_locate_on_the_device_screenshot(session_env: Phone) -> None:
    """Text read from a real phone screenshot (the article's "Next" link), in device pixels."""
    pytest.importorskip("rapidocr")
    phone = session_env
    phone.state.current = "spotlight"
    run = phone.winctl("--json", "locate", "text:Next", "--region", "760,1780,320,140")
    assert run.code == 0, run.err
    located = run.json["result"]["located"]
    assert located["method_used"].startswith("ocr")
    box = located["element"]["bbox"]
    assert 900 <= box["left"] < box["right"] <= 1080 and 1820 <= box["top"] < box["bottom"] <= 1920, box
