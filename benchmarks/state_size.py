"""What a default `winctl state` costs beside a picture of the window, per app, two versions.

For each of the agent trial's apps (brought up by the trial's own `desk.py`, 1280×800
screen), a `winctl state` process is run for each version of winactions (a source folder per
version, e.g. main's worktree and a branch's), rounds interleaved: the text's tokens
(UTF-8 bytes / 4, as the trial counts them), the picture of the window's tokens (width ×
height / 750), their ratio, and min/median/max seconds of the process. Each version runs
with its own runtime folder, so its own session daemon (started before the timed rounds).

    .venv/bin/python -m benchmarks.state_size --version main=/tmp/main/src \\
        --version branch=src --rounds 5 [--task calc-invoices ...] [--markdown]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# task, what to do before reading (keys through winctl), the app's name in the table
APPS: list[tuple[str, tuple[str, ...], str]] = [
    ("calc-invoices", (), "LibreOffice Calc"),
    ("writer-bold", (), "LibreOffice Writer"),
    ("gnumeric-totals", (), "Gnumeric"),
    ("geany-replace", (), "Geany"),
    ("mousepad-open", (), "Mousepad"),
    ("mousepad-open", ("ctrl+o",), "Mousepad file chooser (400 files)"),
    ("firefox-contact", (), "Firefox contact page"),
    ("chromium-checkout", (), "Chromium checkout page"),
    ("galculator-copy", (), "galculator"),
    ("zenity-form", (), "zenity form"),
    ("terminal-prompts", (), "LXTerminal"),
    ("featherpad-insert", (), "FeatherPad"),
]


@dataclass
class Row:
    app: str
    picture: int = 0
    size: str = ""
    tokens: dict[str, int] = field(default_factory=dict)
    seconds: dict[str, list[float]] = field(default_factory=dict)


def trial(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "benchmarks.agent_trial", *args], cwd=ROOT, capture_output=True, text=True, timeout=600
    )


def desk_env(folder: Path) -> dict[str, str]:
    """The task desktop's environment, as its env.sh exports it."""
    env = {"PATH": "/usr/bin:/bin"}
    for line in (folder / "env.sh").read_text().splitlines():
        if line.startswith("export "):
            key, _, value = line[len("export ") :].partition("=")
            env[key] = value.strip("'")
    env.pop("PATH", None)
    return {**os.environ, **env}


def winctl(env: dict[str, str], source: str, runtime: Path, *args: str) -> tuple[str, float]:
    """`winctl ARGS` with winactions from `source`, its daemon in `runtime`: stdout, seconds."""
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", "import sys; from winactions.cli.entry import main; main()", *args],
        env={**env, "PYTHONPATH": source, "XDG_RUNTIME_DIR": str(runtime)},
        capture_output=True,
        text=True,
        timeout=180,
    )
    return done.stdout, time.perf_counter() - started


def measure(task: str, keys: tuple[str, ...], app: str, versions: dict[str, str], rounds: int) -> Row:
    folder = Path(tempfile.mkdtemp(prefix=f"state-size-{task}-"))
    shutil.rmtree(folder)
    up = trial("up", task, "winctl", str(folder))
    if up.returncode != 0:
        raise SystemExit(f"{task}: the desktop did not come up\n{up.stdout}\n{up.stderr}")
    row = Row(app)
    try:
        env = desk_env(folder)
        runtimes = {name: Path(tempfile.mkdtemp(prefix=f"rt-{name}-")) for name in versions}
        for runtime in runtimes.values():
            runtime.chmod(0o700)
        first = next(iter(versions))
        for key in keys:
            winctl(env, versions[first], runtimes[first], "keys", key)
            time.sleep(2)
        for name, source in versions.items():  # each daemon up and the app's tree built once
            winctl(env, source, runtimes[name], "state")
        data = json.loads(winctl(env, versions[first], runtimes[first], "--json", "state")[0])["result"]
        rect = data["window"]["rect"]
        width, height = rect["right"] - rect["left"], rect["bottom"] - rect["top"]
        row.picture, row.size = width * height // 750, f"{width}×{height}"
        for _ in range(rounds):
            for name, source in versions.items():
                text, seconds = winctl(env, source, runtimes[name], "state")
                row.tokens[name] = len(text.encode()) // 4
                row.seconds.setdefault(name, []).append(seconds)
        for name, source in versions.items():
            winctl(env, source, runtimes[name], "session", "close", "--all")
            shutil.rmtree(runtimes[name], ignore_errors=True)
    finally:
        trial("down", str(folder))
        shutil.rmtree(folder, ignore_errors=True)
    return row


def table(rows: list[Row], names: list[str]) -> str:
    head = ["App", "Window", "Picture"]
    for name in names:
        head += [f"{name} tokens", f"{name} ÷ picture", f"{name} s (min/med/max)"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in rows:
        cells = [r.app, r.size, f"{r.picture:,}"]
        for name in names:
            s = r.seconds.get(name, [0.0])
            cells += [
                f"{r.tokens.get(name, 0):,}",
                f"{r.tokens.get(name, 0) / max(r.picture, 1):.2f}",
                f"{min(s):.2f}/{statistics.median(s):.2f}/{max(s):.2f}",
            ]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--version", action="append", required=True, help="NAME=SOURCE_FOLDER (winactions' src)")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--task", action="append", help="only these tasks (default: every app)")
    args = parser.parse_args()
    versions = dict(v.split("=", 1) for v in args.version)
    versions = {name: str(Path(source).resolve()) for name, source in versions.items()}
    rows = []
    for task, keys, app in APPS:
        if args.task and task not in args.task:
            continue
        rows.append(measure(task, keys, app, versions, args.rounds))
        print(table(rows[-1:], list(versions)).splitlines()[-1], file=sys.stderr, flush=True)
    print(table(rows, list(versions)))


if __name__ == "__main__":
    main()
