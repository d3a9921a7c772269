"""Each tool's `title` and annotations, derived in one place from the command table.

A command's `Kind` decides the base: a read is read-only and closed-world; winctl's own state
(`Kind.SESSION`) and window management are neither read-only nor destructive; an action on
the UI is destructive by default, since a click or a key may lose what the user has (Save's
"Don't save", ctrl+w), as Playwright MCP marks its clicks and keys. The overrides below
name the exceptions: actions that cannot lose data, calls that change nothing more when
repeated (idempotent), and calls that reach outside the desktop's windows (open-world:
starting programs, opening URLs, the task runner that may use a model). `close` is marked
destructive on its command (`@command(..., destructive=True)`).

On the wire a hint is sent only where it differs from the MCP spec's default
(readOnlyHint false, destructiveHint true, idempotentHint false, openWorldHint true), which a
client applies when one is left out: the `core` profile has a size budget.
"""

from __future__ import annotations

import mcp_types as types

from winactions.commands.base import Command, Kind

# actions that cannot lose data: they move, look or hold, and nothing is typed or pressed for good
HARMLESS = frozenset({"scroll", "scroll-at", "mouse-move", "select-text"})
# a second identical call changes nothing more
IDEMPOTENT = frozenset(
    {"input", "select", "focus", "bind-window", "window", "close", "switch-display", "revoke", "status-indicator"}
)
# reach beyond the windows on the desktop: start programs, open URLs, call a model
OPEN_WORLD = frozenset({"launch", "open-url", "open-terminal", "run", "replay"})
# titles the command's name does not spell well
TITLES = {"dblclick": "Double-click", "rightclick": "Right-click", "state": "Window state", "batch": "Run steps"}


def title(cmd: Command) -> str:
    """A short human title: the override, else the command's words ("get text" → "Get text")."""
    return TITLES.get(cmd.name) or cmd.name.replace("-", " ").capitalize()


def hints(cmd: Command) -> dict[str, bool]:
    """All four hints of the command, spelled out (what a client reads, defaults applied)."""
    read = cmd.kind is Kind.READ
    destructive = cmd.destructive or (cmd.kind is Kind.ACTION and cmd.name not in HARMLESS)
    return {
        "read_only_hint": read,
        "destructive_hint": destructive and not read,
        "idempotent_hint": read or cmd.name in IDEMPOTENT,
        "open_world_hint": cmd.name in OPEN_WORLD,
    }


SPEC_DEFAULTS = {"read_only_hint": False, "destructive_hint": True, "idempotent_hint": False, "open_world_hint": True}


def tool_annotations(cmd: Command) -> types.ToolAnnotations:
    """The command's annotations with only the hints that differ from the spec's defaults (a
    read-only tool's destructive and idempotent hints mean nothing to a client and are left out)."""
    said = {k: v for k, v in hints(cmd).items() if v != SPEC_DEFAULTS[k]}
    if said.get("read_only_hint"):
        said.pop("destructive_hint", None)
        said.pop("idempotent_hint", None)
    return types.ToolAnnotations.model_validate(said)
