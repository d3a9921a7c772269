"""SendInput's coordinate space across monitors, and key names to virtual keys."""

from __future__ import annotations

import pytest

from tests.fixtures.windows.fake_native import FakeNative, load_app
from winactions.backends.windows.bound import key_lparam, make_lparam
from winactions.backends.windows.keymap import chord_vks
from winactions.backends.windows.native import MouseInput
from winactions.backends.windows.sendinput import absolute, text
from winactions.keys import parse_keys
from winactions.model import Rect

LEFT_AND_PRIMARY = [Rect(left=-1920, top=0, right=0, bottom=1080), Rect(left=0, top=0, right=1920, bottom=1080)]


def test_absolute_coordinates_span_the_virtual_desktop_including_negative_monitors():
    virtual = Rect(left=-1920, top=0, right=1920, bottom=1080)
    assert absolute(-1920, 0, virtual) == (0, 0)
    assert absolute(1919, 1079, virtual) == (65535, 65535)
    assert absolute(0, 540, virtual) == (32776, 32798)  # the primary's left edge is mid-desktop


def test_click_at_a_point_on_the_left_monitor(fake, winctl):
    fake.monitors_ = LEFT_AND_PRIMARY
    winctl("click-at", "--", "-100", "500")
    assert MouseInput(-100, 500, ("left_down",)) in fake.sent
    run = winctl("click-at", "--", "-2000", "500", expect=2)
    assert "off every screen" in run.err and "[-1920,0,0,1080]" in run.err


def test_a_drag_arrives_then_presses_then_moves_with_a_pause_between(fake, winctl, monkeypatch):
    import time

    from winactions.backends.base import DRAG_SETTLE

    calls: list[tuple[float, list]] = []
    send = fake.send_input

    def timed(events):
        calls.append((time.monotonic(), list(events)))
        return send(events)

    monkeypatch.setattr(fake, "send_input", timed)
    winctl("focus", "Settings")
    calls.clear()
    winctl("drag-at", "300", "335", "420", "335")
    (arrive, moved), (press, pressed), (first_move, _) = calls[:3]
    assert moved == [MouseInput(300, 335, ("move",))] and pressed == [MouseInput(300, 335, ("left_down",))]
    assert press - arrive >= DRAG_SETTLE and first_move - press >= DRAG_SETTLE
    assert calls[-1][1] == [MouseInput(420, 335, ("left_up",))]


def test_packed_coordinates_keep_their_sign():
    assert make_lparam(-5, 10) == (10 << 16) | 0xFFFB
    assert key_lparam(0x1F, up=True, alt=True, extended=False) == 1 | 0x1F << 16 | 1 << 29 | 1 << 30 | 1 << 31


def test_key_names_map_to_virtual_keys_through_the_layout():
    scan = FakeNative([load_app("notepad")]).key_scan
    assert chord_vks(parse_keys("ctrl+shift+s")[0], scan) == ([0x11, 0x10], ord("S"))
    assert chord_vks(parse_keys("ctrl+plus")[0], scan) == ([0x11, 0x10], 0xBB), "'+' is shift and '=' in US"
    assert chord_vks(parse_keys("alt+F4")[0], scan) == ([0x12], 0x73)
    with pytest.raises(ValueError, match="no key on this keyboard layout"):
        chord_vks(parse_keys("ctrl+é")[0], scan)


def test_typed_text_is_utf16_units_and_newlines_are_enter():
    events = text("a\n😀")
    assert [(e.vk, e.char, e.up) for e in events] == [
        (0, ord("a"), False),
        (0, ord("a"), True),
        (0x0D, 0, False),
        (0x0D, 0, True),
        (0, 0xD83D, False),
        (0, 0xD83D, True),
        (0, 0xDE00, False),
        (0, 0xDE00, True),
    ]


def test_blocked_input_is_an_error_not_a_silent_success(fake, winctl):
    fake.block_input = True
    winctl("focus", "Notepad", expect=None)
    run = winctl("type", "x", expect=4)
    assert "inserted 0 of" in run.err and "UAC" in run.err
