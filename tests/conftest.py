"""Shared test bed: one private virtual desktop per test run, and `winctl` called for real.

`winctl` runs in-process (the same `main()` the console script calls, with the desktop's
environment) so hundreds of calls stay fast; `tests/e2e/test_console_script.py` also runs the
installed script as separate processes to prove state survives between them.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from winactions.backends.linux.virtual_desktop import VirtualDesktop

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "fixtures"
SYSTEM_PYTHON = "/usr/bin/python3"  # Debian's python3 has GTK (gi); the venv does not


def pytest_collection_modifyitems(config, items):
    """Each platform's real-desktop tests run on that platform: `windows` ones on a Windows
    runner (.github/workflows/windows.yml), `desktop` ones on Linux. The rest are shown as
    deselected in the summary, never silently passed."""
    keep, dropped = [], []
    for item in items:
        wrong = (item.get_closest_marker("windows") is not None and sys.platform != "win32") or (
            item.get_closest_marker("desktop") is not None and not sys.platform.startswith("linux")
        )
        (dropped if wrong else keep).append(item)
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = keep


@pytest.fixture(scope="session")
def desktop():
    with VirtualDesktop() as desk:
        yield desk


@contextlib.contextmanager
def desktop_env(desk: VirtualDesktop, **overrides: str):
    """Point this process at the virtual desktop for the duration of one call."""
    with environment({**desk.env, **overrides}):
        yield


@contextlib.contextmanager
def environment(env: dict[str, str]):
    """These environment variables for the duration of a block, then the old ones back."""
    saved = {k: os.environ.get(k) for k in env}
    os.environ.update(env)
    try:
        yield
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


def run_in_process(args: tuple[str, ...] | list[str], env: dict[str, str]) -> Run:
    """`winctl ARGS` through the same `main()` the console script calls, in this process,
    with these environment variables; what it printed and its exit code."""
    from winactions.cli.app import main

    out, err = io.StringIO(), io.StringIO()
    code = 0
    with environment(env), contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            main(list(args))
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else 1
    return Run(code, out.getvalue(), err.getvalue())


@dataclass
class Run:
    code: int
    out: str
    err: str

    @property
    def json(self) -> Any:
        return json.loads(self.out)


class Winctl:
    """Call winctl like an agent does: `winctl("click", "3")`.

    Each test gets its own runtime directory, so its session store (ids, selected window)
    starts empty and cannot leak into another test.
    """

    def __init__(self, desk: VirtualDesktop, runtime_dir: Path) -> None:
        self.desk = desk
        self.runtime_dir = runtime_dir
        runtime_dir.mkdir(mode=0o700, parents=True, exist_ok=True)

    @property
    def env(self) -> dict[str, str]:
        return {**self.desk.env, "XDG_RUNTIME_DIR": str(self.runtime_dir)}

    def __call__(self, *args: str, expect: int | None = 0) -> Run:
        run = run_in_process(args, self.env)
        if expect is not None:
            assert run.code == expect, f"winctl {' '.join(args)} -> {run.code}\n{run.out}\n{run.err}"
        return run

    def state(self, *extra: str) -> dict[str, Any]:
        return self("--json", "state", *extra).json["result"]

    def find(self, type_: str, name: str, state: dict[str, Any] | None = None) -> int:
        """The id of the element with this type and name in a (fresh) state."""
        state = state or self.state()
        for t in state["targets"]:
            if t["type"] == type_ and t["name"] == name:
                return int(t["id"])
        listing = "\n".join(f'{t["id"]} {t["type"]} "{t["name"]}"' for t in state["targets"])
        raise AssertionError(f'no {type_} "{name}" in state:\n{listing}')


@pytest.fixture
def winctl(desktop, tmp_path) -> Winctl:
    return Winctl(desktop, tmp_path / "runtime")


def wait_for_window(desk: VirtualDesktop, title: str, timeout: float = 20.0) -> str:
    """X id of the first window whose title contains `title` (via wmctrl, independent of us)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        out = subprocess.run(["wmctrl", "-l"], env=desk.env, capture_output=True, text=True).stdout
        for line in out.splitlines():
            parts = line.split(None, 3)
            if len(parts) == 4 and title in parts[3]:
                return parts[0]
        time.sleep(0.1)
    raise AssertionError(f"no window titled {title!r} appeared")


def window_gone(desk: VirtualDesktop, title: str) -> bool:
    out = subprocess.run(["wmctrl", "-l"], env=desk.env, capture_output=True, text=True).stdout
    return all(title not in line for line in out.splitlines())


def start_app(desk: VirtualDesktop, argv: list[str], title: str) -> subprocess.Popen[bytes]:
    proc = subprocess.Popen(argv, env=desk.env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_for_window(desk, title)
    except AssertionError:
        proc.kill()
        raise
    time.sleep(0.3)  # let the app register its accessible tree
    return proc


@contextlib.contextmanager
def focused_fixture(desk: VirtualDesktop, winctl: Any, folder: Path, title: str, rows: int = 30) -> Any:
    """The GTK fixture app titled `title`, focused in winctl's session; yields its event log."""
    from tests.fixtures.applog import AppLog
    from tests.fixtures.launch import gtk_fixture_command

    log = folder / "events.jsonl"
    proc = start_app(desk, gtk_fixture_command(str(log), rows=rows, title=title), title)
    try:
        winctl("focus", title)
        yield AppLog(str(log))
    finally:
        stop_app(proc)


def stop_app(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            proc.kill()
