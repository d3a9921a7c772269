"""Plain helpers shared by the Windows-backend test modules (fixtures are in conftest.py)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
WINCTL = str(Path(sys.executable).with_name("winctl"))


def calc_ids(winctl):
    """The fake Calculator focused; its elements' ids by automation id."""
    winctl("focus", "Calculator")
    state = winctl.state()
    return {t.get("automation_id"): t["id"] for t in state["targets"] if t.get("automation_id")}


def display(fake):
    """What the fake Calculator's result field shows."""
    app = next(a for a in fake.apps if a.title == "Calculator")
    return fake.find(app, AutomationId="CalculatorResults")["Name"]


def windows_env(tmp_path: Path) -> dict[str, str]:
    """The environment of a separate `winctl` process on the Windows backend over the fake
    Native layer (Notepad and Calculator running), with its own runtime folder."""
    runtime = tmp_path / "runtime"
    runtime.mkdir(mode=0o700, exist_ok=True)
    return {
        **os.environ,
        "XDG_RUNTIME_DIR": str(runtime),
        "WINACTIONS_BACKEND": "windows",
        "WINACTIONS_WINDOWS_NATIVE": "tests.fixtures.windows.fake_native:create",
        "WINACTIONS_FAKE_APPS": "notepad,calculator",
        "PYTHONPATH": os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p),
    }
