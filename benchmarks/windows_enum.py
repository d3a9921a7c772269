"""Benchmark (Windows only): reading one window's tree with one UIA CacheRequest, against
pywinauto's `descendants()` and `uiautomation`'s walk over the same window, in one run.

    python benchmarks/windows_enum.py [--repeats 5] [--window TITLE]

Each reader collects the same facts per element (control type, name, automation id, rect,
enabled) so the work compared is the same; the per-element COM round trips the baselines
make are what the CacheRequest replaces. Without --window it opens File Explorer on
C:\\Windows\\System32 (a few hundred rows) and reads that. Prints times and ratios.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time


def main() -> None:  # noqa: C901  (a benchmark script: its steps in order)
    if sys.platform != "win32":
        raise SystemExit("this benchmark needs Windows (the Linux CI tests the backend against a fake)")
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--window", default=None)
    args = parser.parse_args()

    import uiautomation as auto  # the baselines, installed with the windows-bench extra
    from pywinauto import Desktop

    from winactions.backends.windows.backend import WindowsBackend

    title = args.window
    opened = None
    if title is None:
        opened = subprocess.Popen(["explorer.exe", r"C:\Windows\System32"])
        title = "System32"
        time.sleep(4)
    backend = WindowsBackend()
    window = next(w for w in backend.list_windows() if title.lower() in w.title.lower())
    hwnd = int(window.id, 16)

    def ours() -> int:
        return len(backend.snapshot(window).nodes)

    def pywinauto_walk() -> int:
        top = Desktop(backend="uia").window(handle=hwnd).wrapper_object()
        count = 0
        for e in top.descendants():
            info = e.element_info
            _ = (info.control_type, info.name, info.automation_id, info.rectangle, info.enabled)
            count += 1
        return count

    def uiautomation_walk() -> int:
        root = auto.ControlFromHandle(hwnd)
        count = 0
        for control, _depth in auto.WalkControl(root, maxDepth=0xFFFF):
            _ = (
                control.ControlTypeName,
                control.Name,
                control.AutomationId,
                control.BoundingRectangle,
                control.IsEnabled,
            )
            count += 1
        return count

    results = {}
    for name, reader in (
        ("winactions (one CacheRequest)", ours),
        ("pywinauto descendants()", pywinauto_walk),
        ("uiautomation WalkControl", uiautomation_walk),
    ):
        reader()  # warm-up
        times, count = [], 0
        for _ in range(args.repeats):
            start = time.perf_counter()
            count = reader()
            times.append(time.perf_counter() - start)
        results[name] = (statistics.median(times), count)
    base = results["winactions (one CacheRequest)"][0]
    print(f'window "{window.title}", median of {args.repeats}')
    for name, (seconds, count) in results.items():
        print(f"  {name:32} {seconds * 1000:8.1f} ms  {count:5d} elements  {seconds / base:6.1f}x ours")
    print(
        "(ours lists on-screen control-view elements; the baselines walk every element, so the element"
        " counts differ: compare per element too)"
    )
    for name, (seconds, count) in results.items():
        print(f"  {name:32} {seconds / max(1, count) * 1e6:8.1f} us per element")
    backend.close()
    if opened is not None:
        subprocess.run(["taskkill", "/FI", f"WINDOWTITLE eq {title}*", "/F"], capture_output=True)


if __name__ == "__main__":
    main()
