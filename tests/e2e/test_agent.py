"""The task runner on a real app nobody here wrote (Mousepad, GTK 3), through the Python API.

Outcomes are read from the app's side: the file Mousepad saved, and its windows as wmctrl
sees them. The model is the only thing replaced: a local server speaking the real Anthropic
and OpenAI formats replays scripted plans (tests/fixtures/llm_server.py), and counts calls.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import wait_for_window, window_gone
from tests.e2e.helpers.editor import Editor
from tests.fixtures.llm_server import API_KEY, LLMServer
from winactions.agent import RunOptions, TaskRunner, TaskStatus
from winactions.commands.results import RunResult
from winactions.llm.config import LLMFlags

pytestmark = pytest.mark.desktop


@pytest.fixture
def server() -> Iterator[LLMServer]:
    with LLMServer() as s:
        yield s


def flags(server: LLMServer, provider: str = "openai") -> LLMFlags:
    url = server.openai_url if provider == "openai" else server.anthropic_url
    return LLMFlags(provider=provider, base_url=url, api_key=API_KEY, model="scripted")


def plan(*steps: dict, success: dict | None = None) -> str:
    body = {"analysis": {"note": "scripted"}, "steps": list(steps), **({"success": success} if success else {})}
    return "Here is the plan:\n```json\n" + json.dumps(body) + "\n```"


def saved_as(doc: Path, text: str) -> dict:
    """Success criteria a model's plan carries: the file holds the text, written by this run."""
    return {"file": str(doc), "file_equals": text, "file_saved": True}


def test_template_task_costs_no_model_call(desktop, tmp_path, server):
    with Editor(desktop, tmp_path) as app:
        runner = TaskRunner(app.desktop, RunOptions(llm=flags(server)))
        result = runner.run('write "hello from a template" in mousepad and save')
        assert result.status is TaskStatus.SUCCESS, result.error
        assert (result.plan_source, result.module, result.template) == ("template", "mousepad", "write_and_save")
        assert result.route_score == 1.0  # template 0.5 + keyword 0.4 + process 0.1
        assert app.saved("hello from a template") == "hello from a template"
        assert result.model["calls"] == 0 and server.requests == []
        edit = result.step_results[0]
        assert edit.verify is not None and edit.verify.verified and edit.verify.method == "code"


@pytest.mark.parametrize("provider", ["openai", "anthropic"])
def test_model_planned_task_through_the_command_table(desktop, tmp_path, server, provider):
    server.reply(
        plan(
            {
                "action": "input_text",
                "target_type": "Edit",
                "params": {"text": "planned by a model"},
                "expect": {"value": "planned by a model"},
            },
            {"action": "press_key", "params": {"keys": "ctrl+s"}},
            success=saved_as(tmp_path / "doc.txt", "planned by a model"),
        )
    )
    url = server.openai_url if provider == "openai" else server.anthropic_url
    model_env = {
        "WINCTL_LLM_PROVIDER": provider,
        "WINCTL_VISION_BASE_URL": url,
        "WINCTL_VISION_API_KEY": API_KEY,
        "WINCTL_VISION_MODEL": "scripted",
    }
    with Editor(desktop, tmp_path, "old text", **model_env) as app:
        result = app.desktop.call(
            "run", task="put 'planned by a model' into the document and keep it", max_model_calls=3
        )
        assert isinstance(result, RunResult)
        run = result.run
        assert run.status is TaskStatus.SUCCESS, run.error
        assert [c.ok for c in run.checks] == [True, True, True, True] and run.checks[0].method == "code"
        assert run.plan_source == "model" and run.model["calls"] == 1
        assert app.saved("planned by a model") == "planned by a model"
    (request,) = server.requests
    assert request.api == provider
    assert 'Menu "File"' in request.prompt and "(focused)" in request.prompt  # the compact state went to the model
    assert request.images == 0  # the tree said enough: no screenshot


