"""Benchmark: the visual locator's accuracy and speed against common baselines, in one run.

    .venv/bin/python benchmarks/locate.py

Ground truth: real screenshots of the GTK fixture and Chromium (tests/fixtures/screens,
re-recordable with `python -m tests.fixtures.screens.capture`) with names and rects from
their accessibility trees. A locate is correct when its click point lies inside the true
rect. Printed side by side, each measured here and now:
- template: ours (scale tolerance 0.5-1.5x) vs pyscreeze.locate (pyautogui's locateOnScreen,
  OpenCV path, confidence 0.9) vs one single-scale cv2.matchTemplate, all on the window crop,
  on crops of every button/check box/menu/combo and of every key of four real calculators,
  with the screen rescaled to 0.5-1.5x, and how often ours would click a look-alike instead,
  also with each key painted over (its look-alikes remain);
- text: ours vs rapidocr's default pass on the same window crop (the baseline finds the label
  in its lines), interleaved per label, on every visibly labelled element of the GTK and
  Chromium windows and on the keypads of four real calculators (tests/fixtures/screens/keypads,
  truth from their trees), by label length: one character, two or three, words;
- high-confidence share (reliable at 0.8), fallback success (plain target: template if the
  asset exists, then OCR), and the cache hit rate when the same elements are located again.
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pyscreeze
from PIL import Image

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.fixtures.screens.paint import erased  # noqa: E402

from winactions.locate import density  # noqa: E402
from winactions.locate.cache import LocateCache  # noqa: E402
from winactions.locate.locator import SURE_SCALE  # noqa: E402
from winactions.locate.ocr import OcrEngine, find_text  # noqa: E402
from winactions.locate.template import SCALES, find_template  # noqa: E402
from winactions.model import Rect  # noqa: E402

SCREENS = ROOT / "tests" / "fixtures" / "screens"
KEYPADS = SCREENS / "keypads"
LABELLED = ("Button", "Menu", "CheckBox", "RadioButton", "HeaderItem", "Text", "Hyperlink", "Heading", "PageTab")
CONTROLS = ("Button", "CheckBox", "RadioButton", "Menu", "ComboBox", "HeaderItem", "PageTab")


def rect(t: dict) -> Rect:
    return Rect(left=t["rect"][0], top=t["rect"][1], right=t["rect"][2], bottom=t["rect"][3])


def load(app: str) -> tuple[np.ndarray, dict]:
    return cv2.imread(str(SCREENS / f"{app}.png")), json.loads((SCREENS / f"{app}.json").read_text())


def in_window(t: dict, w: dict) -> bool:
    r = rect(t)
    return r.left >= w["left"] and r.right <= w["right"] and r.top >= w["top"] and r.bottom <= w["bottom"]


@dataclass
class TemplateCase:
    """One control to find by its picture: the window's pixels and where the control is in them."""

    group: str
    window: np.ndarray
    rect: Rect


def template_cases(apps: list[str]) -> list[TemplateCase]:
    """Every button/check box/menu/combo of the GTK and Chromium windows, and every key of four
    real calculators: thirty look-alike keys that differ only in their middles."""
    cases = []
    for app in apps:
        image, truth = load(app)
        w = truth["window"]["rect"]
        window = image[w["top"] : w["bottom"], w["left"] : w["right"]]
        cases += [
            TemplateCase(
                "controls",
                window,
                Rect(
                    left=r.left - w["left"], top=r.top - w["top"], right=r.right - w["left"], bottom=r.bottom - w["top"]
                ),
            )
            for t in truth["targets"]
            if t["type"] in CONTROLS and in_window(t, w) and (r := rect(t))
        ]
    for truth_file in sorted(KEYPADS.glob("*.json")):
        if "tooltip" in truth_file.name:  # the same keys again, some under a tooltip
            continue
        image = cv2.imread(str(truth_file.with_suffix(".png")))
        cases += [
            TemplateCase("keypads", image, Rect(left=r[0], top=r[1], right=r[2], bottom=r[3]))
            for label in json.loads(truth_file.read_text())["labels"]
            if (r := label["rect"])
        ]
    return cases


