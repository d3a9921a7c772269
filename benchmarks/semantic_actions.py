"""Benchmark: semantic actions and typing, end to end, against another version of winctl.

    .venv/bin/python benchmarks/semantic_actions.py OLD_WINCTL [ROUNDS]

OLD_WINCTL is the `winctl` script of a venv holding the code before (e.g. a worktree of an
older commit after `bash scripts/setup.sh demo`). Each version runs through its own session
daemon, on one private desktop and one GTK fixture app, interleaved (the order alternates each
round): `click` a button (its action), `input` a field (EditableText), `input --enter` (the
field focused and confirmed first, Enter's effect watched), `type` 200 characters (the focus
checked after each key), `state`. Prints min / median / max ms and non-zero exits per case.
"""

import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from tests.fixtures.launch import gtk_fixture_command  # noqa: E402

from winactions.backends.linux.virtual_desktop import VirtualDesktop  # noqa: E402

BINS = {"old": sys.argv[1], "new": str(Path(sys.executable).with_name("winctl"))}
ROUNDS = int(sys.argv[2]) if len(sys.argv) > 2 else 15


def element_id(state: str, kind: str, name: str) -> str:
    return next(line[1 : line.index("]")] for line in state.splitlines() if f'[{kind}] "{name}"' in line)


def run(env, ver, *args):
    t = time.perf_counter()
    p = subprocess.run([BINS[ver], "--session", ver, *args], env=env, capture_output=True, text=True, timeout=60)
    return time.perf_counter() - t, p


with VirtualDesktop() as d:
    rt = "/tmp/winctl-bench-rt"
    os.makedirs(rt, mode=0o700, exist_ok=True)
    env = {**os.environ, **d.env, "XDG_RUNTIME_DIR": rt}
    app = subprocess.Popen(gtk_fixture_command("/tmp/bench-log.jsonl", rows=5, title="Bench Fixture"), env=env)
    time.sleep(3)
    ids = {}
    for ver in BINS:
        run(env, ver, "focus", "Bench Fixture")
        _, p = run(env, ver, "state")
        ids[ver] = {"button": element_id(p.stdout, "Button", "Apply"), "edit": element_id(p.stdout, "Edit", "Name")}
    cases = {
        "click Apply": lambda v: ("click", ids[v]["button"]),
        "input Name": lambda v: ("input", ids[v]["edit"], "hello"),
        "input Name --enter": lambda v: ("input", ids[v]["edit"], "hello", "--enter"),
        "type 200 chars": lambda v: ("type", "x" * 200),
        "state": lambda v: ("state",),
    }
    times = {(c, v): [] for c in cases for v in BINS}
    fails = {(c, v): 0 for c in cases for v in BINS}
    for r in range(ROUNDS):
        for c, make in cases.items():
            for v in ("old", "new") if r % 2 else ("new", "old"):
                if c == "type 200 chars":
                    run(env, v, "input", ids[v]["edit"], "")
                dt, p = run(env, v, *make(v))
                times[(c, v)].append(dt)
                fails[(c, v)] += p.returncode != 0
    for c in cases:
        for v in BINS:
            ts = times[(c, v)]
            print(
                f"{c:20s} {v}: min {min(ts) * 1000:7.0f} median {statistics.median(ts) * 1000:7.0f} "
                f"max {max(ts) * 1000:7.0f} ms  (n={len(ts)}, nonzero exits {fails[(c, v)]})"
            )
    for v in BINS:
        run(env, v, "session", "close", v)
    app.terminate()