def test_missing_element_runs_fallback_then_replan(desktop, tmp_path, server):
    """A model proposes a button that does not exist: the fallback (Escape) runs three times,
    the step fails, the runner replans with the reason, and the new plan does the task."""
    server.reply(
        plan(
            {
                "action": "click",
                "target_ref": "Frobnicate",
                "target_type": "Button",
                "fallback": {"action": "press_key", "params": {"keys": "Escape"}},
            },
            {"action": "press_key", "params": {"keys": "ctrl+s"}},
            success=saved_as(tmp_path / "doc.txt", "after replan"),
        )
    )
    server.reply(
        plan(
            {"action": "input_text", "target_type": "Edit", "params": {"text": "after replan"}},
            {"action": "press_key", "params": {"keys": "ctrl+s"}},
        )
    )
    with Editor(desktop, tmp_path) as app:
        runner = TaskRunner(app.desktop, RunOptions(llm=flags(server), pixels=False))
        result = runner.run("write after replan into the file")
        assert result.status is TaskStatus.SUCCESS, result.error
        assert result.replans == 1 and result.model["calls"] == 2
        failed = result.step_results[0]
        assert failed.status.value == "failed" and failed.fallbacks == 3 and "Frobnicate" in failed.error
        assert app.saved("after replan") == "after replan"
    assert "Frobnicate" in server.requests[1].prompt and "Steps already done" in server.requests[1].prompt


def test_modal_dialog_mid_task_is_dismissed(desktop, tmp_path, server):
    """A dialog comes up between steps (the Open File chooser): the next step's target is
    gone, the blocker is found in the tree, its Cancel pressed by the rule table, and the
    task goes on — with the dismissal recorded."""
    steps = {
        "steps": [
            {
                "action": "press_key",
                "params": {"keys": "ctrl+o"},
                "wait_after": 1500,
                "expect": {"window_changed": True},
            },
            {
                "action": "input_text",
                "target_type": "Edit",
                "params": {"text": "past the dialog"},
                "expect": {"value": "past the dialog"},
            },
            {"action": "press_key", "params": {"keys": "ctrl+s"}},
        ],
        "success": saved_as(tmp_path / "doc.txt", "past the dialog"),
    }
    from winactions.agent import parse_plan

    with Editor(desktop, tmp_path) as app:
        runner = TaskRunner(app.desktop, RunOptions(llm=flags(server), pixels=False))
        result = runner.run("a task whose second step meets a dialog", parse_plan(steps))
        assert result.status is TaskStatus.SUCCESS, result.error
        (dismissal,) = result.step_results[1].dismissals
        assert dismissal["method"] == "rule: Cancel" and dismissal["cleared"]
        assert window_gone(desktop, "Open File")
        assert app.saved("past the dialog") == "past the dialog"
        assert server.requests == []


def test_garbage_and_looping_models_fail_clearly(desktop, tmp_path, server):
    server.reply("I am sorry, I cannot plan that.")
    with Editor(desktop, tmp_path, "untouched") as app:
        runner = TaskRunner(app.desktop, RunOptions(llm=flags(server)))
        result = runner.run("do something no template knows")
        assert result.status is TaskStatus.FAILED and "without usable JSON" in result.error
        # a model that keeps proposing a step that cannot work: replans are capped
        bad = plan({"action": "click", "target_ref": "Nowhere"})
        for _ in range(3):  # the plan and two replans
            server.reply(bad)
        runner = TaskRunner(app.desktop, RunOptions(llm=flags(server), pixels=False, max_replans=2))
        result = runner.run("click nowhere")
        assert result.status is TaskStatus.FAILED and "after 2 replans" in result.error
        assert result.model["calls"] == 3
        # a plan that is JSON but not a plan: sent back once, then a clear error
        server.reply(plan({"action": "teleport"}))
        server.reply(plan({"action": "click"}))
        result = TaskRunner(app.desktop, RunOptions(llm=flags(server), pixels=False)).run("another unknown task")
        assert result.status is TaskStatus.FAILED and "no valid plan twice" in result.error
        assert app.doc.read_text() == "untouched"


