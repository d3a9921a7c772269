"""Benchmark: what recording a session (`winctl record start DIR`) adds to each command.

    .venv/bin/python benchmarks/recording.py [--rounds 9]

Two sessions drive one GTK fixture window through the real `winctl` script and their session
daemons, as an agent does: `--session plain` does not record, `--session kept` records into a
folder. Each round runs each command once in each session, the order alternating each round:

- `click "Enable feature"` (an acting command: a tree read before unless the latest state is
  the window's, the settled state after, two window pictures);
- `input Name TEXT` (the same, on an entry);
- `get value Name` (a reading command: only its line).

Prints the median seconds per command for both sessions, their ratio, and the record's size:
its log's bytes per line and its pictures' bytes.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.conftest import start_app, stop_app  # noqa: E402
from tests.fixtures.launch import gtk_fixture_command  # noqa: E402

from winactions.backends.linux.virtual_desktop import VirtualDesktop  # noqa: E402

WINCTL = str(Path(sys.executable).with_name("winctl"))
TITLE = "Recording Benchmark"
COMMANDS = {
    "click": ["click", "Enable feature"],
    "input": ["input", "Name", "benchmark text"],
    "get value": ["get", "value", "Name"],
}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=9)
    args = parser.parse_args()
    with VirtualDesktop() as desk, tempfile.TemporaryDirectory() as tmp:
        env = {**desk.env, "XDG_RUNTIME_DIR": str(Path(tmp) / "rt")}
        (Path(tmp) / "rt").mkdir(mode=0o700)
        app = start_app(desk, gtk_fixture_command(str(Path(tmp) / "events.jsonl"), title=TITLE), TITLE)
        record = Path(tmp) / "record"
        try:

            def winctl(session: str, *words: str) -> float:
                started = time.monotonic()
                subprocess.run([WINCTL, "--session", session, *words], env=env, check=True, capture_output=True)
                return time.monotonic() - started

            for session in ("plain", "kept"):
                winctl(session, "focus", TITLE)
                winctl(session, "state")
            winctl("kept", "record", "start", str(record))
            times: dict[tuple[str, str], list[float]] = {}
            for round_ in range(args.rounds):
                for name, words in COMMANDS.items():
                    order = ("plain", "kept") if round_ % 2 == 0 else ("kept", "plain")
                    for session in order:
                        times.setdefault((name, session), []).append(winctl(session, *words))
            winctl("kept", "record", "stop")
        finally:
            subprocess.run([WINCTL, "session", "close", "--all"], env=env, capture_output=True)
            stop_app(app)
        lines = (record / "session.jsonl").read_text().splitlines()[1:]
        pictures = sorted(p.stat().st_size for p in record.glob("*.jpg"))
        print(f"{'command':<10} {'plain s':>8} {'kept s':>8} {'ratio':>6}   (medians of {args.rounds})")
        for name in COMMANDS:
            plain, kept = (statistics.median(times[(name, s)]) for s in ("plain", "kept"))
            print(f"{name:<10} {plain:>8.3f} {kept:>8.3f} {kept / plain:>6.2f}")
        log_bytes = (record / "session.jsonl").stat().st_size
        print(f"record: {len(lines)} lines, {log_bytes // max(1, len(lines))} bytes a line; {len(pictures)} pictures")
        print(f"pictures: median {statistics.median(pictures) / 1000:.1f} KB, largest {pictures[-1] / 1000:.1f} KB")


if __name__ == "__main__":
    main()
