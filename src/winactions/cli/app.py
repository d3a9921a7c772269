"""`winctl`: the command line, generated from the command table.

No command is written here. Each registered command becomes a click command whose
arguments and options come from its pydantic parameters (descriptions become help);
"get text" becomes the subcommand `text` of a `get` group. Every invocation ends in
`dispatch`, and every output goes through `winactions.render`.
"""

from __future__ import annotations

import contextlib
import enum
import re
import sys
import traceback
import types
import typing
from collections.abc import Callable
from typing import Any, Protocol

import click
from pydantic.fields import FieldInfo

from winactions import progress, render, settings
from winactions.api import Desktop
from winactions.cli.entry import normalize_global_options
from winactions.commands.base import (
    GROUP_HELP,
    RETURN_STATE_CAP,
    Command,
    GlobalOptions,
    Kind,
    dispatch_files,
    load_commands,
)
from winactions.errors import InvalidInput, WinctlError
from winactions.llm.config import LLMFlags
from winactions.options import FLAG_OPTIONS, OPTIONAL_VALUE_HELP, OPTIONAL_VALUES, VALUE_OPTIONS, ValueOption
from winactions.session.paths import bad_session_name


def _unwrap(annotation: Any) -> tuple[Any, bool]:
    """(inner type, is optional) for `X | None`."""
    origin = typing.get_origin(annotation)
    if origin in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(annotation) if a is not type(None)]
        if len(args) == 1:
            return args[0], True
    return annotation, False


class IdOrName(click.ParamType):  # type: ignore[type-arg]
    """An element: a word of digits is the id (an int: `click 7`), any other word a name or a
    visual target (a str: `click Save`, `click name:7` for the element named "7") — the one
    rule of the Python API and MCP, where an `int` is an id and a `str` a name."""

    name = "ID|NAME"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        return int(value) if isinstance(value, str) and re.fullmatch(r"-?[0-9]+", value.strip()) else value


def _click_type(annotation: Any) -> Any:
    """The click type of a parameter: a choice for a Literal or an enum, a list's item type,
    `IdOrName` for an element (`int | str`)."""
    inner, _ = _unwrap(annotation)
    if {int, str} <= set(typing.get_args(inner)):
        return IdOrName()
    if typing.get_origin(inner) is typing.Literal:
        return click.Choice([str(a) for a in typing.get_args(inner)])
    if isinstance(inner, type) and issubclass(inner, enum.Enum):
        return click.Choice([m.value for m in inner])
    if typing.get_origin(inner) is list:
        return _click_type(typing.get_args(inner)[0])
    return {int: click.INT, float: click.FLOAT, bool: click.BOOL}.get(inner, click.STRING)


def option_flag(name: str) -> str:
    """A parameter's option on the command line: `max_elements` is `--max-elements`, and `in_`
    (a keyword in Python) is `--in`."""
    return "--" + name.rstrip("_").replace("_", "-")


def _param(cmd: Command, name: str, field: FieldInfo) -> click.Parameter:
    """A parameter's click form: an argument when the command takes it by position (all the
    remaining words when variadic), else an option (a flag for a bool, repeatable for a list)."""
    ctype = _click_type(field.annotation)
    if name == cmd.variadic:
        return click.Argument([name], nargs=-1, required=field.is_required(), type=ctype)
    if name in cmd.positional:
        return click.Argument([name], required=field.is_required(), type=ctype)
    flag = option_flag(name)
    default = None if field.is_required() else field.get_default(call_default_factory=True)
    if isinstance(default, enum.Enum):
        default = default.value
    if _unwrap(field.annotation)[0] is bool:
        return click.Option([flag, name], is_flag=True, default=bool(default), help=field.description)
    size = _fixed_size(field)
    if size:  # a list of exactly N items is one option of N values: --rect X Y W H
        return click.Option([flag, name], type=ctype, nargs=size, default=None, help=field.description)
    if typing.get_origin(_unwrap(field.annotation)[0]) is list:  # a repeatable option: --strategy ocr --strategy vision
        return click.Option([flag, name], type=ctype, multiple=True, default=default or (), help=field.description)
    return click.Option(
        [flag, name],
        type=ctype,
        default=default,
        required=field.is_required(),
        show_default=default is not None,
        help=field.description,
    )