def test_dry_run_acts_on_nothing_and_a_recorded_run_replays(desktop, tmp_path, server):
    task = 'write "recorded text" in mousepad and save'
    with Editor(desktop, tmp_path / "one") as app:
        dry = app.desktop.call("run", task=task, dry_run=True).run
        assert dry.status is TaskStatus.PLANNED
        assert dry.step_results[0].target.startswith("[") and "Edit" in dry.step_results[0].target
        time.sleep(0.5)
        assert app.doc.read_text() == "" and "*" not in app.desktop.state().window.title  # nothing typed
        record = tmp_path / "record"
        done = app.desktop.call("run", task=task, record=str(record)).run
        assert done.status is TaskStatus.SUCCESS and app.saved("recorded text") == "recorded text"
    events = [json.loads(line) for line in (record / "run.jsonl").read_text().splitlines()]
    assert next(e["event"] for e in events) == "plan" and events[-1]["event"] == "result"
    assert (record / "step-1-before.png").exists() and (record / "step-1-after.png").exists()
    with Editor(desktop, tmp_path / "two") as fresh:
        replayed = fresh.desktop.call("replay", run=str(record)).run
        assert replayed.status is TaskStatus.SUCCESS and replayed.plan_source == "replay"
        assert [c.what for c in replayed.checks] == [c.what for c in done.checks]  # the run's criteria, kept
        assert replayed.model["calls"] == 0
        assert fresh.saved("recorded text") == "recorded text"


def test_go_home_and_platform_gaps(desktop, tmp_path, server):
    """go_home presses the app's keys until its home marker shows; open_url of a scheme no app
    here handles fails clearly instead of guessing (xdg-open would hand it to a browser)."""
    from winactions.agent import parse_plan

    with Editor(desktop, tmp_path) as app:
        runner = TaskRunner(app.desktop, RunOptions(pixels=False))
        steps = parse_plan(
            {
                "steps": [
                    {
                        "action": "press_key",
                        "params": {"keys": "ctrl+o"},
                        "wait_after": 1500,
                        "expect": {"title": "Open"},
                    },
                    {"action": "go_home"},
                    {"action": "open_url", "params": {"url": "no-such-scheme:page"}},
                ]
            }
        )
        result = runner.run("open the chooser, go home in mousepad, then open a page", steps)
        assert [s.status.value for s in result.step_results] == ["success", "success", "failed"]
        assert "no app here opens no-such-scheme: URLs" in result.step_results[2].error
        assert result.status is TaskStatus.FAILED
        wait_for_window(desktop, "doc.txt")
        assert window_gone(desktop, "Open File")


def test_target_scrolled_out_of_view_is_found_by_the_fallback(desktop, tmp_path, server):
    """The file chooser lists 60 files; the one the plan names is below the fold, absent from
    the tree until the list scrolls: the step's scroll fallback brings it into view and the
    file is opened (the window's title, read by wmctrl, says so)."""
    for n in range(60):
        (tmp_path / f"note-{n:02d}.txt").write_text(f"note {n}\n")
    server.reply(
        plan(
            {
                "action": "press_key",
                "params": {"keys": "ctrl+o"},
                "wait_after": 1500,
                "expect": {"window_changed": True},
            },
            {
                "action": "click",
                "target_ref": "note-57.txt",
                "target_type": "DataItem",
                "fallback": {"action": "scroll", "params": {"direction": "down", "amount": 10}},
            },
            {
                "action": "press_key",
                "params": {"keys": "Enter"},
                "wait_after": 1000,
                "expect": {"title": "note-57.txt", "disappears": "Files"},
            },
            success={"title_has": "note-57.txt"},
        )
    )
    with Editor(desktop, tmp_path) as app:
        runner = TaskRunner(app.desktop, RunOptions(llm=flags(server), pixels=False))
        result = runner.run("open note 57")
        assert result.status is TaskStatus.SUCCESS, result.error
        click, enter = result.step_results[1:]
        assert 1 <= click.fallbacks <= 3 and "note-57.txt" in click.target
        assert enter.verify is not None and enter.verify.verified and enter.verify.method == "code"
        wait_for_window(desktop, "note-57.txt")
        assert result.model["calls"] == 1


