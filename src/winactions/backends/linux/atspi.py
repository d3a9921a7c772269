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
import dataclasses
import os
import threading
import time
from collections.abc import Coroutine
from dataclasses import dataclass
from typing import Any, TypeVar

from dbus_fast import BusType, Message, MessageType, Variant
from dbus_fast.aio import MessageBus

from winactions.backends.linux.atspi_roles import IFACE, INVOKE_ACTIONS, operations_of, role_of, states_of
from winactions.errors import ActionFailed, AppBusy, BackendUnavailable, NotFound
from winactions.model import Node, Operation, Rect, Snapshot

T = TypeVar("T")
REGISTRY = ("org.a11y.atspi.Registry", "/org/a11y/atspi/accessible/root")
ACCESSIBLE = IFACE + "Accessible"
PROPERTIES = "org.freedesktop.DBus.Properties"
TEXT_ROLES = {"Text", "Edit", "Paragraph", "Heading", "Label", "Document"}
TEXT_PREVIEW = 200
ITEM_TYPES = {"DataItem", "ListItem", "TreeItem"}
STALL_SECONDS = 3.0  # no reply for this long: the app is blocked
ACTION_STALL_SECONDS = 1.5  # an action handler that runs longer is treated as "sent, app busy"
HIDDEN_EXTENT = -(2**31)  # what hidden scrollbars report as their position


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
class _Cached:
    snapshot: Snapshot
    generation: int
    probes: list[Any]


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


