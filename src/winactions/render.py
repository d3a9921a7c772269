"""The front ends' one door to a result's text and JSON, and to an error's.

Each result type says how it is read (`Result.text`, `data`: `winactions.commands.results`);
this module adds what every result shares: after an action with --return-state, the new state
or what changed in it; JSON as `{"ok": true, "result": {...}}` or `{"ok": false, "error":
{...}}`, so that an agent never parses prose; hints phrased for the caller's interface.
"""

from __future__ import annotations

import json
import re
from typing import Any

from winactions.commands.base import Result
from winactions.commands.formats import safe
from winactions.errors import WinctlError


def to_text(result: Result) -> str:
    """The result as the command line prints it and MCP returns it: its text, then with
    --return-state a blank line and the new state (or what changed in it)."""
    returned = result.returned_text()
    text = result.text()
    if result._display:  # on a chosen display: its first line says which (`commands.base.shown_on`)
        first, sep, rest = text.partition("\n")
        text = f"{first} on {result._display['label']}{sep}{rest}"
    return text + ("\n\n" + returned if returned else "")


def to_data(result: Result) -> dict[str, Any]:
    """The result as JSON data: what `--json` prints as `result`; on a chosen display, with
    `display` (index, name, rect, primary) that its coordinates are relative to."""
    data = result.data()
    if result._display:
        data["display"] = {k: v for k, v in result._display.items() if k != "label"}
    return data


def to_json(result: Result) -> str:
    """`--json`'s line: `{"ok": true, "result": ...}`, or `"ok": false` with the `error` when
    the result reports a failure (a task, a batch's step); non-ASCII kept as is."""
    failed = result.failure()  # a command that ran to the end and reports a failure (a task)
    body: dict[str, Any] = {"ok": failed is None, "result": to_data(result)}
    if failed is not None:
        body["error"] = failed.to_dict()
    return json.dumps(body, ensure_ascii=False)


def error_json(error: WinctlError) -> str:
    """`{"ok": false, "error": {code, message, hint}}` on one line."""
    return json.dumps({"ok": False, "error": error.to_dict()}, ensure_ascii=False)


_WINCTL = re.compile(r"`winctl (?:--\S+ \S+ )*([a-z][a-z-]*(?: (?:text|rect|value|stats|clear))?)([^`]*)`")


def hint_for(hint: str | None, interface: str) -> str | None:
    """A hint phrased for the caller: `winctl state` is a command to type in a shell, the
    `state` tool to an MCP client, `Desktop.call('state')` in Python."""
    if not hint or interface == "cli":
        return hint

    def name(match: re.Match[str]) -> str:
        command, rest = match.group(1), match.group(2).strip()
        if interface == "mcp":
            tool = command.replace(" ", "_").replace("-", "_")
            return f"the `{tool}` tool" + (f" ({rest})" if rest and rest != "--help" else "")
        return f"`Desktop.call({command!r})`" + (f" ({rest})" if rest and rest != "--help" else "")

    return _WINCTL.sub(name, hint).replace("run the `", "call the `").replace("run `Desktop", "use `Desktop")


def error_text(error: WinctlError) -> str:
    """`error: MESSAGE`, then `hint: HINT` on its own line, both escaped like an app's names."""
    return f"error: {safe(error.message)}" + (f"\nhint: {safe(error.hint)}" if error.hint else "")
