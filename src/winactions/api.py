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

Saved screenshots need no desktop at all — no display, no accessibility bus, no session:

    from winactions import locate_in, match, verify_location

    found = locate_in("text:Save", "shot.png").located.element     # OCR / template / model
    best = match("save_icon.png", "shot.png").matches[0]             # the template ladder
    verify_location("text:Save", found.bbox, image="later.png", thumbnail=found.thumbnail)
"""

from __future__ import annotations

import os
import typing
import warnings
from typing import Any, Literal, overload

from winactions.api_base import TYPED, args_of, calls
from winactions.api_commands import Commands
from winactions.backends.base import Backend
from winactions.commands.base import (
    Command,
    Context,
    GlobalOptions,
    Params,
    Result,
    available,
    dispatch,
    dispatch_files,
    load_commands,
)
from winactions.commands.results import (
    ActionResult,
    LocateCommandResult,
    MatchResult,
    StateResult,
    ValueResult,
    VerifyResult,
    WindowResult,
    WindowsResult,
)
from winactions.errors import InvalidInput, NotFound, WinctlError, shown
from winactions.model import Rect, UIState, WindowInfo
from winactions.outputs import Outputs
from winactions.render import hint_for
from winactions.session.desktop import DesktopSession, is_id

Infer = Literal["off", "rules", "llm"]
Vision = Literal["off", "auto", "local", "llm"]
ViaName = Literal["auto", "semantic", "input"]  # how an action acts (`execution.Via`)
Direction = Literal["up", "down", "left", "right"]
Strategy = Literal["template", "ocr", "vision", "fixed"]  # a locator strategy
Box = Rect | str | tuple[int, int, int, int]  # a Rect, "x,y,width,height", or (x, y, width, height)
Path = str | os.PathLike[str]


def _element_fields(params: type[Params]) -> list[str]:
    """The command's parameters that take an element: an id (int) or a name or target (str),
    as its table types them (`click`'s id, `screenshot`'s element)."""
    return [name for name, f in params.model_fields.items() if {int, str} <= set(typing.get_args(f.annotation))]


class Desktop(Commands):
    """One session of the desktop: its window, its ids, its connections.

    `session` names the ids' store (shared with `winctl --session NAME`); `window` is the
    window calls act on unless a call names another; `backend` replaces the platform's
    (tests pass a fake); `device` drives that Android phone (a serial from `winctl devices`;
    else `WINCTL_DEVICE`, else this desktop); `output_dir`: the paths calls are given are only
    names inside this folder, and no file is replaced (for paths a model chooses: see
    `winactions.outputs`) — without it, paths are used as given. Close it, or use it as a
    context manager, to release connections.

    `call` runs any command of the table; the typed methods (`state`, `click`, `get_text`, ...)
    are each one command's view (`@calls`), taking its parameters by the same names, types and
    defaults and returning its result typed.
    """

    def __init__(
        self,
        session: str = "default",
        *,
        window: str | None = None,
        backend: Backend | None = None,
        live: bool = True,
        device: str | None = None,
        output_dir: str | os.PathLike[str] | None = None,
    ) -> None:
        self.window = window
        self.outputs = Outputs.from_env(output_dir) if output_dir is not None else None
        self.session = DesktopSession.open(session, backend=backend, live=live, device=device)
        self.name = session
        self.device = device  # the phone asked for (None: WINCTL_DEVICE, else this desktop)

    # -- the one call path ----------------------------------------------------------------------
    def run(self, command: str, args: dict[str, Any], options: GlobalOptions, outputs: Outputs | None = None) -> Result:
        """Run one command of the table with these global options (what front ends call).
        `outputs`: a model asks (MCP), so the files it writes go inside that folder
        (`winactions.outputs`); None: this Desktop's `output_dir` rule."""
        with self.session.turn() as session:
            return dispatch(command, args, Context(session, options, outputs=outputs or self.outputs))

    def call(
        self,
        command: str,
        /,
        *,
        window: str | None = None,
        return_state: bool = False,
        max_elements: int | None = None,
        infer: Infer = "off",
        vision: Vision = "off",
        **args: Any,
    ) -> Result:
        """Any command by its `winctl` name ("click", "get text", "drag-at") with its
        parameters as keywords; `window`, `return_state` (the result's `state`, and in
        `changes` what changed since the state seen last), `max_elements` (at most this many
        of those changes), `infer` and `vision` are this call's global options (a command whose
        own parameter is `window` or `max_elements` takes it as that)."""
        cmd = self._command(command)
        if "window" in cmd.params.model_fields and window is not None:
            args["window"] = window
            window = None
        if "max_elements" in cmd.params.model_fields and max_elements is not None:
            args["max_elements"] = max_elements
            max_elements = None
        options = GlobalOptions(
            window=window or self.window,
            return_state=return_state,
            max_elements=max_elements,
            infer=infer,
            vision=vision,
            session=self.name,
            device=self.device,
        )
        try:
            return self.run(cmd.name, args, options)
        except WinctlError as exc:
            exc.hint = hint_for(exc.hint, "python")
            digits = [v for k in _element_fields(cmd.params) if isinstance(v := args.get(k), str) and is_id(v)]
            if digits and isinstance(exc, NotFound):  # a str is a name, always: it may have been meant as an id
                exc.hint = "; ".join(filter(None, [exc.hint, f"an id is an int here: {command}({digits[0].strip()})"]))
            raise

    def commands(self) -> list[str]:
        """The names of the commands this desktop's backend can run."""
        return [c.name for c in available(self.session.backend)]

    # -- perceive -----------------------------------------------------------------------------
    @overload
    def state(
        self,
        *,
        verbose: bool = False,
        tree: bool = False,
        screenshot: bool = False,
        annotated: bool = False,
        diff: Literal[False] = False,
        scope: int | None = None,
        max_elements: int | None = None,
        all: bool = False,
        window: str | None = None,
        infer: Infer = "off",
        vision: Vision = "off",
    ) -> UIState: ...

    @overload
    def state(
        self,
        *,
        verbose: bool = False,
        tree: bool = False,
        screenshot: bool = False,
        annotated: bool = False,
        diff: Literal[True],
        scope: int | None = None,
        max_elements: int | None = None,
        all: bool = False,
        window: str | None = None,
        infer: Infer = "off",
        vision: Vision = "off",
    ) -> StateResult: ...

    @overload
    def state(
        self,
        *,
        verbose: bool = False,
        tree: bool = False,
        screenshot: bool = False,
        annotated: bool = False,
        diff: bool = False,
        scope: int | None = None,
        max_elements: int | None = None,
        all: bool = False,
        window: str | None = None,
        infer: Infer = "off",
        vision: Vision = "off",
    ) -> UIState | StateResult: ...

    @calls("state")
    def state(
        self,
        *,
        verbose: bool = False,
        tree: bool = False,
        screenshot: bool = False,
        annotated: bool = False,
        diff: bool = False,
        scope: int | None = None,
        max_elements: int | None = None,
        all: bool = False,
        window: str | None = None,
        infer: Infer = "off",
        vision: Vision = "off",
    ) -> UIState | StateResult:
        """The window's indexed elements (only element `scope`'s subtree, at most
        `max_elements` of them); with `diff=True`, the whole result: `.diff` says what changed
        since the state read before (added, removed, changed), `.state` is the new state."""
        result = self._typed(StateResult, self.call("state", **args_of(locals())))
        if diff:
            return result
        assert result.state is not None
        return result.state

    @calls("windows")
    def windows(self) -> list[WindowInfo]:
        """The desktop's top-level windows."""
        result = self.call("windows")
        assert isinstance(result, WindowsResult)
        return result.windows

    @calls("get text")
    def get_text(self, id: int | str) -> str:
        """An element's text (by id, or a name the window shows)."""
        return str(self._typed(ValueResult, self.call("get text", id=id)).value)

    @calls("get value")
    def get_value(self, id: int | str) -> Any:
        """An element's value: a number, a text, a state."""
        return self._typed(ValueResult, self.call("get value", id=id)).value

    @calls("get rect")
    def get_rect(self, id: int | str) -> list[int] | None:
        """An element's rect on screen as [left, top, right, bottom], or None when it has none."""
        value = self._typed(ValueResult, self.call("get rect", id=id)).value
        return list(value) if value is not None else None

    @calls("verify-location")
    def verify_location(
        self, target: str, at: Box, *, thumbnail: str | None = None, reliable: float = 0.8
    ) -> VerifyResult:
        """Is `target`, located at `at` (with the `thumbnail` its locate returned), still there?
        `result.verification.still_there`, and `.reason` says why."""
        return self._typed(
            VerifyResult,
            self.call("verify-location", target=target, at=_box(at), thumbnail=thumbnail, reliable=reliable),
        )

    # -- act ----------------------------------------------------------------------------------
    @calls("focus")
    def focus(self, window: str) -> WindowResult:
        """Bring a window forward and make it the one calls act on."""
        result = self._typed(WindowResult, self.call("focus", window=window))
        self.window = result.window.id
        return result

    def type_text(self, text: str, *, return_state: bool = False) -> ActionResult:
        """Deprecated: `type`, as the CLI names it (a DeprecationWarning)."""
        warnings.warn("Desktop.type_text is deprecated: use Desktop.type", DeprecationWarning, stacklevel=2)
        return self.type(text, return_state=return_state)

    type_text.deprecated = "type"  # type: ignore[attr-defined]

    # -- plumbing -------------------------------------------------------------------------------
    def _command(self, name: str) -> Command:
        """The command named as `winctl` names it, or with `_` for its dashes or space."""
        table = load_commands()
        cmd = table.get(name) or table.get(name.replace("_", "-")) or table.get(name.replace("_", " "))
        if cmd is None:
            raise InvalidInput(f"unknown command {shown(name)}", hint=hint_for("see `Desktop.commands()`", "python"))
        return cmd

    @staticmethod
    def _typed(kind: type[Any], result: Result) -> Any:
        """`result`, which must be a `kind` (a typed method's promise)."""
        if not isinstance(result, kind):  # pragma: no cover - the table and this class disagree
            raise TypeError(f"expected {kind.__name__}, got {type(result).__name__}")
        return result

    def close(self) -> None:
        """Release the backend's connections."""
        self.session.backend.close()

    def __enter__(self) -> Desktop:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


