"""The README's quick start, run word for word as a newcomer would type it (issue 16.7).

The `<!-- quickstart -->` console block holds `$ winctl ...` lines and what they print,
`...` standing for anything. It runs in a fresh home and session on the test desktop, and
the app it launches is checked from outside (wmctrl) and stopped afterwards.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess

import pytest

from tests.conftest import wait_for_window
from tests.fixtures.readme import run_quickstart
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
