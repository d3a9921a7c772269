"""Which tools `winctl mcp --tools PROFILE` serves (issue 16.5).

Every tool an MCP client lists costs the model context on every turn: the whole table is
~39 tools and tens of KB. A profile serves what an agent needs for one kind of work, as
agent-browser's `core` / `all` do; profiles combine (`--tools core,vision`). Tier options
(`infer`, `vision`) appear only on the tools that perceive.
"""

from __future__ import annotations

from winactions.errors import InvalidInput

PROFILES: dict[str, frozenset[str]] = {
    # perceive, act on ids, wait, and find windows: what most tasks need (click-element and
    # type-into-element are `find` then `click` / `input`: only in `all`)
    "core": frozenset({"state", "inspect", "screenshot", "click", "dblclick", "rightclick", "input", "type", "keys",
                       "press", "scroll", "select", "drag", "get text", "get value", "wait", "find",
                       "batch", "windows", "focus"}),
    # pixels and coordinates: the visual locator, close-ups and pointer primitives
    "vision": frozenset({"locate", "locate-cache", "match", "verify-location", "zoom", "screenshot", "get rect",
                         "click-at", "drag-at", "scroll-at", "mouse-down", "mouse-up", "mouse-move", "cursor",
                         "hold-key"}),
    # windows and apps: start, close, move, bind for background input, open and save files
    # (choose-file: core has ~100 bytes of its 15 KB left)
    "windows": frozenset({"windows", "focus", "launch", "close", "window", "bind-window", "clipboard",
                          "choose-file"}),
    # a phone's gestures and apps (`winctl mcp --device SERIAL --tools core,phone`)
    "phone": frozenset({"swipe", "long-press", "go-home", "launch", "devices"}),
    # a task in words, planned and done by the task runner; a recorded run replayed
    "tasks": frozenset({"run", "replay"}),
}
DEFAULT = "core"
PERCEIVING = frozenset({"state", "find"})  # the tools whose output the perception tiers change


def resolve(spec: str) -> frozenset[str] | None:
    """The command names of a `--tools` value (`core`, `core,vision`); None for `all`."""
    names = [part.strip() for part in spec.split(",") if part.strip()]
    if not names:
        raise InvalidInput("--tools needs a profile", hint=f"one or more of {', '.join([*PROFILES, 'all'])}")
    if "all" in names:
        return None
    unknown = [n for n in names if n not in PROFILES]
    if unknown:
        raise InvalidInput(f"unknown tool profile {', '.join(unknown)}",
                           hint=f"profiles: {', '.join([*PROFILES, 'all'])} (combine with commas: core,vision)")
    return frozenset().union(*(PROFILES[n] for n in names))
