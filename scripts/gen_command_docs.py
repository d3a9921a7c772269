"""Write docs/commands.md, the command reference, from the command table (and the console
script's list of the command lines it runs itself, src/winactions/cli/local_commands.py).

    .venv/bin/python scripts/gen_command_docs.py           # rewrite both
    .venv/bin/python scripts/gen_command_docs.py --check   # exit 1 if either is stale

Every command of `src/winactions/commands/` (its name, help, parameters with their types,
defaults and help), the commands of winctl itself (`doctor`, `mcp`, ...) and the global
options (`winactions.options`), as the CLI built from that table shows them. The output
depends on nothing but the table: no desktop, no terminal width, no dates.
"""

from __future__ import annotations

import argparse
import enum
import importlib
import inspect
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from winactions.cli.app import build_cli, global_option_rows, local_commands
from winactions.commands.base import Command, Kind, load_commands

ROOT = Path(__file__).resolve().parents[1]
TARGET = ROOT / "docs" / "commands.md"
LOCAL = ROOT / "src" / "winactions" / "cli" / "local_commands.py"
API = ROOT / "src" / "winactions"
REGENERATE = ".venv/bin/python scripts/gen_command_docs.py"

KIND_TITLES = {
    Kind.READ: "Commands that read",
    Kind.ACTION: "Commands that act",
    Kind.WINDOW: "Windows",
    Kind.SESSION: "winctl's own state",
}

HEADER = f"""# Command reference

<!-- Generated from the command table by `{REGENERATE}`; do not edit by hand. -->

Every command is defined once in `src/winactions/commands/`: its parameters, its help and its
handler. The CLI (`winctl NAME`), the MCP server (a tool named as the command, dashes and
spaces as `_`), the session daemon and the Python API (`Desktop.call("NAME", ...)`) are all
generated from that table, so this page is too. `winctl NAME --help` prints the same.
"""


def cell(text: str) -> str:
    """Text for one cell of a Markdown table: one line, pipes escaped."""
    return " ".join(text.split()).replace("|", "\\|")


def kind_of(cmd: Command) -> str:
    return KIND_TITLES[cmd.kind]


def leaf(cli: click.Group, name: str) -> tuple[click.Command, click.Context]:
    """The click command for a table command (`get text` is `text` in the group `get`) and a
    context that names it as a user types it."""
    ctx = click.Context(cli, info_name="winctl")
    command: click.Command = cli
    for word in name.split():
        assert isinstance(command, click.Group), name
        command = command.commands[word]
        ctx = click.Context(command, info_name=word, parent=ctx)
    return command, ctx


def usage(command: click.Command, ctx: click.Context) -> str:
    """The usage line on one line, whatever the terminal's width (click wraps its own)."""
    return " ".join([ctx.command_path, *command.collect_usage_pieces(ctx)])


def cli_form(param: click.Parameter) -> str:
    if isinstance(param, click.Argument):
        return f"`{param.human_readable_name}`" + (" ..." if param.nargs == -1 else "")
    return ", ".join(f"`{opt}`" for opt in param.opts)


def type_of(param: click.Parameter, field: Any) -> str:
    """The kind of value, as a user reads it: an element reference is an id or a name."""
    ptype = param.type
    if field is not None and isinstance(ptype, click.types.StringParamType):
        kinds = {s.get("type") for s in field_schema(field)}
        if "integer" in kinds and "string" in kinds:
            return "id or name"
    if isinstance(ptype, click.Choice):
        return " \\| ".join(f"`{c}`" for c in ptype.choices)
    if isinstance(param, click.Option) and param.is_flag:
        return "flag"
    names = {"integer": "number", "float": "number", "text": "text"}
    return names.get(ptype.name, ptype.name.replace("integer range", "number"))


def field_schema(field: Any) -> list[dict[str, Any]]:
    """The JSON schema alternatives of one pydantic field (one for a plain type)."""
    from pydantic import TypeAdapter

    schema = TypeAdapter(field.annotation).json_schema()
    return list(schema.get("anyOf", [schema]))


def default_of(param: click.Parameter) -> str:
    if param.required:
        return "required"
    default = param.default
    if isinstance(default, enum.Enum):
        default = default.value
    if not isinstance(default, (str, int, float)) or default is False:  # None, (), click's "unset"
        return ""
    return f"`{default}`"