# -- screenshots on disk: the same commands, with no desktop ---------------------------------------
@calls("locate")
def locate_in(
    target: str,
    image: Path,
    *,
    strategy: list[Strategy] | None = None,
    region: str | None = None,
    reliable: float = 0.8,
    model: str | None = None,
    api_key: str | None = None,
    base_url: str | None = None,
    provider: str | None = None,
) -> LocateCommandResult:
    """Find `target` (`text:Save`, `image:ref.png`, `dynamic:…`, plain text) in a screenshot
    file, as `winctl locate TARGET --in IMAGE`; boxes are the file's pixels. `model`,
    `api_key`, `base_url`, `provider` choose the vision model for `dynamic:` and `image:`
    targets the template misses (as `--vision-model` etc.; the environment otherwise)."""
    llm = {
        k: v
        for k, v in (("model", model), ("api_key", api_key), ("base_url", base_url), ("provider", provider))
        if v is not None
    }
    args: dict[str, Any] = {"target": target, "in_": os.fspath(image), "reliable": reliable, "strategy": strategy or []}
    if region is not None:
        args["region"] = region
    return Desktop._typed(LocateCommandResult, _on_files("locate", args, {"llm": llm}))


@calls("match")
def match(reference: Path, image: Path, *, threshold: float = 0.75) -> MatchResult:
    """Where the `reference` image appears in the screenshot `image` (`winctl match`):
    `result.matches`, best first, each with its box, confidence, method and scale."""
    return Desktop._typed(
        MatchResult,
        _on_files("match", {"reference": os.fspath(reference), "image": os.fspath(image), "threshold": threshold}),
    )


