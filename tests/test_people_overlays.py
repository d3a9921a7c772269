"""The overlays' geometry and the perception mask, without a display: where the status label
and a teach step's bubble go, how an overlay is painted out of a capture, and how the teach
commands take their targets."""

from __future__ import annotations

import pytest
from click.testing import CliRunner
from PIL import Image

from winactions.backends.own_pixels import paint_out
from winactions.commands.people import TeachStepParams, _steps
from winactions.errors import InvalidInput
from winactions.model import Rect
from winactions.overlays import placement

SCREEN = Rect(left=0, top=0, right=1920, bottom=1080)


def test_the_label_is_centred_inside_the_windows_bottom_edge():
    window = Rect.from_xywh(100, 80, 640, 420)
    label = placement.status_label(window, (200, 28), [SCREEN])
    assert label == Rect.from_xywh(320, 500 - 8 - 28, 200, 28)


def test_a_label_wider_than_the_window_is_cut_to_it_but_never_below_120_px():
    assert placement.status_label(Rect.from_xywh(0, 0, 300, 200), (900, 28), [SCREEN]).width == 300 - 16
    assert placement.status_label(Rect.from_xywh(500, 500, 60, 60), (900, 28), [SCREEN]).width == 120


def test_a_window_past_the_screens_bottom_keeps_its_label_on_screen():
    window = Rect.from_xywh(200, 900, 600, 500)  # its bottom 320 px below the screen
    label = placement.status_label(window, (200, 28), [SCREEN])
    assert label.bottom == SCREEN.bottom - 8 and SCREEN.encloses(label)


def test_the_label_stays_on_the_window_s_own_screen():
    left, right = Rect.from_xywh(0, 0, 1920, 1080), Rect.from_xywh(1920, 0, 1280, 1024)
    window = Rect.from_xywh(2000, 100, 800, 600)
    label = placement.status_label(window, (200, 28), [left, right])
    assert right.encloses(label) and label.center[0] == window.center[0]
    hanging = placement.status_label(Rect.from_xywh(1700, 100, 400, 300), (300, 28), [left, right])
    assert left.encloses(hanging)  # moved whole onto the screen holding the window's centre


def test_the_bubble_goes_below_then_above_then_beside_never_over_the_element():
    size = (300, 120)
    middle = Rect.from_xywh(800, 400, 100, 30)
    below = placement.bubble(middle, size, [SCREEN])
    assert below.top >= placement.ring(middle).bottom and below.intersect(middle) is None
    low = Rect.from_xywh(800, 1000, 100, 30)
    above = placement.bubble(low, size, [SCREEN])
    assert above.bottom <= placement.ring(low).top
    tall = Rect.from_xywh(100, 50, 100, 1000)  # no room above or below: beside it
    beside = placement.bubble(tall, size, [SCREEN])
    assert beside.left >= placement.ring(tall).right and SCREEN.encloses(beside)


def test_a_bubble_with_no_room_anywhere_sits_at_the_screen_bottom():
    everything = Rect.from_xywh(10, 10, 1900, 1060)
    bubble = placement.bubble(everything, (300, 120), [SCREEN])
    assert bubble.bottom == SCREEN.bottom and SCREEN.encloses(bubble)


def test_paint_out_fills_an_overlay_with_the_colour_around_it():
    image = Image.new("RGB", (200, 100), (240, 240, 240))
    image.paste((20, 30, 40), (50, 40, 150, 70))  # the label
    image.paste((255, 255, 255), (60, 50, 70, 60))  # its text
    out = paint_out(image, (1000, 500), [Rect.from_xywh(1050, 540, 100, 30)])
    assert out.getpixel((65, 55)) == (240, 240, 240) and out.getpixel((100, 45)) == (240, 240, 240)
    assert image.getpixel((65, 55)) == (255, 255, 255)  # the capture given is not changed
    assert paint_out(image, (0, 0), [Rect.from_xywh(500, 500, 10, 10)]) is image  # not over it: as it was


def test_a_teach_step_takes_an_id_or_a_rect_one_of_them():
    assert TeachStepParams(text="Here", id=5).rect is None
    assert TeachStepParams(text="Here", rect=[1, 2, 3, 4]).id is None
    for bad in ({"text": "Here"}, {"text": "Here", "id": 5, "rect": [1, 2, 3, 4]}, {"text": "x", "rect": [1, 2, 0, 4]}):
        with pytest.raises(ValueError):
            TeachStepParams(**bad)
    with pytest.raises(ValueError):
        TeachStepParams(text="x", rect=[1, 2, 3])


def test_teach_batch_steps_are_a_json_list_each_with_one_target():
    assert [s.id for s in _steps('[{"text": "a", "id": 3}, {"text": "b", "rect": [1, 2, 3, 4]}]')] == [3, None]
    for bad in ("not json", "[]", '{"text": "a"}', '[{"text": "a"}]', '[{"text": "a", "id": 1, "rect": [1, 2, 3, 4]}]'):
        with pytest.raises(InvalidInput):
            _steps(bad)


def test_rect_is_one_option_of_four_numbers_on_the_command_line():
    from winactions.cli.app import build_cli

    help_text = CliRunner().invoke(build_cli(), ["teach-step", "--help"]).output
    assert "--rect INTEGER..." in help_text
    bad = CliRunner().invoke(build_cli(), ["teach-step", "--text", "x", "--rect", "1", "2"])
    assert bad.exit_code == 2 and "--rect" in bad.output
