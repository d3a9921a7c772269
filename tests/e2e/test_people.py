"""The status label and teach mode on a real X desktop, checked from outside winctl.

The label is found as an X window (xdotool, xwininfo, xprop), its text read back by OCR from
a screenshot, and clicks and focus are checked in the fixture app's own log and in the
window manager's `_NET_ACTIVE_WINDOW`. The person is played by xdotool clicking the overlay's
buttons, found on screen by their X window and their pixels.
"""

from __future__ import annotations

import functools
import json
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from tests.conftest import start_app, stop_app
from tests.fixtures.applog import AppLog

pytestmark = pytest.mark.desktop
TITLE = "People Fixture"
FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
LABEL_BG = (0x1F, 0x24, 0x30)
NEXT_BG = (0x1A, 0x73, 0xE8)
RING = (0xFF, 0x8C, 0x00)


@pytest.fixture
def app(desktop, tmp_path, winctl):
    log = tmp_path / "events.jsonl"
    proc = start_app(
        desktop, ["/usr/bin/python3", str(FIXTURES / "people_app.py"), "--title", TITLE, "--log", str(log)], TITLE
    )
    winctl("focus", TITLE)
    AppLog(str(log)).wait_for("entry_focus", focused=True)
    yield AppLog(str(log))
    winctl("session", "close", "default", expect=None)  # ends the overlay process
    stop_app(proc)


def x(desktop, *argv: str) -> str:
    return subprocess.run(argv, env=desktop.env, capture_output=True, text=True, timeout=20).stdout


def overlays(desktop) -> list[dict]:
    """winctl's mapped overlay windows as the X server has them: instance, class, geometry."""
    found = []
    for wid in x(desktop, "xdotool", "search", "--class", "Winctl").split():
        info = x(desktop, "xwininfo", "-id", wid)
        if "IsViewable" not in info:
            continue
        field = {k.strip(): v.strip() for k, _, v in (line.partition(":") for line in info.splitlines()) if v}
        wm_class = x(desktop, "xprop", "-id", wid, "WM_CLASS").split("=", 1)[1].strip()
        instance, klass = (part.strip().strip('"') for part in wm_class.split(","))
        left, top = int(field["Absolute upper-left X"]), int(field["Absolute upper-left Y"])
        found.append(
            {
                "id": wid,
                "instance": instance,
                "class": klass,
                "rect": [left, top, left + int(field["Width"]), top + int(field["Height"])],
            }
        )
    return found


def only(desktop, instance: str, timeout: float = 5.0) -> dict:
    deadline = time.monotonic() + timeout
    while True:
        shown = [o for o in overlays(desktop) if o["instance"] == instance]
        if len(shown) == 1 or time.monotonic() > deadline:
            assert len(shown) == 1, overlays(desktop)
            return shown[0]
        time.sleep(0.1)


def active(desktop) -> str:
    return x(desktop, "xdotool", "getactivewindow").strip()


def shot(winctl, tmp_path, name: str) -> Image.Image:
    path = tmp_path / name
    winctl("screenshot", "--screen", str(path))
    return Image.open(path).convert("RGB")


@functools.cache
def _engine():
    from rapidocr import RapidOCR

    return RapidOCR(params={"Global.use_cls": False, "Global.log_level": "error"})


def grab(winctl) -> Image.Image:
    """The whole screen, read by mss directly: while a call waits for the person it holds the
    session, so a `winctl screenshot` of the same session would wait for it."""
    import mss

    from tests.conftest import environment

    with environment(winctl.env), mss.MSS() as screen:
        raw = screen.grab(screen.monitors[0])
        return Image.frombytes("RGB", raw.size, raw.rgb)


def ocr(image: Image.Image) -> str:
    """The text rapidocr reads in the image (enlarged twice: the label's text is small)."""
    big = image.resize((image.width * 2, image.height * 2))
    return " ".join(_engine()(np.asarray(big)[:, :, ::-1]).txts or ())


def reads(image: Image.Image, text: str) -> bool:
    """Whether OCR reads every word of `text` in the image."""
    seen = set(ocr(image).lower().split())
    return set(text.lower().split()) <= seen


