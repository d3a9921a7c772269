"""One connection to the accessibility bus, its calls, and what a stalled app means.

Reading a tree costs D-Bus round trips, not CPU: calls are pipelined, every property call of a
tree level in flight at once, capped by a semaphore because thousands of simultaneous calls
overflow the socket. An asyncio loop runs in a daemon thread, so synchronous code — a one-shot
CLI, a long-lived daemon — runs coroutines on it (`Bus.run`, or a method marked
`@synchronous`) and gets an error that says what is going on when an app stops answering.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import functools
import threading
import time
from collections.abc import Callable, Coroutine
from typing import Any, Concatenate, ParamSpec, Protocol, TypeVar

from dbus_fast import Message, MessageType
from dbus_fast.aio import MessageBus

from winactions.backends.linux import a11ybus
from winactions.backends.linux.atspi.budget import READING, SLOW_GAP
from winactions.backends.linux.atspi.refs import DBUS
from winactions.backends.linux.atspi.toolkits import Toolkits
from winactions.backends.linux.cell_leases import CellLeases
from winactions.errors import AppBusy, NoAccessibility

T = TypeVar("T")
P = ParamSpec("P")
STALL_SECONDS = 3.0  # no reply for this long: the app is blocked


class DBusCallError(Exception):
    """A D-Bus method returned an error (the object is gone, the method unsupported...)."""

    def __init__(self, name: str, text: str) -> None:
        super().__init__(f"{name}: {text}")
        self.name = name


class Bus:
    """One connection to the accessibility bus, with its loop thread, and what it learnt of the
    apps on it: their toolkits (`toolkits`) and the sheet cells they handed out (`leases`).

    Connecting is done in the constructor: NoAccessibility (saying why) when no bus answers;
    AppBusy when connecting stalls.
    """

    def __init__(self, address: str | None = None, max_in_flight: int = 64) -> None:
        self._address = address
        self.toolkits = Toolkits(self)
        self.leases = CellLeases()  # sheet cells handed out lately, by place
        self._max_in_flight = max_in_flight
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name="atspi", daemon=True)
        self._thread.start()
        self._bus: MessageBus | None = None
        self._sem: asyncio.Semaphore | None = None
        self._progress = time.monotonic()  # when the last reply arrived
        self.note = ""  # why the bus read may not be this display's ("" when it is)
        self._id: str | None = None  # `bus_id`, once asked
        try:
            self.run(self._connect(), timeout=15, stall=12)  # its own steps give up sooner, saying why
        except BaseException:
            self._loop.call_soon_threadsafe(self._loop.stop)  # no thread left behind per failed attempt
            raise

    def run(
        self,
        coro: Coroutine[Any, Any, T],
        timeout: float = 120.0,
        stall: float = STALL_SECONDS,
        doing: str = "accessibility requests",
        slow: str = "",
        patience: float | None = None,
    ) -> T:
        """Run on the loop thread and return its result; AppBusy when no reply has arrived for
        `stall` seconds, or the whole took over `timeout`, or — past `patience` (a tree read's
        time budget) — replies came SLOW_GAP apart (`slow` says what that means).

        A GTK app that runs a modal dialog inside a click handler cannot answer any
        accessibility request until the dialog closes (libdbus does not dispatch
        re-entrantly): waiting on it would hang the agent.
        """
        future = asyncio.run_coroutine_threadsafe(coro, self._loop)
        started = self._progress = time.monotonic()
        while True:
            try:
                return future.result(0.1)
            except concurrent.futures.TimeoutError:
                now = time.monotonic()
                quiet = now - self._progress
                slowed = patience is not None and now - started > patience and quiet > SLOW_GAP
                if quiet > stall or now - started > timeout or slowed:
                    future.cancel()
                    if slowed and quiet <= stall:
                        raise stalled(doing, None, round(now - started, 1), slow) from None
                    raise stalled(doing, stall if quiet > stall else None, timeout, slow) from None

    def submit(self, coro: Coroutine[Any, Any, T]) -> concurrent.futures.Future[T]:
        """Start a coroutine on the loop thread and return its future at once."""
        return asyncio.run_coroutine_threadsafe(coro, self._loop)

    async def _connect(self) -> None:
        if self._address:
            try:
                self._bus = await a11ybus.connect_checked(self._address)
            except a11ybus.BusProblem as exc:
                raise NoAccessibility(
                    f"the accessibility bus at {self._address} {exc.reason}", hint=a11ybus.PIXELS
                ) from None
        else:
            found = await a11ybus.open_bus()  # this display's, as its apps find it
            self._bus, self.note = found.bus, found.note
        self._sem = asyncio.Semaphore(self._max_in_flight)

    async def call(
        self, dest: str, path: str, interface: str, member: str, signature: str = "", body: list[Any] | None = None
    ) -> list[Any]:
        """The reply's body; DBusCallError when the method answers an error, or when the tree
        read this call belongs to (`READING`) is past its send grace (then nothing is sent)."""
        assert self._bus is not None and self._sem is not None
        message = Message(
            destination=dest, path=path, interface=interface, member=member, signature=signature, body=body or []
        )
        async with self._sem:  # the caller's future carries the timeout: no task per call
            reading = READING.get()
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

    async def maybe(
        self, dest: str, path: str, interface: str, member: str, signature: str = "", body: list[Any] | None = None
    ) -> list[Any] | None:
        """`call`, with None for an error reply."""
        try:
            return await self.call(dest, path, interface, member, signature, body)
        except DBusCallError:
            return None

    def listen(self, handler: Callable[[Message], None]) -> None:
        """Hand every message the connection receives (signals included) to `handler`, on the loop thread."""
        assert self._bus is not None
        self._bus.add_message_handler(handler)

    def bus_id(self) -> str:
        """The accessibility bus's id (its guid, asked once per connection): a bus started
        anew has another one, though it hands out the same names again."""
        if self._id is None:
            reply = self.run(self.maybe(*DBUS, "GetId"), timeout=5)
            self._id = str(reply[0]) if reply else ""
        return self._id

    @property
    def connected(self) -> bool:
        """Is the bus connection still up? (A daemon can outlive its desktop.)"""
        return self._bus is not None and bool(self._bus.connected)

    def close(self) -> None:
        """End the calls still pending, disconnect and stop the loop thread; never fails."""
        if not self._loop.is_running():
            return
        # reads given up on (an app that stalled) are still pending: end them, or asyncio prints
        # "Task was destroyed but it is pending!" when the loop goes; closing must not fail
        with contextlib.suppress(Exception):
            asyncio.run_coroutine_threadsafe(_cancel_pending(), self._loop).result(2)
        if self._bus is not None:
            self._loop.call_soon_threadsafe(self._bus.disconnect)
            self._bus = None
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(timeout=2)


class OnBus(Protocol):
    """An object whose methods run on a bus's loop (`synchronous`)."""

    bus: Bus


