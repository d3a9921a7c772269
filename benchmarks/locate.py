"""Benchmark: the visual locator's accuracy and speed against common baselines, in one run.

    .venv/bin/python benchmarks/locate.py

Ground truth: real screenshots of the GTK fixture and Chromium (tests/fixtures/screens,
re-recordable with `python -m tests.fixtures.screens.capture`) with names and rects from
their accessibility trees. A locate is correct when its click point lies inside the true
rect. Printed side by side, each measured here and now:
- template: ours vs pyscreeze.locate (pyautogui's locateOnScreen, OpenCV path, confidence
  0.9) on crops of every button/check box/menu/combo, at scale 1 and with the screen
  rescaled to 0.8x and 1.25x;
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
    print("template (click point inside the true rect; median ms per locate)")
    print(f"{'scale':>6} {'ours':>14} {'pyscreeze':>16} {'speed-up':>9}")
    for scale in (1.0, 0.8, 1.25):
        ok = ok_base = total = 0
        ours: list[float] = []
        base: list[float] = []
        for app in apps:
            image, truth = load(app)
            screen = image if scale == 1.0 else cv2.resize(image, None, fx=scale, fy=scale)
            screen_pil = Image.fromarray(screen[:, :, ::-1])
            for t in truth["targets"]:
                if t["type"] not in CONTROLS or not in_window(t, truth["window"]["rect"]):
                    continue
                r = rect(t)
                needle = image[r.top:r.bottom, r.left:r.right]
                if needle.size == 0 or float(needle.std()) < 2:
                    continue
                true = Rect(left=round(r.left * scale), top=round(r.top * scale), right=round(r.right * scale),
                            bottom=round(r.bottom * scale))
                total += 1
                started = time.perf_counter()
                found = find_template(screen, needle)
                ours.append(time.perf_counter() - started)
                ok += bool(found) and true.contains(*found[0].rect.center)
                started = time.perf_counter()
                try:
                    box = pyscreeze.locate(Image.fromarray(needle[:, :, ::-1]), screen_pil, confidence=0.9)
                except pyscreeze.ImageNotFoundException:
                    box = None
                base.append(time.perf_counter() - started)
                ok_base += box is not None and true.contains(int(box.left + box.width / 2),
                                                             int(box.top + box.height / 2))
        mo, mb = statistics.median(ours) * 1000, statistics.median(base) * 1000
        print(f"{scale:>6} {ok:>3}/{total} {mo:>7.1f} ms {ok_base:>5}/{total} {mb:>7.1f} ms {mb / mo:>8.1f}x")


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
