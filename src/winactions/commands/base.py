"""The command table: every command is defined once, here or in a feature module.

A command is one object — name, parameters (a pydantic model), handler, kind, CLI shape,
and every other fact a front end needs of it (its MCP profiles, whether the tiers change
what it shows, whether a call reads only files), declared in its `@command(...)` line. Its
result type says how it reads as text and JSON (`Result`). The CLI, the session daemon, the
MCP server and the Python API loop over the table and call `dispatch`; none of them holds
per-command code or a list of names. Help text comes from the handler's docstring and the
parameter descriptions; the MCP schema is `params.model_json_schema()`.
"""

from __future__ import annotations

import contextlib
import functools
import importlib
import inspect
import json
import pkgutil
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from enum import Enum
from typing import Annotated, Any, ClassVar, Literal, TypeVar, get_args

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    PrivateAttr,
    ValidationError,
    field_validator,
    model_validator,
)

from winactions.backends.base import Backend, Capability
from winactions.commands.formats import changes_text, diff_data, state_data, state_text
from winactions.commands.recorder import kept
from winactions.commands.stateview import StateDiff, capped, diff, lines
from winactions.errors import BackendUnavailable, InvalidInput, Unsupported, WinctlError, WindowClosed, shown
from winactions.extras import missing_extra
from winactions.llm.config import LLMFlags
from winactions.model import UIState, WindowInfo
from winactions.options import help_of
from winactions.outputs import Outputs
from winactions.session.desktop import DesktopSession
from winactions.session.displays import Frame


class Kind(str, Enum):
    """What a command does to the desktop: MCP marks reads read-only, and only actions honour
    --return-state and --max-elements."""

    READ = "read"  # perceives, changes nothing
    ACTION = "action"  # changes the UI; honours --return-state
    WINDOW = "window"  # selects or manages windows
    SESSION = "session"  # changes winctl's own state (the locator's cache), not the UI: not read-only


# The MCP tool profiles (`winctl mcp --tools core,vision`), each the tools one kind of work
# needs: a command names the profiles that serve it; `winactions.mcp.profiles` says what each is for.
ProfileName = Literal["core", "vision", "windows", "phone", "tasks", "people"]
PROFILE_NAMES: tuple[str, ...] = get_args(ProfileName)


# what an action's `--max-elements` (MCP: `max_elements`) does; `state` has its own
RETURN_STATE_CAP = "with --return-state: list at most this many changes and say how many were left out"

# a parameter for a person only: MCP leaves it out (`force`: files for a model never replace one)
CLI_ONLY: dict[str, Any] = {"cli_only": True}


def element_ref(value: Any) -> Any:
    """An element reference as given: an id is an integer (`true` and `1.0` are not ids, though
    pydantic would take both for one), a name is not blank. A digit string stays a string."""
    if isinstance(value, bool) or not isinstance(value, (int, str, type(None))):
        raise ValueError(f"an element id is a whole number like 3, or a name; not {shown(value, 40)}")
    if isinstance(value, str) and not value.strip():
        raise ValueError("an element name cannot be empty")
    return value


def not_blank(value: Any) -> Any:
    """A name or title to look for is not empty: an empty one would match everything."""
    if isinstance(value, str) and not value.strip():
        raise ValueError("cannot be empty")
    return value


Ref = Annotated[int | str, BeforeValidator(element_ref)]  # an element id, a name, or a visual target
OptionalRef = Annotated[int | str | None, BeforeValidator(element_ref)]
OptionalId = Annotated[int | None, BeforeValidator(element_ref)]  # an element id only
OptionalName = Annotated[str | None, BeforeValidator(not_blank)]

# an element to read, by id or by name (`get value Name`), for every command that only reads one
ID_OR_NAME = Field(description="element id, or a name the window shows")


class Params(BaseModel):
    """Base of every command's parameters: unknown fields are an error, not ignored, and a
    boolean is never taken for a number (pydantic would read `true` as 1 for a coordinate)."""

    model_config = ConfigDict(extra="forbid")

    @model_validator(mode="before")
    @classmethod
    def _no_boolean_numbers(cls, data: Any) -> Any:
        if isinstance(data, dict):
            for name, value in data.items():
                field = cls.model_fields.get(name)
                if isinstance(value, bool) and field is not None and not _takes(field.annotation, (bool, str)):
                    raise ValueError(f"{name} is a number, not {value}")  # ids and names: `element_ref`
        return data


