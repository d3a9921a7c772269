"""The Python API: a `Desktop` is one session, and every command of the table is a call on it.

    from winactions import Desktop

    with Desktop(window="Calculator") as desktop:
        state = desktop.state()
        desktop.click(4)
        desktop.input(6, "hello")
        print(desktop.get_text(6))

The command line, the session daemon and the MCP server are views of this class: each
call takes the session's lock, runs through the same `dispatch`, and returns the same typed
result the CLI renders — or raises the same `WinctlError` (with its `code`, `message` and a
`hint` phrased for Python). Ids are shared with `winctl` calls of the same session name.

Options of a call (the window, `return_state`, perception tiers) live on the call: a
`Desktop` keeps nothing from one call to the next but the session itself.
"""

from __future__ import annotations

from typing import Any, Literal

from winactions.backends.base import Backend
from winactions.commands.base import Command, Context, GlobalOptions, Result, available, dispatch, load_commands
from winactions.commands.results import (
    ActionResult,
    InspectResult,
    LocateCommandResult,
    ScreenshotResult,
    StateResult,
    ValueResult,
    WaitResult,
    WindowResult,
    WindowsResult,
)
from winactions.errors import InvalidInput, WinctlError
from winactions.model import UIState, WindowInfo
from winactions.render import hint_for
from winactions.session.desktop import DesktopSession

Infer = Literal["off", "rules", "llm"]
Vision = Literal["off", "auto", "local", "llm"]


