"""End-to-end: what `winctl locate text:LABEL` costs an agent on a live calculator, against a
one-shot process doing the same with rapidocr's default pass.

    .venv/bin/python benchmarks/locate_oneshot.py [--rounds 3]

galculator (a GTK 3 app nobody here wrote) runs on a private virtual desktop. For each of its
keys `7`, `+`, `=`, `MR`, `sqrt`, every round runs, interleaved with the order flipped each
round, each timed from spawn to exit:

  ours, one-shot   `winctl --no-daemon locate text:KEY --no-cache`: interpreter, imports, OCR
                   model load, capture of the window, the locate, print
  ours, daemon     `winctl locate text:KEY --no-cache` with the session's daemon warm
  baseline         `python locate_baseline.py KEY`: interpreter, rapidocr import and model load,
                   capture of the same window (mss), rapidocr's default pass, the key looked up
                   in its lines (whole line, else case-insensitive, else inside a line)

Correct = the point printed lies inside the key's rect from galculator's accessibility tree.

    .venv/bin/python benchmarks/locate_oneshot.py --web [--rounds 3]

times instead the words of a recorded Chromium form (tests/fixtures/screens/chromium_form.png:
table headers, a link, labels beside fields, table cells), each located in its window on the
saved screenshot, spawn to exit: `winctl --no-daemon locate text:WORD --in SHOT --region
WINDOW` against a one-shot process that reads the same file, crops the same window and runs
rapidocr's default pass (then looks the word up as above). Correct = inside the rect from
Chromium's tree.

    .venv/bin/python benchmarks/locate_oneshot.py --menus [--rounds 3]

times the same way the labels of saved pictures of apps of four toolkits (featherpad's and
jEdit's Search menus, Writer's style buttons, GNOME Calculator's Advanced keys: menu items
with underlined letters and icons, an italic I, a × beside an x key), each located in the
whole picture. Correct = inside the item's row or the button, boxes read off the pictures.

    .venv/bin/python benchmarks/locate_oneshot.py --image [--rounds 3]

times `winctl locate image:REF` on live galculator drawn at 1x, the references its keys cut
from the same app drawn at GDK_SCALE=2 (a library captured on a HiDPI display: found at half
their size, re-rendered, not resampled). Spawn to exit, interleaved per key:

  first search     `winctl --no-daemon locate image:REF --no-cache` in a session whose
                   memory was cleared just before (untimed), REF named keyN.png (it says
                   nothing of its density): the sweep over 0.5-1.5x
  first, @2x       the same with REF named keyN@2x.png: its density and the window's say 0.5x
                   (`locate.density`), searched first, then 0.25-0.75x
  scale known      keyN.png in a session that keeps the scale of its sure finds
  daemon, known    the same through that session's warm daemon
  daemon, @2x      keyN@2x.png through a warm daemon whose memory was cleared just before
  baseline         `python match_baseline.py`: interpreter, OpenCV and mss imports, capture of
                   the window, both to grey, one cv2.matchTemplate at 1x and its best place

Correct = the centre printed lies inside the key's rect from galculator's tree (at 1x).

    .venv/bin/python benchmarks/locate_oneshot.py --image-up [--rounds 3]

the other way: the keys cut at 1x (`keyN.png`, and `keyN@1x.png`, which says so), galculator
drawn at GDK_SCALE=2, where they are twice their size, beyond seed 004's 1.5x. The window says
its density (the app's environment): a crop that says nothing is guessed 1x, searched first at
2x, then 0.5-3x; `@1x` narrows that to 1.4-2.8x. Correct = inside the key's rect at 2x.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import cv2

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from winactions.backends.linux.virtual_desktop import VirtualDesktop  # noqa: E402

WINCTL = str(Path(sys.executable).with_name("winctl"))
SCREENS = ROOT / "tests" / "fixtures" / "screens"
KEYS = ("7", "+", "=", "MR", "sqrt")
# both baselines end alike: rapidocr's default pass over `image`, then `key` looked up in its lines
# (whole line, else ignoring case, else inside a line), its centre printed in screen pixels
LOOKUP = """
out = RapidOCR(params={"Global.log_level": "error"})(image)
lines = list(zip(out.txts or (), out.boxes if out.boxes is not None else ()))
for test in (lambda t: t == key, lambda t: t.casefold() == key.casefold(), lambda t: key.casefold() in t.casefold()):
    for text, quad in lines:
        if test(text.strip()):
            x, y = quad.mean(axis=0)
            print(int(x) + left, int(y) + top)
            sys.exit(0)