def _takes(annotation: Any, kinds: tuple[type, ...]) -> bool:
    """Whether a field's type admits a value of one of `kinds` (or is Any), through unions and
    `Annotated`."""
    if annotation is Any or annotation in kinds:
        return True
    return any(_takes(arg, kinds) for arg in get_args(annotation))


class GlobalOptions(BaseModel):
    """Options every command accepts (before the command name on the command line)."""

    model_config = ConfigDict(extra="forbid")

    json_output: bool = Field(default=False, description=help_of("json"))
    window: str | None = Field(default=None, description=help_of("window"))
    return_state: bool = Field(default=False, description=help_of("return_state"))
    max_elements: int | None = Field(default=None, ge=1, description=RETURN_STATE_CAP)  # an action's, on its call
    session: str = Field(default="default", description=help_of("session"))
    device: str | None = Field(default=None, description=help_of("device"))
    infer: Literal["off", "rules", "llm"] = Field(default="off", description=help_of("infer"))  # Tier 1+
    vision: Literal["off", "auto", "local", "llm"] = Field(default="off", description=help_of("vision"))  # Tier 2
    llm: LLMFlags = Field(default_factory=LLMFlags)  # which model --infer llm / --vision llm ask
    infer_min_confidence: float | None = Field(
        default=None, ge=0, le=1, description=help_of("infer_min_confidence")
    )  # None: env, else 0.7
    vision_iou: float | None = Field(default=None, ge=0, le=1, description=help_of("vision_iou"))  # None: env, else 0.1

    @field_validator("infer", mode="before")
    @classmethod
    def _infer_flag(cls, value: Any) -> Any:
        """`infer: true` (MCP, older callers) means the rules."""
        return {True: "rules", False: "off"}.get(value, value) if isinstance(value, bool) else value

    @field_validator("vision", mode="before")
    @classmethod
    def _vision_flag(cls, value: Any) -> Any:
        return {True: "auto", False: "off"}.get(value, value) if isinstance(value, bool) else value


class Result(BaseModel):
    """Base of what handlers return. A result knows how it is read: `text()` on the command
    line and in MCP, `data()` in JSON, `images()` for an MCP client to see; `winactions.render`
    is the front ends' one door to these. A new result type says all of it beside its fields."""

    state: UIState | None = None  # filled by --return-state after an action: the whole new state
    # ...and what changed since the state the caller saw last, less what --max-elements left
    # out (`returned_text` and `data` write both; a batch step's dump does not repeat them)
    changes: StateDiff | None = Field(default=None, exclude=True)
    changes_omitted: int = Field(default=0, exclude=True)
    # on a display chosen by `switch-display`, the coordinates are relative to it (`dispatch`):
    # that display's data when the result holds any ({} when it holds none); None on `all`
    _display: dict[str, Any] | None = PrivateAttr(default=None)
    # the result's coordinates are the whole screen's whichever display is chosen (`displays`)
    screen_coordinates: ClassVar[bool] = False

    def text(self) -> str:
        """What the command did or read, as text for a person or a model, without what
        --return-state added (`returned_text`): a batch lists each step's first line. Unless a
        result type says otherwise, its JSON data, indented."""
        return json.dumps(self.data(), indent=2)

    def returned_text(self) -> str:
        """With --return-state, what follows the text: what changed since the state the caller
        saw last, or the whole new state when there is no diff; "" without."""
        if self.state is None:
            return ""
        if self.changes is None:
            return state_text(self.state)
        return changes_text(self.state, self.changes, self.changes_omitted)

    def data(self) -> dict[str, Any]:
        """The result as JSON data (`{"ok": true, "result": ...}`'s `result`): its fields, and
        with --return-state the new state in its compact form and what changed in it."""
        data = self.model_dump(mode="json", exclude={"state"})
        if self.state is not None:
            data["state"] = state_data(self.state)
        if self.state is not None and self.changes is not None:
            data["changes"] = diff_data(self.state, self.changes)
            if self.changes_omitted:
                data["changes"]["omitted"] = self.changes_omitted
        return data

    def images(self) -> list[str]:
        """The PNG files an MCP client is sent as images with the text, so the model sees them
        without reading files: none unless a result type says so."""
        return []

    def failure(self) -> WinctlError | None:
        """What went wrong when a command ran to the end and reports a failure in its result
        (a task that failed): front ends show the result and still fail the call."""
        return None


