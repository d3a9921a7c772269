"""The backend interface: what the core needs from one platform, and nothing more.

A backend adapts a platform's accessibility API, input and capture. The core (perception,
sessions, commands, front ends) only ever talks to this interface. It is shaped to fit
Linux (AT-SPI + XTEST + EWMH), Windows (UI Automation + SendInput/window messages + Win32)
and Android (uiautomator + adb input + screencap) alike:

- windows are listed and managed by an opaque string id (X window id, HWND, activity);
- the tree of one window is read in one `snapshot` call, so each platform can batch its
  reads (pipelined D-Bus calls, one UIA CacheRequest, one uiautomator dump);
- elements are addressed by an opaque `handle` re-resolved when an action runs (`refresh`),
  so a stale handle is detected, never acted on;
- semantic actions are one `perform(handle, Operation, argument)` call; synthesized input is
  a handful of primitives in screen pixels;
- a backend offers primitives and facts (read, set text, focus, type, press keys, click at,
  read back; which toolkit quirk applies) and decides no route: which way an action goes, in
  which order, and how its outcome is checked is decided in `execution` (clicks, pointing,
  choices) and `text_entry` (text), which call these methods; no backend calls back into them.
"""

from __future__ import annotations

import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from types import MappingProxyType

from PIL import Image

from winactions.errors import ActionFailed, NotFound, Unsupported
from winactions.keys import Chord
from winactions.model import Node, Operation, Rect, Snapshot, WindowInfo

# A key by its canonical name (`winactions.keys`): a modifier held during a click is one of
# `keys.MODIFIERS` ("ctrl", "shift", "alt", "super").
Key = str

# Seconds a drag waits after arriving at its start and after pressing: hover decides what a
# press grabs (a column edge, a splitter's handle), and the app takes its grab on the press.
DRAG_SETTLE = 0.05


class WindowAction(str, Enum):
    ACTIVATE = "activate"
    CLOSE = "close"
    MINIMIZE = "minimize"
    MAXIMIZE = "maximize"
    RESTORE = "restore"
    MOVE_RESIZE = "move_resize"


class Capability(str, Enum):
    """What a backend can do beyond reading a tree and acting on its elements. A command that
    needs one the session's backend lacks is refused with the backend's reason, and hidden
    from that session's MCP tool list (a phone has no pointer to hover, no window to move)."""

    POINTER = "pointer"  # a mouse: hover, press and release apart, middle button, cursor position
    HOLD_KEY = "hold_key"  # keys held down for a while
    WINDOW_MANAGE = "window_manage"  # minimize, maximize, restore, move and resize windows
    BOUND_WINDOW = "bound_window"  # input to one window in the background
    CLIPBOARD = "clipboard"  # read and set the clipboard's text
    DEVICE = "device"  # a phone's system: its home screen, hardware keys, installed apps
    TERMINAL = "terminal"  # open a terminal emulator whose screen the accessibility tree reads
    OVERLAYS = "overlays"  # winctl's own windows over the apps: the status label, teach mode


@dataclass(frozen=True)
class Check:
    """One finding of `winctl doctor`: what was checked, how it went, and the fix.

    A backend diagnoses its platform (display, buses, accessibility switches) without
    opening itself, since what it checks is what would stop it from opening."""

    name: str
    status: str  # "ok", "warn" (works, but something will be missing) or "fail" (winctl cannot work)
    detail: str
    fix: str = ""


@dataclass(frozen=True)
class Monitor:
    """One monitor: its name on the platform, its rectangle in the shared virtual-screen
    coordinate space, and whether it is the primary one."""

    name: str
    rect: Rect
    primary: bool = False


@dataclass(frozen=True)
class TextMatch:
    """An element found by its text (`Backend.text_below`): its handle, its text, and, for a
    sheet's cell, its 0-based (row, column)."""

    handle: str
    text: str
    place: tuple[int, int] | None = None


