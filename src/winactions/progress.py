"""Progress of long work, for whoever is watching.

A command that may take seconds (the locator's fallback chain, OCR, waiting for a
condition) says what it is doing with `progress.step("trying ocr")`; that costs nothing
when nobody watches. A front end that can show progress watches a call: the CLI on a
terminal writes a line to stderr, the daemon keeps the latest step for the client's pings,
the MCP server sends progress notifications when the client asked for them. Nothing is
shown for work under `delay` seconds, so quick commands stay quiet.

A watcher may also cancel the call (an MCP client's `notifications/cancelled`): long work
waits with `pause(seconds)`, which ends early and raises `Cancelled` once the call is
cancelled, and checks `cancelled()` between its steps, so a cancelled call stops at its next
safe point; an action already under way finishes (and checks) itself first.

Standard library (and `winactions.errors`) only: the thin client uses `line()` too.
"""

from __future__ import annotations

import contextlib
import contextvars
import threading
import time
from collections.abc import Callable, Iterator
from contextvars import ContextVar
from typing import TypeVar

from winactions.errors import Cancelled

Sink = Callable[[str, float], None]  # (what is being done, seconds since the call started)


class Progress:
    """The latest step of one call, and a ticker that hands it to a sink while it runs."""

    def __init__(
        self, sink: Sink | None, delay: float = 1.0, interval: float = 0.5, cancel: Callable[[], bool] | None = None
    ) -> None:
        self.sink = sink
        self.cancel = cancel  # whether the watcher has cancelled the call (None: it cannot)
        self.delay = delay
        self.interval = interval
        self.started = time.monotonic()
        self.message = "working"
        self.outer = ""  # a stage that the steps inside it are part of (see `stage`)
        self._done = threading.Event()
        self._thread: threading.Thread | None = None

    def step(self, message: str) -> None:
        self.message = f"{self.outer}: {message}" if self.outer else message

    @property
    def elapsed(self) -> float:
        return time.monotonic() - self.started

    def start(self) -> None:
        if self.sink is not None:
            self._thread = threading.Thread(target=self._tick, name="progress", daemon=True)
            self._thread.start()

    def stop(self) -> None:
        self._done.set()
        if self._thread is not None:
            self._thread.join(timeout=2)

    def _tick(self) -> None:
        if self._done.wait(self.delay):
            return
        while True:
            try:
                assert self.sink is not None
                self.sink(self.message, self.elapsed)
            except Exception:  # a watcher that went away must not break the command
                return
            if self._done.wait(self.interval):
                return


_current: ContextVar[Progress | None] = ContextVar("winactions_progress", default=None)


def step(message: str) -> None:
    """Say what the current call is doing now (a no-op when nobody watches)."""
    watched = _current.get()
    if watched is not None:
        watched.step(message)


@contextlib.contextmanager
def stage(message: str) -> Iterator[None]:
    """A step that lasts while smaller ones run inside it (a wait reads the window again and
    again): they show as "stage: step", so a watcher never loses sight of what the call is for."""
    watched = _current.get()
    if watched is None:
        yield
        return
    saved = watched.outer
    watched.step(message)
    watched.outer = watched.message
    try:
        yield
    finally:
        watched.outer = saved


def current() -> Progress | None:
    return _current.get()


def cancelled() -> bool:
    """Whether the current call has been cancelled by its watcher."""
    watched = _current.get()
    return watched is not None and watched.cancel is not None and watched.cancel()


def check(where: str = "") -> None:
    """Raise `Cancelled` when the current call has been cancelled (`where`: the point it stops at)."""
    if cancelled():
        watched = _current.get()
        raise Cancelled(
            f"cancelled {where or 'while ' + (watched.message if watched else 'working')}; nothing more was done",
            hint="call the tool again when it is wanted",
        )


CANCEL_POLL = 0.05  # seconds between two looks at the cancel flag while pausing


def pause(seconds: float) -> None:
    """Sleep `seconds`, or less when the call is cancelled meanwhile: then raise `Cancelled`."""
    end = time.monotonic() + seconds
    while (left := end - time.monotonic()) > 0:
        check()
        time.sleep(min(left, CANCEL_POLL) if _current.get() is not None else left)
    check()


T = TypeVar("T")


def interruptible(work: Callable[[], T], where: str) -> T:
    """`work()`, or `Cancelled` (naming `where`) as soon as the current call is cancelled.

    Unwatched, or when the watcher cannot cancel, `work` simply runs here. Otherwise it runs
    in a worker thread with this context, and a cancel returns at once: `work` is left to end
    on its own and whatever it returns or raises then is dropped. Only for work that changes
    nothing outside itself (a model's answer, a read): an action must finish and check itself.
    """
    watched = _current.get()
    if watched is None or watched.cancel is None:
        return work()
    check(where)
    outcome: list[T] = []
    failure: list[BaseException] = []
    finished = threading.Event()

    def worker() -> None:
        try:
            outcome.append(work())
        except BaseException as exc:  # handed to the caller below
            failure.append(exc)
        finally:
            finished.set()

    context = contextvars.copy_context()
    threading.Thread(target=context.run, args=(worker,), name="interruptible", daemon=True).start()
    while not finished.wait(CANCEL_POLL):
        check(where)
    if failure:
        raise failure[0]
    return outcome[0]


@contextlib.contextmanager
def watching(
    sink: Sink | None, delay: float = 1.0, interval: float = 0.5, cancel: Callable[[], bool] | None = None
) -> Iterator[Progress]:
    """Watch the calls made in this block (this thread's context); `sink` gets the latest
    step every `interval` seconds once `delay` has passed; `cancel` says whether the watcher
    has cancelled the call (read at the call's safe points)."""
    watched = Progress(sink, delay, interval, cancel)
    token = _current.set(watched)
    watched.start()
    try:
        yield watched
    finally:
        watched.stop()
        _current.reset(token)


def line(message: str, elapsed: float) -> str:
    """How a terminal shows one step: on one line that the next one overwrites."""
    return f"\r\x1b[K… {message} ({elapsed:.0f}s)"


CLEAR = "\r\x1b[K"
