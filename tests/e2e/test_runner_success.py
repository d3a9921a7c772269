"""A task is a success only when its success criteria hold in the app, and the runner acts on
the app the task names — on Mousepad, an app nobody here wrote.

Found by trying `winctl run` as a user would: on an untitled document the Mousepad template
reported success while the Save As dialog was open and nothing was saved; a second run then
typed into that dialog and saved `note.txtworld`; with another app's window selected, the
Mousepad template ran against that window. Outcomes are read from the app's side: files on
disk, window titles as wmctrl lists them, the document's text through AT-SPI.
"""

from __future__ import annotations

import os
import signal
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import environment, wait_for_window, window_gone
from tests.fixtures.launch import gtk_fixture_command
from tests.fixtures.toolkit_apps import isolated_env
from winactions.agent import RunOptions, TaskRunner, TaskStatus
from winactions.api import Desktop

pytestmark = pytest.mark.desktop


class Pad:
    """Mousepad (untitled, or on `doc`) on a private home, driven through one Desktop session."""

    def __init__(self, desk, folder: Path, doc: Path | None = None) -> None:
        self.folder, self.doc, self.desk = folder, doc, desk
        self.env = {**desk.env, **isolated_env(folder / "home"), "XDG_RUNTIME_DIR": str(folder / "rt")}
        (folder / "rt").mkdir(mode=0o700, parents=True, exist_ok=True)
        self.groups: list[int] = []

    def __enter__(self) -> Pad:
        self._env = environment(self.env)
        self._env.__enter__()
        self.desktop = Desktop("success")
        return self

    def open(self) -> Pad:
        command = ["mousepad", "--disable-server", *([str(self.doc)] if self.doc else [])]
        launched = self.desktop.call("launch", command=command)
        self.groups.append(int(launched.detail.split()[1]))
        self.wait_for_tree()
        return self

    def start(self, command: list[str], title: str) -> None:
        launched = self.desktop.call("launch", command=command, title=title)
        self.groups.append(int(launched.detail.split()[1]))

    def wait_for_tree(self) -> None:
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:  # the tree comes a moment after the window
            if any(t.type == "Edit" for t in self.desktop.state().targets):
                return
            time.sleep(0.2)

    def titles(self) -> list[str]:
        """Window titles as wmctrl lists them (not through winctl)."""
        out = subprocess.run(["wmctrl", "-l"], env=self.desk.env, capture_output=True, text=True).stdout
        return [line.split(None, 3)[3] for line in out.splitlines() if len(line.split(None, 3)) == 4]

    def text(self) -> str:
        """The document's text through AT-SPI, read on the document window."""
        self.desktop.call("focus", window=" - Mousepad")
        edit = next(t for t in self.desktop.state().targets if t.type == "Edit")
        return str(self.desktop.get_text(edit.id))

    def __exit__(self, *exc: object) -> None:
        for group in self.groups:
            for sig in (signal.SIGTERM, signal.SIGKILL):
                try:
                    os.killpg(group, sig)
                    time.sleep(0.3)
                except ProcessLookupError:
                    break
        self.desktop.close()
        self._env.__exit__(None, None, None)


@pytest.fixture
def pad(desktop, tmp_path, monkeypatch) -> Iterator[Pad]:
    monkeypatch.chdir(tmp_path)  # where a Save As dialog offers to save by default
    with Pad(desktop, tmp_path) as p:
        yield p


def files(folder: Path) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file() and "rt" not in p.parts)


def test_a_save_on_an_untitled_document_is_not_a_success(pad, tmp_path):
    """ctrl+s on a document with no file opens Save As: the run fails at that step, naming the
    dialog, and tells the user to say where; nothing is written."""
    pad.open()
    before = files(tmp_path)
    result = TaskRunner(pad.desktop, RunOptions(pixels=False)).run("write hello in mousepad and save")
    assert result.status is TaskStatus.FAILED, result
    assert 'opened the dialog "Save As" (buttons Cancel, Save) the plan did not expect' in result.error
    assert "step 2 (keys ctrl+s)" in result.error and "save as" in result.error
    assert result.step_results[1].status.value == "failed"
    assert "Save As" in pad.titles()  # the app's own word: the dialog is open ...
    assert files(tmp_path) == before  # ... and nothing was saved


def test_a_leftover_dialog_is_closed_and_never_typed_into(pad, tmp_path):
    """A Save As dialog left open (a name typed in it) holds Mousepad's window: the next run
    closes it by Cancel, says so, and types into the document — no `note.txtworld`."""
    pad.open()
    pad.desktop.keys("h e l l o ctrl+s")
    wait_for_window(pad.desk, "Save As")
    time.sleep(0.5)
    name = next(t for t in pad.desktop.state().targets if t.type == "Edit" and t.name == "Name")
    pad.desktop.input(name.id, "note.txt")
    result = TaskRunner(pad.desktop, RunOptions(pixels=False)).run("add line world and save")
    assert any('closed the dialog "Save As"' in p and "by Cancel" in p for p in result.prepared), result.prepared
    assert result.status is TaskStatus.FAILED  # still untitled: its own ctrl+s opened Save As again
    assert "step 3 (keys ctrl+s)" in result.error and "Save As" in result.error
    assert not [f for f in files(tmp_path) if "world" in f or "note" in f]
    assert "Save As" in pad.titles()  # the failed save's dialog is left for the user to see
    pad.desktop.keys("Escape")
    assert pad.text() == "hello\nworld"  # typed into the document, not the dialog's name field
    pad.desktop.keys("ctrl+s")  # a dialog left open again, for the next run
    wait_for_window(pad.desk, "Save As")
    # saying where saves it, and that is checked on disk
    target = tmp_path / "out" / "note.txt"
    target.parent.mkdir()
    done = TaskRunner(pad.desktop, RunOptions(pixels=False)).run(f"write hello world in mousepad and save as {target}")
    assert done.status is TaskStatus.SUCCESS, done.error
    assert any("closed the dialog" in p for p in done.prepared)  # the one the failed run left
    assert target.read_text().rstrip("\n") == "hello world"
    assert {c.what: c.ok for c in done.checks} == {
        f"{target} exists": True,
        "note.txt was written during this run": True,
        "note.txt holds 'hello world'": True,
        "the window title lacks '*'": True,
        "no dialog of the app is left open": True,
    }
    assert f"{target} - Mousepad" in pad.titles() and window_gone(pad.desk, "Save As")


