"""Live mode: a window's read kept, and kept honest by the apps' change events and by probes.

A daemon keeps the tree it read and answers the next `state` from it when nothing changed;
when events name elements of the kept tree, only those (and the child lists they changed)
are read again (see atspi_events); otherwise the window is read whole.
"""

from __future__ import annotations

import asyncio
import time
from typing import TYPE_CHECKING, Any

from dbus_fast import Message, MessageType

from winactions.backends.linux.atspi import tree
from winactions.backends.linux.atspi.entries import Cached, Entry, Reuse
from winactions.backends.linux.atspi.refs import (
    ACCESSIBLE,
    APP_ROOT,
    CELL_MARK,
    DBUS,
    FOCUSED_BIT,
    PROPERTIES,
    REGISTRY,
    Ref,
    ref_of,
    split_handle,
)
from winactions.backends.linux.atspi.walk import walk
from winactions.backends.linux.atspi_events import TRUSTED, Event, EventLog, Scope, scope_of
from winactions.backends.linux.atspi_roles import IFACE, role_of
from winactions.model import Node, Snapshot

if TYPE_CHECKING:
    from winactions.backends.linux.atspi.bus import Bus

MAX_LOOKUPS = 64  # events on elements not in the kept tree whose place is looked up; more: read anew
MAX_ANCESTORS = 8  # parents asked for while looking for one in the kept tree
_OUTSIDE = ("", "")  # the place of an element in another window of the app


class LiveTree:
    """The change events of every app on a bus (once `watch` asked for them) and the last read
    of each window (`read`)."""

    def __init__(self, bus: Bus) -> None:
        self._bus = bus
        self._logs: dict[str, EventLog] = {}  # bus name -> its change events
        self._cache: dict[Ref, Cached] = {}
        self.last_read = ""  # how the last read was made: "kept", "changes" or "whole"

    def log(self, dest: str) -> EventLog:
        """The change events heard from the app at this bus name (none until `watch`)."""
        return self._logs.setdefault(dest, EventLog())

    async def focus_still(self, ref: Ref, quiet: float, limit: float) -> bool:
        """Return once the app at `ref` has sent no focus event for `quiet` seconds, at most
        `limit` seconds from now; True when it was still by then."""
        dest, path = ref
        log = self.log(dest)
        start = last_move = time.monotonic()
        mark = log.count
        while True:
            await self._bus.maybe(dest, path, ACCESSIBLE, "GetRole")  # answered after every event sent before it
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

    async def watch(self) -> None:
        """Ask every app for its change events, and log them per app."""
        self._bus.listen(self._on_message)
        for kind in ("Object", "Window", "Document"):
            await self._bus.call(*DBUS, "AddMatch", "s", [f"type='signal',interface='{IFACE}Event.{kind}'"])
        for event in ("object:", "window:", "document:"):
            await self._bus.maybe(
                REGISTRY[0], "/org/a11y/atspi/registry", IFACE + "Registry", "RegisterEvent", "sass", [event, [], ""]
            )

    def _on_message(self, message: Message) -> None:
        if message.message_type is MessageType.SIGNAL and (message.interface or "").startswith(IFACE + "Event."):
            detail = message.body[0] if message.body and isinstance(message.body[0], str) else ""
            data = getattr(message.body[3], "value", None) if len(message.body) > 3 else None
            self.log(message.sender or "").add(
                Event(
                    message.path or "",
                    message.interface or "",
                    message.member or "",
                    detail,
                    data if isinstance(data, str) else "",
                )
            )

    async def read(self, root: Ref, max_nodes: int) -> Snapshot:
        """The cached tree when nothing changed; what changed read again; else a fresh read.

        "Nothing changed" needs two proofs. Events: a call to the app is answered only
        after every event it sent before, so once it returns, the log is complete. And
        probes — the scroll bars' values and the first element of every scrolling
        container — because toolkits do not announce everything (GTK moves rows on scroll
        without a word). A read cut short by time, or of an app gone, is not kept.
        """
        start = time.perf_counter()
        log = self.log(root[0])
        cached = self._cache.get(root)
        reuse = None
        if cached is not None:
            alive, probes = await asyncio.gather(
                self._bus.maybe(root[0], root[1], ACCESSIBLE, "GetRole"),  # barrier
                _probe(self._bus, cached.snapshot),
            )
            events = log.since(cached.mark) if alive is not None else None
            if events == [] and probes == cached.probes:
                self.last_read = "kept"
                return cached.snapshot.model_copy(update={"elapsed_ms": (time.perf_counter() - start) * 1000})
            if events and probes == cached.probes and not cached.snapshot.truncated:
                reuse = await _stale(self._bus, cached, events)
        mark = log.count  # events during the read are read again next time
        read = await walk(self._bus, root, max_nodes, reuse)
        self.last_read = "whole" if reuse is None else "changes"
        if not read.snapshot.nodes or read.top is None or read.timed_out:  # its app is gone, or it was
            self._cache.pop(root, None)  # cut short by time: the next read may get all of it
            return read.snapshot
        self._cache[root] = Cached(read.snapshot, read.top, mark, await _probe(self._bus, read.snapshot))
        return read.snapshot.model_copy(update={"elapsed_ms": (time.perf_counter() - start) * 1000})


