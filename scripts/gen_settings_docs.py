"""Write docs/settings.md, the list of winctl's environment variables, from the settings table.

    .venv/bin/python scripts/gen_settings_docs.py           # rewrite docs/settings.md
    .venv/bin/python scripts/gen_settings_docs.py --check   # exit 1 if it is stale

Every setting of `winactions.settings.SETTINGS`: what it takes, its default, what it does,
which part reads it and where it is honoured. The output depends on nothing but the table
(and the platform's path separator, written as POSIX's).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from winactions.settings import SETTINGS, Folders, Setting

ROOT = Path(__file__).resolve().parents[1]
TARGET = ROOT / "docs" / "settings.md"
REGENERATE = ".venv/bin/python scripts/gen_settings_docs.py"

HEADER = f"""# Settings

<!-- Generated from `src/winactions/settings.py` by `{REGENERATE}`; do not edit by hand. -->

winctl reads these environment variables; each is declared once, in `winactions.settings`,
and every part of winactions reads it through that table. A flag of the same meaning
(`--device`, `--vision-model`, ...) wins over its variable. The session daemon runs each
command with the caller's `WINCTL_*` variables, so a variable set for one command applies to
that command only (the daemon's own two, its deadline and idle timeout, are read when it
starts).

A bad value is refused with an error that names the variable, the value and what it takes
(`invalid_input`, exit code 2), except where a setting below says a bad value is ignored: then
its default applies. `winctl doctor` lists every `WINCTL_*` variable set, with its effective value, and
flags a bad value or a name that is no setting. The [command reference](commands.md) lists
the flags.
"""


def cell(text: str) -> str:
    """Text for one cell of a Markdown table: one line, pipes escaped."""
    return " ".join(text.split()).replace("|", "\\|")


def takes(setting: Setting[object]) -> str:
    """What the variable takes, with POSIX's path separator whatever the platform."""
    return "folders separated by `:` (`;` on Windows)" if isinstance(setting, Folders) else setting.takes


def section(setting: Setting[object]) -> list[str]:
    lines = [
        f"### `{setting.name}`",
        "",
        setting.help[0].upper() + setting.help[1:] + ".",
        "",
        f"- takes: {takes(setting)}",
        f"- default: {setting.default_text() or 'none'}",
        f"- read by: {setting.reader}",
        f"- honoured on: {setting.where}",
    ]
    if setting.falls_back:
        lines.append("- a bad value is ignored: the default applies (`winctl doctor` says so)")
    return [*lines, ""]


def render() -> str:
    """The whole page, as it belongs in docs/settings.md."""
    lines = [HEADER, "## All settings", "", "| variable | takes | default |", "|---|---|---|"]
    lines += [
        f"| [`{s.name}`](#{s.name.lower()}) | {cell(takes(s))} | {cell(s.default_text() or 'none')} |" for s in SETTINGS
    ]
    lines += ["", "## Each setting", ""]
    for setting in SETTINGS:
        lines += section(setting)
    return "\n".join(lines).rstrip("\n") + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if docs/settings.md is stale")
    check = parser.parse_args(argv).check
    text = render()
    if check:
        stale = not TARGET.exists() or TARGET.read_text(encoding="utf-8") != text
        if stale:
            print(f"{TARGET.relative_to(ROOT)} is stale: run `{REGENERATE}`", file=sys.stderr)
        return 1 if stale else 0
    TARGET.write_text(text, encoding="utf-8")
    print(f"wrote {TARGET.relative_to(ROOT)} ({len(text.splitlines())} lines)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
