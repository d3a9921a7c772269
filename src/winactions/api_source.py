"""The source of the generated typed API: `winactions.api_commands` (a method per command of
the table, its parameters typed from the command's `Params`) and `winactions.api_async` (every
public method of `Desktop`, awaited). `scripts/gen_command_docs.py` writes both; a test fails
when the committed files are stale.

Real source, not methods built at import: mypy, IDEs and `help()` read real signatures, and
the files show in review what a change to the table changes in the API.
"""

from __future__ import annotations

import enum
import inspect
import keyword
import re
import textwrap
import types
import typing
from collections.abc import Callable
from typing import Annotated, Any, Literal, get_args, get_origin

import typing_extensions
from pydantic.fields import FieldInfo

from winactions.commands.base import Command, GlobalOptions, Kind, load_commands

# A command whose CLI word is taken by the object's own plumbing or lifecycle gets this name
# (`Desktop.close()` releases the session, `Desktop.run` is the front ends' call path,
# `Desktop.window` is the window calls act on).
RENAMED = {"close": "close_window", "run": "run_task", "window": "manage_window"}
# plumbing methods of Desktop with no command behind them: AsyncCore awaits them by hand
PLUMBING = frozenset({"run", "call", "commands", "close"})
BUILTIN_NAMES = frozenset(
    {"int", "str", "float", "bool", "None", "True", "False", "list", "dict", "tuple", "type", "object"}
)
TYPING_NAMES = frozenset({"Any", "Literal"})


def method_name(cmd: Command) -> str:
    """The Python name of a command: its CLI word with `_` for `-` and spaces (`get_text`)."""
    return RENAMED.get(cmd.tool_name, cmd.tool_name)


def type_source(annotation: Any, imports: dict[str, set[str]]) -> str:
    """A field's type as a caller writes it: no validators, an enum as the Literal of its
    values, a model class by its name (imported)."""
    if annotation is type(None) or annotation is None:
        return "None"
    if annotation is Any:
        return "Any"
    origin = get_origin(annotation)
    if origin is Annotated:
        return type_source(get_args(annotation)[0], imports)
    if origin in (typing.Union, types.UnionType):
        return " | ".join(type_source(a, imports) for a in get_args(annotation))
    if origin is Literal:
        return f"Literal[{', '.join(repr(a) for a in get_args(annotation))}]"
    if origin in (list, dict, tuple):
        return f"{origin.__name__}[{', '.join(type_source(a, imports) for a in get_args(annotation))}]"
    if isinstance(annotation, type) and issubclass(annotation, enum.Enum):
        return f"Literal[{', '.join(repr(m.value) for m in annotation)}]"
    if isinstance(annotation, type):
        if annotation.__module__ != "builtins":
            imports.setdefault(annotation.__module__, set()).add(annotation.__name__)
        return annotation.__name__
    raise ValueError(f"no source for the type {annotation!r}")


def _default(info: FieldInfo) -> str | None:
    """A field's default as source (None: required); a default built per call is `None`."""
    if info.is_required():
        return None
    if info.default_factory is not None:
        return "None"
    value = info.default.value if isinstance(info.default, enum.Enum) else info.default
    return repr(value)


def _globals(cmd: Command) -> list[str]:
    """The call's global options a command's method takes: the window always, what an action
    returns (`return_state`, `max_elements`), the tiers where they change what it shows."""
    names = ["window"]
    if cmd.kind is Kind.ACTION:
        names += ["return_state", "max_elements"]
    if cmd.perceives:
        names += ["infer", "vision"]
    return [n for n in names if n not in cmd.params.model_fields]


def _docstring(text: str, indent: str) -> str:
    body = text.replace("\\", "\\\\").replace('"""', '\\"\\"\\"')
    lines = body.splitlines()
    return "\n".join([f'{indent}"""{lines[0]}', *(f"{indent}{ln}" if ln else "" for ln in lines[1:]), f'{indent}"""'])


# the call's options as Python has them: they live on the call (the CLI's help says otherwise)
OPTION_HELP = {
    "window": "act on this window (id, title part or process) in this call; None: the Desktop's",
    "return_state": "also return the new state, and in `changes` what changed since the state seen last",
}


