"""Which application an X window, a screen point, the keyboard focus or a process belongs to.

An app is the process that made the window, as the X server knows it (X-Resource; the
window's own `_NET_WM_PID` where the server cannot tell), named by the WM_CLASS instance and
class of the window and by its program (the process's executable name), in that order: the
first is the name said in messages (a Python app's program is `python3`, its class its own). Windows whose WM_CLASS
class is `Winctl` are winctl's own overlays; a `status` one lets clicks through to the window
below, so a point is looked up through it.
"""

from __future__ import annotations

from typing import Any

import psutil
from Xlib import X, error

from winactions.backends.base import AppRef
from winactions.backends.linux.x11windows import X11Windows, client_pid

OVERLAY_CLASS = "winctl"  # WM_CLASS class of winctl's own windows (compared lower-cased)
CLICK_THROUGH = "status"  # the overlay role input passes through


def program(pid: int | None) -> str:
    """The process's executable name ("" when it is gone or not ours to read)."""
    if pid is None:
        return ""
    try:
        return str(psutil.Process(pid).name())
    except psutil.Error:
        return ""


def _names(*names: str) -> tuple[str, ...]:
    """The names, blanks and repeats (ignoring case) left out, in order."""
    seen: dict[str, str] = {}
    for name in names:
        if name and name.lower() not in seen:
            seen[name.lower()] = name
    return tuple(seen.values())


class Apps:
    """Answers `Backend.app_at`, `app_of_window`, `focused_app` and `app_of_pid` on one X connection."""

    def __init__(self, x11: X11Windows) -> None:
        self.x11 = x11

    def _pid(self, win: Any) -> int | None:
        pid = client_pid(self.x11.d, int(win.id))
        if pid is None:
            prop = self.x11._prop(win, "_NET_WM_PID")
            pid = int(prop[0]) if isinstance(prop, list) and prop else None
        return pid

    def _of(self, win: Any) -> AppRef:
        """The app of a client (or override-redirect) window."""
        wm_class = win.get_wm_class() or ("", "")
        pid = self._pid(win)
        title = self.x11._prop(win, "_NET_WM_NAME", self.x11.atom("UTF8_STRING"))
        overlay = wm_class[0] if wm_class[1].lower() == OVERLAY_CLASS else None
        return AppRef(
            names=_names(wm_class[0], wm_class[1], program(pid)),
            pid=pid,
            window_id=f"0x{int(win.id):08x}",
            title=title if isinstance(title, str) else "",
            overlay=overlay,
        )

    def at(self, x: int, y: int) -> AppRef | None:
        """The top-most viewable window of the root at (x, y), through `status` overlays and a
        drag's icon (`_NET_WM_WINDOW_TYPE_DND`, which GTK and Qt give it)."""
        for child in reversed(self.x11.root.query_tree().children):
            try:
                attributes = child.get_attributes()
                if attributes.map_state != X.IsViewable or attributes.win_class == X.InputOnly:
                    continue
                g = child.get_geometry()
                border = g.border_width
                if not (g.x <= x < g.x + g.width + 2 * border and g.y <= y < g.y + g.height + 2 * border):
                    continue
                client = self.x11._client_of(child) or child
                if self.x11.atom("_NET_WM_WINDOW_TYPE_DND") in (self.x11._prop(client, "_NET_WM_WINDOW_TYPE") or []):
                    continue  # a drag's icon follows the pointer: the drop lands on the window below
                app = self._of(client)
            except error.XError:
                continue  # it went away while we looked
            if app.overlay == CLICK_THROUGH:
                continue
            return app
        return None

    def of_window(self, window_id: str) -> AppRef:
        return self._of(self.x11.d.create_resource_object("window", int(window_id, 16)))

    def focused(self) -> AppRef | None:
        """The app of the window the X input focus is in (where XTEST keys go)."""
        focus = self.x11.d.get_input_focus().focus
        if not hasattr(focus, "id") or focus.id in (X.NONE, X.PointerRoot, self.x11.root.id):
            return None
        try:
            top = self.x11.d.create_resource_object("window", self.x11._root_child(int(focus.id)))
            client = self.x11._client_of(top) or top
            return self._of(client)
        except error.XError:
            return None

    def of_pid(self, pid: int | None) -> AppRef:
        """The app of a process: its program, and the WM_CLASS names of its managed windows
        and override-redirect overlays (an overlay's role when one is winctl's)."""
        names: list[str] = []
        overlay = None
        candidates = [self.x11.d.create_resource_object("window", int(w)) for w in self.x11.client_ids()]
        candidates += [c for c in self.x11.root.query_tree().children if _overlay_class(c)]
        for win in candidates:
            try:
                if pid is None or self._pid(win) != pid:
                    continue
                app = self._of(win)
            except error.XError:
                continue
            names.extend(app.names)
            overlay = overlay or app.overlay
        return AppRef(names=_names(*names, program(pid)), pid=pid, overlay=overlay)


def _overlay_class(win: Any) -> bool:
    """Whether a root child is one of winctl's overlays (WM_CLASS class `Winctl`)."""
    try:
        wm_class = win.get_wm_class()
    except error.XError:
        return False
    return bool(wm_class) and wm_class[1].lower() == OVERLAY_CLASS
