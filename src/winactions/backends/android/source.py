"""Where the UI hierarchy comes from: a pluggable source of dump XML.

The default runs `uiautomator dump /dev/tty` through exec-out: nothing is installed on the
phone, at the price of ~1-3 s a dump on a real device. A faster on-device server
(uiautomator2's, an accessibility service) is another `TreeSource` returning the same XML;
the backend and the core do not change.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Protocol

from winactions.backends.android.hierarchy import strip_trailer
from winactions.errors import AppBusy

# uiautomator's transient failures: the screen was animating, or the accessibility bridge
# had no window yet (just after an app switch). Both pass when asked again.
IDLE_STATE = "could not get idle state"
NULL_ROOT = "null root node returned by UiTestAutomationBridge"
ATTEMPTS = 4
PAUSE = 0.4  # seconds between attempts


class NoTree(Exception):
    """The screen has no accessibility tree at all (a game's canvas, a secure surface)."""


class TreeSource(Protocol):
    name: str

    def dump(self) -> str:
        """The current screen's hierarchy XML. Raises NoTree or a WinctlError."""
        ...


class UiautomatorDump:
    """`uiautomator dump /dev/tty`, retried on its transient failures, trailer stripped."""

    name = "uiautomator dump"

    def __init__(self, shell: Callable[[list[str]], str], sleep: Callable[[float], None] = time.sleep) -> None:
        self.shell = shell
        self.sleep = sleep

    def dump(self) -> str:
        last = ""
        for attempt in range(ATTEMPTS):
            if attempt:
                self.sleep(PAUSE)
            out = self.shell(["uiautomator", "dump", "/dev/tty"])
            start = out.find("<?xml")
            if start < 0:
                start = out.find("<hierarchy")
            if start >= 0 and "</hierarchy>" in out:
                return strip_trailer(out[start:])
            last = out.strip()
            if IDLE_STATE not in last and NULL_ROOT not in last:
                break
        if NULL_ROOT in last:
            raise NoTree(last)
        if IDLE_STATE in last:
            raise AppBusy(
                f"the phone's screen never settled for uiautomator ({last})",
                hint="it keeps animating (a video, a progress animation): wait and run `winctl state` "
                "again, or read it from pixels: `winctl screenshot`, `winctl --vision local state`",
            )
        raise AppBusy(
            f"uiautomator dump failed: {last[:300] or 'no output'}",
            hint="run `winctl state` again; `adb shell uiautomator dump /dev/tty` shows the phone's answer",
        )
