"""`winctl skill`: print the agent manual, or install it where agents read skills."""

from __future__ import annotations

import click

from winactions.cli.app import _fail
from winactions.errors import InvalidInput, WinctlError


def add_skill_command(cli: click.Group) -> None:
    """Add `skill` to the CLI."""

    @cli.command("skill", short_help="Print the agent manual, or one topic of it.")
    @click.argument("topic", required=False)
    @click.option("--list", "list_topics", is_flag=True, help="list the topics, one line each")
    @click.option("--claude", is_flag=True, help="install: for Claude Code (.claude/skills/winctl; the default)")
    @click.option("--agents", is_flag=True, help="install: for Codex and others (.agents/skills/winctl)")
    @click.option("--global", "home", is_flag=True, help="install: under your home folder, not the project's")
    @click.option("--force", is_flag=True, help="install: replace a different skill of this name")
    @click.pass_context
    def skill_command(ctx: click.Context, topic: str | None, list_topics: bool, **install: bool) -> None:
        """Print the agent manual of this installed version: its core page (SKILL.md), with
        `--list` its topics, or one topic: `winctl skill sheets`.

        `winctl skill install [--claude] [--agents] [--global] [--force]` copies the manual,
        as an Agent Skill (SKILL.md and references/), where those agents read skills: the
        working folder's `.claude/skills/winctl` or `.agents/skills/winctl`, or with
        `--global` your home folder's; it prints each file written."""
        from winactions import skill

        try:
            if topic == "install":
                click.echo(_install_skill(**install), nl=False)
                return
            if any(install.values()):
                raise InvalidInput(
                    "--claude, --agents, --global and --force are options of `winctl skill install`",
                    hint="e.g. `winctl skill install --agents --global`",
                )
            text = skill.listing() if list_topics else skill.topic(topic) if topic else skill.core()
        except WinctlError as exc:
            _fail(exc, ctx.obj)
        click.echo(text, nl=False)


def _install_skill(claude: bool, agents: bool, home: bool, force: bool) -> str:
    """`winctl skill install`: what was written where, one line a file."""
    from winactions import skill

    chosen = [a for a, on in (("claude", claude), ("agents", agents)) if on] or ["claude"]
    lines = []
    for done in skill.install(chosen, home=home, force=force):
        if not done.written:
            lines.append(f"{done.folder}: the {skill.NAME} skill of this version is there already")
        lines += [f"wrote {path}" for path in done.written]
    return "\n".join(lines) + "\n"
