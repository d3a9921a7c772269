"""Locator strategies, validation, cache, assets and fixed points on real screenshots of real apps
(`tests/fixtures/screens`, recorded with ground truth from the accessibility tree)."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from winactions.errors import InvalidInput, NotFound
from winactions.locate.assets import AssetLibrary
from winactions.locate.cache import LocateCache
from winactions.locate.fixed import FixedPoints
from winactions.locate.ocr import find_text
from winactions.locate.template import find_template, load_image
from winactions.locate.validate import point_on_screens, validate
from winactions.model import Rect, WindowInfo
from winactions.perception.shapes import detect_widgets

SCREENS = Path(__file__).parent / "fixtures" / "screens"


def screen(app: str) -> tuple[np.ndarray, dict]:
    return cv2.imread(str(SCREENS / f"{app}.png")), json.loads((SCREENS / f"{app}.json").read_text())


def rect(t: dict) -> Rect:
    return Rect(left=t["rect"][0], top=t["rect"][1], right=t["rect"][2], bottom=t["rect"][3])


def window_crop(image: np.ndarray, truth: dict) -> tuple[np.ndarray, tuple[int, int]]:
    w = truth["window"]["rect"]
    return image[w["top"] : w["bottom"], w["left"] : w["right"]], (w["left"], w["top"])


def visible_label(t: dict) -> bool:
    """Elements whose name is written on them (icon buttons' names are not)."""
    r = rect(t)
    return bool(t["name"].strip()) and t["name"].isascii() and r.width >= len(t["name"]) * 0.35 * r.height


LABELLED = ("Button", "Menu", "CheckBox", "RadioButton", "HeaderItem", "Text", "Hyperlink", "Heading", "PageTab")


# -- template ------------------------------------------------------------------------------
def test_template_finds_every_control_of_the_gtk_window():
    image, truth = screen("gtk_fixture")
    controls = [t for t in truth["targets"] if t["type"] in ("Button", "CheckBox", "RadioButton", "Menu", "ComboBox")]
    assert len(controls) >= 10
    for t in controls:
        r = rect(t)
        found = find_template(image, image[r.top : r.bottom, r.left : r.right])
        assert found and r.contains(*found[0].rect.center), t
        assert found[0].method == "template:exact" and found[0].confidence >= 0.95


@pytest.mark.parametrize("scale", [0.8, 1.25])
def test_template_survives_a_scale_change(scale):
    image, truth = screen("gtk_fixture")
    screen_scaled = cv2.resize(image, None, fx=scale, fy=scale)
    for name in ("Apply", "Open Dialog", "Add Row"):
        r = rect(next(t for t in truth["targets"] if t["name"] == name and t["type"] == "Button"))
        found = find_template(screen_scaled, image[r.top : r.bottom, r.left : r.right])
        truth_scaled = Rect(
            left=round(r.left * scale),
            top=round(r.top * scale),
            right=round(r.right * scale),
            bottom=round(r.bottom * scale),
        )
        assert found and truth_scaled.contains(*found[0].rect.center)
        assert found[0].method == "template:multiscale" and abs(float(found[0].detail["scale"]) - scale) < 0.08


def test_template_orb_finds_a_rotated_region():
    image, truth = screen("gtk_fixture")
    w = truth["window"]["rect"]
    region = image[w["top"] + 30 : w["top"] + 200, w["left"] : w["left"] + 470].copy()  # toolbar and form
    h, wd = region.shape[:2]
    rotation = cv2.getRotationMatrix2D((wd / 2, h / 2), 8, 1.0)
    rotated = cv2.warpAffine(region, rotation, (wd, h), borderValue=(0, 0, 0))
    found = find_template(image, rotated, threshold=0.5)
    assert found and found[0].method == "template:orb"
    cx, cy = found[0].rect.center
    assert abs(cx - (w["left"] + wd // 2)) < 25 and abs(cy - (w["top"] + 30 + h // 2)) < 25


def test_template_absent_flat_missing_and_hint():
    image, truth = screen("gtk_fixture")
    chrome, _ = screen("chromium_form")
    other = chrome[300:340, 120:230]  # a piece of the Chromium page: not on the GTK screen
    assert find_template(image, other) == []
    with pytest.raises(InvalidInput, match="flat colour"):
        find_template(image, np.full((20, 20, 3), 200, np.uint8))
    with pytest.raises(InvalidInput, match="does not exist"):
        load_image("/nonexistent/run_button.png")
    r = rect(next(t for t in truth["targets"] if t["name"] == "Reset"))
    crop = image[r.top : r.bottom, r.left : r.right]
    hinted = find_template(image[50:, 20:], crop, origin=(20, 50), hint=r)
    assert hinted[0].detail["stage"] == "hint" and hinted[0].rect == r


# -- OCR -------------------------------------------------------------------------------------
@pytest.mark.parametrize("app", ["gtk_fixture", "chromium_form"])
def test_ocr_finds_visible_labels(app):
    image, truth = screen(app)
    crop, origin = window_crop(image, truth)
    w = truth["window"]["rect"]
    labels = {
        t["name"]: []
        for t in truth["targets"]
        if t["type"] in LABELLED and visible_label(t) and rect(t).left >= w["left"] and rect(t).right <= w["right"]
    }
    for t in truth["targets"]:
        if t["name"] in labels:
            labels[t["name"]].append(rect(t))
    hits = 0
    for name, rects in labels.items():
        found = find_text(crop, name, origin=origin)
        hits += bool(found) and any(r.contains(*found[0].rect.center) for r in rects)
    assert len(labels) >= 8 and hits / len(labels) >= 0.9, (hits, len(labels))


def test_ocr_modes_substring_absent_and_errors():
    image, truth = screen("gtk_fixture")
    crop, origin = window_crop(image, truth)
    dialog = rect(next(t for t in truth["targets"] if t["name"] == "Open Dialog"))
    for query in ("open dialog", "Opn Dialog"):
        found = find_text(crop, query, origin=origin)
        assert found and dialog.contains(*found[0].rect.center), query
    assert find_text(crop, "open dialog", origin=origin)[0].detail["mode"] == "ci"
    assert find_text(crop, "Opn Dialog", origin=origin)[0].detail["mode"] == "fuzzy"
    help_menu = rect(next(t for t in truth["targets"] if t["name"] == "Help"))
    found = find_text(crop, "Help", origin=origin)  # OCR reads "Edit Help" as one line
    assert found and help_menu.contains(*found[0].rect.center)
    assert find_text(crop, "Quarterly revenue forecast", origin=origin) == []
    with pytest.raises(InvalidInput, match="empty"):
        find_text(crop, "   ")


# -- shapes (Tier 2 local) ---------------------------------------------------------------------
def test_shapes_find_controls_and_the_icon_only_button():
    image, truth = screen("gtk_fixture")
    crop, origin = window_crop(image, truth)
    found = detect_widgets(crop, origin=origin)
    wanted = [t for t in truth["targets"] if t["type"] in ("Button", "Edit", "ComboBox", "CheckBox")]

    def hit(t: dict) -> bool:
        r = rect(t)
        return any(r.contains(*c.rect.center) or r.iou(c.rect) >= 0.5 for c in found)

    assert sum(hit(t) for t in wanted) / len(wanted) >= 0.8
    icon_button = next(t for t in wanted if t["type"] == "Button" and t["name"] == "")
    assert hit(icon_button)
    assert detect_widgets(np.full((300, 400, 3), 240, np.uint8)) == []


# -- validation --------------------------------------------------------------------------------
def test_validation_on_and_off_screens_with_a_left_monitor():
    screens = [Rect(left=-1280, top=0, right=0, bottom=1024), Rect(left=0, top=0, right=1920, bottom=1080)]
    left = validate(Rect(left=-600, top=100, right=-500, bottom=140), screens)
    assert left.valid and left.click_point == (-550, 120) and left.can_interact
    off = validate(Rect(left=2000, top=100, right=2100, bottom=140), screens)
    assert not off.valid and "off every screen" in (off.error or "")
    partial = validate(Rect(left=1880, top=500, right=1980, bottom=540), screens)
    assert partial.valid and partial.visible_fraction == 0.4
    assert partial.safe_region == Rect(left=1882, top=502, right=1918, bottom=538)
    assert partial.click_point == partial.safe_region.center and not partial.can_interact
    assert not point_on_screens(-10, 1050, screens).valid and point_on_screens(-10, 1000, screens).valid


def test_a_small_box_seen_whole_is_clickable_but_a_sliver_of_a_hidden_one_is_not():
    screens = [Rect(left=0, top=0, right=1920, bottom=1080)]
    minus = validate(Rect(left=989, top=614, right=999, bottom=616), screens)  # the glyph of a "−" key
    assert minus.can_interact and minus.click_point == (994, 615)
    sliver = validate(Rect(left=1917, top=500, right=1957, bottom=540), screens)  # 3 px of it on screen
    assert sliver.valid and not sliver.can_interact


# -- cache ---------------------------------------------------------------------------------------
def test_cache_hits_only_while_fresh_and_the_pixels_match():
    image, _ = screen("gtk_fixture")
    grey = image.mean(axis=2)
    now = [0.0]
    cache = LocateCache(ttl=30, clock=lambda: now[0])
    box = Rect(left=70, top=100, right=180, bottom=130)
    pixels = grey[box.top : box.bottom, box.left : box.right]
    cache.put("apply", "result", box, pixels)
    assert cache.get("apply", lambda r: grey[r.top : r.bottom, r.left : r.right]) == "result"
    changed = grey.copy()
    changed[box.top : box.bottom, box.left : box.right] = 0  # the element moved away: something else is there
    assert cache.get("apply", lambda r: changed[r.top : r.bottom, r.left : r.right]) is None
    cache.put("apply", "result", box, pixels)
    now[0] = 31.0
    assert cache.get("apply", lambda r: grey[r.top : r.bottom, r.left : r.right]) is None
    assert cache.stats["hits"] == 1 and cache.stats["misses"] == 2 and cache.stats["stale"] == 2
    cache.put("x", 1, box, pixels)
    assert cache.clear() == 1 and cache.stats["entries"] == 0


# -- assets and fixed points ---------------------------------------------------------------------
def test_asset_library_names_aliases_variants_and_errors(tmp_path):
    (tmp_path / "editor").mkdir()
    (tmp_path / "common").mkdir()
    for name in ("run_button.png", "run_button_v3.png", "run_button_v2.png"):
        (tmp_path / "editor" / name).write_bytes(b"png")
    (tmp_path / "common" / "close.png").write_bytes(b"png")
    (tmp_path / "index.json").write_text(
        json.dumps({"run_button": {"aliases": ["Run", "运行"], "app": "editor", "description": "the green run button"}})
    )
    library = AssetLibrary.open(tmp_path)
    asset = library.resolve("运行")
    assert asset.name == "run_button" and asset.description == "the green run button"
    assert [p.name for p in asset.images] == ["run_button.png", "run_button_v2.png", "run_button_v3.png"]
    assert library.resolve("CLOSE").images[0].name == "close.png"
    with pytest.raises(NotFound, match="no reference image for 'save'"):
        library.resolve("save")
    (tmp_path / "index.json").write_text("{not json")
    with pytest.raises(InvalidInput, match="not valid JSON"):
        AssetLibrary.open(tmp_path)


def test_fixed_points_follow_the_window(tmp_path):
    config = tmp_path / "fixed.json"
    config.write_text(
        json.dumps(
            {
                "apps": {
                    "python3": {"play": {"rect": [10, 20, 50, 60]}, "tray": {"x": 100, "y": 5, "relative_to": "screen"}}
                }
            }
        )
    )
    points = FixedPoints.open(config)
    window = WindowInfo(
        id="0x1", title="App", pid=1, process="python3", rect=Rect(left=300, top=200, right=900, bottom=700)
    )
    assert points.find("play", window)[0].rect == Rect(left=310, top=220, right=350, bottom=260)
    assert points.find("tray", window)[0].rect.center == (100, 5)
    assert points.find("nothing", window) == []
    assert FixedPoints.open(tmp_path / "missing.json").apps == {}
    config.write_text(json.dumps({"apps": {"python3": {"bad": {"x": "left"}}}}))
    with pytest.raises(InvalidInput, match="integer x and y"):
        FixedPoints.open(config).find("bad", window)
