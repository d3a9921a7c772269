"""The Linux backend: AT-SPI for the tree, XTEST for input, EWMH for windows, mss for pixels.

It only joins the platform modules and maps X windows to their accessible frames; where
the elements of a frame are on the screen is worked out by `placement` from facts read here.
Every method is a primitive the core decides with (read, set text, focus, type, click at):
none calls back into the core. Connections open on first use, so a command that fails validation never touches the
display or the bus.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import time
from collections.abc import Callable, Sequence
from functools import cached_property

from PIL import Image

from winactions.backends.base import (
    IN_POPUP,
    AppRef,
    Backend,
    Capability,
    Key,
    Monitor,
    MouseButton,
    Screen,
    TextMatch,
    WindowAction,
    covered_by_element,
)
from winactions.backends.linux import a11ybus, bridges, clipboard, held, opener, overlay_windows, terminal
from winactions.backends.linux import density as app_density
from winactions.backends.linux.apps import Apps
from winactions.backends.linux.atspi import VCL, WEB_PAGE, WEB_TOOLKITS, AtspiClient, split_handle
from winactions.backends.linux.focus_guard import FocusGuard
from winactions.backends.linux.placement import (
    IDENTITY,
    POPOVER_TOOLKITS,
    Placement,
    placed_on_screen,
    placement_of,
    popovers_moved,
    root_panes_aligned,
)
from winactions.backends.linux.x11windows import X11Windows
from winactions.backends.linux.xinput import KEY_GAP, XInput
from winactions.errors import NotFound, NoTree, WinctlError
from winactions.keys import Chord, parse_keys
from winactions.model import Node, Operation, Rect, Snapshot, WindowInfo

SHEET_SCROLL_SETTLE = 1.0  # s for a sheet to scroll to its cell cursor
# s LibreOffice takes to show a change in its toolbars and menus (Bold checked once the caret is
# in a bold word, Save All enabled once a document is modified): it updates them on a timer
# after the change, seen 290-360 ms after the keys, 600-650 ms in a document just opened
VCL_STATES_LAG = 0.8
FOCUS_QUIET = 0.1  # s without a focus event after keys: the app has done moving the focus for them
FOCUS_QUIET_LIMIT = 1.0  # s: ... waited for at most


class LinuxBackend(Backend):
    platform = "linux"
    capabilities = frozenset(
        {
            Capability.POINTER,
            Capability.HOLD_KEY,
            Capability.WINDOW_MANAGE,
            Capability.CLIPBOARD,
            Capability.TERMINAL,
            Capability.OVERLAYS,
        }
    )

    def lacks(self, capability: Capability) -> str:
        if capability is Capability.BOUND_WINDOW:
            return (
                "X11 apps ignore synthetic events (XSendEvent marks them), so input here is global: "
                "`winctl focus` brings the window forward first"
            )
        return super().lacks(capability)

    def __init__(self, live: bool = False) -> None:
        self._frames: dict[str, str] = {}  # X window id -> accessible frame handle
        self._placements: dict[str, Placement] = {}  # app's bus name -> how `placed_on_screen` placed it
        self._placed: dict[str, tuple[list[Node], Rect | None, list[Node]]] = {}  # window -> read, rect, placed
        self._live = live
        self._bus_id: str | None = None  # `run_of`'s accessibility bus id, once asked
        self._input_at = 0.0  # when this process last sent input or moved a caret (monotonic)

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
        # the accessibility bus first: Qt 5 joins it only if it runs when the app starts; with no
        # bus here the app still starts, and `state` says what is missing
        with contextlib.suppress(WinctlError):
            self.atspi  # noqa: B018  (asking for its address starts it: D-Bus activation)
        return self.x11.launch(command)

    def launch_stderr(self, pid: int, exited: bool) -> str:
        return self.x11.launch_stderr(pid, exited)

    def program_of(self, command: Sequence[str]) -> str:
        return command[bridges.program_index(command, os.environ.get("PATH"))]

    def covering(self, window_id: str, x: int, y: int, in_popup: bool) -> str | None:
        return self.x11.covering(window_id, x, y, in_popup)

    def popups(self, window: WindowInfo) -> list[Rect]:
        return self.x11.popups(window)

    def covers(self, window: WindowInfo) -> list[tuple[Rect, str]]:
        return self.x11.covers(window)

    def overlays(self) -> list[tuple[Rect, str]]:
        return overlay_windows.overlay_windows(self.x11.d)

    def without_tree(self, window: WindowInfo) -> str:
        return bridges.no_bridge(window.pid)

    def field_selecting_keys(self, window: WindowInfo) -> str:
        return bridges.field_selecting_keys(window.pid)

    def widget_windows(self, window: WindowInfo) -> list[Rect]:
        return self.x11.widget_windows(window)

    def density(self, window: WindowInfo | None) -> float | None:
        """What the app was told in its environment or command line (`density.told`), else the
        scale its tree is placed at when that is more than 1 (GTK and Java report logical pixels:
        a desktop scaling GTK through XSETTINGS shows only there); None otherwise: a tree placed
        as it is proves nothing (Qt and Chromium report screen pixels at any scale)."""
        if window is None:
            return None
        told = app_density.told(window.pid)
        if told is not None:
            return told
        try:
            scale = self._placement_of(self.frame_handle(window)).scale
        except WinctlError:
            return None  # no tree, or it did not answer: nothing says
        return float(scale) if scale > 1 else None

    def obscuring(self, handle: str, x: int, y: int) -> str | None:
        try:
            over = self.atspi.element_over(handle, x, y)
        except WinctlError:
            return None  # the app did not answer: nothing known to be in the way
        return None if over is None else covered_by_element(*over)

    # -- accessibility ------------------------------------------------------------------
    def frame_handle(self, window: WindowInfo) -> str:
        """The accessible frame of an X window (matched by pid, title and geometry).

        Cached by window id and pid: an app that restarts often gets its old X window id
        back, and its old frame is gone with it."""
        key = f"{window.id}/{window.pid}"
        handle = self._frames.get(key)
        if handle is None:
            alike = sorted(
                (
                    w.id
                    for w in self.list_windows()
                    if w.pid == window.pid and w.title == window.title and w.rect == window.rect
                ),
                key=lambda wid: int(wid, 16),
            )  # X ids grow as windows are made
            rank = (alike.index(window.id), len(alike)) if window.id in alike and len(alike) > 1 else None
            handle = self.atspi.find_frame(window.pid, window.title, window.rect, window.active, rank)
            if handle is None:
                note = self.atspi.bus_note  # the bus read may be another display's: then that, not the app
                hint = f"run `winctl doctor`; {a11ybus.PIXELS}" if note else bridges.no_tree_hint(window.pid)
                raise NoTree(
                    f'window "{window.title}" exposes no accessibility tree' + (f" ({note})" if note else ""), hint=hint
                )
            self._frames[key] = handle
        return handle

    def snapshot(self, window: WindowInfo, *, max_nodes: int = 20000) -> Snapshot:
        frame = self.frame_handle(window)
        self._caught_up(frame)
        found = self.atspi.snapshot(frame, max_nodes=max_nodes)
        if not found.nodes:  # the frame we knew is gone (its app restarted): look for it again
            self._frames.pop(f"{window.id}/{window.pid}", None)
            found = self.atspi.snapshot(self.frame_handle(window), max_nodes=max_nodes)
            if not found.nodes:
                raise NotFound(
                    f'window "{window.title}" has no accessibility tree right now',
                    hint="it may be closing or restarting: run `winctl windows`, then `winctl state`",
                )
        kept = self._placed.get(window.id)
        if kept is not None and kept[0] is found.nodes and kept[1] == window.rect:
            found.nodes = kept[2]  # unchanged, placed as before: the same nodes, so nothing downstream works again
            return self._with_menus(window, found, max_nodes)
        read = found.nodes
        placed, placement = placed_on_screen(found, window.rect)  # passwords: "protected" (atspi.element)
        if self.atspi.toolkit(placed.nodes[0].handle) == VCL:
            placed = placed.model_copy(update={"nodes": root_panes_aligned(placed.nodes)})
        self._placements[split_handle(placed.nodes[0].handle)[0]] = placement
        self._placed[window.id] = (read, window.rect, placed.nodes)
        return self._with_menus(window, placed, max_nodes)

    def _with_menus(self, window: WindowInfo, found: Snapshot, max_nodes: int) -> Snapshot:
        """The window's placed tree with the context menus its app has open: GTK 3 and Java
        keep one in a top-level window of its own, not under the frame, so a state of the frame
        alone listed nothing of it. Each menu window takes the place the X server gives it (Java
        reports it off by its frame's place; its items' places are right). An app that reports
        logical pixels (GTK under GDK_SCALE) has its menus' items placed as its window's are: at
        GDK_SCALE=2 galculator's context menu was not matched (half the X window's size) and
        `state` warned of a menu it does not list. Menus the app lists nowhere (Qt's) stay out:
        `state` warns."""
        menus = self.x11.popups(window)
        placement = self._placements.get(split_handle(found.nodes[0].handle)[0], IDENTITY)
        if menus and self.atspi.toolkit(found.nodes[0].handle) in POPOVER_TOOLKITS:
            found = found.model_copy(update={"nodes": popovers_moved(found.nodes, menus, placement)})
        tops = self.atspi.menu_windows(found.nodes[0].handle, menus, placement.scale) if menus else []
        if not tops:
            return found.model_copy(update={"popups": menus})
        nodes = list(found.nodes)
        for top, shown in tops:
            extra = self.atspi.snapshot(top, max_nodes=max(1, max_nodes - len(nodes)))
            base = len(nodes)
            nodes += [
                dataclasses.replace(n, parent=0, rect=shown)
                if n.parent is None
                else dataclasses.replace(placement.place(n), parent=n.parent + base)
                for n in extra.nodes
            ]
        return found.model_copy(update={"nodes": nodes, "popups": menus})

    def _caught_up(self, handle: str) -> None:
        """Return once the app of `handle` shows what our last input changed: at once, but
        for LibreOffice (VCL_STATES_LAG after the input)."""
        wait = self._input_at + VCL_STATES_LAG - time.monotonic()
        if wait > 0 and self.atspi.toolkit(handle) == VCL:
            time.sleep(wait)

    def _sent(self) -> None:
        self._input_at = time.monotonic()

    def refresh(self, handle: str) -> Node | None:
        """One element read again, placed on screen as a snapshot places it."""
        node = self.atspi.refresh(handle)
        if node is None or node.rect is None:
            return node
        placement = self._placement_of(handle)
        if placement.scale > 1:  # in a web page that reports screen pixels (see `placed_on_screen`)?
            pages = self.atspi.placed_around(handle, frozenset({WEB_PAGE}), WEB_TOOLKITS)
            if pages and placement.in_screen_pixels(pages[-1]):
                return node
        node = placement.place(node)
        shift = self.atspi.root_pane_shift(handle)  # LibreOffice's content before its window is clicked
        if shift is not None and node.rect is not None:
            k = placement.scale
            node = dataclasses.replace(node, rect=node.rect.moved(shift[0] * k, shift[1] * k))
        return self._out_of_popover(handle, node, placement)

    def _out_of_popover(self, handle: str, node: Node, placement: Placement) -> Node:
        """The element placed where the X server shows the popover it is in (`popovers_moved`),
        as a snapshot places it. Only asked of GTK 4 apps with a menu open: it walks up the
        element's parents, a round trip per level."""
        if self.atspi.toolkit(handle) not in POPOVER_TOOLKITS:
            return node
        pid = self.atspi.pid(handle)
        menus = [menu for w in self.list_windows() if w.pid == pid for menu in self.x11.popups(w)]
        if not menus or node.rect is None:
            return node
        lineage = [placement.place(n) for n in self.atspi.lineage(handle)]
        moved = popovers_moved(lineage, menus, placement)
        if not moved or IN_POPUP not in moved[-1].extra:
            return node
        return dataclasses.replace(node, rect=moved[-1].rect, extra={**node.extra, IN_POPUP: moved[-1].extra[IN_POPUP]})

    def _placement_of(self, handle: str) -> Placement:
        """How `placed_on_screen` places this element's app: known from its last snapshot in this
        process, else worked out from its frames and X windows (a one-shot `click` reads the
        element again in a process that never read its window)."""
        dest = split_handle(handle)[0]
        if dest not in self._placements:
            pid, frames = self.atspi.app_frames(handle)
            windows = [
                w.rect
                for w in sorted(self.list_windows(), key=lambda w: not w.active)
                if w.pid == pid and w.rect is not None
            ]
            placement = IDENTITY
            if windows and frames:  # the app's frame that fits its (active) window best says it
                placement = min(
                    (placement_of(frame, windows[0]) for frame in frames), key=lambda p: p.misfit(frames, windows[0])
                )
            self._placements[dest] = placement
        return self._placements[dest]

    def perform(self, handle: str, operation: Operation, argument: str | float | None = None) -> str:
        """`Backend.perform`. In an app that runs an action's handler inside the call
        (`held.acts_in_call`), it returns once the app answers again, and an action whose
        handler runs a modal dialog there is undone (`held.released`)."""
        self._sent()
        if not held.acts_in_call(self.atspi, handle):
            return self.atspi.perform(handle, operation, argument)
        before = self.x11.client_ids()
        return held.released(self.atspi, self.x11, handle, before, self.atspi.perform(handle, operation, argument))

    def name_watch(self, handle: str) -> Callable[[], tuple[str | None, list[str]]]:
        return self.atspi.name_watch(handle)

    def chooses_silently(self, handle: str) -> bool:
        return self.atspi.chooses_silently(handle)

    def named_below(self, handles: list[str], name: str, limit: int) -> list[str]:
        return self.atspi.named_below(handles, name, limit)

    def text_below(self, handles: list[str], text: str, limit: int) -> tuple[list[TextMatch], bool]:
        return self.atspi.text_below(handles, text, limit)

    def scroll_into_view(self, handle: str) -> bool:
        """ScrollTo; else, for a spreadsheet's cell, the cell cursor moved there through the tree
        and nudged by a key: LibreOffice's sheet answers ScrollTo with false and does not scroll
        to a cell the tree focuses (the cursor goes there out of view), but scrolls to its
        cursor when a key moves it. Down then Up puts the cursor back on the cell."""
        if self.atspi.scroll_into_view(handle):
            return True
        if not self.atspi.is_sheet_cell(handle):
            return False
        try:
            self.atspi.perform(handle, Operation.FOCUS)
        except WinctlError:
            return False
        self.xinput.press_chords(parse_keys("Down"))
        self.xinput.press_chords(parse_keys("Up"))
        deadline = time.monotonic() + SHEET_SCROLL_SETTLE
        while time.monotonic() < deadline:
            node = self.atspi.refresh(handle)
            if node is not None and node.rect is not None:
                return True
            time.sleep(0.05)
        return False

    def acts_in_call(self, handle: str) -> bool:
        return held.acts_in_call(self.atspi, handle)

    def keeps_menu_open(self, handle: str) -> bool:
        return self.atspi.keeps_menu_open(handle)

    def sets_value_silently(self, handle: str) -> bool:
        return self.atspi.sets_value_silently(handle)

    def option_names(self, handle: str) -> list[str]:
        return self.atspi.option_names(handle)

    def choice_open(self, handle: str) -> bool:
        return self.atspi.choice_open(handle)

    def read_text(self, handle: str) -> str:
        return self.atspi.read_text(handle)

    def read_screen(self, handle: str) -> Screen | None:
        try:
            read = self.atspi.screen(handle)
        except NotFound:
            return None
        return Screen(*read) if read is not None else None

    def terminal_command(self, command: Sequence[str], title: str) -> list[str]:
        return terminal.command_line(command, title)

    def place_caret(self, handle: str, offset: int) -> bool:
        self._sent()
        return self.atspi.set_caret(handle, offset)

    def focus_holder(self, handle: str) -> bool:
        return self.atspi.focus_holder(handle)

    def holds_focus(self, handle: str) -> bool | None:
        return self.atspi.holds_focus(handle)

    def cursor_missed(self, handle: str) -> str | None:
        return self.atspi.cursor_missed(handle)

    def select_text(self, handle: str, start: int, end: int) -> bool:
        self._sent()
        return self.atspi.select_text(handle, start, end)

    def text_selection(self, handle: str) -> tuple[int, int] | None:
        return self.atspi.text_selection(handle)

    # -- input ----------------------------------------------------------------------------
    def click(
        self, x: int, y: int, button: MouseButton = MouseButton.LEFT, count: int = 1, modifiers: Sequence[Key] = ()
    ) -> None:
        self.xinput.click(x, y, button, count, modifiers)
        self._sent()
        self.x11.note_click(x, y)  # for space_clicks, in whichever winctl process clicks next

    def space_clicks(self, x: int, y: int) -> None:
        self.x11.wait_out_double_click(x, y)

    def mouse_move(self, x: int, y: int) -> None:
        self.xinput.mouse_move(x, y)

    def mouse_button(self, button: MouseButton, down: bool) -> None:
        self.xinput.mouse_button(button, down)
        self._sent()

    def drag(
        self, x1: int, y1: int, x2: int, y2: int, *, button: MouseButton = MouseButton.LEFT, duration: float = 0.3
    ) -> None:
        self.xinput.drag(x1, y1, x2, y2, button=button, duration=duration)
        self._sent()

    def scroll(self, x: int, y: int, dx: int, dy: int) -> None:
        self.xinput.scroll(x, y, dx, dy)
        self._sent()

    def press_chords(self, chords: Sequence[Chord]) -> None:
        self.xinput.press_chords(chords)
        self._sent()

    def keys_settled(self, window: WindowInfo) -> None:
        """See `Backend.keys_settled`: the app's focus events stop for FOCUS_QUIET (LibreOffice
        focuses its Find field, takes the focus away and gives it back with the text selected
        some 40 ms after ctrl+f: keys typed between went in before the selection)."""
        if not self._live:
            return
        try:  # no tree (a terminal), an app gone or busy in a modal loop: its focus is not heard
            self.atspi.await_focus_still(self.frame_handle(window), FOCUS_QUIET, FOCUS_QUIET_LIMIT)
        except WinctlError:
            return

    def hold_keys(self, chords: Sequence[Chord], seconds: float) -> None:
        self.xinput.hold_keys(chords, seconds)
        self._sent()

    def key_state(self, chords: Sequence[Chord], down: bool) -> None:
        self.xinput.key_state(chords, down)
        self._sent()

    def type_text(self, text: str) -> None:
        """`Backend.type_text`: key by key through XTEST, the keyboard focus asked after each
        (`FocusGuard`, whose question is the round trip the key needs): typing stops with
        ActionFailed as soon as the keys would go elsewhere."""
        guard = FocusGuard(self.xinput.d, self.x11.list_windows)
        try:
            for sent, ch in enumerate(text, 1):
                self.xinput.type_char(ch, sync=False)
                guard.check(sent, len(text), ch)
                time.sleep(KEY_GAP)
        finally:
            self.xinput.release_bound()
            guard.close()
            self._sent()

    def cursor_position(self) -> tuple[int, int]:
        return self.xinput.cursor_position()

    def modifiers_down(self) -> frozenset[str] | None:
        return self.xinput.modifiers_down()

    def buttons_down(self) -> frozenset[MouseButton] | None:
        return self.xinput.buttons_down()

    def open_url(self, url: str) -> str:
        return opener.open_url(url)

    # -- clipboard ---------------------------------------------------------------------------
    def get_clipboard(self) -> str:
        return clipboard.get_text()

    def set_clipboard(self, text: str) -> None:
        clipboard.set_text(text)

    # -- screens ---------------------------------------------------------------------------
    def screens(self) -> list[Rect]:
        return self.x11.screens()

    def monitors(self) -> list[Monitor]:
        return self.x11.monitors()

    def capture(self, rect: Rect) -> Image.Image:
        return self.x11.capture(rect)

    # -- which app (the access gate: `linux.apps`) ----------------------------------------------
    @cached_property
    def apps(self) -> Apps:
        return Apps(self.x11)

    def app_at(self, x: int, y: int) -> AppRef | None:
        return self.apps.at(x, y)

    def app_of_window(self, window_id: str) -> AppRef:
        return self.apps.of_window(window_id)

    def app_of_element(self, handle: str) -> AppRef:
        return self.apps.of_pid(self.atspi.pid(handle))

    def focused_app(self) -> AppRef | None:
        return self.apps.focused()

    def run_of(self, window: WindowInfo) -> str | None:
        """The accessibility bus's id and the window's process (pid and start time): a
        restarted desktop has another bus id; a restarted app, another process. The bus is
        asked once per backend (a desktop with no accessibility bus is not tried again)."""
        if self._bus_id is None:
            try:
                self._bus_id = self.atspi.bus_id()
            except WinctlError:  # no accessibility bus: the process alone tells the run
                self._bus_id = ""
        bus = self._bus_id
        started = process_start(window.pid) if window.pid else None
        process = f"{window.pid}@{started}" if started else ""
        return f"bus {bus or '?'} pid {process or '?'}" if bus or process else None

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


def process_start(pid: int) -> str | None:
    """When process `pid` started (clock ticks since boot, /proc/PID/stat field 22), None
    when there is no such process: a pid used again by another process has another."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            stat = f.read()
    except OSError:
        return None
    fields = stat[stat.rfind(b")") + 2 :].split()  # the name, in parentheses, may hold spaces
    return fields[19].decode() if len(fields) > 19 else None
