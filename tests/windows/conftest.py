"""The Windows backend on any machine: `winctl` runs in-process with the Windows backend,
whose one OS-facing module is replaced by the fake desktop of `tests/fixtures/windows`.

The fake is shared by every `winctl` call of a test (as the real OS would be), while each
call builds its own backend and COM thread, as separate `winctl` processes do.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.conftest import Run, run_in_process
from tests.fixtures.windows.fake_native import FakeNative, load_app


class WinWinctl:
    def __init__(self, runtime: Path) -> None:
        self.runtime = runtime
        runtime.mkdir(mode=0o700, parents=True, exist_ok=True)

    def __call__(self, *args: str, expect: int | None = 0) -> Run:
        run = run_in_process(args, {"XDG_RUNTIME_DIR": str(self.runtime), "WINACTIONS_BACKEND": "windows"})
        if expect is not None:
            assert run.code == expect, f"winctl {' '.join(args)} -> {run.code}\n{run.out}\n{run.err}"
        return run

    def state(self, *extra: str) -> dict[str, Any]:
        return self("--json", "state", "--verbose", *extra).json["result"]

    def find(self, type_: str, name: str) -> dict[str, Any]:
        state = self.state()
        for t in state["targets"]:
            if t["type"] == type_ and t["name"] == name:
                return t
        listing = ", ".join(f"{t['type']} {t['name']!r}" for t in state["targets"])
        raise AssertionError(f"no {type_} {name!r}: {listing}")


@pytest.fixture
def fake(monkeypatch) -> FakeNative:
    desktop = FakeNative([load_app("notepad"), load_app("calculator"), load_app("settings")])
    monkeypatch.setattr("winactions.backends.windows.backend.load_native", lambda: desktop)
    return desktop


@pytest.fixture
def winctl(fake, tmp_path) -> WinWinctl:
    return WinWinctl(tmp_path / "runtime")