def _fixed_size(field: FieldInfo) -> int | None:
    """N for a list parameter that must hold exactly N items (min_length == max_length), else None."""
    if typing.get_origin(_unwrap(field.annotation)[0]) is not list:
        return None
    low = next((m.min_length for m in field.metadata if hasattr(m, "min_length")), None)
    high = next((m.max_length for m in field.metadata if hasattr(m, "max_length")), None)
    return low if low is not None and low == high and low > 1 else None


class DesktopProvider(Protocol):
    """Where a command's Desktop comes from: a fresh one per process (one-shot), or the
    daemon's long-lived one. Returns the desktop and what to call when done."""

    def __call__(self, options: GlobalOptions) -> tuple[Desktop, Callable[[], None]]: ...


def one_shot_desktop(options: GlobalOptions) -> tuple[Desktop, Callable[[], None]]:
    """A Desktop for this process's one command, closed when it is done."""
    desktop = Desktop(options.session, live=False, device=options.device)
    return desktop, desktop.close


def _make_click_command(cmd: Command, leaf_name: str, provider: DesktopProvider) -> click.Command:
    """The click command of a table command: its parameters in the table's positional order
    (an action also takes --max-elements), its help, and a callback that runs it (`run`)."""
    params = [_param(cmd, name, field) for name, field in cmd.params.model_fields.items()]
    # click shows arguments in declaration order; keep the table's positional order
    order = {n: i for i, n in enumerate((*cmd.positional, *([cmd.variadic] if cmd.variadic else [])))}
    params.sort(key=lambda p: (not isinstance(p, click.Argument), order.get(p.name or "", 0)))
    if cmd.kind is Kind.ACTION:  # an option of the call, as --return-state is (its own on `state`)
        params.append(click.Option(["--max-elements", "return_cap"], type=click.IntRange(min=1), help=RETURN_STATE_CAP))

    @click.pass_context
    def callback(click_ctx: click.Context, return_cap: int | None = None, **kwargs: Any) -> None:
        args = {
            k: (list(v) if isinstance(v, tuple) else v)
            for k, v in kwargs.items()
            if v is not None and not (isinstance(v, tuple) and not v)
        }
        options = click_ctx.find_root().obj
        if return_cap is not None:
            options = options.model_copy(update={"max_elements": return_cap})
        run(cmd.name, args, options, provider)

    return _Command(
        leaf_name,
        params=params,
        callback=callback,
        help=cmd.help,
        short_help=cmd.summary,
        no_args_is_help=False,
        context_settings={"ignore_unknown_options": False},
    )


SHORT_HELP_LIMIT = 57  # one line of `winctl --help` at 80 columns beside its longest name (type-into-element)
_SENTENCE = re.compile(r"(.+?[.!?])(?=\s|$)")
_ENV_OR_DEFAULT = re.compile(r"\s*\[(env var|default): [^\]]*\]|\s*\[[0-9<=x]+\]")
_ASIDE = re.compile(r"\s?\([^()]*\)")


def short_help(text: str, limit: int = SHORT_HELP_LIMIT) -> str:
    """A command's one-line summary for `winctl --help`, at most `limit` characters.

    The first sentence of its help; while too long, without its asides in parentheses,
    then up to its first ": ", "; " or " — ", then up to the last ", " that fits; else cut
    at a word with "...". The full help stays in `winctl CMD --help`."""
    first = " ".join(text.split("\n\n")[0].split())
    sentence = _SENTENCE.match(first)
    line = (sentence.group(1) if sentence else first).rstrip(".")
    while len(line) > limit and _ASIDE.search(line):
        line = _ASIDE.sub("", line)
    if len(line) > limit:
        cuts = [i for i in (line.find(m) for m in (": ", "; ", " — ")) if i >= 12]
        line = line[: min(cuts)] if cuts else line
    if len(line) > limit:
        commas = [m.start() for m in re.finditer(", ", line) if 12 <= m.start() <= limit]
        line = line[: max(commas)] if commas else line
    return line if len(line) <= limit else line[: limit - 3].rsplit(" ", 1)[0] + "..."


