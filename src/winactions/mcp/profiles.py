"""Which tools `winctl mcp --tools PROFILE` serves.

Every tool an MCP client lists costs the model context on every turn: the whole table is
~39 tools and tens of KB. A profile serves what an agent needs for one kind of work, as
agent-browser's `core` / `all` do; profiles combine (`--tools core,vision`). Each command
names its profiles, and whether it perceives (only those tools take the tier options `infer`
and `vision`), where it is declared (`@command(..., profiles=..., perceives=...)`); this module
reads them off the table and says what each profile is for.
"""

from __future__ import annotations

from winactions.commands.base import PROFILE_NAMES, load_commands
from winactions.errors import InvalidInput

# what each profile is for, as `winctl mcp --help` says it (a command names its profiles)
PURPOSES: dict[str, str] = {
    "core": "perceive and act on ids",  # click-element and type-into-element are find then click/input: `all`
    "vision": "pixels, coordinates, the locator",
    "windows": "apps and windows",  # choose-file too: core has ~100 bytes of its 15 KB left
    "phone": "swipe, long-press, go-home, launch, devices",
    "tasks": "run, replay",
    "people": "the status label, teach mode",
}
DEFAULT = "core"


def served_by(profile: str) -> frozenset[str]:
    """The names of the commands that name `profile` among their profiles."""
    return frozenset(c.name for c in load_commands().values() if profile in c.profiles)


PROFILES: dict[str, frozenset[str]] = {name: served_by(name) for name in PROFILE_NAMES}
PERCEIVING = frozenset(c.name for c in load_commands().values() if c.perceives)  # the tools the tiers change


def tools_help() -> str:
    """`winctl mcp --tools`'s help: every profile with its purpose, then `all`."""
    listed = ", ".join(f"{name} ({PURPOSES[name]})" for name in PROFILE_NAMES)
    return f"which tools to serve: {listed}, all; combine with commas: core,tasks"


def resolve(spec: str) -> frozenset[str] | None:
    """The command names of a `--tools` value (`core`, `core,vision`); None for `all`.
    Refuses an empty value and an unknown profile, naming the profiles there are."""
    names = [part.strip() for part in spec.split(",") if part.strip()]
    if not names:
        raise InvalidInput("--tools needs a profile", hint=f"one or more of {', '.join([*PROFILES, 'all'])}")
    if "all" in names:
        return None
    unknown = [n for n in names if n not in PROFILES]
    if unknown:
        raise InvalidInput(
            f"unknown tool profile {', '.join(unknown)}",
            hint=f"profiles: {', '.join([*PROFILES, 'all'])} (combine with commas: core,vision)",
        )
    return frozenset().union(*(PROFILES[n] for n in names))
