"""The locator's session and file features on a real calculator nobody here wrote (issue 15.3,
15.4, 15.6), checked in the app itself. galculator switches from its basic to its scientific
mode from its View menu: the window grows and every key moves, which is what a cached place, a
verified place and a saved screenshot must notice.

- The session's cache, shared by one-shot processes: a key found once is a hit the second
  time; after the mode switch (View > Scientific Mode) the cached place is refused (its pixels changed) and the key is
  found again where the app's tree now puts it; `locate-cache clear` empties it.
- `verify-location`: yes while the key is where it was found, "moved: now at" after the switch,
  on the live screen and on two saved screenshots.
- `match` and `locate --in` on a saved screenshot, at its own size and drawn 1.25x as large.
- Mode A: a key's reference in another theme (no template or OCR match) is clicked through the
  model's one-shot match, and the sum shows in galculator's own display."""

from __future__ import annotations

import json
import subprocess
import time

import cv2
import pytest

from tests.conftest import wait_for_window
from tests.e2e.helpers.apps import display, inside, keys, shows, wait_for_buttons, xywh
from tests.fixtures.llm_server import API_KEY, LLMServer

pytestmark = pytest.mark.desktop


def scientific(winctl, before: dict[str, list[int]]) -> dict[str, list[int]]:
    """Switch galculator to its scientific mode (View > Scientific Mode) and wait until its keys have moved."""
    winctl("click", "View")
    winctl("click", "Scientific Mode")
    deadline = time.monotonic() + 15
    while (now := keys(winctl)).get("7") == before["7"] or len(now) <= len(before):
        assert time.monotonic() < deadline, "galculator did not switch to its scientific mode"
        time.sleep(0.3)
    time.sleep(0.5)  # the last redraw
    return now