def _shorten(group: click.Group) -> None:
    """Give every command of `group` (and of its sub-groups) its one-line summary."""
    for command in group.commands.values():
        command.short_help = short_help(command.help or command.short_help or "")
        if isinstance(command, click.Group):
            _shorten(command)


def global_option_rows() -> list[tuple[str, str]]:
    """(flag, help) of every global option, from the one table in `winactions.options`."""
    rows = [(o.flag, o.help + (f" [env var: {o.env}]" if o.env else "")) for o in FLAG_OPTIONS]
    rows += [(f"{flag} [{'|'.join(modes[1])}]", OPTIONAL_VALUE_HELP[flag]) for flag, modes in OPTIONAL_VALUES.items()]
    for v in VALUE_OPTIONS:
        metavar = "|".join(v.choices) if v.choices else "NUMBER" if v.fraction else "TEXT"
        rows.append((f"{v.flag} {metavar}", v.help + (f" [env var: {v.env}]" if v.env else "")))
    return rows


SETTINGS_HELP = (
    f"{settings.PREFIX}* environment variables tune winctl (read budgets, model, session): "
    "docs/settings.md lists them; `winctl doctor` shows those set and flags bad values."
)


def _format_global_options(formatter: click.HelpFormatter) -> None:
    with formatter.section("Global options (before or after the command)"):
        formatter.write_dl(global_option_rows())


