"""winctl on Gecko (firefox-esr) and Blink (chromium, started without its accessibility flag).
Electron has no app in Debian 12 main: Chromium stands for Blink.

Each app is started with `winctl launch` (tests/fixtures/toolkit_apps.py); each outcome is read
from the app's side: the file it saved, its title as wmctrl sees it, a dialog that appeared.
"""

from __future__ import annotations

import pytest

from tests.conftest import Winctl, wait_for_window
from tests.e2e.helpers.apps import (
    process_command_line,
    semantic_click,
    target,
    wait_for,
)
from tests.fixtures.toolkit_apps import (
    chromium_plain_command,
    firefox_command,
    web_page,
)

pytestmark = pytest.mark.desktop


def _drive_page(winctl: Winctl, desktop) -> None:
    """The local page's button and field each rename the tab, which wmctrl reads back."""
    state = wait_for(winctl, ("Heading", "Toolkit page"), ("Button", "Press me"), ("Edit", "Name"))
    semantic_click(winctl, target(state, "Button", "Press me"))
    wait_for_window(desktop, "Pressed 1")
    winctl("input", str(target(state, "Edit", "Name")), "hello web")
    wait_for_window(desktop, "Typed hello web")


def test_gecko_firefox(winctl, desktop, launch, tmp_path):
    launch(firefox_command(tmp_path / "profile", web_page(tmp_path)), title="Toolkit page")
    _drive_page(winctl, desktop)


def test_blink_chromium_without_the_flag(winctl, desktop, launch, tmp_path):
    app = launch(chromium_plain_command(web_page(tmp_path), tmp_path / "profile"), title="Toolkit page")
    assert " --force-renderer-accessibility " in process_command_line(app.pid)
    _drive_page(winctl, desktop)