def centre(box: dict) -> list[int]:
    return [(box["left"] + box["right"]) // 2, (box["top"] + box["bottom"]) // 2]


@pytest.fixture
def galculator(winctl, launch, desktop):
    """galculator started, the pointer parked in a corner: a pointer left over a key opens its
    tooltip, which covers the keys below it (and a covered label is rightly not found)."""
    subprocess.run(["xdotool", "mousemove", "0", "0"], env=desktop.env, check=True)
    launch(["galculator"], title="galculator")
    wait_for_buttons(winctl, 20)
    return keys(winctl)


def test_one_shot_processes_share_the_cache_and_refuse_a_place_that_changed(winctl, galculator, one_shot):
    first = one_shot("locate", "text:7")["result"]["located"]
    assert not first["cache_hit"] and inside(galculator["7"], first["element"]["click_point"])
    second = one_shot("locate", "text:7")["result"]["located"]
    assert second["cache_hit"] and second["element"]["bbox"] == first["element"]["bbox"]

    for key in ("1", "2", "3"):  # the display shows 123
        winctl("click", f"text:{key}")
    shows(winctl, "123")
    shown = one_shot("locate", "text:123")["result"]["located"]
    assert not shown["cache_hit"] and one_shot("locate", "text:123")["result"]["located"]["cache_hit"]
    for key in ("+", "4"):  # the display now shows 4 where 123 was: same place, other pixels
        winctl("click", f"text:{key}")
    shows(winctl, "4")
    gone = one_shot("locate", "text:123", expect=3)
    assert "no reliable match" in gone["error"]["message"], "the cached place was refused, then looked at again"
    stats = one_shot("locate-cache", "stats")["result"]["stats"]
    assert stats["stale"] == 1 and stats["hits"] == 2

    now = scientific(winctl, galculator)  # a larger window: the cached places are not even tried
    moved = one_shot("locate", "text:7")["result"]["located"]
    assert not moved["cache_hit"] and inside(now["7"], moved["element"]["click_point"])
    assert one_shot("locate", "text:7")["result"]["located"]["cache_hit"]
    winctl("click", "text:7")  # from the cache: the key is pressed (the switch cleared the display)
    shows(winctl, "7")

    cleared = one_shot("locate-cache", "clear")["result"]
    assert cleared["cleared"] >= 1 and cleared["stats"]["entries"] == 0
    again = one_shot("locate", "text:7")["result"]["located"]
    assert not again["cache_hit"] and inside(now["7"], again["element"]["click_point"])


def test_verify_location_live_and_on_saved_screenshots(winctl, galculator, one_shot, tmp_path):
    found = one_shot("locate", "text:8")["result"]["located"]["element"]
    at, thumb = xywh(found["bbox"]), found["thumbnail"]
    winctl("screenshot", "--screen", str(tmp_path / "basic.png"))
    same = one_shot("verify-location", "text:8", "--at", at, "--thumbnail", thumb)["result"]["verification"]
    assert same["still_there"] and same["checked"] == "pixels"

    now = scientific(winctl, galculator)
    winctl("screenshot", "--screen", str(tmp_path / "scientific.png"))
    live = one_shot("verify-location", "text:8", "--at", at, "--thumbnail", thumb)["result"]["verification"]
    assert not live["still_there"] and "moved: now at" in live["reason"], live
    assert inside(now["8"], centre(live["now"]))

    def on_file(shot: str) -> dict:
        out = one_shot("verify-location", "text:8", "--at", at, "--thumbnail", thumb, "--in", str(tmp_path / shot))
        return out["result"]["verification"]

    assert on_file("basic.png")["still_there"]
    saved = on_file("scientific.png")
    assert not saved["still_there"] and inside(now["8"], centre(saved["now"]))


def test_match_and_locate_in_a_saved_screenshot_at_two_sizes(winctl, galculator, one_shot, tmp_path):
    shot = tmp_path / "shot.png"
    winctl("screenshot", "--screen", str(shot))
    image = cv2.imread(str(shot))
    left, top, right, bottom = galculator["5"]
    cv2.imwrite(str(tmp_path / "five.png"), image[top:bottom, left:right])
    bigger = cv2.resize(image, None, fx=1.25, fy=1.25, interpolation=cv2.INTER_LINEAR)
    cv2.imwrite(str(tmp_path / "shot_125.png"), bigger)

    same = one_shot("match", str(tmp_path / "five.png"), str(shot))["result"]["matches"][0]
    assert list(same["box"].values()) == galculator["5"], same
    assert same["method"] == "template:exact" and same["confidence"] >= 0.99
    scaled = one_shot("match", str(tmp_path / "five.png"), str(tmp_path / "shot_125.png"))["result"]["matches"][0]
    assert scaled["method"] == "template:multiscale" and 1.2 <= scaled["scale"] <= 1.3, scaled
    assert inside([round(v * 1.25) for v in galculator["5"]], scaled["center"])

    for key in ("=", "5", "AC"):
        located = one_shot("locate", f"text:{key}", "--in", str(shot))["result"]["located"]
        assert inside(galculator[key], located["element"]["click_point"]), (key, located)
    wide = one_shot("locate", "text:=", "--in", str(tmp_path / "shot_125.png"))["result"]["located"]
    assert inside([round(v * 1.25) for v in galculator["="]], wide["element"]["click_point"])


def test_a_key_in_another_theme_is_clicked_through_the_models_one_shot_match(winctl, galculator, tmp_path):
    winctl("screenshot", "--screen", str(tmp_path / "screen.png"))
    image = cv2.imread(str(tmp_path / "screen.png"))
    left, top, right, bottom = galculator["="]
    cv2.imwrite(str(tmp_path / "equals_dark.png"), 255 - image[top:bottom, left:right])
    window = next(
        w["rect"] for w in winctl("--json", "windows").json["result"]["windows"] if w["title"] == "galculator"
    )
    for key in ("7", "+", "8"):
        winctl("click", f"text:{key}")
    with LLMServer() as server:
        # a Qwen-VL model answers on a 0-1000 grid of the window's screenshot it was sent
        w, h = window["right"] - window["left"], window["bottom"] - window["top"]
        box = [
            round((left - window["left"]) * 1000 / w),
            round((top - window["top"]) * 1000 / h),
            round((right - window["left"]) * 1000 / w),
            round((bottom - window["top"]) * 1000 / h),
        ]
        server.reply(json.dumps({"found": True, "box": box, "confidence": 0.9, "label": "="}))
        flags = [
            "--vision-base-url",
            server.openai_url,
            "--vision-api-key",
            API_KEY,
            "--vision-model",
            "qwen2.5-vl-72b-instruct",
        ]
        out = winctl(*flags, "click", f"image:{tmp_path / 'equals_dark.png'}").out
        sent = server.requests[-1]
    assert sent.images == 2 and "Image 2 is the current screenshot" in sent.prompt and "0-1000 grid" in sent.prompt
    assert "located by vision:reference" in out
    shows(winctl, "15")  # galculator's own display: 7 + 8 =


def test_a_key_another_window_draws_over_this_one_is_not_this_ones(winctl, launch, desktop):
    """Two galculators, the second on top of the first, 40 px right and 30 px down: the
    first's capture is mostly the second's keys. Its "7" found there is refused, naming the
    window that covers it; `click text:7` brings the first forward before it reads its pixels,
    and presses the first's own 7. Before, the second's 7 was found in the first's capture and
    clicked there once the first had come forward: on the first's 5 (its display read 75)."""
    subprocess.run(["xdotool", "mousemove", "0", "0"], env=desktop.env, check=True)
    first = launch(["galculator"], title="galculator").window
    wait_for_buttons(winctl, 20)
    app = subprocess.Popen(["galculator"], env=winctl.env, start_new_session=True)  # launch would pick the first
    try:
        deadline = time.monotonic() + 20
        while not (
            others := [
                w["id"]
                for w in winctl("--json", "windows").json["result"]["windows"]
                if w["title"] == "galculator" and w["id"] != first["id"]
            ]
        ):
            assert time.monotonic() < deadline, "the second galculator did not appear"
            time.sleep(0.3)
        second = others[0]
        r = first["rect"]
        winctl("--window", second, "window", "move", str(r["left"] + 40), str(r["top"] + 30))
        wait_for_buttons(winctl, 20)
        winctl("focus", second)
        refused = winctl("--window", first["id"], "locate", "text:7", expect=3)  # --window: remembered after
        assert 'found only where the window "galculator" covers the window' in refused.err, refused.err
        assert "located by ocr" in winctl("click", "text:7").out
        deadline = time.monotonic() + 5
        while display(winctl) != ["7"]:
            assert time.monotonic() < deadline, f"the first galculator's display shows {display(winctl)}, not 7"
            time.sleep(0.3)
        shown = winctl("--window", second, "--json", "state").json["result"]["targets"]
        assert [t["name"] for t in shown if t["type"] == "Text"] == ["0"]
    finally:
        app.kill()
        app.wait()


def test_a_key_of_a_window_partly_off_the_screen_and_behind_another(winctl, galculator, desktop):
    """An action on a visual target brings its window forward and waits for its pixels to hold
    still: only the part of the window on a screen is read (a capture of the whole window, 60
    px of it left of the screen, is refused by the X server)."""
    other = subprocess.Popen(
        ["xmessage", "-geometry", "+1500+900", "-title", "Elsewhere", "elsewhere"],
        env=winctl.env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        wait_for_window(desktop, "Elsewhere")
        winctl("window", "move", "--", "-60", "200")
        winctl("focus", "Elsewhere")
        winctl("--window", "galculator", "click", "text:9")
        shows(winctl, "9")
    finally:
        other.kill()
        other.wait()
