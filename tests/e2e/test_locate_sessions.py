"""The locator across one-shot processes and over time, on the live GTK fixture (issue 15):
the session's locate cache shared by separate `winctl` processes (15.6), `verify-location`
answering yes while the element is unchanged and no — with why — once the app changes or
moves it (15.4), and an `image:` target in another theme clicked through the model's
one-shot match (15.3)."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import cv2
import pytest

from tests.conftest import focused_fixture
from tests.e2e.helpers.apps import inside, xywh
from tests.fixtures.llm_server import API_KEY, LLMServer

pytestmark = pytest.mark.desktop
TITLE = "Locator Sessions Fixture"


@pytest.fixture
def app(desktop, tmp_path, winctl):
    with focused_fixture(desktop, winctl, tmp_path, TITLE) as log:
        yield log


def element(winctl, type_: str, name: str) -> list[int]:
    state = winctl("--json", "state", "--verbose").json["result"]
    return next(t["rect"] for t in state["targets"] if t["type"] == type_ and t["name"] == name)


def test_separate_processes_share_the_sessions_cache(winctl, app, one_shot):
    first = one_shot("locate", "text:Add Row")["result"]
    assert not first["located"]["cache_hit"] and [a["strategy"] for a in first["located"]["attempts"]] == ["ocr"]
    second = one_shot("locate", "text:Add Row")["result"]
    assert second["located"]["cache_hit"] and [a["strategy"] for a in second["located"]["attempts"]] == ["cache"]
    assert second["located"]["element"]["bbox"] == first["located"]["element"]["bbox"]
    assert (winctl.runtime_dir / "winactions" / "sessions" / "default.locate.json").exists()
    stats = one_shot("locate-cache", "stats")["result"]["stats"]
    assert stats["hits"] == 1 and stats["misses"] == 1 and stats["entries"] == 1

    status = one_shot("locate", "text:Ready")["result"]["located"]  # the status line, cached
    assert not status["cache_hit"] and one_shot("locate", "text:Ready")["result"]["located"]["cache_hit"]
    winctl("click", "Apply")  # the app writes "Applied 1" where "Ready" was: same place, other pixels
    app.wait_for("clicked", widget="Apply")
    time.sleep(0.3)
    gone = one_shot("locate", "text:Ready", expect=3)
    assert "no reliable match" in gone["error"]["message"], "the cached place was refused, then looked at again"
    stats = one_shot("locate-cache", "stats")["result"]["stats"]
    assert stats["stale"] == 1 and stats["hits"] == 2 and stats["entries"] == 1

    one_shot("window", "move", "300", "200")  # another window place: another search, the new place cached
    moved = one_shot("locate", "text:Add Row")["result"]["located"]
    assert not moved["cache_hit"] and moved["element"]["bbox"] != first["located"]["element"]["bbox"]
    assert inside(element(winctl, "Button", "Add Row"), moved["element"]["click_point"])
    assert one_shot("locate", "text:Add Row")["result"]["located"]["cache_hit"]

    cleared = one_shot("locate-cache", "clear")["result"]
    assert cleared["cleared"] == 2 and cleared["stats"]["entries"] == 0
    after = one_shot("locate", "text:Add Row")["result"]["located"]
    assert not after["cache_hit"] and [a["strategy"] for a in after["attempts"]] == ["ocr"]

    time.sleep(1.5)  # older than a 1 s TTL (WINCTL_LOCATE_CACHE_TTL, for tests and tuning)
    expired = one_shot("locate", "text:Add Row", env={"WINCTL_LOCATE_CACHE_TTL": "1"})["result"]
    assert not expired["located"]["cache_hit"] and expired["cache"]["stale"] == 2
    bad = one_shot("locate", "text:Add Row", env={"WINCTL_LOCATE_CACHE_TTL": "60"}, expect=2)
    assert "WINCTL_LOCATE_CACHE_TTL" in bad["error"]["message"]
    # the in-process view (a daemon's, an MCP server's) reads the same file
    assert winctl("--json", "locate-cache", "stats").json["result"]["stats"]["entries"] == 1


def test_verify_location_yes_while_unchanged_no_once_changed_or_moved(winctl, app, one_shot):
    found = one_shot("locate", "text:Ready")["result"]["located"]["element"]  # the status line
    at, thumb = xywh(found["bbox"]), found["thumbnail"]
    same = one_shot("verify-location", "text:Ready", "--at", at, "--thumbnail", thumb)["result"]["verification"]
    assert same["still_there"] and same["checked"] == "pixels"
    looked = one_shot("verify-location", "text:Ready", "--at", at)["result"]["verification"]
    assert looked["still_there"] and looked["checked"] == "located" and "found there again" in looked["reason"]

    winctl("click", "Apply")  # the app changes the status line to "Applied 1"
    app.wait_for("clicked", widget="Apply")
    time.sleep(0.3)
    changed = one_shot("verify-location", "text:Ready", "--at", at, "--thumbnail", thumb)["result"]["verification"]
    assert not changed["still_there"] and "changed" in changed["reason"] and "not found now" in changed["reason"]
    text = winctl("verify-location", "text:Ready", "--at", at, "--thumbnail", thumb).out
    assert text.startswith("still there: no — the pixels at")

    button = one_shot("locate", "text:Open Dialog")["result"]["located"]["element"]
    at, thumb = xywh(button["bbox"]), button["thumbnail"]
    one_shot("window", "move", "350", "260")
    moved = one_shot("verify-location", "text:Open Dialog", "--at", at, "--thumbnail", thumb)["result"]
    answer = moved["verification"]
    assert not answer["still_there"] and "moved: now at" in answer["reason"]
    assert inside(
        element(winctl, "Button", "Open Dialog"),
        [(answer["now"]["left"] + answer["now"]["right"]) // 2, (answer["now"]["top"] + answer["now"]["bottom"]) // 2],
    )


def test_a_reference_in_another_theme_is_clicked_through_the_models_one_shot_match(winctl, app, tmp_path):
    reset = element(winctl, "Button", "Reset")
    winctl("screenshot", "--screen", str(tmp_path / "screen.png"))
    image = cv2.imread(str(tmp_path / "screen.png"))
    cv2.imwrite(str(tmp_path / "reset_dark.png"), 255 - image[reset[1] : reset[3], reset[0] : reset[2]])
    window = winctl("--json", "windows").json["result"]["windows"]
    rect = next(w["rect"] for w in window if w["title"] == TITLE)
    with LLMServer() as server:
        box = [reset[0] - rect["left"], reset[1] - rect["top"], reset[2] - rect["left"], reset[3] - rect["top"]]
        server.reply(json.dumps({"found": True, "box": box, "confidence": 0.9, "label": "Reset"}))
        flags = ["--vision-base-url", server.openai_url, "--vision-api-key", API_KEY, "--vision-model", "gpt-4o"]
        out = winctl(*flags, "click", f"image:{tmp_path / 'reset_dark.png'}").out
        assert server.requests[-1].images == 2 and "Image 2 is the current screenshot" in server.requests[-1].prompt
    assert "located by vision:reference" in out
    app.wait_for("clicked", widget="Reset")


def test_mcp_clients_call_the_file_tools_with_their_in_argument(desktop, tmp_path):
    """The vision profile serves `match`, `locate` and `verify_location`; the file option is
    spelled `in` in their schemas and arrives as such from the official SDK's client."""
    import anyio
    from mcp.client.session import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client

    shot = str(Path(__file__).resolve().parents[1] / "fixtures" / "screens" / "gtk_fixture.png")
    image = cv2.imread(shot)
    cv2.imwrite(str(tmp_path / "apply.png"), image[97:131, 67:190])
    (tmp_path / "runtime").mkdir(mode=0o700)
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "winactions.cli.entry", "mcp", "--tools", "vision", "--structured"],
        env={**desktop.env, "XDG_RUNTIME_DIR": str(tmp_path / "runtime")},
    )

    async def main():
        async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            tools = {t.name: t for t in (await session.list_tools()).tools}
            matched = await session.call_tool("match", {"reference": str(tmp_path / "apply.png"), "image": shot})
            located = await session.call_tool("locate", {"target": f"image:{tmp_path / 'apply.png'}", "in": shot})
            element = located.structured_content["result"]["located"]["element"]
            verified = await session.call_tool(
                "verify_location",
                {
                    "target": f"image:{tmp_path / 'apply.png'}",
                    "at": "67,97,123,34",
                    "thumbnail": element["thumbnail"],
                    "in": shot,
                },
            )
            bad = await session.call_tool("match", {"reference": shot, "image": str(tmp_path / "apply.png")})
            return tools, matched, element, verified, bad

    tools, matched, element, verified, bad = anyio.run(main)
    assert {"match", "locate", "verify_location", "locate_cache"} <= set(tools)
    assert (
        "in" in tools["locate"].input_schema["properties"]
        and "in" in tools["verify_location"].input_schema["properties"]
    )
    assert not matched.is_error and "found: [67,97,190,131]" in matched.content[0].text
    assert element["bbox"] == {"left": 67, "top": 97, "right": 190, "bottom": 131}
    assert not verified.is_error and verified.content[0].text.startswith("still there: yes")
    assert bad.is_error and "larger than the screenshot" in bad.content[0].text


def test_desktop_verify_location_from_python(desktop, winctl, app):
    from tests.conftest import environment
    from winactions import Desktop

    with environment(winctl.env), Desktop(window=TITLE) as live:
        found = live.locate("text:Reset").located.element
        unchanged = live.verify_location("text:Reset", found.bbox, thumbnail=found.thumbnail).verification
        assert unchanged.still_there and unchanged.checked == "pixels"
        live.call("window", action="move", x=420, y=310)
        moved = live.verify_location("text:Reset", found.bbox, thumbnail=found.thumbnail).verification
        assert not moved.still_there and "moved: now at" in moved.reason and moved.now != found.bbox
        here = live.verify_location("text:Reset", moved.now).verification  # the new place, no thumbnail
        assert here.still_there and here.checked == "located"