def template_bench(cases: list[TemplateCase]) -> None:
    """Every control's crop searched for in its window drawn at 0.5-1.5x (the screenshot resized, as
    a reference captured on one display meets another): ours (scale tolerance 0.5-1.5, the default),
    cold, in a session that remembers the display's scale (`scale_hint`: the scale of the last
    find >= SURE_SCALE in that window, as the locator keeps it), and with the densities said (the
    reference's 1x and the window's, as `winctl screenshot --element` and the backend give them:
    `locate.density.search`), against pyscreeze.locate (confidence 0.9)
    and one plain single-scale cv2.matchTemplate + minMaxLoc of the same window crop (colour as
    captured, and grey: the stricter baseline, which like ours converts the captured colour pixels
    to grey first), and the same grey match with the scale given for free (the reference resized to
    the window's scale: what a search costs that knows the scale and checks the whole window at full
    resolution, judging nothing), each target timed by all seven back to back. `wrong` counts what a
    locate would click elsewhere: our best match, reliable (≥ 0.8, the locator's bar) and outside the
    true rect."""
    print(
        "template: reference = a control's crop at 1x, window drawn at the scale; correct = click point "
        "inside the true rect (cv2: best score >= 0.75 there); ms min/median/max; 'known' = ours with the "
        "display's scale remembered from an earlier find in the window; 'densities said' = the reference's "
        "and the window's pixel density known"
    )
    print(
        f"{'group':>8} {'scale':>5}  {'ours':>24} {'wrong':>5}  {'ours, scale known':>24} {'wrong':>5}  "
        f"{'ours, densities said':>24} {'wrong':>5}  "
        f"{'pyscreeze':>24}  {'cv2 colour 1x':>24}  {'cv2 grey 1x':>24}  {'cv2 grey, scale given':>24}  "
        f"{'grey/ours':>9} {'grey/known':>10} {'grey/density':>12} {'grey/given':>10} "
        f"{'colour/ours':>11} {'ours slower than grey':>21}"
    )
    for group in dict.fromkeys(case.group for case in cases):
        for scale in (0.5, 0.75, 1.0, 1.25, 1.5):
            template_row([case for case in cases if case.group == group], group, scale)


