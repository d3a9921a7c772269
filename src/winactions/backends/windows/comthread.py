"""Every UI Automation call on one dedicated COM thread.

UIA objects belong to the apartment that created them, and a UIA client that calls from
several threads (a daemon's worker, its ping handler, the MCP server's event loop) trades
crashes for races. One thread initializes COM, creates the IUIAutomation object and makes
every native call; callers wait for the result. A call that outlives `timeout` becomes
`AppBusy` instead of hanging the caller; a thread whose start failed (COM or UI Automation
could not be set up) makes every call `BackendUnavailable`, naming the error.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from typing import Any

from winactions.backends.windows.native import Native
from winactions.errors import AppBusy, BackendUnavailable

START_HINT = (
    "UI Automation works only in a logged-in, interactive Windows desktop session (not a service, "
    "not SSH without a desktop) with UIAutomationCore.dll registered; run `winctl doctor` for the rest"
)


class OnComThread:
    """A proxy of a `Native` whose methods all run on one thread."""

    def __init__(self, native: Native, timeout: float = 60.0) -> None:
        self._native = native
        self._timeout = timeout
        self._start_error: Exception | None = None
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="uia-com", initializer=self._start)

    def _start(self) -> None:
        """Set up COM on the thread; a failure is kept, not raised (an initializer that raises
        breaks the pool into `BrokenThreadPool` and logs a traceback to the user's terminal)."""
        try:
            self._native.init_com_thread()
        except Exception as exc:
            self._start_error = exc

    def _on_thread(self, method: Any, *args: Any, **kwargs: Any) -> Any:
        if self._start_error is not None:
            exc = self._start_error
            raise BackendUnavailable(f"UI Automation did not start: {type(exc).__name__}: {exc}", hint=START_HINT)
        return method(*args, **kwargs)

    def __getattr__(self, name: str) -> Any:
        method = getattr(self._native, name)
        if not callable(method):
            return method

        def on_thread(*args: Any, **kwargs: Any) -> Any:
            future = self._pool.submit(self._on_thread, method, *args, **kwargs)
            try:
                return future.result(timeout=self._timeout)
            except FutureTimeout:
                raise AppBusy(
                    f"a UI Automation call ({name}) got no answer in {self._timeout:g}s",
                    hint="the app may be frozen or showing a modal dialog; try `winctl keys Escape`",
                ) from None

        return on_thread

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)