sys.exit(1)
"""
BASELINE = (
    """
import sys, mss, numpy as np
from rapidocr import RapidOCR
left, top, width, height, key = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
with mss.mss() as grab:
    shot = grab.grab({"left": left, "top": top, "width": width, "height": height})
    image = np.ascontiguousarray(np.asarray(shot)[:, :, :3])
"""
    + LOOKUP
)


MATCH_BASELINE = """
import sys, cv2, mss, numpy as np
left, top, width, height, path = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
with mss.mss() as grab:
    pixels = grab.grab({"left": left, "top": top, "width": width, "height": height})
    shot = np.ascontiguousarray(np.asarray(pixels)[:, :, :3])
ref = cv2.cvtColor(cv2.imread(path), cv2.COLOR_BGR2GRAY)
grey = cv2.cvtColor(shot, cv2.COLOR_BGR2GRAY)
_, score, _, (x, y) = cv2.minMaxLoc(cv2.matchTemplate(grey, ref, cv2.TM_CCOEFF_NORMED))
if score < 0.75:
    sys.exit(1)
print(left + x + ref.shape[1] // 2, top + y + ref.shape[0] // 2)
"""
IMAGE_KEYS = ("7", "8", "9", "4", "5", "6", "1", "2", "3", "0", "+", "=")


def answered(name: str, out: str) -> tuple[int, int]:
    """The point a contender printed: a baseline's "x y", or the centre of what we located."""
    x, y = (
        (int(v) for v in out.split())
        if name == "baseline"
        else json.loads(out)["result"]["located"]["element"]["center"]
    )
    return x, y


def inside(box: list[int], point: tuple[int, int]) -> bool:
    return box[0] <= point[0] < box[2] and box[1] <= point[1] < box[3]


def timed(argv: list[str], env: dict[str, str]) -> tuple[float, int, str]:
    started = time.perf_counter()
    done = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=300)
    return time.perf_counter() - started, done.returncode, done.stdout


# the word, and the element of Chromium's tree that shows it (the drop-down showing "Standard" is named Shipping)
WEB_WORDS = (
    ("Name", "HeaderItem", "Name"),
    ("Qty", "HeaderItem", "Qty"),
    ("Search", "Text", "Search"),
    ("Standard", "ComboBox", "Shipping"),
    ("Details", "Hyperlink", "Details"),
    ("Item 2", "DataItem", "Item 2"),
)
WEB_BASELINE = (
    """
import sys, cv2
from rapidocr import RapidOCR
path, left, top, right, bottom, key = sys.argv[1], *map(int, sys.argv[2:6]), sys.argv[6]
image = cv2.imread(path)[top:bottom, left:right]
"""
    + LOOKUP
)


def web(rounds: int) -> None:
    shot = SCREENS / "chromium_form.png"
    truth = json.loads(shot.with_suffix(".json").read_text())
    w = truth["window"]["rect"]
    window = (w["left"], w["top"], w["right"], w["bottom"])
    cases = [
        (shot, window, word, next(t["rect"] for t in truth["targets"] if t["name"] == shown_by and t["type"] == kind))
        for word, kind, shown_by in WEB_WORDS
    ]
    saved(f"Chromium form (saved screenshot, its window), words {', '.join(w for w, _, _ in WEB_WORDS)}", cases, rounds)