async def _stale(bus: Bus, cached: Cached, events: list[Event]) -> Reuse | None:  # noqa: C901  (one check per event scope)
    """What the events made stale in the kept tree, or None when it must be read whole."""
    index, parent_of = cached.index()
    dest = cached.top.raw.ref[0]
    trust = TRUSTED.get(bus.toolkits.known(dest))
    if trust is None:
        return None
    touched: set[Ref] = set()
    regrown: set[Ref] = set()
    unknown: set[Ref] = set()
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
    found = await asyncio.gather(*(_known_ancestor(bus, ref, index) for ref in unknown))
    if any(f is None for f in found):
        return None
    below: dict[Ref, set[Ref]] = {}  # known ancestor -> its unknown children
    for ancestor, child in (f for f in found if f is not None and f[0] != _OUTSIDE):
        if index[ancestor].kids is not None:  # not expanded: not shown, and its showing is an event
            below.setdefault(ancestor, set()).add(child)
    for ancestor, children in below.items():
        if not index[ancestor].managed:
            # LibreOffice has objects that name a parent which does not list them: a whole read never sees them
            listed = set(await tree.children(bus, ancestor))
            if not children & listed:
                continue
        touched.add(ancestor)
        regrown.add(ancestor)
    # GTK 3: focus leaves an element without a word when a menu or another window takes the
    # keyboard, so whatever had the focus is read again whenever anything changed
    touched.update(ref for ref, entry in index.items() if entry.raw.states and entry.raw.states[0] & FOCUSED_BIT)
    if trust.untold:
        touched.update(ref for ref, entry in index.items() if entry.label is not None)
        regrown.update(ref for ref, entry in index.items() if entry.managed)
    holds: set[Ref] = set()
    for ref in touched | regrown:
        while ref in parent_of and parent_of[ref] not in holds:
            ref = parent_of[ref]
            holds.add(ref)
    return Reuse(dict(index), touched, regrown, holds, places=trust.untold)


async def _known_ancestor(bus: Bus, ref: Ref, index: dict[Ref, Entry]) -> tuple[Ref, Ref] | None:
    """(the nearest ancestor the kept tree has, its child on the way there) of an element it
    does not have; the ancestor is `_OUTSIDE` for an element of another window of the app;
    None when it cannot be told."""
    for _ in range(MAX_ANCESTORS):
        reply = await bus.maybe(ref[0], ref[1], PROPERTIES, "Get", "ss", [ACCESSIBLE, "Parent"])
        if not reply:
            return None
        parent = ref_of([reply[0].value])
        if parent is None or parent[1] == APP_ROOT:
            return _OUTSIDE, ref
        if parent in index:
            return parent, ref
        ref = parent
    return None


async def _probe(bus: Bus, snapshot: Snapshot) -> list[Any]:
    """Cheap reads that change when content scrolls or the window moves."""
    nodes = snapshot.nodes
    first_children: dict[int, Node] = {}
    for n in nodes:
        if (
            n.parent is not None
            and n.parent not in first_children
            and CELL_MARK not in n.handle
            and nodes[n.parent].role in ("Table", "List", "Tree", "Document", "ScrollPane", "Viewport")
        ):
            first_children[n.parent] = n
    jobs = [bus.maybe(*split_handle(nodes[0].handle), IFACE + "Component", "GetExtents", "u", [0])]
    for n in first_children.values():
        jobs.append(bus.maybe(*split_handle(n.handle), IFACE + "Component", "GetExtents", "u", [0]))
    for n in nodes:
        if n.role == "ScrollBar":
            jobs.append(bus.maybe(*split_handle(n.handle), PROPERTIES, "Get", "ss", [IFACE + "Value", "CurrentValue"]))
    return [repr(r) for r in await asyncio.gather(*jobs)]
