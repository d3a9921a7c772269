"""Benchmark: what the access gate adds to each act on Linux, measured in-process.

    .venv/bin/python benchmarks/access_gate.py [--rounds 50]

The gate runs one lookup before each act, confined or not (unconfined, it still keeps agent
input off winctl's own prompt): a press at a point asks X for the top-level window there
(`app_at`), keys ask for the window with the input focus (`focused_app`), an accessibility
action asks the bus for the element's process and X for that process's windows
(`app_of_element`). Each is timed alone, median of `--rounds` calls, on a virtual desktop with
two fixture apps and the window manager's own windows, beside a `state` read of one app.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.conftest import wait_for_window  # noqa: E402
from tests.fixtures.launch import HERE, SYSTEM_PYTHON  # noqa: E402

from winactions.backends.linux.virtual_desktop import VirtualDesktop  # noqa: E402


def median_ms(call: Callable[[], object], rounds: int) -> float:
    times = []
    for _ in range(rounds):
        started = time.perf_counter()
        call()
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=50)
    rounds = parser.parse_args().rounds
    with VirtualDesktop() as desk, tempfile.TemporaryDirectory() as tmp:
        procs = []
        for name, x in (("first", 40), ("second", 520)):
            argv = [SYSTEM_PYTHON, str(HERE / "access_app.py"), "--app", name, "--title", name.title()]
            argv += ["--log", f"{tmp}/{name}.jsonl", "--x", str(x), "--y", "40"]
            procs.append(subprocess.Popen(argv, env=desk.env))
            wait_for_window(desk, name.title())
        time.sleep(1)
        os.environ.update(desk.env)
        from winactions.backends.linux.backend import LinuxBackend

        backend = LinuxBackend()
        window = next(w for w in backend.list_windows() if w.title == "First")
        handle = backend.snapshot(window).nodes[-1].handle
        assert window.rect is not None
        x, y = window.rect.center
        results = {
            "app_at (a press)": median_ms(lambda: backend.app_at(x, y), rounds),
            "focused_app (keys)": median_ms(backend.focused_app, rounds),
            "app_of_element (an action)": median_ms(lambda: backend.app_of_element(handle), rounds),
            "snapshot of the window (for scale)": median_ms(lambda: backend.snapshot(window), max(5, rounds // 5)),
        }
        children = len(backend.x11.root.query_tree().children)
        backend.close()
        for proc in procs:
            proc.terminate()
    print(f"root windows: {children}; median of {rounds} calls")
    for what, ms in results.items():
        print(f"{what:40s} {ms:7.2f} ms")


if __name__ == "__main__":
    main()
