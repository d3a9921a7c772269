"""Template search with seed 004's scale tolerance (0.5-1.5x), on real screenshots of real apps.

Truth comes from the apps' accessibility trees (`tests/fixtures/screens`, and a calculator
nobody here wrote rendered live at 1x and 2x). A reference is a control's crop at 1x; the
window it is searched in is drawn at another scale, as on a display of another density. A
find counts when its click point lies in the control's true rect; where the control was
painted over, nothing may be found. Speed is the benchmark's business (benchmarks/locate.py),
not these tests'.
"""

from __future__ import annotations

import json
import subprocess
import time
from pathlib import Path

import cv2
import numpy as np
import pytest

from tests.conftest import Winctl, stop_app, wait_for_window
from tests.fixtures.toolkit_apps import isolated_env
from winactions.errors import InvalidInput
from winactions.locate.scales import Pyramid, _scores, coarse_scores
from winactions.locate.template import find_template
from winactions.model import Rect

SCREENS = Path(__file__).parent / "fixtures" / "screens"
SCALES = (0.5, 0.6, 0.75, 1.0, 1.25, 1.5)
CONTROLS = ("Button", "CheckBox", "RadioButton", "Menu", "ComboBox", "HeaderItem", "PageTab")

# Controls found at every scale: text buttons, menus, radio buttons, headers, browser icons.
FOUND_EVERYWHERE = {
    "gtk_fixture": [("Menu", "File"), ("Menu", "Edit"), ("Menu", "Help"), ("ComboBox", "Red"), ("RadioButton", "Large"),
                    ("RadioButton", "Small"), ("Button", "Add Row"), ("Button", "Open Dialog"), ("Button", "Apply"),
                    ("HeaderItem", "Name")],
    "chromium_form": [("Button", "Minimize"), ("Button", "Maximize"), ("Button", "Back"), ("Button", "Forward"),
                      ("Button", "Reload"), ("Button", "File"), ("Button", "Bookmark this tab"), ("Button", "You"),
                      ("ComboBox", "Shipping"), ("HeaderItem", "Name"), ("HeaderItem", "Qty"),
                      ("HeaderItem", "Price"), ("Button", "Tab search"), ("Button", "New Tab")],
}
# Controls with no look-alike left on screen once they are painted over (unlike Chromium's
# several close crosses, or its back and forward arrows, which mirror each other).
UNIQUE = {
    "gtk_fixture": [("Menu", "Edit"), ("Menu", "Help"), ("ComboBox", "Red"), ("RadioButton", "Large"),
                    ("RadioButton", "Small"), ("CheckBox", "Enable feature"), ("Button", "Add Row"),
                    ("Button", "Open Dialog"), ("Button", "Reset"), ("Button", "Apply"), ("HeaderItem", "ID"),
                    ("HeaderItem", "Size")],
    "chromium_form": [("Button", "File"), ("Button", "Bookmark this tab"), ("Button", "You"),
                      ("Button", "Place order"), ("ComboBox", "Shipping"), ("HeaderItem", "Name"),
                      ("HeaderItem", "Qty"), ("HeaderItem", "Price")],
}


def screen(app: str) -> tuple[np.ndarray, dict]:
    return cv2.imread(str(SCREENS / f"{app}.png")), json.loads((SCREENS / f"{app}.json").read_text())


def rect(t: dict) -> Rect:
    return Rect(left=t["rect"][0], top=t["rect"][1], right=t["rect"][2], bottom=t["rect"][3])


def target(truth: dict, kind: str, name: str) -> Rect:
    return rect(next(t for t in truth["targets"] if t["type"] == kind and t["name"] == name))


def scaled(r: Rect, scale: float) -> Rect:
    return Rect(left=round(r.left * scale), top=round(r.top * scale), right=round(r.right * scale),
                bottom=round(r.bottom * scale))


def window_at(image: np.ndarray, truth: dict, scale: float) -> tuple[np.ndarray, tuple[int, int]]:
    """The screenshot drawn at `scale`, cropped to the app's window (what the locator searches)."""
    if scale != 1.0:
        image = cv2.resize(image, None, fx=scale, fy=scale,
                           interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR)
    w = scaled(Rect(**truth["window"]["rect"]), scale)
    return image[w.top:w.bottom, w.left:w.right], (w.left, w.top)


def erased(image: np.ndarray, r: Rect) -> np.ndarray:
    """The screenshot with the control painted over in the colour around it."""
    out = image.copy()
    ring = np.concatenate([image[r.top - 2, r.left:r.right], image[r.bottom + 1, r.left:r.right]])
    out[r.top:r.bottom, r.left:r.right] = np.median(ring, axis=0).astype(np.uint8)
    return out


