"""Progress of long work, for whoever is watching.

A command that may take seconds (the locator's fallback chain, OCR, waiting for a
condition) says what it is doing with `progress.step("trying ocr")`; that costs nothing
when nobody watches. A front end that can show progress watches a call: the CLI on a
terminal writes a line to stderr, the daemon keeps the latest step for the client's pings,
the MCP server sends progress notifications when the client asked for them. Nothing is
shown for work under `delay` seconds, so quick commands stay quiet.

Standard library only: the thin client uses `line()` too.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable, Iterator
from contextvars import ContextVar

Sink = Callable[[str, float], None]  # (what is being done, seconds since the call started)


class Progress:
    """The latest step of one call, and a ticker that hands it to a sink while it runs."""

    def __init__(self, sink: Sink | None, delay: float = 1.0, interval: float = 0.5) -> None:
        self.sink = sink
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


@contextlib.contextmanager
def watching(sink: Sink | None, delay: float = 1.0, interval: float = 0.5) -> Iterator[Progress]:
    """Watch the calls made in this block (this thread's context); `sink` gets the latest
    step every `interval` seconds once `delay` has passed."""
    watched = Progress(sink, delay, interval)
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
