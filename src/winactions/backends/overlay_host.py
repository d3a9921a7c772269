"""What the overlay process (`winactions.overlays.host`) needs of the platform's windows,
and the loader of the platform's module that provides it.

The overlay process draws with Tk; making a window let clicks through, giving it its class,
shaping the highlight ring and following another app's window are the platform's, so they
live in its backend (`backends/linux/overlay_windows.py` on X11).
"""

from __future__ import annotations

import importlib
import sys
from typing import Protocol

from winactions.errors import BackendUnavailable
from winactions.model import Rect

OVERLAY_CLASS = "Winctl"  # every overlay window's class; its instance says what it is for
CLICK_THROUGH = "status"  # the instance whose clicks pass to the window below
FOR_THE_PERSON = ("teach", "prompt")  # instances whose clicks are the person's: never the agent's


class OverlayPlatform(Protocol):
    """The platform calls of the overlay process, on its own connection to the display."""

    def dress(self, window: int, instance: str, click_through: bool) -> None:
        """Give a top-level window (its id as the toolkit's frame says it) the class
        `OVERLAY_CLASS` and `instance`; with `click_through`, an empty input region, so the
        pointer's clicks go to the window below."""

    def ring(self, window: int, width: int, height: int, thickness: int) -> None:
        """Cut the window down to a ring `thickness` px wide along its edges (what it draws
        elsewhere does not show), and let clicks through all of it."""

    def window_rect(self, window_id: str) -> Rect | None:
        """Where the app window `window_id` (as the backend names windows) is on screen now;
        None when it is gone, unmapped or minimized. ValueError when the id is not one of
        this platform's windows."""

    def keep_above(self, window: int) -> None:
        """Raise the window when a window the window manager placed is stacked above it (an
        app raised on activation); never above another override-redirect window (a menu)."""


def load() -> OverlayPlatform:
    """This platform's overlay calls; BackendUnavailable where overlays are not drawn."""
    if not sys.platform.startswith("linux"):
        raise BackendUnavailable(
            f"overlays are drawn on Linux (X11) only, not on {sys.platform}",
            hint="the status indicator and teach mode need an X11 desktop",
        )
    module = importlib.import_module("winactions.backends.linux.overlay_windows")
    platform: OverlayPlatform = module.X11Overlays()
    return platform
