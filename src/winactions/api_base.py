"""What the typed Python API is built on: the `@calls` mark, the arguments of a typed call,
and the worker thread of `AsyncDesktop`.

`winactions.api_commands` (one typed method per command of the table) and
`winactions.api_async` (the same methods awaited) are generated from the table by
`scripts/gen_command_docs.py` (`winactions.api_source`); this module holds the little they
share with the hand-written `winactions.api`.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from winactions.api import Desktop
    from winactions.commands.base import Result

F = TypeVar("F", bound=Callable[..., Any])
T = TypeVar("T")
A = TypeVar("A", bound="AsyncCore")

# typed function or method name -> the command it calls (`calls`)
TYPED: dict[str, str] = {}


def calls(command: str) -> Callable[[F], F]:
    """Mark a typed method (or function) as a view of `command`: its parameters are that
    command's, with the same names, types (an element is `int | str`, a choice a Literal) and
    defaults, plus some of the call's global options (`window`, `return_state`, ...);
    tests/test_declared.py fails when they part, bar the differences it lists."""

    def mark(function: F) -> F:
        TYPED[function.__qualname__] = command
        return function

    return mark


def args_of(values: dict[str, Any]) -> dict[str, Any]:
    """A typed method's parameters (its `locals()` on entry) as the command's arguments: `self`
    left out, and None left out (the command's own default then applies: a list's `[]`)."""
    return {k: v for k, v in values.items() if k != "self" and v is not None}


def typed(kind: Any, result: Result) -> Any:
    """`result`, which must be a `kind` (a class or a union of classes: a typed method's promise)."""
    if not isinstance(result, kind):  # pragma: no cover - the table and the typed method disagree
        raise TypeError(f"expected {kind}, got {type(result).__name__}")
    return result


class AsyncCore:
    """The plumbing of `AsyncDesktop`: one `Desktop` made, used and closed in one worker thread
    (a session's backend keeps thread-bound connections), so awaited calls run one at a time,
    in the order they were made, and never block the event loop.

    Use it as `async with AsyncDesktop(...) as desktop:` or `await desktop.aclose()` when done;
    its keywords are `Desktop`'s."""

    def __init__(self, session: str = "default", **options: Any) -> None:
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix=f"winactions-{session}")
        self._made = self._pool.submit(self._open, session, options)

    @staticmethod
    def _open(session: str, options: dict[str, Any]) -> Desktop:
        from winactions.api import Desktop

        return Desktop(session, **options)

    @property
    def desktop(self) -> Desktop:
        """The sync `Desktop` the calls run on (waits for it to open; for use inside `_do`)."""
        return self._made.result()

    async def _do(self, call: Callable[[], T]) -> T:
        """Run `call` in the worker thread and await its result (or its exception)."""
        return await asyncio.get_running_loop().run_in_executor(self._pool, call)

    async def call(self, command: str, /, **args: Any) -> Result:
        """`Desktop.call`, awaited: any command by its `winctl` name, its parameters as keywords."""
        return await self._do(lambda: self.desktop.call(command, **args))

    async def commands(self) -> list[str]:
        """`Desktop.commands`, awaited."""
        return await self._do(lambda: self.desktop.commands())

    async def aclose(self) -> None:
        """Close the desktop in its thread, then stop the thread."""
        try:
            await self._do(lambda: self.desktop.close())
        finally:
            self._pool.shutdown(wait=False)

    async def __aenter__(self: A) -> A:
        await self._do(lambda: self.desktop)  # open it now: an error opening is raised here
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()