class Desktop:
    """One session of the desktop: its window, its ids, its connections.

    `session` names the ids' store (shared with `winctl --session NAME`); `window` is the
    window calls act on unless a call names another; `backend` replaces the platform's
    (tests pass a fake); `device` drives that Android phone (a serial from `winctl devices`;
    else `WINCTL_DEVICE`, else this desktop). Close it, or use it as a context manager, to
    release connections.
    """

    def __init__(self, session: str = "default", *, window: str | None = None, backend: Backend | None = None,
                 live: bool = True, device: str | None = None) -> None:
        self.window = window
        self.session = DesktopSession.open(session, backend=backend, live=live, device=device)
        self.name = session
        self.device = device  # the phone asked for (None: WINCTL_DEVICE, else this desktop)

    # -- the one call path ----------------------------------------------------------------------
    def run(self, command: str, args: dict[str, Any], options: GlobalOptions) -> Result:
        """Run one command of the table with these global options (what front ends call)."""
        with self.session.turn() as session:
            return dispatch(command, args, Context(session, options))

    def call(self, command: str, /, *, window: str | None = None, return_state: bool = False,
             infer: Infer = "off", vision: Vision = "off", **args: Any) -> Result:
        """Any command by its `winctl` name ("click", "get text", "drag-at") with its
        parameters as keywords; `window`, `return_state`, `infer` and `vision` are this
        call's global options (a command whose own parameter is `window` takes it as that)."""
        cmd = self._command(command)
        if "window" in cmd.params.model_fields and window is not None:
            args["window"] = window
            window = None
        options = GlobalOptions(window=window or self.window, return_state=return_state, infer=infer,
                                vision=vision, session=self.name, device=self.device)
        try:
            return self.run(cmd.name, args, options)
        except WinctlError as exc:
            exc.hint = hint_for(exc.hint, "python")
            raise

    def commands(self) -> list[str]:
        """The names of the commands this desktop's backend can run."""
        return [c.name for c in available(self.session.backend)]

    # -- perceive -----------------------------------------------------------------------------
    def state(self, *, verbose: bool = False, screenshot: bool = False, annotated: bool = False,
              window: str | None = None, infer: Infer = "off", vision: Vision = "off",
              scope: int | None = None, max_elements: int | None = None) -> UIState:
        """The window's indexed elements (only element `scope`'s subtree, at most
        `max_elements` of them; `call("state", diff=True)` gives what changed)."""
        result = self.call("state", verbose=verbose, screenshot=screenshot, annotated=annotated, window=window,
                           infer=infer, vision=vision, scope=scope, max_elements=max_elements)
        assert isinstance(result, StateResult) and result.state is not None
        return result.state

    def windows(self) -> list[WindowInfo]:
        result = self.call("windows")
        assert isinstance(result, WindowsResult)
        return result.windows

    def inspect(self, id: int) -> InspectResult:
        return self._typed(InspectResult, self.call("inspect", id=id))

    def screenshot(self, path: str | None = None, *, screen: bool = False) -> ScreenshotResult:
        return self._typed(ScreenshotResult, self.call("screenshot", path=path, screen=screen))

    def locate(self, target: str, **options: Any) -> LocateCommandResult:
        """Find `target` from pixels (`text:Save`, `image:NAME`, `dynamic:…`, `fixed:NAME`)."""
        return self._typed(LocateCommandResult, self.call("locate", target=target, **options))

    def get_text(self, id: int) -> str:
        return str(self._typed(ValueResult, self.call("get text", id=id)).value)

    def get_value(self, id: int) -> Any:
        return self._typed(ValueResult, self.call("get value", id=id)).value

    def get_rect(self, id: int) -> list[int] | None:
        value = self._typed(ValueResult, self.call("get rect", id=id)).value
        return list(value) if value is not None else None

    def wait(self, seconds: float | None = None, **condition: Any) -> WaitResult:
        """Wait some seconds, or until `visible=ID`, `enabled=ID` or `gone=ID` holds."""
        return self._typed(WaitResult, self.call("wait", seconds=seconds, **condition))

    # -- act ----------------------------------------------------------------------------------
    def click(self, id: int | str, *, via: str = "auto", return_state: bool = False) -> ActionResult:
        """Click an element by id, or a visual target (`text:Save`) or a plain name."""
        return self._typed(ActionResult, self.call("click", id=id, via=via, return_state=return_state))

    def input(self, id: int | str, text: str, *, append: bool = False, enter: bool = False,
              return_state: bool = False) -> ActionResult:
        return self._typed(ActionResult, self.call("input", id=id, text=text, append=append, enter=enter,
                                                   return_state=return_state))

    def type_text(self, text: str) -> ActionResult:
        """Type text into whatever has the keyboard focus."""
        return self._typed(ActionResult, self.call("type", text=text))

    def keys(self, keys: str) -> ActionResult:
        """Key chords, e.g. "ctrl+s" or "ctrl+a Delete"."""
        return self._typed(ActionResult, self.call("keys", keys=keys))

    def select(self, id: int | str, value: str) -> ActionResult:
        return self._typed(ActionResult, self.call("select", id=id, value=value))

    def scroll(self, id: int | str, direction: str, amount: int = 3) -> ActionResult:
        return self._typed(ActionResult, self.call("scroll", id=id, direction=direction, amount=amount))

    def focus(self, window: str) -> WindowResult:
        """Bring a window forward and make it the one calls act on."""
        result = self._typed(WindowResult, self.call("focus", window=window))
        self.window = result.window.id
        return result

    # -- plumbing -------------------------------------------------------------------------------
    def _command(self, name: str) -> Command:
        table = load_commands()
        cmd = table.get(name) or table.get(name.replace("_", "-")) or table.get(name.replace("_", " "))
        if cmd is None:
            raise InvalidInput(f"unknown command {name!r}", hint=hint_for("see `Desktop.commands()`", "python"))
        return cmd

    @staticmethod
    def _typed(kind: type[Any], result: Result) -> Any:
        if not isinstance(result, kind):  # pragma: no cover - the table and this class disagree
            raise TypeError(f"expected {kind.__name__}, got {type(result).__name__}")
        return result

    def close(self) -> None:
        self.session.backend.close()

    def __enter__(self) -> Desktop:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


__all__ = ["Desktop"]
