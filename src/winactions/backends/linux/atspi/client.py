"""AtspiClient: the Linux backend's one door to AT-SPI, a synchronous facade over the package.

Each method runs its work on the bus's loop (`bus.synchronous`, or `Bus.run` where the limits
depend on the call) and returns once the app has answered; an app that stops answering is
AppBusy, saying what was asked. The work itself lives in the modules named in each method.
"""

from __future__ import annotations

import concurrent.futures
from collections.abc import Callable

from winactions import settings
from winactions.backends.base import TextMatch
from winactions.backends.linux import sheet_cursor
from winactions.backends.linux.atspi import actions, element, frames, grid, search, text, tree
from winactions.backends.linux.atspi.actions import ACTION_STALL_SECONDS, NAME_STALL_SECONDS
from winactions.backends.linux.atspi.budget import READ_GRACE, send_grace, state_seconds
from winactions.backends.linux.atspi.bus import Bus, DBusCallError, synchronous
from winactions.backends.linux.atspi.live import LiveTree
from winactions.backends.linux.atspi.refs import ACCESSIBLE, APP_ROOT, CELL_MARK, Ref, split_handle
from winactions.backends.linux.atspi.toolkits import gtk4_name
from winactions.backends.linux.atspi.walk import walk
from winactions.errors import ActionFailed, AppBusy, NotFound, StaleElement
from winactions.model import Node, Operation, Rect, Snapshot

SENT_WHILE_BUSY = (Operation.INVOKE, Operation.TOGGLE, Operation.EXPAND, Operation.COLLAPSE)


