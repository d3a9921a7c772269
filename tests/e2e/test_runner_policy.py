"""The runner's desktop rows, on real windows: a loading screen waited out, an in-window ad
skipped by its own button, a popup menu left open closed with Escape (tests/fixtures/
in_the_way.py, whose log says which widget was really pressed); and on Mousepad, a dialog
dismissed without losing work, an app module's `handler.py` planning the task, a broken
handler named, and the planner told the module's reference images (the scripted model
server records what it was sent)."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import environment, start_app, stop_app
from tests.fixtures.applog import AppLog
from tests.fixtures.launch import in_the_way_command
from tests.fixtures.llm_server import API_KEY, LLMServer
from tests.fixtures.toolkit_apps import isolated_env, mousepad_command
from winactions.agent import RunOptions, TaskRunner, TaskStatus, parse_plan
from winactions.api import Desktop
from winactions.errors import InvalidInput
from winactions.llm.config import LLMFlags

pytestmark = pytest.mark.desktop
TITLE = "In The Way"


@contextlib.contextmanager
def session(desk, folder: Path, **env: str) -> Iterator[Desktop]:
    (folder / "rt").mkdir(mode=0o700, exist_ok=True)
    with environment({**desk.env, "XDG_RUNTIME_DIR": str(folder / "rt"), **env}):
        desktop = Desktop("policy")
        try:
            yield desktop
        finally:
            desktop.close()


@pytest.fixture
def way(desktop, tmp_path) -> Iterator[tuple[Desktop, AppLog]]:
    log = tmp_path / "events.jsonl"
    proc = start_app(desktop, in_the_way_command(str(log), TITLE, loading=4), TITLE)
    try:
        with session(desktop, tmp_path) as front:
            front.call("focus", window=TITLE)
            yield front, AppLog(str(log))
    finally:
        stop_app(proc)


def pressed(log: AppLog) -> list[str]:
    return [e["widget"] for e in log.events("clicked")]


def run(front: Desktop, steps: list[dict], **options: object):
    runner = TaskRunner(front, RunOptions(pixels=False, max_replans=0, **options))  # type: ignore[arg-type]
    return runner.run("a task in the way", parse_plan({"steps": steps}))


def ran_unchecked(result) -> bool:
    """Every step done, and the task honestly unverified: these plans name no criteria (what
    the app did is read from its own log by each test)."""
    done = all(r.status.value in ("success", "skipped") for r in result.step_results)
    return done and result.status is TaskStatus.UNVERIFIED and "the plan names none" in result.error


def test_a_loading_screen_is_waited_out_not_dismissed(way):
    front, log = way
    result = run(front, [{"action": "click", "target_ref": "Load"}, {"action": "click", "target_ref": "Done"}])
    assert ran_unchecked(result), result.error
    assert pressed(log) == ["load", "done"] and log.events("loaded")  # nothing pressed while it loaded
    (dismissal,) = result.step_results[1].dismissals
    assert dismissal["blocker"]["type"] == "loading" and dismissal["method"].startswith("waited ")
    assert dismissal["cleared"]


def test_an_ad_over_the_target_is_closed_by_its_skip_button(way):
    front, log = way
    result = run(front, [{"action": "click", "target_ref": "Show ad"}, {"action": "click", "target_ref": "Target"}])
    assert ran_unchecked(result), result.error
    assert pressed(log) == ["show_ad", "skip_ad", "target"]  # never "Install now"
    (dismissal,) = result.step_results[1].dismissals
    assert dismissal["blocker"]["type"] == "ad" and dismissal["method"] == "rule: Skip ad"


def test_a_popup_menu_left_open_is_closed_with_escape(way):
    front, log = way
    steps = [
        {"action": "click", "target_ref": "Note"},
        {"action": "click", "target_ref": "Open menu", "wait_after": 800},
        {"action": "input_text", "params": {"text": "typed"}, "expect": {"contains": {"Note": "typed"}}},
    ]
    result = run(front, steps)
    assert ran_unchecked(result), result.error
    notes = [e["text"] for e in log.events("note")]
    assert notes and notes[-1] == "typed" and not log.events("menu")  # no menu item was chosen
    assert any(d["blocker"]["type"] == "popup" and d["cleared"] for d in result.step_results[2].dismissals)


def test_a_click_that_changed_nothing_tries_the_painted_text_next(way):
    """The tree's "Submit" is a caption that does nothing; the next candidate is the text
    "Submit" painted on a canvas, found by OCR and clicked at its point."""
    front, log = way
    step = {"action": "click", "target_ref": "Submit", "expect": {"appears": "Submitted"}, "retry": 0}
    runner = TaskRunner(front, RunOptions(pixels=True, max_replans=0))
    result = runner.run("a task in the way", parse_plan({"steps": [step], "success": {"appears": "Submitted"}}))
    assert result.status is TaskStatus.SUCCESS, result.error
    assert pressed(log) == ["painted_submit"]  # the caption first (no effect), then the canvas
    assert "next candidate: painted text" in result.step_results[0].target


# -- Mousepad --------------------------------------------------------------------------------------


@pytest.fixture
def server() -> Iterator[LLMServer]:
    with LLMServer() as s:
        yield s


def flags(server: LLMServer) -> LLMFlags:
    return LLMFlags(provider="openai", base_url=server.openai_url, api_key=API_KEY, model="scripted")


@contextlib.contextmanager
def mousepad(desk, folder: Path, text: str) -> Iterator[tuple[Desktop, Path]]:
    folder.mkdir(parents=True, exist_ok=True)
    doc = folder / "doc.txt"
    doc.write_text(text)
    with session(desk, folder, **isolated_env(folder / "home")) as front:
        launched = front.call("launch", command=mousepad_command(doc), title="doc.txt")
        group = int(launched.detail.split()[-1])
        try:
            deadline = time.monotonic() + 20
            while time.monotonic() < deadline and not any(t.type == "Edit" for t in front.state().targets):
                time.sleep(0.2)
            yield front, doc
        finally:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(group, signal.SIGKILL)


def user_module(folder: Path, handler: str = "", **config: object) -> Path:
    """A user's app module for Mousepad (it wins over the shipped one by name)."""
    module = folder / "mousepad"
    module.mkdir(parents=True)
    base = {"name": "mousepad", "processes": ["mousepad"], "keywords": ["mousepad"], **config}
    (module / "config.yaml").write_text(json.dumps(base))
    if handler:
        (module / "handler.py").write_text(handler)
    return folder


