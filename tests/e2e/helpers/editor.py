"""One Mousepad on a file, driven through one Desktop session: the task runner's tests read
what it saved."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

from tests.conftest import environment
from tests.fixtures.toolkit_apps import isolated_env, mousepad_command
from winactions.api import Desktop


class Editor:
    """One Mousepad on a file, driven through one Desktop session."""

    def __init__(self, desk, folder: Path, text: str = "", **env: str) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        self.doc = folder / "doc.txt"
        self.doc.write_text(text)
        self.env = {**desk.env, **isolated_env(folder / "home"), "XDG_RUNTIME_DIR": str(folder / "rt"), **env}
        (folder / "rt").mkdir(mode=0o700, exist_ok=True)
        self.desk = desk

    def __enter__(self) -> Editor:
        self._env = environment(self.env)
        self._env.__enter__()
        self.desktop = Desktop("agent")
        launched = self.desktop.call("launch", command=mousepad_command(self.doc), title="doc.txt")
        self.group = int(launched.detail.split()[-1])
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:  # the tree comes a moment after the window
            if any(t.type == "Edit" for t in self.desktop.state().targets):
                break
            time.sleep(0.2)
        return self

    def __exit__(self, *exc: object) -> None:
        for sig in (signal.SIGTERM, signal.SIGKILL):
            try:
                os.killpg(self.group, sig)
                time.sleep(0.3)
            except ProcessLookupError:
                break
        self.desktop.close()
        self._env.__exit__(None, None, None)

    def saved(self, expected: str, timeout: float = 5.0) -> str:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.doc.read_text() == expected:
                break
            time.sleep(0.1)
        return self.doc.read_text()
