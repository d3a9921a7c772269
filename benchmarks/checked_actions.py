"""Benchmark: what the action checks cost, end to end, against the code before them.

    .venv/bin/python benchmarks/checked_actions.py --old-src /path/to/checkout-before/src [--rounds 5]

Two checks were added to actions that use the mouse and keyboard: a mouse click on an element
first asks X what is on top at its point (a tooltip, a window kept on top, an open menu), and
`input` by keyboard reads the field back to see that the old text went. Both cost round trips.
Each command runs as a user runs it, through the real `winctl` script, spawn to exit, for both
versions of the code in the same run, interleaved (the order alternates each round), each
version with its own session daemon (`--no-daemon`: a one-shot process instead). Before each
timed command, untimed: `focus` the window and `state`, as an agent looks before it acts.

- `winctl click ID --via input` on galculator's 7 key (a real app; a mouse click);
- `winctl click ID --via input` on a button of a web page in Chromium: the browser's own hit
  test is asked what lies at the point (a banner over the button would take the click);
- `winctl input ID TEXT --via input` on the fixture's Name entry, which holds text (mouse to
  focus it, ctrl+a, typing; the new code then reads it back);
- `winctl keys Tab` on the fixture's window: through the daemon, `keys` now returns once the
  app's focus events have stopped for 0.1 s;
- `winctl state` on the fixture's window with no menu open: `state` now also asks X for the
  app's open menus (and reads a context menu the frame lacks), one query per state.
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.fixtures.launch import gtk_fixture_command  # noqa: E402
from tests.fixtures.toolkit_apps import chromium_plain_command  # noqa: E402

from winactions.backends.linux.virtual_desktop import VirtualDesktop  # noqa: E402

WINCTL = str(Path(sys.executable).with_name("winctl"))
PAGE = """<!doctype html><html><head><title>Web page</title></head><body>
<button style="margin:40px;width:200px;height:60px" onclick="document.title='Web page ' + (++window.n)">Press</button>
<script>window.n = 0;</script></body></html>"""


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--old-src", required=True, help="the src folder of a checkout of the code before")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    # Chromium's helpers may still write to its profile while the folder goes
    with VirtualDesktop() as desk, tempfile.TemporaryDirectory(ignore_cleanup_errors=True) as tmp:
        apps = [
            subprocess.Popen(["galculator"], env=desk.env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL),
            subprocess.Popen(
                gtk_fixture_command(os.devnull, rows=5, title="Checked"),
                env=desk.env,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            ),
        ]
        page = Path(tmp) / "page.html"
        page.write_text(PAGE)
        apps.append(
            subprocess.Popen(
                [*chromium_plain_command(page.as_uri(), Path(tmp) / "chromium"), "--force-renderer-accessibility"],
                env=desk.env,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
        )
        subprocess.run(["xdotool", "mousemove", "0", "0"], env=desk.env, check=True)
        time.sleep(6)
        versions = {}
        for name, src in (("before", args.old_src), ("now", str(ROOT / "src"))):
            compileall.compile_dir(src, quiet=1)  # both start from bytecode: a fresh checkout has none
            runtime = Path(tmp) / name
            runtime.mkdir(mode=0o700)
            versions[name] = {**desk.env, "XDG_RUNTIME_DIR": str(runtime), "PYTHONPATH": src}

        def winctl(version: str, *argv: str, daemon: bool = True) -> subprocess.CompletedProcess[str]:
            flags = [] if daemon else ["--no-daemon"]
            return subprocess.run(
                [WINCTL, *flags, *argv], env=versions[version], capture_output=True, text=True, timeout=120
            )

        def element(version: str, window: str, kind: str, name: str) -> str:
            winctl(version, "focus", window)
            state = json.loads(winctl(version, "--json", "state").stdout)["result"]
            return str(next(t["id"] for t in state["targets"] if t["type"] == kind and t["name"] == name))

        try:
            ids = {
                v: {
                    "key": element(v, "galculator", "Button", "7"),
                    "field": element(v, "Checked", "Edit", "Name"),
                    "web": element(v, "Web page", "Button", "Press"),
                }
                for v in versions
            }
            cases = {
                "click --via input (galculator key)": (
                    "galculator",
                    lambda v: ("click", ids[v]["key"], "--via", "input"),
                ),
                "click --via input (Chromium button)": (
                    "Web page",
                    lambda v: ("click", ids[v]["web"], "--via", "input"),
                ),
                "input --via input (GTK entry)": (
                    "Checked",
                    lambda v: ("input", ids[v]["field"], "some text", "--via", "input"),
                ),
                # keys returns once the app's focus events stop (heard by the daemon only)
                "keys Tab (GTK entry)": ("Checked", lambda v: ("keys", "Tab")),
                # state also asks the X server for open menus, and reads those the frame lacks
                "state (GTK fixture, nothing open)": ("Checked", lambda v: ("state",)),
            }
            print(
                f"{'command':38} {'path':9} {'before: min/median/max s':>26} {'now: min/median/max s':>24} "
                f"{'now/before':>10}"
            )
            for label, (window, argv) in cases.items():
                for daemon in (True, False):
                    times: dict[str, list[float]] = {v: [] for v in versions}
                    for round_ in range(args.rounds):
                        for v in ("before", "now") if round_ % 2 == 0 else ("now", "before"):
                            winctl(v, "focus", window, daemon=daemon)  # untimed, as an agent looks before it acts
                            winctl(v, "state", daemon=daemon)
                            started = time.perf_counter()
                            done = winctl(v, *argv(v), daemon=daemon)
                            times[v].append(time.perf_counter() - started)
                            assert done.returncode == 0, (v, done.stdout, done.stderr)
                    cells = [f"{min(t):.3f}/{statistics.median(t):.3f}/{max(t):.3f}" for t in times.values()]
                    ratio = statistics.median(times["now"]) / statistics.median(times["before"])
                    print(
                        f"{label:38} {'daemon' if daemon else 'one-shot':9} {cells[0]:>26} {cells[1]:>24} {ratio:9.2f}x"
                    )
        finally:
            for v in versions:
                winctl(v, "session", "close", "--all")
            for app in apps:
                app.terminate()
            for app in apps:
                app.wait(10)


if __name__ == "__main__":
    main()
