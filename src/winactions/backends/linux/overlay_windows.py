"""The overlay process's X11 calls (`backends.overlay_host.OverlayPlatform`), and where
winctl's own overlay windows are (`overlay_windows`, for the backend's `overlays`).

Click-through is the X Shape extension's input region set empty: the X server then delivers
the pointer's events to the window below, and XTranslateCoordinates looks through the window
too. The ring is the bounding region cut to the window's edges.
"""

from __future__ import annotations

from typing import Any

from Xlib import X, Xutil, display, error
from Xlib.ext import shape

from winactions.backends.overlay_host import OVERLAY_CLASS
from winactions.model import Rect


class X11Overlays:
    """`OverlayPlatform` on one X connection of its own (DISPLAY)."""

    def __init__(self) -> None:
        self.d = display.Display()
        self.root = self.d.screen().root

    def _window(self, wid: int) -> Any:
        """The top-level X window holding `wid` (the root's child: a toolkit's wrapper)."""
        win = self.d.create_resource_object("window", wid)
        while True:
            parent = win.query_tree().parent
            if not parent or parent.id == self.root.id:
                return win
            win = parent

    def dress(self, window: int, instance: str, click_through: bool) -> None:
        win = self._window(window)
        win.set_wm_class(instance, OVERLAY_CLASS)
        if click_through:
            win.shape_rectangles(shape.SO.Set, shape.SK.Input, X.Unsorted, 0, 0, [])
        self.d.sync()

    def ring(self, window: int, width: int, height: int, thickness: int) -> None:
        t = thickness
        edges = [
            (0, 0, width, t),
            (0, height - t, width, t),
            (0, t, t, height - 2 * t),
            (width - t, t, t, height - 2 * t),
        ]
        win = self._window(window)
        win.shape_rectangles(shape.SO.Set, shape.SK.Bounding, X.Unsorted, 0, 0, edges)
        win.shape_rectangles(shape.SO.Set, shape.SK.Input, X.Unsorted, 0, 0, [])
        self.d.sync()

    def window_rect(self, window_id: str) -> Rect | None:
        wid = int(window_id, 16)  # ValueError: not an X window id
        try:
            win = self.d.create_resource_object("window", wid)
            if win.get_attributes().map_state != X.IsViewable:
                return None
            state = win.get_wm_state()
            if state is not None and state.state == Xutil.IconicState:
                return None
            geometry = win.get_geometry()
            origin = self.root.translate_coords(win, 0, 0)
        except error.XError:
            return None
        return Rect.from_xywh(origin.x, origin.y, geometry.width, geometry.height)

    def keep_above(self, window: int) -> None:
        try:
            top = self._window(window)
            stack = self.root.query_tree().children
            ids = [int(c.id) for c in stack]
            if int(top.id) not in ids:
                return
            for child in stack[ids.index(int(top.id)) + 1 :]:
                attributes = child.get_attributes()
                if attributes.map_state == X.IsViewable and not attributes.override_redirect:
                    top.configure(stack_mode=X.Above)
                    self.d.sync()
                    return
        except error.XError:
            return  # a window went away while we looked


def overlay_windows(d: display.Display) -> list[tuple[Rect, str]]:
    """winctl's overlay windows mapped on screen (class `OVERLAY_CLASS`), top first, with
    their instance (`status`, `teach`, `prompt`). A ring counts as its whole rectangle."""
    root = d.screen().root
    found = []
    try:
        stack = root.query_tree().children
    except error.XError:
        return []
    for child in reversed(stack):
        try:
            attributes = child.get_attributes()
            if attributes.map_state != X.IsViewable or not attributes.override_redirect:
                continue
            wm_class = child.get_wm_class()
            if not wm_class or wm_class[1] != OVERLAY_CLASS:
                continue
            geometry = child.get_geometry()
            origin = root.translate_coords(child, 0, 0)
        except error.XError:
            continue  # it closed while we looked
        found.append((Rect.from_xywh(origin.x, origin.y, geometry.width, geometry.height), wm_class[0]))
    return found