class AtspiClient:
    """One connection to the accessibility bus (`bus`), and everything the backend asks of it.

    Handles are those `snapshot` gives; a sheet cell's (`is_sheet_cell`) is resolved to the
    real cell only when acted on, and must still be at its place (`grid.resolve`). With
    `live`, the client hears the apps' change events and `snapshot` reads again only what
    changed (`live.LiveTree`).
    """

    def __init__(self, address: str | None = None, max_in_flight: int = 64, live: bool = False) -> None:
        self.bus = Bus(address, max_in_flight)
        self._live_mode = live
        self._live = LiveTree(self.bus)
        if live:
            self.bus.run(self._live.watch(), timeout=15)

    # -- the connection ------------------------------------------------------------------------
    @property
    def bus_note(self) -> str:
        """Why the bus read may not be this display's ("" when it is)."""
        return self.bus.note

    @property
    def last_read(self) -> str:
        """Live mode: how the last snapshot was made: "kept", "changes" or "whole" ("" before one)."""
        return self._live.last_read

    @property
    def connected(self) -> bool:
        """Is the bus connection still up? (A daemon can outlive its desktop.)"""
        return self.bus.connected

    def bus_id(self) -> str:
        """The accessibility bus's id (`Bus.bus_id`)."""
        return self.bus.bus_id()

    def close(self) -> None:
        """Disconnect and stop the loop thread (`Bus.close`); never fails."""
        self.bus.close()

    async def _ref(self, handle: str) -> Ref:
        return await grid.resolve(self.bus, handle)

    # -- reading -------------------------------------------------------------------------------
    def snapshot(self, root_handle: str, *, max_nodes: int = 20000) -> Snapshot:
        """The window's tree (`walk.walk`), within a node budget (the smaller of `max_nodes` and
        WINCTL_MAX_NODES) and a time budget (WINCTL_STATE_SECONDS): what the budget leaves out
        is said (`Snapshot.truncation`); an app that does not answer in time (see READ_GRACE,
        SLOW_GAP) is busy (AppBusy), and one that quits during the read is closed
        (WindowClosed) — never a partial list as if whole."""
        root = split_handle(root_handle)
        max_nodes = min(max_nodes, settings.MAX_NODES.read())
        seconds = state_seconds()
        doing = "while its accessibility tree was read"
        slow = (
            f": it answers too slowly for the {seconds:g} s time budget of a read (WINCTL_STATE_SECONDS gives it more)"
        )
        limit = seconds + send_grace(seconds) + READ_GRACE
        if self._live_mode:
            return self.bus.run(
                self._live.read(root, max_nodes), timeout=limit, doing=doing, slow=slow, patience=seconds
            )
        return self.bus.run(
            walk(self.bus, root, max_nodes), timeout=limit, doing=doing, slow=slow, patience=seconds
        ).snapshot

    @synchronous()
    async def refresh(self, handle: str) -> Node | None:
        """The element read anew (`element.refresh`); None when it is gone."""
        return await element.refresh(self.bus, await self._ref(handle))

    @synchronous()
    async def read_text(self, handle: str) -> str:
        """What the element says (`text.read_text`)."""
        return await text.read_text(self.bus, await self._ref(handle))

    @synchronous()
    async def screen(self, handle: str) -> tuple[str, int | None] | None:
        """A terminal's text and caret offset (`text.screen`); None when it has no text."""
        return await text.screen(self.bus, await self._ref(handle))

    @synchronous()
    async def option_names(self, handle: str) -> list[str]:
        """The names of a combo box's or list's options, in order (`element.options`)."""
        _, raws = await element.options(self.bus, await self._ref(handle))
        return [r.name for r in raws]

    @synchronous()
    async def choice_open(self, handle: str) -> bool:
        """Is the combo box's list open? (`actions.choice_open`)"""
        return await actions.choice_open(self.bus, await self._ref(handle))

    @synchronous()
    async def named_below(self, handles: list[str], name: str, limit: int) -> list[str]:
        """Elements below `handles` named `name`, shown or not (`search.named_below`)."""
        return await search.named_below(self.bus, handles, name, limit)

    @synchronous()
    async def text_below(self, handles: list[str], text: str, limit: int) -> tuple[list[TextMatch], bool]:
        """Elements below `handles` whose text holds `text`, and whether a budget cut the
        search short (`search.text_below`)."""
        return await search.text_below(self.bus, handles, text, limit)

    @staticmethod
    def is_sheet_cell(handle: str) -> bool:
        """A spreadsheet's cell asked of its table by place (`grid.resolve`): made on demand."""
        return CELL_MARK in handle

    # -- text and focus --------------------------------------------------------------------------
    @synchronous()
    async def select_text(self, handle: str, start: int, end: int) -> bool:
        """Select characters `start` to `end` (`text.select_text`); False where refused."""
        return await text.select_text(self.bus, await self._ref(handle), start, end)

    @synchronous()
    async def text_selection(self, handle: str) -> tuple[int, int] | None:
        """The element's first selected range (`text.selection`); None when none or unreadable."""
        return await text.selection(self.bus, await self._ref(handle))

    @synchronous()
    async def set_caret(self, handle: str, offset: int) -> bool:
        """Put the caret at `offset` (`text.set_caret`); False where refused."""
        return await text.set_caret(self.bus, await self._ref(handle), offset)

    @synchronous()
    async def focus_holder(self, handle: str) -> bool:
        """Focus the editable that holds the element (`text.focus_holder`); True once it has it."""
        return await text.focus_holder(self.bus, await self._ref(handle))

    @synchronous()
    async def holds_focus(self, handle: str) -> bool | None:
        """See `Backend.holds_focus` (`text.holds_focus`); None when the element is gone or a
        cell is no longer where it was."""
        try:
            return await text.holds_focus(self.bus, await self._ref(handle))
        except NotFound:
            return None

    @synchronous()
    async def cursor_missed(self, handle: str) -> str | None:
        """See `Backend.cursor_missed` (`sheet_cursor.missed`); None outside a sheet."""
        ref = await self._ref(handle)
        sheet = await tree.parent(self.bus, ref)
        if sheet is None or not await tree.is_sheet(self.bus, sheet):
            return None
        return await sheet_cursor.missed(grid.HelperCalls(self.bus), sheet, ref)

    # -- windows and places ----------------------------------------------------------------------
    @synchronous()
    async def applications(self) -> list[tuple[str, str, int | None]]:
        """(bus name, application name, pid) of every app on the accessibility bus."""
        return await frames.applications(self.bus)

    @synchronous()
    async def find_frame(
        self,
        pid: int | None,
        title: str,
        rect: Rect | None,
        active: bool | None = None,
        rank: tuple[int, int] | None = None,
    ) -> str | None:
        """The handle of the top-level accessible that is this window, if any (`frames.find_frame`)."""
        return await frames.find_frame(self.bus, pid, title, rect, active, rank)

    @synchronous()
    async def menu_windows(self, frame: str, menus: list[Rect], scale: int = 1) -> list[tuple[str, Rect]]:
        """The frame's app's top-level windows that show `menus`, each with its menu
        (`frames.menu_windows`)."""
        return await frames.menu_windows(self.bus, split_handle(frame)[0], menus, scale)

    @synchronous()
    async def app_frames(self, handle: str) -> tuple[int | None, list[Rect]]:
        """The pid of this element's app and its windows' rectangles as it reports them: what
        places its elements on the screen (GTK 4 reports them inside its window; GTK and Java
        on a HiDPI display in logical pixels)."""
        return await frames.app_frames(self.bus, split_handle(handle)[0])

    @synchronous(doing="while the app was asked what lies at a point")
    async def element_over(self, handle: str, x: int, y: int) -> tuple[str, str] | None:
        """(control type, name) of what a click at (x, y) reaches instead of the element, if
        anything (`frames.element_over`)."""
        return await frames.element_over(self.bus, split_handle(handle), x, y)

    @synchronous(doing="while the element's place was looked for")
    async def placed_around(self, handle: str, roles: frozenset[str], toolkits: frozenset[str]) -> list[Rect]:
        """The reported places of the element and its ancestors of `roles`, nearest first, in
        apps of `toolkits` (`frames.placed_around`)."""
        return await frames.placed_around(self.bus, await self._ref(handle), roles, toolkits)

    @synchronous(doing="while the element's parents were read")
    async def lineage(self, handle: str) -> list[Node]:
        """The element and its parents up to its window, outermost first (`frames.lineage`):
        the part of a snapshot that places the element."""
        return await frames.lineage(self.bus, await self._ref(handle))

    @synchronous(doing="while LibreOffice's window content was placed")
    async def root_pane_shift(self, handle: str) -> tuple[int, int] | None:
        """How far LibreOffice reports the root pane around this element from where it is
        (`frames.root_pane_shift`); None for other apps."""
        return await frames.root_pane_shift(self.bus, await self._ref(handle))

    # -- the app ---------------------------------------------------------------------------------
    @synchronous()
    async def toolkit(self, handle: str) -> str:
        """The element's app's toolkit name, lower case ("gtk4", "qt", "gecko"...), asked once per app."""
        return await self.bus.toolkits.of(split_handle(handle)[0])

    @synchronous()
    async def pid(self, handle: str) -> int | None:
        """The process of the element's app, as the bus knows it."""
        return await tree.pid(self.bus, split_handle(handle)[0])

    def answering(self, handle: str) -> concurrent.futures.Future[None]:
        """A request to the element's app (its root's role), done once the app answers it, an
        error included. An app takes its requests in order: after an action, the answer means
        the action's handler has returned."""
        dest = split_handle(handle)[0]

        async def ask() -> None:
            await self.bus.maybe(dest, APP_ROOT, ACCESSIBLE, "GetRole")

        return self.bus.submit(ask())

    # -- acting ----------------------------------------------------------------------------------
    def perform(self, handle: str, operation: Operation, argument: str | float | None = None) -> str:
        """Do `operation` through AT-SPI (`actions.perform`) and return the method used. An
        action whose handler is still running after ACTION_STALL_SECONDS is reported as sent;
        an element gone is StaleElement; an app's refusal is ActionFailed with a hint to use
        the mouse or keyboard."""
        try:
            return self._perform(handle, operation, argument)
        except AppBusy:
            if operation in SENT_WHILE_BUSY:
                # delivered, and its handler is still running (typically a modal dialog it opened)
                return f"action:{operation.value} (sent; the app is still handling it)"
            raise
        except DBusCallError as refused:
            # GTK 4.8 answers GrabFocus with NotSupported; an element may go between two calls
            if refused.name.endswith("UnknownObject"):
                raise StaleElement("the element is gone", hint="run `winctl state`") from None
            raise ActionFailed(
                f"the app does not support {operation.value} on this element ({refused.name})",
                hint="try it with the mouse or keyboard (--via input)",
            ) from None

    @synchronous(stall=ACTION_STALL_SECONDS)
    async def _perform(self, handle: str, operation: Operation, argument: str | float | None) -> str:
        return await actions.perform(self.bus, await self._ref(handle), operation, argument)

    def name_watch(self, handle: str) -> Callable[[], tuple[str | None, list[str]]]:
        """`Backend.name_watch`: the name read as `refresh` reads it; the renames are the app's
        accessible-name change events since the watch was made (a reply comes after every event
        the app sent before it, so once a read returns they are all in); heard in live mode only
        (registering for them from a one-shot process kept a GTK app's modal dialog from its keys)."""
        dest, path = self.bus.run(grid.resolve(self.bus, handle))
        log = self._live.log(dest)
        mark = log.count

        def read() -> tuple[str | None, list[str]]:
            # an app still in the press's handler is busy (NAME_STALL_SECONDS)
            node = self.bus.run(element.refresh(self.bus, (dest, path)), stall=NAME_STALL_SECONDS)
            events = log.since(mark) or []
            gtk4 = self.bus.toolkits.known(dest) == "gtk4"
            heard = [
                gtk4_name(e.value) if gtk4 else e.value
                for e in events
                if e.path == path and e.member == "PropertyChange" and e.detail == "accessible-name"
            ]
            # a name emptied is not heard: an element without one is named by its label, as `refresh` reads it
            return (None if node is None else node.name), [name for name in heard if name]

        return read

    def await_focus_still(self, handle: str, quiet: float, limit: float) -> bool:
        """Return once the app of `handle` has moved its keyboard focus nowhere for `quiet`
        seconds (`LiveTree.focus_still`: its events, heard in live mode only), at most `limit`
        seconds; True when it was still by then, or where its events are not heard. An app in
        a modal loop is busy (AppBusy after NAME_STALL_SECONDS)."""
        if not self._live_mode:
            return True
        ref = self.bus.run(grid.resolve(self.bus, handle))
        return self.bus.run(self._live.focus_still(ref, quiet, limit), timeout=limit + 0.5, stall=NAME_STALL_SECONDS)

    @synchronous()
    async def chooses_silently(self, handle: str) -> bool:
        """A combo box whose choice made through AT-SPI does not reach the app (`actions.chooses_silently`)."""
        return await actions.chooses_silently(self.bus, await self._ref(handle))

    @synchronous()
    async def keeps_menu_open(self, handle: str) -> bool:
        """A menu item whose press leaves its menu open (`actions.keeps_menu_open`)."""
        return await actions.keeps_menu_open(self.bus, await self._ref(handle))

    @synchronous()
    async def sets_value_silently(self, handle: str) -> bool:
        """A field whose value set through AT-SPI fires no input event (`actions.sets_value_silently`)."""
        return await actions.sets_value_silently(self.bus, await self._ref(handle))

    @synchronous()
    async def scroll_into_view(self, handle: str) -> bool:
        """Scroll the element into view (`actions.scroll_into_view`); False where the toolkit cannot."""
        return await actions.scroll_into_view(self.bus, await self._ref(handle))