@calls("verify-location")
def verify_location(
    target: str, at: Box, *, image: Path, thumbnail: str | None = None, reliable: float = 0.8
) -> VerifyResult:
    """Is `target`, found at `at` (with its `thumbnail`), still there in the screenshot `image`?
    (`Desktop.verify_location` asks the live screen.)"""
    return Desktop._typed(
        VerifyResult,
        _on_files(
            "verify-location",
            {"target": target, "at": _box(at), "thumbnail": thumbnail, "reliable": reliable, "in_": os.fspath(image)},
        ),
    )


def _on_files(command: str, args: dict[str, Any], options: dict[str, Any] | None = None) -> Result:
    """Run a file-only call with no desktop; its errors carry hints phrased for Python."""
    try:
        result = dispatch_files(command, args, GlobalOptions.model_validate(options or {}))
    except WinctlError as exc:
        exc.hint = hint_for(exc.hint, "python")
        raise
    if result is None:  # pragma: no cover - these arguments always name a file
        raise InvalidInput(f"{command} needs a screenshot file here")
    return result


def _box(at: Box) -> str:
    """A box as the command's text: `x,y,width,height`."""
    if isinstance(at, Rect):
        return f"{at.left},{at.top},{at.width},{at.height}"
    if isinstance(at, tuple):
        return ",".join(str(v) for v in at)
    return at


__all__ = ["TYPED", "Desktop", "locate_in", "match", "verify_location"]
