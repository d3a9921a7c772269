"""Apps started with `winctl launch`, and reading what `state` lists of them."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psutil

from tests.conftest import Winctl

BRIDGE_VARIABLES = (
    "QT_ACCESSIBILITY",
    "QT_LINUX_ACCESSIBILITY_ALWAYS_ON",
    "GNOME_ACCESSIBILITY",
    "JAVA_TOOL_OPTIONS",
    "NO_AT_BRIDGE",
    "GTK_A11Y",
)
TREE_TIMEOUT = 30.0  # a JVM or a browser renderer builds its tree a few seconds after its window


@dataclass
class Launched:
    group: int  # the process winctl started, leader of its own process group
    window: dict[str, Any]

    @property
    def pid(self) -> int:
        """The process that owns the window (a wrapper script's child for jEdit)."""
        return int(self.window["pid"])


Launch = Callable[..., Launched]  # the `launch` fixture


def stop_group(group: int) -> None:
    """Stop one launched app and everything it started (it leads its own process group)."""
    for sig in (signal.SIGTERM, signal.SIGKILL):
        try:
            os.killpg(group, sig)
        except ProcessLookupError:
            return
        deadline = time.monotonic() + 5
        while alive_in_group(group) and time.monotonic() < deadline:
            time.sleep(0.1)
        if not alive_in_group(group):
            return


def alive_in_group(group: int) -> bool:
    """Is any process of the group still running? (Zombies count as gone: the leader is
    this test process's child, reaped here, and the rest belong to init.)"""
    with contextlib.suppress(ChildProcessError):
        os.waitpid(group, os.WNOHANG)
    for proc in psutil.process_iter(["status"]):
        with contextlib.suppress(psutil.Error, ProcessLookupError):
            if os.getpgid(proc.pid) == group and proc.info["status"] != psutil.STATUS_ZOMBIE:
                return True
    return False


def process_env(pid: int) -> dict[str, str]:
    """The environment the app really runs with (what launch gave it)."""
    raw = Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
    return dict(item.decode(errors="replace").partition("=")[::2] for item in raw if b"=" in item)


def process_command_line(pid: int) -> str:
    """The app's command line as one string (Chromium rewrites its argv into a single one)."""
    return " ".join(a.decode(errors="replace") for a in Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0"))


def wait_for(
    winctl: Winctl, *wanted: tuple[str, str | None], timeout: float = TREE_TIMEOUT, app: Launched | None = None
) -> dict[str, Any]:
    """A fresh state that lists every (type, name) wanted (name None: any); the tree of a
    just-opened window or menu fills in a little after it appears (`launch` returns once the
    window is on the accessibility bus, not once every control is)."""
    deadline = time.monotonic() + timeout
    while True:
        run = winctl("--json", "state", expect=None)
        if run.code != 0:  # the window is up but its app has not joined the bus yet
            if app is not None and not alive_in_group(app.group):
                raise AssertionError(
                    f"{app.window['process']} (pid {app.pid}) died while winctl read its "
                    f"accessibility tree: {run.out}{run.err}"
                )
            assert time.monotonic() < deadline, f"state kept failing: {run.out}{run.err}"
            time.sleep(0.5)
            continue
        state = run.json["result"]
        found = {(t["type"], t["name"]) for t in state["targets"]}
        types = {t["type"] for t in state["targets"]}
        missing = [w for w in wanted if (w not in found if w[1] is not None else w[0] not in types)]
        if not missing:
            return state
        if time.monotonic() > deadline:
            raise AssertionError(f"missing {missing} in state:\n{winctl('state').out}")
        time.sleep(0.5)


def target(state: dict[str, Any], type_: str, name: str | None = None, after: str | None = None) -> int:
    """The id of the first element of this type (and name), optionally the first after a label."""
    targets = state["targets"]
    if after is not None:
        start = next(i for i, t in enumerate(targets) if t["name"] == after)
        targets = targets[start + 1 :]
    for t in targets:
        if t["type"] == type_ and (name is None or t["name"] == name):
            return int(t["id"])
    raise AssertionError(f"no {type_} {name!r} in state")


def ids(state: dict[str, Any], type_: str) -> list[int]:
    """The ids of every element of this type, in the state's order."""
    return [t["id"] for t in state["targets"] if t["type"] == type_]


def display(winctl, kind: str = "Text") -> list[str]:
    """The names of every element of this type in a fresh state (galculator's display: Text)."""
    return [t["name"] for t in winctl.state()["targets"] if t["type"] == kind]


def shows(winctl, number: str, timeout: float = 5) -> None:
    """Wait until galculator's display shows `number` (its scientific display adds the modes after it)."""
    deadline = time.monotonic() + timeout
    while True:
        shown = [text.split()[0] for text in display(winctl) if text.split()]
        if number in shown:
            return
        assert time.monotonic() < deadline, f"galculator's display shows {shown}, not {number}"
        time.sleep(0.3)


def keys(winctl) -> dict[str, list[int]]:
    """Each named button's rect, by name (a calculator's keys)."""
    state = winctl("--json", "state", "--verbose").json["result"]
    return {t["name"]: t["rect"] for t in state["targets"] if t["type"] == "Button" and t["name"]}


def inside(rect: list[int], point: list[int]) -> bool:
    """Is the point within the rect (left, top, right, bottom; right and bottom excluded)?"""
    return rect[0] <= point[0] < rect[2] and rect[1] <= point[1] < rect[3]


def xywh(bbox: dict) -> str:
    """A `locate` bbox as the `x,y,width,height` a command line takes."""
    return f"{bbox['left']},{bbox['top']},{bbox['right'] - bbox['left']},{bbox['bottom'] - bbox['top']}"


def wait_for_buttons(winctl, count: int) -> dict:
    """A fresh verbose state once it lists at least `count` buttons (within 20 s)."""
    deadline = time.monotonic() + 20
    while True:
        state = winctl("--json", "state", "--verbose").json["result"]
        if sum(t["type"] == "Button" for t in state["targets"]) >= count:
            return state
        assert time.monotonic() < deadline, state["targets"]
        time.sleep(0.3)


def wait_for_file(path: Path, expected: str, timeout: float = 10.0) -> str:
    """The file's text once it holds `expected` (editors may add a final newline)."""
    deadline = time.monotonic() + timeout
    text = ""
    while time.monotonic() < deadline:
        text = path.read_text() if path.exists() else ""
        if expected in text:
            return text
        time.sleep(0.2)
    raise AssertionError(f"{path} holds {text!r}, not {expected!r}")


def semantic_click(winctl: Winctl, element: int, *options: str) -> str:
    """`click` that must have gone through an accessibility action, not the mouse; its output."""
    out = winctl("click", str(element), *options).out
    assert "via action:" in out, f"not a semantic click: {out}"
    return out


def title_of(desktop, part: str) -> str:
    """The title of the window whose title contains `part`, read by wmctrl (not by us)."""
    out = subprocess.run(["wmctrl", "-l"], env=desktop.env, capture_output=True, text=True).stdout
    return next(line.split(None, 3)[3] for line in out.splitlines() if part in line)


def wait_title(desktop, part: str, starred: bool, timeout: float = 10.0) -> str:
    """That window's title once its leading `*` (unsaved changes) is as `starred` says."""
    deadline = time.monotonic() + timeout
    while (title := title_of(desktop, part)).startswith("*") != starred:
        assert time.monotonic() < deadline, f"title stays {title!r}"
        time.sleep(0.2)
    return title


def active_title(desktop) -> str:
    """The active window's title, as xdotool reads it."""
    return subprocess.run(
        ["xdotool", "getactivewindow", "getwindowname"], env=desktop.env, capture_output=True, text=True
    ).stdout.strip()


def document(front) -> int:
    """The id of the text view, from the first `state` (no `windows`, no `focus` before it)."""
    for _ in range(40):
        run = front("--json", "state", expect=None)
        if run.code == 0:
            docs = [t["id"] for t in run.json["result"]["targets"] if t["type"] in ("Document", "Edit")]
            if docs:
                return docs[-1]
        time.sleep(0.25)
    raise AssertionError(f"no text view in the state: {run.out}{run.err}")


def window_pids(env: dict[str, str], title_end: str) -> list[int]:
    """The processes of the windows whose titles end in `title_end`, as the window manager lists
    them (wmctrl: independent of winctl)."""
    listed = subprocess.run(["wmctrl", "-lp"], env=env, capture_output=True, text=True).stdout
    return [int(line.split()[2]) for line in listed.splitlines() if line.endswith(title_end)]


def stop_windows(env: dict[str, str], title_end: str) -> None:
    """Stop the apps (their process groups) whose windows' titles end in `title_end`."""
    for pid in window_pids(env, title_end):
        with contextlib.suppress(ProcessLookupError):
            stop_group(os.getpgid(pid))
