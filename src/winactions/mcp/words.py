"""The command table's help in MCP's words, rewritten in one place for every tool.

A command's help is written for the command line: `winctl state --scope dialog`, `--x and
--y`. A model calling tools reads it as tool calls and JSON fields instead: a command named
with `winctl` becomes the tool of that name (`render.hint_for`), an option `--max-depth`
becomes the field `max_depth`, and what only the command line has (`winctl --device SERIAL`)
is said to be the command line's. Applied to each tool's description and to every
description inside its input schema.
"""

from __future__ import annotations

import re
from typing import Any

from winactions.render import hint_for

_FLAG = re.compile(r"(?<![\w-])--([a-z][a-z0-9]*(?:-[a-z0-9]+)*)")
_COMMAND_LINE = re.compile(r"`winctl ([^`]*)`")


def mcp_words(text: str | None) -> str | None:
    """`text` with commands named as tools and options as the JSON fields they are."""
    if not text:
        return text
    said = hint_for(text, "mcp") or ""
    said = _COMMAND_LINE.sub(lambda m: f"the command line's `{m.group(1)}`", said)
    said = _FLAG.sub(lambda m: m.group(1).replace("-", "_"), said)
    return said.replace("winctl ", "the command line's ")


def in_mcp_words(schema: Any) -> Any:
    """A JSON schema whose descriptions are in MCP's words (`mcp_words`)."""
    if isinstance(schema, list):
        return [in_mcp_words(v) for v in schema]
    if not isinstance(schema, dict):
        return schema
    return {
        k: (mcp_words(v) if k == "description" and isinstance(v, str) else in_mcp_words(v)) for k, v in schema.items()
    }
