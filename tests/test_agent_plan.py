"""Plan data and app-module routing: what a model or a template may hand the runner."""

from __future__ import annotations

import pytest

from winactions.agent.apps import ModuleRegistry, load_module
from winactions.agent.plan import Action, parse_plan
from winactions.errors import InvalidInput


def test_a_plan_round_trips_as_json_and_levels_follow_the_seed():
    plan = parse_plan(
        {
            "steps": [
                {"action": "press_key", "params": {"keys": "ctrl+s"}},
                {"action": "scroll", "params": {"direction": "down"}},
                {"action": "click", "target_ref": "7"},
                {"action": "tap", "target_ref": "dynamic:the blue send arrow"},
            ]
        }
    )
    assert [s.level for s in plan.steps] == [0, 1, 2, 3]
    assert [s.step for s in plan.steps] == [1, 2, 3, 4]
    assert plan.steps[2].target_ref == "7"  # a bare string stays a name, never id 7
    again = parse_plan(plan.model_dump_json())
    assert again == plan and again.steps[3].action is Action.TAP


@pytest.mark.parametrize(
    ("raw", "says"),
    [
        ("not json at all", "not JSON"),
        ({"steps": [{"action": "teleport"}]}, "step 1.action"),
        ({"steps": [{"action": "click"}]}, "click needs a target_ref"),
        ({"steps": [{"action": "input_text", "params": {}}]}, "params.text"),
        ({"steps": [{"action": "click", "target_ref": "id:seven"}]}, "id: takes a number"),
        ({"steps": [{"action": "scroll", "params": {"direction": "sideways"}}]}, "direction"),
        ({"steps": [{"action": "click", "target_ref": "OK", "colour": "red"}]}, "colour"),
        (42, "JSON object"),
        ({"steps": [{"action": "scroll", "params": {"amount": "lots"}}]}, "wheel notches"),
        ({"steps": [{"action": "wait", "params": {"duration": "long"}}]}, "params.duration"),
        ({"steps": [{"action": "launch_app", "params": {"command": [1, 2]}}]}, "list of strings"),
        ({"steps": "click OK"}, "steps"),
    ],
)
def test_malformed_plans_are_one_clear_error(raw, says):
    with pytest.raises(InvalidInput) as caught:
        parse_plan(raw)
    assert says in caught.value.message


def test_routing_uses_the_seed_score(tmp_path):
    registry = ModuleRegistry.load()
    module, score = registry.route('write "x" in mousepad and save')
    assert module is not None and module.name == "mousepad" and score == 1.0  # 0.5 + 0.4 + 0.1
    assert registry.route("type x and save")[1] == 0.5  # the template alone
    assert registry.route("open the text editor")[1] == 0.4  # a keyword alone
    assert registry.route("open something", foreground="mousepad")[1] == 0.1  # the app in front
    assert registry.route("book a flight") == (None, 0.0)
    plan, template = module.template_plan("type 'a {brace}' and save")
    assert template == "write_and_save" and plan.steps[0].params["text"] == "a {brace}"


def test_a_broken_app_module_names_its_file(tmp_path):
    (tmp_path / "bad").mkdir()
    (tmp_path / "bad" / "tasks.yaml").write_text("tasks:\n  - patterns: ['(']\n    steps: []\n")
    with pytest.raises(InvalidInput, match="not a regular expression"):
        load_module(tmp_path / "bad")
    (tmp_path / "bad" / "tasks.yaml").write_text("tasks:\n  - steps: [{action: click}]\n")
    with pytest.raises(InvalidInput, match="click needs a target_ref"):
        load_module(tmp_path / "bad")
    with pytest.raises(InvalidInput, match="does not exist"):
        ModuleRegistry.load([tmp_path / "missing"])


def test_a_damaged_record_is_a_clear_error(tmp_path):
    from winactions.agent.record import replay_plan

    with pytest.raises(InvalidInput, match="no recorded run"):
        replay_plan(tmp_path)
    (tmp_path / "run.jsonl").write_text('{"event": "plan", "task": "t"}\nnot json\n')
    with pytest.raises(InvalidInput, match="line 2 is not JSON"):
        replay_plan(tmp_path)
    (tmp_path / "run.jsonl").write_text('{"event": "step", "status": "success", "step": 3}\n')
    with pytest.raises(InvalidInput, match="damaged"):
        replay_plan(tmp_path)
    (tmp_path / "run.jsonl").write_text('{"event": "step", "status": "failed", "step": {}}\n')
    with pytest.raises(InvalidInput, match="no successful step"):
        replay_plan(tmp_path)
