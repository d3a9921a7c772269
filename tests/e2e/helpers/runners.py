"""`winctl` as a separate process, beside the in-process `winctl` fixture: through the
session's daemon, as a shell agent runs it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.conftest import Run, Winctl

WINCTL = str(Path(sys.executable).with_name("winctl"))  # the console script installed beside this Python


class SessionDaemon:
    """`winctl` as a separate process, through the session's daemon, beside the in-process
    one-shot `winctl` fixture on the same runtime folder (so both serve one session)."""

    def __init__(self, env: dict[str, str]) -> None:
        self.env = env

    def __call__(self, *args: str, expect: int | None = 0) -> Run:
        done = subprocess.run([WINCTL, *args], env=self.env, capture_output=True, text=True, timeout=120)
        if expect is not None:
            assert done.returncode == expect, f"winctl {args} -> {done.returncode}\n{done.stdout}\n{done.stderr}"
        return Run(done.returncode, done.stdout, done.stderr)

    def state(self) -> dict:
        return self("--json", "state").json["result"]


class NamedSession:
    """`winctl --session NAME ...` through the real console script: the session's daemon."""

    def __init__(self, winctl: Winctl, name: str) -> None:
        self.env, self.name = winctl.env, name

    def __call__(self, *args: str) -> str:
        done = subprocess.run(
            [WINCTL, "--session", self.name, *args], env=self.env, capture_output=True, text=True, timeout=120
        )
        assert done.returncode == 0, (
            f"winctl --session {self.name} {' '.join(args)} -> {done.returncode}\n{done.stdout}\n{done.stderr}"
        )
        return done.stdout

    def close(self) -> None:
        subprocess.run([WINCTL, "session", "close", self.name], env=self.env, capture_output=True, timeout=60)
