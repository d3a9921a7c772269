"""The `winctl` console script: forward to the session's daemon, or run the full CLI here.

Every command runs in its session's daemon (`--session NAME`, WINCTL_SESSION, else
"default"), started on first use, and this process only forwards it — so it imports nothing
but the standard library. Measured on the test bed: a one-shot process that imports the CLI
and reads the tree itself costs ~0.9 s a command, a forwarded one ~0.05 s (the README has
the numbers). `--no-daemon` (or WINCTL_NO_DAEMON=1) runs the command in this process
instead; commands that manage daemons or serve MCP always do.
"""

from __future__ import annotations

import os
import sys

from winactions.options import FLAGS_WITH_VALUE, OPTIONAL_VALUES

LOCAL_COMMANDS = {"sessions", "session", "mcp", "skill"}


def normalize_global_options(argv: list[str]) -> list[str]:
    """Spell optional-value options as `--infer=llm` / `--infer=rules` before the command name,
    so that `winctl --infer state` and `winctl --infer llm state` both parse unambiguously."""
    out: list[str] = []
    i = 0
    while i < len(argv):
        token = argv[i]
        if token in OPTIONAL_VALUES:
            default, allowed = OPTIONAL_VALUES[token]
            if i + 1 < len(argv) and argv[i + 1] in allowed:
                out.append(f"{token}={argv[i + 1]}")
                i += 2
            else:
                out.append(f"{token}={default}")
                i += 1
            continue
        if token in FLAGS_WITH_VALUE:
            out.extend(argv[i:i + 2])
            i += 2
            continue
        if not token.startswith("-") or token == "--":
            return out + argv[i:]
        out.append(token)
        i += 1
    return out


def split_session(argv: list[str]) -> tuple[str | None, str | None, bool]:
    """(session name, command name, --no-daemon given) from the global options before the command."""
    name = os.environ.get("WINCTL_SESSION") or None
    argv = normalize_global_options(argv)
    no_daemon = False
    i = 0
    while i < len(argv):
        token = argv[i]
        if token == "--session" and i + 1 < len(argv):
            name = argv[i + 1]
        elif token.startswith("--session="):
            name = token.partition("=")[2]
        elif token == "--no-daemon":
            no_daemon = True
        if token in FLAGS_WITH_VALUE:
            i += 2
            continue
        if token.startswith("-"):
            i += 1
            continue
        return name, token, no_daemon
    return name, None, no_daemon


def main() -> None:
    argv = sys.argv[1:]
    name, command, no_daemon = split_session(argv)
    no_daemon = no_daemon or os.environ.get("WINCTL_NO_DAEMON", "") not in ("", "0")
    if not no_daemon and command is not None and command not in LOCAL_COMMANDS and "--help" not in argv \
            and "-h" not in argv:
        from winactions.daemon.client import forward

        sys.exit(forward("default" if name is None else name, argv))
    from winactions.cli.app import main as full_cli

    full_cli(argv)


if __name__ == "__main__":
    main()
