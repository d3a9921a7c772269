"""The `winctl` console script: forward to a session daemon, or run the full CLI here.

With `--session NAME` (or WINCTL_SESSION) the command runs in that session's daemon and
this process only forwards it — so it imports nothing but the standard library. Without a
session, or for commands that manage daemons or serve MCP, the full CLI runs in-process.
"""

from __future__ import annotations

import os
import sys

LOCAL_COMMANDS = {"sessions", "session", "mcp", "skill"}
OPTIONS_WITH_VALUE = {"--window", "--session"}


def split_session(argv: list[str]) -> tuple[str | None, str | None]:
    """(session name, command name) from the global options before the command."""
    name = os.environ.get("WINCTL_SESSION") or None
    i = 0
    while i < len(argv):
        token = argv[i]
        if token == "--session" and i + 1 < len(argv):
            name = argv[i + 1]
        elif token.startswith("--session="):
            name = token.partition("=")[2]
        if token in OPTIONS_WITH_VALUE:
            i += 2
            continue
        if token.startswith("-"):
            i += 1
            continue
        return name, token
    return name, None


def main() -> None:
    argv = sys.argv[1:]
    name, command = split_session(argv)
    if name and command is not None and command not in LOCAL_COMMANDS and "--help" not in argv:
        from winactions.session.client import forward

        sys.exit(forward(name, argv))
    from winactions.cli.app import main as full_cli

    full_cli(argv)


if __name__ == "__main__":
    main()