def _help(cmd: Command) -> str:
    """A method's docstring: the command's help, then its parameters' and the options' help."""
    rows = []
    for name, info in cmd.params.model_fields.items():
        rows.append(f"{name}: {' '.join((info.description or '').split()) or '(see above)'}")
    for name in _globals(cmd):
        said = OPTION_HELP.get(name) or GlobalOptions.model_fields[name].description or ""
        rows.append(f"{name}: {' '.join(said.split())}")
    wrapped = [textwrap.fill(r, 96, subsequent_indent="    ") for r in rows]
    return "\n\n".join([cmd.help, f"`winctl {cmd.name}`. Parameters:", "\n".join(wrapped)]) if rows else cmd.help


def _signature(cmd: Command, imports: dict[str, set[str]]) -> list[str]:
    """The parameters' source: the table's positionals in order, then keywords."""
    fields = cmd.params.model_fields
    order = [*cmd.positional, *([cmd.variadic] if cmd.variadic else [])]
    out = ["self"]
    for name in [*order, "*", *[f for f in fields if f not in order]]:
        if name == "*":
            if len(out) - 1 < len(fields) or _globals(cmd):
                out.append("*")
            continue
        if keyword.iskeyword(name):  # pragma: no cover - pydantic allows no keyword as a field
            raise ValueError(f"{cmd.name}: {name} is a Python keyword")
        info = fields[name]
        kind = type_source(info.annotation, imports)
        if info.default_factory is not None and "None" not in kind.split(" | "):
            kind += " | None"
        default = _default(info)
        out.append(f"{name}: {kind}" + ("" if default is None else f" = {default}"))
    for name in _globals(cmd):
        info = GlobalOptions.model_fields[name]
        out.append(f"{name}: {type_source(info.annotation, imports)} = {info.default!r}")
    if out[-1] == "*":
        out.pop()
    return out


def _return(cmd: Command, imports: dict[str, set[str]]) -> str:
    """The handler's return annotation as written, its names imported from its module."""
    written = cmd.handler.__annotations__.get("return", "Result")
    text = written if isinstance(written, str) else written.__name__
    for name in re.findall(r"[A-Za-z_]\w*", text):
        _add(imports, name, cmd.handler.__module__)
    return text


def _add(imports: dict[str, set[str]], name: str, where: str) -> None:
    """Import `name`, as `where` sees it, from the module that defines it (a class), or from
    `where` itself (an alias such as `Infer`)."""
    import importlib

    value = getattr(importlib.import_module(where), name)
    home = getattr(value, "__module__", where) if isinstance(value, type) else where
    imports.setdefault(home, set()).add(name)


def _method(cmd: Command, imports: dict[str, set[str]]) -> str:
    name = method_name(cmd)
    params = _signature(cmd, imports)
    returns = _return(cmd, imports)
    head = f"    def {name}(\n" + "".join(f"        {p},\n" for p in params) + f"    ) -> {returns}:"
    kind = returns if " | " not in returns else f"({returns.replace(' | ', ', ')})"
    return "\n".join(
        [
            f"    @calls({cmd.name!r})",
            head,
            _docstring(_help(cmd), "        "),
            f'        return typed({kind}, self.call("{cmd.name}", **args_of(locals())))',
        ]
    )


def _imports(imports: dict[str, set[str]]) -> list[str]:
    return [f"from {m} import {', '.join(sorted(n))}" for m, n in sorted(imports.items())]


def commands_source(regenerate: str, own: Callable[[str], bool]) -> str:
    """`winactions.api_commands`: `Commands`, a typed method per command of the table, except
    those `own` says Desktop defines by hand (they return a value, not the result)."""
    imports: dict[str, set[str]] = {"winactions.api_base": {"args_of", "calls", "typed"}}
    table = sorted(load_commands().values(), key=method_name)
    methods = [_method(c, imports) for c in table if not own(method_name(c))]
    header = f'''# ruff: noqa: E501 - docstrings are the table's help, as written
"""The typed methods of `Desktop`, one per command of the table.

Generated from the command table by `{regenerate}`; do not edit by hand.
Each method is `Desktop.call(NAME, ...)` with the command's parameters as typed arguments
(an element: an `int` is an id, a `str` a name) and its result typed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

{chr(10).join(_imports(imports))}

if TYPE_CHECKING:
    from winactions.commands.base import Result


class Commands:
    """A typed method per command of the table (`Desktop`'s base: its `call` runs them)."""

    def call(self, command: str, /, **args: Any) -> Result:  # pragma: no cover - Desktop's
        raise NotImplementedError

'''
    return header + "\n\n".join(methods) + '\n\n\n__all__ = ["Commands"]\n'