# a menu item's row or a button, by hand from the picture (featherpad and the Writer crop have no tree recorded)
MENU_LABELS = (
    ("featherpad_menu.png", "Find", [148, 22, 372, 47]),
    ("featherpad_menu.png", "Replace", [148, 47, 372, 72]),
    ("jedit_menu.png", "Find...", [72, 24, 515, 47]),
    ("jedit_menu.png", "Find Next", [72, 51, 515, 75]),
    ("jedit_menu.png", "Replace All", [72, 205, 515, 228]),
    ("jedit_menu.png", "HyperSearch Bar", [72, 262, 515, 286]),
    ("writer_toolbar.png", "I", [628, 70, 656, 98]),
    ("writer_toolbar.png", "U", [660, 70, 688, 98]),
    ("gnome_calculator_advanced.png", "×", [214, 461, 266, 501]),
    ("gnome_calculator_advanced.png", "Im", [608, 509, 658, 549]),
)


def menus(rounds: int) -> None:
    cases = []
    for name, label, box in MENU_LABELS:
        picture = SCREENS / name
        pixels = cv2.imread(str(picture))
        assert pixels is not None, f"the saved picture {picture} did not load"
        height, width = pixels.shape[:2]
        cases.append((picture, (0, 0, width, height), label, box))
    saved(
        "Qt, Java, LibreOffice and GTK 4 menus and keys (saved screenshots, tests/fixtures/screens), labels "
        + ", ".join(label for _, label, _ in MENU_LABELS),
        cases,
        rounds,
    )


def saved(title: str, cases: list[tuple[Path, tuple[int, int, int, int], str, list[int]]], rounds: int) -> None:
    """Each label located in its window of a saved screenshot by a one-shot `winctl locate --in`,
    interleaved with a one-shot process running rapidocr's default pass on the same crop."""
    with tempfile.TemporaryDirectory() as scratch:
        env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "DBUS_SESSION_BUS_ADDRESS")}
        env["XDG_RUNTIME_DIR"] = scratch
        script = Path(scratch) / "saved_baseline.py"
        script.write_text(WEB_BASELINE)
        contenders = {
            "ours, one-shot": lambda shot, w, label: [
                WINCTL,
                "--no-daemon",
                "--json",
                "locate",
                f"text:{label}",
                "--in",
                str(shot),
                "--region",
                f"{w[0]},{w[1]},{w[2] - w[0]},{w[3] - w[1]}",
            ],
            "baseline": lambda shot, w, label: [sys.executable, str(script), str(shot), *map(str, w), label],
        }
        times: dict[str, list[float]] = {name: [] for name in contenders}
        right: dict[str, int] = {name: 0 for name in contenders}
        methods: list[str] = []
        for r in range(rounds):
            order = list(contenders) if r % 2 == 0 else list(reversed(contenders))
            for shot, window, label, box in cases:
                for name in order:
                    seconds, code, out = timed(contenders[name](shot, window, label), env)
                    times[name].append(seconds)
                    if code != 0 or r != 0:
                        continue
                    if name != "baseline":
                        methods.append(f"{label}: {json.loads(out)['result']['located']['method_used']}")
                    right[name] += inside(box, answered(name, out))
    print(f"{title}; {rounds} rounds interleaved; seconds per call, spawn to exit")
    report(times, right, len(cases))
    print("methods: " + "; ".join(methods))


def galculator_keys(env: dict[str, str], scale: int) -> tuple[dict, dict[str, list[int]]]:
    """galculator launched drawn `scale` times as large, once its keys show: its window and keys."""
    subprocess.run(["xdotool", "mousemove", "0", "0"], env=env, check=True)  # no hover, no tooltip
    subprocess.run(
        [WINCTL, "--no-daemon", "launch", "--", "env", f"GDK_SCALE={scale}", "galculator"],
        env=env,
        check=True,
        capture_output=True,
    )
    deadline = time.monotonic() + 30
    while True:
        state = json.loads(
            subprocess.run(
                [WINCTL, "--no-daemon", "--json", "state", "--verbose"],
                env=env,
                check=True,
                capture_output=True,
                text=True,
            ).stdout
        )["result"]
        keys = {t["name"]: t["rect"] for t in state["targets"] if t["type"] == "Button" and t["name"]}
        if all(key in keys for key in IMAGE_KEYS) or time.monotonic() > deadline:
            time.sleep(1.0)  # drawn, not only listed
            return state["window"], keys


