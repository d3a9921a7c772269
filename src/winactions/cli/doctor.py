"""`winctl doctor [--json]`: every check with its fix, plus the session daemons.

It runs in the caller's process (never in a daemon: what matters is this shell's display,
buses and variables), and it is what a newcomer is pointed to when `state` cannot start.
"""

from __future__ import annotations

import json
import sys
import time

import click

from winactions.daemon import client
from winactions.doctor import Check, run_checks
from winactions.session.paths import UnsafeRuntimeDir

MARK = {"ok": "ok  ", "warn": "warn", "fail": "FAIL"}


def daemon_checks() -> list[Check]:
    """Running session daemons, and files of daemons that are gone (stale)."""
    checks = []
    try:
        folder = client.daemons_dir()
    except (OSError, UnsafeRuntimeDir) as exc:
        return [
            Check(
                "runtime folder",
                "fail",
                f"no private folder for sessions and daemons: {exc}",
                "set XDG_RUNTIME_DIR to an existing folder only you can read (mode 0700), or unset it",
            )
        ]
    for path in sorted(folder.glob("*.json")) if folder.is_dir() else []:
        name = path.stem
        info = client.read_session_file(name)
        if info is None:
            continue
        alive = client.is_daemon(int(info.get("pid", 0)), name)
        if not alive:
            checks.append(
                Check(
                    f"daemon {name}",
                    "warn",
                    f"stale file {path}: its process {info.get('pid')} is gone (or is no longer its daemon)",
                    f"winctl session close {name} (or delete the file); the next command starts a new one",
                )
            )
            continue
        pong = client.ping(info)
        if pong is None:
            checks.append(
                Check(
                    f"daemon {name}",
                    "warn",
                    f"pid {info.get('pid')} does not answer pings",
                    f"winctl session close {name}",
                )
            )
        else:
            age = round(time.time() - float(info.get("started", time.time())))
            checks.append(
                Check(
                    f"daemon {name}",
                    "ok",
                    f"pid {info.get('pid')}, version {info.get('version')}, "
                    f"window {pong.get('window') or '-'}, running {age}s",
                )
            )
    if not checks:
        checks.append(Check("daemons", "ok", "none running (the first winctl command starts one per session)"))
    return checks


def add_doctor_command(cli: click.Group) -> None:
    @cli.command("doctor")
    @click.pass_context
    def doctor(ctx: click.Context) -> None:
        """Check what winactions needs here — display, session bus, accessibility, toolkit
        bridges, extras, OCR models, model configuration, session daemons — each with its fix.

        Exits 1 when a check fails (winctl cannot work until it is fixed), 0 otherwise."""
        options = ctx.find_root().obj
        checks = [*run_checks(options.llm), *daemon_checks()]
        failed = any(c.status == "fail" for c in checks)
        if options.json_output:
            click.echo(
                json.dumps(
                    {
                        "ok": True,
                        "result": {
                            "healthy": not failed,
                            "checks": [
                                {"name": c.name, "status": c.status, "detail": c.detail, "fix": c.fix} for c in checks
                            ],
                        },
                    },
                    ensure_ascii=False,
                )
            )
        else:
            for c in checks:
                click.echo(f"{MARK[c.status]}  {c.name}: {c.detail}")
                if c.fix and c.status != "ok":
                    click.echo(f"      fix: {c.fix}")
            click.echo(
                "all good"
                if not failed and all(c.status == "ok" for c in checks)
                else "winctl cannot work until the FAIL lines are fixed"
                if failed
                else "winctl works; the warn lines say what is missing"
            )
        if failed:
            sys.exit(1)