def param_rows(params: list[click.Parameter], fields: dict[str, Any]) -> list[str]:
    rows = ["| parameter | type | default | what it is |", "|---|---|---|---|"]
    for param in params:
        field = fields.get(param.name or "")
        help_text = getattr(param, "help", None) or (field.description if field is not None else "") or ""
        extra = field.json_schema_extra if field is not None else None
        if isinstance(extra, dict) and extra.get("cli_only"):
            help_text += " (command line only: MCP does not offer it)"
        rows.append(f"| {cli_form(param)} | {type_of(param, field)} | {default_of(param)} | {cell(help_text)} |")
    return rows


def command_section(cmd: Command, cli: click.Group) -> list[str]:
    command, ctx = leaf(cli, cmd.name)
    lines = [f"### `{cmd.name}`", "", f"`{usage(command, ctx)}`", "", cmd.help, ""]
    notes = [f"MCP tool `{cmd.tool_name}`"]
    if cmd.capability is not None:
        notes.append(f"only where the backend can `{cmd.capability.value}`")
    if cmd.destructive:
        notes.append("destructive: MCP clients ask first")
    lines += ["; ".join(notes) + ".", ""]
    if command.params:
        lines += [*param_rows(command.params, cmd.params.model_fields), ""]
    return lines


def own_section(name: str, command: click.Command, cli: click.Group) -> list[str]:
    """A command of winctl itself (not in the table: it serves or inspects winctl)."""
    ctx = click.Context(command, info_name=name, parent=click.Context(cli, info_name="winctl"))
    lines = [f"### `{name}`", "", f"`{usage(command, ctx)}`", "", inspect.cleandoc(command.help or ""), ""]
    params = [p for p in command.params if p.name != "help"]
    if params:
        lines += [*param_rows(params, {}), ""]
    if isinstance(command, click.Group):
        for sub in sorted(command.commands):
            lines += own_section(f"{name} {sub}", command.commands[sub], cli)
    return lines


def render() -> str:
    """The whole reference, as it belongs in docs/commands.md."""
    cli = build_cli()
    table = load_commands()
    lines = [
        HEADER,
        "## Global options",
        "",
        "They go before or after the command (`winctl state --json`; `--` ends them).",
        "",
        "| option | what it does |",
        "|---|---|",
    ]
    lines += [f"| {cell('`' + flag + '`')} | {cell(text)} |" for flag, text in global_option_rows()]
    lines.append("")
    for kind, title in KIND_TITLES.items():
        names = sorted(n for n, c in table.items() if c.kind is kind)
        lines += [f"## {title}", "", ", ".join(f"`{n}`" for n in names), ""]
        for name in names:
            lines += command_section(table[name], cli)
    heads = {name.split()[0] for name in table}
    own = sorted(n for n in cli.commands if n not in heads)
    lines += ["## winctl itself", "", "Commands of the command line only: they serve or inspect winctl.", ""]
    for name in own:
        lines += own_section(name, cli.commands[name], cli)
    return "\n".join(lines).rstrip("\n") + "\n"


def api_sources() -> list[tuple[Path, Callable[[], str]]]:
    """The typed Python API's generated modules (`winactions.api_source`), each made when its
    turn comes: `api_async` reads `Desktop` as the `api_commands` just written defines it."""
    from winactions import api, api_commands, api_source

    def typed_methods() -> str:
        return api_source.commands_source(REGENERATE, lambda name: name in vars(api.Desktop))

    def awaited() -> str:
        importlib.reload(api_commands)
        return api_source.async_source(REGENERATE, importlib.reload(api).Desktop)

    return [
        (API / "api_commands.py", lambda: tidy(typed_methods(), "api_commands.py")),
        (API / "api_async.py", lambda: tidy(awaited(), "api_async.py")),
    ]


def tidy(source: str, name: str) -> str:
    """Generated Python as `ruff` keeps the rest: imports sorted, formatted."""
    ruff = [sys.executable, "-m", "ruff"]
    fixed = subprocess.run(
        [*ruff, "check", "--fix", "--select", "I", "--stdin-filename", name, "-"],
        input=source,
        capture_output=True,
        text=True,
        cwd=ROOT,
    ).stdout
    return subprocess.run(
        [*ruff, "format", "--stdin-filename", name, "-"],
        input=fixed,
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    ).stdout


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if a generated file is stale")
    check = parser.parse_args(argv).check
    stale = False
    for target, make in ((TARGET, render), (LOCAL, lambda: local_commands(REGENERATE)), *api_sources()):
        text = make()
        if check:
            if not target.exists() or target.read_text(encoding="utf-8") != text:
                print(f"{target.relative_to(ROOT)} is stale: run `{REGENERATE}`", file=sys.stderr)
                stale = True
            continue
        target.write_text(text, encoding="utf-8")
        print(f"wrote {target.relative_to(ROOT)} ({len(text.splitlines())} lines)")
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
