"""The README's quick start, run word for word as a newcomer would type it (issue 16.7), and
the README's demo transcript, which `scripts/demo.py` must print.

The `<!-- quickstart -->` console block holds `$ winctl ...` lines and what they print,
`...` standing for anything. It runs in a fresh home and session on the test desktop, and
the app it launches is checked from outside (wmctrl) and stopped afterwards.
"""

from __future__ import annotations

import importlib.util
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from PIL import Image

from tests.conftest import wait_for_window
from tests.fixtures.readme import README, run_quickstart
from tests.fixtures.toolkit_apps import isolated_env

pytestmark = pytest.mark.desktop


def test_the_quick_start_runs_as_written(winctl, desktop, tmp_path, monkeypatch):
    for name, value in isolated_env(tmp_path / "home").items():
        monkeypatch.setitem(desktop.env, name, value)
    pids: list[int] = []

    def launched(out: str) -> None:
        pids.extend(int(p) for p in re.findall(r"pid (\d+)", out))
        wait_for_window(desktop, "Mousepad")  # the app is really there, for the window manager

    try:
        run_quickstart(lambda args: winctl(*args).out, launched)
    finally:
        for pid in pids:
            try:
                os.killpg(pid, signal.SIGTERM)
            except (ProcessLookupError, PermissionError):
                subprocess.run(["kill", str(pid)], check=False)


# The README's demo transcript: `scripts/demo.py` run as a newcomer runs it, compared line by line.
DEMO = README.parent / "scripts" / "demo.py"
ROOT_WARNING = "Warning: you are using the root account."  # Mousepad shows it to root only


def stable(transcript: str) -> list[str]:
    """The transcript's lines that hold on every machine: numbers (ids, which Mousepad's root
    warning shifts by one, pids, sizes, tokens) and temporary folders are masked, and the root
    warning's own line is dropped."""
    lines = []
    for line in transcript.splitlines():
        if ROOT_WARNING in line:
            continue
        line = re.sub(r"/tmp/[^/\s\"']+", "/tmp/*", line)
        lines.append(re.sub(r"\d+", "N", re.sub(r"0x[0-9a-f]+", "0xN", line)))
    return lines


def readme_demo() -> str:
    block = re.search(r"<!-- demo -->\n```console\n(.*?)```", README.read_text(encoding="utf-8"), re.S)
    assert block, "README.md has no demo transcript block"
    return block.group(1)


def left_running(marker: str) -> list[str]:
    """Live processes (zombies aside) whose environment carries `marker`: what the demo left."""
    found = []
    for entry in Path("/proc").iterdir():
        try:
            if entry.name.isdigit() and marker.encode() in (entry / "environ").read_bytes():
                command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
                found.append(f"{entry.name} {command}")
        except OSError:
            continue  # gone, or a zombie
    return found


def test_the_demo_prints_what_the_readme_quotes_and_leaves_nothing_running(tmp_path):
    """The demo drives Mousepad on its own desktop; what it prints is what the README shows,
    its checks of the app held (exit 0), its picture is the window's, and once it has exited
    none of its processes (Xvfb, buses, openbox, the daemon, Mousepad) is left."""
    picture = tmp_path / "demo.png"
    marker = f"WINACTIONS_DEMO_TEST={tmp_path.name}"
    env = {**os.environ, marker.split("=")[0]: marker.split("=")[1]}
    done = subprocess.run(
        [sys.executable, str(DEMO), "--picture", str(picture)], env=env, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stdout + done.stderr
    printed = done.stdout.replace(str(picture), "docs/images/demo.png")
    assert stable(printed) == stable(readme_demo()), (
        f"README.md's demo transcript is stale; the demo printed:\n{printed}"
    )
    assert "✓ the window's title (wmctrl -l)" in printed and "hello.txt - Mousepad" in printed
    assert png_size(picture) == png_size(README.parent / "docs/images/demo.png")
    assert (README.parent / "docs/images/demo.png").stat().st_size < 300_000, "the README's picture is too big"
    deadline = time.monotonic() + 10
    while (left := left_running(marker)) and time.monotonic() < deadline:
        time.sleep(0.2)  # a bus's children exit a moment after it
    assert not left, f"the demo left these running: {left}"


def test_the_readme_states_the_demos_token_costs():
    """The sentence under the transcript names the same costs the transcript printed."""
    cost = re.search(r"state: (\d+) tokens .*; picture: (\d+) tokens", readme_demo())
    assert cost, "the demo transcript has no cost line"
    text, picture = cost.groups()
    assert f"it costs {picture} tokens where the state's text costs {text}" in README.read_text(encoding="utf-8")


def png_size(path: Path) -> tuple[int, int]:
    with Image.open(path) as image:
        assert image.format == "PNG", path
        return image.size


def test_the_demo_fails_with_what_the_app_wrote_when_it_differs(tmp_path):
    """A save that did not happen, or wrote other bytes, stops the demo and says so; the window
    is not even looked at."""
    spec = importlib.util.spec_from_file_location("demo", DEMO)
    assert spec is not None and spec.loader is not None
    demo = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(demo)
    saved = tmp_path / "hello.txt"
    with pytest.raises(demo.DemoFailed, match="wrote no file"):
        demo.check_outcome({}, saved, "0x1")
    saved.write_text(demo.NOTES, encoding="utf-8")
    with pytest.raises(demo.DemoFailed, match="not the notes with the line added"):
        demo.check_outcome({}, saved, "0x1")