def saved(doc: Path, expected: str, timeout: float = 5.0) -> str:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and doc.read_text() != expected:
        time.sleep(0.1)
    return doc.read_text()


def test_a_dialog_is_never_dismissed_by_a_button_that_loses_work(desktop, tmp_path):
    """The module lists "Don't Save" as its dismiss button (as the shipped one did): closing
    the edited document brings Mousepad's "Save changes?" dialog; the runner presses Cancel,
    the text survives and is saved by the next steps."""
    apps = user_module(tmp_path / "apps", blockers=["Don't Save", "Cancel"])
    with mousepad(desktop, tmp_path / "m", "old text") as (front, doc):
        steps = [
            {"action": "input_text", "target_type": "Edit", "params": {"text": "kept"}, "expect": {"value": "kept"}},
            # the plan knows ctrl+w asks about the changes: the next step meets that dialog as a blocker
            {
                "action": "press_key",
                "params": {"keys": "ctrl+w"},
                "wait_after": 1500,
                "expect": {"window_changed": True},
            },
            {"action": "input_text", "target_type": "Edit", "params": {"text": "kept, saved"}},
            {"action": "press_key", "params": {"keys": "ctrl+s"}},
        ]
        result = TaskRunner(front, RunOptions(pixels=False, max_replans=0, apps=[str(apps)])).run(
            "mousepad task", parse_plan({"steps": steps, "success": {"title_lacks": "*"}})
        )
        assert result.status is TaskStatus.SUCCESS, result.error
        (dismissal,) = result.step_results[2].dismissals
        assert dismissal["method"] == "rule: Cancel" and dismissal["cleared"]
        assert saved(doc, "kept, saved") == "kept, saved"