def image(rounds: int, cut: int = 2, drawn: int = 1) -> None:
    """The keys cut from galculator drawn `cut` times as large, located in it drawn `drawn` times."""
    import cv2  # the benchmark's own crops; the contenders import what they need themselves

    said = f"@{cut}x"
    with VirtualDesktop() as desk, tempfile.TemporaryDirectory() as scratch:
        env = {**desk.env, "XDG_RUNTIME_DIR": scratch, "HOME": scratch}
        folder = Path(scratch)
        _, big = galculator_keys(env, cut)
        shot = folder / "cut.png"
        subprocess.run(
            [WINCTL, "--no-daemon", "screenshot", "--screen", str(shot)], env=env, check=True, capture_output=True
        )
        pixels = cv2.imread(str(shot))
        assert pixels is not None, f"the screenshot {shot} did not load"
        plain, marked = {}, {}  # the same crops, named without and with their density
        for n, key in enumerate(IMAGE_KEYS):
            x0, y0, x1, y1 = big[key]
            plain[key], marked[key] = folder / f"key{n}.png", folder / f"key{n}{said}.png"
            cv2.imwrite(str(plain[key]), pixels[y0:y1, x0:x1])
            cv2.imwrite(str(marked[key]), pixels[y0:y1, x0:x1])
        subprocess.run([WINCTL, "--no-daemon", "close"], env=env, check=True, capture_output=True)
        time.sleep(1.0)
        window, small = galculator_keys(env, drawn)
        w = window["rect"]
        script = folder / "match_baseline.py"
        script.write_text(MATCH_BASELINE)
        for session in ("daemon", "first"):  # both daemons started, untimed
            subprocess.run([WINCTL, "--session", session, "cursor"], env=env, check=True, capture_output=True)
        located = ["--window", "galculator", "--json", "locate", "--strategy", "template", "--no-cache"]
        contenders = {
            "first search": lambda key: [WINCTL, "--session", "first", "--no-daemon", *located, f"image:{plain[key]}"],
            f"first, {said}": lambda key: [
                WINCTL,
                "--session",
                "first",
                "--no-daemon",
                *located,
                f"image:{marked[key]}",
            ],
            "scale known": lambda key: [WINCTL, "--session", "known", "--no-daemon", *located, f"image:{plain[key]}"],
            "daemon, known": lambda key: [WINCTL, "--session", "daemon", *located, f"image:{plain[key]}"],
            f"daemon, {said}": lambda key: [WINCTL, "--session", "first", *located, f"image:{marked[key]}"],
            "baseline": lambda key: [
                sys.executable,
                str(script),
                str(w["left"]),
                str(w["top"]),
                str(w["right"] - w["left"]),
                str(w["bottom"] - w["top"]),
                str(plain[key]),
            ],
        }
        times: dict[str, list[float]] = {name: [] for name in contenders}
        right: dict[str, int] = {name: 0 for name in contenders}
        elsewhere: dict[str, int] = {name: 0 for name in contenders}  # answered with a place off the key
        searched: dict[str, list[float]] = {name: [] for name in contenders if name != "baseline"}
        for r in range(rounds):
            order = list(contenders) if r % 2 == 0 else list(reversed(contenders))
            for key in IMAGE_KEYS:
                for name in order:
                    if name.startswith("first") or name == f"daemon, {said}":  # nothing remembered: a session's start
                        subprocess.run(
                            [WINCTL, "--session", "first", "--no-daemon", "locate-cache", "clear"],
                            env=env,
                            check=True,
                            capture_output=True,
                        )
                    seconds, code, out = timed(contenders[name](key), env)
                    times[name].append(seconds)
                    if name != "baseline" and out.strip():
                        answer = json.loads(out)
                        attempts = (answer["result"]["located"] if answer["ok"] else {}).get("attempts", [])
                        searched[name] += [a["ms"] for a in attempts if a["strategy"] == "template"]
                    if code == 0 and r == 0:
                        hit = inside(small[key], answered(name, out))
                        right[name] += hit
                        elsewhere[name] += not hit
        subprocess.run([WINCTL, "session", "close", "--all"], env=env, capture_output=True)
    print(
        f"galculator at GDK_SCALE={drawn}, its keys {' '.join(IMAGE_KEYS)} cut at GDK_SCALE={cut}; {rounds} rounds "
        "interleaved; seconds per call, spawn to exit"
    )
    report(times, right, len(IMAGE_KEYS))
    print(
        "answered with a place off the key (our locates: a click on another key): "
        + ", ".join(f"{name} {count}" for name, count in elsewhere.items())
    )
    print(
        "the template search inside our calls (the locate's own `attempts` timing, found or not), ms median: "
        + ", ".join(f"{name} {statistics.median(ms):.1f}" for name, ms in searched.items() if ms)
    )