class _Command(click.Command):
    """A command whose help also lists the global options, which go before or after it."""

    def format_epilog(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        _format_global_options(formatter)
        super().format_epilog(ctx, formatter)


def run(name: str, args: dict[str, Any], options: GlobalOptions, provider: DesktopProvider) -> None:
    """Run one command and print its result; errors go to stderr with an exit code."""
    done: Callable[[], None] | None = None
    watch = (
        progress.watching(_to_terminal)
        if progress.current() is None and sys.stderr.isatty()
        else contextlib.nullcontext()
    )
    try:
        with watch as watched:
            result = dispatch_files(name, args, options)  # files only: no backend opened
            if result is None:
                desktop, done = provider(options)
                result = desktop.run(name, args, options)
        if watched is not None and watched.elapsed >= watched.delay:
            sys.stderr.write(progress.CLEAR)  # the progress line goes before the answer is printed
        click.echo(render.to_json(result) if options.json_output else render.to_text(result))
        failed = result.failure()
        if failed is not None:  # the result is printed; the exit code still says it failed
            if not options.json_output:
                click.echo(render.error_text(failed), err=True)
            sys.exit(failed.exit_code)
    except WinctlError as exc:
        _fail(exc, options)
    except Exception as exc:  # a bug: still answer in the protocol's shape
        if settings.DEBUG.read():
            traceback.print_exc()
        _fail(
            WinctlError(
                f"internal error: {type(exc).__name__}: {exc}", hint="set WINCTL_DEBUG=1 for a traceback, and report it"
            ),
            options,
        )
    finally:
        if done is not None:
            done()


def _to_terminal(message: str, elapsed: float) -> None:
    """Progress on a terminal's stderr: one line, overwritten, cleared before the answer."""
    sys.stderr.write(progress.line(message, elapsed))
    sys.stderr.flush()


def _fail(exc: WinctlError, options: GlobalOptions) -> None:
    if options.json_output:
        click.echo(render.error_json(exc))
    else:
        click.echo(render.error_text(exc), err=True)
    sys.exit(exc.exit_code)


class _Group(click.Group):
    """Lists commands in table order; its commands and sub-groups (`get`, `session`) list
    the global options in their help too."""

    command_class = _Command
    group_class = type  # sub-groups are _Group as well

    def list_commands(self, ctx: click.Context) -> list[str]:
        return list(self.commands)

    def format_options(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The root's options (the global ones) one short line each: every command's
        `--help` lists them in full, env vars included."""
        if ctx.parent is not None:
            return super().format_options(ctx, formatter)
        rows = [record for p in self.get_params(ctx) if (record := p.get_help_record(ctx)) is not None]
        with formatter.section("Options (in full: any command's --help)"):
            formatter.write_dl([(flag, short_help(_ENV_OR_DEFAULT.sub("", text), 44)) for flag, text in rows])
        with formatter.section("Settings"):
            formatter.write_text(SETTINGS_HELP)
        self.format_commands(ctx, formatter)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The root's commands one line each, never wrapped: the summary is cut to what fits
        beside the longest name at the formatter's width. Sub-groups list theirs as click does."""
        if ctx.parent is not None:
            return super().format_commands(ctx, formatter)
        names = [name for name in self.list_commands(ctx) if not self.commands[name].hidden]
        column = max(map(len, names)) + 2
        limit = min(SHORT_HELP_LIMIT, formatter.width - formatter.current_indent - 2 - column)
        with formatter.section("Commands"):
            for name in names:
                command = self.commands[name]
                summary = short_help(command.help or command.short_help or "", limit)
                formatter.write(f"{'':>{formatter.current_indent}}{name:<{column}}{summary}\n")
        return None

    def format_epilog(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        if ctx.parent is not None:  # the root's own options are the global ones: listed already
            _format_global_options(formatter)
        super().format_epilog(ctx, formatter)


def _value_option(option: ValueOption) -> Callable[[Any], Any]:
    """A click option from the shared table of global options."""
    ctype: Any = click.STRING
    if option.choices:
        ctype = click.Choice(option.choices)
    elif option.fraction:
        ctype = click.FloatRange(0, 1)
    help_text = option.help + (f" [env var: {option.env}]" if option.env and option.core_reads_env else "")
    click_env = None if option.core_reads_env else option.env
    return click.option(
        option.flag,
        type=ctype,
        default=option.default,
        envvar=click_env,
        show_envvar=click_env is not None,
        show_default=option.default is not None,
        help=help_text,
    )


def _global_options(command: Callable[..., None]) -> Callable[..., None]:
    """Every global option, from the one table in `winactions.options`."""
    for option in reversed(VALUE_OPTIONS):
        command = _value_option(option)(command)
    for flag in reversed(list(OPTIONAL_VALUES)):
        modes = OPTIONAL_VALUES[flag][1]
        command = click.option(flag, type=click.Choice(modes), default="off", help=OPTIONAL_VALUE_HELP[flag])(command)
    for flag_option in reversed(FLAG_OPTIONS):
        env = f" [env var: {flag_option.env}]" if flag_option.env else ""
        dest = "json_output" if flag_option.dest == "json" else flag_option.dest
        command = click.option(flag_option.flag, dest, is_flag=True, help=flag_option.help + env)(command)
    return command


def build_cli(provider: DesktopProvider = one_shot_desktop) -> click.Group:
    """`winctl`: the global options, every command of the table (`get text` as `text` in a
    `get` group), and winctl's own commands (mcp, skill, session(s), doctor)."""

    @click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
    @_global_options
    @click.version_option(package_name="winactions")
    @click.pass_context
    def cli(ctx: click.Context, no_daemon: bool, **values: Any) -> None:
        """Desktop UI automation for AI agents.

        Perceive with `winctl state`, act on the printed ids with `winctl click 3`,
        `winctl input 2 "text"`, `winctl keys ctrl+s`; the manual for agents is `winctl
        skill`. Global options go before or after
        the command (`winctl state --json`); `--` ends them, and goes before negative
        coordinates: `winctl drag-at -- -1900 300 -1700 300`.
        """
        llm = LLMFlags(
            provider=values.pop("llm_provider"),
            api_key=values.pop("vision_api_key"),
            base_url=values.pop("vision_base_url"),
            model=values.pop("vision_model"),
        )
        ctx.obj = GlobalOptions.model_validate({"llm": llm, **values})
        problem = bad_session_name(ctx.obj.session)  # before any file is named after it, in every command
        if problem:
            _fail(InvalidInput(problem, hint="e.g. --session work1"), ctx.obj)

    groups: dict[str, click.Group] = {}
    for cmd in load_commands().values():
        head, _, leaf = cmd.name.partition(" ")
        if leaf:
            group = groups.get(head)
            if group is None:
                group = _Group(head, help=GROUP_HELP.get(head, f"{head.capitalize()} something about an element."))
                groups[head] = group
                cli.add_command(group)
            group.add_command(_make_click_command(cmd, leaf, provider))
        else:
            cli.add_command(_make_click_command(cmd, head, provider))
    from winactions.cli.doctor import add_doctor_command
    from winactions.cli.mcp_command import add_mcp_command
    from winactions.cli.sessions import add_session_commands
    from winactions.cli.skill_command import add_skill_command

    add_mcp_command(cli)
    add_skill_command(cli)

    add_session_commands(cli)
    add_doctor_command(cli)
    _shorten(cli)
    return cli


def local_commands(regenerate: str) -> str:
    """The source of `winactions.cli.local_commands`, the console script's table (it reads no
    more than the standard library): winctl's own commands, outside the table, and the commands
    that read only files, whatever their parameters or given an option (`offline`).
    `regenerate`: the command that writes it, named in its docstring."""
    table = load_commands()
    heads = {name.split()[0] for name in table}
    own = sorted(n for n in build_cli().commands if n not in heads)
    files = sorted(n for n, c in table.items() if c.offline is True)
    files_with = {n: option_flag(c.offline) for n, c in sorted(table.items()) if isinstance(c.offline, str)}
    if any(" " in n for n in [*files, *files_with]):
        raise ValueError("the console script sees a command's first word only: a subcommand cannot be file-only")
    with_option = ", ".join(f'"{n}": "{flag}"' for n, flag in files_with.items())
    return f'''"""Which command lines the console script runs in its own process, not in the session's daemon.

Generated from the command table by `{regenerate}`; do not edit by hand.
Standard library only: the console script reads it before anything else is imported.
"""

# winctl's own commands: they manage daemons, serve MCP, print the manual, check this shell's desktop
OWN = {_name_set(own)}
FILES = {_name_set(files)}  # read only files, whatever their parameters (`offline=True`)
FILES_WITH = {{{with_option}}}  # ...when given this option
'''


def _name_set(names: list[str]) -> str:
    return "frozenset({" + ", ".join(f'"{n}"' for n in names) + "})"


def mcp_session(ctx: click.Context) -> str:
    """The session `winctl mcp` serves: the one asked for (`--session`, WINCTL_SESSION), even
    "default", so its ids are the command line's; `mcp` when none is asked for."""
    root = ctx.find_root()
    asked = root.get_parameter_source("session") not in (None, click.core.ParameterSource.DEFAULT)
    return str(root.obj.session) if asked else "mcp"


def invoke(cli: click.Group, argv: list[str]) -> None:
    """Run one command line through `cli`; ends with SystemExit on errors and usage errors."""
    try:
        cli.main(args=normalize_global_options(argv), prog_name="winctl", standalone_mode=False)
    except click.exceptions.Exit as exc:
        sys.exit(exc.exit_code)
    except click.Abort:
        sys.exit(130)
    except WinctlError as exc:  # from a command outside the table (`session close`)
        _fail(exc, GlobalOptions(json_output="--json" in argv))
    except click.UsageError as exc:  # a usage error is an error of the protocol like any other
        command = " ".join(exc.ctx.command_path.split()[1:]) if exc.ctx else ""
        hint = f"see `winctl {command} --help`" if command else "see `winctl --help`"
        _fail(InvalidInput(exc.format_message(), hint=hint), GlobalOptions(json_output="--json" in argv))


def main(argv: list[str] | None = None) -> None:
    """Run one command line in this process (`sys.argv` when none is given)."""
    invoke(build_cli(), list(sys.argv[1:] if argv is None else argv))


if __name__ == "__main__":
    main()