@pytest.mark.parametrize("scale", SCALES)
def test_references_are_found_drawn_half_to_one_and_a_half_times_their_size(scale):
    for app, controls in FOUND_EVERYWHERE.items():
        image, truth = screen(app)
        window, origin = window_at(image, truth, scale)
        for kind, name in controls:
            r = target(truth, kind, name)
            found = find_template(window, image[r.top:r.bottom, r.left:r.right], origin=origin)
            assert found, (app, name, scale)
            best = found[0]
            assert scaled(r, scale).contains(*best.rect.center), (app, name, scale, best)
            assert best.confidence >= 0.75
            if scale == 1.0:
                assert best.method == "template:exact"
            elif best.method == "template:multiscale":  # an icon on a flat margin may also match at 1x
                # the size it was seen at: within 3 px or a fifth of the true one (an icon's flat
                # margin leaves its scale only roughly determined)
                assert abs(best.rect.width - r.width * scale) <= max(3.0, 0.2 * r.width * scale), (best, scale)
                assert abs(best.rect.height - r.height * scale) <= max(3.0, 0.2 * r.height * scale), (best, scale)


@pytest.mark.parametrize("scale", SCALES)
def test_most_controls_of_both_windows_are_found_at_each_scale(scale):
    """Every control of both windows, look-alikes included: a Chromium close cross found at
    another close cross counts as a miss."""
    right = total = 0
    for app in FOUND_EVERYWHERE:
        image, truth = screen(app)
        window, origin = window_at(image, truth, scale)
        w = Rect(**truth["window"]["rect"])
        for t in truth["targets"]:
            r = rect(t)
            if t["type"] not in CONTROLS or not (w.left <= r.left and r.right <= w.right and w.top <= r.top
                                                 and r.bottom <= w.bottom):
                continue
            total += 1
            found = find_template(window, image[r.top:r.bottom, r.left:r.right], origin=origin)
            right += bool(found) and scaled(r, scale).contains(*found[0].rect.center)
    assert total >= 30
    assert right >= 0.8 * total, (right, total)


@pytest.mark.parametrize("scale", SCALES)
def test_nothing_is_found_where_the_control_was_painted_over(scale):
    for app, controls in UNIQUE.items():
        image, truth = screen(app)
        for kind, name in controls:
            r = target(truth, kind, name)
            window, origin = window_at(erased(image, r), truth, scale)
            assert find_template(window, image[r.top:r.bottom, r.left:r.right], origin=origin) == [], \
                (app, name, scale)


def test_scale_range_must_be_a_range():
    image, truth = screen("gtk_fixture")
    r = target(truth, "Button", "Apply")
    crop = image[r.top:r.bottom, r.left:r.right]
    for bad in ((1.5, 0.5), (0.0, 1.5), (-1.0, 1.0), (0.5, 5.0)):
        with pytest.raises(InvalidInput, match="scales"):
            find_template(image, crop, scales=bad)
    found = find_template(cv2.resize(image, None, fx=2.0, fy=2.0), crop, scales=(1.5, 2.5))
    assert found and scaled(r, 2.0).contains(*found[0].rect.center)
    assert abs(float(found[0].detail["scale"]) - 2.0) < 0.1


# -- the coarse search's own arithmetic ------------------------------------------------------
def test_coarse_scores_agree_with_opencv_on_real_screens():
    """`coarse_scores` (box sums and a direct or DFT correlation) is OpenCV's TM_CCOEFF_NORMED
    wherever the window has any spread, for every size the coarse levels use; a flat window
    scores 0 where OpenCV answers NaN or +-1: never a peak."""
    checked = 0
    for app in FOUND_EVERYWHERE:
        image, truth = screen(app)
        grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
        pyramid = Pyramid(grey)
        for kx, ky in ((1, 1), (3, 0), (2, 1), (4, 2)):
            level, floats = pyramid.level(kx, ky), pyramid.floats(kx, ky)
            for t in truth["targets"][:25]:
                r = rect(t)
                crop = grey[r.top:r.bottom, r.left:r.right]
                for size in ((4, 8), (8, 4), (12, 9), (24, 10), (40, 25)):
                    small = cv2.resize(crop, size, interpolation=cv2.INTER_AREA) if crop.size else crop
                    if not crop.size or float(small.std()) < 1 or size[0] > level.shape[1] or size[1] > level.shape[0]:
                        continue
                    ours, theirs = coarse_scores(floats, small), _scores(level, small)
                    assert ours.shape == theirs.shape
                    mean = cv2.boxFilter(level.astype(np.float32), -1, size, anchor=(0, 0))
                    square = cv2.sqrBoxFilter(level.astype(np.float32), -1, size, anchor=(0, 0))
                    spread = (square - mean * mean)[:ours.shape[0], :ours.shape[1]] > 1.0
                    assert np.abs(ours - theirs)[spread].max(initial=0.0) < 0.01, (app, kx, ky, size)
                    assert (np.abs(ours[~spread]) <= 1.0).all()
                    kernel = np.ones(size[::-1], np.uint8)
                    flat = (cv2.dilate(level, kernel, anchor=(0, 0)) == cv2.erode(level, kernel, anchor=(0, 0)))
                    assert (np.abs(ours[flat[:ours.shape[0], :ours.shape[1]]]) < 1e-3).all()
                    checked += 1
    assert checked >= 200


