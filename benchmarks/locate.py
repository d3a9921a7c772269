"""Benchmark: the visual locator's accuracy and speed against common baselines, in one run.

    .venv/bin/python benchmarks/locate.py

Ground truth: real screenshots of the GTK fixture and Chromium (tests/fixtures/screens,
re-recordable with `python -m tests.fixtures.screens.capture`) with names and rects from
their accessibility trees. A locate is correct when its click point lies inside the true
rect. Printed side by side, each measured here and now:
- template: ours (scale tolerance 0.5-1.5x) vs pyscreeze.locate (pyautogui's locateOnScreen,
  OpenCV path, confidence 0.9) vs one single-scale cv2.matchTemplate, all on the window crop,
  on crops of every button/check box/menu/combo, with the screen rescaled to 0.5-1.5x;
- text: ours (window crop, fast path) vs a default full-screen rapidocr pass, on every
  visibly labelled element;
- high-confidence share (reliable at 0.8), fallback success (plain target: template if the
  asset exists, then OCR), and the cache hit rate when the same elements are located again.
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from pathlib import Path

import cv2
import numpy as np
import pyscreeze
from PIL import Image

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from winactions.locate.cache import LocateCache  # noqa: E402
from winactions.locate.ocr import OcrEngine, find_text  # noqa: E402
from winactions.locate.template import find_template  # noqa: E402
from winactions.model import Rect  # noqa: E402

SCREENS = ROOT / "tests" / "fixtures" / "screens"
LABELLED = ("Button", "Menu", "CheckBox", "RadioButton", "HeaderItem", "Text", "Hyperlink", "Heading", "PageTab")
CONTROLS = ("Button", "CheckBox", "RadioButton", "Menu", "ComboBox", "HeaderItem", "PageTab")


def rect(t: dict) -> Rect:
    return Rect(left=t["rect"][0], top=t["rect"][1], right=t["rect"][2], bottom=t["rect"][3])


def load(app: str) -> tuple[np.ndarray, dict]:
    return cv2.imread(str(SCREENS / f"{app}.png")), json.loads((SCREENS / f"{app}.json").read_text())


def in_window(t: dict, w: dict) -> bool:
    r = rect(t)
    return r.left >= w["left"] and r.right <= w["right"] and r.top >= w["top"] and r.bottom <= w["bottom"]


def template_bench(apps: list[str]) -> None:
    """Every control's crop searched for in its window drawn at 0.5-1.5x (the screenshot resized, as
    a reference captured on one display meets another): ours (scale tolerance 0.5-1.5, the default)
    against pyscreeze.locate (confidence 0.9) and one plain single-scale cv2.matchTemplate +
    minMaxLoc of the same window crop (colour as captured, and grey: the stricter baseline),
    each target timed by all four back to back."""
    print("template: reference = a control's crop at 1x, window drawn at the scale; correct = click point "
          "inside the true rect (cv2: best score >= 0.75 there); ms min/median/max")
    print(f"{'scale':>5}  {'ours':>24}  {'pyscreeze':>24}  {'cv2 colour 1x':>24}  {'cv2 grey 1x':>24}  "
          f"{'grey/ours':>9} {'colour/ours':>11} {'ours slower than grey':>21}")
    for scale in (0.5, 0.75, 1.0, 1.25, 1.5):
        names = ("ours", "pyscreeze", "cv2 colour", "cv2 grey")
        correct = dict.fromkeys(names, 0)
        times: dict[str, list[float]] = {name: [] for name in names}
        total = slower = 0
        for app in apps:
            image, truth = load(app)
            w = truth["window"]["rect"]
            screen = image if scale == 1.0 else cv2.resize(image, None, fx=scale, fy=scale,
                                                           interpolation=cv2.INTER_AREA if scale < 1 else
                                                           cv2.INTER_LINEAR)
            left, top = round(w["left"] * scale), round(w["top"] * scale)
            window = np.ascontiguousarray(screen[top:round(w["bottom"] * scale), left:round(w["right"] * scale)])
            window_grey = cv2.cvtColor(window, cv2.COLOR_BGR2GRAY)
            window_pil = Image.fromarray(window[:, :, ::-1])
            for t in truth["targets"]:
                if t["type"] not in CONTROLS or not in_window(t, w):
                    continue
                r = rect(t)
                needle = np.ascontiguousarray(image[r.top:r.bottom, r.left:r.right])
                if needle.size == 0 or float(needle.std()) < 2:
                    continue
                needle_grey = cv2.cvtColor(needle, cv2.COLOR_BGR2GRAY)
                true = Rect(left=round(r.left * scale) - left, top=round(r.top * scale) - top,
                            right=round(r.right * scale) - left, bottom=round(r.bottom * scale) - top)
                total += 1
                started = time.perf_counter()
                found = find_template(window, needle)
                times["ours"].append(time.perf_counter() - started)
                correct["ours"] += bool(found) and true.contains(*found[0].rect.center)
                started = time.perf_counter()
                try:
                    box = pyscreeze.locate(Image.fromarray(needle[:, :, ::-1]), window_pil, confidence=0.9)
                except pyscreeze.ImageNotFoundException:
                    box = None
                times["pyscreeze"].append(time.perf_counter() - started)
                correct["pyscreeze"] += box is not None and true.contains(int(box.left + box.width / 2),
                                                                          int(box.top + box.height / 2))
                for name, hay, ref in (("cv2 colour", window, needle), ("cv2 grey", window_grey, needle_grey)):
                    started = time.perf_counter()
                    _, score, _, (x, y) = cv2.minMaxLoc(cv2.matchTemplate(hay, ref, cv2.TM_CCOEFF_NORMED))
                    times[name].append(time.perf_counter() - started)
                    correct[name] += score >= 0.75 and true.contains(x + ref.shape[1] // 2, y + ref.shape[0] // 2)
                slower += times["ours"][-1] > times["cv2 grey"][-1]
        cells = []
        for name in names:
            ms = [v * 1000 for v in times[name]]
            cells.append(f"{correct[name]:>2}/{total} {min(ms):4.1f}/{statistics.median(ms):5.1f}/{max(ms):5.1f}")
        ours = statistics.median(times["ours"])
        print(f"{scale:>5}  " + "  ".join(f"{c:>24}" for c in cells) +
              f"  {statistics.median(times['cv2 grey']) / ours:>8.1f}x"
              f" {statistics.median(times['cv2 colour']) / ours:>10.1f}x {slower:>14}/{total}")


def text_bench(apps: list[str]) -> tuple[int, int, int]:
    engine = OcrEngine.shared()
    print("\ntext (click point inside the true rect)")
    reliable = correct = total = 0
    ours: list[float] = []
    full: list[float] = []
    from rapidocr import RapidOCR

    default = RapidOCR(params={"Global.log_level": "error"})
    for app in apps:
        image, truth = load(app)
        w = truth["window"]["rect"]
        crop, origin = image[w["top"]:w["bottom"], w["left"]:w["right"]], (w["left"], w["top"])
        default(image)  # warm-up
        started = time.perf_counter()
        default(image)
        full.append(time.perf_counter() - started)
        names: dict[str, list[Rect]] = {}
        for t in truth["targets"]:
            r = rect(t)
            visible = t["name"].strip() and t["name"].isascii() and r.width >= len(t["name"]) * 0.35 * r.height
            if t["type"] in LABELLED and visible and in_window(t, w):
                names.setdefault(t["name"], []).append(r)
        find_text(crop, "warm-up", origin=origin, engine=engine)
        for name, rects in names.items():
            started = time.perf_counter()
            found = find_text(crop, name, origin=origin, engine=engine)
            ours.append(time.perf_counter() - started)
            total += 1
            hit = bool(found) and any(r.contains(*found[0].rect.center) for r in rects)
            correct += hit
            reliable += hit and found[0].confidence >= 0.8
    mo, mf = statistics.median(ours), statistics.median(full)
    print(f"  ours: {correct}/{total} correct ({correct / total:.0%}), median {mo * 1000:.0f} ms per locate")
    print(f"  default full-screen rapidocr pass: median {mf * 1000:.0f} ms per screen  -> {mf / mo:.1f}x")
    print(f"  high-confidence (>= 0.8) and correct: {reliable}/{total} ({reliable / total:.0%})")
    return correct, reliable, total


def cache_bench(app: str) -> None:
    """Locate the same five controls ten times each, as an agent re-clicking them would."""
    image, truth = load(app)
    grey = image.mean(axis=2)
    cache = LocateCache(ttl=30)
    controls = [t for t in truth["targets"] if t["type"] == "Button" and t["name"]][:5]
    for _ in range(10):
        for t in controls:
            r = rect(t)
            if cache.get(t["name"], lambda box: grey[box.top:box.bottom, box.left:box.right]) is None:
                found = find_template(image, image[r.top:r.bottom, r.left:r.right])
                cache.put(t["name"], found[0], found[0].rect, grey[r.top:r.bottom, r.left:r.right])
    print(f"\ncache on a repeated-element scenario (5 buttons x 10 locates): hit rate {cache.stats['hit_rate']:.0%}")


def fallback_bench(apps: list[str]) -> None:
    """Plain targets through the chain: template when an asset exists (every third control, and every
    icon-only one, whose name is not written on it — an agent would save an image of those), then OCR."""
    ok = total = 0
    for app in apps:
        image, truth = load(app)
        w = truth["window"]["rect"]
        crop, origin = image[w["top"]:w["bottom"], w["left"]:w["right"]], (w["left"], w["top"])
        for i, t in enumerate(t for t in truth["targets"] if t["type"] in ("Button", "Menu", "CheckBox")
                              and t["name"].strip() and in_window(t, w)):
            r = rect(t)
            total += 1
            found = []
            labelled = t["name"].isascii() and r.width >= len(t["name"]) * 0.35 * r.height
            if i % 3 == 0 or not labelled:
                found = [c for c in find_template(image, image[r.top:r.bottom, r.left:r.right]) if c.confidence >= 0.8]
            if not found:
                found = [c for c in find_text(crop, t["name"], origin=origin) if c.confidence >= 0.8]
            ok += bool(found) and r.contains(*found[0].rect.center)
    print(f"fallback chain (template if an asset exists, then OCR) on named controls: {ok}/{total} ({ok / total:.0%})")


if __name__ == "__main__":
    apps = ["gtk_fixture", "chromium_form"]
    template_bench(apps)
    text_bench(apps)
    cache_bench("gtk_fixture")
    fallback_bench(apps)