class MouseButton(str, Enum):
    LEFT = "left"
    MIDDLE = "middle"
    RIGHT = "right"


# What may take a mouse click meant for a window, as `Backend.covering` names it: a tooltip or
# notification goes once the pointer moves there; the rest stay until closed.
COVERED_BY_TOOLTIP = "a tooltip"
COVERED_BY_NOTIFICATION = "a notification"
COVERED_BY_POPUP = "an open menu or popup (a click there only closes it)"
COVERED_BY_APP_MENU = "an open menu of its app (the app takes a click anywhere in it as one that closes the menu)"
COVERED_BY_HELD_BUTTON = "a mouse button held down (`winctl mouse-up` lets it go)"


# A `Node.extra` key a backend sets on an element that shows in a popup window of its own
# whatever its type (a button in a GTK 4 popover): that popup is not in the way of a click on it.
# Its value says where the popup is.
IN_POPUP = "in_popup"
# A `Node.extra` key a backend sets on a terminal emulator's screen: it takes keys, not text;
# it has no text of its own to select or replace (ctrl+a reaches the program in it as a
# character). Its value is the platform's name for it.
TERMINAL = "terminal"
# A `Node.extra` key a backend sets on a table cell whose place it knows: "ROW,COL", from 0
# (a spreadsheet's cells, read or placed by row and column): `state` prints the table as rows.
CELL_PLACE = "cell"
# A `Node.extra` key a backend sets on a table whose rows it knows the number of: "400".
TABLE_ROWS = "rows"
# A `Node.extra` key a backend sets on a file dialog that hides its path field until keys are
# pressed: the keys ("ctrl+l" for GTK's file chooser).
REVEALS_PATH = "reveals_path"


def covered_by_window(title: str) -> str:
    return f'the window "{title}"' if title else "another window"


def covered_by_overlay(instance: str) -> str:
    """winctl's own overlay window (`Backend.overlays`), which pixel perception paints out."""
    return f"winctl's own {instance} overlay"


def uncover_hint(what: str) -> str:
    """How to see the part of a window that `what` (a `covers` phrase) covers."""
    if what.startswith("winctl's own"):
        return "`winctl status-indicator hide` takes the label away"
    return "`winctl window activate` brings the window forward"


def covered_by_element(control_type: str, name: str) -> str:
    """An element of the window's own content, as `state` lists it: [Dialog] "Cookies"."""
    return f'[{control_type}] "{name}"' if name else f"[{control_type}]"


@dataclass(frozen=True)
class AppRef:
    """The application a window, an element or a screen point belongs to: the access gate
    matches grants against its `names` (the names its windows give it first — X11's WM_CLASS,
    a phone's package — then its program's), ignoring case. `overlay`: the window is one of
    winctl's own (WM_CLASS class `Winctl`), and this is its role ("status", "teach", "prompt")."""

    names: tuple[str, ...]
    pid: int | None = None
    window_id: str | None = None
    title: str = ""
    overlay: str | None = None

    @property
    def label(self) -> str:
        """The name an error says: the first."""
        return self.names[0] if self.names else f"the app of pid {self.pid}"


