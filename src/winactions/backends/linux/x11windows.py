"""Top-level windows through EWMH (python-xlib), screens through RandR, pixels through mss.

Window-manager tools report the frame; agents click inside the client area, and AT-SPI
extents are client coordinates, so every rect here is the client area in root coordinates.
Every change is verified: a request the window manager ignored is an error, not a success.

Over 600 lines on purpose: every request to the X server and window manager about windows,
each with its check, shares one connection and one idea of the client area.
"""

from __future__ import annotations

import os
import subprocess
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import mss
import psutil
from PIL import Image
from Xlib import X, Xatom, display, error
from Xlib.ext import res
from Xlib.protocol import event

from winactions.backends.base import (
    COVERED_BY_APP_MENU,
    COVERED_BY_HELD_BUTTON,
    COVERED_BY_NOTIFICATION,
    COVERED_BY_POPUP,
    COVERED_BY_TOOLTIP,
    Monitor,
    WindowAction,
    covered_by_overlay,
    covered_by_window,
)
from winactions.backends.linux import bridges
from winactions.backends.linux.children import reap
from winactions.backends.linux.stderr_keeper import Kept, keep_stderr, last_words
from winactions.backends.overlay_host import OVERLAY_CLASS
from winactions.errors import ActionFailed, BackendUnavailable, DialogInFront, NotFound, shown
from winactions.model import Rect, WindowInfo

SKIPPED_TYPES = ("_NET_WM_WINDOW_TYPE_DOCK", "_NET_WM_WINDOW_TYPE_DESKTOP")
SETTLE_TIMEOUT = 3.0
DIALOG_GRACE = 0.5  # s a modal dialog may stay in front of a window being activated (one closing goes)
DOUBLE_CLICK = 0.55  # s: longer than any toolkit's double-click time (GTK and Qt 0.4 s, Java 0.5 s)
DOUBLE_CLICK_REACH = 8  # px: farther apart, two clicks are never one double-click (GTK counts 5 px)
CLICK_PROPERTY = "_WINACTIONS_LAST_CLICK"  # on the root window: x, y, when (ms) of recent clicks, for all processes
RECENT_CLICKS = 8  # clicks kept there: more than an agent makes within the double-click time
AT_REST = 0.15  # s a window coming back from minimized must stay put to count as in its place (openbox slides it in)
# override-redirect windows that cover what is under them, and are never what an agent clicks
COVERING_POPUPS = {
    "_NET_WM_WINDOW_TYPE_TOOLTIP": COVERED_BY_TOOLTIP,
    "_NET_WM_WINDOW_TYPE_NOTIFICATION": COVERED_BY_NOTIFICATION,
}
MOTIF_DECORATIONS = 0x2  # _MOTIF_WM_HINTS flags bit: its decorations field is set (0 = undecorated)
MENU_SIDE = 16  # px: an override-redirect window smaller than this each way is no menu
MENU_TYPES = (
    "_NET_WM_WINDOW_TYPE_POPUP_MENU",
    "_NET_WM_WINDOW_TYPE_DROPDOWN_MENU",
    "_NET_WM_WINDOW_TYPE_MENU",
    "_NET_WM_WINDOW_TYPE_COMBO",
)
WIDGET_WINDOWS = 2000  # child windows read at most: a Tk app with a large table makes one per cell
BUTTONS_HELD = X.Button1Mask | X.Button2Mask | X.Button3Mask | X.Button4Mask | X.Button5Mask


def open_display(name: str | None = None) -> display.Display:
    if not (name or os.environ.get("DISPLAY")):
        wayland = " (this is a Wayland session without XWayland's DISPLAY)" if os.environ.get("WAYLAND_DISPLAY") else ""
        raise BackendUnavailable(
            f"no X display to work on: DISPLAY is not set{wayland}",
            hint="run winctl in a terminal of the desktop session (over ssh: ssh -X, or "
            "export DISPLAY=:0), or start a virtual desktop; an MCP client starts the server "
            "with the environment its config's `env` gives: put DISPLAY and "
            "DBUS_SESSION_BUS_ADDRESS there (docs/adapters.md); winctl doctor checks "
            "everything winctl needs and says how to fix each",
        )
    try:
        return display.Display(name)
    except (error.DisplayError, error.DisplayNameError, error.ConnectionClosedError, OSError) as exc:
        raise BackendUnavailable(
            f"cannot open the X display {name or os.environ.get('DISPLAY')!r}: {exc}",
            hint="check DISPLAY (and XAUTHORITY); winctl doctor says how to fix it",
        ) from None