@dataclass
class Context:
    """What a handler may use: the session and the call's global options.

    A call that reads only files (`match`, `locate --in shot.png`) runs with no session at
    all (`opened` is None: no display, no accessibility bus, no session store touched).
    `outputs`: the call comes from a model (MCP, the daemon's structured call), so the files
    it writes go inside that folder and replace nothing; None: paths as given (a person's)."""

    opened: DesktopSession | None
    options: GlobalOptions
    _window: WindowInfo | None = field(default=None, repr=False)
    outputs: Outputs | None = None

    @property
    def session(self) -> DesktopSession:
        """The open session; a call that reads only files has none, and asking fails loudly."""
        if self.opened is None:  # a command's `offline` test let through a call that needs the desktop
            raise BackendUnavailable(
                "this call needs the desktop, but it runs on files only",
                hint="run it without --in, in a desktop session",
            )
        return self.opened

    def window(self) -> WindowInfo:
        """The window this call acts on (resolved once per call)."""
        if self._window is None:
            self._window = self.session.current_window(self.options.window)
        return self._window

    def forget_window(self) -> None:
        self._window = None


P = TypeVar("P", bound=Params)
Handler = Callable[[Context, Any], Result]


@dataclass(frozen=True)
class Command:
    """One command, declared once with its handler (`@command`): every front end reads these
    facts from here and holds no per-command code or list of names."""

    name: str  # "click", or "get text" for a subcommand
    params: type[Params]
    handler: Handler
    kind: Kind
    positional: tuple[str, ...] = ()  # parameters taken by position on the command line
    variadic: str | None = None  # a positional that takes the rest of the words
    capability: Capability | None = None  # what the backend must be able to do, if anything special
    destructive: bool = False  # may destroy what the user has (closes a window): MCP clients ask first
    # reads only files, so runs with no desktop: True always, a parameter's name when it is given
    offline: bool | str = False
    profiles: frozenset[str] = frozenset()  # the MCP tool profiles that serve it (`ProfileName`)
    perceives: bool = False  # the perception tiers (--infer, --vision) change what it shows

    @property
    def help(self) -> str:
        """The command's help: its handler's docstring, dedented (`winctl NAME --help`, MCP)."""
        return inspect.cleandoc(self.handler.__doc__ or self.name)

    @property
    def summary(self) -> str:
        """The help's first paragraph on one line."""
        return " ".join(self.help.split("\n\n")[0].split())

    def reads_only_files(self, params: Params) -> bool:
        """Whether a call with these parameters reads only files (`offline`), and so needs no desktop."""
        return self.offline is True or (isinstance(self.offline, str) and getattr(params, self.offline) is not None)

    @property
    def tool_name(self) -> str:
        """The name in MCP and other places that do not allow spaces or dashes."""
        return self.name.replace(" ", "_").replace("-", "_")


REGISTRY: dict[str, Command] = {}
# the help of a group of commands (`record` of `record start`), declared by the module of its commands
GROUP_HELP: dict[str, str] = {}

# called with (context, command, parameters) before each action or window command's handler
# runs: the status label says what the agent does (`commands.people`); a hook never fails the call
BEFORE_ACTION: list[Callable[[Context, Command, Params], None]] = []


def command(
    name: str,
    params: type[P],
    *,
    kind: Kind = Kind.READ,
    positional: tuple[str, ...] = (),
    variadic: str | None = None,
    capability: Capability | None = None,
    destructive: bool = False,
    offline: bool | str = False,
    profiles: tuple[ProfileName, ...] = (),
    perceives: bool = False,
) -> Callable[[Callable[[Context, P], Result]], Callable[[Context, P], Result]]:
    """Register a handler as the command `name`, with every fact a front end needs of it (see
    `Command`). `offline`: the call reads only files, so it runs with no desktop session (see
    `dispatch_files`) — True always, a parameter's name when that parameter is given. Refuses
    a name defined twice, a positional or `offline` that is not a parameter, and a profile that
    does not exist."""

    def register(handler: Callable[[Context, P], Result]) -> Callable[[Context, P], Result]:
        if name in REGISTRY:
            raise ValueError(f"command {name!r} is defined twice")
        for p in (*positional, *([variadic] if variadic else []), *([offline] if isinstance(offline, str) else [])):
            if p not in params.model_fields:
                raise ValueError(f"{name}: {p!r} is not a parameter")
        unknown = set(profiles) - set(PROFILE_NAMES)
        if unknown:
            raise ValueError(f"{name}: no MCP profile {', '.join(sorted(unknown))} (see ProfileName)")
        REGISTRY[name] = Command(
            name,
            params,
            handler,
            kind,
            positional,
            variadic,
            capability,
            destructive,
            offline,
            frozenset(profiles),
            perceives,
        )
        return handler

    return register


