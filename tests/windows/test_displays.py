"""`displays` and `switch-display` on the Windows backend: the monitors are the fake
desktop's (`monitors()`), named in order, the one at (0, 0) primary."""

from __future__ import annotations

from winactions.model import Rect


def test_the_monitors_are_listed_and_one_is_chosen(winctl, fake) -> None:
    fake.monitors_ = [Rect(left=0, top=0, right=1920, bottom=1080), Rect(left=1920, top=0, right=3840, bottom=1080)]
    listed = winctl("--json", "displays").json["result"]
    assert [(d["name"], d["rect"], d["primary"]) for d in listed["displays"]] == [
        ("screen 0", [0, 0, 1920, 1080], True),
        ("screen 1", [1920, 0, 3840, 1080], False),
    ]
    notepad = winctl("--json", "windows").json["result"]["windows"][0]
    winctl("switch-display", "1")
    moved = winctl("--json", "windows").json["result"]
    assert moved["display"]["index"] == 1
    assert moved["windows"][0]["rect"]["left"] == notepad["rect"]["left"] - 1920  # relative to monitor 1
    refused = winctl("switch-display", "2", expect=2)
    assert "there is no display 2" in refused.err and "1 screen 1 (1920,0 1920x1080)" in refused.err
    winctl("switch-display", "all")
    assert winctl("--json", "windows").json["result"]["windows"][0]["rect"] == notepad["rect"]
