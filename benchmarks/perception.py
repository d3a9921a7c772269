"""Benchmark: how well Tier 1+ finds hidden handles, and what local Tier 2 vision costs.

    .venv/bin/python benchmarks/perception.py [--repeats 3]

1. Hidden draggable handles on the fixture apps — the GTK fixture's TreeView column borders
   and Paned divider, the Chromium grid page's column borders and sidebar edge. The truth is
   each app's own account of where it takes the mouse (the GTK app logs its header buttons'
   edges and the paned's handle window on F12; the page prints its grab edges), compared
   with the centre of the handle `--infer` (rules) derived. Prints the share found and the
   median position error (targets: 100%, 0 px).
2. `--vision local` on a 1920x1080 window: a plain `state`, the same with local vision, and
   as the named baseline the default full-window rapidocr pass on the same pixels, all in
   the same run.
(`--infer`'s added latency at 100 and 2,000 nodes is in benchmarks/run.py.)
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.fixtures.applog import AppLog  # noqa: E402
from tests.fixtures.launch import chromium_command, gtk_fixture_command  # noqa: E402

from winactions.backends.base import WindowAction  # noqa: E402
from winactions.backends.linux.backend import LinuxBackend  # noqa: E402
from winactions.backends.linux.virtual_desktop import VirtualDesktop  # noqa: E402
from winactions.keys import parse_keys  # noqa: E402
from winactions.model import Rect, UIState, WindowInfo  # noqa: E402
from winactions.session.desktop import DesktopSession  # noqa: E402
from winactions.session.store import SessionStore  # noqa: E402

HANDLE_TYPES = ("ColumnBorder", "Splitter", "PanelGrip", "RowBorder")


def wait_window(backend: LinuxBackend, title: str, timeout: float = 30.0) -> WindowInfo:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for w in backend.list_windows():
            if title in w.title:
                return w
        time.sleep(0.1)
    raise SystemExit(f"window {title!r} never appeared")


def session_for(backend: LinuxBackend, store: Path, name: str) -> DesktopSession:
    return DesktopSession(backend, SessionStore(name, directory=store))


def inferred_x(state: UIState, type_: str, name: str) -> int | None:
    for t in state.targets:
        if t.type == type_ and t.name == name and t.rect is not None:
            return t.rect.center[0]
    return None


def gtk_handles(backend: LinuxBackend, session: DesktopSession, log: AppLog) -> list[tuple[str, int, int | None]]:
    window = wait_window(backend, "Perception GTK")
    backend.window_action(window.id, WindowAction.ACTIVATE)
    time.sleep(1.0)
    backend.press_chords(parse_keys("F12"))
    deadline = time.monotonic() + 10
    while not log.events("handles"):
        if time.monotonic() > deadline:
            raise SystemExit("the GTK fixture never reported its handles")
        time.sleep(0.1)
    truth = log.last("handles")
    session.set_tiers(infer="rules")
    state = session.refresh_state(window)
    names = {"ID": "ID | Name", "Name": "Name | Size"}
    rows = [
        (f"gtk column {names[c]}", x, inferred_x(state, "ColumnBorder", names[c])) for c, x in truth["columns"].items()
    ]
    rows.append(("gtk paned divider", truth["divider"], inferred_x(state, "Splitter", "Splitter")))
    print(f"(the GTK paned takes the mouse over x {truth['divider_area'][0]}..{truth['divider_area'][1]})")
    return rows


def web_handles(backend: LinuxBackend, session: DesktopSession) -> list[tuple[str, int, int | None]]:
    window = wait_window(backend, "Grid Fixture")
    session.set_tiers(infer="rules")
    deadline = time.monotonic() + 30
    while True:
        state = session.refresh_state(window)
        status = next((t for t in state.targets if t.name.startswith("edges ")), None)
        document = next((t for t in state.targets if t.type == "Document" and t.rect is not None), None)
        if status is not None and document is not None and document.rect is not None:
            break
        if time.monotonic() > deadline:
            raise SystemExit("the grid page never showed its edges")
        time.sleep(0.5)
    side, product, qty = (document.rect.left + int(v) for v in status.name.split()[1].split(","))
    return [
        ("web sidebar grip", side, inferred_x(state, "PanelGrip", "Explorer | Orders")),
        ("web column Product | Qty", product, inferred_x(state, "ColumnBorder", "Product | Qty")),
        ("web column Qty | Price", qty, inferred_x(state, "ColumnBorder", "Qty | Price")),
    ]


def vision_bench(backend: LinuxBackend, store: Path, repeats: int) -> dict[str, float]:
    import numpy as np
    from rapidocr import RapidOCR

    window = wait_window(backend, "Perception GTK")
    backend.window_action(window.id, WindowAction.MOVE_RESIZE, Rect.from_xywh(0, 0, 1920, 1080))
    time.sleep(1.0)
    window = wait_window(backend, "Perception GTK")
    assert window.rect is not None
    plain = session_for(backend, store, "plain")
    seen = session_for(backend, store, "vision")
    seen.set_tiers(vision="local")
    plain.refresh_state(window)
    seen.refresh_state(window)  # warm-up: loads the OCR models once, as a daemon would
    t_plain, t_vision, t_default = [], [], []
    default = RapidOCR(params={"Global.log_level": "error"})
    added = 0
    for _ in range(repeats):
        start = time.perf_counter()
        plain_state = plain.refresh_state(window)
        t_plain.append(time.perf_counter() - start)
        start = time.perf_counter()
        vision_state = seen.refresh_state(window)
        t_vision.append(time.perf_counter() - start)
        added = len(vision_state.targets) - len(plain_state.targets)
        pixels = np.asarray(backend.capture(window.rect))
        start = time.perf_counter()
        default(pixels)
        t_default.append(time.perf_counter() - start)
    return {
        "width": window.rect.width,
        "height": window.rect.height,
        "plain": statistics.median(t_plain),
        "vision": statistics.median(t_vision),
        "default_ocr": statistics.median(t_default),
        "added": added,
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    with VirtualDesktop() as desk, tempfile.TemporaryDirectory() as tmp:
        os.environ.update(desk.env)
        log_path = Path(tmp) / "gtk.jsonl"
        procs = [
            subprocess.Popen(
                gtk_fixture_command(str(log_path), rows=30, title="Perception GTK"),
                env=desk.env,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            ),
            subprocess.Popen(
                chromium_command((ROOT / "tests/fixtures/web/grid.html").as_uri(), f"{tmp}/profile"),
                env=desk.env,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            ),
        ]
        backend = LinuxBackend()
        store = Path(tmp) / "store"
        try:
            rows = web_handles(backend, session_for(backend, store, "web"))
            rows += gtk_handles(backend, session_for(backend, store, "gtk"), AppLog(str(log_path)))
            vision = vision_bench(backend, store, args.repeats)
        finally:
            backend.close()
            for p in procs:
                p.terminate()
            for p in procs:
                p.wait(timeout=15)  # Chromium writes its profile until it has exited
    print("Hidden draggable handles, --infer (rules) against each app's own grab positions (x, screen px)")
    errors = []
    for name, truth, found in rows:
        error = None if found is None else abs(found - truth)
        if error is not None:
            errors.append(error)
        print(
            f"  {name:28} app {truth:5d}  inferred {found if found is not None else '-':>5}  "
            f"error {error if error is not None else 'not found'}"
        )
    share = len(errors) / len(rows)
    median = statistics.median(errors) if errors else float("nan")
    print(
        f"  found {len(errors)}/{len(rows)} ({share:.0%}), median position error {median:g} px "
        f"(targets: 100%, 0 px) -> {'met' if share == 1 and median == 0 else 'NOT met'}"
    )
    v = vision
    print(f"\n--vision local on a {v['width']}x{v['height']} window (median of {args.repeats}, same run)")
    print(
        f"  plain state {v['plain'] * 1000:.0f} ms; with --vision local {v['vision'] * 1000:.0f} ms "
        f"(+{v['added']:.0f} targets)"
    )
    print(
        f"  baseline, default rapidocr pass over the same window: {v['default_ocr'] * 1000:.0f} ms "
        f"-> --vision local takes {v['vision'] / v['default_ocr']:.2f}x of it"
    )


if __name__ == "__main__":
    main()