def start(winctl, *args: str) -> subprocess.Popen[str]:
    """A winctl call of its own process (it waits for the person) with the session's runtime."""
    return subprocess.Popen(
        [sys.executable, "-m", "winactions.cli.entry", "--no-daemon", "--json", *args],
        env=winctl.env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def finish(proc: subprocess.Popen[str], code: int = 0) -> dict:
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == code, f"{proc.returncode}\n{out}\n{err}"
    return json.loads(out)


def click(desktop, rect: list[int]) -> None:
    cx, cy = (rect[0] + rect[2]) // 2, (rect[1] + rect[3]) // 2
    x(desktop, "xdotool", "mousemove", str(cx), str(cy), "click", "1")


def button_by_colour(image: Image.Image, within: list[int], colour: tuple[int, int, int]) -> list[int]:
    """The bounding box of the pixels of `colour` inside `within` (screen = image coordinates)."""
    crop = np.asarray(image.crop(tuple(within))).astype(int)
    mask = (np.abs(crop - np.array(colour)).sum(axis=2) < 30).nonzero()
    assert mask[0].size > 50, f"no {colour} button in {within}"
    return [within[0] + mask[1].min(), within[1] + mask[0].min(), within[0] + mask[1].max(), within[1] + mask[0].max()]


def test_status_label_shows_says_follows_and_hides(desktop, winctl, app, tmp_path):
    before = active(desktop)
    seq = app.mark()
    shown = winctl("--json", "status-indicator", "show", "Filling the form").json["result"]
    label = only(desktop, "status")
    assert label["class"] == "Winctl"
    rect = [shown["rect"][k] for k in ("left", "top", "right", "bottom")]
    assert label["rect"] == rect
    window = winctl.state()["window"]["rect"]
    assert window["left"] < rect[0] and rect[2] < window["right"]  # centred under the window, inside it
    assert 0 < window["bottom"] - rect[3] <= 12
    image = shot(winctl, tmp_path, "shown.png")
    crop = image.crop(tuple(rect))
    assert reads(crop, "Filling the form"), ocr(crop)
    dark = (np.abs(np.asarray(crop).astype(int) - np.array(LABEL_BG)).sum(axis=2) < 20).mean()
    assert dark > 0.6  # the label is in the screenshot, not the app under it

    winctl("status-indicator", "status", "Saving the invoice")
    image = shot(winctl, tmp_path, "changed.png")
    label = only(desktop, "status")
    crop = image.crop(tuple(label["rect"]))
    assert reads(crop, "Saving the invoice"), ocr(crop)

    wid = x(desktop, "xdotool", "search", "--name", TITLE).split()[0]
    x(desktop, "xdotool", "windowmove", wid, "400", "300")
    deadline = time.monotonic() + 5
    while only(desktop, "status")["rect"][1] < label["rect"][1] + 150 and time.monotonic() < deadline:
        time.sleep(0.1)
    moved = only(desktop, "status")["rect"]
    window = winctl.state()["window"]["rect"]
    assert moved[1] > label["rect"][1] + 150 and 0 < window["bottom"] - moved[3] <= 12, (label, moved, window)

    assert active(desktop) == before  # the overlay took no focus from the app
    assert not app.events("window_focus", since=seq, focused=False)
    assert not app.events("entry_focus", since=seq, focused=False)

    hidden = winctl("status-indicator", "hide").out
    assert hidden.startswith("status label hidden")
    assert not [o for o in overlays(desktop) if o["instance"] == "status"]


def test_clicks_pass_through_the_label_to_the_app(desktop, winctl, app):
    winctl("status-indicator", "show", "Working")
    label = only(desktop, "status")["rect"]
    seq = app.mark()
    cx, cy = (label[0] + label[2]) // 2, (label[1] + label[3]) // 2
    winctl("click-at", str(cx), str(cy))
    app.wait_for("clicked", since=seq, widget="Bottom Button")
    x(desktop, "xdotool", "mousemove", str(cx), str(cy), "click", "1")  # a person's click too
    app.wait_for("clicked", since=seq + 1, widget="Bottom Button")


def test_perception_does_not_read_the_label(desktop, winctl, app):
    winctl("status-indicator", "show", "Zebra Quartz Marker")
    only(desktop, "status")
    state = winctl("--json", "state", "--vision", "local").json["result"]
    names = " ".join(t["name"] for t in state["targets"])
    assert "Zebra" not in names and "Quartz" not in names
    assert any("winctl's own status overlay" in w for w in state["warnings"])
    found = winctl("locate", "text:Zebra Quartz Marker", expect=3)
    assert "not found" in found.err
    seen = winctl("--json", "locate", "text:Harbour Road").json["result"]  # the app's own text is read
    assert seen["located"]["method_used"] == "ocr"


def test_each_action_puts_its_target_on_the_label_but_never_the_text(desktop, winctl, app):
    winctl("status-indicator", "show", "Signing up")
    name = winctl.find("Edit", "Name")
    winctl("input", str(name), "hunter2")
    app.wait_for("entry_changed", text="hunter2")
    said = winctl("--json", "status-indicator", "status").json["result"]
    assert said["message"] == "Signing up" and said["doing"] == 'input "Name"'
    label = only(desktop, "status")["rect"]
    assert [said["rect"][k] for k in ("left", "top", "right", "bottom")] == label


def test_teach_mode_is_asked_then_steps_wait_for_next(desktop, winctl, app, tmp_path):
    refused = winctl("teach-step", "--text", "Look here", "--rect", "10", "10", "50", "50", expect=4)
    assert "not allowed" in refused.err and "request-teach-access" in refused.err

    before = active(desktop)
    asking = start(winctl, "request-teach-access", "--reason", "to show the form")
    prompt = only(desktop, "prompt", timeout=20)
    image = grab(winctl)
    assert reads(image.crop(tuple(prompt["rect"])), "guide you"), ocr(image.crop(tuple(prompt["rect"])))
    allow = _button(winctl, "prompt", "allow")
    assert _inside(allow, prompt["rect"])
    click(desktop, allow)
    assert finish(asking)["result"]["answer"] == "granted"

    button = winctl.find("Button", "Bottom Button")
    seq = app.mark()
    step = start(winctl, "teach-step", str(button), "--text", "Press this button", "--timeout", "60")
    bubble_at = _button(winctl, "teach", "bubble")
    teach = [o for o in overlays(desktop) if o["instance"] == "teach"]  # the bubble and the ring around the button
    assert sorted(o["rect"] for o in teach) == sorted([bubble_at, _where(winctl)["teach"]["ring"]]), teach
    bubble = next(o for o in teach if o["rect"] == bubble_at)
    image = grab(winctl)
    assert reads(image.crop(tuple(bubble["rect"])), "Press this button")
    ring = _where(winctl)["teach"]["ring"]
    assert image.getpixel(((ring[0] + ring[2]) // 2, ring[1] + 1)) == RING  # its edge is drawn...
    assert image.getpixel(((ring[0] + ring[2]) // 2, (ring[1] + ring[3]) // 2)) != RING  # ...the button shows inside
    next_ = button_by_colour(image, bubble["rect"], NEXT_BG)
    assert active(desktop) == before
    click(desktop, next_)
    result = finish(step)["result"]
    assert result["ended"] == "next" and result["done"] == 1
    assert not app.events("clicked", since=seq)  # Next was the person's, not the app's
    assert not [o for o in overlays(desktop) if o["instance"] == "teach"]

    late = winctl(
        "--json", "teach-step", "--text", "Nobody clicks", "--rect", "200", "200", "80", "40", "--timeout", "1.5"
    )
    assert late.json["result"]["ended"] == "timeout" and late.json["result"]["done"] == 0

    steps = [
        {"text": "First the name", "id": winctl.find("Edit", "Name")},
        {"text": "Then the button", "id": button},
        {"text": "Last, this corner", "rect": [120, 100, 60, 40]},
    ]
    batch = start(winctl, "teach-batch", json.dumps(steps), "--timeout", "6")
    for n in (1, 2):
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            where = _where(winctl)
            if where["teach"] and reads(grab(winctl).crop(tuple(where["teach"]["bubble"])), f"Step {n} of 3"):
                break
            time.sleep(0.2)
        click(desktop, _where(winctl)["teach"]["next"])
    report = finish(batch)["result"]
    assert report["done"] == 2 and report["total"] == 3 and report["ended"] == "timeout"
    assert report["answers"] == ["next", "next", "timeout"]
    assert active(desktop) == before
    assert not app.events("window_focus", since=seq, focused=False)  # the person's clicks took no focus
    assert not app.events("entry_focus", since=seq, focused=False)


def test_through_the_daemon_the_label_outlives_each_call_and_ends_with_the_session(desktop, daemon, app):
    """The default path: each `winctl` forwards to the session's daemon, which starts the
    overlay process detached; the label stays between calls, and `session close` ends both."""
    daemon("focus", TITLE)
    daemon("status-indicator", "show", "Through the daemon")
    label = only(desktop, "status")
    name = daemon.state()["targets"][0]["id"]
    daemon("click", str(name))
    assert only(desktop, "status")["rect"][1] == label["rect"][1]  # still there after another call
    said = daemon("--json", "status-indicator", "status").json["result"]
    assert said["shown"] and said["doing"] == 'click "Name"'
    closed = daemon("session", "close", "default").out
    assert "default (overlays)" in closed
    deadline = time.monotonic() + 5
    while overlays(desktop) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not overlays(desktop)


def test_a_denied_request_is_an_error_and_session_close_ends_the_overlays(desktop, winctl, app):
    asking = start(winctl, "request-teach-access")
    only(desktop, "prompt", timeout=20)
    click(desktop, _button(winctl, "prompt", "deny"))
    denied = finish(asking, code=4)
    assert "denied" in denied["error"]["message"]
    winctl("teach-step", "--text", "x", "--rect", "1", "1", "9", "9", expect=4)

    folder = winctl.runtime_dir / "winactions" / "sessions" / "default.overlay"
    pid = int((folder / "pid").read_text())
    assert Path(f"/proc/{pid}").exists()
    assert "(overlays)" in winctl("session", "close", "default").out
    deadline = time.monotonic() + 5
    while Path(f"/proc/{pid}").exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not Path(f"/proc/{pid}").exists() or "Z" in Path(f"/proc/{pid}/stat").read_text().split()[2]
    assert not overlays(desktop)


def _where(winctl) -> dict:
    """What the overlay process says it shows (the places of its buttons)."""
    from tests.conftest import environment
    from winactions.overlays import channel

    with environment(winctl.env):
        return channel.ask(winctl.runtime_dir / "winactions" / "sessions" / "default.overlay", {"op": "where"})


def _button(winctl, window: str, name: str) -> list[int]:
    deadline = time.monotonic() + 10
    while True:
        rects = _where(winctl)[window]
        if rects or time.monotonic() > deadline:
            return rects[name]
        time.sleep(0.1)


def _inside(inner: list[int], outer: list[int]) -> bool:
    return outer[0] <= inner[0] and outer[1] <= inner[1] and inner[2] <= outer[2] and inner[3] <= outer[3]


def test_the_label_sits_under_mousepad_and_leaves_it_the_keyboard(desktop, winctl, launch, tmp_path):
    """On an app nobody here wrote: the label shows at the bottom of Mousepad's window, Mousepad
    stays the active window, and what is typed next lands in its document."""
    from tests.fixtures.toolkit_apps import mousepad_command

    (tmp_path / "notes.txt").write_text("shopping\n")
    launch(mousepad_command(tmp_path / "notes.txt"), title="notes.txt")
    winctl("focus", "notes.txt")
    before = active(desktop)
    try:
        winctl("status-indicator", "show", "Editing notes")
        label = only(desktop, "status")
        window = winctl("--json", "windows").json["result"]["windows"]
        box = next(w["rect"] for w in window if "notes.txt" in w["title"])
        rect = [box["left"], box["top"], box["right"], box["bottom"]]
        assert rect[0] <= label["rect"][0] and label["rect"][2] <= rect[2]  # within the window's width
        assert rect[3] - 80 <= label["rect"][3] <= rect[3]  # at its bottom
        assert active(desktop) == before
        winctl("keys", "ctrl+Home")
        winctl("type", "Z")
        state = winctl("--json", "state", "--verbose").json["result"]
        assert any(str(t.get("value") or "").startswith("Zshopping") for t in state["targets"]), state
    finally:
        winctl("session", "close", "default", expect=None)
