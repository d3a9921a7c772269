"""What the adapter examples' tests share: run an example, read the app from another process,
stop the app the example launched."""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from tests.e2e.helpers.apps import stop_group

ROOT = Path(__file__).resolve().parents[3]


def run_example(
    name: str, args: list[str], env: dict[str, str], timeout: float = 150
) -> subprocess.CompletedProcess[str]:
    """examples/NAME run with these arguments and environment, as a user runs it."""
    return subprocess.run(
        [sys.executable, str(ROOT / "examples" / name), *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=ROOT,
    )


def winctl_json(env: dict[str, str], *args: str) -> dict[str, Any]:
    """`winctl --json ARGS`'s result, from a process of its own (safe from any thread)."""
    done = subprocess.run(
        [sys.executable, "-m", "winactions.cli.entry", "--no-daemon", "--json", *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, f"winctl {args} -> {done.returncode}\n{done.stdout}\n{done.stderr}"
    return json.loads(done.stdout)["result"]


def target(env: dict[str, str], window: str, type_: str, name: str | None = None) -> dict[str, Any]:
    """The first element of this type (and name) in the window's verbose state."""
    state = winctl_json(env, "--window", window, "state", "--verbose")
    found = [t for t in state["targets"] if t["type"] == type_ and (name is None or t["name"] == name)]
    assert found, f"no {type_} {name!r} in {[(t['type'], t['name']) for t in state['targets']]}"
    return found[0]


def calculator_display(env: dict[str, str], title: str = "galculator") -> list[str]:
    """What galculator's display shows (its Text elements' first words), read through AT-SPI."""
    state = winctl_json(env, "--window", title, "state")
    return [t["name"].split()[0] for t in state["targets"] if t["type"] == "Text" and t["name"].split()]


def calculator_shows(env: dict[str, str], number: str, timeout: float = 5) -> list[str]:
    """galculator's display once it shows `number`, or as it is after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while number not in (now := calculator_display(env)) and time.monotonic() < deadline:
        time.sleep(0.3)
    return now


def centre(rect: list[int]) -> list[int]:
    """The middle of a [left, top, right, bottom] rect (as `--json` gives it)."""
    return [(rect[0] + rect[2]) // 2, (rect[1] + rect[3]) // 2]


def stop_app_titled(env: dict[str, str], title: str) -> None:
    """Stop the app whose window has this title, and its process group (launch gave it one)."""
    found = subprocess.run(
        ["xdotool", "search", "--name", title, "getwindowpid"], env=env, capture_output=True, text=True
    ).stdout.split()
    for pid in dict.fromkeys(found):
        with contextlib.suppress(ProcessLookupError):
            stop_group(os.getpgid(int(pid)))
