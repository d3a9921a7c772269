"""Which tools `winctl mcp --tools PROFILE` serves.

Every tool an MCP client lists costs the model context on every turn: the whole table is
~39 tools and tens of KB. A profile serves what an agent needs for one kind of work, as
agent-browser's `core` / `all` do; profiles combine (`--tools core,vision`). Each command
names its profiles, and whether it perceives (only those tools take the tier options `infer`
and `vision`), where it is declared (`@command(..., profiles=..., perceives=...)`); this module
reads them off the table and says what each profile is for. Two profiles serve another tool
set's names instead (`TRANSLATED`: `computer-use`, `computer`), each tool a translation onto a command.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from winactions.commands.base import PROFILE_NAMES, load_commands
from winactions.errors import InvalidInput

if TYPE_CHECKING:
    from winactions.mcp.translated import Translated

# what each profile is for, as `winctl mcp --help` says it (a command names its profiles)
PURPOSES: dict[str, str] = {
    "core": "perceive and act on ids",  # click-element and type-into-element are find then click/input: `all`
    "vision": "pixels, coordinates, the locator",
    "windows": "apps and windows",  # launch and choose-file too: core has ~30 bytes of its 15 KB left
    "phone": "swipe, long-press, go-home, launch, open-url, devices",
    "tasks": "run, replay, record a session",
    "people": "the status label, teach mode",
}
DEFAULT = "core"
# the profiles of tools named as another tool set names them (`winactions.mcp.translated`)
TRANSLATED: dict[str, str] = {
    "computer-use": "the computer-use set by its own names: left_click, zoom, computer_batch...",
    "computer": "Anthropic's computer tool",
}


def served_by(profile: str) -> frozenset[str]:
    """The names of the commands that name `profile` among their profiles."""
    return frozenset(c.name for c in load_commands().values() if profile in c.profiles)


PROFILES: dict[str, frozenset[str]] = {name: served_by(name) for name in PROFILE_NAMES}
PERCEIVING = frozenset(c.name for c in load_commands().values() if c.perceives)  # the tools the tiers change


def tools_help() -> str:
    """`winctl mcp --tools`'s help: every profile with its purpose, then `all`."""
    listed = ", ".join(f"{name} ({PURPOSES[name]})" for name in PROFILE_NAMES)
    other = ", ".join(f"{name} ({purpose})" for name, purpose in TRANSLATED.items())
    return f"which tools to serve: {listed}, all; {other}; combine with commas: core,tasks"


class Served(NamedTuple):
    """What a `--tools` value serves: the command names (None: every command) and the
    translated tools (`winactions.mcp.translated.Translated`) by name."""

    commands: frozenset[str] | None
    translated: dict[str, Translated]


def resolve(spec: str) -> Served:
    """What a `--tools` value (`core`, `core,vision`, `computer-use`) serves. Refuses an empty value,
    an unknown profile (naming the profiles there are) and profiles whose tools share a name."""
    names = [part.strip() for part in spec.split(",") if part.strip()]
    known = [*PROFILES, "all", *TRANSLATED]
    if not names:
        raise InvalidInput("--tools needs a profile", hint=f"one or more of {', '.join(known)}")
    unknown = [n for n in names if n not in known]
    if unknown:
        raise InvalidInput(
            f"unknown tool profile {', '.join(unknown)}",
            hint=f"profiles: {', '.join(known)} (combine with commas: core,vision)",
        )
    commands = None if "all" in names else frozenset().union(*(PROFILES[n] for n in names if n in PROFILES))
    translated = {t.name: t for n in names if n in TRANSLATED for t in translated_tools(n)}
    table = load_commands()
    clash = sorted({c.tool_name for c in table.values() if commands is None or c.name in commands} & set(translated))
    if clash:
        raise InvalidInput(
            f"--tools {spec}: tools of these profiles share names ({', '.join(clash)})",
            hint=f"serve {', '.join(n for n in names if n in TRANSLATED)} alone, or with profiles without those names",
        )
    return Served(commands, translated)


def excluded(spec: str, served: Served) -> frozenset[str]:
    """The tool names a `--exclude-tools` value leaves out (`get_text,launch`; a command's name
    as typed, `get text`, is taken too). Refuses a name that is no tool of the table or of the
    translated profiles served, naming it."""
    table = load_commands()
    names = {c.tool_name: c.tool_name for c in table.values()} | {n: c.tool_name for n, c in table.items()}
    names |= {t: t for t in served.translated}
    asked = [part.strip() for part in spec.split(",") if part.strip()]
    unknown = [a for a in asked if a not in names]
    if unknown:
        raise InvalidInput(
            f"--exclude-tools: no tool named {', '.join(unknown)}",
            hint="tool names as tools/list shows them, joined by commas: get_text,launch",
        )
    return frozenset(names[a] for a in asked)


def translated_tools(profile: str) -> tuple[Translated, ...]:
    """The tools of a translated profile (`computer-use`, `computer`)."""
    if profile == "computer":
        from winactions.mcp.computer import COMPUTER

        return (COMPUTER,)
    from winactions.mcp.computer_use import COMPUTER_USE_TOOLS

    return COMPUTER_USE_TOOLS