def _parameters(function: Callable[..., Any], imports: dict[str, set[str]]) -> tuple[list[str], list[str]]:
    """A function's parameters as source (annotations as written, their names imported) and
    how a call passes each on (by keyword)."""
    params, passed = [], []
    star = False
    for p in inspect.signature(function).parameters.values():
        if p.annotation is not p.empty:
            _import_names(str(p.annotation), function, imports)
        if p.kind is p.VAR_KEYWORD:
            params.append(f"**{p.name}: {p.annotation}")
            passed.append(f"**{p.name}")
            continue
        if p.kind is p.KEYWORD_ONLY and not star:
            params.append("*")
            star = True
        text = p.name if p.annotation is p.empty else f"{p.name}: {p.annotation}"
        params.append(text if p.default is p.empty else f"{text} = {p.default!r}")
        if p.name != "self":
            passed.append(f"{p.name}={p.name}")
    return params, passed


def _async_head(name: str, function: Callable[..., Any], imports: dict[str, set[str]]) -> tuple[str, list[str]]:
    params, passed = _parameters(function, imports)
    returns = inspect.signature(function).return_annotation
    _import_names(str(returns), function, imports)
    return f"    async def {name}(\n" + "".join(f"        {p},\n" for p in params) + f"    ) -> {returns}:", passed


def _async_method(name: str, function: Callable[..., Any], imports: dict[str, set[str]]) -> str:
    """`name`, awaited: the same parameters and overloads (annotations as written), passed on
    by keyword."""
    overloads = [_async_head(name, f, imports)[0] for f in typing_extensions.get_overloads(function)]
    if overloads:
        imports.setdefault("typing", set()).add("overload")
    head, passed = _async_head(name, function, imports)
    doc = inspect.getdoc(function) or name
    return "\n".join(
        [
            *(f"    @overload\n{o} ..." for o in overloads),
            head,
            _docstring(f"`Desktop.{name}`, awaited.\n\n{doc}", "        "),
            f"        return await self._do(lambda: self.desktop.{name}({', '.join(passed)}))",
        ]
    )


def _import_names(annotation: str, function: Callable[..., Any], imports: dict[str, set[str]]) -> None:
    """Import each name an annotation (as written) uses from where the function was written."""
    for name in re.findall(r"[A-Za-z_]\w*", re.sub(r"'[^']*'|\"[^\"]*\"", "", annotation)):
        if name in BUILTIN_NAMES:
            continue
        if name in TYPING_NAMES:
            imports.setdefault("typing", set()).add(name)
        else:
            _add(imports, name, function.__module__)


def async_source(regenerate: str, desktop: type) -> str:
    """`winactions.api_async`: `AsyncDesktop`, every public method of `desktop` awaited
    (plumbing and deprecated aliases left out: `AsyncCore` has `call` and `commands`)."""
    imports: dict[str, set[str]] = {"winactions.api_base": {"AsyncCore"}}
    methods = []
    for name in sorted(n for n in dir(desktop) if not n.startswith("_") and n not in PLUMBING):
        function = getattr(desktop, name)
        if inspect.isfunction(function) and not getattr(function, "deprecated", None):
            methods.append(_async_method(name, function, imports))
    imports.get("typing", set()).discard("TYPE_CHECKING")
    header = f'''"""`AsyncDesktop`: every method of `Desktop`, awaited.

Generated from `Desktop` by `{regenerate}`; do not edit by hand.
Calls run one at a time in one worker thread that holds the session (`AsyncCore`).
"""

from __future__ import annotations

{chr(10).join(_imports(imports))}


class AsyncDesktop(AsyncCore):
    """One session of the desktop for asyncio code: `async with AsyncDesktop(window="Editor")
    as desktop: await desktop.click(3)`. Its keywords and methods are `Desktop`'s; each call
    runs in the session's own worker thread, so the event loop never waits on the desktop."""

'''
    return header + "\n\n".join(methods) + '\n\n\n__all__ = ["AsyncDesktop"]\n'
