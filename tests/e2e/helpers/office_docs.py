"""LibreOffice documents opened as a user opens them, for the office app modules' tests.

One soffice per test module (`Office`): its first `launch` starts soffice.bin with a private
profile in a fresh home, each later one is handed to the running soffice.bin (as on a
desktop), so a test costs a document's opening, not an app's start. `Office.open(file)`
yields a `Desktop` session whose window is that document's; the document is closed after.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import environment
from tests.fixtures.toolkit_apps import isolated_env
from winactions.api import Desktop
from winactions.errors import WinctlError


class Office:
    """soffice (gtk3 plugin) on one virtual desktop, its profile and home under `folder`."""

    def __init__(self, desk, folder: Path) -> None:
        if shutil.which("soffice") is None:
            pytest.fail(
                "LibreOffice is not installed: run scripts/setup.sh test (scripts/packages/test-libreoffice.txt)"
            )
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "rt").mkdir(mode=0o700, exist_ok=True)
        self.folder = folder
        self.env = {
            **desk.env,
            **isolated_env(folder / "home"),
            "XDG_RUNTIME_DIR": str(folder / "rt"),
            "SAL_USE_VCLPLUGIN": "gtk3",
        }
        self.groups: list[int] = []

    def argv(self, *args: str) -> list[str]:
        profile = self.folder / "lo-profile"
        return ["soffice", "--norestore", "--nologo", f"-env:UserInstallation=file://{profile}", *args]

    @contextlib.contextmanager
    def open(self, *args: str, title: str) -> Iterator[Desktop]:
        """The document (`soffice ARGS`) in front, in a Desktop session on its window; closed
        after, unsaved changes dropped."""
        with environment(self.env):
            desktop = Desktop(f"office{len(self.groups)}")
            try:
                launched = desktop.call("launch", command=self.argv(*args), title=title, timeout=120)
                self.groups.append(int(re.search(r"pid (\d+)", launched.detail).group(1)))
                _wait_for_content(desktop)
                yield desktop
            finally:
                _close_document(desktop)
                desktop.close()

    def stop(self) -> None:
        for group in self.groups:
            for sig in (signal.SIGTERM, signal.SIGKILL):
                try:
                    os.killpg(group, sig)
                    time.sleep(0.5)
                except ProcessLookupError:
                    break


def _wait_for_content(desktop: Desktop, timeout: float = 60) -> None:
    """LibreOffice's document (a sheet's Table, Writer's paragraphs) joins the tree a moment
    after its frame."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        types = {t.type for t in desktop.state().targets}
        if {"Table", "Paragraph"} & types and "Menu" in types:
            time.sleep(1)
            return
        time.sleep(0.5)
    raise AssertionError("the document's content never showed in the tree")


def _close_document(desktop: Desktop) -> None:
    """Escape out of any dialog, close the document window, and drop unsaved changes."""
    with contextlib.suppress(WinctlError):
        for _ in range(3):
            desktop.call("keys", keys="Escape")
        desktop.call("keys", keys="ctrl+w")
        time.sleep(1.5)
        names = {t.name for t in desktop.state().targets}
        if "Don't Save" in names:
            desktop.call("click", id="Don't Save")
            time.sleep(1)
