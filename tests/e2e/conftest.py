"""Fixtures shared by the end-to-end test modules (their plain helpers are in `helpers/`).

A module that defines a fixture of the same name uses its own (pytest's usual override).
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import Winctl, start_app, stop_app
from tests.e2e.helpers.apps import BRIDGE_VARIABLES, Launch, Launched, stop_group
from tests.e2e.helpers.daemon_wire import Shell
from tests.e2e.helpers.mcp_client import TITLE as MCP_TITLE
from tests.e2e.helpers.office import INVOICES_TITLE, invoices, start_soffice
from tests.e2e.helpers.runners import SessionDaemon
from tests.fixtures.applog import AppLog
from tests.fixtures.launch import gtk_fixture_command
from tests.fixtures.sheets import CSV_FILTER
from tests.fixtures.toolkit_apps import isolated_env
from winactions.agent import odf


@pytest.fixture
def launch(desktop, winctl: Winctl, tmp_path: Path, monkeypatch) -> Iterator[Launch]:
    """`winctl launch` in a fresh home, with no accessibility switch in the environment
    (launch must add them); every app started is stopped after the test."""
    for name, value in isolated_env(tmp_path / "home").items():
        monkeypatch.setitem(desktop.env, name, value)
    for name in BRIDGE_VARIABLES:
        if name in desktop.env:
            monkeypatch.delitem(desktop.env, name)
    groups: list[int] = []

    def start(argv: list[str], title: str | None = None, timeout: float = 60) -> Launched:
        if shutil.which(argv[0]) is None:
            pytest.fail(f"{argv[0]} is not installed: run scripts/setup.sh test (scripts/packages/test-toolkits.txt)")
        options = ["--title", title] if title else []
        result = winctl("--json", "launch", "--timeout", str(timeout), *options, "--", *argv).json["result"]
        assert "has not appeared" not in result["detail"], result  # launch waits for the tree...
        first = winctl("--json", "state", expect=None)  # ...so the very next state finds the app
        assert first.code == 0 and first.json["result"]["targets"], f"state right after launch: {first.out}{first.err}"
        group = int(result["detail"].split()[1])
        groups.append(group)
        return Launched(group, result["window"])

    yield start
    for group in groups:
        stop_group(group)


@pytest.fixture
def daemon(winctl):
    """`winctl` through the session's daemon, on the `winctl` fixture's session."""
    d = SessionDaemon(winctl.env)
    yield d
    d("session", "close", "--all", expect=None)


@pytest.fixture
def shell(desktop, tmp_path):
    """`winctl` as separate processes on tmp_path/runtime (the folder `run_client` uses too);
    every session's daemon is closed after the test."""
    sh = Shell(desktop, tmp_path / "runtime")
    yield sh
    sh.close_all()


@pytest.fixture
def one_shot(winctl):
    """`winctl ARGS` as its own process, not through a daemon: what a shell agent runs."""

    def run(*args: str, expect: int = 0, env: dict[str, str] | None = None) -> dict:
        done = subprocess.run(
            [sys.executable, "-m", "winactions.cli.entry", "--no-daemon", "--json", *args],
            env={**winctl.env, **(env or {})},
            capture_output=True,
            text=True,
            timeout=180,
        )
        assert done.returncode == expect, f"{args} -> {done.returncode}\n{done.stdout}\n{done.stderr}"
        return json.loads(done.stdout)

    return run


@pytest.fixture
def mcp_app(desktop, tmp_path):
    """The GTK fixture app titled `helpers.mcp_client.TITLE`; yields its event log."""
    log = tmp_path / "events.jsonl"
    proc = start_app(desktop, gtk_fixture_command(str(log), rows=20, title=MCP_TITLE), MCP_TITLE)
    yield AppLog(str(log))
    stop_app(proc)


@pytest.fixture
def geany(desktop, tmp_path: Path, monkeypatch) -> Iterator[str]:
    """Geany on a small text file, in a fresh home and config folder; yields its title."""
    if shutil.which("geany") is None:
        pytest.fail("geany is not installed: run scripts/setup.sh test (scripts/packages/test-toolkits.txt)")
    for name, value in isolated_env(tmp_path / "home").items():
        monkeypatch.setitem(desktop.env, name, value)
    doc = tmp_path / "notes.txt"
    doc.write_text("hello world\n")
    proc = start_app(
        desktop, ["geany", "--new-instance", "--config", str(tmp_path / "geany-config"), str(doc)], "notes.txt"
    )
    time.sleep(1.0)  # Geany fills its tree (toolbar, sidebar) a moment after the window maps
    yield "notes.txt"
    stop_app(proc)


@pytest.fixture
def calc(desktop, tmp_path, winctl):
    """Calc on a small CSV (name,qty; apple,3; pear,5), focused; yields (its file, soffice)."""
    data = tmp_path / "data.csv"
    data.write_text("name,qty\napple,3\npear,5\n")
    proc = start_soffice(desktop, tmp_path, "--calc", CSV_FILTER, str(data), title="data.csv - LibreOffice Calc")
    winctl("focus", "data.csv - LibreOffice Calc")
    yield data, proc
    stop_app(proc)
    subprocess.run(["pkill", "-P", str(proc.pid)], check=False)


@pytest.fixture
def sheet(desktop, tmp_path, winctl):
    """Calc on `invoices()` saved as invoices.ods, focused; yields the file's path."""
    path = tmp_path / "invoices.ods"
    odf.write_sheet(path, invoices())
    proc = start_soffice(desktop, tmp_path, "--calc", str(path), title=INVOICES_TITLE)
    winctl("focus", INVOICES_TITLE)
    yield path
    stop_app(proc)
    subprocess.run(["pkill", "-P", str(proc.pid)], check=False)
