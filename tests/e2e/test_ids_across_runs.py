"""Ids across a desktop restart: an old id is never given to an element of another app or
another run, even when the X server and the accessibility bus hand the new app the old
window's id, bus name and object paths."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.conftest import Run, run_in_process, start_app, stop_app, wait_for_window
from tests.fixtures.launch import SYSTEM_PYTHON
from winactions.backends.linux.virtual_desktop import VirtualDesktop

pytestmark = pytest.mark.desktop
TITLE = "Run App"
APP = str(Path(__file__).resolve().parent.parent / "fixtures" / "run_app.py")
WINCTL = str(Path(sys.executable).with_name("winctl"))
Front = Callable[[dict[str, str], list[str]], Run]


def one_shot(env: dict[str, str], args: list[str]) -> Run:
    return run_in_process(args, env)


def daemon(env: dict[str, str], args: list[str]) -> Run:
    done = subprocess.run([WINCTL, "--session", "restart", *args], env=env, capture_output=True, text=True, timeout=120)
    return Run(done.returncode, done.stdout, done.stderr)


@pytest.fixture(params=[one_shot, daemon], ids=["cli", "daemon"])
def front(request, tmp_path) -> Iterator[Front]:
    yield request.param
    if request.param is daemon:
        subprocess.run(
            [WINCTL, "session", "close", "--all"],
            capture_output=True,
            timeout=60,
            env={"XDG_RUNTIME_DIR": str(tmp_path / "runtime"), "PATH": "/usr/bin:/bin"},
        )


def handles(runtime: Path, name: str) -> set[str]:
    data = json.loads((runtime / "winactions" / "sessions" / f"{name}.json").read_text())
    return set(data["handles"].values())


def free_display() -> int:
    """A display number far above the ones `Xvfb -displayfd` hands out (the lowest free), so no
    other desktop takes it between the two runs."""
    for number in range(400 + os.getpid() % 200, 1000):
        if not Path(f"/tmp/.X{number}-lock").exists() and not Path(f"/tmp/.X11-unix/X{number}").exists():
            return number
    raise AssertionError("no free display number")


def daemon_pid(runtime: Path, session: str) -> int:
    return int(json.loads((runtime / "winactions" / "daemons" / f"{session}.json").read_text())["pid"])


def gone_within(pid: int, seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while pid and Path(f"/proc/{pid}").exists() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not (pid and Path(f"/proc/{pid}").exists()), "the old desktop's daemon did not exit"


def lines(path: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []


def test_a_restarted_desktops_new_app_never_gets_the_old_ids(front: Front, tmp_path: Path) -> None:
    """After the desktop restarted, a different app got the old window's X id and bus name,
    and its buttons were listed under the old ids (`[205] [Menu] "File"` became
    `[205] [Button] "Btn02"`). Here the same fixture script (variant `menu`, then `buttons`) on
    the same display number is started first on each desktop, so the reuse happens by
    construction: the same bus name and object paths always (checked below), the same X window
    id most times."""
    runtime = tmp_path / "runtime"
    runtime.mkdir(mode=0o700)
    session = "restart" if front is daemon else "default"
    log = tmp_path / "clicks.jsonl"
    number = free_display()
    first = VirtualDesktop(display=number).start()
    try:
        app = start_app(first, [SYSTEM_PYTHON, APP, "--title", TITLE, "--variant", "menu"], TITLE)
        old_window = wait_for_window(first, TITLE)
        env = {**first.env, "XDG_RUNTIME_DIR": str(runtime)}
        assert front(env, ["focus", TITLE]).code == 0
        shown = json.loads(front(env, ["--json", "state"]).out)["result"]
        old = {t["id"]: (t["type"], t["name"]) for t in shown["targets"]}
        assert old.get(3) == ("Button", "Save") and ("Menu", "File") in old.values()
        old_handles = handles(runtime, session)
        old_daemon = daemon_pid(runtime, session) if front is daemon else 0
        stop_app(app)
    finally:
        first.stop()
    gone_within(old_daemon, 10)  # the old desktop's daemon sees its display go and exits
    second = VirtualDesktop(display=number).start()
    try:
        app = start_app(
            second, [SYSTEM_PYTHON, APP, "--title", TITLE, "--variant", "buttons", "--log", str(log)], TITLE
        )
        env = {**second.env, "XDG_RUNTIME_DIR": str(runtime)}
        reused = wait_for_window(second, TITLE) == old_window
        if not reused:
            # the X server gives the new app the old window's id most times, not always (the order
            # in which the window manager and the bus launcher connect varies): select it by title
            assert front(env, ["focus", TITLE]).code == 0
        refused = front(env, ["click", "3"])  # the old "Save": the new app has a Btn02 at its handle
        assert refused.code == 3 and "restarted" in refused.err, refused  # told why, not just "gone"
        time.sleep(0.3)
        assert lines(log) == []  # the app saw no click
        listed = front(env, ["--json", "state"])
        assert listed.code == 0, listed
        result = json.loads(listed.out)["result"]
        new = {t["id"]: (t["type"], t["name"]) for t in result["targets"]}
        assert old_handles & handles(runtime, session)  # the new app answers to old handles...
        assert set(new).isdisjoint(old)  # ...but none of its elements got an old id
        assert sorted(new.values()) == [("Button", f"Btn{i:02d}") for i in range(1, 5)]
        assert any("restarted" in w for w in result["warnings"]) or not reused  # said of the window it was in
        btn02 = next(i for i, t in new.items() if t == ("Button", "Btn02"))
        assert front(env, ["click", str(btn02)]).code == 0
        deadline = time.monotonic() + 5
        while not lines(log) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert lines(log) == [{"clicked": "Btn02"}]  # the new ids act on the new app
        again = json.loads(front(env, ["--json", "state"]).out)["result"]
        assert {t["id"] for t in again["targets"]} == set(new)  # and stay its ids
        stop_app(app)
    finally:
        second.stop()
