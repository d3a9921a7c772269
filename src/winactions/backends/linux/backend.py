"""The Linux backend: AT-SPI for the tree, XTEST for input, EWMH for windows, mss for pixels.

It only joins the three platform modules and maps X windows to their accessible frames.
Connections open on first use, so a command that fails validation never touches the
display or the bus.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Sequence
from functools import cached_property

from PIL import Image

from winactions.backends.base import Backend, Capability, MouseButton, WindowAction
from winactions.backends.linux import clipboard
from winactions.backends.linux.atspi import AtspiClient, split_handle
from winactions.backends.linux.x11windows import X11Windows
from winactions.backends.linux.xinput import XInput
from winactions.errors import NotFound
from winactions.keys import Chord
from winactions.model import Node, Operation, Rect, Snapshot, WindowInfo

ROOT_SLACK = 16  # px a frame's reported origin may differ from its X window's (borders, shadows)


class LinuxBackend(Backend):
    platform = "linux"
    capabilities = frozenset({Capability.POINTER, Capability.HOLD_KEY, Capability.WINDOW_MANAGE, Capability.CLIPBOARD})

    def lacks(self, capability: Capability) -> str:
        if capability is Capability.BOUND_WINDOW:
            return ("X11 apps ignore synthetic events (XSendEvent marks them), so input here is global: "
                    "`winctl focus` brings the window forward first")
        return super().lacks(capability)

    def __init__(self, live: bool = False) -> None:
        self._frames: dict[str, str] = {}  # X window id -> accessible frame handle
        self._shifts: dict[str, tuple[int, int]] = {}  # app's bus name -> what `_on_screen` added (GTK 4)
        self._placed: dict[str, tuple[list[Node], Rect | None, list[Node]]] = {}  # window -> read, rect, placed
        self._live = live

    @cached_property
    def atspi(self) -> AtspiClient:
        return AtspiClient(live=self._live)

    @cached_property
    def x11(self) -> X11Windows:
        return X11Windows()

    @cached_property
    def xinput(self) -> XInput:
        return XInput()

    # -- windows ------------------------------------------------------------------------
    def list_windows(self) -> list[WindowInfo]:
        return self.x11.list_windows()

    def window_action(self, window_id: str, action: WindowAction, rect: Rect | None = None) -> None:
        self.x11.window_action(window_id, action, rect)

    def launch(self, command: Sequence[str]) -> int:
        return self.x11.launch(command)

    # -- accessibility ------------------------------------------------------------------
    def frame_handle(self, window: WindowInfo) -> str:
        """The accessible frame of an X window (matched by pid, title and geometry).

        Cached by window id and pid: an app that restarts often gets its old X window id
        back, and its old frame is gone with it."""
        key = f"{window.id}/{window.pid}"
        handle = self._frames.get(key)
        if handle is None:
            handle = self.atspi.find_frame(window.pid, window.title, window.rect)
            if handle is None:
                raise NotFound(
                    f'window "{window.title}" exposes no accessibility tree',
                    hint="GTK/Qt apps need the AT-SPI bus; Chromium/Electron need "
                         "--force-renderer-accessibility; use `winctl screenshot` to see it")
            self._frames[key] = handle
        return handle

    def snapshot(self, window: WindowInfo, *, max_nodes: int = 20000) -> Snapshot:
        found = self.atspi.snapshot(self.frame_handle(window), max_nodes=max_nodes)
        if not found.nodes:  # the frame we knew is gone (its app restarted): look for it again
            self._frames.pop(f"{window.id}/{window.pid}", None)
            found = self.atspi.snapshot(self.frame_handle(window), max_nodes=max_nodes)
            if not found.nodes:
                raise NotFound(f'window "{window.title}" has no accessibility tree right now',
                               hint="it may be closing or restarting: run `winctl windows`, then `winctl state`")
        kept = self._placed.get(window.id)
        if kept is not None and kept[0] is found.nodes and kept[1] == window.rect:
            found.nodes = kept[2]  # unchanged, placed as before: the same nodes, so nothing downstream works again
            return found
        read = found.nodes
        placed, shift = _on_screen(found, window.rect)  # password fields are "protected" already (atspi._node)
        self._shifts[split_handle(placed.nodes[0].handle)[0]] = shift
        self._placed[window.id] = (read, window.rect, placed.nodes)
        return placed

    def refresh(self, handle: str) -> Node | None:
        """One element read again, placed on screen as a snapshot places it."""
        node = self.atspi.refresh(handle)
        if node is None or node.rect is None:
            return node
        dx, dy = self._shift_of(handle)
        return _shifted(node, dx, dy) if (dx, dy) != (0, 0) else node

    def _shift_of(self, handle: str) -> tuple[int, int]:
        """What `_on_screen` adds to the places of this element's app: known from its last
        snapshot in this process, else worked out from its X window (a one-shot `click` reads
        the element again in a process that never read its window)."""
        dest = split_handle(handle)[0]
        if dest not in self._shifts:
            found = self.atspi.window_relative(handle)
            shift = (0, 0)
            if found is not None:
                pid, frames = found
                windows = sorted((w for w in self.list_windows() if w.pid == pid), key=lambda w: not w.active)
                for rect in (w.rect for w in windows if w.rect is not None):
                    frame = min(frames, key=lambda f: abs(f.width - rect.width) + abs(f.height - rect.height),
                                default=None)
                    if frame is not None:
                        shift = _gtk4_shift(frame, rect)
                        break
            self._shifts[dest] = shift
        return self._shifts[dest]

    def perform(self, handle: str, operation: Operation, argument: str | float | None = None) -> str:
        return self.atspi.perform(handle, operation, argument)

    def read_text(self, handle: str) -> str:
        return self.atspi.read_text(handle)

    # -- input ----------------------------------------------------------------------------
    def click(self, x: int, y: int, button: MouseButton = MouseButton.LEFT, count: int = 1) -> None:
        self.xinput.click(x, y, button, count)

    def mouse_move(self, x: int, y: int) -> None:
        self.xinput.mouse_move(x, y)

    def mouse_button(self, button: MouseButton, down: bool) -> None:
        self.xinput.mouse_button(button, down)

    def drag(self, x1: int, y1: int, x2: int, y2: int, *, button: MouseButton = MouseButton.LEFT,
             duration: float = 0.3) -> None:
        self.xinput.drag(x1, y1, x2, y2, button=button, duration=duration)

    def scroll(self, x: int, y: int, dx: int, dy: int) -> None:
        self.xinput.scroll(x, y, dx, dy)

    def press_chords(self, chords: Sequence[Chord]) -> None:
        self.xinput.press_chords(chords)

    def hold_keys(self, chords: Sequence[Chord], seconds: float) -> None:
        self.xinput.hold_keys(chords, seconds)

    def type_text(self, text: str) -> None:
        self.xinput.type_text(text)

    def cursor_position(self) -> tuple[int, int]:
        return self.xinput.cursor_position()

    # -- clipboard ---------------------------------------------------------------------------
    def get_clipboard(self) -> str:
        return clipboard.get_text()

    def set_clipboard(self, text: str) -> None:
        clipboard.set_text(text)

    # -- screens ---------------------------------------------------------------------------
    def screens(self) -> list[Rect]:
        return self.x11.screens()

    def capture(self, rect: Rect) -> Image.Image:
        return self.x11.capture(rect)

    def alive(self) -> bool:
        for name in ("x11", "xinput"):
            part = self.__dict__.get(name)
            if part is not None:
                try:
                    part.d.get_input_focus()  # one round trip: fails once the X server is gone
                except Exception:
                    return False
        atspi = self.__dict__.get("atspi")
        return atspi is None or atspi.connected

    def desktop_exists(self) -> bool:
        """A local display (`:N`) lives as long as its socket /tmp/.X11-unix/XN."""
        display = os.environ.get("DISPLAY", "")
        if not display.startswith(":"):
            return True  # remote or unset: nothing cheap to check
        number = display[1:].split(".")[0]
        return not number.isdigit() or os.path.exists(f"/tmp/.X11-unix/X{number}")

    def close(self) -> None:
        for name in ("atspi", "x11", "xinput"):
            part = self.__dict__.pop(name, None)
            if part is not None and hasattr(part, "close"):
                part.close()


def _on_screen(snapshot: Snapshot, window: Rect | None) -> tuple[Snapshot, tuple[int, int]]:
    """Screen coordinates where a toolkit gets them wrong; the X window has them right.

    GTK 4.8 answers GetExtents(SCREEN) relative to its window, its client-side border
    (5 px each way under a bare window manager) left out: a frame at (0, 0) inside an X
    window elsewhere moves there, the border split evenly. Java dialogs keep reporting
    where they were before the window manager placed them, which would clip all their
    content away: a root far from its X window takes the window's rect. Returns the snapshot
    and the shift applied to every element (for elements read again later: `refresh`).
    """
    if window is None or not snapshot.nodes:
        return snapshot, (0, 0)
    nodes = snapshot.nodes
    root = nodes[0].rect
    dx = dy = 0
    if root is not None:
        dx, dy = _gtk4_shift(root, window)
    if (dx, dy) != (0, 0):
        nodes = [_shifted(n, dx, dy) for n in nodes]
    root = nodes[0].rect
    if root is not None and (abs(root.left - window.left) > ROOT_SLACK or abs(root.top - window.top) > ROOT_SLACK):
        nodes = [dataclasses.replace(nodes[0], rect=window), *nodes[1:]]  # never edit a cached tree in place
    snapshot.nodes = nodes
    return snapshot, (dx, dy)


def _gtk4_shift(root: Rect, window: Rect) -> tuple[int, int]:
    """What to add to the places a window-relative app (GTK 4.8) reports: its frame says it is
    at (0, 0) inside an X window elsewhere; the client-side border is split evenly."""
    if (root.left, root.top) != (0, 0) or (window.left, window.top) == (0, 0):
        return 0, 0
    return window.left + max(0, window.width - root.width) // 2, window.top + max(0, window.height - root.height) // 2


def _shifted(node: Node, dx: int, dy: int) -> Node:
    """The node moved by (dx, dy): a copy (a kept tree is never edited in place), made field
    by field: `dataclasses.replace` costs ~20 us, on every element of a big window each state."""
    if node.rect is None:
        return node
    moved = object.__new__(Node)
    moved.__dict__.update(node.__dict__, rect=Rect(left=node.rect.left + dx, top=node.rect.top + dy,
                                                   right=node.rect.right + dx, bottom=node.rect.bottom + dy))
    return moved
