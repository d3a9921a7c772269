"""Benchmark: the session daemon's round trips, against a bare interpreter start in the same run.

    .venv/bin/python benchmarks/daemon.py [--runs 30]

- thin client: `winctl --session b wait 0` as a whole process vs `python -c pass` (target <= 3x);
- the daemon's own handling of a ping, measured over its socket (target <= 5 ms);
- `state` on an unchanged window of ~100 and ~2,000 nodes, and a semantic `click`, measured as
  request -> reply on the socket (target for unchanged 2,000 nodes <= 50 ms).
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

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.fixtures.launch import gtk_fixture_command  # noqa: E402

from winactions.backends.linux.virtual_desktop import VirtualDesktop  # noqa: E402
from winactions.daemon import client  # noqa: E402

WINCTL = str(Path(sys.executable).with_name("winctl"))


def median_ms(fn, runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=30)
    args = parser.parse_args()
    with VirtualDesktop() as desk, tempfile.TemporaryDirectory() as runtime:
        env = {**desk.env, "XDG_RUNTIME_DIR": runtime}
        os.environ.update(env)
        apps = [
            subprocess.Popen(
                gtk_fixture_command(os.devnull, rows=rows, title=f"Daemon {rows}"),
                env=env,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
            for rows in (19, 652)
        ]
        time.sleep(3)
        try:
            subprocess.run([WINCTL, "--session", "b", "windows"], env=env, check=True, capture_output=True)
            info = client.read_session_file("b")
            assert info is not None

            def run(*argv: str) -> dict:
                return client.request(info, {"op": "run", "argv": list(argv)}, 120)

            bare = median_ms(lambda: subprocess.run([sys.executable, "-c", "pass"], env=env, check=True), args.runs)
            thin = median_ms(
                lambda: subprocess.run(
                    [WINCTL, "--session", "b", "wait", "0"], env=env, check=True, capture_output=True
                ),
                args.runs,
            )
            ping = median_ms(lambda: client.request(info, {"op": "ping"}, 5), args.runs * 10)
            rows = {}
            for size, title in (("~100", "Daemon 19"), ("~2,000", "Daemon 652")):
                run("focus", title)
                run("state")
                rows[size] = median_ms(lambda: run("state"), max(5, args.runs // 3))
            state = json.loads(run("--json", "focus", "Daemon 19")["stdout"])
            state = json.loads(run("--json", "state")["stdout"])["result"]
            apply = next(t["id"] for t in state["targets"] if t["name"] == "Apply")
            click = median_ms(lambda: run("click", str(apply)), args.runs)
        finally:
            client.stop("b")
            for a in apps:
                a.terminate()
    print(f"python -c pass            {bare:7.1f} ms")
    print(f"winctl --session (thin)   {thin:7.1f} ms   ratio {thin / bare:.2f}  (target <= 3)")
    print(f"daemon ping               {ping:7.2f} ms   (target <= 5)")
    for size, ms in rows.items():
        print(f"state, unchanged {size:6}  {ms:7.1f} ms" + ("   (target <= 50)" if size == "~2,000" else ""))
    print(f"click (semantic)          {click:7.1f} ms")


if __name__ == "__main__":
    main()