class Backend(ABC):
    """One platform. Methods raise `winactions.errors` exceptions, never platform ones."""

    platform: str = "abstract"
    capabilities: frozenset[Capability] = frozenset()
    # Key names only this platform has (lower case → the backend's own key name), given to
    # the shared key parser: a phone's "back" and "home" (see `winactions.keys.parse_keys`).
    key_names: Mapping[str, str] = MappingProxyType({})
    # A phone shows one screen, not windows: the session always acts on that screen, whatever
    # app is in front (its "window" is the foreground app and activity).
    one_screen: bool = False

    def lacks(self, capability: Capability) -> str:
        """Why this backend cannot do `capability` (said to the agent when it is refused)."""
        return f"the {self.platform} backend cannot do that ({capability.value})"

    # --- windows -------------------------------------------------------------------
    @abstractmethod
    def list_windows(self) -> list[WindowInfo]:
        """Top-level, user-visible windows, topmost-active first is not required."""

    @abstractmethod
    def window_action(self, window_id: str, action: WindowAction, rect: Rect | None = None) -> None:
        """Activate/close/minimize/maximize/restore a window, or move and resize it to `rect`
        (the client area)."""

    @abstractmethod
    def launch(self, command: Sequence[str]) -> int:
        """Start a program detached from us and return its pid."""

    def launch_stderr(self, pid: int, exited: bool) -> str:
        """The last lines a program started by `launch` wrote to stderr, on one line, once (a
        second ask gets ""): `launch` quotes them when the program fails. `exited`: it has
        ended, and its last words may still be on their way."""
        return ""

    def program_of(self, command: Sequence[str]) -> str:
        """The program a command line runs: its first word, or past a wrapper the platform
        knows (`env VAR=1 app` runs app)."""
        return command[0]

    # --- accessibility ---------------------------------------------------------------
    @abstractmethod
    def snapshot(self, window: WindowInfo, *, max_nodes: int = 20000) -> Snapshot:
        """Read the window's accessible tree in document order, root (the window) first."""

    @abstractmethod
    def refresh(self, handle: str) -> Node | None:
        """Read one element again; None when it no longer exists (defunct, destroyed).

        The returned node's `parent` is None: it stands alone.
        """

    def name_watch(self, handle: str) -> Callable[[], tuple[str | None, list[str]]]:
        """A reader of the element's own name (`Node.name`), for the moments right before and
        right after a press: each call reads the name now (None when the element is gone) and
        returns it with the names the app announced for it since the watch was made, in order
        ([] where the platform does not announce renames, or they are not listened to)."""

        def read() -> tuple[str | None, list[str]]:
            node = self.refresh(handle)
            return (node.name if node is not None else None), []

        return read

    @abstractmethod
    def perform(self, handle: str, operation: Operation, argument: str | float | None = None) -> str:
        """Run a semantic operation and return a short description of how, e.g.
        "action:click" or "EditableText.SetTextContents". Raises ActionFailed when the
        element does not support it."""

    @abstractmethod
    def read_text(self, handle: str) -> str:
        """The element's full text content (Text interface, Value, or name as a last resort)."""

    def space_clicks(self, x: int, y: int) -> None:
        """Wait until a click at (x, y) cannot join the last click into a double-click (where
        the last click is known: every click of this backend). Called before a click on text
        or on a list's item, where a double-click means something else: it selects a word,
        or opens the row."""

    def focus_holder(self, handle: str) -> bool:
        """Give the keyboard focus to the editable that holds this element (a web page's
        editable section holds its paragraphs), through the accessibility API; False where
        there is none or it refuses. Then the element's text is typed into without a click."""
        return False

    def cursor_missed(self, handle: str) -> str | None:
        """After a click on a spreadsheet's cell: what the sheet shows instead of its cell
        cursor on that cell alone (another cell focused, other cells selected), waiting a
        moment for the app to show it; None when it shows so, or the element is no sheet's
        cell, or the platform cannot tell."""
        return None

    def holds_focus(self, handle: str) -> bool | None:
        """Whether the keyboard focus is in the element: on it, on a child of it (a combo
        box's entry), or, for a part of a larger whole (a sheet's cell, a document's
        paragraph), on the whole that holds it. None where the platform cannot tell: then
        nothing is refused for want of it."""
        return None

    def select_text(self, handle: str, start: int, end: int) -> bool:
        """Select characters start..end of the element's own text through the accessibility
        API; False where it cannot. `input` replaces a paragraph's text so (ctrl+a would select
        the whole editable it is part of)."""
        return False

    def text_selection(self, handle: str) -> tuple[int, int] | None:
        """The first selected range (start, end) of the element's own text, as the app shows
        it now; None where nothing is selected or the platform cannot read it."""
        return None

    def place_caret(self, handle: str, offset: int) -> bool:
        """Put the element's text cursor at `offset` through the accessibility API; False where
        it cannot (then the keyboard moves it). `input --append` types at the end of the
        element's own text so (ctrl+End is the end of a whole document in a word processor)."""
        return False

    def chooses_silently(self, handle: str) -> bool:
        """Whether choosing an option of this combo box through the accessibility API would
        not reach the app: the box may show the option while the app's change handler never
        runs (Firefox's web pages, Java Swing), or the option's only action does nothing (Qt).
        `select` then chooses as a user does (`execution.choose_by_keys`)."""
        return False

    def named_below(self, handles: list[str], name: str, limit: int) -> list[str]:
        """Elements named `name` anywhere below these (scrolling) elements, shown or not, after
        reading at most `limit` elements: what a list or page holds out of view, which a state
        does not read. [] where the platform lists only what shows."""
        return []

    def text_below(self, handles: list[str], text: str, limit: int) -> tuple[list[TextMatch], bool] | None:
        """Elements anywhere below these (scrolling) elements whose text holds `text` (ignoring
        case), shown or not: a list's rows, a table's or a sheet's cells out of view. True with
        them when a budget (`limit` elements read) cut the search short. None where the
        platform cannot search what does not show."""
        return None

    def scroll_into_view(self, handle: str) -> bool:
        """Scroll the element's scrolling ancestors until it shows (AT-SPI Component.ScrollTo,
        UIA ScrollItemPattern); False when the toolkit cannot."""
        return False

    def keeps_menu_open(self, handle: str) -> bool:
        """Whether pressing this menu item through the accessibility API runs it and leaves its
        menu open on screen, taking the keys typed next (Qt 5 and 6, Java Swing: the action
        triggers the item without the menu's own closing). `click` then clicks the item as a
        user does."""
        return False

    def acts_in_call(self, handle: str) -> bool:
        """Whether this element's app runs an accessibility action's handler inside the call
        that asked for it (GTK 3): a menu item's command that runs a modal dialog there holds
        the app until the dialog closes. `click` then clicks the item where it shows."""
        return False

    def sets_value_silently(self, handle: str) -> bool:
        """Whether a value set through the accessibility API would show in this element without
        reaching the app's handlers (Firefox's number fields). `input` then types the number as
        a user does."""
        return False

    def option_names(self, handle: str) -> list[str]:
        """The names of a combo box's, list's or tab list's options as the tree lists them now
        (a Java combo box lists them only while open), in order."""
        return []

    def choice_open(self, handle: str) -> bool:
        """Whether a combo box's list is open (keys sent before it is go to the closed box)."""
        return "expanded" in getattr(self.refresh(handle), "states", ())

    # --- synthesized input (screen pixels) -------------------------------------------------
    @abstractmethod
    def click(
        self, x: int, y: int, button: MouseButton = MouseButton.LEFT, count: int = 1, modifiers: Sequence[Key] = ()
    ) -> None:
        """Click `count` times at (x, y) with `modifiers` (`keys.MODIFIERS` names) held down
        around the clicks: pressed in order before, released in reverse after, released even
        when the click fails. A backend that cannot hold them refuses non-empty `modifiers`
        with Unsupported before anything is sent."""

    @abstractmethod
    def mouse_move(self, x: int, y: int) -> None: ...

    @abstractmethod
    def mouse_button(self, button: MouseButton, down: bool) -> None: ...

    @abstractmethod
    def drag(
        self, x1: int, y1: int, x2: int, y2: int, *, button: MouseButton = MouseButton.LEFT, duration: float = 0.3
    ) -> None: ...

    @abstractmethod
    def scroll(self, x: int, y: int, dx: int, dy: int) -> None:
        """Mouse wheel at (x, y): positive dy scrolls down, positive dx scrolls right,
        in wheel notches."""

    @abstractmethod
    def press_chords(self, chords: Sequence[Chord]) -> None: ...

    @abstractmethod
    def hold_keys(self, chords: Sequence[Chord], seconds: float) -> None:
        """Press the chords' keys, keep them down for `seconds`, release them."""

    def key_state(self, chords: Sequence[Chord], down: bool) -> None:
        """Press (`down`) or release the chords' keys and leave them so: down, each chord's
        modifiers then its key, chord after chord; up, the same keys in reverse. They stay down
        after this process ends, until released (`key-up`, `session close`). A backend that
        cannot hold a key refuses with Unsupported before anything is sent."""
        raise Unsupported(f"the {self.platform} backend cannot hold keys down", hint="use `winctl keys` chords")

    @abstractmethod
    def type_text(self, text: str) -> None:
        """Type Unicode text into whatever has keyboard focus. Where the backend can see the
        focus, typing stops with ActionFailed ("typed N of M characters; then ...") as soon as
        it leaves the window (and process) it was in when typing began."""

    @abstractmethod
    def cursor_position(self) -> tuple[int, int]: ...

    def buttons_down(self) -> frozenset[MouseButton] | None:
        """The mouse buttons held down now by anyone (a drag under way), or None where the
        platform cannot tell."""
        return None

    def modifiers_down(self) -> frozenset[str] | None:
        """The modifiers (ctrl, shift, alt, super) held down now by anyone, or None where the
        platform cannot tell: a key pressed next acts with them held."""
        return None

    def long_press(self, x: int, y: int, seconds: float = 0.8) -> None:
        """Press at (x, y) and hold: a phone's long press, the mouse held down on a desktop."""
        self.mouse_move(x, y)
        self.mouse_button(MouseButton.LEFT, True)
        try:
            time.sleep(seconds)
        finally:
            self.mouse_button(MouseButton.LEFT, False)

    def swipe(self, x1: int, y1: int, x2: int, y2: int, duration: float = 0.3) -> None:
        """A finger's swipe from one point to another; on a desktop, a drag."""
        self.drag(x1, y1, x2, y2, duration=duration)

    def go_home(self) -> str:
        """Back to the home screen; returns how (a phone's HOME key, pressed twice)."""
        raise Unsupported(f"the {self.platform} backend has no home screen", hint="this is for phones (--device)")

    def open_url(self, url: str) -> str:
        """Open `url` (checked: it has a scheme) with the app the platform chose for its scheme;
        returns how. `Unsupported` when no app here handles the scheme, nothing opened."""
        raise Unsupported(f"the {self.platform} backend cannot open URLs", hint="nothing was done")

    # --- clipboard ------------------------------------------------------------------------
    @abstractmethod
    def get_clipboard(self) -> str:
        """The clipboard's text ("" when it holds none)."""

    @abstractmethod
    def set_clipboard(self, text: str) -> None:
        """Put text on the clipboard; it must stay there after this process exits."""

    # --- screens and capture ---------------------------------------------------------
    @abstractmethod
    def screens(self) -> list[Rect]:
        """Every monitor's rectangle in the shared virtual-screen coordinate space."""

    def monitors(self) -> list[Monitor]:
        """The monitors in the platform's order, named, the primary one marked: by default
        `screens()` named `screen 0`, `screen 1`..., the one holding (0, 0) primary."""
        rects = self.screens()
        primary = next((i for i, r in enumerate(rects) if r.contains(0, 0)), 0)
        return [Monitor(f"screen {i}", r, i == primary) for i, r in enumerate(rects)]

    @abstractmethod
    def capture(self, rect: Rect) -> Image.Image:
        """Pixels of a screen rectangle as an RGB image."""

    def covering(self, window_id: str, x: int, y: int, in_popup: bool) -> str | None:
        """What a click at screen point (x, y) would reach instead of this window — a tooltip,
        another window on top, an open menu — described for a message (one of the `COVERED_BY`
        phrases, or `covered_by_window`); None when it reaches the window, or when the platform
        cannot tell. `in_popup`: the element clicked may be inside a menu or drop-down (a menu
        item, a list item), so an open one is not in its way."""
        return None

    def without_tree(self, window: WindowInfo) -> str:
        """Why the window's app will never expose an accessibility tree, and what to do instead
        (its toolkit has no bridge: Tk, Xt); "" when it may, or when the platform cannot tell."""
        return ""

    def field_selecting_keys(self, window: WindowInfo) -> str:
        """The keys that select all the text of the single-line field with the focus, in an app
        whose toolkit has no tree (`without_tree`), so that the text typed next replaces it:
        Home, then shift+End, which every toolkit's field takes, where the platform knows no
        better for the window's toolkit (ctrl+a selects nothing in Tk's and Motif's fields)."""
        return "Home shift+End"

    def covers(self, window: WindowInfo) -> list[tuple[Rect, str]]:
        """What is drawn over the window and is not its own — another window stacked above it,
        a tooltip — as the part of the window it covers and `covering`'s words for it, top
        first; [] when nothing does, or when the platform cannot tell. A screenshot of the
        window holds those pixels, not the window's; its app's own open menus are its own."""
        return []

    def overlays(self) -> list[tuple[Rect, str]]:
        """Where winctl's own overlay windows are on screen (the status label, a teach step, a
        prompt: class `Winctl`), top first, with their instance (`status`, `teach`, `prompt`);
        [] when none shows or the platform draws none. Their pixels are not the apps'."""
        return []

    def widget_windows(self, window: WindowInfo) -> list[Rect]:
        """Where the window's toolkit made a window of its own for a widget (Tk and Xt make one per
        widget; most toolkits none): the places of controls in an app without a tree, for
        `--vision` to read one by one. [] when there are none, or the platform cannot tell."""
        return []

    def obscuring(self, handle: str, x: int, y: int) -> str | None:
        """What element of the window's own content lies over screen point (x, y) instead of
        the element `handle` — a web page's overlay, a banner — as `covered_by_element` words
        it, found by the app's own hit testing; None when a click there reaches the element (or
        its content), or when the platform or app cannot tell."""
        return None

    def popups(self, window: WindowInfo) -> list[Rect]:
        """Where menus and drop-downs of the window's app are open in windows of their own (on
        X, override-redirect windows typed as menus): `state` checks that the tree lists
        something there, since some apps never expose them (Qt's context menus)."""
        return []

    def density(self, window: WindowInfo | None) -> float | None:
        """How many screen pixels the window draws per logical pixel (GDK_SCALE, a display's
        DPI over 96, an Android screen's over 160); None when the platform cannot tell. The
        locator searches a reference image first at this over the density it was captured at
        (`locate.density`)."""
        return None

    # --- which app (the access gate) -------------------------------------------------------
    def app_at(self, x: int, y: int) -> AppRef | None:
        """The app whose top-level window a press at screen point (x, y) reaches, looking through
        winctl's click-through `status` overlays; None when it reaches no window (the bare
        desktop). Unsupported where the platform cannot tell."""
        raise Unsupported(f"the {self.platform} backend cannot tell which app is at a point")

    def app_of_window(self, window_id: str) -> AppRef:
        """The app of this top-level window (its process's). Unsupported where the platform cannot tell."""
        raise Unsupported(f"the {self.platform} backend cannot tell which app a window belongs to")

    def app_of_element(self, handle: str) -> AppRef:
        """The app of the process that shows this element. Unsupported where the platform cannot tell."""
        raise Unsupported(f"the {self.platform} backend cannot tell which app an element belongs to")

    def focused_app(self) -> AppRef | None:
        """The app whose window has the keyboard focus now (where keys go); None when no window
        has it. Unsupported where the platform cannot tell."""
        raise Unsupported(f"the {self.platform} backend cannot tell which app has the keyboard focus")

    # --- bound-window input ----------------------------------------------------------------
    def bind(self, window_id: str, pointer: tuple[int, int, int] | None = None) -> str:
        """Deliver all further input to this window in the background — without moving the
        real pointer or taking focus — and capture it even when covered. Returns a note on
        the visual cue shown. Platforms without such input refuse.

        `pointer` restores a virtual pointer saved by `bound_pointer` in an earlier process:
        where bound input last pointed and which buttons it holds (opaque to the core)."""
        raise ActionFailed(
            f"the {self.platform} backend cannot send input to a window in the background",
            hint="X11 apps ignore synthetic events (XSendEvent marks them), so input here is "
            "global: `winctl focus` brings the window forward first",
        )

    def unbind(self) -> None:
        """Back to global input. Safe when nothing is bound."""

    def bound_window(self) -> str | None:
        """The id of the window input is bound to, or None for global input."""
        return None

    def ensure_active(self, window: WindowInfo) -> None:
        """Make the window the active one, so that synthesized input goes to it and not to
        whatever had the focus (the terminal that ran winctl); a no-op when it is active and
        not minimized, or when input is bound to it (bound input reaches its window in the
        background: taking the focus would defeat it)."""
        if (window.active and not window.minimized) or self.bound_window() == window.id:
            return  # a minimized window may still be the active one (nothing else took the focus)
        self.window_action(window.id, WindowAction.ACTIVATE)

    def keys_settled(self, window: WindowInfo) -> None:
        """Return once the window's app has done moving its keyboard focus for the keys just
        pressed, so that keys sent next reach where these put the focus; at once where that
        cannot be told."""

    def bound_pointer(self) -> tuple[int, int, int] | None:
        """The bound input's virtual pointer (x, y, buttons held), to be kept between calls."""
        return None

    def run_of(self, window: WindowInfo) -> str | None:
        """What tells this run of the window's app from every other one, whatever ids the
        display and the buses reuse (a restarted desktop gives a new app the old window's id
        and bus name): the same string while the app runs on, another one for any other
        process or desktop. Ids are given for one run only. None: the platform cannot tell."""
        return None

    def alive(self) -> bool:
        """Are the connections this backend opened still usable? A daemon can outlive the
        desktop it started on (a virtual display torn down and made anew): then it must
        open new ones rather than fail every command."""
        return True

    def desktop_exists(self) -> bool:
        """Does the desktop this backend was opened on still exist? Cheap, touches no
        connection, safe from any thread: a daemon asks it while idle and exits when its
        desktop is gone for good."""
        return True

    def close(self) -> None:
        """Release connections. Safe to call twice."""

    # --- terminals (Capability.TERMINAL) -----------------------------------------------
    def terminal_command(self, command: Sequence[str], title: str) -> list[str]:
        """The command line that opens a terminal emulator window titled `title` running
        `command` (its screen readable by `read_screen`), in a process of its own."""
        raise Unsupported(f"the {self.platform} backend opens no terminal", hint="nothing was opened")

    def read_screen(self, handle: str) -> Screen | None:
        """What a terminal's screen (a node with `TERMINAL` in its extra) shows now: its text
        and where its cursor is; None where the platform cannot read it or it is gone."""
        return None


@dataclass(frozen=True)
class Screen:
    """A terminal's screen as read: its rows joined by "\\n" (the visible screen only), and
    the cursor's offset in that text (None where unknown)."""

    text: str
    cursor: int | None


def option_index(names: list[str], option: str) -> int | None:
    """The option named exactly so, else the first ignoring case and outer spaces."""
    matches = [i for i, n in enumerate(names) if n == option] or [
        i for i, n in enumerate(names) if n.strip().lower() == option.strip().lower()
    ]
    return matches[0] if matches else None


def no_option(option: str, names: list[str]) -> NotFound:
    """The error for an option the element does not have, listing those it has."""
    listed = ", ".join(f'"{n}"' for n in names if n) or "none"
    return NotFound(f'no option "{option}"', hint=f"options: {listed}")