def test_unexpected_screen_triggers_a_replan(desktop, tmp_path, server):
    """A click lands somewhere the plan did not expect (a menu opens, the awaited item is not
    in it): the code check fails, the runner replans from what is on screen now."""
    server.reply(
        plan(
            {"action": "click", "target_ref": "Help", "target_type": "Menu", "expect": {"appears": "Word Wrap"}},
            {"action": "press_key", "params": {"keys": "ctrl+s"}},
            success=saved_as(tmp_path / "doc.txt", "replanned"),
        )
    )
    server.reply(
        plan(
            {"action": "press_key", "params": {"keys": "Escape"}},
            {"action": "input_text", "target_type": "Edit", "params": {"text": "replanned"}},
            {"action": "press_key", "params": {"keys": "ctrl+s"}},
        )
    )
    with Editor(desktop, tmp_path) as app:
        result = TaskRunner(app.desktop, RunOptions(llm=flags(server), pixels=False)).run("write replanned")
        assert result.status is TaskStatus.SUCCESS, result.error
        first = result.step_results[0]
        assert first.verify is not None and not first.verify.verified and first.verify.screen_changed
        assert "'Word Wrap' did not appear" in first.error and result.replans == 1
        assert app.saved("replanned") == "replanned"
    assert "Word Wrap" in server.requests[1].prompt and 'MenuItem "About"' in server.requests[1].prompt


def test_the_same_action_on_an_unchanged_screen_is_a_loop(desktop, tmp_path):
    from winactions.agent import parse_plan

    same = {"action": "input_text", "target_type": "Edit", "params": {"text": "again"}}
    with Editor(desktop, tmp_path) as app:
        result = TaskRunner(app.desktop, RunOptions(pixels=False)).run("loop", parse_plan({"steps": [same] * 5}))
        assert result.status is TaskStatus.FAILED
        assert [s.status.value for s in result.step_results] == ["success", "success", "success", "failed"]
        assert "3 times: a loop" in result.error and "no model to replan with" in result.error


def test_cli_run_prints_steps_and_fails_with_an_exit_code(desktop, tmp_path):
    from tests.conftest import run_in_process

    with Editor(desktop, tmp_path) as app:
        dry = run_in_process(["run", "--dry-run", 'write "cli" in mousepad and save'], app.env)
        assert dry.code == 0, dry.err
        assert "planned: " in dry.out and "plan by template (mousepad/write_and_save)" in dry.out
        assert "1. input_text [" in dry.out and "run: plan (template: write_and_save): 2 steps" in dry.err
        bad = run_in_process(
            [
                "--json",
                "run",
                "--no-pixels",
                "--plan",
                '{"steps": [{"action": "click", "target_ref": "Nowhere"}]}',
                "click nowhere",
            ],
            app.env,
        )
        assert bad.code == 4
        body = json.loads(bad.out)
        assert body["ok"] is False and body["error"]["code"] == "action_failed"
        assert body["result"]["run"]["step_results"][0]["status"] == "failed"
        assert app.doc.read_text() == ""


def test_a_condition_in_words_is_the_only_check_that_asks_the_model(desktop, tmp_path, server):
    server.reply(
        plan(
            {
                "action": "input_text",
                "target_type": "Edit",
                "params": {"text": "checked in words"},
                "expect": {"value": "checked in words"},
            },
            {
                "action": "click",
                "target_ref": "Help",
                "target_type": "Menu",
                "success_condition": "the Help menu is open",
            },
            {"action": "press_key", "params": {"keys": "Escape ctrl+s"}},
            success=saved_as(tmp_path / "doc.txt", "checked in words"),
        )
    )
    server.reply('{"verified": true, "confidence": 0.9, "reason": "the menu shows About", "suggestion": "continue"}')
    with Editor(desktop, tmp_path) as app:
        result = TaskRunner(app.desktop, RunOptions(llm=flags(server), pixels=False)).run("check in words")
        assert result.status is TaskStatus.SUCCESS, result.error
        typed, opened, _ = result.step_results
        assert typed.verify is not None and typed.verify.method == "code" and typed.model_calls == 0
        assert opened.verify is not None and opened.verify.method == "model" and opened.verify.confidence == 0.9
        assert opened.level == 3 and opened.model_calls == 1 and result.model["calls"] == 2
        assert app.saved("checked in words") == "checked in words"
    assert "the Help menu is open" in server.requests[1].prompt and 'MenuItem "About"' in server.requests[1].prompt


