"""The visual locator on the live GTK fixture: every kind of target found and clicked for real,
the cache reused and refused, and `--vision local` turning painted icon buttons into targets."""

from __future__ import annotations

import json

import cv2
import pytest

from tests.conftest import focused_fixture
from tests.fixtures.llm_server import API_KEY, LLMServer

pytestmark = pytest.mark.desktop
TITLE = "Locator Live Fixture"
CANVAS_BUTTONS = {"play": (24, 24, 40), "stop": (84, 24, 40)}


@pytest.fixture
def app(desktop, tmp_path, winctl):
    with focused_fixture(desktop, winctl, tmp_path, TITLE) as log:
        yield log


def tree(winctl):
    return winctl("--json", "state", "--verbose").json["result"]


def element(state, type_, name):
    return next(t for t in state["targets"] if t["type"] == type_ and t["name"] == name)


def inside(rect, point):
    return rect[0] <= point[0] < rect[2] and rect[1] <= point[1] < rect[3]


def centre(rect):
    return (rect[0] + rect[2]) // 2, (rect[1] + rect[3]) // 2


def canvas_buttons(state):
    canvas = next(t for t in state["targets"] if t["name"] == "Canvas")
    x, y = canvas["rect"][0], canvas["rect"][1]
    return {n: [x + bx, y + by, x + bx + s, y + by + s] for n, (bx, by, s) in CANVAS_BUTTONS.items()}


def test_text_target_is_located_by_ocr_and_clicked(winctl, app):
    apply = element(tree(winctl), "Button", "Apply")
    found = winctl("--json", "locate", "text:Apply").json["result"]["located"]
    assert found["method_used"].split(":")[0] == "ocr" and found["reliable"]  # ocr:ink or ocr (lines)
    assert inside(apply["rect"], found["element"]["click_point"])
    out = winctl("click", "text:Apply").out
    assert "located by ocr" in out
    app.wait_for("clicked", widget="Apply")


def test_image_target_by_alias_from_the_asset_library(winctl, app, tmp_path, monkeypatch):
    state = tree(winctl)
    reset = element(state, "Button", "Reset")["rect"]
    shot = winctl("--json", "screenshot", "--screen", str(tmp_path / "screen.png")).json["result"]
    assert shot["rect"]["left"] == 0
    image = cv2.imread(str(tmp_path / "screen.png"))
    (tmp_path / "assets" / "python3").mkdir(parents=True)
    cv2.imwrite(
        str(tmp_path / "assets" / "python3" / "reset_button.png"), image[reset[1] : reset[3], reset[0] : reset[2]]
    )
    (tmp_path / "assets" / "index.json").write_text(json.dumps({"reset_button": {"aliases": ["重置", "Reset"]}}))
    monkeypatch.setenv("WINCTL_ASSETS", str(tmp_path / "assets"))
    found = winctl("--json", "locate", "image:重置").json["result"]["located"]
    assert found["method_used"] == "template:exact" and inside(reset, found["element"]["click_point"])
    winctl("click", "image:重置")
    app.wait_for("clicked", widget="Reset")
    missing = winctl("--json", "locate", "image:save_button", expect=3).json["error"]
    assert "no reference image for 'save_button'" in missing["message"]


def test_dynamic_target_goes_to_the_vision_model(winctl, app):
    state = tree(winctl)
    play = canvas_buttons(state)["play"]
    window = state["window"]["rect"]
    with LLMServer() as server:
        box = [play[0] - window["left"], play[1] - window["top"], play[2] - window["left"], play[3] - window["top"]]
        server.reply(json.dumps({"found": True, "box": box, "confidence": 0.9, "label": "green play triangle"}))
        flags = ["--vision-base-url", server.openai_url, "--vision-api-key", API_KEY, "--vision-model", "gpt-4o"]
        out = winctl(*flags, "click", "dynamic:the green play button").out
        assert server.requests[-1].images == 1 and "the green play button" in server.requests[-1].prompt
        assert "located by vision" in out
        app.wait_for("canvas_button", hit="play")
        server.reply("The button is in the top left corner.")
        err = winctl(*flags, "--json", "locate", "dynamic:the red stop button", expect=3).json["error"]
        assert "replied without usable JSON" in err["message"]


def test_fixed_point_from_the_configuration_file(winctl, app, tmp_path, monkeypatch):
    state = tree(winctl)
    stop = canvas_buttons(state)["stop"]
    w = state["window"]["rect"]
    config = tmp_path / "fixed.json"
    config.write_text(
        json.dumps(
            {
                "apps": {
                    "python3": {
                        "stop": {
                            "rect": [stop[0] - w["left"], stop[1] - w["top"], stop[2] - w["left"], stop[3] - w["top"]]
                        }
                    }
                }
            }
        )
    )
    monkeypatch.setenv("WINCTL_FIXED_POINTS", str(config))
    winctl("click", "fixed:stop")
    app.wait_for("canvas_button", hit="stop")


def test_plain_target_falls_back_and_unreliable_results_list_candidates(winctl, app):
    found = winctl("--json", "locate", "Open Dialog").json["result"]["located"]
    assert [a["strategy"] for a in found["attempts"]] == ["ocr"] and found["method_used"].startswith("ocr")
    err = winctl("--json", "locate", "text:Quarterly revenue forecast", expect=3).json["error"]
    assert "no reliable match" in err["message"] and "ocr" in err["message"]
    err = winctl("--json", "locate", "text:Reset", "--region", "5000,5000,100,100", expect=2).json["error"]
    assert "off every screen" in err["message"]
    assert winctl("--json", "locate", "text:", expect=2).json["error"]["code"] == "invalid_input"


def test_cache_reuses_a_place_until_the_pixels_there_change(winctl, app):
    steps = [
        {"command": "locate", "args": {"target": "text:Add Row"}},
        {"command": "locate", "args": {"target": "text:Add Row"}},
        {"command": "window", "args": {"action": "move", "x": 300, "y": 200}},
        {"command": "locate", "args": {"target": "text:Add Row"}},
        {"command": "locate-cache", "args": {"action": "stats"}},
    ]
    result = winctl("--json", "batch", json.dumps(steps)).json["result"]
    first, second, _, moved, stats = (s["result"] for s in result["steps"])
    assert not first["located"]["cache_hit"] and second["located"]["cache_hit"]
    assert not moved["located"]["cache_hit"], "the window moved: the old place shows other pixels"
    assert moved["located"]["element"]["bbox"] != first["located"]["element"]["bbox"]
    add_row = element(tree(winctl), "Button", "Add Row")["rect"]
    assert inside(add_row, moved["located"]["element"]["click_point"])
    assert stats["stats"]["hits"] == 1 and stats["stats"]["hit_rate"] > 0


def test_vision_local_turns_painted_icon_buttons_into_clickable_targets(winctl, app):
    plain = tree(winctl)
    truth = canvas_buttons(plain)
    state = winctl("--json", "--vision", "local", "state", "--verbose").json["result"]
    seen = [t for t in state["targets"] if t.get("source") == "vision"]
    report = next(t for t in state["tiers"] if t.startswith("vision-local"))
    for name, rect in truth.items():
        match = [t for t in seen if inside(rect, centre(t["rect"]))]
        assert match, f"{name} button not seen: {report}"
    assert len(state["targets"]) > len(plain["targets"])
    assert [t.get("source") for t in state["targets"] if t["name"] == "Apply"] == [None], "no duplicates"
    play = next(t for t in seen if inside(truth["play"], centre(t["rect"])))
    winctl("--vision", "local", "click", str(play["id"]))
    app.wait_for("canvas_button", hit="play")