def test_the_template_acts_on_mousepad_not_the_selected_window(pad, tmp_path):
    """The session's window is another app: the Mousepad template selects Mousepad's window,
    and launches Mousepad when none is open."""
    doc = tmp_path / "doc.txt"
    doc.write_text("old\n")
    pad.doc = doc
    pad.open()
    pad.start(gtk_fixture_command(str(tmp_path / "log.jsonl"), rows=5), "Winactions Fixture")
    assert pad.desktop.state().window.title.startswith("Winactions Fixture")
    result = TaskRunner(pad.desktop, RunOptions(pixels=False)).run('write "new text" in mousepad and save')
    assert result.status is TaskStatus.SUCCESS, result.error
    assert doc.read_text().rstrip("\n") == "new text"
    assert all(c.ok for c in result.checks) and f"{doc} - Mousepad" in pad.titles()
    # no Mousepad at all: the module's launch command opens one
    os.killpg(pad.groups.pop(0), signal.SIGTERM)
    deadline = time.monotonic() + 10
    while any("Mousepad" in t for t in pad.titles()) and time.monotonic() < deadline:
        time.sleep(0.2)
    pad.desktop.call("focus", window="Winactions Fixture")
    fresh = tmp_path / "home" / "fresh.txt"  # said as ~/fresh.txt: the app's home, as the file dialog reads it
    launched = TaskRunner(pad.desktop, RunOptions(pixels=False)).run(
        "write launched in mousepad and save as ~/fresh.txt"
    )
    assert launched.prepared[0] == "launched mousepad --disable-server"
    pad.groups.append(next(w.pid for w in pad.desktop.call("windows").windows if w.process == "mousepad"))
    assert launched.status is TaskStatus.SUCCESS, launched.error
    assert fresh.read_text().rstrip("\n") == "launched"


def test_a_plan_without_criteria_is_unverified_and_exits_10(pad, tmp_path):
    """Steps that all ran prove nothing about the task: without criteria the run says
    `unverified` (exit 10 from the CLI), never success."""
    from tests.conftest import run_in_process

    doc = tmp_path / "doc.txt"
    doc.write_text("")
    pad.doc = doc
    pad.open()
    plan = '{"steps": [{"action": "input_text", "target_type": "Edit", "params": {"text": "typed"}}]}'
    out = run_in_process(["--session", "success", "run", "--no-pixels", "--plan", plan, "type it"], pad.env)
    assert out.code == 10, out.err
    assert out.out.startswith("unverified: ") and "check: the task's success criteria: not checked" in out.out
    assert "typed" in pad.text()


def test_a_model_replans_from_the_dialog_the_save_opened(pad, tmp_path):
    """A model's plan saves an untitled document with ctrl+s: the step fails naming Save As, and
    the replan, shown the dialog, names the file there; the file on disk is the check."""
    import json

    from tests.fixtures.llm_server import API_KEY, LLMServer
    from winactions.llm.config import LLMFlags

    target = tmp_path / "kept.txt"
    first = {
        "steps": [
            {"action": "input_text", "target_type": "Edit", "params": {"text": "kept"}},
            {"action": "press_key", "params": {"keys": "ctrl+s"}},
        ],
        "success": {"file": str(target), "file_equals": "kept", "file_saved": True},
    }
    second = {
        "steps": [
            {
                "action": "input_text",
                "target_ref": "Name",
                "target_type": "Edit",
                "params": {"text": str(target)},
                "expect": {"value": str(target)},
            },
            {
                "action": "click",
                "target_ref": "Save",
                "target_type": "Button",
                "wait_after": 800,  # the dialog takes a moment to close: checked once, after this
                "expect": {"window_changed": True},
            },
        ]
    }
    pad.open()
    with LLMServer() as server:
        server.reply(json.dumps(first))
        server.reply(json.dumps(second))
        flags = LLMFlags(provider="openai", base_url=server.openai_url, api_key=API_KEY, model="scripted")
        result = TaskRunner(pad.desktop, RunOptions(llm=flags, pixels=False)).run("keep the word kept in a file")
        assert result.status is TaskStatus.SUCCESS, result.error
        assert result.replans == 1 and 'opened the dialog "Save As"' in result.step_results[1].error
        assert 'Edit "Name"' in server.requests[1].prompt  # the replan saw the dialog
    assert target.read_text().rstrip("\n") == "kept" and window_gone(pad.desk, "Save As")
