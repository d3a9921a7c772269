"""What an agent looked for after acting, said by `state` itself (issue 39's agent trial):
whether the document is saved, where a text's lines break, whether Bold is on.

Run as agents run winctl: the `winctl` script in separate processes, through the session
daemon it starts (the default), a named one (`--session`) and in its own process
(`--no-daemon`). Outcomes are read from the apps' side too: the title as wmctrl reads it, the
file on disk.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import start_app, stop_app
from tests.e2e.helpers.office import start_soffice
from tests.fixtures.toolkit_apps import isolated_env, mousepad_command

pytestmark = pytest.mark.desktop
WINCTL = str(Path(sys.executable).with_name("winctl"))
ROUTES = {"daemon": (), "session": ("--session", "truths"), "in-process": ("--no-daemon",)}


class Shell:
    """`winctl` as separate processes with a private runtime directory, by one route."""

    def __init__(self, env: dict[str, str], route: tuple[str, ...]) -> None:
        self.env, self.route = env, route

    def __call__(self, *args: str) -> str:
        done = subprocess.run([WINCTL, *self.route, *args], env=self.env, capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, f"winctl {args} -> {done.returncode}\n{done.stdout}\n{done.stderr}"
        return done.stdout

    def state(self, *extra: str) -> dict[str, Any]:
        return json.loads(self("--json", "state", *extra))["result"]


@pytest.fixture
def shells(desktop, tmp_path) -> Iterator[Callable[[str], Shell]]:
    runtime = tmp_path / "runtime"
    runtime.mkdir(mode=0o700)
    env = {**desktop.env, "XDG_RUNTIME_DIR": str(runtime)}
    yield lambda route: Shell(env, ROUTES[route])
    subprocess.run([WINCTL, "session", "close", "--all"], env=env, capture_output=True, timeout=60)


def wm_title(desktop, part: str) -> str:
    """The title of the window whose title holds `part`, as the window manager lists it."""
    out = subprocess.run(["wmctrl", "-l"], env=desktop.env, capture_output=True, text=True).stdout
    return next(
        (
            line.split(None, 3)[3]
            for line in out.splitlines()
            if len(line.split(None, 3)) == 4 and part in line.split(None, 3)[3]
        ),
        "",
    )


def eventually(check: Callable[[], bool], what: str, seconds: float = 15) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, what
        time.sleep(0.2)


def target(state: dict[str, Any], type_: str, name: str | None = None) -> dict[str, Any]:
    found = [t for t in state["targets"] if t["type"] == type_ and (name is None or t["name"] == name)]
    assert found, f"no {type_} {name!r} in {[(t['type'], t['name']) for t in state['targets']]}"
    return found[0]


# -- Mousepad (GTK 3): the title's mark, a text's line breaks ---------------------------------
@pytest.fixture
def mousepad(desktop, tmp_path, monkeypatch) -> Iterator[Path]:
    for name, value in isolated_env(tmp_path / "home").items():
        monkeypatch.setitem(desktop.env, name, value)
    doc = tmp_path / "lines.txt"
    doc.write_text("first line\nsecond line\n")
    proc = start_app(desktop, mousepad_command(doc), "lines.txt")
    time.sleep(0.5)
    yield doc
    stop_app(proc)


@pytest.mark.parametrize("route", ["daemon", "in-process"])
def test_mousepad_state_says_modified_until_saved_and_where_lines_break(shells, desktop, mousepad, route):
    """After ctrl+s agents spent 2–3 calls (inspect, find, a zoom) to learn whether the file
    was saved, though Mousepad says it in its title (`*lines.txt`); and a text area's value was
    shown with its lines joined by spaces, so agents called `get text` to see the breaks. The
    header now says `modified` while the title has the mark, and the value shows `\\n`."""
    winctl = shells(route)
    winctl("focus", "lines.txt")
    text = winctl("state")
    assert text.splitlines()[0].endswith(")"), text.splitlines()[0]  # saved: no mark
    editor = next(line for line in text.splitlines() if "[Edit]" in line)
    assert 'value="first line\\nsecond line\\n"' in editor, editor
    assert winctl.state()["modified"] is None  # Mousepad shows "saved" by showing nothing

    edit = target(winctl.state(), "Edit")
    winctl("click", str(edit["id"]))
    winctl("keys", "ctrl+End")
    winctl("type", "third")
    eventually(lambda: wm_title(desktop, "lines.txt").startswith("*"), "Mousepad's title never got its mark")
    header = winctl("state").splitlines()[0]
    assert header.endswith(" modified"), header
    assert winctl.state()["modified"] is True

    winctl("keys", "ctrl+s")
    eventually(lambda: mousepad.read_text() == "first line\nsecond line\nthird", "the file was not saved")
    eventually(lambda: not wm_title(desktop, "lines.txt").startswith("*"), "the title kept its mark")
    header = winctl("state").splitlines()[0]
    assert not header.endswith("modified"), header
    assert winctl.state()["modified"] is None


# -- LibreOffice Writer: Save All, toolbar states that lag -------------------------------------
FODT = """<?xml version="1.0" encoding="UTF-8"?>
<office:document xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0"
 xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0"
 xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"
 xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0"
 office:version="1.2" office:mimetype="application/vnd.oasis.opendocument.text">
 <office:automatic-styles>
  <style:style style:name="T1" style:family="text"><style:text-properties fo:font-weight="bold"/></style:style>
 </office:automatic-styles>
 <office:body><office:text>
  <text:p>Heavy <text:span text:style-name="T1">boldword</text:span> then plainword here.</text:p>
 </office:text></office:body>
