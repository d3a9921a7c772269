"""Pixel density travels with images (`locate.density`): a reference says the density it was
captured at (its `@2x` name, or the chunk `winctl screenshot` writes), a window says its own
(`Backend.density`), and the template search starts at their ratio, even beyond seed 004's
0.5-1.5x tolerance (a 1x crop on a 2x display is drawn twice its size).

The pictures are real calculators' keypads (tests/fixtures/screens/keypads, truth from their
trees), drawn at another size by resampling."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest
from PIL import Image, PngImagePlugin

from winactions import screenshots
from winactions.backends.linux.density import told
from winactions.locate import density
from winactions.locate.match import match_files
from winactions.locate.template import find_template
from winactions.model import Rect

KEYPADS = Path(__file__).parent / "fixtures" / "screens" / "keypads"


def keypad(name: str) -> tuple[np.ndarray, list[dict]]:
    return cv2.imread(str(KEYPADS / f"{name}.png")), json.loads((KEYPADS / f"{name}.json").read_text())["labels"]


def drawn(image: np.ndarray, scale: float) -> np.ndarray:
    return np.ascontiguousarray(
        cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR)
    )


def scaled(r: list[int], scale: float) -> Rect:
    return Rect(
        left=round(r[0] * scale), top=round(r[1] * scale), right=round(r[2] * scale), bottom=round(r[3] * scale)
    )


# -- what a file says ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("save@2x.png", 2.0),
        ("save@1.5x.png", 1.5),
        ("save.png", None),
        ("save@100x.png", None),
        ("save@x.png", None),
        ("me@2x-ish.png", None),
    ],
)
def test_a_name_says_its_density_in_the_convention_of_apple_and_the_web(tmp_path, name, expected):
    path = tmp_path / name
    Image.new("RGB", (8, 8)).save(path)
    assert density.recorded(path) == expected


def test_a_screenshot_records_the_density_it_was_taken_at(tmp_path):
    """`winctl screenshot` writes the window's density into the PNG: read back by us, and shown
    by image viewers as its DPI (96 per 1x)."""
    path = screenshots.save_png(Image.new("RGB", (8, 8)), tmp_path / "shot.png", density.pnginfo(1.25))
    assert density.recorded(path) == 1.25
    with Image.open(path) as image:
        assert [round(v) for v in image.info["dpi"]] == [120, 120]
    unknown = screenshots.save_png(Image.new("RGB", (8, 8)), tmp_path / "plain.png")
    assert density.recorded(unknown) is None


def test_a_file_that_says_nonsense_or_is_no_image_says_nothing(tmp_path):
    garbage = tmp_path / "ref.png"
    garbage.write_bytes(b"not a png")
    assert density.recorded(garbage) is None  # the image reader says what is wrong, where it reads
    assert density.recorded(tmp_path / "missing.png") is None
    info = PngImagePlugin.PngInfo()
    info.add_text(density.KEY, "lots")
    Image.new("RGB", (8, 8)).save(tmp_path / "odd.png", pnginfo=info)
    assert density.recorded(tmp_path / "odd.png") is None


# -- where to look --------------------------------------------------------------------------------
def test_both_densities_known_centre_a_narrower_range_on_their_ratio():
    assert density.search(2.0, 1.0) == density.Search((0.35, 0.7), 0.5)
    assert density.search(1.0, 2.0) == density.Search((1.4, 2.8), 2.0)
    assert density.search(1.5, 1.5) == density.Search((0.5, 1.5), None)  # the same: as if nothing were said
    assert density.search(1.0, 4.0).scales == (2.8, 4.0)  # clipped to what a screen can be


def test_one_density_unknown_is_guessed_at_1x_and_the_references_own_size_kept():
    """A reference that says nothing may have been cropped on this very display: its own size
    stays in range, the 1x guess is tried first."""
    assert density.search(None, 2.0) == density.Search((0.5, 3.0), 2.0)
    assert density.search(2.0, None) == density.Search((0.25, 1.5), 0.5)
    assert density.search(None, None) == density.Search((0.5, 1.5), None)
    assert density.search(None, 1.0) == density.Search((0.5, 1.5), None)


def test_a_remembered_scale_is_in_references_of_density_1():
    """The session remembers scale x the reference's density: a @2x key found at 0.5 teaches
    1.0 (the app draws as its references say), which a plain reference is searched at."""
    assert density.learned(0.5, 2.0) == 1.0
    assert density.learned(0.5, None) == 0.5
    assert density.search(None, None, remembered=0.5) == density.Search((0.5, 1.5), 0.5)
    assert density.search(2.0, None, remembered=1.0) == density.Search((0.25, 1.5), 0.5)
    assert density.search(None, 1.0, remembered=0.75) == density.Search((0.5, 1.5), 0.75)


# -- what a process was told -----------------------------------------------------------------------
def _process(proc: Path, pid: int, environ: dict[str, str], argv: list[str]) -> None:
    folder = proc / str(pid)
    folder.mkdir(parents=True)
    (folder / "environ").write_bytes(b"\0".join(f"{k}={v}".encode() for k, v in environ.items()) + b"\0")
    (folder / "cmdline").write_bytes(b"\0".join(a.encode() for a in argv) + b"\0")


def test_an_x11_app_says_the_scale_it_was_started_with(tmp_path):
    _process(tmp_path, 10, {"GDK_SCALE": "2", "PATH": "/usr/bin"}, ["galculator"])
    _process(tmp_path, 11, {"QT_SCALE_FACTOR": "1.25"}, ["featherpad"])
    _process(tmp_path, 12, {}, ["java", "-Dsun.java2d.uiScale=2x", "-jar", "jedit.jar"])
    _process(tmp_path, 13, {"JAVA_TOOL_OPTIONS": "-Xmx1g -Dsun.java2d.uiScale=3"}, ["java", "-jar", "x.jar"])
    _process(tmp_path, 14, {}, ["chromium", "--force-device-scale-factor=1.5", "--no-sandbox"])
    _process(tmp_path, 15, {"GDK_SCALE": "zero"}, ["galculator"])
    _process(tmp_path, 16, {"LANG": "C"}, ["xterm"])
    assert [told(pid, tmp_path) for pid in range(10, 17)] == [2.0, 1.25, 2.0, 3.0, 1.5, None, None]
    assert told(99, tmp_path) is None and told(None, tmp_path) is None  # gone, or no pid known


# -- the search ------------------------------------------------------------------------------------
def test_a_1x_key_is_found_on_a_2x_display_when_the_densities_say_so():
    """Twice its size is beyond seed 004's tolerance: the plain search cannot find a 1x crop on a
    2x display; the densities' ratio (2) puts the search there, and the keys are found on
    themselves or refused, never on another. (The wide "=" resampled here scores 0.88 at 2x and
    is refused by the ladder below the known rung; GTK's own 2x drawing is the live test's.)"""
    image, keys = keypad("mate-calc-basic")
    big = drawn(image, 2.0)
    where = density.search(1.0, 2.0)
    found = []
    for label in ("7", "+", "=", "Undo", "Clear", "%"):
        r = next(k["rect"] for k in keys if k["label"] == label)
        reference = image[r[1] : r[3], r[0] : r[2]]
        plain = find_template(big, reference)
        assert not plain or plain[0].confidence < 0.8 or scaled(r, 2.0).contains(*plain[0].rect.center)
        at = find_template(big, reference, scales=where.scales, scale_hint=where.first)
        if at and at[0].confidence >= 0.8:
            assert scaled(r, 2.0).contains(*at[0].rect.center), (label, at[0])
            assert abs(float(at[0].detail["scale"]) - 2.0) < 0.05
            found.append(label)
    assert len(found) >= 5, found


def test_match_reads_both_files_densities(tmp_path):
    """`winctl match key@2x.png shot.png`: the key cut from a 2x picture is searched for at 0.5x
    first, and found there in one match ("known scale"); named without its density, it is found
    by the sweep. A shot recorded at 2x takes a 1x crop at 2x, beyond the plain tolerance."""
    image, keys = keypad("galculator-basic")
    r = next(k["rect"] for k in keys if k["label"] == "8")
    big = drawn(image, 2.0)
    cut = big[2 * r[1] : 2 * r[3], 2 * r[0] : 2 * r[2]]
    cv2.imwrite(str(tmp_path / "eight@2x.png"), cut)
    cv2.imwrite(str(tmp_path / "eight.png"), cut)
    cv2.imwrite(str(tmp_path / "shot.png"), image)
    marked = match_files(tmp_path / "eight@2x.png", tmp_path / "shot.png", 0.75)
    plain = match_files(tmp_path / "eight.png", tmp_path / "shot.png", 0.75)
    for found in (marked, plain):
        assert Rect(left=r[0], top=r[1], right=r[2], bottom=r[3]).contains(*found[0].rect.center), found[:1]
    assert marked[0].detail["stage"] == "known scale"
    assert plain[0].detail.get("stage") != "known scale"

    screenshots.save_png(Image.fromarray(big[:, :, ::-1]), tmp_path / "big.png", density.pnginfo(2.0))
    cv2.imwrite(str(tmp_path / "one.png"), image[r[1] : r[3], r[0] : r[2]])
    found = match_files(tmp_path / "one.png", tmp_path / "big.png", 0.75)
    assert scaled(r, 2.0).contains(*found[0].rect.center) and abs(float(found[0].detail["scale"]) - 2) < 0.05


def test_the_locator_searches_an_image_at_its_density_and_remembers_what_the_app_draws_at(tmp_path):
    """`locate image:key@2x.png` on a 1x picture (a shot that says nothing): the name's 2x and the
    1x guess put it at 0.5x, where it is found; the session then remembers 1.0 for the
    app (scale x the reference's density), so a plain 1x crop is searched at its own size."""
    from winactions.locate.cache import LocateCache
    from winactions.locate.files import ScreenFile
    from winactions.locate.locator import Locator

    image, keys = keypad("mate-calc-basic")
    r = next(k["rect"] for k in keys if k["label"] == "9")
    big = drawn(image, 2.0)
    cv2.imwrite(str(tmp_path / "nine@2x.png"), big[2 * r[1] : 2 * r[3], 2 * r[0] : 2 * r[2]])
    cv2.imwrite(str(tmp_path / "shot.png"), image)
    cache = LocateCache()
    locator = Locator(ScreenFile.open(tmp_path / "shot.png"), cache=cache)
    result = locator.locate(f"image:{tmp_path / 'nine@2x.png'}", use_cache=False)
    assert result.success and result.element is not None, result.error
    assert Rect(left=r[0], top=r[1], right=r[2], bottom=r[3]).contains(*result.element.center)
    assert abs((result.element.scale or 0) - 0.5) < 0.03
    assert cache.known_scale("") == pytest.approx(1.0, abs=0.06)


def test_an_x11_app_told_nothing_is_at_the_scale_its_tree_is_placed_at(monkeypatch):
    """A desktop that scales GTK through XSETTINGS leaves nothing in the app's environment: its
    tree, placed twice as large (`Placement`), says 2. A tree placed as it is says nothing (Qt
    and Chromium report screen pixels at any scale), and neither does an app with no tree."""
    from winactions.backends.linux import backend as linux
    from winactions.errors import NoTree
    from winactions.model import WindowInfo

    placed = {101: linux.Placement(2, 1, 0), 102: linux.IDENTITY}
    backend = linux.LinuxBackend.__new__(linux.LinuxBackend)

    def frame(window: WindowInfo) -> str:
        if window.pid not in placed:
            raise NoTree("no tree")
        return f":1.{window.pid}/frame"

    monkeypatch.setattr(linux.app_density, "told", lambda pid: None)
    monkeypatch.setattr(backend, "frame_handle", frame)
    monkeypatch.setattr(backend, "_placement_of", lambda handle: placed[int(handle.split("/")[0][3:])])
    assert [backend.density(WindowInfo(id="0x1", title="app", pid=pid)) for pid in (101, 102, 103)] == [2.0, None, None]
    assert backend.density(None) is None


def test_an_app_modules_image_is_matched_at_the_density_it_and_the_screenshot_say(tmp_path):
    """The task runner matches an app module's images in the window's screenshot, which
    `winctl screenshot` saved with the window's density: a module image cut at 2x (its name says
    so) is searched for at 0.5x first in a 1x screenshot, and found there."""
    from winactions.agent.images import images_for, match_image

    image, keys = keypad("galculator-basic")
    r = next(k["rect"] for k in keys if k["label"] == "MR")
    big = drawn(image, 2.0)
    folder = tmp_path / "images"
    folder.mkdir()
    cv2.imwrite(str(folder / "memory_recall@2x.png"), big[2 * r[1] : 2 * r[3], 2 * r[0] : 2 * r[2]])
    shot = screenshots.save_png(Image.fromarray(image[:, :, ::-1]), tmp_path / "shot.png", density.pnginfo(1.0))
    assert images_for(folder, "memory_recall") == [folder / "memory_recall@2x.png"]  # @2x is no part of its name
    found = match_image(images_for(folder, "memory_recall"), shot, (100, 50))
    assert found.detail.get("stage") == "known scale", found
    assert Rect(left=r[0] + 100, top=r[1] + 50, right=r[2] + 100, bottom=r[3] + 50).contains(*found.rect.center)


def test_an_asset_captured_at_2x_is_one_of_its_names_images(tmp_path):
    from winactions.locate.assets import AssetLibrary

    (tmp_path / "editor").mkdir()
    for name in ("run_button.png", "run_button@2x.png", "run_button_v2@1.5x.png", "run_buttons.png"):
        Image.new("RGB", (8, 8)).save(tmp_path / "editor" / name)
    asset = AssetLibrary.open(tmp_path).resolve("run_button", "editor")
    assert [p.name for p in asset.images] == ["run_button.png", "run_button@2x.png", "run_button_v2@1.5x.png"]
    assert [density.recorded(p) for p in asset.images] == [None, 2.0, 1.5]


def test_a_file_that_says_its_density_wrongly_is_still_found_at_its_own_size(tmp_path):
    """A 1x crop named `@2x` in a shot recorded at 1x: the densities say 0.5x, where nothing is;
    searched again as if nothing were said, it is found at its own size (1.00). Before, it was
    refused though its own picture was on the screen. A reference that is nowhere says both
    ranges were tried."""
    from winactions.errors import NotFound

    image, keys = keypad("mate-calc-basic")
    r = next(k["rect"] for k in keys if k["label"] == "7")
    cv2.imwrite(str(tmp_path / "seven@2x.png"), image[r[1] : r[3], r[0] : r[2]])
    shot = screenshots.save_png(Image.fromarray(image[:, :, ::-1]), tmp_path / "shot.png", density.pnginfo(1.0))
    found = match_files(tmp_path / "seven@2x.png", shot, 0.75)
    assert found[0].confidence >= 0.99 and found[0].detail["scale"] == 1.0
    assert Rect(left=r[0], top=r[1], right=r[2], bottom=r[3]).contains(*found[0].rect.center)
    elsewhere = np.full((60, 90, 3), 200, np.uint8)
    cv2.circle(elsewhere, (45, 30), 20, (0, 0, 0), 3)
    cv2.imwrite(str(tmp_path / "ring@2x.png"), elsewhere)
    with pytest.raises(NotFound, match=r"scales 0.35-0.7, then 0.5-1.5"):
        match_files(tmp_path / "ring@2x.png", shot, 0.75)


def test_a_file_that_says_its_density_wrongly_teaches_the_session_nothing_from_it(tmp_path):
    """A 1x crop named `@2x` is found at its own size only when its name is ignored (above).
    What the session remembers must not take the name at its word: 1.0 x 2 would be kept as the
    app's scale, and every plain crop of the app searched first at twice its size."""
    from winactions.locate.cache import LocateCache
    from winactions.locate.files import ScreenFile
    from winactions.locate.locator import Locator

    image, keys = keypad("mate-calc-basic")
    r = next(k["rect"] for k in keys if k["label"] == "7")
    cv2.imwrite(str(tmp_path / "seven@2x.png"), image[r[1] : r[3], r[0] : r[2]])
    screenshots.save_png(Image.fromarray(image[:, :, ::-1]), tmp_path / "shot.png", density.pnginfo(1.0))
    cache = LocateCache()
    result = Locator(ScreenFile.open(tmp_path / "shot.png"), cache=cache).locate(
        f"image:{tmp_path / 'seven@2x.png'}", use_cache=False
    )
    assert result.success and result.element is not None, result.error
    assert Rect(left=r[0], top=r[1], right=r[2], bottom=r[3]).contains(*result.element.center)
    assert cache.known_scale("") in (None, pytest.approx(1.0, abs=0.06))