def test_a_described_target_is_found_by_the_vision_model(desktop, tmp_path, server):
    """`dynamic:` (level 3): the runner's model sees the window's screenshot and answers a box,
    mapped back to the screen; the click lands on the Help menu, which opens."""
    with Editor(desktop, tmp_path) as app:
        state = app.desktop.state()
        menu = next(t for t in state.targets if t.type == "Menu" and t.name == "Help")
        window = state.window.rect
        assert menu.rect is not None and window is not None
        box = [
            menu.rect.left - window.left,
            menu.rect.top - window.top,
            menu.rect.right - window.left,
            menu.rect.bottom - window.top,
        ]
        server.reply(
            plan({"action": "click", "target_ref": "dynamic:the menu with help topics", "expect": {"appears": "About"}})
        )
        server.reply(json.dumps({"found": True, "box": box, "confidence": 0.9, "label": "Help"}))
        result = TaskRunner(app.desktop, RunOptions(llm=flags(server), pixels=False)).run("open the help menu")
        assert result.status is TaskStatus.UNVERIFIED, result.error  # the plan names no criteria
        assert "the plan names none" in result.error
        (step,) = result.step_results
        assert step.level == 3 and step.model_calls == 1 and step.call["command"] == "click-at"
        assert step.verify is not None and step.verify.method == "code"
        assert result.model["calls"] == 2 and server.requests[1].images == 1
        app.desktop.keys("Escape")


def test_confirm_asks_before_each_step_and_a_refusal_skips_it(desktop, tmp_path):
    asked: list[str] = []

    def confirm(step, target):
        asked.append(f"{step.action.value} {target}")
        return step.action.value != "press_key"  # type, but never save

    with Editor(desktop, tmp_path, "on disk") as app:
        result = TaskRunner(app.desktop, RunOptions(confirm=confirm)).run('write "typed only" in mousepad and save')
        assert result.status is TaskStatus.FAILED  # the save was refused: the document is not saved
        assert "the window title lacks '*': no" in result.error
        assert [s.status.value for s in result.step_results] == ["success", "skipped"]
        assert asked[0].startswith("input_text [") and asked[1].startswith("press_key")
        time.sleep(0.5)
        assert app.doc.read_text() == "on disk"  # the save was refused
        assert app.desktop.get_text(int(asked[0].split("[")[1].split("]")[0])) == "typed only"


def test_an_app_module_image_is_matched_by_its_alias(desktop, tmp_path):
    """A user's app module (it overrides the shipped one by name) carries a crop of the Help
    menu under another name; a step naming the alias finds it by template on the screen."""
    from PIL import Image

    from winactions.agent import parse_plan

    module = tmp_path / "apps" / "mousepad"
    (module / "images").mkdir(parents=True)
    (module / "config.yaml").write_text("name: mousepad\nprocesses: [mousepad]\n")
    (module / "images" / "aliases.yaml").write_text("help_menu: [the help thing]\n")
    with Editor(desktop, tmp_path / "app") as app:
        state = app.desktop.state()
        menu = next(t for t in state.targets if t.type == "Menu" and t.name == "Help")
        assert menu.rect is not None
        with Image.open(app.desktop.screenshot(screen=True).path) as screen:
            screen.crop((menu.rect.left, menu.rect.top, menu.rect.right, menu.rect.bottom)).save(
                module / "images" / "help_menu.png"
            )
        steps = parse_plan(
            {"steps": [{"action": "click", "target_ref": "the help thing", "expect": {"appears": "About"}}]}
        )
        runner = TaskRunner(app.desktop, RunOptions(apps=[str(tmp_path / "apps")]))
        result = runner.run("open help in mousepad", steps)
        assert result.status is TaskStatus.UNVERIFIED, result.error  # no criteria: the step ran, nothing more
        (step,) = result.step_results
        assert "app module image" in step.target and step.call["command"] == "click-at"
        assert result.model["calls"] == 0
        app.desktop.keys("Escape")


