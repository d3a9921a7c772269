"""Where typed keys go, watched while text is typed (`FocusGuard`).

XTEST keys go to whichever window holds the X keyboard focus when each one arrives, or to a
client that grabbed the keyboard: when the app typed into dies, or another app's window or
menu opens, the rest of the text goes there. The guard asks after every key (one round trip,
which is also the sync the key needs) and stops the typing at once.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import psutil
from Xlib import X, error
from Xlib.display import Display

from winactions.backends.linux.x11windows import client_pid
from winactions.errors import ActionFailed
from winactions.model import WindowInfo

SETTLE = 0.5  # s the focus may take to land in a window after its own went (the window manager picks one)
FOCUS_MOVERS = frozenset("\n\r\t")  # typed, these may open or close a window of the app itself
NO_WINDOW = (X.NONE, X.PointerRoot)


class FocusGuard:
    """The keyboard focus as it was when typing began: the X window holding it, that window's
    top-level (its window manager's frame) and its process.

    `check` after each key raises ActionFailed when keys would now go elsewhere: to another
    top-level window (one of the same process is accepted once an Enter or Tab was typed,
    which may open or close one), to no window, or to another process that grabbed the
    keyboard (its menu or popup; the app's own take keys for it, as a completion list does).
    `windows` lists the top-level windows, to name where the focus went. `close` when done."""

    def __init__(self, d: Display, windows: Callable[[], list[WindowInfo]]) -> None:
        self.d = d
        self.root = d.screen().root
        self.windows = windows
        self.focus = self._focus()
        self.frame = self._frame(self.focus)
        self.pid = self._pid(self.focus)
        self.may_move = False  # an Enter or Tab was typed: a window of the app may take the focus
        self.grabbed = False  # some client holds the keyboard (seen by the focus window's FocusOut)
        self.grab_ours = False  # ... and it is the app typed into
        self._watch(self.focus, X.FocusChangeMask)

    def check(self, sent: int, total: int, last: str) -> None:
        """After the `sent`-th of `total` characters (`last`): raise if the keys go elsewhere now."""
        if last in FOCUS_MOVERS:
            if sent == total:
                return  # the last key may take the focus away (Enter closing a dialog): nothing follows it
            self.may_move = True
        focus = self._focus()  # the round trip also brings any focus event the keys caused
        went = self._grab_taken() or (None if focus == self.focus else self._moved(focus))
        if went is None:
            return
        back = (
            "the window is gone: `winctl windows` lists those open"
            if not self._exists(self.frame)
            else f"to go on, bring the window back (`winctl focus TITLE`) and type the rest, from character {sent + 1}"
        )
        raise ActionFailed(
            f"typed {sent} of {total} characters; then {went}, and typing stopped",
            hint=f"the last keys sent may have reached it: look (`winctl state`); {back}",
        )

    def close(self) -> None:
        """Stop watching the focus window; drop the events it sent. Quiet when the display
        is gone (an error then is the typing's own, raised already)."""
        try:
            self._watch(self.focus, 0)
            self.d.sync()
            while self.d.pending_events():
                self.d.next_event()
        except error.ConnectionClosedError:
            pass

    # -- what changed ------------------------------------------------------------------------
    def _moved(self, focus: int) -> str | None:
        """None when the focus moved within the window (or, after Enter or Tab, to another
        window of its process): then it is followed there. Else where it went."""
        frame = self._frame(focus) if focus not in NO_WINDOW else None
        same_process = self.may_move and self.pid is not None and self._pid(focus) == self.pid
        if frame is not None and (frame == self.frame or same_process):
            self._watch(self.focus, 0)
            self.focus, self.frame = focus, frame
            self._watch(focus, X.FocusChangeMask)
            return None
        closed = "the window typed into closed and " if not self._exists(self.frame) else ""
        return closed + self._landed()

    def _landed(self) -> str:
        """Where the focus is, once it is in an app's window (or after SETTLE)."""
        deadline = time.monotonic() + SETTLE
        while True:
            focus = self._focus()
            window = self._window_of(focus) if focus not in NO_WINDOW else None
            if window is not None:
                return f'the focus went to "{window.title}" ({_process(window.pid, window.process)})'
            if time.monotonic() > deadline:
                return "the focus went to no app's window"
            time.sleep(0.05)

    def _grab_taken(self) -> str | None:
        """What holds the keyboard, when another process does."""
        while self.d.pending_events():
            ev = self.d.next_event()
            if ev.type in (X.FocusIn, X.FocusOut) and ev.mode in (X.NotifyGrab, X.NotifyUngrab):
                self.grabbed, self.grab_ours = ev.mode == X.NotifyGrab, False
        if not self.grabbed or self.grab_ours or self.pid is None:  # whose grab it is cannot be told
            return None
        owner = self._popup_owner()
        if owner is not None and owner == self.pid:
            self.grab_ours = True  # the app's own menu or popup: the keys are the app's
            return None
        if owner is None:
            return "another program took the keyboard (a grab; the focus stayed)"
        window = next((w for w in self.windows() if w.pid == owner), None)
        app = f'"{window.title}" ({_process(owner, window.process)})' if window else _process(owner, "")
        return f"a menu or popup of {app} took the keyboard (the focus stayed)"

    # -- X lookups -----------------------------------------------------------------------------
    def _focus(self) -> int:
        """The X window holding the keyboard focus (X.NONE or X.PointerRoot when none does)."""
        focus = self.d.get_input_focus().focus
        return int(focus if isinstance(focus, int) else focus.id)

    def _frame(self, wid: int) -> int | None:
        """The window's ancestor that is a child of the root (its frame), None when gone."""
        if wid in NO_WINDOW or wid == self.root.id:
            return None
        win = self.d.create_resource_object("window", wid)
        try:
            while True:
                parent = win.query_tree().parent
                if not parent or parent.id == self.root.id:
                    return int(win.id)
                win = parent
        except error.XError:
            return None

    def _exists(self, wid: int | None) -> bool:
        if wid is None:
            return False
        try:
            self.d.create_resource_object("window", wid).get_geometry()
            return True
        except error.XError:
            return False

    def _pid(self, wid: int) -> int | None:
        """The process of the X client that made the window, None if unknown."""
        return None if wid in NO_WINDOW else client_pid(self.d, wid)

    def _window_of(self, wid: int) -> WindowInfo | None:
        """The listed top-level window holding X window `wid` (itself or an ancestor)."""
        listed = {int(w.id, 16): w for w in self.windows()}
        win = self.d.create_resource_object("window", wid)
        try:
            while int(win.id) not in listed:
                parent = win.query_tree().parent
                if not parent or parent.id == self.root.id:
                    return None
                win = parent
        except error.XError:
            return None
        return listed[int(win.id)]

    def _popup_owner(self) -> int | None:
        """The process of the top-most shown override-redirect window (a menu, a popup):
        most likely the one whose grab holds the keyboard."""
        try:
            children = self.root.query_tree().children
        except error.XError:
            return None
        for child in reversed(children):
            try:
                attrs = child.get_attributes()
            except error.XError:
                continue
            if attrs.override_redirect and attrs.map_state == X.IsViewable:
                return self._pid(child.id)
        return None

    def _watch(self, wid: int, mask: int) -> None:
        """Select (or, with 0, stop selecting) events on a window; a window gone is no error."""
        if wid in NO_WINDOW:
            return
        catcher = error.CatchError(error.BadWindow)
        self.d.create_resource_object("window", wid).change_attributes(event_mask=mask, onerror=catcher)


def _process(pid: int | None, name: str) -> str:
    """ "name, pid N" for a message, from what is known."""
    if pid is not None and not name:
        try:
            name = psutil.Process(pid).name()
        except psutil.Error:
            name = ""
    return ", ".join(part for part in (name, f"pid {pid}" if pid is not None else "") if part) or "unknown process"