HANDLER = """
def plan(task, state):
    if not task.startswith("stamp "):
        return None
    text = task.removeprefix("stamp ")
    edit = next(t for t in state.targets if t.type == "Edit")
    return {"steps": [
        {"action": "input_text", "target_ref": f"id:{edit.id}", "params": {"text": text}, "expect": {"value": text}},
        {"action": "press_key", "params": {"keys": "ctrl+s"}},
    ], "success": {"title_lacks": "*", "element": {"type": "Edit", "equals": text}}}
"""


def test_a_module_handler_plans_before_templates_and_the_model(desktop, tmp_path, server):
    apps = user_module(tmp_path / "apps", HANDLER)
    with mousepad(desktop, tmp_path / "m", "") as (front, doc):
        result = TaskRunner(front, RunOptions(pixels=False, llm=flags(server), apps=[str(apps)])).run(
            "stamp from the handler"
        )
        assert result.status is TaskStatus.SUCCESS, result.error
        assert (result.plan_source, result.template) == ("template", "handler.plan")
        assert saved(doc, "from the handler") == "from the handler"
        assert server.requests == []  # no model call


def test_a_broken_handler_is_an_error_naming_its_file(desktop, tmp_path):
    apps = user_module(tmp_path / "apps", "def plan(task, state):\n    return {\n")
    with mousepad(desktop, tmp_path / "m", "untouched") as (front, doc):
        result = TaskRunner(front, RunOptions(pixels=False, apps=[str(apps)])).run("stamp x in mousepad")
        assert result.status is TaskStatus.FAILED
        assert str(apps / "mousepad" / "handler.py") in result.error and "SyntaxError" in result.error
        (apps / "mousepad" / "handler.py").write_text("def plan(task, state):\n    return 1 / 0\n")
        result = TaskRunner(front, RunOptions(pixels=False, apps=[str(apps)])).run("stamp x in mousepad")
        assert "handler.py: plan() failed: ZeroDivisionError at line 2" in result.error
        assert doc.read_text() == "untouched"
    with pytest.raises(InvalidInput, match="not a function"):
        from winactions.agent.apps import load_module

        (apps / "mousepad" / "handler.py").write_text("blocker = 3\n")
        load_module(apps / "mousepad").hook("blocker")


def test_a_modules_blocker_hook_comes_first_and_its_buttons_dismiss(way, tmp_path):
    """The module's `blocker(state)` names the ad a promotion (it knows its app); the way out is
    the module's own button."""
    front, log = way
    module = tmp_path / "apps" / "intheway"
    module.mkdir(parents=True)
    config = {"name": "intheway", "keywords": ["in the way"], "blockers": ["Skip ad"]}
    (module / "config.yaml").write_text(json.dumps(config))
    (module / "handler.py").write_text(
        "def blocker(state):\n"
        "    return 'a promotion' if any(t.name == 'Install now' for t in state.targets) else None\n"
    )
    result = run(
        front,
        [{"action": "click", "target_ref": "Show ad"}, {"action": "click", "target_ref": "Target"}],
        apps=[str(tmp_path / "apps")],
    )
    assert ran_unchecked(result), result.error
    assert result.module == "intheway" and pressed(log) == ["show_ad", "skip_ad", "target"]
    (dismissal,) = result.step_results[1].dismissals
    assert dismissal["blocker"] == {"type": "app", "description": "a promotion", "dismiss": "Skip ad", "how": "click"}


def test_the_planner_is_told_the_modules_reference_images(desktop, tmp_path, server):
    apps = user_module(tmp_path / "apps")
    images = apps / "mousepad" / "images"
    images.mkdir()
    for name in ("save_icon.png", "save_icon_v2.png", "tab_close@2x.png"):
        (images / name).write_bytes(b"")
    (images / "aliases.yaml").write_text("save_icon: [Save, 保存]\n")
    server.reply(json.dumps({"steps": [{"action": "press_key", "params": {"keys": "End"}}]}))
    with mousepad(desktop, tmp_path / "m", "") as (front, _doc):
        result = TaskRunner(front, RunOptions(pixels=False, llm=flags(server), apps=[str(apps)])).run(
            "in mousepad, do something no template knows"
        )
        assert ran_unchecked(result), result.error
    (request,) = server.requests
    assert "image:save_icon (also by name: 'Save', '保存')" in request.prompt
    assert "image:tab_close" in request.prompt and "save_icon_v2" not in request.prompt
