"""AT-SPI over D-Bus in pure Python (dbus-fast), with pipelined reads.

Reading a tree costs D-Bus round trips, not CPU. libatspi (and pyatspi on top of it) makes
them one after another; here every property call of a whole tree level is in flight at
once, capped by a semaphore because thousands of simultaneous calls overflow the socket.
An asyncio loop runs in a daemon thread, so the synchronous methods below can be called
from a one-shot CLI and from a long-lived daemon alike.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextvars
import dataclasses
import os
import re
import threading
import time
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from typing import Any, TypeVar

from dbus_fast import Message, MessageType, Variant
from dbus_fast.aio import MessageBus

from winactions.backends.base import (
    CELL_PLACE,
    REVEALS_PATH,
    TABLE_ROWS,
    TERMINAL,
    TextMatch,
    no_option,
    option_index,
)
from winactions.backends.linux import a11ybus, sheet_cursor, table_search
from winactions.backends.linux.atspi_events import TRUSTED, Event, EventLog, Scope, scope_of
from winactions.backends.linux.atspi_roles import (
    IFACE,
    INVOKE_ACTIONS,
    PROTECTED_ROLES,
    operations_of,
    protect,
    role_of,
    states_of,
)
from winactions.backends.linux.cell_leases import CellLeases, Place
from winactions.errors import (
    ActionFailed,
    AppBusy,
    InvalidInput,
    NoAccessibility,
    NotFound,
    StaleElement,
    WindowClosed,
)
from winactions.model import Node, Operation, Rect, Snapshot

T = TypeVar("T")
REGISTRY = ("org.a11y.atspi.Registry", "/org/a11y/atspi/accessible/root")
ACCESSIBLE = IFACE + "Accessible"
PROPERTIES = "org.freedesktop.DBus.Properties"
TEXT_ROLES = {"Text", "Edit", "Paragraph", "Heading", "Label", "Document"}
TEXT_PREVIEW = 200
ITEM_TYPES = {"DataItem", "ListItem", "TreeItem"}
# LibreOffice gives every button, menu and panel a Value interface that always says 0.
VALUELESS_TYPES = {"Button", "Menu", "MenuItem", "Separator", "Pane", "ToolBar", "TabItem", "Window"}
STALL_SECONDS = 3.0  # no reply for this long: the app is blocked
STATE_SECONDS = 4.0  # time budget of one tree read; WINCTL_STATE_SECONDS overrides it
# After a read's time budget runs out no element's read starts. The elements being read may
# still send their calls for as long again (at least 1 s: a sheet's grid half read, a big window
# on a loaded machine), and the replies to those may take READ_GRACE s more; an app that has not
# answered by then, or whose replies come SLOW_GAP s apart once the budget ran out, is too slow
# for it (AppBusy).
READ_GRACE = 2.0
SLOW_GAP = 1.0
DEFUNCT_BIT = 1 << 6  # AtspiStateType DEFUNCT
SHOWING_BIT = 1 << 25  # AtspiStateType SHOWING, in the first state word
VISIBLE_BIT = 1 << 30  # AtspiStateType VISIBLE
SENSITIVE_BIT = 1 << 24  # AtspiStateType SENSITIVE
FOCUSED_BIT = 1 << 12  # AtspiStateType FOCUSED
GTK4_CLASS_NAME = re.compile(r"^(Gtk|Adw|Gsk|Gdk)[A-Z][A-Za-z]+$")
MANAGES_DESCENDANTS_BIT = 1 << 31  # AtspiStateType MANAGES_DESCENDANTS: children made on demand
HUGE_CHILD_COUNT = 2000  # a node declaring more children is read by what is visible, never listed
HIT_PROBES = 8  # hit tests tried inward from a viewport's corner before giving up
HIT_STEP = 8  # pixels between those hit tests (past a header row, a border)
MAX_SWEEP_HITS = 400  # hit tests spent sweeping down a managed list without a Table interface
NULL_PATH = "/org/a11y/atspi/null"
# Each cell LibreOffice Calc hands out is a new object it never frees (~8 KB): a state reads
# at most this many real cells of a sheet, and places the others by the real cells' rows and
# columns ("virtual" cells, resolved to real ones only when acted on); a cell handed out in the
# last seconds is read again by its path instead of asked for anew (`cell_leases`).
CELL_READS = 150
CELL_MARK = "#cell:"  # handle suffix of a virtual cell: table handle + "#cell:ROW,COL"
# A table declaring this many cells is a spreadsheet (Calc: 2**31): its cells are made on demand
# and kept, so few are read and each is known by its place; a list's cells are read as objects.
SHEET_CELLS = 1_000_000
ADDRESS = re.compile(r"^\$?([A-Z]{1,4})\$?([0-9]{1,8})$")  # a spreadsheet cell's name: "B12"
ACTION_STALL_SECONDS = 1.5  # an action handler that runs longer is treated as "sent, app busy"
REPLY_PROBE = 0.2  # s an action's reply may take before the app is asked something else meanwhile
NAME_STALL_SECONDS = 0.3  # a name read right after a press: an app that does not answer is still in its handler
HIDDEN_EXTENT = -(2**31)  # what hidden scrollbars report as their position
APP_ROOT = "/org/a11y/atspi/accessible/root"  # an app's root: the parent of its windows
LIBREOFFICE_NAMES = {"soffice", "soffice.bin", "libreoffice"}  # its app root's name
ROOT_PANE_DEPTH = 4  # levels below an app's window where LibreOffice's GTK panel holds its root pane (3 seen)
# LibreOffice's gtk3 plugin reports its window's content (a "root-pane") off the GTK panel that
# holds it until the window is first clicked (`backend.root_panes_aligned`)
VCL = "vcl"
ROOT_PANE = "root-pane"
MAX_LOOKUPS = 64  # events on elements not in the kept tree whose place is looked up; more: read anew
MAX_ANCESTORS = 8  # parents asked for while looking for one in the kept tree
MAX_DEPTH = 64  # parents asked for on the way from an element up to its window
# Toolkits whose GetAccessibleAtPoint answers from their real layout, deepest element first, in one
# call from the window: a web page's overlay (a cookie banner, a sticky header) is found there.
# GTK and Qt answer with a direct child only, from extents that may be off (LibreOffice).
HIT_TESTED = frozenset({"chromium", "gecko"})
WEB_TOOLKITS = frozenset({"chromium", "gecko"})  # browser engines: their web pages' roles are "document-web"
WEB_PAGE = "document-web"  # the native role of a web page's document
# the roles of a top-level element that holds a context menu, and how far its size may be from the
# menu's X window (px, width and height together)
MENU_WINDOW_ROLES = frozenset({"window", "menu", "popup-menu"})
MENU_SLACK = 8
# what a combo box's options may be wrapped in, each alone at its level (a scroll bar aside), and how deep
OPTION_HOLDERS = frozenset({"Menu", "List", "ScrollPane", "Viewport"})
OPTION_WRAPPERS = 4  # Java: a menu, its scroll pane, the pane's viewport, the list in it
JAVA = "j2se-access-bridge"  # Java's toolkit: its ATK wrapper names itself "J2SE-access-bridge"
# Toolkits whose combo boxes take no choice made through AT-SPI (see `chooses_silently`)
SILENT_CHOICE_TOOLKITS = frozenset({"gecko", "qt", JAVA})
MENU_KEPT_OPEN_TOOLKITS = frozenset({"qt", JAVA})  # a menu item's press leaves its menu open (`keeps_menu_open`)
MENU_DEPTH = 8  # menus within menus an item may sit in below its menu bar
RELATION_LABELLED_BY = 2  # AtspiRelationType
SCROLL_ANYWHERE = 6  # AtspiScrollType: as little scrolling as shows the element
LABELLED_TYPES = frozenset({"Edit", "ComboBox", "Spinner", "Slider", "List", "Tree", "Table"})  # named by a label
JAVA_POPUP_HOLDERS = frozenset({"frame", "dialog", "window", "root-pane", "layered-pane", "panel"})
JAVA_POPUP_DEPTH = 5  # a window, its root pane, its layered pane, a panel, the popup menu
HIT_ASKS, HIT_WAIT = 5, 0.03  # a point inside the window has something there: a null answer is asked again
_OUTSIDE = ("", "")  # the place of an element in another window of the app
# a Swing popup menu -> (its place on screen, its items), by (bus name, path)
_Popups = dict[tuple[str, str], tuple[tuple[int, int], list[tuple[str, str]]]]


class DBusCallError(Exception):
    """A D-Bus method returned an error (the object is gone, the method unsupported...)."""

    def __init__(self, name: str, text: str) -> None:
        super().__init__(f"{name}: {text}")
        self.name = name


def split_handle(handle: str) -> tuple[str, str]:
    """`:1.5/org/a11y/atspi/accessible/12` -> (bus name, object path)."""
    cut = handle.find("/")
    if cut <= 0:
        raise NotFound(f"not an element handle: {handle!r}", hint="run `winctl state`")
    return handle[:cut], handle[cut:]


@dataclass
class _Budget:
    """What one tree read may spend — elements and seconds — and what it left out when it cut.

    A window can hold more than any agent can read (a 20,000-widget form, a document of
    a thousand pages): a read that runs to the end would hang the agent and, in apps that
    build accessibles on demand, swell the app. So every read stops at a node count or a
    deadline, whichever comes first, and says so in words.
    """

    max_nodes: int
    seconds: float
    started: float = dataclasses.field(default_factory=time.perf_counter)
    claimed: int = 0  # elements whose read has started
    unread: int = 0  # elements known to exist but left out
    vanished: int = 0  # elements that were gone when read (the app may have quit: `_snapshot` asks)
    reasons: set[str] = dataclasses.field(default_factory=set)

    def claim(self) -> bool:
        """Reserve one element's read; False (and the cut is recorded) when a budget is spent."""
        reason = self.exhausted()
        if reason is not None:
            self.cut(reason, 1)
            return False
        self.claimed += 1
        return True

    def exhausted(self) -> str | None:
        if self.claimed >= self.max_nodes:
            return "nodes"
        if self.late():
            return "time"
        return None

    def late(self) -> bool:
        """Has the time budget run out? Then no element's read starts."""
        return time.perf_counter() - self.started >= self.seconds

    def overdue(self) -> bool:
        """Has the send grace (`_send_grace`) passed too? Then no call is sent at all (`_call`)."""
        return time.perf_counter() - self.started >= self.seconds + _send_grace(self.seconds)

    def remaining(self) -> int:
        return max(0, self.max_nodes - self.claimed)

    def cut(self, reason: str, count: int) -> None:
        self.reasons.add(reason)
        self.unread += count

    def message(self, read: int) -> str:
        """What was left out and how to get more, for `Snapshot.truncation`."""
        if not self.reasons:
            return ""
        seconds = time.perf_counter() - self.started
        why = []
        if "nodes" in self.reasons:
            why.append(f"the budget of {self.max_nodes:,} elements ran out")
        if "time" in self.reasons:
            why.append(f"the {self.seconds:g} s time budget ran out")
        return (f"read {read:,} of at least {read + self.unread:,} elements in {seconds:.1f} s "
                f"({' and '.join(why)}); elements after those read (in document order) are missing — "
                f"scroll or close panels to bring what you need forward, or raise the budget with "
                f"WINCTL_STATE_SECONDS / WINCTL_MAX_NODES")




@dataclass
class _Raw:
    """One element's properties as read, before it becomes a Node."""

    ref: tuple[str, str]
    name: str
    description: str
    child_count: int
    automation_id: str
    role_number: int
    states: list[int]
    interfaces: tuple[str, ...]
    extents: tuple[int, int, int, int] | None
    actions: tuple[str, ...] = ()
    value: str | None = None
    place: tuple[int, int] | None = None  # a list's cell: its (row, column), as the table placed it
    rows: int | None = None  # a table read by its visible grid: how many rows it has


@dataclass
class _Entry:
    """One element of a read tree, kept so that the next read can take what did not change."""

    raw: _Raw
    selects: bool  # its parent has Selection: a click on it selects
    label: str | None = None  # it replaced its defunct parent (LibreOffice), whose name it may take
    kids: list[tuple[int, _Entry]] | None = None  # (position among siblings, entry); None: not expanded
    managed: bool = False  # its children were read by what is visible
    note: str = ""  # what the read of its children left out
    node: Node | None = None  # made from `raw` once


@dataclass
class _Read:
    top: _Entry | None
    snapshot: Snapshot
    timed_out: bool = False  # the time budget cut it: another read may get more (not kept)


_READING: contextvars.ContextVar[_Budget | None] = contextvars.ContextVar("_READING", default=None)


@dataclass
class _Cached:
    """A live read kept: its tree, the app's event count when it began, its probes' answers."""

    snapshot: Snapshot
    top: _Entry
    mark: int
    probes: list[Any]

    def index(self) -> tuple[dict[tuple[str, str], _Entry], dict[tuple[str, str], tuple[str, str]]]:
        """Every kept element by its reference, and its parent's reference."""
        index = {self.top.raw.ref: self.top}
        parent_of: dict[tuple[str, str], tuple[str, str]] = {}
        stack = [self.top]
        while stack:
            entry = stack.pop()
            for _, kid in entry.kids or ():
                index[kid.raw.ref] = kid
                parent_of[kid.raw.ref] = entry.raw.ref
                stack.append(kid)
        return index, parent_of


@dataclass
class _Reuse:
    """The previous read and what events made stale since: the walk reads only that again."""

    old: dict[tuple[str, str], _Entry]
    touched: set[tuple[str, str]]  # read these elements again
    regrown: set[tuple[str, str]]  # ...and list their children again
    holds: set[tuple[str, str]]  # ancestors of those
    places: bool = False  # read every kept element's place again (a toolkit that moves things untold)

    def regrow(self, old: _Entry) -> bool:
        """Must this element's children be listed again (not just re-visited)?"""
        ref = old.raw.ref
        if ref in self.regrown:
            return True
        # cells known by their place (a sheet's) cannot be re-visited: read the visible grid again
        return old.managed and ref in self.holds and any(CELL_MARK in kid.raw.ref[1] for _, kid in old.kids or ())


def _count(entry: _Entry) -> int:
    """Elements in a kept subtree, itself included."""
    count, stack = 0, [entry]
    while stack:
        top = stack.pop()
        count += 1
        stack.extend(kid for _, kid in top.kids or ())
    return count