</office:document>
"""
WRITER = "report.fodt - LibreOffice Writer"


@pytest.fixture
def writer(desktop, tmp_path) -> Iterator[Path]:
    doc = tmp_path / "report.fodt"
    doc.write_text(FODT)
    proc = start_soffice(desktop, tmp_path, "--writer", str(doc), title=WRITER)
    yield doc
    stop_app(proc)
    subprocess.run(["pkill", "-P", str(proc.pid)], check=False)


@pytest.mark.parametrize("route", ["daemon", "session"])
def test_writer_state_says_modified_until_saved(shells, desktop, writer, route):
    """Writer's title never changes and its status-bar "modified" field exposes no name,
    description or text over AT-SPI; its own File menu's Save All is enabled exactly while a
    document has unsaved changes. `state` says `modified` after typing, and not once ctrl+s
    wrote the file — read right after the keys, as a daemon does within LibreOffice's 300 ms
    toolbar update. The state an action returns (`--return-state`) says it too."""
    winctl = shells(route)
    winctl("focus", WRITER)
    assert winctl.state()["modified"] is False
    returned = winctl("type", "Typed ", "--return-state")  # the state an action returns says it too
    assert any(line.startswith('Window: "') and line.endswith(") modified") for line in returned.splitlines()), returned
    header = winctl("state").splitlines()[0]
    assert header.endswith(") modified"), header
    assert winctl.state()["modified"] is True
    before = writer.stat().st_mtime_ns
    winctl("keys", "ctrl+s")
    assert winctl.state()["modified"] is False
    eventually(lambda: writer.stat().st_mtime_ns != before and "Typed " in writer.read_text(), "not saved")
    assert wm_title(desktop, "report.fodt") == WRITER
    assert not winctl("state").splitlines()[0].endswith("modified")


def bold(state: dict[str, Any]) -> bool:
    return "checked" in target(state, "Button", "Bold").get("states", [])


def test_writer_bold_turns_off_in_state_diff_and_inspect(shells, desktop, writer):
    """With the caret moved from a bold word to a plain one, `state --diff` said nothing
    changed and `inspect` printed `checked` in its header over a live state list without it.
    Writer updates its toolbar on a 300 ms timer after the caret moves, and the daemon read
    sooner; `inspect`'s header was the last state's read. Both tell the truth now."""
    winctl = shells("session")
    winctl("focus", WRITER)
    assert not bold(winctl.state())  # at the start of "Heavy"
    winctl("keys", "ctrl+Home")
    winctl("keys", "ctrl+Right")  # into "boldword"
    winctl("keys", "Right")
    assert bold(winctl.state())
    bold_id = target(winctl.state(), "Button", "Bold")["id"]
    winctl("keys", "ctrl+Right")
    winctl("keys", "ctrl+Right")  # into "plainword"
    diff = winctl("state", "--diff")
    assert f'~ [{bold_id}] [Button] "Bold"' in diff and "-checked" in diff, diff

    winctl("keys", "ctrl+Left")
    winctl("keys", "ctrl+Left")
    winctl("keys", "Right")  # back in "boldword"
    assert bold(winctl.state())
    winctl("keys", "ctrl+Right")
    winctl("keys", "ctrl+Right")
    time.sleep(1)  # the toolbar has caught up: only the header could be stale now
    inspected = winctl("inspect", str(bold_id))
    header, states = inspected.splitlines()[0], next(x for x in inspected.splitlines() if "states:" in x)
    assert "checked" not in states, inspected
    assert "checked" not in header, inspected
    assert not bold(winctl.state())
