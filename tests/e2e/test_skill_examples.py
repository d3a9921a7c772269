"""The agent manual's worked examples (its core and every topic: `winctl skill keys` has
Tier 3's), run word for word against the GTK fixture.

Each `<!-- example NAME -->` section holds console blocks: `$ winctl ...` lines and the
output they print, where `...` stands for anything (doctest's ELLIPSIS). The commands run
exactly as written, and the app's own log then shows whether the arithmetic the prose
walks through was right.
"""

from __future__ import annotations

import re
import shlex

import pytest

from tests.conftest import start_app, stop_app
from tests.fixtures.applog import AppLog
from tests.fixtures.launch import gtk_fixture_command
from winactions import skill

pytestmark = pytest.mark.desktop
TITLE = "Winactions Fixture"
EXAMPLE = re.compile(r"<!-- example (\S+) -->(.*?)(?=<!-- example |\n##? |\Z)", re.S)  # to the next heading
CONSOLE = re.compile(r"```console\n(.*?)```", re.S)


def examples() -> dict[str, list[tuple[str, str]]]:
    """Example name -> [(command line, expected output)]."""
    found = {}
    for name, body in EXAMPLE.findall(skill.everything()):
        steps: list[tuple[str, list[str]]] = []
        for block in CONSOLE.findall(body):
            for line in block.splitlines():
                if line.startswith("$ "):
                    steps.append((line[2:], []))
                else:
                    steps[-1][1].append(line)
        found[name] = [(command, "\n".join(lines)) for command, lines in steps]
    return found


def matches(expected: str, actual: str) -> bool:
    pattern = ".*?".join(re.escape(part) for part in expected.split("..."))
    return re.fullmatch(pattern, actual.rstrip("\n"), re.S) is not None


def run(winctl, steps: list[tuple[str, str]]) -> None:
    for command, expected in steps:
        argv = shlex.split(command)
        assert argv[0] == "winctl", command
        out = winctl(*argv[1:]).out
        assert matches(expected, out), f"$ {command}\nthe manual says:\n{expected}\nbut it printed:\n{out}"


@pytest.fixture
def app(desktop, tmp_path, winctl, monkeypatch):
    log = tmp_path / "events.jsonl"
    proc = start_app(desktop, gtk_fixture_command(str(log), rows=30, title=TITLE), TITLE)
    winctl("focus", TITLE)
    winctl("window", "move", "40", "60", "1000", "720")  # where the examples' numbers come from
    monkeypatch.chdir(tmp_path)
    yield AppLog(str(log))
    stop_app(proc)


def test_the_matcher_is_strict_outside_the_ellipses():
    assert matches("[21] ...\n[22] x", "[21] a\n[22] x")
    assert matches("...\n[22] x\n...", "a\nb\n[22] x\nc")
    assert not matches("[40, 262, 100, 287]", "[40, 262, 101, 287]")
    assert not matches("[21] a", "[21] a\n[22] b")


def test_the_manual_has_both_tier3_examples():
    assert set(examples()) >= {"3a", "3b"}


def test_example_3a_inspect_compute_drag_at_widens_the_column(winctl, app):
    run(winctl, examples()["3a"])
    app.wait_for("column_width", column="ID", width=60 + 50)


def test_example_3b_screenshot_estimate_click_at_hits_the_painted_button(winctl, app, tmp_path):
    run(winctl, examples()["3b"])
    assert (tmp_path / "shot.png").exists()
    app.wait_for("canvas_button", hit="play")
