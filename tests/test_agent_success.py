"""Success criteria and unexpected windows, checked without a desktop: the criteria model, the
file checks on real files, the verdict, a step's unexpected dialog, and a replay's criteria."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from winactions.agent.apps import load_module
from winactions.agent.opened import UnexpectedWindow, check_step
from winactions.agent.plan import parse_plan
from winactions.agent.record import replay_plan
from winactions.agent.success import Success, check_success, parse_success, verdict
from winactions.errors import InvalidInput
from winactions.model import Target, UIState, WindowInfo

MAIN = WindowInfo(id="0x1", title="note.txt - Mousepad", pid=10, process="mousepad")
SAVE_AS = WindowInfo(id="0x2", title="Save As", pid=10, process="mousepad")


def state(window: WindowInfo, *targets: tuple[str, str]) -> UIState:
    return UIState(
        window=window,
        targets=[Target(id=i, type=t, name=n) for i, (t, n) in enumerate(targets, 1)],
        timestamp="now",
    )


class Actor:
    """The calls the success checks make, answered from one state and a window list."""

    def __init__(self, now: UIState, windows: list[WindowInfo], texts: dict[int, str] | None = None) -> None:
        self.now, self.windows, self.texts = now, windows, texts or {}

    def call(self, command: str, /, **args: Any) -> Any:
        if command == "state":
            return SimpleNamespace(state=self.now)
        if command == "windows":
            return SimpleNamespace(windows=self.windows)
        if command == "get text":
            return SimpleNamespace(value=self.texts[args["id"]])
        raise AssertionError(command)

    def commands(self) -> list[str]:
        return ["state", "windows", "get text"]


def test_criteria_refuse_unknown_keys_and_name_the_template(tmp_path):
    with pytest.raises(InvalidInput, match="template save: has invalid success criteria: colour"):
        parse_success({"colour": "red"}, where="template save:")
    with pytest.raises(InvalidInput, match="need file"):
        parse_success({"file_equals": "x"}, where="t")
    with pytest.raises(InvalidInput, match="one of equals or contains"):
        parse_success({"element": {"type": "Edit"}}, where="t")
    module = tmp_path / "pad"
    module.mkdir()
    (module / "tasks.yaml").write_text(
        "tasks:\n  - name: broken\n    patterns: [x]\n    steps: [{action: wait}]\n    success: {file_sved: true}\n"
    )
    with pytest.raises(InvalidInput, match=r"tasks.yaml task broken has invalid success criteria: file_sved"):
        load_module(module)


def test_a_templates_criteria_are_filled_like_its_steps(tmp_path):
    module = tmp_path / "pad"
    module.mkdir()
    (module / "tasks.yaml").write_text(
        "tasks:\n  - name: keep\n    patterns: ['keep (?P<text>.+) in (?P<path>.+)']\n"
        "    steps: [{action: input_text, params: {text: '{text}'}}]\n"
        "    success: {file: '{path}', file_equals: '{text}'}\n"
    )
    plan, name = load_module(module).template_plan("keep words in /tmp/a.txt") or (None, "")
    assert name == "keep" and plan is not None and plan.success == Success(file="/tmp/a.txt", file_equals="words")


def test_file_checks_read_the_file_the_app_wrote(tmp_path):
    doc = tmp_path / "a.txt"
    started = time.time()
    doc.write_text("hello\n")
    home = Actor(state(MAIN), [MAIN])
    checks = check_success(
        home, Success(file=str(doc), file_equals="hello", file_saved=True), "", home=MAIN, started=started
    )
    assert [c.ok for c in checks] == [True, True, True, True] and verdict(checks) == ("success", "")
    os.utime(doc, (started - 60, started - 60))  # written before the run: not this run's save
    stale = check_success(home, Success(file=str(doc), file_saved=True), "", home=MAIN, started=started)
    assert stale[1].ok is False and "before the run started" in stale[1].detail
    status, error = verdict(stale)
    assert status == "failed" and "a.txt was written during this run: no" in error
    missing = check_success(home, Success(file=str(tmp_path / "none.txt")), "", home=MAIN)
    assert missing[0].ok is False
    relative = check_success(home, Success(file="note.txt"), "", home=MAIN)
    assert relative[0].ok is None and "not an absolute path" in relative[0].detail
    assert verdict(relative)[0] == "unverified"


def test_a_modules_read_file_hook_reads_its_format(tmp_path):
    doc = tmp_path / "a.bin"
    doc.write_bytes(b"\x00PK binary")
    module = SimpleNamespace(hook=lambda name: (lambda path: "cell A1: 42") if name == "read_file" else None)
    checks = check_success(
        Actor(state(MAIN), [MAIN]), Success(file=str(doc), file_contains="42"), "", home=MAIN, module=module
    )
    assert checks[1].what == "a.bin contains '42'" and checks[1].ok is True


def test_title_element_and_dialog_checks_read_the_app():
    saved = WindowInfo(id="0x1", title="note.txt - Mousepad", pid=10, process="mousepad")
    actor = Actor(state(saved, ("Edit", "")), [saved], {1: "hello\n"})
    criteria = Success(title_lacks="*", element={"type": "Edit", "equals": "hello"})
    assert [c.ok for c in check_success(actor, criteria, "", home=MAIN)] == [True, True, True]
    held = Actor(state(SAVE_AS, ("Button", "Cancel"), ("Button", "Save")), [MAIN, SAVE_AS])
    checks = check_success(held, Success(title_lacks="*"), "", home=MAIN)
    assert checks[-1].ok is False and checks[-1].detail == 'the dialog "Save As" (buttons Cancel, Save)'


def test_no_criteria_is_unverified_and_words_need_a_model():
    actor = Actor(state(MAIN), [MAIN])
    none = check_success(actor, None, "", home=MAIN)
    assert verdict(none)[0] == "unverified" and "names none" in none[0].detail
    words = check_success(actor, None, "the file is saved", home=MAIN, model=None)
    assert words[0].ok is None and "no model" in words[0].detail and words[0].what == "the file is saved"


def test_a_step_that_opens_a_dialog_nobody_expected_fails():
    plan = parse_plan(
        {
            "steps": [
                {"action": "press_key", "params": {"keys": "ctrl+s"}},
                {"action": "input_text", "target_ref": "Name", "params": {"text": "x"}},
                {"action": "press_key", "params": {"keys": "ctrl+s"}, "expect": {"window_changed": True}},
            ]
        }
    )
    before, after = state(MAIN, ("Edit", "")), state(SAVE_AS, ("Edit", "Name"), ("Button", "Cancel"))
    with pytest.raises(
        UnexpectedWindow, match=r'step 1 \(keys ctrl\+s\) opened the dialog "Save As" \(buttons Cancel\)'
    ):
        check_step(plan.steps[0], before, after, None)
    check_step(plan.steps[0], before, after, plan.steps[1])  # the next step types into its Name field
    check_step(plan.steps[2], before, after, None)  # its expectation said a window would open
    check_step(plan.steps[0], before, before, None)  # nothing opened
    check_step(plan.steps[0], after, before, None, home=MAIN)  # back on the run's window: nothing opened


def test_a_replay_keeps_the_recorded_criteria(tmp_path):
    recorded = {
        "steps": [{"step": 1, "action": "press_key", "params": {"keys": "ctrl+s"}}],
        "success": {"file": "/tmp/x.txt", "file_saved": True},
        "success_criteria": "saved",
    }
    events = [
        {"event": "plan", "task": "save it", "plan": recorded},
        {"event": "step", "status": "success", "step": recorded["steps"][0]},
    ]
    (tmp_path / "run.jsonl").write_text("\n".join(json.dumps(e) for e in events))
    task, plan = replay_plan(Path(tmp_path))
    assert task == "save it" and plan.success == Success(file="/tmp/x.txt", file_saved=True)
    assert plan.success_criteria == "saved"


def test_the_run_acts_on_the_modules_main_window_never_its_dialog():
    from winactions.agent.apps import AppModule
    from winactions.agent.apptarget import main_window

    pad = AppModule(name="mousepad", folder=Path("."), processes=["mousepad"], window=" - Mousepad$")
    older = WindowInfo(id="0x0", title="a.txt - Mousepad", pid=9, process="mousepad")
    fixture = WindowInfo(id="0x9", title="Winactions Fixture", pid=11, process="python3")
    listed = [older, MAIN, SAVE_AS, fixture]
    assert main_window(pad, listed, fixture) == MAIN  # the newest of its windows, not the one selected
    assert main_window(pad, listed, older) == older  # the selected one when it is the app's
    assert main_window(pad, listed, SAVE_AS) == MAIN  # never a dialog of the app
    assert main_window(pad, [fixture], fixture) is None  # none open: the runner launches it


def test_words_go_to_the_model_only_when_no_code_criteria_cover_the_task():
    asked: list[str] = []

    def ask(system: str, prompt: str, *rest: Any, **kw: Any) -> dict[str, Any]:
        asked.append(prompt)
        return {"done": False, "reason": "the document still shows its * mark"}

    model = SimpleNamespace(ready=True, left=True, ask=ask)
    actor = Actor(state(MAIN, ("Edit", "")), [MAIN])
    (words, dialogs) = check_success(actor, None, "the document is saved", home=MAIN, model=model)  # type: ignore[arg-type]
    assert words.method == "model" and words.ok is False and "* mark" in words.detail and dialogs.ok
    assert "Criteria: the document is saved" in asked[0] and 'window: "note.txt - Mousepad"' in asked[0]
    coded = check_success(actor, Success(title_has="note"), "the document is saved", home=MAIN, model=model)  # type: ignore[arg-type]
    assert [c.method for c in coded] == ["code", "code"] and len(asked) == 1  # code covers it: no call


def test_the_hint_for_an_unexpected_dialog_fits_what_it_asks():
    from winactions.agent.opened import hint_for

    assert "save as" in hint_for("Save As")
    assert "unsaved changes" in hint_for("Save Changes")
    assert "no file" not in hint_for("Save changes to document “x” before closing?")
    assert hint_for("Preferences").startswith("say in the task")


def test_the_planner_is_told_every_success_key_the_checker_takes():
    """One list: a key added to `Success` reaches the model's prompt and the error's hint."""
    from winactions.agent.planner import SYSTEM
    from winactions.agent.success import Success, parse_success

    for key in Success.model_fields:
        assert key in SYSTEM, key
    with pytest.raises(InvalidInput) as refused:
        parse_success({"no_such_key": 1}, where="template t")
    assert all(key in (refused.value.hint or "") for key in Success.model_fields)
