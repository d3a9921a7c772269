"""A task's private desktop, held by a process of its own while an agent works on it.

`up` starts `hold` detached and waits for it: `hold` starts a virtual display with its own
buses and window manager, the form server, the task's apps (each waited for by its window
title, through wmctrl), writes `env.sh` and `ready`, and keeps all of it alive until it is
sent SIGTERM by `down`. Each task and arm gets its own folder and desktop.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from benchmarks.agent_trial.pages import FormServer
from benchmarks.agent_trial.tasks import TASKS, Place, Start

from winactions.backends.linux.virtual_desktop import VirtualDesktop

ROOT = Path(__file__).resolve().parents[2]
# a laptop's screen (1,365 image tokens a full screenshot); AGENT_TRIAL_SCREEN=1920x1080 for another
SCREEN = tuple(int(side) for side in os.environ.get("AGENT_TRIAL_SCREEN", "1280x800").split("x", 1))
READY_TIMEOUT = 240.0


def home_env(home: Path) -> dict[str, str]:
    """A fresh home for the task's apps: nothing of the machine's own settings leaks in."""
    parts = {
        "HOME": home,
        "XDG_CONFIG_HOME": home / ".config",
        "XDG_DATA_HOME": home / ".local/share",
        "XDG_CACHE_HOME": home / ".cache",
        "XDG_STATE_HOME": home / ".local/state",
    }
    for folder in parts.values():
        folder.mkdir(parents=True, exist_ok=True)
    return {name: str(folder) for name, folder in parts.items()}


def place_of(folder: Path, env: dict[str, str], port: int) -> Place:
    return Place(
        work=folder / "work",
        home=folder / "home",
        env=env,
        url=lambda page: f"http://127.0.0.1:{port}{page}",
        forms=folder / "forms.jsonl",
    )


def wait_for_window(env: dict[str, str], title: str, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        out = subprocess.run(["wmctrl", "-l"], env=env, capture_output=True, text=True).stdout
        if any(len(p := line.split(None, 3)) == 4 and title in p[3] for line in out.splitlines()):
            return
        time.sleep(0.2)
    raise RuntimeError(f"no window titled {title!r} appeared within {timeout:g}s")


def _wait_for_accessibility_bus(env: dict[str, str], timeout: float = 20.0) -> None:
    """Qt 5 apps join the accessibility bus only if it answers when they start."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        asked = subprocess.run(
            [
                "dbus-send",
                "--session",
                "--dest=org.a11y.Bus",
                "--print-reply",
                "/org/a11y/bus",
                "org.a11y.Bus.GetAddress",
            ],
            env=env,
            capture_output=True,
            text=True,
            timeout=10,
        )
        if "unix:" in asked.stdout:
            return
        time.sleep(0.2)
    raise RuntimeError("the accessibility bus did not answer")


def _start(start: Start, env: dict[str, str], work: Path, log: Path) -> subprocess.Popen[bytes]:
    stdout = (work / start.stdout).open("wb") if start.stdout else subprocess.DEVNULL
    with log.open("ab") as err:
        proc = subprocess.Popen(
            start.argv,
            env={**env, **start.env},
            cwd=work,
            stdin=subprocess.DEVNULL,
            stdout=stdout,
            stderr=err,
            start_new_session=True,
        )
    wait_for_window(env, start.window, start.timeout)
    return proc


def hold(folder: Path) -> None:
    """Start the task's desktop and apps, say ready, keep them until SIGTERM."""
    spec = json.loads((folder / "task.json").read_text())
    task = TASKS[spec["task"]]
    stopping: list[int] = []
    signal.signal(signal.SIGTERM, lambda *_: stopping.append(1))
    procs: list[subprocess.Popen[bytes]] = []
    desk = VirtualDesktop(*SCREEN).start()
    server = FormServer(folder / "forms.jsonl")
    try:
        env = {**desk.env, **home_env(folder / "home"), "LANG": "C.UTF-8"}
        (folder / "work").mkdir(exist_ok=True)
        _wait_for_accessibility_bus(env)
        place = place_of(folder, env, server.port)
        for start in task.prepare(place):
            procs.append(_start(start, env, place.work, folder / "apps.log"))
        time.sleep(2)  # the apps' accessible trees and first paint settle after their windows map
        (folder / "desktop.json").write_text(json.dumps({"env": env, "port": server.port, "pid": os.getpid()}))
        (folder / "ready").write_text("ready\n")
        while not stopping:
            time.sleep(0.2)
    except Exception as exc:
        (folder / "failed").write_text(f"{type(exc).__name__}: {exc}\n")
        raise
    finally:
        for proc in procs:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGTERM)
        for proc in procs:
            try:
                proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
        server.close()
        desk.stop()


def up(folder: Path, task: str, arm: str) -> dict[str, str]:
    """Start a held desktop for `task` in `folder` (new or empty); the desktop's environment."""
    from benchmarks.agent_trial import tools

    if task not in TASKS:
        raise SystemExit(f"unknown task {task!r}; tasks: {', '.join(TASKS)}")
    folder.mkdir(parents=True, exist_ok=True)
    if any(folder.iterdir()):
        raise SystemExit(f"{folder} is not empty: one folder per task and arm")
    (folder / "task.json").write_text(json.dumps({"task": task, "arm": arm}))
    subprocess.Popen(
        [sys.executable, "-m", "benchmarks.agent_trial", "hold", str(folder)],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdin=subprocess.DEVNULL,
        stdout=(folder / "hold.log").open("wb"),
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    deadline = time.monotonic() + READY_TIMEOUT
    while time.monotonic() < deadline:
        if (folder / "failed").exists():
            raise SystemExit(f"set-up failed: {(folder / 'failed').read_text().strip()}")
        if (folder / "ready").exists():
            env = json.loads((folder / "desktop.json").read_text())["env"]
            tools.install(folder, arm, env)
            return env
        time.sleep(0.2)
    down(folder)
    raise SystemExit(f"set-up did not finish within {READY_TIMEOUT:g}s; see {folder / 'hold.log'}")


def down(folder: Path) -> None:
    """Stop the held desktop of `folder` (its apps, servers and display)."""
    try:
        pid = int(json.loads((folder / "desktop.json").read_text())["pid"])
    except (OSError, ValueError, KeyError):
        return
    try:
        os.kill(pid, signal.SIGTERM)
    except ProcessLookupError:
        return
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return
        time.sleep(0.1)


def place(folder: Path) -> Place:
    info = json.loads((folder / "desktop.json").read_text())
    return place_of(folder, info["env"], int(info["port"]))
