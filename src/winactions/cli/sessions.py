"""`winctl sessions` and `winctl session close`: manage the session daemons themselves.

These manage daemons rather than the desktop, so they are front-end commands, not entries of
the command table (an MCP client has no use for them).
"""

from __future__ import annotations

import json
import time

import click

from winactions.daemon import client
from winactions.errors import InvalidInput
from winactions.session.paths import bad_session_name


def _describe(name: str) -> dict[str, object] | None:
    info = client.live_daemon(name)
    if info is None:
        return None
    pong = client.ping(info) or {}
    return {"session": name, "pid": info["pid"], "port": info["port"], "version": info["version"],
            "window": pong.get("window"), "age_seconds": round(time.time() - float(info.get("started", time.time()))),
            "idle_seconds": pong.get("idle_seconds")}


def add_session_commands(cli: click.Group) -> None:
    @cli.command("sessions")
    @click.pass_context
    def sessions(ctx: click.Context) -> None:
        """List running session daemons: name, pid, window, age."""
        names = sorted(p.stem for p in client.daemons_dir().glob("*.json"))
        found = [d for d in (_describe(n) for n in names) if d is not None]
        if ctx.obj.json_output:
            click.echo(json.dumps({"ok": True, "result": {"sessions": found}}))
            return
        for d in found:
            click.echo(f"{d['session']}  pid {d['pid']}  window \"{d['window'] or '-'}\"  "
                       f"age {d['age_seconds']}s  idle {d['idle_seconds']}s")
        if not found:
            click.echo("(no session daemons)")

    @cli.group("session")
    def session() -> None:
        """Manage one session daemon."""

    @session.command("close")
    @click.argument("name", required=False)
    @click.option("--all", "close_all", is_flag=True, help="close every session daemon")
    @click.pass_context
    def close(ctx: click.Context, name: str | None, close_all: bool) -> None:
        """Stop a session's daemon (its ids are kept on disk)."""
        if not name and not close_all:
            raise click.UsageError("give a session name or --all")
        problem = None if close_all else bad_session_name(name or "")
        if problem:
            raise InvalidInput(problem, hint="`winctl sessions` lists the running ones")
        names = sorted(p.stem for p in client.daemons_dir().glob("*.json")) if close_all else [name or ""]
        closed = [n for n in names if client.stop(n)]
        if ctx.find_root().obj.json_output:
            click.echo(json.dumps({"ok": True, "result": {"closed": closed}}))
        else:
            click.echo("closed: " + (", ".join(closed) or "none"))
