"""Two monitors on one X screen: `switch-display N` makes screenshots, coordinates and the
window `state` reads refer to monitor N, through the one-shot CLI and the daemon.

The desktop is one 3840x1080 Xvfb screen split by RandR 1.5 into two monitors (`xrandr
--setmonitor`), LEFT (primary) and RIGHT, with a GTK fixture window on each. What the apps
did is read from their own event logs; pixels are compared with a whole-screen capture.
"""

from __future__ import annotations

import shutil
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from tests.conftest import Winctl, start_app, stop_app
from tests.e2e.helpers.mcp_client import run_client
from tests.fixtures.applog import AppLog
from tests.fixtures.launch import gtk_fixture_command
from winactions.backends.linux.virtual_desktop import VirtualDesktop

pytestmark = pytest.mark.desktop

LEFT, RIGHT = "Left Monitor Fixture", "Right Monitor Fixture"


@pytest.fixture(scope="module")
def desktop() -> Iterator[VirtualDesktop]:
    """One X screen 3840x1080 holding two RandR monitors of 1920x1080 side by side."""
    if shutil.which("xrandr") is None:
        pytest.fail("xrandr is not installed: run scripts/setup.sh test (scripts/packages/test.txt)")
    with VirtualDesktop(width=3840, height=1080) as desk:
        for args in (
            ["--setmonitor", "*LEFT", "1920/508x1080/286+0+0", "screen"],  # replaces the screen's own monitor
            ["--setmonitor", "RIGHT", "1920/508x1080/286+1920+0", "none"],
        ):
            subprocess.run(["xrandr", *args], env=desk.env, check=True, capture_output=True, timeout=30)
        yield desk


@pytest.fixture(scope="module")
def apps(desktop: VirtualDesktop, tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, AppLog]]:
    """A fixture window on each monitor (placed by wmctrl, not by winctl), with its event log."""
    folder = tmp_path_factory.mktemp("displays")
    procs, logs = [], {}
    try:
        for title, x in ((LEFT, 100), (RIGHT, 1920 + 200)):
            log = str(folder / f"{x}.jsonl")
            procs.append(start_app(desktop, gtk_fixture_command(log, rows=5, title=title), title))
            subprocess.run(["wmctrl", "-r", title, "-e", f"0,{x},120,900,700"], env=desktop.env, check=True)
            logs[title] = AppLog(log)
        time.sleep(0.5)  # the moves settle (the window manager answers ConfigureRequests)
        yield logs
    finally:
        for proc in procs:
            stop_app(proc)


def _apply(state: dict) -> dict:
    return next(t for t in state["targets"] if t["type"] == "Button" and t["name"] == "Apply")


def _clicks(log: AppLog) -> int:
    return len(log.events("clicked", widget="Apply"))


