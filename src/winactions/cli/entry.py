"""The `winctl` console script: forward to the session's daemon, or run the full CLI here.

Every command runs in its session's daemon (`--session NAME`, WINCTL_SESSION, else
"default"), started on first use, and this process only forwards it — so it imports nothing
but the standard library. Measured on the test bed: a one-shot process that imports the CLI
and reads the tree itself costs ~0.9 s a command, a forwarded one ~0.05 s (docs/benchmarks.md has
the numbers). `--no-daemon` (or WINCTL_NO_DAEMON=1) runs the command in this process
instead; winctl's own commands (they manage daemons, serve MCP) always do, and so do
command lines that read only files (`local_commands`, generated from the command table).
"""

from __future__ import annotations

import sys

from winactions import settings
from winactions.cli.local_commands import FILES, FILES_WITH, OWN
from winactions.options import FLAG_OPTIONS, FLAGS_WITH_VALUE, OPTIONAL_VALUES


def reads_only_files(command: str | None, argv: list[str]) -> bool:
    """Does this command line read only files (its command's `offline`, as
    `local_commands` lists it)? Then no daemon is started for it: a daemon opens the desktop,
    and these work where there is none (CI, a saved screenshot)."""
    if command in FILES:
        return True
    option = FILES_WITH.get(command or "")
    words = argv[: argv.index("--")] if "--" in argv else argv
    return option is not None and any(w == option or w.startswith(option + "=") for w in words)


GLOBAL_FLAGS = frozenset(o.flag for o in FLAG_OPTIONS)


def _global_option(argv: list[str], i: int) -> tuple[list[str], int] | None:
    """The global option at argv[i] as it goes before the command (`--infer=llm`,
    `--window X`) and how many words it took, or None when argv[i] is no global option."""
    token = argv[i]
    flag, eq, _value = token.partition("=")
    if token in OPTIONAL_VALUES:
        default, allowed = OPTIONAL_VALUES[token]
        if i + 1 < len(argv) and argv[i + 1] in allowed:
            return [f"{token}={argv[i + 1]}"], 2
        return [f"{token}={default}"], 1
    if token in FLAGS_WITH_VALUE:
        return argv[i : i + 2], 2
    if (eq and (flag in OPTIONAL_VALUES or flag in FLAGS_WITH_VALUE)) or token in GLOBAL_FLAGS:
        return [token], 1
    return None


def normalize_global_options(argv: list[str]) -> list[str]:
    """Global options go before the command for click; people and agents put them anywhere
    (`winctl state --json`, as in agent-browser and playwright-cli). So every global option
    is moved in front of the command name, spelled unambiguously (`--infer=llm`,
    `--infer=rules` for a bare `--infer`). Words after `--` are never touched."""
    front: list[str] = []
    rest: list[str] = []
    i = 0
    while i < len(argv):
        if argv[i] == "--":
            rest.extend(argv[i:])
            break
        found = _global_option(argv, i)
        if found is None:
            rest.append(argv[i])
            i += 1
        else:
            front.extend(found[0])
            i += found[1]
    return front + rest


def split_session(argv: list[str]) -> tuple[str | None, str | None, bool]:
    """(session name, command name, --no-daemon given) from the global options before the command."""
    name = settings.SESSION.read()
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
    """Forward the command line to the session's daemon, or run it here when it is winctl's
    own, reads only files, asks for help, or --no-daemon (WINCTL_NO_DAEMON) says so."""
    argv = sys.argv[1:]
    name, command, no_daemon = split_session(argv)
    no_daemon = no_daemon or settings.NO_DAEMON.read()
    if (
        not no_daemon
        and command is not None
        and command not in OWN
        and "--help" not in argv
        and "-h" not in argv
        and not reads_only_files(command, argv)
    ):
        from winactions.daemon.client import forward

        sys.exit(forward("default" if name is None else name, argv))
    from winactions.cli.app import main as full_cli

    full_cli(argv)


if __name__ == "__main__":
    main()