class AtspiClient:
    """Synchronous facade over one connection to the accessibility bus."""

    def __init__(self, address: str | None = None, max_in_flight: int = 64, live: bool = False) -> None:
        self._address = address
        self._live = live
        self._generation: dict[str, int] = {}  # bus name -> count of change events seen
        self._cache: dict[tuple[str, str], _Cached] = {}
        self._max_in_flight = max_in_flight
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name="atspi", daemon=True)
        self._thread.start()
        self._bus: MessageBus | None = None
        self._sem: asyncio.Semaphore | None = None
        self._progress = time.monotonic()  # when the last reply arrived
        self._run(self._connect(), timeout=15)
        if live:
            self._run(self._watch(), timeout=15)

    # -- plumbing ------------------------------------------------------------------------
    def _run(self, coro: Coroutine[Any, Any, T], timeout: float = 120.0, stall: float = STALL_SECONDS) -> T:
        """Run on the loop thread; give up when no reply has arrived for `stall` seconds.

        A GTK app that runs a modal dialog inside a click handler cannot answer any
        accessibility request until the dialog closes (libdbus does not dispatch
        re-entrantly). Waiting on it would hang the agent, so a stall is an error that
        says what is going on.
        """
        future = asyncio.run_coroutine_threadsafe(coro, self._loop)
        started = self._progress = time.monotonic()
        while True:
            try:
                return future.result(0.1)
            except concurrent.futures.TimeoutError:
                now = time.monotonic()
                if now - self._progress > stall or now - started > timeout:
                    future.cancel()
                    raise AppBusy(f"the app has not answered accessibility requests for {stall:g}s",
                                  hint="it may be busy or showing a modal dialog: look with `winctl screenshot`, "
                                       "answer with `winctl keys Enter` / `Escape`, then run `winctl state`") from None

    async def _connect(self) -> None:
        address = self._address or os.environ.get("AT_SPI_BUS_ADDRESS") or await self._bus_address()
        try:
            self._bus = await MessageBus(bus_address=address).connect()
        except Exception as exc:
            raise BackendUnavailable(f"cannot connect to the accessibility bus at {address}: {exc}",
                                     hint="is at-spi2-core installed and a session bus running?") from None
        self._sem = asyncio.Semaphore(self._max_in_flight)

    @staticmethod
    async def _bus_address() -> str:
        if not os.environ.get("DBUS_SESSION_BUS_ADDRESS"):
            raise BackendUnavailable("no D-Bus session bus (DBUS_SESSION_BUS_ADDRESS is not set)",
                                     hint="run inside a desktop session, or use the virtual desktop")
        try:
            session = await MessageBus(bus_type=BusType.SESSION).connect()
        except Exception as exc:
            raise BackendUnavailable(f"cannot reach the session bus: {exc}",
                                     hint="is DBUS_SESSION_BUS_ADDRESS right?") from None
        try:
            reply = await session.call(Message(destination="org.a11y.Bus", path="/org/a11y/bus",
                                               interface="org.a11y.Bus", member="GetAddress"))
        finally:
            session.disconnect()
        if reply is None or reply.message_type is MessageType.ERROR:
            raise BackendUnavailable("the session bus has no accessibility bus (org.a11y.Bus)",
                                     hint="install at-spi2-core")
        return str(reply.body[0])

    async def _call(self, dest: str, path: str, interface: str, member: str, signature: str = "",
                    body: list[Any] | None = None) -> list[Any]:
        assert self._bus is not None and self._sem is not None
        message = Message(destination=dest, path=path, interface=interface, member=member,
                          signature=signature, body=body or [])
        async with self._sem:  # the caller's future carries the timeout: no task per call
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

    def close(self) -> None:
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
            self._maybe(dest, path, PROPERTIES, "GetAll", "s", [ACCESSIBLE]),
            self._maybe(dest, path, ACCESSIBLE, "GetRole"),
            self._maybe(dest, path, ACCESSIBLE, "GetState"),
            self._maybe(dest, path, ACCESSIBLE, "GetInterfaces"),
            self._maybe(dest, path, IFACE + "Component", "GetExtents", "u", [0]),
        )
        if props is None or role is None or state is None:
            return None
        values = {k: v.value for k, v in props[0].items()}
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

    async def _read_extras(self, raw: _Raw, full: bool) -> None:
        """Actions, value and short text: only for elements whose interfaces have them.

        With `full=False` (tree walks) the action names of cells and list items are not
        read: there are thousands of them, and their one action ("activate") is not what a
        click on them means — selecting is, and that needs no action name.
        """
        dest, path = raw.ref
        jobs: dict[str, Any] = {}
        _, ctype = role_of(raw.role_number)
        if IFACE + "Action" in raw.interfaces and (full or ctype not in ITEM_TYPES):
            jobs["actions"] = self._maybe(dest, path, IFACE + "Action", "GetActions")
        if IFACE + "Value" in raw.interfaces:
            jobs["value"] = self._maybe(dest, path, PROPERTIES, "Get", "ss", [IFACE + "Value", "CurrentValue"])
        if IFACE + "Text" in raw.interfaces and ctype in TEXT_ROLES and (ctype == "Edit" or not raw.name):
            jobs["text"] = self._maybe(dest, path, IFACE + "Text", "GetText", "ii", [0, TEXT_PREVIEW])
        if not jobs:
            return
        results = dict(zip(jobs, await asyncio.gather(*jobs.values())))
        if results.get("actions"):
            raw.actions = tuple(str(a[0]) for a in results["actions"][0])
            if not all(raw.actions):  # Chromium leaves these empty; GetName has them
                names = await asyncio.gather(*(self._maybe(dest, path, IFACE + "Action", "GetName", "i", [i])
                                               for i in range(len(raw.actions))))
                raw.actions = tuple(str(n[0]) if n else "" for n in names)
        if results.get("value"):
            number = float(results["value"][0].value)
            raw.value = str(int(number)) if number.is_integer() else f"{number:g}"
        if results.get("text") is not None:
            raw.value = str(results["text"][0])
        if ctype == "ComboBox":
            chosen = await self._chosen(raw.ref)
            if chosen is not None:
                raw.value = chosen

    def _node(self, raw: _Raw, parent: int | None, parent_selects: bool) -> Node:
        native, ctype = role_of(raw.role_number)
        states = states_of(raw.states)
        if ctype == "Edit" and "editable" not in states and native == "text":
            ctype = "Text"  # a read-only text view is text, not a field
        rect = None
        if raw.extents is not None:
            x, y, w, h = raw.extents
            if x != HIDDEN_EXTENT and y != HIDDEN_EXTENT and w > 0 and h > 0:
                rect = Rect.from_xywh(x, y, w, h)
        return Node(
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
        )

    async def _children(self, ref: tuple[str, str]) -> list[tuple[str, str]]:
        found = await self._maybe(ref[0], ref[1], ACCESSIBLE, "GetChildren")
        return [tuple(c) for c in found[0]] if found else []

    async def _snapshot(self, root: tuple[str, str], max_nodes: int) -> Snapshot:
        """Walk the subtree with every branch in flight at once.

        Each element costs two round trips on the critical path (its properties, then its
        children list); its action names, value and text are read off that path, while
        its children are already being read. Siblings keep their order by position.
        """
        start = time.perf_counter()
        raws: list[_Raw] = []
        parents: list[int | None] = []
        positions: list[int] = []
        selects: list[bool] = []
        truncated = False

        async def visit(ref: tuple[str, str], parent: int | None, position: int) -> None:
            nonlocal truncated
            if len(raws) >= max_nodes:
                truncated = True
                return
            raw = await self._read_base(ref)
            if raw is None:
                return  # vanished while we read it
            index = len(raws)
            raws.append(raw)
            parents.append(parent)
            positions.append(position)
            selects.append(parent is not None and IFACE + "Selection" in raws[parent].interfaces)
            showing = parent is None or bool(raw.states and raw.states[0] >> 25 & 1)
            jobs = [self._read_extras(raw, full=False)]
            if raw.child_count > 0 and showing:
                jobs.append(expand(ref, index))
            await asyncio.gather(*jobs)

        async def expand(ref: tuple[str, str], index: int) -> None:
            kids = await self._children(ref)
            await asyncio.gather(*(visit(kid, index, pos) for pos, kid in enumerate(kids)))

        await visit(root, None, 0)
        nodes = [self._node(r, p, s) for r, p, s in zip(raws, parents, selects)]
        return Snapshot(nodes=_document_order(nodes, positions), truncated=truncated,
                        elapsed_ms=(time.perf_counter() - start) * 1000)

    def snapshot(self, root_handle: str, *, max_nodes: int = 20000) -> Snapshot:
        root = split_handle(root_handle)
        if self._live:
            return self._run(self._snapshot_live(root, max_nodes))
        return self._run(self._snapshot(root, max_nodes))

    # -- live mode: a cached tree kept honest by events and probes --------------------------
    async def _watch(self) -> None:
        """Ask every app for its change events and count them per app."""
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
            sender = message.sender or ""
            self._generation[sender] = self._generation.get(sender, 0) + 1

    async def _snapshot_live(self, root: tuple[str, str], max_nodes: int) -> Snapshot:
        """The cached tree when nothing changed, else a fresh read.

        "Nothing changed" needs two proofs. Events: a call to the app is answered only
        after every event it sent before, so once it returns, the count is complete. And
        probes — the scroll bars' values and the first element of every scrolling
        container — because toolkits do not announce everything (GTK moves rows on scroll
        without a word).
        """
        start = time.perf_counter()
        cached = self._cache.get(root)
        if cached is not None:
            alive = await self._maybe(root[0], root[1], ACCESSIBLE, "GetRole")  # the barrier
            if alive is not None and self._generation.get(root[0], 0) == cached.generation \
                    and await self._probe(cached.snapshot) == cached.probes:
                return cached.snapshot.model_copy(update={"elapsed_ms": (time.perf_counter() - start) * 1000})
        generation = self._generation.get(root[0], 0)  # events during the read force the next one
        snapshot = await self._snapshot(root, max_nodes)
        self._cache[root] = _Cached(snapshot, generation, await self._probe(snapshot))
        return snapshot

    async def _probe(self, snapshot: Snapshot) -> list[Any]:
        """Cheap reads that change when content scrolls or the window moves."""
        nodes = snapshot.nodes
        first_children: dict[int, Node] = {}
        for n in nodes:
            if n.parent is not None and n.parent not in first_children and \
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
        return self._node(raw, None, selects)

    def refresh(self, handle: str) -> Node | None:
        return self._run(self._refresh(split_handle(handle)))

    def read_text(self, handle: str) -> str:
        dest, path = split_handle(handle)

        async def read() -> str:
            role = await self._maybe(dest, path, ACCESSIBLE, "GetRole")
            if role and role_of(int(role[0]))[1] == "ComboBox":
                chosen = await self._chosen((dest, path))
                if chosen is not None:
                    return chosen
            text = await self._maybe(dest, path, IFACE + "Text", "GetText", "ii", [0, -1])
            if text is not None and text[0].strip("\ufffc"):
                return str(text[0])
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
                self._maybe(ref[0], ref[1], PROPERTIES, "Get", "ss", [ACCESSIBLE, "Name"]),
                self._maybe("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                            "GetConnectionUnixProcessID", "s", [ref[0]]))
            return ref[0], str(name[0].value) if name else "", int(pid[0]) if pid else None

        return list(await asyncio.gather(*(describe(a) for a in apps)))

    def applications(self) -> list[tuple[str, str, int | None]]:
        """(bus name, application name, pid) of every app on the accessibility bus."""
        return self._run(self._applications())

    async def _find_frame(self, pid: int | None, title: str, rect: Rect | None) -> str | None:
        apps = await self._applications()
        mine = [a for a in apps if pid is not None and a[2] == pid]
        best: tuple[float, str] | None = None
        for group in (mine, [a for a in apps if a not in mine]):
            tops = await asyncio.gather(*(self._children((bus, "/org/a11y/atspi/accessible/root"))
                                          for bus, _, _ in group))
            refs = [ref for kids in tops for ref in kids]
            raws = await asyncio.gather(*(self._read(ref) for ref in refs))
            for raw in raws:
                if raw is None:
                    continue
                score = _frame_score(raw, title, rect)
                if score is not None and (best is None or score < best[0]):
                    best = (score, raw.ref[0] + raw.ref[1])
            if best is not None:
                return best[1]
        return None

    def find_frame(self, pid: int | None, title: str, rect: Rect | None) -> str | None:
        """The handle of the top-level accessible that is this window, if any."""
        return self._run(self._find_frame(pid, title, rect))

    # -- acting -----------------------------------------------------------------------------
    def perform(self, handle: str, operation: Operation, argument: str | float | None = None) -> str:
        try:
            return self._run(self._perform(split_handle(handle), operation, argument), stall=ACTION_STALL_SECONDS)
        except AppBusy:
            if operation in (Operation.INVOKE, Operation.TOGGLE, Operation.EXPAND, Operation.COLLAPSE):
                # The action was delivered and its handler is still running (typically a
                # modal dialog opened from the click handler).
                return f"action:{operation.value} (sent; the app is busy — a modal dialog may be open)"
            raise

    async def _perform(self, ref: tuple[str, str], op: Operation, argument: str | float | None) -> str:
        dest, path = ref
        if op in (Operation.INVOKE, Operation.TOGGLE, Operation.EXPAND, Operation.COLLAPSE):
            wanted = {
                Operation.INVOKE: INVOKE_ACTIONS,
                Operation.TOGGLE: ("toggle", "click", "press", "activate"),
                Operation.EXPAND: ("expand or contract", "expand", "press", "toggle"),
                Operation.COLLAPSE: ("expand or contract", "collapse", "press", "toggle"),
            }[op]
            return await self._do_action(ref, wanted)
        if op is Operation.SET_TEXT:
            ok = await self._call(dest, path, IFACE + "EditableText", "SetTextContents", "s", [str(argument)])
            if not ok or not ok[0]:
                raise ActionFailed("the element refused the text", hint="try --via input to type it")
            return "EditableText.SetTextContents"
        if op is Operation.SET_VALUE:
            await self._call(dest, path, PROPERTIES, "Set", "ssv",
                             [IFACE + "Value", "CurrentValue", Variant("d", float(argument or 0))])
            return "Value.CurrentValue"
        if op is Operation.SELECT:
            parent = await self._call(dest, path, PROPERTIES, "Get", "ss", [ACCESSIBLE, "Parent"])
            p_dest, p_path = parent[0].value
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

    async def _action_names(self, ref: tuple[str, str]) -> list[str]:
        actions = await self._maybe(ref[0], ref[1], IFACE + "Action", "GetActions")
        names = [str(a[0]) for a in actions[0]] if actions else []
        if not all(names):
            found = await asyncio.gather(*(self._maybe(ref[0], ref[1], IFACE + "Action", "GetName", "i", [i])
                                           for i in range(len(names))))
            names = [str(n[0]) if n else "" for n in found]
        return [n.lower() for n in names]

    async def _do_action(self, ref: tuple[str, str], wanted: tuple[str, ...]) -> str:
        names = await self._action_names(ref)
        for want in wanted:
            if want in names:
                done = await self._call(ref[0], ref[1], IFACE + "Action", "DoAction", "i", [names.index(want)])
                if not done or not done[0]:
                    raise ActionFailed(f'the element refused its "{want}" action', hint="try --via input")
                return f"action:{want}"
        raise ActionFailed(f"no suitable action (it has: {', '.join(names) or 'none'})",
                           hint="try --via input")

    async def _select_child(self, container: tuple[str, str], index: int) -> str:
        done = await self._call(container[0], container[1], IFACE + "Selection", "SelectChild", "i", [index])
        if not done or not done[0]:
            raise ActionFailed("the container refused the selection", hint="click the item instead")
        return "Selection.SelectChild"

    async def _options(self, ref: tuple[str, str]) -> tuple[tuple[str, str], list[_Raw]]:
        """(container that selects, its options). A combo box keeps its options in a child
        menu or list (GTK, Chromium); lists and tab lists hold them directly."""
        children = await self._children(ref)
        raws = [r for r in await asyncio.gather(*(self._read(c) for c in children)) if r is not None]
        if len(raws) == 1 and role_of(raws[0].role_number)[1] in ("Menu", "List"):
            inner = raws[0].ref
            raws = [r for r in await asyncio.gather(*(self._read(c) for c in await self._children(inner)))
                    if r is not None]
            own = await self._maybe(ref[0], ref[1], ACCESSIBLE, "GetInterfaces")
            if not (own and IFACE + "Selection" in own[0]):
                return inner, raws
        return ref, raws

    async def _choose(self, ref: tuple[str, str], option: str) -> str:
        """Select the option named `option`: through Selection where the container has it,
        else through the option's own action."""
        container, raws = await self._options(ref)
        names = [r.name for r in raws]
        matches = [i for i, n in enumerate(names) if n == option] or \
                  [i for i, n in enumerate(names) if n.strip().lower() == option.strip().lower()]
        if not matches:
            listed = ", ".join(f'"{n}"' for n in names if n) or "none"
            raise NotFound(f'no option "{option}"', hint=f"options: {listed}")
        index = matches[0]
        ifaces = await self._maybe(container[0], container[1], ACCESSIBLE, "GetInterfaces")
        if ifaces and IFACE + "Selection" in ifaces[0]:
            try:
                return await self._select_child(container, index)
            except (ActionFailed, DBusCallError):
                pass
        return await self._do_action(raws[index].ref, ("select", *INVOKE_ACTIONS))

    async def _chosen(self, ref: tuple[str, str]) -> str | None:
        """The name of a combo box's chosen option (Chromium names the box after its label)."""
        container, _ = await self._options(ref)
        chosen = await self._maybe(container[0], container[1], IFACE + "Selection", "GetSelectedChild", "i", [0])
        if not chosen:
            return None
        name = await self._maybe(chosen[0][0], chosen[0][1], PROPERTIES, "Get", "ss", [ACCESSIBLE, "Name"])
        return str(name[0].value) if name else None


def _frame_score(raw: _Raw, title: str, rect: Rect | None) -> float | None:
    """Lower is better; None when this top-level element cannot be the window."""
    native, ctype = role_of(raw.role_number)
    if ctype not in ("Window", "Dialog", "Alert") and native not in ("frame", "window", "dialog"):
        return None
    score = 0.0 if raw.name == title else (1000.0 if title and title in raw.name else 5000.0)
    if rect is not None and raw.extents is not None:
        x, y, w, h = raw.extents
        score += abs(x - rect.left) + abs(y - rect.top) + abs(w - rect.width) + abs(h - rect.height)
    elif rect is not None:
        score += 2000.0
    if score >= 5000.0 + 2000.0:
        return None
    return score


def _document_order(nodes: list[Node], positions: list[int]) -> list[Node]:
    """Reads finish in any order; output is depth-first, siblings by their position."""
    children: dict[int | None, list[int]] = {}
    for i, n in enumerate(nodes):
        children.setdefault(n.parent, []).append(i)
    for kids in children.values():
        kids.sort(key=lambda i: positions[i])
    order: list[int] = []
    stack = list(reversed(children.get(None, [])))
    while stack:
        i = stack.pop()
        order.append(i)
        stack.extend(reversed(children.get(i, [])))
    new_index = {old: new for new, old in enumerate(order)}
    out = []
    for old in order:
        n = nodes[old]
        parent = new_index[n.parent] if n.parent is not None else None
        out.append(dataclasses.replace(n, parent=parent))
    return out