S = TypeVar("S", bound=OnBus)


def synchronous(
    *, stall: float = STALL_SECONDS, doing: str = "accessibility requests"
) -> Callable[[Callable[Concatenate[S, P], Coroutine[Any, Any, T]]], Callable[Concatenate[S, P], T]]:
    """Declare a coroutine method as a plain one: calling it runs the coroutine on its object's
    bus (`Bus.run`, with `stall` and `doing`) and returns the result."""

    def wrap(method: Callable[Concatenate[S, P], Coroutine[Any, Any, T]]) -> Callable[Concatenate[S, P], T]:
        @functools.wraps(method)
        def run(self: S, /, *args: P.args, **kwargs: P.kwargs) -> T:
            return self.bus.run(method(self, *args, **kwargs), stall=stall, doing=doing)

        return run

    return wrap


def stalled(doing: str, stall: float | None, timeout: float, slow: str = "") -> AppBusy:
    """The error for a read the app stopped answering: says which limit hit and what was asked.

    No reply at all for `stall` seconds means the app's main loop is blocked (a long job or a
    modal dialog run from a handler); replies that keep coming but never finish mean the
    app is slow, which is a different thing to tell an agent.
    """
    if stall is not None:
        return AppBusy(
            f"the app stopped answering {doing}: no reply for {stall:g} s",
            hint="it is busy or blocked (a long operation, or a modal dialog): "
            "look with `winctl screenshot`, wait, or answer a dialog with `winctl keys Enter` / "
            "`Escape`, then run `winctl state`",
        )
    return AppBusy(
        f"the app kept answering {doing} but did not finish within {timeout:g} s{slow}",
        hint="it is slow: try again, or read a smaller window",
    )


async def _cancel_pending() -> None:
    tasks = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
