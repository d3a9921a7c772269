"""`bus.synchronous`: a coroutine method declared once is called as a plain one, run on its
object's bus with the limits it was declared with."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from typing import Any

from winactions.backends.linux.atspi.bus import STALL_SECONDS, synchronous


class RecordingBus:
    """Runs each coroutine to its end and records the limits it was run with."""

    def __init__(self) -> None:
        self.runs: list[dict[str, Any]] = []

    def run(self, coro: Coroutine[Any, Any, Any], **limits: Any) -> Any:
        self.runs.append(limits)
        return asyncio.run(coro)


class Client:
    def __init__(self) -> None:
        self.bus = RecordingBus()

    @synchronous()
    async def double(self, value: int, *, plus: int = 0) -> int:
        """Twice the value."""
        await asyncio.sleep(0)
        return 2 * value + plus

    @synchronous(stall=0.5, doing="while something slow was asked")
    async def slow(self) -> str:
        return "done"


def test_a_synchronous_method_returns_what_its_coroutine_returns():
    client = Client()
    assert client.double(4) == 8
    assert client.double(4, plus=1) == 9
    assert Client.double.__doc__ == "Twice the value."
    assert client.bus.runs[0] == {"stall": STALL_SECONDS, "doing": "accessibility requests"}


def test_a_synchronous_method_runs_with_the_limits_it_was_declared_with():
    client = Client()
    assert client.slow() == "done"
    assert client.bus.runs == [{"stall": 0.5, "doing": "while something slow was asked"}]