def available(backend: Backend) -> list[Command]:
    """The commands this backend can run (a front end offers only these)."""
    return [c for c in load_commands().values() if c.capability is None or c.capability in backend.capabilities]


def load_commands() -> dict[str, Command]:
    """The table: every command of every module of this package, in the order of the modules'
    names (a command's module is imported, and so registers it, the first time). A new module
    of commands needs no line anywhere else."""
    _import_modules()
    return REGISTRY


@functools.cache
def _import_modules() -> None:
    import winactions.commands as package

    for module in sorted(m.name for m in pkgutil.iter_modules(package.__path__)):
        importlib.import_module(f"{package.__name__}.{module}")


def _not_text(value: Any, where: str) -> tuple[str, str] | None:
    """(where, the offending character) for the first string holding a lone surrogate: bytes
    that were not UTF-8 on the command line (Python keeps them as U+DC80..U+DCFF), which
    would otherwise reach the app as nonsense keys or text."""
    if isinstance(value, str):
        bad = next((ch for ch in value if "\ud800" <= ch <= "\udfff"), None)
        return (where, bad) if bad else None
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, item in items:
        found = _not_text(item, f"{where}.{key}" if where else str(key))
        if found:
            return found
    return None


def validate(cmd: Command, args: dict[str, Any]) -> Params:
    """Parameters from untrusted input, with errors an agent can act on."""
    found = _not_text(args, "")
    if found:
        where, ch = found
        code = ord(ch)
        what = f"byte 0x{code - 0xDC00:02x}" if 0xDC80 <= code <= 0xDCFF else f"a lone surrogate U+{code:04X}"
        raise InvalidInput(
            f"{cmd.name}: {where} is not valid UTF-8 text (it holds {what}); nothing was sent",
            hint="pass text in UTF-8 (check the terminal's or the caller's encoding)",
        )
    try:
        return cmd.params.model_validate(args)
    except ValidationError as exc:
        problems = []
        for err in exc.errors():
            where = ".".join(str(p) for p in err["loc"]) or "arguments"
            problems.append(f"{where}: {err['msg'].removeprefix('Value error, ')}")
        raise InvalidInput(f"{cmd.name}: " + "; ".join(problems), hint=f"see `winctl {cmd.name} --help`") from None


@contextlib.contextmanager
def extras_named(name: str) -> Iterator[None]:
    """A module of an optional extra that could not be imported becomes an error naming the
    extra to install (`pip install 'winactions[vision]'`), never an internal error."""
    try:
        yield
    except ImportError as exc:
        clear = missing_extra(exc, f"`winctl {name}`")
        if clear is None:
            raise
        raise clear from exc


def dispatch_files(name: str, args: dict[str, Any], options: GlobalOptions) -> Result | None:
    """Run a call that reads only files (its command's `offline` says so for these
    parameters) with no desktop at all; None when the call needs the desktop. The one-shot
    CLI and the Python API's file functions call this first, so that `winctl match a.png
    b.png` works with no display and never opens (or waits for) the platform backend."""
    cmd = load_commands().get(name)
    if cmd is None or cmd.offline is False:
        return None
    params = validate(cmd, args)
    if not cmd.reads_only_files(params):
        return None
    with extras_named(cmd.name):
        return cmd.handler(Context(None, options), params)