def _until(check, timeout: float = 5.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(0.05)
    return check()


def test_displays_lists_the_randr_monitors(winctl: Winctl, apps) -> None:
    listed = winctl("--json", "displays").json["result"]
    assert listed["current"] == "all"
    assert [(d["index"], d["name"], d["rect"], d["primary"]) for d in listed["displays"]] == [
        (0, "LEFT", [0, 0, 1920, 1080], True),
        (1, "RIGHT", [1920, 0, 3840, 1080], False),
    ]
    text = winctl("displays").out
    assert "* " not in text and "1 RIGHT (1920,0 1920x1080)" in text


def test_on_display_1_screenshot_state_and_clicks_are_that_monitor(winctl: Winctl, apps, tmp_path: Path) -> None:
    winctl("focus", LEFT)  # the session starts on the left window
    whole = winctl("--json", "screenshot", "--screen", str(tmp_path / "whole.png")).json["result"]
    assert (whole["width"], whole["height"]) == (3840, 1080) and "display" not in whole
    absolute = _apply(winctl("--json", "--window", RIGHT, "state", "--verbose").json["result"])

    switched = winctl("switch-display", "1").out
    assert switched.startswith("switch-display: display 1") and "* 1 RIGHT" in switched

    shot = winctl("--json", "screenshot", "--screen", str(tmp_path / "one.png")).json["result"]
    assert (shot["width"], shot["height"]) == (1920, 1080)
    assert shot["rect"] == {"left": 0, "top": 0, "right": 1920, "bottom": 1080} and shot["display"]["index"] == 1
    mine = Image.open(tmp_path / "one.png").convert("RGB")
    right_half = Image.open(tmp_path / "whole.png").convert("RGB").crop((1920, 0, 3840, 1080))
    assert ImageChops.difference(mine, right_half).getbbox() is None  # the right monitor's pixels, exactly

    # `state` with no --window: the window on display 1, its rects relative to the monitor
    text = winctl("state", "--verbose").out
    first = text.splitlines()[0]
    assert RIGHT in first and first.endswith("on display 1 (1920,0 1920x1080)"), first
    state = winctl("--json", "state", "--verbose").json["result"]
    assert state["window"]["title"] == RIGHT and state["display"]["rect"] == [1920, 0, 3840, 1080]
    apply = _apply(state)
    left, top, right, bottom = apply["rect"]
    assert [left + 1920, top, right + 1920, bottom] == absolute["rect"]
    assert winctl("--json", "get", "rect", str(apply["id"])).json["result"]["value"] == apply["rect"]

    # a click at the button's relative centre presses the right window's button, not the left's
    before = {title: _clicks(log) for title, log in apps.items()}
    x, y = (left + right) // 2, (top + bottom) // 2
    done = winctl("click-at", str(x), str(y)).out
    assert f"at ({x}, {y})" in done and "on display 1" in done
    assert _until(lambda: _clicks(apps[RIGHT]) == before[RIGHT] + 1), "the right window's Apply was not pressed"
    assert _clicks(apps[LEFT]) == before[LEFT]
    cursor = winctl("--json", "cursor").json["result"]["value"]
    assert cursor == [x, y]
    returned = winctl("--json", "--return-state", "mouse-move", str(x), str(y + 1)).json["result"]
    assert returned["point"] == [x, y + 1] and returned["state"]["window"]["rect"] == state["window"]["rect"]
    assert returned["display"]["index"] == 1

    # a point off the monitor is refused and nothing is clicked
    off = winctl("click-at", "1920", str(y), expect=2)
    assert "off display 1 (1920,0 1920x1080)" in off.err and "(0, 0) to (1919, 1079)" in off.err
    time.sleep(0.3)
    assert _clicks(apps[RIGHT]) == before[RIGHT] + 1 and _clicks(apps[LEFT]) == before[LEFT]

    # zoom takes an area of the monitor
    zoomed = winctl("--json", "zoom", str(left), str(top), "40", "20", "--scale", "1").json["result"]
    assert zoomed["rect"] == {"left": left, "top": top, "right": left + 40, "bottom": top + 20}
    assert zoomed["display"]["index"] == 1


def test_switch_display_0_and_all_go_back(winctl: Winctl, apps) -> None:
    winctl("focus", RIGHT)
    winctl("switch-display", "0")
    state = winctl("--json", "state", "--verbose").json["result"]
    assert state["window"]["title"] == LEFT and state["display"]["index"] == 0
    assert "the session's window is not on display 0" in " ".join(state["warnings"])
    left_apply = _apply(state)

    winctl("switch-display", "all")
    assert winctl("--json", "displays").json["result"]["current"] == "all"
    back = winctl("--json", "--window", RIGHT, "state", "--verbose").json["result"]
    assert "display" not in back and _apply(back)["rect"][0] >= 1920  # whole-screen coordinates again
    assert "on display" not in winctl("--window", LEFT, "state").out
    assert _apply(winctl("--json", "--window", LEFT, "state", "--verbose").json["result"])["rect"] == left_apply["rect"]


def test_a_display_that_does_not_exist_is_refused(winctl: Winctl, apps) -> None:
    run = winctl("switch-display", "5", expect=2)
    assert "there is no display 5" in run.err and "0 LEFT (0,0 1920x1080), 1 RIGHT (1920,0 1920x1080)" in run.err
    assert winctl("--json", "displays").json["result"]["current"] == "all"  # nothing was changed
    assert winctl("switch-display", "left", expect=2).code == 2


def test_the_choice_holds_through_the_daemon(winctl: Winctl, daemon, apps) -> None:
    winctl("switch-display", "1")  # one-shot, in this process
    state = daemon("--json", "state", "--verbose").json["result"]  # the daemon, another process, same session
    assert state["window"]["title"] == RIGHT and state["display"]["index"] == 1
    apply = _apply(state)
    left, top, right, bottom = apply["rect"]
    assert left < 1920  # relative to the monitor
    before = _clicks(apps[RIGHT])
    daemon("click-at", str((left + right) // 2), str((top + bottom) // 2))
    assert _until(lambda: _clicks(apps[RIGHT]) == before + 1)
    assert daemon("--json", "displays").json["result"]["current"] == 1
    daemon("switch-display", "all")
    assert winctl("--json", "displays").json["result"]["current"] == "all"


def test_through_mcp_the_tools_take_the_seeds_display_argument(desktop: VirtualDesktop, tmp_path: Path, apps) -> None:
    async def script(session):
        switched = await session.call_tool("switch_display", {"display": 1})  # a number, as the seed sends it
        state = await session.call_tool("state", {"verbose": True})
        cursor = await session.call_tool("mouse_move", {"x": 5, "y": 6})
        off = await session.call_tool("click_at", {"x": 1920, "y": 6})
        back = await session.call_tool("switch_display", {"display": "all"})
        return switched, state, cursor, off, back

    switched, state, moved, off, back = run_client(desktop, tmp_path, script)
    assert not switched.is_error and switched.structured_content["result"]["current"] == 1
    first = state.content[0].text.splitlines()[0]
    assert RIGHT in first and first.endswith("on display 1 (1920,0 1920x1080)")
    assert moved.structured_content["result"]["point"] == [5, 6]
    where = subprocess.run(["xdotool", "getmouselocation"], env=desktop.env, capture_output=True, text=True).stdout
    assert where.startswith("x:1925 y:6 "), where  # the pointer, asked of X: on the right monitor
    assert off.is_error and "off display 1" in off.content[0].text
    assert back.structured_content["result"]["current"] == "all"