def report(times: dict[str, list[float]], right: dict[str, int], total: int) -> None:
    print(f"{'contender':<16} {'correct':>8} {'min':>6} {'median':>7} {'max':>6}")
    for name, values in times.items():
        print(
            f"{name:<16} {right[name]:>3}/{total:<4} {min(values):>6.2f} {statistics.median(values):>7.2f} "
            f"{max(values):>6.2f}"
        )
    base = statistics.median(times["baseline"])
    for name in times:
        if name != "baseline":
            print(f"{name}: {base / statistics.median(times[name]):.1f}x faster than the baseline (medians)")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--web", action="store_true", help="the words of a saved Chromium form instead")
    parser.add_argument("--image", action="store_true", help="galculator's keys by image, captured at 2x")
    parser.add_argument("--image-up", action="store_true", help="galculator at 2x, its keys captured at 1x")
    parser.add_argument("--menus", action="store_true", help="labels of saved Qt, Java, LibreOffice and GTK 4 pictures")
    args = parser.parse_args()
    rounds = args.rounds
    if args.web:
        web(rounds)
        return
    if args.image or args.image_up:
        image(rounds, *((1, 2) if args.image_up else (2, 1)))
        return
    if args.menus:
        menus(rounds)
        return
    with VirtualDesktop() as desk, tempfile.TemporaryDirectory() as scratch:
        env = {**desk.env, "XDG_RUNTIME_DIR": scratch, "HOME": scratch}
        script = Path(scratch) / "locate_baseline.py"
        script.write_text(BASELINE)
        subprocess.run([WINCTL, "--no-daemon", "launch", "--", "galculator"], env=env, check=True, capture_output=True)
        time.sleep(1.0)
        state = json.loads(
            subprocess.run(
                [WINCTL, "--no-daemon", "--json", "state", "--verbose"],
                env=env,
                check=True,
                capture_output=True,
                text=True,
            ).stdout
        )["result"]
        w = state["window"]["rect"]
        rects = {t["name"]: t["rect"] for t in state["targets"] if t["type"] == "Button"}
        subprocess.run([WINCTL, "cursor"], env=env, check=True, capture_output=True)  # starts the daemon
        contenders = {
            "ours, one-shot": lambda key: [WINCTL, "--no-daemon", "--json", "locate", f"text:{key}", "--no-cache"],
            "ours, daemon": lambda key: [WINCTL, "--json", "locate", f"text:{key}", "--no-cache"],
            "baseline": lambda key: [
                sys.executable,
                str(script),
                str(w["left"]),
                str(w["top"]),
                str(w["right"] - w["left"]),
                str(w["bottom"] - w["top"]),
                key,
            ],
        }
        times: dict[str, list[float]] = {name: [] for name in contenders}
        right: dict[str, int] = {name: 0 for name in contenders}
        for r in range(rounds):
            order = list(contenders) if r % 2 == 0 else list(reversed(contenders))
            for key in KEYS:
                for name in order:
                    seconds, code, out = timed(contenders[name](key), env)
                    times[name].append(seconds)
                    if code == 0 and r == 0:
                        right[name] += inside(rects[key], answered(name, out))
        subprocess.run([WINCTL, "session", "close", "--all"], env=env, capture_output=True)
    print(f"galculator, keys {' '.join(KEYS)}; {rounds} rounds interleaved; seconds per call, spawn to exit")
    report(times, right, len(KEYS))


if __name__ == "__main__":
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    main()