def test_the_step_cap_aborts_and_the_model_budget_is_refused(desktop, tmp_path, server):
    from winactions.agent import parse_plan

    keys = {"action": "input_text", "target_type": "Edit", "params": {"text": "x"}}
    with Editor(desktop, tmp_path) as app:
        capped = TaskRunner(app.desktop, RunOptions(max_steps=2, pixels=False)).run(
            "three steps",
            parse_plan({"steps": [keys, {**keys, "params": {"text": "y"}}, {**keys, "params": {"text": "z"}}]}),
        )
        assert capped.status is TaskStatus.ABORTED and "step cap (2)" in capped.error
        assert len(capped.step_results) == 2
        slow = {"action": "wait", "params": {"duration": 700}, "expect": {"changed": False}}
        timed = TaskRunner(app.desktop, RunOptions(timeout=0.5, pixels=False)).run(
            "wait too long", parse_plan({"steps": [slow, slow, slow]})
        )
        assert timed.status is TaskStatus.ABORTED and "time limit (0.5s)" in timed.error
        assert len(timed.step_results) == 1
        broke = TaskRunner(app.desktop, RunOptions(llm=flags(server), max_model_calls=0)).run("no template knows")
        assert broke.status is TaskStatus.FAILED and "budget is spent" in broke.error
        assert server.requests == []


def test_the_run_tool_over_mcp(desktop, tmp_path):
    """The official MCP client calls the `run` tool: the template task saves the file, and a
    failed run comes back as a tool error that still carries its steps."""
    import sys

    import anyio
    from mcp.client.session import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client

    with Editor(desktop, tmp_path) as app:
        params = StdioServerParameters(
            command=str(Path(sys.executable).with_name("winctl")),
            args=["--session", "agent", "mcp", "--tools", "core,tasks", "--structured"],
            env=app.env,
        )

        async def main():
            async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
                await session.initialize()
                done = await session.call_tool("run", {"task": 'write "over mcp" in mousepad and save'})
                failed = await session.call_tool(
                    "run",
                    {
                        "task": "click nowhere",
                        "no_pixels": True,
                        "plan": '[{"action": "click", "target_ref": "Nowhere"}]',
                    },
                )
                return done, failed

        done, failed = anyio.run(main)
        assert not done.is_error and done.content[0].text.startswith("success: ")
        assert app.saved("over mcp") == "over mcp"
        assert failed.is_error and failed.structured_content["ok"] is False
        assert failed.structured_content["result"]["run"]["step_results"][0]["status"] == "failed"


def test_a_dialog_no_rule_knows_is_dismissed_by_the_models_advice_then_by_escape(desktop, tmp_path, server):
    """Past the rule table: the model names the button (one call), and with no model Escape."""
    from winactions.agent.blockers import detect, dismiss
    from winactions.agent.model import Model

    with Editor(desktop, tmp_path) as app:
        home = app.desktop.state().window
        for model, expected in ((Model(flags(server)), "model: Cancel"), (Model(None), "keys: Escape")):
            server.reply('{"button": "Cancel"}')
            app.desktop.keys("ctrl+o")
            wait_for_window(desktop, "Open File")
            time.sleep(0.5)
            blocker = detect(app.desktop.state(), home)
            assert blocker is not None and blocker.dismiss == "Cancel"  # the rule would have pressed it
            outcome = dismiss(app.desktop, blocker.model_copy(update={"dismiss": None}), model, home)
            assert outcome.cleared and outcome.method == expected
            assert window_gone(desktop, "Open File")
        assert len(server.requests) == 1 and "Cancel" in server.requests[0].prompt


def test_a_replanned_plan_says_how_its_success_is_checked(desktop, tmp_path, server):
    """Before: only the first plan's `success` was checked, so criteria that came with a
    replanned plan were ignored and the run ended unverified. Now the newest plan that states
    them is checked, against the file on disk."""
    server.reply(plan({"action": "click", "target_ref": "Frobnicate", "target_type": "Button"}))
    server.reply(
        plan(
            {"action": "input_text", "target_type": "Edit", "params": {"text": "checked later"}},
            {"action": "press_key", "params": {"keys": "ctrl+s"}},
            success=saved_as(tmp_path / "doc.txt", "checked later"),
        )
    )
    with Editor(desktop, tmp_path) as app:
        result = TaskRunner(app.desktop, RunOptions(llm=flags(server), pixels=False)).run("write checked later")
        assert result.status is TaskStatus.SUCCESS, result.error
        assert result.replans == 1 and all(c.ok and c.method == "code" for c in result.checks)
        assert app.saved("checked later") == "checked later"
