"""`winctl sessions` and `winctl session close`: manage the session daemons themselves.

These manage daemons rather than the desktop, so they are front-end commands, not entries of
the command table (an MCP client has no use for them).
"""

from __future__ import annotations

import json
import time

import click

from winactions.commands.keyboard import release_stored
from winactions.daemon import client, processes
from winactions.errors import InvalidInput
from winactions.overlays import channel
from winactions.session.paths import bad_session_name
from winactions.session.store import SessionStore


def _describe(name: str) -> dict[str, object] | None:
    """A running daemon's entry (`socket` on POSIX, `port` where it listens on TCP), or None."""
    try:
        info = client.live_daemon(name)
    except client.DaemonError:  # alive but busy or silent: listed from its file
        info = client.read_session_file(name)
    if info is None:
        return None
    pong = client.ping(info) or {}
    where = {"socket": info["socket"]} if "socket" in info else {"port": info.get("port")}
    return {
        "session": name,
        "pid": info["pid"],
        **where,
        "version": info["version"],
        "window": pong.get("window"),
        "age_seconds": round(time.time() - float(info.get("started", time.time()))),
        "idle_seconds": pong.get("idle_seconds"),
    }


def _orphans() -> list[processes.DaemonProcess]:
    """Daemon processes of ours that no session file names (by their pid)."""
    listed = set()
    for path in client.daemons_dir().glob("*.json"):
        info = client.read_session_file(path.stem)
        if info is not None:
            listed.add((path.stem, info.get("pid")))
    return [d for d in processes.daemon_processes() if (d.session, d.pid) not in listed]


def _close_overlays(name: str | None) -> list[str]:
    """End the overlay process (status label, teach mode) of session `name`, or of every
    session (None); what was ended, as `session close` lists it."""
    sessions = SessionStore("default").directory
    folders = sorted(sessions.glob("*.overlay")) if name is None else [channel.folder(sessions, name)]
    return [f"{f.name.removesuffix('.overlay')} (overlays)" for f in folders if f.is_dir() and channel.stop(f)]


def add_session_commands(cli: click.Group) -> None:
    @cli.command("sessions")
    @click.pass_context
    def sessions(ctx: click.Context) -> None:
        """List running session daemons: name, pid, window, age; and orphaned ones (running
        with no session file), which `session close` stops too."""
        names = sorted(p.stem for p in client.daemons_dir().glob("*.json"))
        found = [d for d in (_describe(n) for n in names) if d is not None]
        orphans = [{"session": o.session, "pid": o.pid, "orphaned": True} for o in _orphans()]
        if ctx.obj.json_output:
            click.echo(json.dumps({"ok": True, "result": {"sessions": found + orphans}}))
            return
        for d in found:
            where = f"socket {d['socket']}" if "socket" in d else f"port {d['port']}"
            click.echo(
                f'{d["session"]}  pid {d["pid"]}  {where}  window "{d["window"] or "-"}"  '
                f"age {d['age_seconds']}s  idle {d['idle_seconds']}s"
            )
        for o in orphans:
            click.echo(
                f"{o['session']}  pid {o['pid']}  orphaned: no session file, no client reaches it "
                f"(`winctl session close {o['session']}` stops it)"
            )
        if not found and not orphans:
            click.echo("(no session daemons)")

    @cli.group("session")
    def session() -> None:
        """Manage one session daemon."""

    @session.command("close")
    @click.argument("name", required=False)
    @click.option("--all", "close_all", is_flag=True, help="close every session daemon")
    @click.pass_context
    def close(ctx: click.Context, name: str | None, close_all: bool) -> None:
        """Stop a session's daemon and its overlays (the status label, teach mode), and release the keys
        it holds down; its ids are kept on disk."""
        if not name and not close_all:
            raise click.UsageError("give a session name or --all")
        problem = None if close_all else bad_session_name(name or "")
        if problem:
            raise InvalidInput(problem, hint="`winctl sessions` lists the running ones")
        names = sorted(p.stem for p in client.daemons_dir().glob("*.json")) if close_all else [name or ""]
        closed = [n for n in names if client.stop(n)]
        closed += _close_overlays(None if close_all else name or "")
        closed += [
            f"{o.session} (orphaned pid {o.pid})"
            for o in _orphans()
            if (close_all or o.session == name) and processes.stop_process(o)
        ]
        released = release_stored(None if close_all else name)  # keys `key-down` left down
        if ctx.find_root().obj.json_output:
            click.echo(json.dumps({"ok": True, "result": {"closed": closed, "released": released}}))
        else:
            click.echo(
                "closed: " + (", ".join(closed) or "none") + (f"; released {', '.join(released)}" if released else "")
            )