def dispatch(name: str, args: dict[str, Any], ctx: Context) -> Result:
    """Validate and run one command; the one call path of every front end."""
    commands = load_commands()
    cmd = commands.get(name)
    if cmd is None:
        import difflib

        close = difflib.get_close_matches(name, list(commands), n=3)
        raise InvalidInput(
            f"unknown command {shown(name)}",
            hint=f"did you mean {', '.join(close)}?" if close else "run `winctl --help`",
        )
    params = validate(cmd, args)
    asked = params  # as the caller gave them, in the chosen display's coordinates: what a record keeps
    backend = ctx.session.backend
    if cmd.capability is not None and cmd.capability not in backend.capabilities:
        raise Unsupported(
            f"{cmd.name} is not available on the {backend.platform} backend: {backend.lacks(cmd.capability)}",
            hint="nothing was done; `winctl --help` lists the commands",
        )
    ctx.session.set_tiers(
        ctx.options.infer, ctx.options.vision, ctx.options.llm, ctx.options.infer_min_confidence, ctx.options.vision_iou
    )
    ctx.session.done_on_the_way.clear()
    returning = cmd.kind is Kind.ACTION and ctx.options.return_state
    if ctx.options.max_elements is not None and not returning:
        raise InvalidInput(
            f"{cmd.name}: --max-elements caps what --return-state lists after an action",
            hint="add --return-state, or leave --max-elements out; nothing was done",
        )
    seen = ctx.session.data.shown if returning else None  # the last state the caller saw, before the handler
    # `switch-display` mends a lost display; a file's pixels have no display
    display = None if cmd.kind is Kind.SESSION or cmd.reads_only_files(params) else ctx.session.display()
    frame = Frame(display) if display is not None else None
    if frame is not None:  # the one place coordinates cross into the screen's (`session.displays`)
        params = frame.params_in(params)
    if cmd.kind in (Kind.ACTION, Kind.WINDOW):
        for hook in BEFORE_ACTION:
            hook(ctx, cmd, params)
    with extras_named(cmd.name):
        result = kept(ctx, cmd, asked, lambda: cmd.handler(ctx, params))  # in the session's record, if on
    detail = getattr(result, "detail", None)  # an action's note (ActionResult)
    if ctx.session.done_on_the_way and isinstance(detail, str):  # the page scrolled, say, to reach its target
        result.detail = "; ".join([*ctx.session.done_on_the_way, *([detail] if detail else [])])  # type: ignore[attr-defined]
    if cmd.kind is Kind.ACTION and ctx.session.backend.bound_window() is not None:
        ctx.session.save()  # the bound input's virtual pointer must outlive this process
    if returning:
        return_state(result, seen, ctx)
    return shown_on(frame, result)


def shown_on(frame: Frame | None, result: Result) -> Result:
    """The result with its coordinates relative to the chosen display (`Frame.shown`) and
    marked with it; as it is on `all`, or when its coordinates are the whole screen's."""
    if frame is None or result.screen_coordinates or result._display is not None:
        return result
    moved, seen = frame.shown(result)
    assert isinstance(moved, Result)
    moved._display = {**frame.display.data(), "label": frame.display.label} if seen else {}
    return moved


def return_state(result: Result, seen: UIState | None, ctx: Context) -> None:
    """Fill `result.state` with the settled state of the window the action left active (a
    dialog it opened), and `result.changes` with what differs from `seen`, the state the
    caller saw last: every element when there was none or it was of another window. When the
    action closed its window (a dialog's OK), that is said and the state is the window now
    active, if any: the action did what it was asked, so the call does not fail for it."""
    try:
        result.state = ctx.session.settled_state()
    except WindowClosed as exc:
        closed = f"its window closed ({exc.message.removeprefix('the ')})"
        active = next((w for w in ctx.session.backend.list_windows() if w.active), None)
        if active is None:
            _say(result, f"{closed}; no window is active now")
            ctx.forget_window()
            return
        ctx.session.select_window(active)
        ctx.session.notes.append(f'{closed}; now in "{active.title}"')
        result.state = ctx.session.settled_state()
    ctx.forget_window()
    ctx.session.data.shown = result.state
    ctx.session.save()
    changes = diff(seen, result.state, result.state.targets)
    result.changes = capped(changes, ctx.options.max_elements)
    result.changes_omitted = lines(changes) - lines(result.changes)


def _say(result: Result, note: str) -> None:
    """Add `note` to an action's detail (an ActionResult's), where it is printed."""
    detail = getattr(result, "detail", None)
    if isinstance(detail, str) or (detail is None and "detail" in type(result).model_fields):
        result.detail = "; ".join(part for part in (detail, note) if part)  # type: ignore[attr-defined]