class X11Windows:
    """List, activate, close, minimize/maximize/restore, move/resize, launch; screens; capture."""

    def __init__(self, display_name: str | None = None) -> None:
        self.d = open_display(display_name)
        self.root = self.d.screen().root
        self._atoms: dict[str, int] = {}
        self._grabbers = threading.local()
        self._stderr: dict[int, Kept] = {}  # a launched program's pid -> its first words on stderr

    def atom(self, name: str) -> int:
        if name not in self._atoms:
            self._atoms[name] = self.d.intern_atom(name)
        return self._atoms[name]

    def _prop(self, window: object, name: str, kind: int = X.AnyPropertyType) -> list[int] | str | None:
        try:
            reply = window.get_full_property(self.atom(name), kind)  # type: ignore[attr-defined]
        except error.XError:
            return None
        if reply is None:
            return None
        value = reply.value
        return value.decode("utf-8", "replace") if isinstance(value, bytes) else list(value)

    # -- clicks -----------------------------------------------------------------------------
    def wait_out_double_click(self, x: int, y: int) -> None:
        """Wait until a click at (x, y) cannot join an earlier one into a double-click.

        Toolkits count a second press within their double-click time (GTK and Qt 400 ms, Java
        500 ms) and a few pixels of the first as a double-click: a text field selects the word
        there, a list opens the row (`execution.DOUBLE_CLICK_TYPES` says where this is asked). Not
        only the last click counts: a Motif field counts its own presses whatever was clicked
        between. The recent clicks are kept on the display's root window (`note_click`), which every
        winctl process on the display shares."""
        wait = max(
            (
                DOUBLE_CLICK - _since(when)
                for cx, cy, when in self._recent_clicks()
                if abs(x - cx) <= DOUBLE_CLICK_REACH and abs(y - cy) <= DOUBLE_CLICK_REACH
            ),
            default=0.0,
        )
        if wait > 0:
            time.sleep(wait)

    def note_click(self, x: int, y: int) -> None:
        """Keep where and when this click was, beside the other recent ones, for
        `wait_out_double_click`."""
        clicks = [*self._recent_clicks(), (x, y, _now_ms())][-RECENT_CLICKS:]
        self.root.change_property(
            self.atom(CLICK_PROPERTY), Xatom.CARDINAL, 32, [v & 0xFFFFFFFF for click in clicks for v in click]
        )
        self.d.flush()

    def _recent_clicks(self) -> list[tuple[int, int, int]]:
        """The clicks kept on the root window less than the double-click time ago: where, and
        when (ms, as `_now_ms`)."""
        kept = self._prop(self.root, CLICK_PROPERTY, X.AnyPropertyType)
        if not isinstance(kept, list) or len(kept) % 3:
            return []
        recent = []
        for i in range(0, len(kept), 3):
            x, y = (v - 2**32 if v >= 2**31 else v for v in kept[i : i + 2])  # stored unsigned: a monitor left of 0
            if _since(kept[i + 2]) < DOUBLE_CLICK:
                recent.append((x, y, kept[i + 2]))
        return recent

    # -- listing ---------------------------------------------------------------------------
    def list_windows(self) -> list[WindowInfo]:
        ids = self._prop(self.root, "_NET_CLIENT_LIST") or []
        active = (self._prop(self.root, "_NET_ACTIVE_WINDOW") or [0])[0]
        out = []
        for wid in ids:
            info = self._describe(int(wid), int(active))
            if info is not None:
                out.append(info)
        return out

    def _describe(self, wid: int, active: int) -> WindowInfo | None:
        win = self.d.create_resource_object("window", wid)
        try:
            types = self._prop(win, "_NET_WM_WINDOW_TYPE")
            skipped = {self.atom(n) for n in SKIPPED_TYPES}
            if isinstance(types, list) and skipped & set(types):
                return None
            title = self._prop(win, "_NET_WM_NAME", self.atom("UTF8_STRING"))
            if not isinstance(title, str):
                wm_name = win.get_wm_name()
                title = wm_name.decode("latin-1") if isinstance(wm_name, bytes) else (wm_name or "")
            pid_prop = self._prop(win, "_NET_WM_PID")
            pid = int(pid_prop[0]) if isinstance(pid_prop, list) and pid_prop else self._client_pid(wid)
            states = set(self._prop(win, "_NET_WM_STATE") or [])
            wm_class = win.get_wm_class()
            rect = self._client_rect(win)
            splash = self._is_splash(win, types if isinstance(types, list) else [], states)
        except error.XError:
            return None  # the window went away while we looked at it
        hidden = self.atom("_NET_WM_STATE_HIDDEN") in states
        maximized = {self.atom("_NET_WM_STATE_MAXIMIZED_VERT"), self.atom("_NET_WM_STATE_MAXIMIZED_HORZ")} <= states
        return WindowInfo(
            id=f"0x{wid:08x}",
            title=title,
            pid=pid,
            process=_process_name(pid),
            rect=rect,
            active=wid == active,
            minimized=hidden,
            maximized=maximized,
            app_class=wm_class[1] if wm_class else "",
            splash=splash,
        )

    def _client_pid(self, wid: int) -> int | None:
        """The process of the X client that made the window, asked of the X server (X-Resource):
        for apps that do not set _NET_WM_PID, as Tk and Xt do not. None for a client on another
        machine, or a server without the extension."""
        return client_pid(self.d, wid)

    def _is_splash(self, win: object, types: list[int], states: set[object]) -> bool:
        """A splash screen: typed so (GTK, Qt), or — as Java apps draw theirs, a plain
        `JWindow` (jEdit) — a window with no decorations that keeps out of the taskbar."""
        if self.atom("_NET_WM_WINDOW_TYPE_SPLASH") in types:
            return True
        if self.atom("_NET_WM_STATE_SKIP_TASKBAR") not in states:
            return False
        hints = self._prop(win, "_MOTIF_WM_HINTS")
        return isinstance(hints, list) and len(hints) >= 3 and bool(hints[0] & MOTIF_DECORATIONS) and hints[2] == 0

    def _client_rect(self, win: object) -> Rect:
        geometry = win.get_geometry()  # type: ignore[attr-defined]
        origin = self.root.translate_coords(win, 0, 0)
        return Rect.from_xywh(origin.x, origin.y, geometry.width, geometry.height)

    def client_ids(self) -> frozenset[int]:
        """The X ids of the windows the window manager manages now (one round trip)."""
        return frozenset(int(wid) for wid in self._prop(self.root, "_NET_CLIENT_LIST") or [])

    def new_dialogs(self, pid: int, before: frozenset[int]) -> list[WindowInfo]:
        """The windows of process `pid` that are dialogs (transient for a window, or modal)
        and were not managed in `before` (`client_ids`)."""
        found = []
        for wid in self.client_ids() - before:
            win = self.d.create_resource_object("window", wid)
            try:
                owner = win.get_wm_transient_for()
                modal = self.atom("_NET_WM_STATE_MODAL") in set(self._prop(win, "_NET_WM_STATE") or [])
            except error.XError:
                continue  # gone already
            info = self._describe(wid, 0) if owner is not None or modal else None
            if info is not None and info.pid == pid:
                found.append(info)
        return found

    def _find(self, window_id: str) -> WindowInfo:
        for w in self.list_windows():
            if w.id == window_id:
                return w
        raise NotFound(f"no window {window_id}", hint="run `winctl windows`")

    def covering(self, window_id: str, x: int, y: int, in_popup: bool) -> str | None:
        """What a click at (x, y) reaches instead of this window: the top-most window there
        when it is a tooltip or notification, another managed window, or — unless the element
        may be in one (`in_popup`) — a menu or popup. An open menu also holds the pointer
        (a grab): a click anywhere else only closes it. So does a mouse button held down, which
        is named as such. An open menu of the window's app that holds no grab (`_menu_open`) still
        takes the app's next click."""
        try:
            top = self.root.translate_coords(self.root, x, y).child
            if top and top.id != self._root_child(int(window_id, 16)):
                if top.get_attributes().override_redirect:
                    types = self._prop(top, "_NET_WM_WINDOW_TYPE")
                    for name, what in COVERING_POPUPS.items():
                        if isinstance(types, list) and self.atom(name) in types:
                            return what
                    if not in_popup:
                        return COVERED_BY_POPUP
                else:
                    client = self._client_of(top)
                    other = self._describe(int(client.id), 0) if client is not None else None  # type: ignore[attr-defined]
                    return covered_by_window(other.title if other is not None else "")
            if in_popup:
                return None
            if self._pointer_grabbed():
                # a held button grabs the pointer too (X's implicit grab): `mouse-down`, or a drag under way
                return COVERED_BY_HELD_BUTTON if self.root.query_pointer().mask & BUTTONS_HELD else COVERED_BY_POPUP
            return COVERED_BY_APP_MENU if self._menu_open(window_id) else None
        except error.XError:
            return None  # a window went away while we looked: nothing known to be in the way

    def _menu_open(self, window_id: str) -> bool:
        """Whether the window's app has a menu open (one of its `popups` typed as a menu), with
        or without an X pointer grab: GTK keeps a grab of its own for an open menu, and takes
        the app's next click anywhere as one that closes it."""
        window = self._describe(int(window_id, 16), 0)
        if window is None or window.pid is None:
            return False
        menus = {self.atom(name) for name in MENU_TYPES}
        for child in self._over_the_placed():
            try:
                if (
                    set(self._prop(child, "_NET_WM_WINDOW_TYPE") or []) & menus
                    and self._own_popup(child, window) is not None
                ):
                    return True
            except error.XError:
                continue  # it closed while we looked
        return False

    def popups(self, window: WindowInfo) -> list[Rect]:
        """Mapped override-redirect windows typed as menus, of the window's process (or, where
        a menu does not say whose it is, over the window); and any other override-redirect
        window of its process but a tooltip (Java types its context menu as a dialog). Looked
        for from the top of the stack down to the first window the window manager placed: an
        open menu is above them all."""
        found = []
        for child in self._over_the_placed():
            try:
                rect = self._own_popup(child, window)
            except error.XError:
                continue  # it closed while we looked
            if rect is not None:
                found.append(rect)
        return found

    def _over_the_placed(self) -> Iterator[Any]:
        """The mapped override-redirect windows (menus, popups, tooltips), from the top of the
        stack down to the first window the window manager placed."""
        for child in reversed(self.root.query_tree().children):
            try:
                attributes = child.get_attributes()
            except error.XError:
                continue  # it closed while we looked
            if attributes.map_state != X.IsViewable:
                continue
            if not attributes.override_redirect:
                return
            yield child

    def _own_popup(self, child: object, window: WindowInfo) -> Rect | None:
        """Where an override-redirect window is, if it is a menu or popup of the window's app
        (see `popups`); None for a tooltip, a notification, another app's or a helper window."""
        types = set(self._prop(child, "_NET_WM_WINDOW_TYPE") or [])
        pid = self._prop(child, "_NET_WM_PID")
        rect = self._client_rect(child)
        # Tk's and Motif's menus say no pid (Motif's no window type either); the X server knows
        owner = int(pid[0]) if isinstance(pid, list) and pid else self._client_pid(child.id)  # type: ignore[attr-defined]
        menus = {self.atom(name) for name in MENU_TYPES}
        if owner is None:  # a menu that does not say whose it is (a remote client's): the one over the window
            mine = bool(types & menus) and window.rect is not None and rect.intersect(window.rect) is not None
        else:
            passing = {self.atom(name) for name in (*COVERING_POPUPS, "_NET_WM_WINDOW_TYPE_DND")}
            mine = owner == window.pid and (bool(types & menus) or not types & passing)
        # GTK keeps small unmapped-looking helper windows off the screen (-100, -100): no menus
        geometry = self.root.get_geometry()
        screen = Rect(left=0, top=0, right=geometry.width, bottom=geometry.height)
        if mine and rect.width >= MENU_SIDE <= rect.height and rect.intersect(screen) is not None:
            return rect
        return None

    def covers(self, window: WindowInfo) -> list[tuple[Rect, str]]:
        """What is drawn over the window and is not its own, top first: each window stacked
        above its frame (another app's, or a dialog of its own) and each tooltip or popup that
        is not one of its app's menus (`popups`), where it lies on the window, described as
        `covering` describes it. One walk of the stack: a screenshot of the window holds these
        pixels, not the window's."""
        if window.rect is None:
            return []
        try:
            frame = self._root_child(int(window.id, 16))
            stack = self.root.query_tree().children
        except error.XError:
            return []  # the window went away while we looked
        found: list[tuple[Rect, str]] = []
        for child in reversed(stack):
            if child.id == frame:
                break
            try:
                attributes = child.get_attributes()
                if attributes.map_state != X.IsViewable:
                    continue
                if attributes.override_redirect:
                    wm_class = child.get_wm_class()
                    if wm_class and wm_class[1] == OVERLAY_CLASS:  # winctl's own label or teach step
                        rect, what = self._client_rect(child), covered_by_overlay(wm_class[0])
                        over = rect.intersect(window.rect)
                        if over is not None and not over.is_empty:
                            found.append((over, what))
                        continue
                    if self._own_popup(child, window) is not None:
                        continue
                    types = self._prop(child, "_NET_WM_WINDOW_TYPE")
                    what = next(
                        (
                            what
                            for name, what in COVERING_POPUPS.items()
                            if isinstance(types, list) and self.atom(name) in types
                        ),
                        COVERED_BY_POPUP,
                    )
                    rect = self._client_rect(child)
                else:
                    client = self._client_of(child)
                    other = self._describe(int(client.id), 0) if client is not None else None  # type: ignore[attr-defined]
                    what = covered_by_window(other.title if other is not None else "")
                    rect = self._client_rect(child)  # the frame: its title bar covers the window too
            except error.XError:
                continue  # it closed while we looked
            over = rect.intersect(window.rect)
            if over is not None and not over.is_empty:
                found.append((over, what))
        return found

    def widget_windows(self, window: WindowInfo) -> list[Rect]:
        """Where the window's innermost mapped child windows lie, on the window. Tk and Xt make an
        X window of every widget (each check box of a Tk dialog is one, its label with it), so
        for apps without a tree they are where its controls are; GTK 3, GTK 4 and Qt draw theirs
        in one window and have none."""
        if window.rect is None:
            return []
        found: list[Rect] = []
        try:
            pending = list(self.d.create_resource_object("window", int(window.id, 16)).query_tree().children)
            while pending and len(found) < WIDGET_WINDOWS:
                child = pending.pop()
                if child.get_attributes().map_state != X.IsViewable:
                    continue
                children = child.query_tree().children
                if children:
                    pending.extend(children)
                    continue
                # with its border, which the X server draws around it (Xt's keys and frames have one)
                geometry, origin = child.get_geometry(), self.root.translate_coords(child, 0, 0)
                border = geometry.border_width
                rect = Rect.from_xywh(
                    origin.x - border, origin.y - border, geometry.width + 2 * border, geometry.height + 2 * border
                ).intersect(window.rect)
                if rect is not None:
                    found.append(rect)
        except error.XError:
            return found  # the window changed while we looked
        return found

    def _pointer_grabbed(self) -> bool:
        """Whether a client holds the pointer (an open menu does): asked by trying to grab it,
        and letting go at once when that works."""
        status = self.root.grab_pointer(False, 0, X.GrabModeAsync, X.GrabModeAsync, X.NONE, X.NONE, X.CurrentTime)
        if status == X.GrabSuccess:
            self.d.ungrab_pointer(X.CurrentTime)
            self.d.sync()
        return bool(status == X.AlreadyGrabbed)

    def _root_child(self, wid: int) -> int:
        """The window's ancestor that is a child of the root: the window manager's frame."""
        win = self.d.create_resource_object("window", wid)
        while True:
            parent = win.query_tree().parent
            if not parent or parent.id == self.root.id:
                return int(win.id)
            win = parent

    def _client_of(self, frame: object, depth: int = 3) -> object | None:
        """The client window inside a window manager's frame: the one with WM_STATE."""
        if self._prop(frame, "WM_STATE") is not None:
            return frame
        if depth == 0:
            return None
        for child in reversed(frame.query_tree().children):  # type: ignore[attr-defined]
            found = self._client_of(child, depth - 1)
            if found is not None:
                return found
        return None

    # -- actions ----------------------------------------------------------------------------
    def _send(self, window_id: int, message: str, data: list[int]) -> None:
        """An EWMH client message; its five 32-bit fields go as two's complement, so a place
        left of or above the first screen (`window move -- -60 200`) is sent, not an
        OverflowError from the unsigned packing."""
        words = [value & 0xFFFFFFFF for value in (data + [0] * 5)[:5]]
        ev = event.ClientMessage(
            window=self.d.create_resource_object("window", window_id), client_type=self.atom(message), data=(32, words)
        )
        self.root.send_event(ev, event_mask=X.SubstructureRedirectMask | X.SubstructureNotifyMask)
        self.d.flush()

    def window_action(self, window_id: str, action: WindowAction, rect: Rect | None = None) -> None:
        info = self._find(window_id)
        wid = int(window_id, 16)
        vert, horz = self.atom("_NET_WM_STATE_MAXIMIZED_VERT"), self.atom("_NET_WM_STATE_MAXIMIZED_HORZ")
        if action is WindowAction.ACTIVATE:
            self._activate(info)
        elif action is WindowAction.CLOSE:
            self._send(wid, "_NET_CLOSE_WINDOW", [X.CurrentTime, 2])
        elif action is WindowAction.MINIMIZE:
            self._send(wid, "WM_CHANGE_STATE", [3])  # IconicState
            self._settle(window_id, lambda w: w is not None and w.minimized and not self._shown(wid), "minimize")
        elif action is WindowAction.MAXIMIZE:
            self._send(wid, "_NET_WM_STATE", [1, vert, horz, 2])
            self._settle(window_id, lambda w: w is not None and w.maximized, "maximize")
        elif action is WindowAction.RESTORE:
            if info.maximized:
                self._send(wid, "_NET_WM_STATE", [0, vert, horz, 2])
                self._settle(window_id, lambda w: w is not None and not w.maximized, "unmaximize")
            if info.minimized:
                self._send(wid, "_NET_ACTIVE_WINDOW", [2, X.CurrentTime, 0])
                self._settle(window_id, lambda w: w is not None and not w.minimized, "restore")
        elif action is WindowAction.MOVE_RESIZE:
            if rect is None:
                raise ActionFailed("move_resize needs a rect", hint="give x, y, width and height")
            self._move_resize(window_id, wid, rect)

    def _activate(self, window: WindowInfo) -> None:
        """Bring the window forward and wait until it is active and in its place. A minimized
        window is active at once but still on its way back (openbox slides it in from below the
        screen for ~0.2 s, and a click meanwhile lands on what is under it). A modal dialog of its
        own is given the focus instead by the window manager: if it stays in front for DIALOG_GRACE
        (one being closed goes within it, and the window is asked for again), DialogInFront."""
        wid = int(window.id, 16)
        self._send(wid, "_NET_ACTIVE_WINDOW", [2, X.CurrentTime, 0])
        deadline = time.monotonic() + SETTLE_TIMEOUT
        held: float | None = None  # since when a modal dialog of the window has been in front
        seen: tuple[Rect | None, float] | None = None  # where it was last seen on its way, and since when
        while True:
            current = next((w for w in self.list_windows() if w.id == window.id), None)
            if current is not None and current.active and not current.minimized:
                now = time.monotonic()
                if seen is None or seen[0] != current.rect:
                    seen = (current.rect, now)
                if current.rect == window.rect or now - seen[1] >= AT_REST or now > deadline:
                    return
                time.sleep(0.03)
                continue
            dialog = self._modal_in_front(wid)
            if dialog is not None:
                held = held or time.monotonic()
                if time.monotonic() - held > DIALOG_GRACE:
                    found = self._describe(dialog, dialog)
                    title = found.title if found is not None else ""
                    raise DialogInFront(
                        f'window {window.id} stays behind its dialog "{title}", which takes the '
                        "input until it is closed",
                        hint=f'act in the dialog (`winctl focus "{title}"`), or close it',
                        dialog=f"0x{dialog:08x}",
                    )
            elif held is not None:  # the dialog went: the window manager may not hand the focus back
                held = None
                self._send(wid, "_NET_ACTIVE_WINDOW", [2, X.CurrentTime, 0])
            if time.monotonic() > deadline:
                raise ActionFailed(
                    f"window {window.id} did not become active", hint="the window manager refused; is one running?"
                )
            time.sleep(0.03)

    def _modal_in_front(self, wid: int) -> int | None:
        """The active window when it is a modal dialog of window `wid` (WM_TRANSIENT_FOR it)."""
        active = (self._prop(self.root, "_NET_ACTIVE_WINDOW") or [0])[0]
        if not active or int(active) == wid:
            return None
        dialog = self.d.create_resource_object("window", int(active))
        try:
            owner = dialog.get_wm_transient_for()
            modal = self.atom("_NET_WM_STATE_MODAL") in set(self._prop(dialog, "_NET_WM_STATE") or [])
        except error.XError:
            return None
        return int(active) if owner is not None and owner.id == wid and modal else None

    def _move_resize(self, window_id: str, wid: int, rect: Rect) -> None:
        """EWMH moves with static gravity place the client area itself; a window manager
        that still puts the frame there is corrected once by the difference."""
        target = rect
        for _ in range(2):
            flags = 10 | (0xF << 8) | (2 << 12)  # StaticGravity, x/y/w/h present, from a pager
            self._send(wid, "_NET_MOVERESIZE_WINDOW", [flags, target.left, target.top, target.width, target.height])
            try:
                got = self._settle(window_id, lambda w: w is not None and w.rect == rect, "move", quiet=True)
            except ActionFailed:
                got = self._find(window_id)
            if got.rect == rect or got.rect is None:
                return
            dx, dy = rect.left - got.rect.left, rect.top - got.rect.top
            target = Rect.from_xywh(target.left + dx, target.top + dy, rect.width, rect.height)
        final = self._find(window_id).rect
        if final is None or (final.left, final.top) != (rect.left, rect.top):
            raise ActionFailed(
                f"the window manager put the window at {final}, not {rect}",
                hint="the size may be limited by the app's minimum size",
            )

    def _shown(self, wid: int) -> bool:
        """Whether the client window is still mapped and viewable: a window the manager marks
        hidden while it stays drawn (a drag's grab held it) is not minimized."""
        try:
            return self.d.create_resource_object("window", wid).get_attributes().map_state == X.IsViewable
        except error.XError:
            return False

    def _settle(
        self, window_id: str, done: Callable[[WindowInfo | None], bool], what: str, quiet: bool = False
    ) -> WindowInfo:
        deadline = time.monotonic() + SETTLE_TIMEOUT
        while True:
            current = next((w for w in self.list_windows() if w.id == window_id), None)
            if done(current):
                return current  # type: ignore[return-value]
            if time.monotonic() > deadline:
                if quiet and current is not None:
                    return current
                raise ActionFailed(
                    f"window {window_id} did not {what}", hint="the window manager refused; is one running?"
                )
            time.sleep(0.03)

    def launch(self, command: Sequence[str]) -> int:
        """Start a program with its toolkit's accessibility bridge switched on (see bridges.py)."""
        started = bridges.plan(command)
        stderr, kept = keep_stderr()
        try:
            proc = subprocess.Popen(
                started.argv,
                env=started.env,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=stderr,
                start_new_session=True,
            )
        except FileNotFoundError:
            kept.discard()
            raise NotFound(f"no program {shown(command[0])}", hint="give a full path or a program on PATH") from None
        except PermissionError:
            kept.discard()
            raise ActionFailed(f"{shown(command[0])} is not executable", hint="check the file's permissions") from None
        finally:
            os.close(stderr)
        reap(proc)  # it outlives this call: collected when it exits, never left a zombie
        self._stderr[proc.pid] = kept
        return proc.pid

    def launch_stderr(self, pid: int, exited: bool) -> str:
        kept = self._stderr.pop(pid, None)
        return last_words(kept, settle=exited) if kept is not None else ""

    # -- screens and pixels ------------------------------------------------------------------
    def screens(self) -> list[Rect]:
        return [m.rect for m in self.monitors()]

    def monitors(self) -> list[Monitor]:
        """RandR 1.5's monitors (`xrandr --listmonitors`, `--setmonitor`), in the server's
        order; the whole X screen as one monitor when the server has none or no RandR."""
        try:
            found = [
                Monitor(
                    self._atom_name(m.name) or f"monitor {i}",
                    Rect.from_xywh(m.x, m.y, m.width_in_pixels, m.height_in_pixels),
                    bool(m.primary),
                )
                for i, m in enumerate(self.root.xrandr_get_monitors().monitors)
            ]
            if found:
                return found
        except (AttributeError, error.XError):
            pass
        geometry = self.root.get_geometry()
        return [Monitor("screen", Rect.from_xywh(0, 0, geometry.width, geometry.height), True)]

    def _atom_name(self, atom: int) -> str:
        try:
            return str(self.d.get_atom_name(atom))
        except error.XError:
            return ""

    def capture(self, rect: Rect) -> Image.Image:
        grabber = getattr(self._grabbers, "mss", None)
        if grabber is None:  # mss instances belong to the thread that made them
            factory = getattr(mss, "MSS", None) or mss.mss  # mss 10 renamed the class
            grabber = self._grabbers.mss = factory()
        shot = grabber.grab({"left": rect.left, "top": rect.top, "width": rect.width, "height": rect.height})
        return Image.frombytes("RGB", shot.size, shot.bgra, "raw", "BGRX")

    def close(self) -> None:
        for kept in self._stderr.values():  # launches never asked about: their keepers are reaped
            kept.discard()
        self._stderr.clear()
        grabber = getattr(self._grabbers, "mss", None)
        if grabber is not None:
            grabber.close()
        self.d.close()


def _process_name(pid: int | None) -> str:
    if pid is None:
        return ""
    try:
        return psutil.Process(pid).name()
    except psutil.Error:
        return ""


def _now_ms() -> int:
    """Wall-clock milliseconds, wrapped to 32 bits as an X property holds them."""
    return int(time.time() * 1000) % 2**32


def _since(when: int) -> float:
    """Seconds since `when` (ms, as `_now_ms`), across the 32-bit wrap."""
    return (_now_ms() - when) % 2**32 / 1000


def client_pid(d: display.Display, wid: int) -> int | None:
    """The process of the X client that made window `wid`, asked of the X server (X-Resource);
    None for a client on another machine, a server without the extension, or a window gone."""
    query = getattr(d, "res_query_client_ids", None)  # python-xlib adds it when the server has X-Resource
    if query is None:
        return None
    try:
        reply = query([{"client": wid, "mask": res.LocalClientPIDMask}])
    except error.XError:
        return None
    return next(
        (int(item.value[0]) for item in reply.ids if item.spec.mask & res.LocalClientPIDMask and item.value), None
    )