class AtspiClient:
    """Synchronous facade over one connection to the accessibility bus."""

    def __init__(self, address: str | None = None, max_in_flight: int = 64, live: bool = False) -> None:
        self._address = address
        self._live = live
        self._logs: dict[str, EventLog] = {}  # bus name -> its change events
        self.last_read = ""  # live mode: how the last snapshot was made: "kept", "changes" or "whole"
        self._cache: dict[tuple[str, str], _Cached] = {}
        self._toolkits: dict[str, asyncio.Future[list[Any] | None]] = {}  # bus name -> ToolkitName reply
        self._toolkit_of: dict[str, str] = {}  # bus name -> its answered toolkit ("gtk4", "qt"...)
        self._leases = CellLeases()  # sheet cells handed out lately, by place
        self._max_in_flight = max_in_flight
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name="atspi", daemon=True)
        self._thread.start()
        self._bus: MessageBus | None = None
        self._sem: asyncio.Semaphore | None = None
        self._progress = time.monotonic()  # when the last reply arrived
        self.bus_note = ""  # why the bus read may not be this display's ("" when it is)
        self._bus_id: str | None = None  # `bus_id`, once asked
        try:
            self._run(self._connect(), timeout=15, stall=12)  # its own steps give up sooner, saying why
        except BaseException:
            self._loop.call_soon_threadsafe(self._loop.stop)  # no thread left behind per failed attempt
            raise
        if live:
            self._run(self._watch(), timeout=15)

    # -- plumbing ------------------------------------------------------------------------
    def _run(self, coro: Coroutine[Any, Any, T], timeout: float = 120.0, stall: float = STALL_SECONDS,
             doing: str = "accessibility requests", slow: str = "", patience: float | None = None) -> T:
        """Run on the loop thread; give up when no reply has arrived for `stall` seconds.

        A GTK app that runs a modal dialog inside a click handler cannot answer any
        accessibility request until the dialog closes (libdbus does not dispatch
        re-entrantly). Waiting on it would hang the agent, so a stall is an error that
        says what is going on. Past `patience` (a tree read's time budget), replies SLOW_GAP
        apart end it too: the app is too slow for the budget (`slow` says so).
        """
        future = asyncio.run_coroutine_threadsafe(coro, self._loop)
        started = self._progress = time.monotonic()
        while True:
            try:
                return future.result(0.1)
            except concurrent.futures.TimeoutError:
                now = time.monotonic()
                quiet = now - self._progress
                # past `patience` (a tree read's time budget), replies SLOW_GAP apart mean a slow app
                slowed = patience is not None and now - started > patience and quiet > SLOW_GAP
                if quiet > stall or now - started > timeout or slowed:
                    future.cancel()
                    if slowed and quiet <= stall:
                        raise _stalled(doing, None, round(now - started, 1), slow) from None
                    raise _stalled(doing, stall if quiet > stall else None, timeout, slow) from None

    async def _connect(self) -> None:
        if self._address:
            try:
                self._bus = await a11ybus.connect_checked(self._address)
            except a11ybus.BusProblem as exc:
                raise NoAccessibility(f"the accessibility bus at {self._address} {exc.reason}",
                                      hint=a11ybus.PIXELS) from None
        else:
            found = await a11ybus.open_bus()  # this display's, as its apps find it
            self._bus, self.bus_note = found.bus, found.note
        self._sem = asyncio.Semaphore(self._max_in_flight)

    async def _call(self, dest: str, path: str, interface: str, member: str, signature: str = "",
                    body: list[Any] | None = None) -> list[Any]:
        assert self._bus is not None and self._sem is not None
        message = Message(destination=dest, path=path, interface=interface, member=member,
                          signature=signature, body=body or [])
        async with self._sem:  # the caller's future carries the timeout: no task per call
            reading = _READING.get()
            if reading is not None and reading.overdue():  # a tree read out of time sends nothing more
                reading.reasons.add("time")
                raise DBusCallError("winactions.TimeBudget", "the read's time budget ran out")
            reply = await self._bus.call(message)
        self._progress = time.monotonic()
        if reply is None:
            return []
        if reply.message_type is MessageType.ERROR:
            raise DBusCallError(reply.error_name or "error", str(reply.body[0]) if reply.body else "")
        return list(reply.body)

    async def _maybe(self, dest: str, path: str, interface: str, member: str, signature: str = "",
                     body: list[Any] | None = None) -> list[Any] | None:
        try:
            return await self._call(dest, path, interface, member, signature, body)
        except DBusCallError:
            return None

    def bus_id(self) -> str:
        """The accessibility bus's id (its guid, asked once per connection): a bus started
        anew has another one, though it hands out the same names again."""
        if self._bus_id is None:
            reply = self._run(self._maybe("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                                          "GetId"), timeout=5)
            self._bus_id = str(reply[0]) if reply else ""
        return self._bus_id

    @property
    def connected(self) -> bool:
        """Is the bus connection still up? (A daemon can outlive its desktop.)"""
        return self._bus is not None and bool(self._bus.connected)

    def close(self) -> None:
        if not self._loop.is_running():
            return
        try:  # reads given up on (an app that stalled) are still pending: end them, or asyncio
            # prints "Task was destroyed but it is pending!" to the user when the loop goes
            asyncio.run_coroutine_threadsafe(_cancel_pending(), self._loop).result(2)
        except Exception:  # closing must not fail; the loop stops below either way
            pass
        if self._bus is not None:
            self._loop.call_soon_threadsafe(self._bus.disconnect)
            self._bus = None
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(timeout=2)

    # -- reading ---------------------------------------------------------------------------
    async def _read(self, ref: tuple[str, str], full: bool = True) -> _Raw | None:
        """Every property of one element (see `_read_extras` for what `full` adds)."""
        raw = await self._read_base(ref)
        if raw is not None:
            await self._read_extras(raw, full)
        return raw

    async def _read_base(self, ref: tuple[str, str]) -> _Raw | None:
        """The five properties every element needs, read concurrently."""
        dest, path = ref
        props, role, state, ifaces, extents = await asyncio.gather(
            self._accessible_properties(dest, path),
            self._maybe(dest, path, ACCESSIBLE, "GetRole"),
            self._maybe(dest, path, ACCESSIBLE, "GetState"),
            self._maybe(dest, path, ACCESSIBLE, "GetInterfaces"),
            self._maybe(dest, path, IFACE + "Component", "GetExtents", "u", [0]),
        )
        if props is None or role is None or state is None:
            return None
        values = props
        return _Raw(
            ref=ref,
            name=str(values.get("Name", "")),
            description=str(values.get("Description", "")),
            child_count=int(values.get("ChildCount", 0)),
            automation_id=str(values.get("AccessibleId", "") or ""),
            role_number=int(role[0]),
            states=list(state[0]),
            interfaces=tuple(ifaces[0]) if ifaces else (),
            extents=tuple(extents[0]) if extents else None,
        )

    async def _accessible_properties(self, dest: str, path: str) -> dict[str, Any] | None:
        """Name, Description, ChildCount and AccessibleId: in one GetAll where the app has it.

        Qt's bridge has no GetAll: Qt 5 answers UnknownInterface, and Qt 6.4 crashes
        (SIGSEGV) on it. Apps whose toolkit is Qt are asked one property at a time.
        """
        if await self._toolkit(dest) != "qt":
            props = await self._maybe(dest, path, PROPERTIES, "GetAll", "s", [ACCESSIBLE])
            return {k: v.value for k, v in props[0].items()} if props else None
        names = ("Name", "Description", "ChildCount")
        got = await asyncio.gather(*(self._maybe(dest, path, PROPERTIES, "Get", "ss", [ACCESSIBLE, n])
                                     for n in names))
        if got[0] is None:
            return None
        return {n: g[0].value for n, g in zip(names, got) if g}

    async def _shown_bit(self, dest: str) -> int:
        """The state bit that says an element is on screen: SHOWING, except in GTK 4.8,
        which sets SHOWING on nothing below the window and VISIBLE on what is mapped."""
        return VISIBLE_BIT if await self._toolkit(dest) == "gtk4" else SHOWING_BIT

    async def _toolkit(self, dest: str) -> str:
        """The app's toolkit name, lower case ("gtk", "qt", "gecko"...), asked once per app."""
        if dest not in self._toolkits:
            self._toolkits[dest] = asyncio.ensure_future(self._toolkit_reply(dest))
        reply = await self._toolkits[dest]
        self._toolkit_of[dest] = str(reply[0].value).lower() if reply else ""
        return self._toolkit_of[dest]

    async def _toolkit_reply(self, dest: str) -> list[Any] | None:
        """ToolkitName, with GTK 4 told apart from GTK 3 by the app's toolkit version, and
        LibreOffice ("vcl") from GTK apps: its gtk3 plugin calls itself GTK, but does not
        keep its tree current the way GTK does (see atspi_events.TRUSTED). Kept for good, so
        never cut by the time budget of the read that first asks (its own task's context)."""
        _READING.set(None)
        name, version, app = await asyncio.gather(
            self._maybe(dest, APP_ROOT, PROPERTIES, "Get", "ss", [IFACE + "Application", "ToolkitName"]),
            self._maybe(dest, APP_ROOT, PROPERTIES, "Get", "ss", [IFACE + "Application", "Version"]),
            self._maybe(dest, APP_ROOT, PROPERTIES, "Get", "ss", [ACCESSIBLE, "Name"]))
        if name and str(name[0].value).lower() == "gtk":
            if version and str(version[0].value).startswith("4."):
                return [Variant("s", "gtk4")]
            if app and str(app[0].value).lower() in LIBREOFFICE_NAMES:
                return [Variant("s", "vcl")]
        return name

    async def _read_extras(self, raw: _Raw, full: bool, cell_text: bool = False,
                           frame: tuple[int, int, int, int] | None = None) -> None:
        """Actions, value and short text: only for elements whose interfaces have them.

        With `full=False` (tree walks) the action names of cells and list items are not
        read: there are thousands of them, and their one action ("activate") is not what a
        click on them means — selecting is, and that needs no action name. `cell_text` reads
        the text of cells made on demand: a spreadsheet names its cells by address ("A1")
        and keeps their content in the text. `frame`: the window's extents, in a tree walk.
        """
        dest, path = raw.ref
        jobs: dict[str, Any] = {}
        native, ctype = role_of(raw.role_number)
        if IFACE + "Action" in raw.interfaces and (full or ctype not in ITEM_TYPES):
            jobs["actions"] = self._maybe(dest, path, IFACE + "Action", "GetActions")
        if IFACE + "Value" in raw.interfaces and ctype not in VALUELESS_TYPES:
            jobs["value"] = self._maybe(dest, path, PROPERTIES, "Get", "ss", [IFACE + "Value", "CurrentValue"])
        textual = (cell_text and ctype in ITEM_TYPES) or (ctype in TEXT_ROLES and (ctype == "Edit" or not raw.name))
        if IFACE + "Text" in raw.interfaces and (textual or _text_block(raw, native, frame)):
            jobs["text"] = self._maybe(dest, path, IFACE + "Text", "GetText", "ii", [0, TEXT_PREVIEW])
        if not raw.name.strip() and ctype in LABELLED_TYPES:
            jobs["relations"] = self._maybe(dest, path, ACCESSIBLE, "GetRelationSet")
        if not jobs:
            return
        results = dict(zip(jobs, await asyncio.gather(*jobs.values())))
        if results.get("actions"):
            raw.actions = tuple(str(a[0]) for a in results["actions"][0])
            if not _usable_names(raw.actions):  # Chromium leaves these empty; GetName has them
                names = await asyncio.gather(*(self._maybe(dest, path, IFACE + "Action", "GetName", "i", [i])
                                               for i in range(len(raw.actions))))
                raw.actions = tuple(str(n[0]) if n else "" for n in names)
        if results.get("value"):
            number = float(results["value"][0].value)
            raw.value = str(int(number)) if number.is_integer() else f"{number:g}"
        if results.get("text") is not None:
            text = str(results["text"][0]) or await self._short_text(raw.ref)
            if not cell_text or text != raw.name:
                raw.value = text
        if results.get("relations"):
            label = await self._label(results["relations"][0])
            if label:
                raw.name = label
        if ctype == "ComboBox":
            chosen = await self._chosen(raw.ref, raw.name)
            if chosen is not None:
                raw.value = chosen

    async def _label(self, relations: list[Any]) -> str:
        """The name of the label an element is labelled by, as a user reads it beside the field
        ("Name:" -> "Name"): GTK's file chooser, Qt's buddies and Swing's labelFor name their
        fields only so; `state` listed the Save As dialog's name field as `[Edit] ""`. The
        browsers' accessible-name computation starts with this relation."""
        for kind, targets in relations:
            if int(kind) != RELATION_LABELLED_BY:
                continue
            for target in targets:
                ref = _ref_of([target])
                name = await self._maybe(ref[0], ref[1], PROPERTIES, "Get", "ss", [ACCESSIBLE, "Name"]) if ref else None
                text = " ".join(str(name[0].value).split()).rstrip(":").strip() if name else ""
                if text:
                    return text
        return ""

    async def _short_text(self, ref: tuple[str, str], limit: int | None = TEXT_PREVIEW) -> str:
        """The start of a text that came back empty (all of it with no `limit`): LibreOffice
        answers "" when the end offset asked for lies past the text's end, and GTK 4.8 when
        it is -1 (to the end), so ask again within its length."""
        count = await self._maybe(ref[0], ref[1], PROPERTIES, "Get", "ss", [IFACE + "Text", "CharacterCount"])
        length = int(count[0].value) if count else 0
        if length <= 0:
            return ""
        end = length if limit is None else min(length, limit)
        text = await self._maybe(ref[0], ref[1], IFACE + "Text", "GetText", "ii", [0, end])
        return str(text[0]) if text else ""

    async def _whole_text(self, ref: tuple[str, str]) -> str | None:
        """All of an element's text; None when it has no Text interface."""
        text = await self._maybe(ref[0], ref[1], IFACE + "Text", "GetText", "ii", [0, -1])
        if text is None:
            return None
        return str(text[0]) or await self._short_text(ref, limit=None)

    def _node(self, raw: _Raw, parent: int | None, parent_selects: bool) -> Node:
        native, ctype = role_of(raw.role_number)
        states = states_of(raw.states)
        toolkit = self._toolkit_of.get(raw.ref[0])
        if toolkit == "gtk4":
            states, raw.name = _gtk4_normalized(raw, states)
        elif toolkit == JAVA and ctype in ("Menu", "MenuItem", "Separator") and "showing" not in states:
            # a closed Swing menu's items and separators stay "visible" (their components are),
            # with places from when it was open: Swing's "showing" is Component.isShowing, on
            # screen or not (jEdit's File menu left five separators listed across its text
            # area, and `--vision local` took the text under one for that separator)
            states -= {"visible"}
        if ctype == "Edit" and "editable" not in states and native == "text":
            ctype = "Text"  # a read-only text view is text, not a field
        if raw.value and _text_block(raw, native):
            ctype = "Text"  # Firefox's <div>Phone number</div>: a section holding its text itself
        rect = None
        if raw.extents is not None:
            x, y, w, h = raw.extents
            if x != HIDDEN_EXTENT and y != HIDDEN_EXTENT and w > 0 and h > 0:
                rect = Rect.from_xywh(x, y, w, h)
            elif ctype == "MenuBar":
                # LibreOffice keeps its own menu bar, flattened to no height, under the GTK one
                # that replaces it, "showing", its menus in their places: they take an action
                # that opens nothing. A bar of no size shows nothing.
                states -= {"showing", "visible"}
        return protect(Node(  # password fields: "protected", with no value (not even its bullets)
            handle=raw.ref[0] + raw.ref[1],
            parent=parent,
            role=ctype,
            native_role=native,
            name=raw.name,
            description=raw.description,
            value=raw.value,
            states=states,
            rect=rect,
            operations=operations_of(native, ctype, raw.interfaces, raw.actions, states, parent_selects),
            automation_id=raw.automation_id or None,
            actions=raw.actions,
            interfaces=raw.interfaces,
            child_count=raw.child_count,
            extra=_extra(raw, native),
        ))

    async def _children(self, ref: tuple[str, str]) -> list[tuple[str, str]]:
        found = await self._maybe(ref[0], ref[1], ACCESSIBLE, "GetChildren")
        return [tuple(c) for c in found[0]] if found else []

    async def _snapshot(self, root: tuple[str, str], max_nodes: int, reuse: _Reuse | None = None) -> _Read:
        """Walk the subtree with every branch in flight at once, within a node and time budget.

        Each element costs two round trips on the critical path (its properties, then its
        children list); its action names, value and text are read off that path, while
        its children are already being read. Siblings keep their order by position.
        Nodes that make their children on demand (MANAGES_DESCENDANTS: spreadsheets, huge
        lists) or declare absurd child counts are read by what is visible (`_visible_grid`, `_hit_sweep`):
        asking LibreOffice Calc for all 2,147,483,647 cells of a sheet never ends and makes
        it grow ~20 MB/s. With `reuse` (the previous read and what events made stale since),
        elements and child lists that did not change are taken from it without a call.
        """
        budget = _Budget(max_nodes, _state_seconds())
        frame: list[tuple[int, int, int, int] | None] = [None]
        page: list[tuple[int, int, int, int] | None] = [None]  # a web document's extents: the view it scrolls in

        async def visit(ref: tuple[str, str], parent: _Raw | None, position: int, in_managed: bool = False,
                        label: str | None = None, renew: bool = False) -> list[tuple[int, _Entry]]:
            """Read one element (or take it from `reuse`) and, if shown, its children; `renew`:
            under an element whose children changed, where nothing kept is trusted (rows
            inserted above move the cells below without a word)."""
            if not budget.claim():
                return []
            old = reuse.old.get(ref) if reuse is not None and not renew else None
            fresh = old is None or reuse is None or ref in reuse.touched
            raw = await self._read_base(ref) if fresh else old.raw  # type: ignore[union-attr]
            moved = False
            if not fresh and reuse is not None and reuse.places and raw is not None and raw.states \
                    and raw.states[0] & SHOWING_BIT:  # a hidden element's place is read when it shows again
                extents = await self._maybe(ref[0], ref[1], IFACE + "Component", "GetExtents", "u", [0])
                if extents and tuple(extents[0]) != raw.extents:
                    raw, moved = dataclasses.replace(raw, extents=tuple(extents[0])), True
            if raw is None:  # vanished while we read it, or not read in time
                if budget.overdue():
                    budget.cut("time", 1)
                else:
                    budget.vanished += 1
                return []
            if parent is None:
                frame[0] = raw.extents  # what managed nodes are clipped to
            elif role_of(raw.role_number)[0] == "document-web":
                page[0] = raw.extents  # and those in a page, to the page (not the browser's bars)
            elif _defunct_only(raw):
                # LibreOffice's formula-bar "Input line" says defunct while alive: its children
                # take its place, and an unnamed one its name.
                kids = await self._children(raw.ref) if raw.child_count <= HUGE_CHILD_COUNT else []
                got = await asyncio.gather(*(visit(kid, parent, position, in_managed, raw.name, renew) for kid in kids))
                return [e for entries in got for e in entries]
            selects = parent is not None and IFACE + "Selection" in parent.interfaces
            kept = old is not None and not fresh and not moved and old.selects == selects
            entry = _Entry(raw, selects, label, node=old.node if kept and old is not None else None)
            jobs = [self._read_extras(raw, full=False, cell_text=in_managed, frame=frame[0])] if fresh else []
            if raw.child_count > 0 and (parent is None or (raw.states and raw.states[0] & await self._shown_bit(ref[0]))):
                jobs.append(expand(entry, old, renew))
            await asyncio.gather(*jobs)
            if label and not raw.name:
                raw.name = label
            return [(position, entry)]

        async def expand(entry: _Entry, old: _Entry | None, renew: bool) -> None:
            raw = entry.raw
            reason = budget.exhausted()
            if reason is not None:
                budget.cut(reason, raw.child_count)
                return
            if reuse is not None and old is not None and old.kids is not None and not reuse.regrow(old):
                entry.managed, entry.note = old.managed, old.note
                if old.managed and old.raw.ref not in reuse.holds:  # nothing under it changed: as read
                    entry.kids = old.kids
                    for _ in range(_count(old) - 1):
                        budget.claim()
                    return
                got = await asyncio.gather(*(visit(kid.raw.ref, raw, pos, old.managed, kid.label)
                                             for pos, kid in old.kids))
                entry.kids = [e for entries in got for e in entries]
                return
            entry.kids = []
            if _makes_children_on_demand(raw):
                entry.managed = True
                probe = _visible_area(raw.extents, frame[0])
                probe = _visible_area(_extents(probe), page[0]) if probe is not None and page[0] else probe
                grid = await self._visible_grid(raw, probe) if probe is not None else None
                if grid is not None:
                    await read_grid(entry, grid)
                    return
                kids = list(enumerate(await self._hit_sweep(raw.ref, probe))) if probe is not None else []
                room = budget.remaining()
                if len(kids) > room:
                    budget.cut("nodes", len(kids) - room)
            else:
                kids = list(enumerate(await self._children(raw.ref)))
            renew = renew or reuse is not None  # listed anew: what is below is read anew
            got = await asyncio.gather(*(visit(kid, raw, pos, entry.managed, None, renew) for pos, kid in kids))
            entry.kids = [e for entries in got for e in entries]

        async def read_grid(entry: _Entry, grid: tuple[int, int, int, int]) -> None:
            """Headers and a budget of real cells; the others placed by their row and column.
            A sheet's first row and column are read first; then the rows' cells of the columns
            whose first cell holds text (the data's), so the budget goes to text, not blanks."""
            table = entry.raw
            r0, c0, r1, c1 = grid
            width = c1 - c0 + 1
            sheet = table.child_count >= SHEET_CELLS  # each cell read costs the app memory it never frees
            limit = min(CELL_READS, budget.remaining()) if sheet else budget.remaining()
            real = _cells_to_read(grid, limit, columns=[] if sheet else None)
            entry.kids = []
            read: dict[tuple[int, int], _Raw] = {}
            seen: set[tuple[str, str]] = set()

            async def take(cells: list[tuple[int, int]], columns: range) -> None:
                refs = await self._cells(table.ref, cells, columns, sheet)
                jobs: list[Coroutine[Any, Any, list[tuple[int, _Entry]]]] = []
                keys: list[tuple[int, int] | None] = []
                for key, ref in refs:
                    if ref is not None and ref not in seen and ref != table.ref:  # merged cells repeat
                        seen.add(ref)
                        position = key[1] - c0 - width if key[0] < 0 else (key[0] - r0) * width + key[1] - c0
                        jobs.append(visit(ref, table, position, True, None, reuse is not None))
                        keys.append(None if key[0] < 0 else key)
                done = await asyncio.gather(*jobs)
                entry.kids = (entry.kids or []) + [e for entries in done for e in entries]
                read.update({key: entries[0][1].raw for key, entries in zip(keys, done) if key is not None and entries})

            count = None if sheet else asyncio.gather(  # its rows, and how many of them are headers
                self._maybe(table.ref[0], table.ref[1], PROPERTIES, "Get", "ss", [IFACE + "Table", "NRows"]),
                self._header_rows(table.ref, c0))
            await take(real, range(c0, c1 + 1))
            if sheet:
                data = [c for c in range(c0 + 1, c1 + 1) if (r0, c) in read and read[(r0, c)].value]
                more = [(r, c) for r in range(r0 + 1, r1 + 1) for c in (data or range(c0 + 1, c1 + 1))]
                await take(more[:max(0, limit - len(real))], range(0))
            if count is not None:  # a list's cells (GTK) keep their objects: a row inserted above moves a
                rows, above = await count  # a web table's header row is its row 0: rows are counted below it
                for (r, c), cell in read.items():  # cell's place, not its identity; the place is said apart
                    cell.place = (r - above, c) if r >= above else None
                table.rows = int(rows[0].value) - above if rows else None
                return
            for (r, c), cell in read.items():  # a cell's handle is its place: Calc makes a new object per ask
                cell.ref = (table.ref[0], f"{table.ref[1]}{CELL_MARK}{r},{c}")
            selects = IFACE + "Selection" in table.interfaces
            placed = 0
            for r in range(r0, r1 + 1):
                for c in range(c0, c1 + 1):
                    virtual = None if (r, c) in read else _virtual_cell(table.ref, r, c, grid, read)
                    if virtual is not None and budget.claim():
                        entry.kids.append(((r - r0) * width + c - c0, _Entry(virtual, selects)))
                        placed += 1
            if placed:
                entry.note = (f"{table.name or 'a table'}: {len(read)} cells read with their text, {placed} more "
                              f"placed by row and column without it (each cell read costs the app memory it "
                              f"never frees) — `winctl get text ID` reads any cell")

        reading = _READING.set(budget)  # the walk's calls (and the tasks it starts) see its budget
        try:
            top = await visit(root, None, 0)
        finally:
            _READING.reset(reading)
        if (budget.vanished or budget.reasons) and not await self._on_bus(root[0]):
            raise WindowClosed(f"the app quit while its window's elements were read ({budget.claimed:,} asked, "
                               f"{budget.vanished + budget.unread:,} of them lost): a partial list is not shown",
                               hint="run `winctl windows` to see what is open; start the app again with "
                                    "`winctl launch APP`")
        entry = top[0][1] if top else None
        nodes, notes = self._flatten(entry)
        _rows_placed(nodes)
        if self._toolkit_of.get(root[0]) == JAVA and any(n.native_role == "popup-menu" for n in nodes):
            nodes = await self._java_menus_placed(nodes)
        return _Read(entry, Snapshot(nodes=nodes, truncated=bool(budget.reasons),
                                     truncation="; ".join([budget.message(len(nodes)), *notes]).strip("; "),
                                     elapsed_ms=(time.perf_counter() - budget.started) * 1000),
                     timed_out="time" in budget.reasons)

    async def _on_bus(self, dest: str) -> bool:
        """Is the app still connected to the accessibility bus? (Asked of the bus, not the app.)"""
        owner = await self._maybe("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                                  "NameHasOwner", "s", [dest])
        return bool(owner and owner[0])

    def _flatten(self, top: _Entry | None) -> tuple[list[Node], list[str]]:
        """The read tree as nodes, depth first, siblings by position; and the reads' notes."""
        nodes: list[Node] = []
        notes: list[str] = []
        stack: list[tuple[_Entry, int | None]] = [(top, None)] if top is not None else []
        while stack:
            entry, parent = stack.pop()
            if entry.node is None:
                entry.node = self._node(entry.raw, None, entry.selects)
            node = object.__new__(Node)  # a copy with its parent: dataclasses.replace is ~10x slower
            node.__dict__.update(entry.node.__dict__, parent=parent)
            nodes.append(node)
            if entry.note:
                notes.append(entry.note)
            index = len(nodes) - 1
            kids = sorted(entry.kids or (), key=lambda pair: pair[0])
            stack.extend((kid, index) for _, kid in reversed(kids))
        return nodes, notes

    async def _visible_grid(self, raw: _Raw, area: tuple[int, int, int, int]) -> tuple[int, int, int, int] | None:
        """(first row, first column, last row, last column) in view, from hit tests at the corners."""
        if IFACE + "Table" not in raw.interfaces:
            return None
        sheet = raw.child_count >= SHEET_CELLS
        first, last = await asyncio.gather(self._cell_near(raw.ref, area, True, sheet),
                                           self._cell_near(raw.ref, area, False, sheet))
        if first is not None and last is None:  # the table ends before the view does (a few rows)
            last = await self._last_cell_by_size(raw.ref, area, first)
        if first is None or last is None or last[0] < first[0] or last[1] < first[1]:
            return None
        if sheet:
            self._leases.set_grid(raw.ref, (first[0], first[1], last[0], last[1]))
        return first[0], first[1], last[0], last[1]

    async def _last_cell_by_size(self, table: tuple[str, str], area: tuple[int, int, int, int],
                                 first: tuple[int, int]) -> tuple[int, int] | None:
        """The last cell in view when the bottom-right corner is empty: as many rows as fit
        below the first one (at its height) or as the table has, and every column whose
        first visible cell starts left of the view's right edge."""
        dest, path = table
        rows, columns = await asyncio.gather(
            self._maybe(dest, path, PROPERTIES, "Get", "ss", [IFACE + "Table", "NRows"]),
            self._maybe(dest, path, PROPERTIES, "Get", "ss", [IFACE + "Table", "NColumns"]))
        if not rows or not columns:
            return None
        n_rows, n_columns = int(rows[0].value), int(columns[0].value)
        cells = await asyncio.gather(*(self._maybe(dest, path, IFACE + "Table", "GetAccessibleAt", "ii", [first[0], c])
                                       for c in range(first[1], min(n_columns, first[1] + 64))))
        extents = await asyncio.gather(*(self._maybe(*ref, IFACE + "Component", "GetExtents", "u", [0])
                                         for ref in (_ref_of(c) for c in cells) if ref is not None))
        boxes = [tuple(e[0]) for e in extents if e]
        if not boxes or boxes[0][3] <= 0:
            return None
        last_col = first[1] + sum(1 for b in boxes if b[0] < area[2]) - 1
        fit = max(1, (area[3] - boxes[0][1]) // boxes[0][3])
        return min(n_rows - 1, first[0] + fit - 1), last_col

    async def _cells(self, table: tuple[str, str], cells: list[tuple[int, int]], columns: range,
                     sheet: bool = False) -> list[tuple[tuple[int, int], tuple[str, str] | None]]:
        """((row, column), cell) for these cells, and ((-1, column), header) for the columns' headers.
        A `sheet`'s cells handed out lately are taken again by their paths (`_sheet_cell`)."""
        dest, path = table
        headers = await asyncio.gather(*(self._maybe(dest, path, IFACE + "Table", "GetColumnHeader", "i", [c])
                                         for c in columns))
        if sheet:
            found = await asyncio.gather(*(self._sheet_cell(table, place) for place in cells))
        else:
            found = [_ref_of(reply) for reply in await asyncio.gather(
                *(self._maybe(dest, path, IFACE + "Table", "GetAccessibleAt", "ii", [r, c]) for r, c in cells))]
        return [((-1, c), _ref_of(h)) for c, h in zip(columns, headers)] + list(zip(cells, found))

    async def _sheet_cell(self, table: tuple[str, str], place: Place) -> tuple[str, str] | None:
        """The cell of a sheet at (row, column): the object handed out for that place within its
        lease if it is still alive, else one asked of the table (and kept for the next reads)."""
        kept = self._leases.get(table, place)
        if kept is not None and await self._alive(kept):
            return kept
        cell = _ref_of(await self._maybe(table[0], table[1], IFACE + "Table", "GetAccessibleAt", "ii", list(place)))
        if cell is not None:
            self._leases.keep(table, place, cell)
        return cell

    async def _alive(self, ref: tuple[str, str]) -> bool:
        """Does this path still lead to a live element (not gone, not defunct)?"""
        state = await self._maybe(ref[0], ref[1], ACCESSIBLE, "GetState")
        return bool(state and any(state[0]) and not state[0][0] & DEFUNCT_BIT)

    async def _leased_corner(self, table: tuple[str, str], top_left: bool, x: int, y: int) -> Place | None:
        """The cell under (x, y) near one corner of the sheet's last visible grid (that corner or a
        row or column off it, as a key scrolls the view), when its object is still leased: what a
        hit test there would find, without a new object."""
        corner = self._leases.corner(table, top_left)
        if corner is None:
            return None
        (row, col), _ = corner
        for dr, dc in ((0, 0), (1, 0), (0, 1), (-1, 0), (0, -1), (1, 1), (-1, -1)):
            place = (row + dr, col + dc)
            ref = self._leases.get(table, place)
            if ref is None:
                continue
            alive, extents = await asyncio.gather(
                self._alive(ref), self._maybe(ref[0], ref[1], IFACE + "Component", "GetExtents", "u", [0]))
            if alive and extents:
                left, top, width, height = extents[0]
                if left <= x < left + width and top <= y < top + height:
                    return place
        return None

    async def _cell_near(self, table: tuple[str, str], area: tuple[int, int, int, int],
                         top_left: bool, sheet: bool = False) -> tuple[int, int] | None:
        """(row, column) of the first cell hit-tested inward from one corner of the visible area;
        on a `sheet`, the last read's corner cell when it is still there (no hit test)."""
        left, top, right, bottom = area
        if sheet:
            x, y = (left + 1, top + 1) if top_left else (right - 2, bottom - 2)
            kept = await self._leased_corner(table, top_left, x, y)
            if kept is not None:
                return kept
        for k in range(HIT_PROBES):
            step = 1 + k * HIT_STEP
            x, y = (left + step, top + step) if top_left else (right - 1 - step, bottom - 1 - step)
            if not (left <= x < right and top <= y < bottom):
                break
            hit = _ref_of(await self._maybe(table[0], table[1], IFACE + "Component", "GetAccessibleAtPoint",
                                            "iiu", [x, y, 0]))
            if hit is None or hit == table:
                continue
            place = None if sheet else await self._cell_position(hit, parent=True)
            if place is not None:  # a web table's cell sits in a row: its index there is its column
                return place
            index = await self._maybe(hit[0], hit[1], ACCESSIBLE, "GetIndexInParent")
            if not index or int(index[0]) < 0:
                # while a formula is typed, Calc's cells have no index: their address still says
                # where they are (else a sweep down the middle listed the middle column alone)
                name = await self._maybe(hit[0], hit[1], PROPERTIES, "Get", "ss", [ACCESSIBLE, "Name"])
                place = _place(str(name[0].value)) if name else None
                if place is not None:
                    return place
                continue
            row, col = await asyncio.gather(
                self._maybe(table[0], table[1], IFACE + "Table", "GetRowAtIndex", "i", [int(index[0])]),
                self._maybe(table[0], table[1], IFACE + "Table", "GetColumnAtIndex", "i", [int(index[0])]))
            if row and col and int(row[0]) >= 0 and int(col[0]) >= 0:
                if sheet:
                    self._leases.keep(table, (int(row[0]), int(col[0])), hit)
                return int(row[0]), int(col[0])
        return None

    async def _header_rows(self, table: tuple[str, str], column: int) -> int:
        """1 when the table's row 0 is column headers (a web table's <th> row), else 0."""
        first = _ref_of(await self._maybe(table[0], table[1], IFACE + "Table", "GetAccessibleAt", "ii", [0, column]))
        role = await self._maybe(first[0], first[1], ACCESSIBLE, "GetRoleName") if first is not None else None
        return 1 if role and "header" in str(role[0]) else 0

    async def _cell_position(self, cell: tuple[str, str], parent: bool = False) -> tuple[int, int] | None:
        """(row, column) a cell says it has (AT-SPI TableCell's Position); None without it. With
        `parent`, an element without it asks its parent (a page's hit test finds a cell's text)."""
        reply = await self._maybe(cell[0], cell[1], PROPERTIES, "Get", "ss", [IFACE + "TableCell", "Position"])
        place = reply[0].value if reply else None
        if not isinstance(place, (list, tuple)) or len(place) != 2 or min(place) < 0:
            if not parent:
                return None
            up = await self._maybe(cell[0], cell[1], PROPERTIES, "Get", "ss", [ACCESSIBLE, "Parent"])
            above = _ref_of([up[0].value]) if up else None
            return await self._cell_position(above) if above is not None else None
        return int(place[0]), int(place[1])

    async def _hit_sweep(self, node: tuple[str, str], area: tuple[int, int, int, int]) -> list[tuple[str, str]]:
        """Children found by hit tests down the visible area, one row (its height) at a time.

        Down the middle first (a word processor's page sits in the middle of grey margins),
        then near the left edge (a list's rows may be short)."""
        left, top, right, bottom = area
        for x in ((left + right) // 2, left + min(20, (right - left) // 4)):
            found = await self._sweep_at(node, x, top, bottom)
            if found:
                return found
        return []

    async def _sweep_at(self, node: tuple[str, str], x: int, top: int, bottom: int) -> list[tuple[str, str]]:
        """Hit tests down one vertical line, skipping past each element found."""
        y = top + 1
        found: list[tuple[str, str]] = []
        for _ in range(MAX_SWEEP_HITS):
            if y >= bottom:
                break
            hit = _ref_of(await self._maybe(node[0], node[1], IFACE + "Component", "GetAccessibleAtPoint",
                                            "iiu", [x, y, 0]))
            extents = None
            if hit is not None and hit != node:
                if hit not in found:
                    found.append(hit)
                extents = await self._maybe(hit[0], hit[1], IFACE + "Component", "GetExtents", "u", [0])
            bottom_of_hit = extents[0][1] + extents[0][3] if extents else 0
            y = max(y + HIT_STEP, bottom_of_hit) if hit is not None and hit != node else y + HIT_STEP
        return found

    def snapshot(self, root_handle: str, *, max_nodes: int = 20000) -> Snapshot:
        """The window's tree, within a node budget and a time budget (WINCTL_STATE_SECONDS):
        what the budget leaves out is said (`Snapshot.truncation`); an app that does not answer
        in time (see READ_GRACE, SLOW_GAP) is busy (AppBusy), and one that quits
        during the read is closed (WindowClosed) — never a partial list as if whole."""
        root = split_handle(root_handle)
        max_nodes = min(max_nodes, _env_int("WINCTL_MAX_NODES", max_nodes))
        seconds = _state_seconds()
        doing = "while its accessibility tree was read"
        slow = (f": it answers too slowly for the {seconds:g} s time budget of a read "
                f"(WINCTL_STATE_SECONDS gives it more)")
        limit = seconds + _send_grace(seconds) + READ_GRACE
        if self._live:
            return self._run(self._snapshot_live(root, max_nodes), timeout=limit, doing=doing, slow=slow,
                             patience=seconds)
        return self._run(self._snapshot(root, max_nodes), timeout=limit, doing=doing, slow=slow,
                         patience=seconds).snapshot

    # -- live mode: a cached tree kept honest by events and probes --------------------------
    async def _watch(self) -> None:
        """Ask every app for its change events, and log them per app."""
        assert self._bus is not None
        self._bus.add_message_handler(self._on_message)
        for kind in ("Object", "Window", "Document"):
            await self._call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "AddMatch",
                             "s", [f"type='signal',interface='{IFACE}Event.{kind}'"])
        for event in ("object:", "window:", "document:"):
            await self._maybe(REGISTRY[0], "/org/a11y/atspi/registry", IFACE + "Registry", "RegisterEvent",
                              "sass", [event, [], ""])

    def _on_message(self, message: Message) -> None:
        if message.message_type is MessageType.SIGNAL and (message.interface or "").startswith(IFACE + "Event."):
            detail = message.body[0] if message.body and isinstance(message.body[0], str) else ""
            data = getattr(message.body[3], "value", None) if len(message.body) > 3 else None
            log = self._logs.setdefault(message.sender or "", EventLog())
            log.add(Event(message.path or "", message.interface or "", message.member or "", detail,
                          data if isinstance(data, str) else ""))

    async def _snapshot_live(self, root: tuple[str, str], max_nodes: int) -> Snapshot:
        """The cached tree when nothing changed; what changed read again; else a fresh read.

        "Nothing changed" needs two proofs. Events: a call to the app is answered only
        after every event it sent before, so once it returns, the log is complete. And
        probes — the scroll bars' values and the first element of every scrolling
        container — because toolkits do not announce everything (GTK moves rows on scroll
        without a word). When only events differ, and each names an element of the kept
        tree (or one below it), only those elements and the children lists they changed
        are read again (see atspi_events).
        """
        start = time.perf_counter()
        log = self._logs.setdefault(root[0], EventLog())
        cached = self._cache.get(root)
        reuse = None
        if cached is not None:
            alive, probes = await asyncio.gather(self._maybe(root[0], root[1], ACCESSIBLE, "GetRole"),  # the barrier
                                                 self._probe(cached.snapshot))
            events = log.since(cached.mark) if alive is not None else None
            if events == [] and probes == cached.probes:
                self.last_read = "kept"
                return cached.snapshot.model_copy(update={"elapsed_ms": (time.perf_counter() - start) * 1000})
            if events and probes == cached.probes and not cached.snapshot.truncated:
                reuse = await self._stale(cached, events)
        mark = log.count  # events during the read are read again next time
        read = await self._snapshot(root, max_nodes, reuse)
        self.last_read = "whole" if reuse is None else "changes"
        if not read.snapshot.nodes or read.top is None or read.timed_out:  # its app is gone, or it was
            self._cache.pop(root, None)  # cut short by time: the next read may get all of it
            return read.snapshot
        self._cache[root] = _Cached(read.snapshot, read.top, mark, await self._probe(read.snapshot))
        return read.snapshot.model_copy(update={"elapsed_ms": (time.perf_counter() - start) * 1000})

    async def _stale(self, cached: _Cached, events: list[Event]) -> _Reuse | None:
        """What the events made stale in the kept tree, or None when it must be read whole."""
        index, parent_of = cached.index()
        dest = cached.top.raw.ref[0]
        trust = TRUSTED.get(self._toolkit_of.get(dest, ""))
        if trust is None:
            return None
        touched: set[tuple[str, str]] = set()
        regrown: set[tuple[str, str]] = set()
        unknown: set[tuple[str, str]] = set()
        for event in events:
            scope = scope_of(event)
            if trust.untold and scope is Scope.SUBTREE and event.member == "BoundsChanged":
                scope = Scope.ELEMENT  # every kept element's place is read again anyway
            ref = (dest, event.path)
            if scope is Scope.WHOLE:
                return None
            if ref not in index:
                unknown.add(ref)
            elif scope is Scope.PARENT or (role_of(index[ref].raw.role_number)[1] == "ScrollBar" and ref in parent_of):
                # a scroll bar that moved scrolled its neighbours (GTK moves a list's rows untold)
                if ref not in parent_of:
                    return None
                touched.add(parent_of[ref])
                regrown.add(parent_of[ref])
            else:
                touched.add(ref)
                if scope is Scope.SUBTREE:
                    regrown.add(ref)
        if len(unknown) > MAX_LOOKUPS:
            return None
        found = await asyncio.gather(*(self._known_ancestor(ref, index) for ref in unknown))
        if any(f is None for f in found):
            return None
        below: dict[tuple[str, str], set[tuple[str, str]]] = {}  # known ancestor -> its unknown children
        for ancestor, child in (f for f in found if f is not None and f[0] != _OUTSIDE):
            if index[ancestor].kids is not None:  # not expanded: not shown, and its showing is an event
                below.setdefault(ancestor, set()).add(child)
        for ancestor, children in below.items():
            if not index[ancestor].managed:
                # LibreOffice has objects that name a parent which does not list them: a whole
                # read never sees them either
                listed = set(await self._children(ancestor))
                if not children & listed:
                    continue
            touched.add(ancestor)
            regrown.add(ancestor)
        # focus leaves an element without a word from it when a menu or another window takes the
        # keyboard (GTK 3): whatever had the focus is read again whenever anything changed
        touched.update(ref for ref, entry in index.items() if entry.raw.states and entry.raw.states[0] & FOCUSED_BIT)
        if trust.untold:
            touched.update(ref for ref, entry in index.items() if entry.label is not None)
            regrown.update(ref for ref, entry in index.items() if entry.managed)
        holds: set[tuple[str, str]] = set()
        for ref in touched | regrown:
            while ref in parent_of and parent_of[ref] not in holds:
                ref = parent_of[ref]
                holds.add(ref)
        return _Reuse(dict(index), touched, regrown, holds, places=trust.untold)

    async def _known_ancestor(self, ref: tuple[str, str], index: dict[tuple[str, str], _Entry]
                              ) -> tuple[tuple[str, str], tuple[str, str]] | None:
        """(the nearest ancestor the kept tree has, its child on the way there) of an element it
        does not have; the ancestor is `_OUTSIDE` for an element of another window of the app;
        None when it cannot be told."""
        for _ in range(MAX_ANCESTORS):
            reply = await self._maybe(ref[0], ref[1], PROPERTIES, "Get", "ss", [ACCESSIBLE, "Parent"])
            if not reply:
                return None
            parent = _ref_of([reply[0].value])
            if parent is None or parent[1] == APP_ROOT:
                return _OUTSIDE, ref
            if parent in index:
                return parent, ref
            ref = parent
        return None

    async def _probe(self, snapshot: Snapshot) -> list[Any]:
        """Cheap reads that change when content scrolls or the window moves."""
        nodes = snapshot.nodes
        first_children: dict[int, Node] = {}
        for n in nodes:
            if n.parent is not None and n.parent not in first_children and CELL_MARK not in n.handle and \
                    nodes[n.parent].role in ("Table", "List", "Tree", "Document", "ScrollPane", "Viewport"):
                first_children[n.parent] = n
        jobs = [self._maybe(*split_handle(nodes[0].handle), IFACE + "Component", "GetExtents", "u", [0])]
        for n in first_children.values():
            jobs.append(self._maybe(*split_handle(n.handle), IFACE + "Component", "GetExtents", "u", [0]))
        for n in nodes:
            if n.role == "ScrollBar":
                jobs.append(self._maybe(*split_handle(n.handle), PROPERTIES, "Get", "ss",
                                        [IFACE + "Value", "CurrentValue"]))
        return [repr(r) for r in await asyncio.gather(*jobs)]

    async def _refresh(self, ref: tuple[str, str]) -> Node | None:
        raw = await self._read(ref)
        if raw is None:
            return None
        states = states_of(raw.states)
        if "defunct" in states or not any(raw.states):
            return None  # GTK leaves a destroyed widget's accessible alive with no states at all
        parent = await self._maybe(ref[0], ref[1], PROPERTIES, "Get", "ss", [ACCESSIBLE, "Parent"])
        selects = False
        if parent:
            p_dest, p_path = parent[0].value
            p_ifaces = await self._maybe(p_dest, p_path, ACCESSIBLE, "GetInterfaces")
            selects = p_ifaces is not None and IFACE + "Selection" in p_ifaces[0]
        node = self._node(raw, None, selects)
        if node.role in ("Menu", "MenuItem") and node.rect is not None and await self._toolkit(ref[0]) == JAVA:
            return await self._java_menu_item_placed(ref, node)
        return node

    async def _resolve(self, handle: str) -> tuple[str, str]:
        """The element behind a handle; a cell is asked of its table only now, by its place.

        A spreadsheet's cell is named by its address: the cell the table hands out for
        (row, column) must carry the address of that place, or nothing is done with it
        (acting on another cell than the one the agent was shown would be a lie)."""
        dest, path = split_handle(handle)
        if CELL_MARK not in path:
            return dest, path
        path, _, where = path.partition(CELL_MARK)
        row_text, _, col_text = where.partition(",")
        try:
            row, col = int(row_text), int(col_text)
        except ValueError:
            raise NotFound(f"not an element handle: {handle!r}", hint="run `winctl state`") from None
        cell = _ref_of(await self._maybe(dest, path, IFACE + "Table", "GetAccessibleAt", "ii", [row, col]))
        if cell is None:
            raise NotFound("the cell is gone", hint="run `winctl state`")
        name = await self._maybe(cell[0], cell[1], PROPERTIES, "Get", "ss", [ACCESSIBLE, "Name"])
        found = str(name[0].value) if name else ""
        expected = _address(row, col)
        if ADDRESS.match(found) and found.replace("$", "") != expected:
            raise StaleElement(f"the table's cell at row {row + 1}, column {col + 1} is {found}, not {expected}; "
                               "nothing was done", hint="the sheet changed — run `winctl state`")
        return cell

    def refresh(self, handle: str) -> Node | None:
        async def refresh() -> Node | None:
            return await self._refresh(await self._resolve(handle))

        return self._run(refresh())

    def focus_holder(self, handle: str) -> bool:
        """GrabFocus on the nearest of the element's ancestors (up to HOLDER_DEPTH) that is
        focusable and editable: Chromium's editable section, which holds its paragraphs."""
        async def grab() -> bool:
            ref = await self._resolve(handle)
            for _ in range(HOLDER_DEPTH):
                parent = await self._maybe(ref[0], ref[1], PROPERTIES, "Get", "ss", [ACCESSIBLE, "Parent"])
                if not parent:
                    return False
                ref = tuple(parent[0].value)
                words = await self._maybe(ref[0], ref[1], ACCESSIBLE, "GetState")
                states = states_of(list(words[0])) if words else frozenset()
                if {"focusable", "editable"} <= states:
                    done = await self._maybe(ref[0], ref[1], IFACE + "Component", "GrabFocus")
                    if not (done and done[0]):
                        return False
                    deadline = time.monotonic() + FOCUS_SETTLE  # Chromium moves the focus after answering
                    while "focused" not in states and time.monotonic() < deadline:
                        await asyncio.sleep(0.02)
                        words = await self._maybe(ref[0], ref[1], ACCESSIBLE, "GetState")
                        states = states_of(list(words[0])) if words else frozenset()
                    return "focused" in states
            return False

        return self._run(grab())

    def holds_focus(self, handle: str) -> bool | None:
        """See `Backend.holds_focus`: the element's own "focused" state, its children's (where
        it has at most FOCUS_CHILDREN: a sheet has two billion) and, for a cell or an element
        that takes no focus itself, its ancestors' up to HOLDER_DEPTH. None when it is gone."""
        async def held() -> bool | None:
            ref = await self._resolve(handle)
            states = await self._states(ref)
            if states is None:
                return None
            if "focused" in states:
                return True
            count = await self._maybe(ref[0], ref[1], PROPERTIES, "Get", "ss", [ACCESSIBLE, "ChildCount"])
            if count and 0 < int(count[0].value) <= FOCUS_CHILDREN:
                kids = await asyncio.gather(*(self._states(kid) for kid in await self._children(ref)))
                if any(kid is not None and "focused" in kid for kid in kids):
                    return True
            if "focusable" in states and (await self._role(ref))[0] != "table-cell":
                return False
            for _ in range(HOLDER_DEPTH):
                holder = await self._parent(ref)
                if holder is None:
                    return False
                if "focused" in (await self._states(holder) or ()):
                    return True
                ref = holder
            return False

        try:
            return self._run(held())
        except NotFound:  # a cell no longer where it was
            return None

    def await_focus_still(self, handle: str, quiet: float, limit: float) -> bool:
        """Return once the app of `handle` has moved its keyboard focus nowhere for `quiet`
        seconds (its focus events, heard in live mode only), at most `limit` seconds; True when
        it was still by then, or where its events are not heard."""
        if not self._live:
            return True

        async def still() -> bool:
            dest, path = await self._resolve(handle)
            log = self._logs.setdefault(dest, EventLog())
            start = last_move = time.monotonic()
            mark = log.count
            while True:
                await self._maybe(dest, path, ACCESSIBLE, "GetRole")  # answered after every event sent before it
                now = time.monotonic()
                events = log.since(mark)
                mark = log.count
                if events is None or any(e.member == "StateChanged" and e.detail == "focused" for e in events):
                    last_move = now
                if now - last_move >= quiet:
                    return True
                if now - start >= limit:
                    return False
                await asyncio.sleep(0.02)

        return self._run(still(), timeout=limit + 0.5, stall=NAME_STALL_SECONDS)  # an app in a modal loop is busy

    async def _states(self, ref: tuple[str, str]) -> frozenset[str] | None:
        words = await self._maybe(ref[0], ref[1], ACCESSIBLE, "GetState")
        return states_of(list(words[0])) if words else None

    def select_text(self, handle: str, start: int, end: int) -> bool:
        """Text.SetSelection of the first selection, else AddSelection; False where refused."""
        async def select() -> bool:
            dest, path = await self._resolve(handle)
            count = await self._maybe(dest, path, IFACE + "Text", "GetNSelections")
            if count and count[0] > 0:
                done = await self._maybe(dest, path, IFACE + "Text", "SetSelection", "iii", [0, start, end])
            else:
                done = await self._maybe(dest, path, IFACE + "Text", "AddSelection", "ii", [start, end])
            return bool(done and done[0])

        return self._run(select())

    def set_caret(self, handle: str, offset: int) -> bool:
        """Text.SetCaretOffset; False where the element has no text interface or refuses."""
        async def place() -> bool:
            dest, path = await self._resolve(handle)
            done = await self._maybe(dest, path, IFACE + "Text", "SetCaretOffset", "i", [offset])
            return bool(done and done[0])

        return self._run(place())

    def read_text(self, handle: str) -> str:
        async def read() -> str:
            dest, path = await self._resolve(handle)
            role = await self._maybe(dest, path, ACCESSIBLE, "GetRole")
            ctype = role_of(int(role[0]))[1] if role else ""
            if ctype == "ComboBox":
                chosen = await self._chosen((dest, path))
                if chosen is not None:
                    return chosen
            text = await self._whole_text((dest, path))
            if text is not None and (text.strip("\ufffc") or ctype in ("DataItem", "Edit")):
                return text  # an empty cell or field is empty, not its Value (0) or its name
                # (gnome-calculator's empty display is named after its class, "GtkSourceView")
            value = await self._maybe(dest, path, PROPERTIES, "Get", "ss", [IFACE + "Value", "CurrentValue"])
            if value is not None:
                number = float(value[0].value)
                return str(int(number)) if number.is_integer() else f"{number:g}"
            name = await self._maybe(dest, path, PROPERTIES, "Get", "ss", [ACCESSIBLE, "Name"])
            if name is None:
                raise NotFound("the element is gone", hint="run `winctl state`")
            return str(name[0].value)

        return self._run(read())

    # -- finding windows -----------------------------------------------------------------
    async def _applications(self) -> list[tuple[str, str, int | None]]:
        apps = await self._children(REGISTRY)

        async def describe(ref: tuple[str, str]) -> tuple[str, str, int | None]:
            name, pid = await asyncio.gather(
                self._maybe(ref[0], ref[1], PROPERTIES, "Get", "ss", [ACCESSIBLE, "Name"]), self._pid(ref[0]))
            return ref[0], str(name[0].value) if name else "", pid

        return list(await asyncio.gather(*(describe(a) for a in apps)))

    def applications(self) -> list[tuple[str, str, int | None]]:
        """(bus name, application name, pid) of every app on the accessibility bus."""
        return self._run(self._applications())

    async def _find_frame(self, pid: int | None, title: str, rect: Rect | None, active: bool | None = None,
                          rank: tuple[int, int] | None = None) -> str | None:
        apps = await self._applications()
        mine = [a for a in apps if pid is not None and a[2] == pid]
        for group, own in ((mine, True), ([a for a in apps if a not in mine], False)):
            tops = await asyncio.gather(*(self._children((bus, "/org/a11y/atspi/accessible/root"))
                                          for bus, _, _ in group))
            refs = [ref for kids in tops for ref in kids]
            raws = await asyncio.gather(*(self._read(ref) for ref in refs))
            scored = [(score, raw) for raw in raws if raw is not None
                      and (score := _frame_score(raw, title, rect, own=own)) is not None]
            if scored:
                best = min(score for score, _ in scored)
                return _one_frame([raw for score, raw in scored if score == best], title, active, rank)
        return None

    def menu_windows(self, frame: str, menus: list[Rect], scale: int = 1) -> list[tuple[str, Rect]]:
        """The frame's app's top-level windows that show `menus` (open menus, as the X server
        places them; GTK 3's and Java's context menus), matched by size (Java reports the
        window's place off by its frame's), each with the menu it shows. An app that reports
        logical pixels `scale` times smaller than the screen's (GTK under GDK_SCALE) reports its
        menus that much smaller too."""
        async def find() -> list[tuple[str, Rect]]:
            dest = split_handle(frame)[0]
            tops = await self._children((dest, APP_ROOT))
            raws = await asyncio.gather(*(self._read(ref) for ref in tops))
            found = []
            for raw in raws:
                if raw is None or raw.extents is None or role_of(raw.role_number)[0] not in MENU_WINDOW_ROLES:
                    continue
                if not (raw.states and raw.states[0] & SHOWING_BIT):
                    continue
                x, y, w, h = raw.extents
                same = [m for m in menus if abs(w * scale - m.width) + abs(h * scale - m.height) <= MENU_SLACK * scale]
                if same:
                    menu = min(same, key=lambda m: abs(x - m.left) + abs(y - m.top))
                    found.append((raw.ref[0] + raw.ref[1], menu))
            return found

        return self._run(find())

    def app_frames(self, handle: str) -> tuple[int | None, list[Rect]]:
        """The pid of this element's app and its windows' rectangles as it reports them: what
        places its elements on the screen (GTK 4 reports them inside its window; GTK and Java
        on a HiDPI display in logical pixels)."""
        async def read() -> tuple[int | None, list[Rect]]:
            dest = split_handle(handle)[0]
            pid, tops = await asyncio.gather(self._pid(dest), self._children((dest, APP_ROOT)))
            rects = await asyncio.gather(*(self._frame_extents(ref) for ref in tops))
            return pid, [r for r in rects if r is not None]

        return self._run(read())

    async def _frame_extents(self, ref: tuple[str, str]) -> Rect | None:
        """A top-level window's place as its app reports it; a Java frame reports none, and
        its first child (the root pane) stands for it."""
        for _ in range(2):
            place = await self._extents(ref)
            if place is not None:
                return place
            children = await self._children(ref)
            if not children:
                return None
            ref = children[0]
        return None

    def element_over(self, handle: str, x: int, y: int) -> tuple[str, str] | None:
        """(control type, name) of what the app's own hit test finds at screen point (x, y) when
        it is neither the element `handle`, nor inside it, nor around it: what a mouse click
        there reaches instead (a web page's cookie banner). None when the click reaches the
        element, or when the app's hit test cannot tell (`HIT_TESTED`)."""
        return self._run(self._element_over(split_handle(handle), x, y),
                         doing="while the app was asked what lies at a point")

    async def _element_over(self, ref: tuple[str, str], x: int, y: int) -> tuple[str, str] | None:
        if await self._toolkit(ref[0]) not in HIT_TESTED:
            return None
        around = await self._ancestors(ref)
        if not around:
            return None
        hit = None
        for _ in range(HIT_ASKS):  # Gecko answers null until its content process has hit-tested the point
            hit = _ref_of(await self._maybe(*around[-1], IFACE + "Component", "GetAccessibleAtPoint", "iiu",
                                            [x, y, 0]))
            if hit is not None:
                break
            await asyncio.sleep(HIT_WAIT)
        if hit is None or hit == ref or hit in around or ref in await self._ancestors(hit):
            return None  # the element, a container around it, or its own content (a button's text)
        role, name = await asyncio.gather(self._maybe(*hit, ACCESSIBLE, "GetRole"),
                                          self._maybe(*hit, PROPERTIES, "Get", "ss", [ACCESSIBLE, "Name"]))
        return (role_of(int(role[0]))[1] if role else "Custom"), (str(name[0].value) if name else "")

    def placed_around(self, handle: str, roles: frozenset[str], toolkits: frozenset[str]) -> list[Rect]:
        """The places that the element and those of its ancestors whose AT-SPI role is one of
        `roles` report, as they report them, nearest first; none for apps whose toolkit is not
        in `toolkits` (the walk up costs a round trip per level: only the toolkits that report
        a part of themselves apart pay it): the outermost web page of a browser engine."""
        async def find() -> list[Rect]:
            ref = await self._resolve(handle)
            if await self._toolkit(ref[0]) not in toolkits:
                return []
            places = await asyncio.gather(*(self._extents(r) for r in await self._around(ref, roles)))
            return [place for place in places if place is not None]

        return self._run(find(), doing="while the element's place was looked for")

    def lineage(self, handle: str) -> list[Node]:
        """The element and its parents up to its window, outermost first, each read as
        `refresh` reads it and linked to the one before it (`Node.parent`): the part of a
        snapshot that places the element. A round trip per level."""
        async def read() -> list[Node]:
            ref = await self._resolve(handle)
            chain = [*reversed(await self._ancestors(ref)), ref]
            nodes = await asyncio.gather(*(self._read(r) for r in chain))
            out: list[Node] = []
            for raw in nodes:
                if raw is not None:
                    out.append(dataclasses.replace(self._node(raw, None, False), parent=len(out) - 1 if out else None))
            return out

        return self._run(read(), doing="while the element's parents were read")

    def root_pane_shift(self, handle: str) -> tuple[int, int] | None:
        """How far LibreOffice reports the root pane around this element from the GTK panel
        that holds it, in reported pixels (`pane_shift`, `backend.root_panes_aligned`); None
        for other apps, and where it reports it in place. The holder is not the pane's parent: the pane
        answers its own frame, so it is looked for from the app's windows down."""
        async def find() -> tuple[int, int] | None:
            ref = await self._resolve(handle)
            if await self._toolkit(ref[0]) != VCL:
                return None
            panes = await self._around(ref, frozenset({ROOT_PANE}))
            if not panes:
                return None
            level = await self._children((ref[0], APP_ROOT))
            for _ in range(ROOT_PANE_DEPTH):
                kids = await asyncio.gather(*(self._children(r) for r in level))
                holder = next((r for r, k in zip(level, kids) if panes[-1] in k), None)
                if holder is not None:
                    pane, around = await asyncio.gather(self._extents(panes[-1]), self._extents(holder))
                    return pane_shift(pane, around)
                level = [k for group in kids for k in group]
            return None

        return self._run(find(), doing="while LibreOffice's window content was placed")

    async def _around(self, ref: tuple[str, str], roles: frozenset[str]) -> list[tuple[str, str]]:
        """The element and those of its ancestors whose AT-SPI role is one of `roles`, nearest first."""
        chain = [ref, *await self._ancestors(ref)]
        kinds = await asyncio.gather(*(self._maybe(*r, ACCESSIBLE, "GetRole") for r in chain))
        return [r for r, kind in zip(chain, kinds) if kind and role_of(int(kind[0]))[0] in roles]

    async def _extents(self, ref: tuple[str, str]) -> Rect | None:
        extents = await self._maybe(ref[0], ref[1], IFACE + "Component", "GetExtents", "u", [0])
        return Rect.from_xywh(*extents[0]) if extents and extents[0][2] > 0 and extents[0][3] > 0 else None

    def toolkit(self, handle: str) -> str:
        """The element's app's toolkit name, lower case ("gtk4", "qt", "gecko"...), asked once per app."""
        return self._run(self._toolkit(split_handle(handle)[0]))

    def answering(self, handle: str) -> concurrent.futures.Future[None]:
        """A request to the element's app (its root's role), done once the app answers it, an
        error included. An app takes its requests in order: after an action, the answer means
        the action's handler has returned."""
        dest = split_handle(handle)[0]

        async def ask() -> None:
            await self._maybe(dest, APP_ROOT, ACCESSIBLE, "GetRole")

        return asyncio.run_coroutine_threadsafe(ask(), self._loop)

    def pid(self, handle: str) -> int | None:
        """The process of the element's app, as the bus knows it."""
        return self._run(self._pid(split_handle(handle)[0]))

    async def _pid(self, dest: str) -> int | None:
        pid = await self._maybe("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                                "GetConnectionUnixProcessID", "s", [dest])
        return int(pid[0]) if pid else None

    async def _ancestors(self, ref: tuple[str, str]) -> list[tuple[str, str]]:
        """The element's parents, nearest first, up to its window (the child of the app's root)."""
        found: list[tuple[str, str]] = []
        for _ in range(MAX_DEPTH):
            reply = await self._maybe(ref[0], ref[1], PROPERTIES, "Get", "ss", [ACCESSIBLE, "Parent"])
            parent = _ref_of([reply[0].value]) if reply else None
            if parent is None or parent[1] == APP_ROOT:
                break
            found.append(parent)
            ref = parent
        return found

    def find_frame(self, pid: int | None, title: str, rect: Rect | None, active: bool | None = None,
                   rank: tuple[int, int] | None = None) -> str | None:
        """The handle of the top-level accessible that is this window, if any. Two windows alike
        in title and place are told apart by `active` (whether the window is the active one)
        and `rank` (its place among the app's windows alike, in the order they were made)."""
        return self._run(self._find_frame(pid, title, rect, active, rank))

    # -- acting -----------------------------------------------------------------------------
    def name_watch(self, handle: str) -> Callable[[], tuple[str | None, list[str]]]:
        """`Backend.name_watch`: the name read as `refresh` reads it; the renames are the app's
        accessible-name change events since the watch was made (a reply comes after every event
        the app sent before it, so once a read returns they are all in); heard in live mode only
        (registering for them from a one-shot process kept a GTK app's modal dialog from its keys)."""
        dest, path = self._run(self._resolve(handle))
        log = self._logs.setdefault(dest, EventLog())
        mark = log.count

        def read() -> tuple[str | None, list[str]]:
            # named as `refresh` names it (a field by its label); an app still in the press's handler is busy
            node = self._run(self._refresh((dest, path)), stall=NAME_STALL_SECONDS)
            events = log.since(mark) or []
            gtk4 = self._toolkit_of.get(dest) == "gtk4"
            heard = [_gtk4_name(e.value) if gtk4 else e.value for e in events
                     if e.path == path and e.member == "PropertyChange" and e.detail == "accessible-name"]
            # a name emptied is not heard: an element without one is named by its label, as `refresh` reads it
            return (None if node is None else node.name), [name for name in heard if name]

        return read

    def perform(self, handle: str, operation: Operation, argument: str | float | None = None) -> str:
        try:
            async def perform() -> str:
                return await self._perform(await self._resolve(handle), operation, argument)

            return self._run(perform(), stall=ACTION_STALL_SECONDS)
        except AppBusy:
            if operation in (Operation.INVOKE, Operation.TOGGLE, Operation.EXPAND, Operation.COLLAPSE):
                # The action was delivered and its handler is still running (typically a
                # modal dialog opened from the click handler).
                return f"action:{operation.value} (sent; the app is still handling it)"
            raise
        except DBusCallError as refused:
            # GTK 4.8 answers GrabFocus with NotSupported; an element may go between two calls
            if refused.name.endswith("UnknownObject"):
                raise StaleElement("the element is gone", hint="run `winctl state`") from None
            raise ActionFailed(f"the app does not support {operation.value} on this element ({refused.name})",
                               hint="try it with the mouse or keyboard (--via input)") from None

    async def _perform(self, ref: tuple[str, str], op: Operation, argument: str | float | None) -> str:
        dest, path = ref
        if op in (Operation.INVOKE, Operation.TOGGLE, Operation.EXPAND, Operation.COLLAPSE):
            if op in (Operation.INVOKE, Operation.TOGGLE) and await self._toolkit(dest) == JAVA:
                await self._close_menu_bar(ref)
            wanted = {
                Operation.INVOKE: INVOKE_ACTIONS,
                Operation.TOGGLE: ("toggle", "click", "press", "activate"),
                Operation.EXPAND: ("expand or contract", "expand", "press", "toggle"),
                Operation.COLLAPSE: ("expand or contract", "collapse", "press", "toggle"),
            }[op]
            return await self._do_action(ref, wanted)
        if op is Operation.SET_TEXT:
            protected = (await self._role(ref))[0] in PROTECTED_ROLES
            before = None if protected else await self._whole_text(ref)  # a password's text reads as bullets
            ok = await self._call(dest, path, IFACE + "EditableText", "SetTextContents", "s", [str(argument)])
            if not ok or not ok[0]:
                raise ActionFailed("the element refused the text", hint="try --via input to type it")
            await self._check_text(ref, str(argument), protected=protected, before=before)
            return "EditableText.SetTextContents"
        if op is Operation.SET_VALUE:
            await self._call(dest, path, PROPERTIES, "Set", "ssv",
                             [IFACE + "Value", "CurrentValue", Variant("d", float(argument or 0))])
            return "Value.CurrentValue"
        if op is Operation.SELECT:
            parent = await self._call(dest, path, PROPERTIES, "Get", "ss", [ACCESSIBLE, "Parent"])
            p_dest, p_path = parent[0].value
            if await self._is_sheet((p_dest, p_path)):  # a click on a cell moves the cell cursor there
                return await sheet_cursor.put_cursor(self, (p_dest, p_path), ref)
            index = (await self._call(dest, path, ACCESSIBLE, "GetIndexInParent"))[0]
            return await self._select_child((p_dest, p_path), int(index))
        if op is Operation.CHOOSE:
            return await self._choose(ref, str(argument))
        if op is Operation.FOCUS:
            done = await self._call(dest, path, IFACE + "Component", "GrabFocus")
            if not done or not done[0]:
                raise ActionFailed("the element did not take focus", hint="click it instead")
            return "Component.GrabFocus"
        raise ActionFailed(f"AT-SPI has no semantic {op.value}", hint="use the mouse (--via input)")

    async def _close_menu_bar(self, ref: tuple[str, str]) -> None:
        """Close the menus of the bar a Swing menu item is in, before its action runs: a
        user's click does that first (BasicMenuItemUI clears the menu path, then clicks the
        item); the accessible action only clicks it, and the menu stayed open over the window
        with the keys typed next going to it. Clearing the bar's selection clears the path."""
        if (await self._role(ref))[1] != "MenuItem":
            return
        bar = await self._menu_bar_of(ref)
        if bar is not None:
            await self._maybe(bar[0], bar[1], IFACE + "Selection", "ClearSelection")

    async def _menu_bar_of(self, ref: tuple[str, str]) -> tuple[str, str] | None:
        """The menu bar above a menu item, through the menus it is in; None for an item of a
        context menu."""
        for _ in range(MENU_DEPTH):
            parent = await self._parent(ref)
            if parent is None:
                return None
            kind = (await self._role(parent))[1]
            if kind == "MenuBar":
                return parent
            if kind != "Menu":
                return None
            ref = parent
        return None

    async def _parent(self, ref: tuple[str, str]) -> tuple[str, str] | None:
        reply = await self._maybe(ref[0], ref[1], PROPERTIES, "Get", "ss", [ACCESSIBLE, "Parent"])
        return _ref_of([reply[0].value]) if reply else None

    # -- Swing's open menus: where Java says their items are, and where they are ---------------
    async def _java_menus_placed(self, nodes: list[Node]) -> list[Node]:
        """A read of a Java window with its open menus' items where the screen shows them
        (`_java_menu_shifts`); the popups and the menus are in the read."""
        popups: _Popups = {}
        for n in nodes:
            if n.native_role == "popup-menu" and n.rect is not None:
                popups[split_handle(n.handle)] = ((n.rect.left, n.rect.top), [])
        for n in nodes:
            if n.parent is not None and (holder := popups.get(split_handle(nodes[n.parent].handle))) is not None:
                holder[1].append(split_handle(n.handle))
        known = {split_handle(n.handle): (n.rect.left, n.rect.top) for n in nodes if n.rect is not None}
        shifts = await self._java_menu_shifts(popups, known)
        if not any(shifts.values()):
            return nodes
        return [_moved(n, *shifts[ref]) if n.rect is not None and (ref := split_handle(n.handle)) in shifts else n
                for n in nodes]

    async def _java_menu_item_placed(self, ref: tuple[str, str], node: Node) -> Node:
        """One Swing menu item read again, where the screen shows it: its app's open popups are
        found below its windows (a window, its root pane, layered pane, a panel, the popup)."""
        popups: _Popups = {}
        level = [(ref[0], APP_ROOT)]
        for _ in range(JAVA_POPUP_DEPTH):
            kids = [kid for holder in await asyncio.gather(*(self._children(r) for r in level)) for kid in holder]
            roles = [native for native, _ in await asyncio.gather(*(self._role(kid) for kid in kids))]
            for kid, role in zip(kids, roles):
                if role == "popup-menu":
                    place, items = await asyncio.gather(self._place(kid), self._children(kid))
                    if place is not None:
                        popups[kid] = (place, items)
            level = [kid for kid, role in zip(kids, roles) if role in JAVA_POPUP_HOLDERS]
        shift = (await self._java_menu_shifts(popups, {})).get(ref)
        return _moved(node, *shift) if shift and node.rect is not None else node

    async def _java_menu_shifts(self, popups: _Popups, known: dict[tuple[str, str], tuple[int, int]]
                                ) -> dict[tuple[str, str], tuple[int, int]]:
        """How far each item of an open Swing menu (`popups`) is from where Java says. Java
        gives an item of a menu's popup the menu's place plus the item's place in the popup,
        not the popup's: Edit's items were 19 px too high (jEdit), a
        submenu's 285 px too far left, and a click at "Select All" hit the item above it. The
        popup's own place is right; so each item moves by the popup's place less its menu's
        true place (itself moved when the menu is an item of another popup). A context menu's
        items, whose parent is their popup, are where Java says. `known`: places already read."""
        owner = {item: popup for popup, (_, items) in popups.items() for item in items}
        shifts: dict[tuple[str, str], tuple[int, int]] = {}

        async def shift(popup: tuple[str, str]) -> tuple[int, int]:
            if popup in shifts:
                return shifts[popup]
            shifts[popup] = (0, 0)  # until known: a menu that seems to hold itself moves nothing
            (px, py), items = popups[popup]
            menu = await self._parent(items[0]) if items else None
            if menu is None or menu == popup or (await self._role(menu))[0] != "menu":
                return shifts[popup]
            place = known.get(menu) or await self._place(menu)
            if place is None:
                return shifts[popup]
            dx, dy = await shift(owner[menu]) if menu in owner else (0, 0)
            shifts[popup] = (px - place[0] - dx, py - place[1] - dy)
            return shifts[popup]

        return {item: await shift(popup) for item, popup in owner.items()}

    async def _role(self, ref: tuple[str, str]) -> tuple[str, str]:
        """(native role, control type) of an element, ("", "") when it does not answer."""
        role = await self._maybe(ref[0], ref[1], ACCESSIBLE, "GetRole")
        return role_of(int(role[0])) if role else ("", "")

    async def _place(self, ref: tuple[str, str]) -> tuple[int, int] | None:
        extents = await self._maybe(ref[0], ref[1], IFACE + "Component", "GetExtents", "u", [0])
        return (int(extents[0][0]), int(extents[0][1])) if extents else None

    async def _check_text(self, ref: tuple[str, str], wanted: str, *, protected: bool,
                          before: str | None = None) -> None:
        """Fail when SetTextContents said yes but the text did not change: Firefox's web
        fields answer true and keep their text, so `input` must fall back to typing. A
        password field (`protected`) reads as one bullet a character: as many as wanted is
        the text set. A field that kept only the start of the text (`before` was its text)
        holds no more: that is InvalidInput, saying how much it holds, with `before` put back
        — typing the rest would not fit either."""
        got = None
        for _ in range(5):
            got = await self._whole_text(ref)
            if got is None or got == wanted or (protected and len(got) == len(wanted) and len(set(got)) <= 1):
                return
            await asyncio.sleep(0.05)
        if got and before is not None and got != before and len(got) < len(wanted) and wanted.startswith(got):
            await self._put_back(ref, before, len(got), len(wanted))
        raise ActionFailed("the element accepted the text but did not change", hint="type it with --via input")

    async def _put_back(self, ref: tuple[str, str], before: str, holds: int, wanted: int) -> None:
        """Raise InvalidInput for a text of `wanted` characters in a field that holds `holds`,
        once its text `before` is back."""
        back = await self._maybe(ref[0], ref[1], IFACE + "EditableText", "SetTextContents", "s", [before])
        now = await self._whole_text(ref)
        kept = "its text is as it was" if back and back[0] and now == before else \
            f"it now holds the text's first {holds:,} characters (its old text could not be put back)"
        raise InvalidInput(f"the field holds at most {holds:,} characters and the text has {wanted:,}: {kept}; "
                           "nothing was typed",
                           hint=f"input at most {holds:,} characters there (split a longer text over several "
                                "fields or files)")

    async def _action_names(self, ref: tuple[str, str]) -> list[str]:
        actions = await self._maybe(ref[0], ref[1], IFACE + "Action", "GetActions")
        names = [str(a[0]) for a in actions[0]] if actions else []
        if not _usable_names(names):
            found = await asyncio.gather(*(self._maybe(ref[0], ref[1], IFACE + "Action", "GetName", "i", [i])
                                           for i in range(len(names))))
            names = [str(n[0]) if n else "" for n in found]
        return [n.lower() for n in names]

    async def _do_action(self, ref: tuple[str, str], wanted: tuple[str, ...]) -> str:
        names = await self._action_names(ref)
        for want in wanted:
            if want in names:
                reply = asyncio.ensure_future(
                    self._call(ref[0], ref[1], IFACE + "Action", "DoAction", "i", [names.index(want)]))
                if await self._running_meanwhile(reply, ref[0]):
                    return f"action:{want} (sent; the app is running it)"
                done = await reply
                if not done or not done[0]:
                    raise ActionFailed(f'the element refused its "{want}" action', hint="try --via input")
                return f"action:{want}"
        raise ActionFailed(f"no suitable action (it has: {', '.join(names) or 'none'})",
                           hint="try --via input")

    async def _running_meanwhile(self, reply: asyncio.Future[list[Any]], dest: str) -> bool:
        """Whether the app answers another request while an action's reply is still to come (asked
        once the reply is REPLY_PROBE late): the action's handler runs a loop of its own that takes
        requests — a dialog's, in Qt, which answers the action when the dialog closes — and the
        action is under way. Waiting for its reply would hold the agent for nothing."""
        done, _ = await asyncio.wait({reply}, timeout=REPLY_PROBE)
        if done:
            return False
        other: asyncio.Future[Any] = asyncio.ensure_future(self._maybe(dest, APP_ROOT, ACCESSIBLE, "GetRole"))
        done, _ = await asyncio.wait({reply, other}, return_when=asyncio.FIRST_COMPLETED)
        if reply in done:
            other.cancel()
            return False
        return True

    async def _is_sheet(self, ref: tuple[str, str]) -> bool:
        """A spreadsheet: a table declaring SHEET_CELLS cells or more (Calc: 2**31)."""
        count = await self._maybe(ref[0], ref[1], PROPERTIES, "Get", "ss", [ACCESSIBLE, "ChildCount"])
        return count is not None and int(count[0].value) >= SHEET_CELLS

    async def _select_child(self, container: tuple[str, str], index: int) -> str:
        done = await self._call(container[0], container[1], IFACE + "Selection", "SelectChild", "i", [index])
        if done and done[0]:
            return "Selection.SelectChild"
        if await self._select_row(container, index):
            return "Table.AddRowSelection"
        raise ActionFailed("the container refused the selection", hint="click the item instead")

    async def _select_row(self, table: tuple[str, str], index: int) -> bool:
        """Select the row of the table's child `index`, as a click on that cell does: GTK 3
        selects a child of a tree view only when it has one column (every cell click of a file
        dialog's list went to the mouse, saying "semantic route failed"), but selects its rows.
        A table that keeps several rows selected adds the row to them (GTK says nothing of
        multiple selection in the table's states), so the others are let go, as a click does."""
        dest, path = table
        ifaces = await self._maybe(dest, path, ACCESSIBLE, "GetInterfaces")
        if not ifaces or IFACE + "Table" not in ifaces[0]:
            return False
        row = await self._maybe(dest, path, IFACE + "Table", "GetRowAtIndex", "i", [index])
        if not row or row[0] < 0:
            return False  # a column header
        done = await self._maybe(dest, path, IFACE + "Table", "AddRowSelection", "i", [row[0]])
        if not done or not done[0]:
            return False
        chosen = await self._maybe(dest, path, IFACE + "Table", "GetSelectedRows")
        for other in (chosen[0] if chosen else []):
            if other != row[0]:
                await self._maybe(dest, path, IFACE + "Table", "RemoveRowSelection", "i", [other])
        return True

    async def _options(self, ref: tuple[str, str]) -> tuple[tuple[str, str], list[_Raw]]:
        """(container that selects, its options). A combo box keeps its options in a child
        menu or list (GTK, Chromium, Qt), or deeper, in a list in the viewport of a scroll pane
        in a menu (Java); lists and tab lists hold them directly."""
        children = await self._children(ref)
        raws = [r for r in await asyncio.gather(*(self._read(c) for c in children)) if r is not None]
        inner = ref
        for _ in range(OPTION_WRAPPERS):
            held = [r for r in raws if role_of(r.role_number)[1] != "ScrollBar"]
            if len(held) != 1 or role_of(held[0].role_number)[1] not in OPTION_HOLDERS:
                break
            inner = held[0].ref
            raws = [r for r in await asyncio.gather(*(self._read(c) for c in await self._children(inner)))
                    if r is not None]
        if inner != ref:
            own = await self._maybe(ref[0], ref[1], ACCESSIBLE, "GetInterfaces")
            if not (own and IFACE + "Selection" in own[0]):
                return inner, raws
        return ref, raws

    def chooses_silently(self, handle: str) -> bool:
        """A combo box of a toolkit whose AT-SPI choice does not reach the app: Firefox shows a
        web page's option chosen through Selection (or the option's own action) without firing
        the page's change event; Java Swing shows it and reverts it when the list closes (jEdit
        never switched buffers); Qt's options offer only "toggle", which marks the option and
        leaves the box as it was (Qt 5 and 6)."""
        async def silent() -> bool:
            ref = await self._resolve(handle)
            if await self._toolkit(ref[0]) not in SILENT_CHOICE_TOOLKITS:
                return False
            return (await self._role(ref))[1] == "ComboBox"

        return self._run(silent())

    def named_below(self, handles: list[str], name: str, limit: int) -> list[str]:
        """A breadth-first walk below `handles` that reads every element, shown or not (a
        state's walk does not expand what does not show: a web page's paragraphs below the
        fold), a level at a time, up to `limit` elements. An element that declares more than
        HUGE_CHILD_COUNT children (a sheet's 2**31 cells) is not entered: a name that is a cell's
        address ("Z200") is asked of it by its place instead."""
        async def walk() -> list[str]:
            level = [split_handle(h) for h in handles if CELL_MARK not in h]
            counts = await asyncio.gather(*(self._maybe(r[0], r[1], PROPERTIES, "Get", "ss", [ACCESSIBLE, "ChildCount"])
                                            for r in level))
            found = await self._cells_named(level, counts, name)
            # a spreadsheet declares 2**31 cells: asking for them never ends (see `_snapshot`)
            level = [r for r, c in zip(level, counts) if c and 0 < int(c[0].value) <= HUGE_CHILD_COUNT]
            read = 0
            while level and read < limit:
                kids = [kid for got in await asyncio.gather(*(self._children(r) for r in level)) for kid in got]
                kids = kids[:max(0, limit - read)]
                read += len(kids)
                props = await asyncio.gather(*(self._maybe(k[0], k[1], PROPERTIES, "Get", "ss", [ACCESSIBLE, "Name"])
                                               for k in kids))
                counts = await asyncio.gather(*(self._maybe(k[0], k[1], PROPERTIES, "Get", "ss",
                                                            [ACCESSIBLE, "ChildCount"]) for k in kids))
                found += [k[0] + k[1] for k, p in zip(kids, props) if p and " ".join(str(p[0].value).split()) == name]
                found += await self._cells_named(kids, counts, name)
                level = [k for k, c in zip(kids, counts) if c and 0 < int(c[0].value) <= HUGE_CHILD_COUNT]
            return list(dict.fromkeys(found))

        return self._run(walk())

    def text_below(self, handles: list[str], text: str, limit: int) -> tuple[list[TextMatch], bool]:
        """Elements below `handles` whose text holds `text`, shown or not (`table_search`): a
        sheet's used area through its Table interface, anything else walked up to `limit`
        elements. True with them when a budget cut the search short."""
        async def search() -> tuple[list[TextMatch], bool]:
            refs = [split_handle(h) for h in handles if CELL_MARK not in h]
            counts = await asyncio.gather(*(self._maybe(r[0], r[1], PROPERTIES, "Get", "ss", [ACCESSIBLE, "ChildCount"])
                                            for r in refs))
            sheets = [r for r, c in zip(refs, counts) if c and int(c[0].value) >= SHEET_CELLS]
            others = [r for r in refs if r not in sheets]
            found: list[TextMatch] = []
            cut = False
            if others:
                found, cut, below = await table_search.walk_matches(self, others, text, limit, HUGE_CHILD_COUNT,
                                                                    SHEET_CELLS)
                sheets += below
            for sheet in dict.fromkeys(sheets):
                matches, short = await table_search.sheet_matches(self, sheet, text)
                found, cut = found + matches, cut or short
            return list({m.handle: m for m in found}.values()), cut

        return self._run(search())

    async def _cells_named(self, refs: list[tuple[str, str]], counts: list[Any], address: str) -> list[str]:
        """The cells named `address` of those of `refs` that declare over HUGE_CHILD_COUNT children."""
        huge = [r for r, c in zip(refs, counts) if c and int(c[0].value) > HUGE_CHILD_COUNT]
        return [cell for cell in await asyncio.gather(*(self._cell_named(r, address) for r in huge)) if cell]

    async def _cell_named(self, table: tuple[str, str], address: str) -> str | None:
        """The handle of a spreadsheet's cell by its address ("Z200"), shown or not: the table's
        cell at that place, if it is named so (a table whose cells are not named by address has
        no such cell)."""
        address = address.strip().upper()  # "b12" is meant as B12
        place = _place(address)
        if place is None:
            return None
        cell = _ref_of(await self._maybe(table[0], table[1], IFACE + "Table", "GetAccessibleAt", "ii", list(place)))
        if cell is None:
            return None
        name = await self._maybe(cell[0], cell[1], PROPERTIES, "Get", "ss", [ACCESSIBLE, "Name"])
        if not name or str(name[0].value).replace("$", "") != address.replace("$", ""):
            return None
        return f"{table[0]}{table[1]}{CELL_MARK}{place[0]},{place[1]}"

    @staticmethod
    def is_sheet_cell(handle: str) -> bool:
        """A spreadsheet's cell asked of its table by place (`_resolve`): made on demand."""
        return CELL_MARK in handle

    def cursor_missed(self, handle: str) -> str | None:
        """See `Backend.cursor_missed` (`sheet_cursor.missed`)."""
        async def missed() -> str | None:
            ref = await self._resolve(handle)
            sheet = await self._parent(ref)
            if sheet is None or not await self._is_sheet(sheet):
                return None
            return await sheet_cursor.missed(self, sheet, ref)

        return self._run(missed())

    def scroll_into_view(self, handle: str) -> bool:
        """Component.ScrollTo (AT-SPI 2.30): Chromium and Firefox scroll their pages, and some
        toolkits their lists; others answer false or do not know the call."""
        async def scroll() -> bool:
            ref = await self._resolve(handle)
            done = await self._maybe(ref[0], ref[1], IFACE + "Component", "ScrollTo", "u", [SCROLL_ANYWHERE])
            return bool(done and done[0])

        return self._run(scroll())

    def keeps_menu_open(self, handle: str) -> bool:
        """A menu item of Qt (its "Press" calls QAction::trigger, which never closes the menu) or
        of Java Swing (its "click" is AbstractButton.doClick, which leaves the menu path
        selected) — seen on featherpad, SpeedCrunch and jEdit — unless the Java item is in a
        menu bar's menu, which `_perform` closes. GTK closes its menu itself."""
        async def kept() -> bool:
            ref = await self._resolve(handle)
            toolkit = await self._toolkit(ref[0])
            if toolkit not in MENU_KEPT_OPEN_TOOLKITS:
                return False
            if (await self._role(ref))[1] != "MenuItem":
                return False
            # Java's menu bar closes its menus when asked (`_perform`); a context menu has no bar
            return toolkit != JAVA or await self._menu_bar_of(ref) is None

        return self._run(kept())

    def sets_value_silently(self, handle: str) -> bool:
        """A Gecko spin button (a web page's number field): Value.CurrentValue changes the box
        and fires no input event; Chromium's does, and so do Gecko's sliders."""
        async def silent() -> bool:
            ref = await self._resolve(handle)
            if await self._toolkit(ref[0]) != "gecko":
                return False
            return (await self._role(ref))[1] == "Spinner"

        return self._run(silent())

    def option_names(self, handle: str) -> list[str]:
        async def names() -> list[str]:
            _, raws = await self._options(await self._resolve(handle))
            return [r.name for r in raws]

        return self._run(names())

    def choice_open(self, handle: str) -> bool:
        """Expanded, where the box says so; Qt 5's says neither expanded nor collapsed, and
        there the open list is the one with an option focused."""
        async def is_open() -> bool:
            ref = await self._resolve(handle)
            words = await self._maybe(ref[0], ref[1], ACCESSIBLE, "GetState")
            states = states_of(list(words[0])) if words else frozenset()
            if "expanded" in states or {"collapsed", "expandable"} & states:
                return "expanded" in states
            _, raws = await self._options(ref)
            return any(raw.states and raw.states[0] & FOCUSED_BIT for raw in raws)

        return self._run(is_open())

    async def _choose(self, ref: tuple[str, str], option: str) -> str:
        """Select the option named `option`: through Selection where the container has it,
        else through the option's own action."""
        container, raws = await self._options(ref)
        names = [r.name for r in raws]
        index = option_index(names, option)
        if index is None:
            raise no_option(option, names)
        ifaces = await self._maybe(container[0], container[1], ACCESSIBLE, "GetInterfaces")
        if ifaces and IFACE + "Selection" in ifaces[0]:
            try:
                return await self._select_child(container, index)
            except (ActionFailed, DBusCallError):
                pass
        return await self._do_action(raws[index].ref, ("select", *INVOKE_ACTIONS))

    async def _chosen(self, ref: tuple[str, str], name: str = "") -> str | None:
        """The name of a combo box's chosen option (Chromium names the box after its label). Qt
        selects no option in its list; it names the box by its choice: its `name` when that is
        one of the options."""
        container, options = await self._options(ref)
        chosen = await self._maybe(container[0], container[1], IFACE + "Selection", "GetSelectedChild", "i", [0])
        if not chosen:
            return name if name and any(o.name == name for o in options) else None
        named = await self._maybe(chosen[0][0], chosen[0][1], PROPERTIES, "Get", "ss", [ACCESSIBLE, "Name"])
        return str(named[0].value) if named else None


async def _cancel_pending() -> None:
    tasks = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)


def _gtk4_normalized(raw: _Raw, states: frozenset[str]) -> tuple[frozenset[str], str]:
    """GTK 4.8's states and names in the words other toolkits use: it never says SHOWING
    below the window (VISIBLE is set on what is mapped), says SENSITIVE without ENABLED,
    names an element without a label after its class ("GtkMenuButton", "AdwGizmo"), and
    names a dialog's buttons twice over ("Save Save", "Cancel Cancel": its label, then its
    label's label)."""
    extra = set()
    if "visible" in states:
        extra.add("showing")
    if raw.states and raw.states[0] & SENSITIVE_BIT:
        extra.add("enabled")
    return states | extra, _gtk4_name(raw.name)


def _gtk4_name(name: str) -> str:
    """A GTK 4.8 name in other toolkits' words (see `_gtk4_normalized`)."""
    name = "" if GTK4_CLASS_NAME.match(name) else name
    half = len(name) // 2
    if len(name) % 2 and name[half] == " " and name[:half] == name[half + 1:]:
        name = name[:half]
    return name


def _usable_names(names: tuple[str, ...] | list[str]) -> bool:
    """Are GetActions' names real? Chromium leaves them empty, and Firefox puts its key
    binding (";;") in every field; GetName answers right in both."""
    return all(n and ";" not in n for n in names)


FOCUS_SETTLE = 0.5  # s an editable given the focus through the tree may take to say it has it
HOLDER_DEPTH = 4  # ancestors looked at for the editable that holds an element (a section holds paragraphs)
FOCUS_CHILDREN = 8  # children looked at for the keyboard focus (a combo box's entry); more: a container
OTHER_PROCESS_SLACK = 200  # px (four edges summed) another process's frame may lie from the window: decorations


def _one_frame(alike: list[_Raw], title: str, active: bool | None, rank: tuple[int, int] | None) -> str:
    """The one of the frames that score best for a window. Two windows of an app may be alike
    in title and place (a second "Twin" window opened over the first); the first frame was
    read for both, so `state` of the window in front listed the one behind, and a click on its
    id pressed a button behind it. The window's frame is the one active as the window is;
    where the app lists its windows in the order they were made (as many as there are X
    windows alike), it must also be the one at the window's place in that order: an app may
    mark the frame active a moment after the window became so. Otherwise nothing is guessed."""
    if len(alike) == 1:
        return alike[0].ref[0] + alike[0].ref[1]
    by_state = [raw for raw in alike if active is not None and ("active" in states_of(raw.states)) == active]
    by_order = alike[rank[0]] if rank is not None and rank[1] == len(alike) else None
    if len(by_state) == 1 and (by_order is None or by_order is by_state[0]):
        return by_state[0].ref[0] + by_state[0].ref[1]
    raise NotFound(f'{len(alike)} windows of the app are titled "{title}" at the same place, and which one\'s '
                   "elements are this window's cannot be told", hint="focus the window (`winctl focus ID`): "
                   "the active one is told apart; or move one (`winctl window move ...`)")


def _frame_score(raw: _Raw, title: str, rect: Rect | None, own: bool = False) -> float | None:
    """Lower is better; None when this top-level element cannot be the window.

    A frame of the window's own process (`own`) is never ruled out by title or place: both
    change while an app settles (jEdit maps "jEdit - Untitled-1", then loads its file and
    moves), and the X window we hold may be older than the frame. Another process's frame
    must carry the window's title at about its place (a window whose pid the app does not
    share: a sandbox's pid namespace): its place alone is no evidence, since a window of an
    app that is not on the bus (xmessage, a Java app without its bridge) often lies over
    another app's, and every maximized window has the same place — `state` listed the other
    app's elements as the window's. GTK 4.8 gives its file dialogs the role "filler": a top-level element of
    the window's own process named as the window is one (else `state` read the app's main
    window under the dialog's title). A name counts only for a frame no bigger than the window
    (a message titled as its app or as the dialog under it is not that bigger frame)."""
    native, ctype = role_of(raw.role_number)
    if ctype not in ("Window", "Dialog", "Alert") and native not in ("frame", "window", "dialog") \
            and not (own and title and raw.name == title):
        return None
    if not own and not (title and title in raw.name):
        return None
    sized = _no_bigger(raw.extents, rect)
    score = 0.0 if raw.name == title and sized else (1000.0 if title and title in raw.name and sized else 5000.0)
    if rect is not None and raw.extents is not None:
        x, y, w, h = raw.extents
        apart = abs(x - rect.left) + abs(y - rect.top) + abs(w - rect.width) + abs(h - rect.height)
        if not own and apart > OTHER_PROCESS_SLACK:
            return None  # another window of that title, elsewhere
        score += apart
    elif rect is not None:
        score += 2000.0
    if score >= 5000.0 + 2000.0 and not own:
        return None
    return score


def _no_bigger(extents: tuple[int, int, int, int] | None, rect: Rect | None) -> bool:
    """Whether a frame is no bigger than the window (give or take its decorations). An app may
    report it smaller (logical pixels: GTK under GDK_SCALE, Java at uiScale 2), never much
    bigger; unknown on either side: taken as so."""
    if extents is None or rect is None:
        return True
    return extents[2] <= rect.width + OTHER_PROCESS_SLACK and extents[3] <= rect.height + OTHER_PROCESS_SLACK


def _stalled(doing: str, stall: float | None, timeout: float, slow: str = "") -> AppBusy:
    """The error for a read the app stopped answering: says which limit hit and what was asked.

    No reply at all for `stall` seconds means the app's main loop is blocked (a long job or a
    modal dialog run from a handler); replies that keep coming but never finish mean the
    app is slow, which is a different thing to tell an agent.
    """
    if stall is not None:
        return AppBusy(f"the app stopped answering {doing}: no reply for {stall:g} s",
                       hint="it is busy or blocked (a long operation, or a modal dialog): "
                            "look with `winctl screenshot`, wait, or answer a dialog with `winctl keys Enter` / "
                            "`Escape`, then run `winctl state`")
    return AppBusy(f"the app kept answering {doing} but did not finish within {timeout:g} s{slow}",
                   hint="it is slow: try again, or read a smaller window")


def _send_grace(seconds: float) -> float:
    """How long after a read's time budget ran out the elements being read may still send calls."""
    return max(1.0, seconds)


def _state_seconds() -> float:
    """The time budget of one tree read (WINCTL_STATE_SECONDS, else STATE_SECONDS)."""
    text = os.environ.get("WINCTL_STATE_SECONDS", "")
    try:
        seconds = float(text) if text else STATE_SECONDS
    except ValueError:
        raise InvalidInput(f"WINCTL_STATE_SECONDS={text!r} is not a number of seconds",
                          hint="e.g. WINCTL_STATE_SECONDS=10") from None
    if not seconds > 0:
        raise InvalidInput(f"WINCTL_STATE_SECONDS={text!r} must be more than 0", hint="e.g. 10")
    return seconds


def _env_int(name: str, default: int) -> int:
    """A positive whole number from the environment, or a clear error."""
    text = os.environ.get(name, "")
    if not text:
        return default
    try:
        value = int(text)
    except ValueError:
        raise InvalidInput(f"{name}={text!r} is not a whole number", hint=f"e.g. {name}=5000") from None
    if value <= 0:
        raise InvalidInput(f"{name}={text!r} must be more than 0", hint=f"e.g. {name}=5000")
    return value


def _defunct_only(raw: _Raw) -> bool:
    """DEFUNCT and no other state, from an element that still answers (LibreOffice does this)."""
    return bool(raw.states) and raw.states[0] == DEFUNCT_BIT and not any(raw.states[1:])


def _text_block(raw: _Raw, native: str, frame: tuple[int, int, int, int] | None = None) -> bool:
    """An unnamed section with no children, in the window (`frame`): Firefox keeps a <div>'s
    text in the section itself (Chromium gives it a text child), and it was listed as nothing.
    (Those out of view are not read: a long page has hundreds, all "showing".)"""
    return native == "section" and raw.child_count == 0 and not raw.name and \
        (frame is None or _visible_area(raw.extents, frame) is not None)


def _makes_children_on_demand(raw: _Raw) -> bool:
    """MANAGES_DESCENDANTS, or more children than a window can show: never list them all."""
    first = raw.states[0] if raw.states else 0
    return bool(first & MANAGES_DESCENDANTS_BIT) or raw.child_count > HUGE_CHILD_COUNT


def _extents(area: tuple[int, int, int, int]) -> tuple[int, int, int, int]:
    """(x, y, width, height) of a (left, top, right, bottom) area."""
    return area[0], area[1], area[2] - area[0], area[3] - area[1]


def _visible_area(extents: tuple[int, int, int, int] | None, frame: tuple[int, int, int, int] | None
                  ) -> tuple[int, int, int, int] | None:
    """(left, top, right, bottom) of a node's extents inside its window, or None if off it."""
    if extents is None or extents[0] == HIDDEN_EXTENT or extents[2] <= 0 or extents[3] <= 0:
        return None
    left, top, right, bottom = extents[0], extents[1], extents[0] + extents[2], extents[1] + extents[3]
    if frame is not None and frame[0] != HIDDEN_EXTENT and frame[2] > 0 and frame[3] > 0:
        left, top = max(left, frame[0]), max(top, frame[1])
        right, bottom = min(right, frame[0] + frame[2]), min(bottom, frame[1] + frame[3])
    if right <= left or bottom <= top:
        return None
    return left, top, right, bottom


def _moved(node: Node, dx: int, dy: int) -> Node:
    assert node.rect is not None
    return dataclasses.replace(node, rect=node.rect.moved(dx, dy))


def pane_shift(pane: Rect | None, holder: Rect | None) -> tuple[int, int] | None:
    """How far a root pane the size of its holder lies from it; None where it is at its place,
    or is not its size (then it is no stand-in for it)."""
    if pane is None or holder is None or (pane.left, pane.top) == (holder.left, holder.top):
        return None
    if abs(pane.width - holder.width) > 2 or abs(pane.height - holder.height) > 2:
        return None
    return holder.left - pane.left, holder.top - pane.top


def _ref_of(reply: list[Any] | None) -> tuple[str, str] | None:
    """The (bus name, path) in a reply that returns one accessible, None for AT-SPI's null object."""
    if not reply or not reply[0]:
        return None
    dest, path = reply[0][0], reply[0][1]
    if not dest or not path or path == NULL_PATH:
        return None
    return str(dest), str(path)


def _cells_to_read(grid: tuple[int, int, int, int], limit: int,
                   columns: list[int] | None = None) -> list[tuple[int, int]]:
    """Which cells of the visible grid to read for real: the first row and column (they give
    every row's and column's place), then whole rows from the top while `limit` allows —
    of those `columns` only (none: the first row and column alone)."""
    r0, c0, r1, c1 = grid
    chosen = [(r0, c) for c in range(c0, c1 + 1)] + [(r, c0) for r in range(r0 + 1, r1 + 1)]
    chosen = chosen[:limit]
    wanted = range(c0 + 1, c1 + 1) if columns is None else [c for c in columns if c != c0]
    for r in range(r0 + 1, r1 + 1):
        row = [(r, c) for c in wanted]
        if len(chosen) + len(row) > limit:
            break
        chosen.extend(row)
    return chosen


def _extra(raw: _Raw, native: str) -> dict[str, str]:
    """A node's `extra`: a terminal's screen; a sheet cell's place, from its handle ("#cell:R,C"),
    a list's cell's from its grid read (`_Raw.place`); a table's row count when its grid was read;
    GTK's file chooser, whose location field shows on ctrl+L (its "Show location" action)."""
    if native == "terminal":
        return {TERMINAL: native}
    if native == "file-chooser" or "show location" in (a.lower() for a in raw.actions):
        return {REVEALS_PATH: "ctrl+l"}
    _, mark, place = raw.ref[1].partition(CELL_MARK)
    if not mark and raw.place is not None:
        place = f"{raw.place[0]},{raw.place[1]}"
    extra = {CELL_PLACE: place} if place else {}
    if raw.rows is not None:
        extra[TABLE_ROWS] = str(raw.rows)
    return extra


def _rows_placed(nodes: list[Node]) -> None:
    """Cells of a table laid out as rows (a web page's <table>: table > row > cell), not placed
    yet, get their (row, column) from where they sit, and the table its number of rows (as
    read: header rows too): no call to the app. A cell spanning columns shifts those after it."""
    counts: dict[int, int] = {}  # a table's index -> its rows so far
    rows: dict[int, list[int]] = {}  # a row's index -> [its row number, its cells so far]
    for i, node in enumerate(nodes):
        parent = node.parent
        if parent is None or CELL_PLACE in node.extra:
            continue
        if node.role == "Row" and nodes[parent].role == "Table":
            rows[i] = [counts.get(parent, 0), 0]
            counts[parent] = rows[i][0] + 1
        elif parent in rows and node.role in ("DataItem", "HeaderItem"):
            object.__setattr__(node, "extra", {**node.extra, CELL_PLACE: f"{rows[parent][0]},{rows[parent][1]}"})
            rows[parent][1] += 1
    for table, count in counts.items():
        if TABLE_ROWS not in nodes[table].extra:
            object.__setattr__(nodes[table], "extra", {**nodes[table].extra, TABLE_ROWS: str(count)})


def _virtual_cell(table: tuple[str, str], row: int, col: int, grid: tuple[int, int, int, int],
                  read: dict[tuple[int, int], _Raw]) -> _Raw | None:
    """A cell placed from its row's and column's real cells: address and rectangle, no text.

    Only for tables whose cells are named by address ("B12"), so the name can be composed
    from the column's letters and the row's number; states and interfaces are its
    neighbours' (less focus and selection, which are the real cell's own).
    """
    r0, c0 = grid[0], grid[1]
    column, line = read.get((r0, col)), read.get((row, c0))
    if column is None or line is None or column.extents is None or line.extents is None:
        return None
    letters, digits = ADDRESS.match(column.name), ADDRESS.match(line.name)
    if letters is None or digits is None:
        return None
    states = list(line.states)
    if states:
        states[0] &= ~(FOCUSED_BIT | 1 << 23)  # FOCUSED, SELECTED
    x, w = column.extents[0], column.extents[2]
    y, h = line.extents[1], line.extents[3]
    return _Raw(ref=(table[0], f"{table[1]}{CELL_MARK}{row},{col}"), name=letters.group(1) + digits.group(2),
                description="", child_count=0, automation_id="", role_number=line.role_number, states=states,
                interfaces=line.interfaces, extents=(x, y, w, h))


def _place(address: str) -> tuple[int, int] | None:
    """0-based (row, column) of a spreadsheet address: "C4" -> (3, 2); None for other names."""
    found = ADDRESS.match(address.strip())
    if found is None:
        return None
    col = 0
    for letter in found.group(1):
        col = col * 26 + ord(letter) - ord("A") + 1
    return int(found.group(2)) - 1, col - 1


def _address(row: int, col: int) -> str:
    """A spreadsheet address from 0-based (row, column): (3, 2) -> "C4", (0, 26) -> "AA1"."""
    letters = ""
    col += 1
    while col > 0:
        col, rest = divmod(col - 1, 26)
        letters = chr(ord("A") + rest) + letters
    return f"{letters}{row + 1}"
