"""Plain helpers shared by the Android test modules (fixtures are in conftest.py)."""

from __future__ import annotations

import re


def ids(out: str) -> dict[str, int]:
    """`[Type] "name"` → id, from a compact state."""
    found: dict[str, int] = {}
    for line in out.splitlines():
        match = re.match(r'\s*\[(\d+)\] \[(\w+)\] "([^"]*)"', line)
        if match:
            found.setdefault(f"{match.group(2)} {match.group(3)}", int(match.group(1)))
    return found