def template_row(cases: list[TemplateCase], group: str, scale: float) -> None:
    names = ("ours", "known", "density", "pyscreeze", "cv2 colour", "cv2 grey", "cv2 grey, scale given")
    correct = dict.fromkeys(names, 0)
    wrong = dict.fromkeys(names, 0)
    times: dict[str, list[float]] = {name: [] for name in names}
    learned: dict[int, float] = {}  # per window: the scale a session would remember
    total = slower = 0
    for case in cases:
        r = case.rect
        needle = np.ascontiguousarray(case.window[r.top : r.bottom, r.left : r.right])
        if needle.size == 0 or float(needle.std()) < 2:
            continue
        window = (
            case.window
            if scale == 1.0
            else cv2.resize(
                case.window, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR
            )
        )
        window = np.ascontiguousarray(window)
        true = Rect(
            left=round(r.left * scale),
            top=round(r.top * scale),
            right=round(r.right * scale),
            bottom=round(r.bottom * scale),
        )
        total += 1
        where = density.search(1.0, scale)  # a reference captured at 1x, the window drawn at `scale`, both said
        for name, hint, scales in (
            ("ours", None, SCALES),
            ("known", learned.get(id(case.window)), SCALES),
            ("density", where.first, where.scales),
        ):
            started = time.perf_counter()
            found = find_template(window, needle, scale_hint=hint, scales=scales)
            times[name].append(time.perf_counter() - started)
            correct[name] += bool(found) and true.contains(*found[0].rect.center)
            wrong[name] += bool(found) and found[0].confidence >= 0.8 and not true.contains(*found[0].rect.center)
            if name == "known" and found and found[0].confidence >= SURE_SCALE and "scale" in found[0].detail:
                learned[id(case.window)] = float(found[0].detail["scale"])
        started = time.perf_counter()
        try:
            box = pyscreeze.locate(
                Image.fromarray(needle[:, :, ::-1]), Image.fromarray(window[:, :, ::-1]), confidence=0.9
            )
        except pyscreeze.ImageNotFoundException:
            box = None
        times["pyscreeze"].append(time.perf_counter() - started)
        correct["pyscreeze"] += box is not None and true.contains(
            int(box.left + box.width / 2), int(box.top + box.height / 2)
        )
        for name, grey in (("cv2 colour", False), ("cv2 grey", True)):
            started = time.perf_counter()
            # the grey baseline converts the captured colour pixels, as ours does inside
            hay, ref = (
                (cv2.cvtColor(window, cv2.COLOR_BGR2GRAY), cv2.cvtColor(needle, cv2.COLOR_BGR2GRAY))
                if grey
                else (window, needle)
            )
            if ref.shape[0] <= hay.shape[0] and ref.shape[1] <= hay.shape[1]:
                _, score, _, (x, y) = cv2.minMaxLoc(cv2.matchTemplate(hay, ref, cv2.TM_CCOEFF_NORMED))
                correct[name] += score >= 0.75 and true.contains(x + ref.shape[1] // 2, y + ref.shape[0] // 2)
            times[name].append(time.perf_counter() - started)
        # the floor for a search that must tell keys apart at full resolution: one grey match with the
        # scale given for free (the reference resized to it as the window was), nothing judged
        started = time.perf_counter()
        hay, ref = cv2.cvtColor(window, cv2.COLOR_BGR2GRAY), cv2.cvtColor(needle, cv2.COLOR_BGR2GRAY)
        if scale != 1.0:
            ref = cv2.resize(
                ref, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR
            )
        _, score, _, (x, y) = cv2.minMaxLoc(cv2.matchTemplate(hay, ref, cv2.TM_CCOEFF_NORMED))
        times["cv2 grey, scale given"].append(time.perf_counter() - started)
        given = score >= 0.75 and true.contains(x + ref.shape[1] // 2, y + ref.shape[0] // 2)
        correct["cv2 grey, scale given"] += given
        slower += times["ours"][-1] > times["cv2 grey"][-1]
    cells = []
    for name in names:
        ms = [v * 1000 for v in times[name]]
        cells.append(f"{correct[name]:>3}/{total} {min(ms):4.1f}/{statistics.median(ms):5.1f}/{max(ms):5.1f}")
    grey = statistics.median(times["cv2 grey"])
    print(
        f"{group:>8} {scale:>5}  {cells[0]:>24} {wrong['ours']:>5}  {cells[1]:>24} {wrong['known']:>5}  "
        f"{cells[2]:>24} {wrong['density']:>5}  "
        + "  ".join(f"{c:>24}" for c in cells[3:])
        + f"  {grey / statistics.median(times['ours']):>8.1f}x {grey / statistics.median(times['known']):>9.1f}x"
        f" {grey / statistics.median(times['density']):>11.1f}x"
        f" {grey / statistics.median(times['cv2 grey, scale given']):>9.1f}x"
        f" {statistics.median(times['cv2 colour']) / statistics.median(times['ours']):>10.1f}x {slower:>14}/{total}"
    )


def painted_bench(cases: list[TemplateCase]) -> None:
    """Each keypad key painted over (in the colour around it), its crop then searched for in the
    window drawn at each scale, cold and with the densities said: the key is not there, its
    look-alikes are, and a locate clicks what scores >= 0.8. Counts the keys that would be
    clicked on another key."""
    keys = [
        case
        for case in cases
        if case.group == "keypads" and case.rect.top >= 2 and case.rect.bottom + 1 < case.window.shape[0]
    ]
    counts: dict[str, list[str]] = {"cold": [], "densities said": []}
    for scale in (0.5, 0.75, 1.0, 1.25, 1.5):
        where = density.search(1.0, scale)
        clicked = dict.fromkeys(counts, 0)
        for case in keys:
            r = case.rect
            gone = erased(case.window, r)
            if scale != 1.0:
                gone = cv2.resize(
                    gone, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR
                )
            gone, reference = np.ascontiguousarray(gone), case.window[r.top : r.bottom, r.left : r.right]
            for name, found in (
                ("cold", find_template(gone, reference)),
                ("densities said", find_template(gone, reference, scales=where.scales, scale_hint=where.first)),
            ):
                clicked[name] += bool(found) and found[0].confidence >= 0.8
        for name in counts:
            counts[name].append(f"{scale}x {clicked[name]}/{len(keys)}")
    for name, row in counts.items():
        print(f"template, keypad keys painted over, clicked on another key (>= 0.8), {name}: " + ", ".join(row))


@dataclass
class TextCase:
    """One label to find: the picture (the window's pixels), where it is, and the label."""

    group: str
    image: np.ndarray
    origin: tuple[int, int]
    label: str
    rects: list[Rect]  # where it truly is (a label may be written in several places)


def word_cases(apps: list[str]) -> list[TextCase]:
    """Every visibly labelled element of the GTK and Chromium windows."""
    cases = []
    for app in apps:
        image, truth = load(app)
        w = truth["window"]["rect"]
        crop, origin = image[w["top"] : w["bottom"], w["left"] : w["right"]], (w["left"], w["top"])
        names: dict[str, list[Rect]] = {}
        for t in truth["targets"]:
            r = rect(t)
            visible = t["name"].strip() and t["name"].isascii() and r.width >= len(t["name"]) * 0.35 * r.height
            if t["type"] in LABELLED and visible and in_window(t, w):
                names.setdefault(t["name"], []).append(r)
        cases += [
            TextCase("words: GTK fixture and Chromium", crop, origin, name, rects) for name, rects in names.items()
        ]
    return cases


def keypad_cases() -> list[TextCase]:
    """Every visible button label of four real calculators (tests/fixtures/screens/keypads)."""
    cases = []
    for truth_file in sorted(KEYPADS.glob("*.json")):
        truth = json.loads(truth_file.read_text())
        image = cv2.imread(str(truth_file.with_suffix(".png")))
        for label in truth["labels"]:
            if label["covered"]:
                continue
            size = len(label["label"].replace(" ", ""))
            group = (
                "keypads: 1 character" if size == 1 else "keypads: 2-3 characters" if size <= 3 else "keypads: words"
            )
            r = label["rect"]
            cases.append(
                TextCase(group, image, (0, 0), label["label"], [Rect(left=r[0], top=r[1], right=r[2], bottom=r[3])])
            )
    return cases


def default_read(default: Any, image: np.ndarray) -> list[tuple[str, Any]]:
    """The baseline's one pass: rapidocr's default pipeline over the window, every line read."""
    out = default(image)
    return list(zip(out.txts or (), out.boxes if out.boxes is not None else ()))


def default_find(lines: list[tuple[str, Any]], origin: tuple[int, int], label: str) -> tuple[int, int] | None:
    """The baseline's lookup: the label in the pass's lines (whole line, else ignoring case,
    else inside a line)."""
    for test in (
        lambda t: t == label,
        lambda t: t.casefold() == label.casefold(),
        lambda t: label.casefold() in t.casefold(),
    ):
        for text, quad in lines:
            if test(text.strip()):
                x, y = quad.mean(axis=0)
                return int(x) + origin[0], int(y) + origin[1]
    return None


def text_bench(cases: list[TextCase], rounds: int = 3) -> None:
    """Ours vs rapidocr's default pass on the same window, per group of labels, in one run.

    A baseline locate is one default pass over the window plus a lookup of the label in its
    lines, so the pass is timed once per picture and round and charged to each of its labels;
    ours locates each label on its own. Each round runs both on every picture, in alternating
    order; a label's time is its median over the rounds."""
    engine = OcrEngine.shared()
    from rapidocr import RapidOCR

    default = RapidOCR(params={"Global.log_level": "error"})
    print(
        "\ntext: ours vs rapidocr's default pass on the same window (click point inside the true rect;"
        " ms per locate, min/median/max over labels)"
    )
    print(
        f"{'labels':<33} {'n':>4} {'ours ok':>8} {'>=0.8':>6} {'ours ms':>17} {'default ok':>10} "
        f"{'default ms':>19} {'speed-up':>8}"
    )
    find_text(cases[0].image, "warm-up", engine=engine)
    default(cases[0].image)
    pictures: dict[int, list[TextCase]] = {}
    for case in cases:
        pictures.setdefault(id(case.image), []).append(case)
    ours_t: dict[int, list[float]] = {id(c): [] for c in cases}
    base_t: dict[int, list[float]] = {id(c): [] for c in cases}
    found: dict[int, Any] = {}
    point: dict[int, tuple[int, int] | None] = {}
    for r in range(rounds):
        for k, members in enumerate(pictures.values()):
            for contender in ("ours", "base") if (k + r) % 2 == 0 else ("base", "ours"):
                if contender == "base":
                    started = time.perf_counter()
                    lines = default_read(default, members[0].image)
                    pass_time = time.perf_counter() - started
                    for case in members:
                        started = time.perf_counter()
                        point[id(case)] = default_find(lines, case.origin, case.label)
                        base_t[id(case)].append(pass_time + time.perf_counter() - started)
                    continue
                for case in members:
                    started = time.perf_counter()
                    found[id(case)] = find_text(case.image, case.label, origin=case.origin, engine=engine)
                    ours_t[id(case)].append(time.perf_counter() - started)
    medians: dict[str, float] = {}
    for group in dict.fromkeys(c.group for c in cases):
        members = [c for c in cases if c.group == group]
        ok = sure = ok_base = 0
        for case in members:
            best = found[id(case)][0] if found[id(case)] else None
            hit = best is not None and any(r.contains(*best.rect.center) for r in case.rects)
            ok += hit
            sure += hit and best is not None and best.confidence >= 0.8
            spot = point[id(case)]
            ok_base += spot is not None and any(r.contains(*spot) for r in case.rects)
        ours_ms = [statistics.median(ours_t[id(c)]) * 1000 for c in members]
        base_ms = [statistics.median(base_t[id(c)]) * 1000 for c in members]
        n = len(members)
        mo, mb = statistics.median(ours_ms), statistics.median(base_ms)
        medians[group] = mo
        print(
            f"{group:<33} {n:>4} {ok / n:>8.0%} {sure / n:>6.0%} "
            f"{min(ours_ms):>5.0f}/{mo:>5.0f}/{max(ours_ms):>5.0f} {ok_base / n:>10.0%} "
            f"{min(base_ms):>5.0f}/{mb:>6.0f}/{max(base_ms):>6.0f} {mb / mo:>7.1f}x"
        )
    one, words = medians.get("keypads: 1 character"), medians.get("keypads: words")
    if one and words:
        print(
            f"one-character labels vs words on the same keypads: {one:.0f} vs {words:.0f} ms median "
            f"({one / words:.2f}x the time)"
        )


def cache_bench(app: str) -> None:
    """Locate the same five controls ten times each, as an agent re-clicking them would."""
    image, truth = load(app)
    grey = image.mean(axis=2)
    cache = LocateCache(ttl=30)
    controls = [t for t in truth["targets"] if t["type"] == "Button" and t["name"]][:5]
    for _ in range(10):
        for t in controls:
            r = rect(t)
            if cache.get(t["name"], lambda box: grey[box.top : box.bottom, box.left : box.right]) is None:
                found = find_template(image, image[r.top : r.bottom, r.left : r.right])
                cache.put(t["name"], found[0], found[0].rect, grey[r.top : r.bottom, r.left : r.right])
    print(f"\ncache on a repeated-element scenario (5 buttons x 10 locates): hit rate {cache.stats['hit_rate']:.0%}")


def fallback_bench(apps: list[str]) -> None:
    """Plain targets through the chain: template when an asset exists (every third control, and every
    icon-only one, whose name is not written on it — an agent would save an image of those), then OCR."""
    ok = total = 0
    for app in apps:
        image, truth = load(app)
        w = truth["window"]["rect"]
        crop, origin = image[w["top"] : w["bottom"], w["left"] : w["right"]], (w["left"], w["top"])
        for i, t in enumerate(
            t
            for t in truth["targets"]
            if t["type"] in ("Button", "Menu", "CheckBox") and t["name"].strip() and in_window(t, w)
        ):
            r = rect(t)
            total += 1
            found = []
            labelled = t["name"].isascii() and r.width >= len(t["name"]) * 0.35 * r.height
            if i % 3 == 0 or not labelled:
                found = [
                    c for c in find_template(image, image[r.top : r.bottom, r.left : r.right]) if c.confidence >= 0.8
                ]
            if not found:
                found = [c for c in find_text(crop, t["name"], origin=origin) if c.confidence >= 0.8]
            ok += bool(found) and r.contains(*found[0].rect.center)
    print(f"fallback chain (template if an asset exists, then OCR) on named controls: {ok}/{total} ({ok / total:.0%})")


if __name__ == "__main__":
    apps = ["gtk_fixture", "chromium_form"]
    template_bench(template_cases(apps))
    painted_bench(template_cases(apps))
    text_bench(word_cases(apps) + keypad_cases())
    cache_bench("gtk_fixture")
    fallback_bench(apps)