def test_pyramid_levels_are_exact_halvings():
    """Each level pixel is the mean of the 2 or 4 pixels it covers (odd edges dropped), as an
    area resize would make it, so coarse coordinates map back by exact powers of two."""
    image, _ = screen("chromium_form")
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)[:, :-1]  # an odd width
    pyramid = Pyramid(grey)
    h, w = grey.shape
    for kx, ky in ((1, 0), (0, 1), (1, 1), (3, 1), (2, 3)):
        level = pyramid.level(kx, ky)
        fx, fy = 2 ** kx, 2 ** ky
        assert level.shape == (h // fy, w // fx)
        block = grey[:level.shape[0] * fy, :level.shape[1] * fx].astype(np.float32)
        truth = block.reshape(level.shape[0], fy, level.shape[1], fx).mean(axis=(1, 3))
        # each halving rounds once: at most half a grey level per halving
        assert np.abs(level - truth).max() <= (kx + ky) / 2 + 0.5, (kx, ky)


# -- a real app rendered at two densities ---------------------------------------------------
def _calculator(desktop, winctl: Winctl, home: Path, density: int, out: Path) -> tuple[np.ndarray, dict]:
    """galculator drawn at GDK_SCALE=`density`: its window's pixels and its `winctl state`."""
    env = {**desktop.env, **isolated_env(home), "GDK_SCALE": str(density)}
    proc = subprocess.Popen(["galculator"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_for_window(desktop, "galculator")
        deadline = time.monotonic() + 20
        # at 2x AT-SPI clips most keys away (see below): there the window is all we read
        while density == 1 and sum(t["type"] == "Button" for t in winctl.state("--verbose")["targets"]) < 20:
            assert time.monotonic() < deadline, "galculator's keys never showed in its tree"
            time.sleep(0.3)
        # the pointer away from the keys: no hover highlight, no tooltip over them
        subprocess.run(["xdotool", "mousemove", "0", "0"], env=desktop.env, check=True)
        time.sleep(1.0)
        winctl("screenshot", "--screen", str(out))
        state = winctl.state("--verbose")
    finally:
        stop_app(proc)
        deadline = time.monotonic() + 10
        while subprocess.run(["wmctrl", "-l"], env=desktop.env, capture_output=True,
                             text=True).stdout.count("galculator") and time.monotonic() < deadline:
            time.sleep(0.1)
    w = Rect(**state["window"]["rect"])
    return cv2.imread(str(out))[w.top:w.bottom, w.left:w.right], state


@pytest.mark.desktop
def test_calculator_keys_found_across_display_densities(desktop, winctl, tmp_path):
    """The same calculator rendered by GTK at 1x and 2x (fonts hinted anew, not resampled): a
    key's 2x crop is found in the 1x window (scale 0.5) and its 1x crop in the 2x window
    (scale 2, with the range widened to it). The keys share one frame and differ by a glyph a
    few pixels wide, so some are refused; none may be found on another key."""
    single, state = _calculator(desktop, winctl, tmp_path / "home1", 1, tmp_path / "1x.png")
    double, _ = _calculator(desktop, winctl, tmp_path / "home2", 2, tmp_path / "2x.png")
    # AT-SPI reports GDK_SCALE=2 extents in logical pixels: the 2x truth is the 1x truth doubled,
    # which holds because the 2x window is exactly twice the 1x one
    assert double.shape[:2] == (2 * single.shape[0], 2 * single.shape[1])
    w = Rect(**state["window"]["rect"])
    keys = [Rect(left=t["rect"][0] - w.left, top=t["rect"][1] - w.top, right=t["rect"][2] - w.left,
                 bottom=t["rect"][3] - w.top) for t in state["targets"] if t["type"] == "Button"]
    assert len(keys) >= 25
    down = up = 0
    for r in keys:
        r2 = scaled(r, 2.0)
        found = find_template(single, double[r2.top:r2.bottom, r2.left:r2.right])
        if found:
            assert r.contains(*found[0].rect.center), (r, found[0])
            assert abs(float(found[0].detail["scale"]) - 0.5) < 0.05
            down += 1
        found = find_template(double, single[r.top:r.bottom, r.left:r.right], scales=(0.5, 2.0))
        if found:
            assert r2.contains(*found[0].rect.center), (r2, found[0])
            up += 1
    assert down >= 0.6 * len(keys) and up >= 0.6 * len(keys), (down, up, len(keys))
