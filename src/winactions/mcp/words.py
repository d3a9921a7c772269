"""The command table's help in MCP's words, rewritten in one place for every tool.

A command's help is written for the command line: `winctl state --scope dialog`, `--x and
--y`. A model calling tools reads it as tool calls and JSON fields instead: a command named
with `winctl` becomes the tool of that name (`render.hint_for`), an option `--max-depth`
becomes the field `max_depth`, and what only the command line has (`winctl --device SERIAL`)
is said to be the command line's. Applied to each tool's description and to every
description inside its input schema.
"""

from __future__ import annotations

import functools
import re
from typing import Any

from winactions.commands.base import GlobalOptions, load_commands
from winactions.render import hint_for

_FLAG = re.compile(r"(?<![\w-])--([a-z][a-z0-9]*(?:-[a-z0-9]+)*)")
_COMMAND_LINE = re.compile(r"`winctl ([^`]*)`")


@functools.cache
def _fields() -> frozenset[str]:
    """Every parameter's name in the table as a tool takes it (`in`, not `in_`), and the
    global options' (`device`, `window`)."""
    names = {n for cmd in load_commands().values() for n in cmd.params.model_json_schema().get("properties", {})}
    return frozenset(names | set(GlobalOptions.model_fields))


def _tool_or_not(match: re.Match[str]) -> str:
    """A `winctl ...` that is a command of the table stays for `hint_for` to name as a tool;
    one of winctl's own (`mcp --confine`, `--device SERIAL ...`) is the command line's."""
    words = match.group(1).split()
    table = load_commands()
    if words and (words[0] in table or " ".join(words[:2]) in table):
        return match.group(0)
    return f"the command line's `{match.group(1)}`"


def _field(match: re.Match[str]) -> str:
    """`--max-depth` as the field `max_depth`; a flag that is no field (a program's own, in an
    argv example) stays as written."""
    name = match.group(1).replace("-", "_")
    return name if name in _fields() else match.group(0)


def mcp_words(text: str | None) -> str | None:
    """`text` with commands named as tools and options as the JSON fields they are."""
    if not text:
        return text
    said = hint_for(_COMMAND_LINE.sub(_tool_or_not, text), "mcp") or ""
    return _FLAG.sub(_field, said).replace("winctl ", "the command line's ")


def in_mcp_words(schema: Any) -> Any:
    """A JSON schema whose descriptions are in MCP's words (`mcp_words`)."""
    if isinstance(schema, list):
        return [in_mcp_words(v) for v in schema]
    if not isinstance(schema, dict):
        return schema
    return {
        k: (mcp_words(v) if k == "description" and isinstance(v, str) else in_mcp_words(v)) for k, v in schema.items()
    }
