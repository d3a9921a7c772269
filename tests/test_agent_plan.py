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


# -- plans in phone agents' shapes (keycodes, points, call) ----------------------------------


def test_a_fallback_in_the_seeds_shape_is_read_and_presses_escape_on_a_desktop():
    """{"action": "press_key", "params": {"keycode": 4}} crashed a run with a ValidationError
    when the runner reached it; it is a plan's ordinary fallback: BACK, a desktop's Escape."""
    from winactions.agent.calls import call_for
    from winactions.agent.resolve import Resolved

    plan = parse_plan(
        [{"action": "tap", "target_ref": "wechat", "fallback": {"action": "press_key", "params": {"keycode": 4}}}]
    )
    fallback = plan.steps[0].fallback
    assert fallback is not None
    step = fallback.as_step(1)
    assert call_for(step, Resolved(None, "", 0), touch=False) == {"command": "keys", "args": {"keys": "Escape"}}
    assert call_for(step, Resolved(None, "", 0), touch=True) == {"command": "keys", "args": {"keys": "keycode_back"}}
    bare = parse_plan([{"action": "tap", "target_ref": "x", "fallback": {"action": "press_key"}}])
    assert bare.steps[0].fallback is not None and bare.steps[0].fallback.params == {
        "keycode": 4
    }  # BACK, as phones mean


@pytest.mark.parametrize(
    ("code", "desktop", "phone"),
    [
        (4, "Escape", "keycode_back"),
        ("66", "Enter", "keycode_enter"),
        ("KEYCODE_DEL", "Backspace", "keycode_del"),
        ("forward_del", "Delete", "keycode_forward_del"),
        (19, "Up", "keycode_dpad_up"),
        (61, "Tab", "keycode_tab"),
        (62, "Space", "keycode_space"),
        (82, "Menu", "keycode_menu"),
        (111, "Escape", "keycode_escape"),
        (122, "Home", "keycode_move_home"),
        (123, "End", "keycode_move_end"),
        (29, "a", "keycode_a"),
        (7, "0", "keycode_0"),
        (131, "F1", "keycode_f1"),
    ],
)
def test_key_codes_as_numbers_and_names_map_to_keys(code, desktop, phone):
    from winactions.agent.calls import key_spec
    from winactions.keys import parse_keys

    assert key_spec({"keycode": code}, touch=False) == desktop
    assert key_spec({"keycode": code}, touch=True) == phone
    parse_keys(desktop)  # a key the desktop's parser knows


def test_every_phone_key_code_is_a_key_the_android_backend_knows():
    from winactions.backends.android.keymap import KEY_NAMES
    from winactions.keys import ANDROID_KEYCODES, parse_keys

    for key in ANDROID_KEYCODES.values():
        assert parse_keys(key.constant.lower(), KEY_NAMES)[0].key == key.constant
        if key.desktop is not None:
            parse_keys(key.desktop)


@pytest.mark.parametrize("code", [5, "POWER", "KEYCODE_HOME", 24, "ENDCALL", "END_CALL"])
def test_a_key_code_a_desktop_lacks_is_unsupported_not_a_crash(code):
    from winactions.agent.calls import key_spec
    from winactions.errors import Unsupported

    with pytest.raises(Unsupported, match="a desktop has no"):
        key_spec({"keycode": code}, touch=False)
    assert key_spec({"keycode": code}, touch=True).startswith("keycode_")


@pytest.mark.parametrize(
    ("raw", "says"),
    [
        ({"action": "press_key", "params": {"keycode": 999}}, "unknown Android key code"),
        ({"action": "press_key", "params": {"keycode": "BAKC"}}, "did you mean BACK"),
        ({"action": "press_key", "params": {}}, "params.keycode"),
        (
            {"action": "tap", "target_ref": "x", "fallback": {"action": "press_key", "params": {"keycode": 0}}},
            "fallback",
        ),
        ({"action": "tap", "target_ref": "x", "fallback": {"action": "input_text"}}, "step 1.fallback"),
        ({"action": "tap", "target_ref": "x", "fallback": {"action": "tap", "target_ref": " "}}, "fallback.target_ref"),
        (
            {"action": "tap", "target_ref": "x", "fallback": {"action": "swipe", "params": {"direction": "in"}}},
            "direction",
        ),
        ({"action": "tap", "params": {"x": 10}}, "params.x and params.y"),
        ({"action": "tap", "target_ref": "OK", "params": {"x": 1, "y": 2}}, "not both"),
        ({"action": "long_press", "params": {"x": 1, "y": 2, "duration": "long"}}, "milliseconds"),
        ({"action": "swipe", "params": {"x1": 1, "y1": 2, "x2": 3}}, "x1, y1, x2 and y2"),
        ({"action": "swipe", "params": {"x1": 1, "y1": 2, "x2": 3, "y2": 4, "direction": "up"}}, "not both"),
        ({"action": "call", "params": {}}, "params.number"),
        ({"action": "call", "params": {"number": "mum"}}, "phone number"),
        ({"action": "open_url", "params": {"url": "example.org"}}, "scheme"),
    ],
)
def test_bad_shapes_are_refused_naming_the_field(raw, says):
    with pytest.raises(InvalidInput) as caught:
        parse_plan([raw])
    assert says in caught.value.message


def test_points_and_milliseconds_become_the_tables_arguments():
    from winactions.agent.calls import call_for
    from winactions.agent.resolve import Resolved

    plan = parse_plan(
        [
            {"action": "tap", "params": {"x": 100, "y": 200}},
            {"action": "long_press", "params": {"x": 5, "y": 6, "duration": 1500}},
            {"action": "swipe", "params": {"x1": 500, "y1": 1500, "x2": 500, "y2": 300, "duration": 400}},
            {"action": "wait", "params": {"duration": 2000}},
            {"action": "launch_app", "params": {"package": "com.android.settings"}},
            {"action": "open_url", "params": {"url": "https://example.org"}},
            {"action": "call", "params": {"number": "+1 555 0100"}},
            {"action": "call", "params": {"number": 5550100}},
        ]
    )
    nowhere = Resolved(None, "", 0)
    calls = [call_for(s, nowhere, touch=True) for s in plan.steps]
    assert calls == [
        {"command": "click-at", "args": {"x": 100, "y": 200}},
        {"command": "long-press", "args": {"x": 5, "y": 6, "duration": 1.5}},
        {"command": "swipe", "args": {"x1": 500, "y1": 1500, "x2": 500, "y2": 300, "duration": 0.4}},
        {"command": "wait", "args": {"seconds": 2.0}},
        {"command": "launch", "args": {"command": ["com.android.settings"]}},
        {"command": "open-url", "args": {"url": "https://example.org"}},
        {"command": "open-url", "args": {"url": "tel:+15550100"}},
        {"command": "open-url", "args": {"url": "tel:5550100"}},
    ]
    assert [s.level for s in plan.steps] == [1, 1, 1, 0, 0, 0, 0, 0]


def test_level0_steps_wait_per_action_unless_the_step_says():
    plan = parse_plan(
        [
            {"action": "launch_app", "params": {"command": "mousepad"}},
            {"action": "open_url", "params": {"url": "https://example.org"}},
            {"action": "press_key", "params": {"keys": "ctrl+s"}},
            {"action": "wait", "params": {"duration": 10}},
            {"action": "call", "params": {"number": "123"}},
            {"action": "open_url", "params": {"url": "https://example.org"}, "wait_after": 0},
            {"action": "press_key", "params": {"keys": "Enter"}, "wait_after": 300},
            {"action": "click", "target_ref": "OK"},
        ]
    )
    assert [s.settle_ms for s in plan.steps] == [500, 2500, 100, 100, 500, 0, 300, 300]
    again = parse_plan(plan.model_dump_json(exclude_unset=True))
    assert [s.settle_ms for s in again.steps] == [500, 2500, 100, 100, 500, 0, 300, 300]


def test_what_a_step_changed_is_a_few_bounded_lines():
    from winactions.agent.changes import MAX_LINES, changes
    from winactions.model import Target, UIState, WindowInfo

    def state(window: str, *targets: Target) -> UIState:
        return UIState(window=WindowInfo(id=window, title=window), targets=list(targets), timestamp="t")

    edit = Target(id=1, type="Edit", name="Text", value="")
    typed = edit.model_copy(update={"value": "hello"})
    ok = Target(id=2, type="Button", name="OK")
    assert changes(state("w", edit), state("w", typed, ok)) == [
        "appeared: Button 'OK'",
        "value of Edit 'Text': '' -> 'hello'",
    ]
    assert changes(state("w", edit), state("w", edit)) == []
    assert changes(state("a", edit), state("b", edit))[0] == "window changed: 'a' -> 'b'"
    many = [Target(id=i, type="Label", name=f"row {i} " + "x" * 200) for i in range(100)]
    lines = changes(state("w"), state("w", *many))
    assert len(lines) == MAX_LINES and lines[-1] == "... and 89 more changes"
    assert max(len(line) for line in lines) < 100


@pytest.mark.parametrize(
    ("url", "says"),
    [
        ("example.org/page", "has no scheme"),
        ("C:\\Users\\a\\page.html", "has no scheme"),
        ("https://example.org/a b", "spaces or control"),
        ("", "1 to"),
        ("file://otherhost/etc/hosts", "another host"),
        ("file:///no/such/file.html", "no file"),
    ],
)
def test_open_url_refuses_bad_urls_before_opening_anything(url, says):
    from winactions.commands.urls import check_url
    from winactions.errors import WinctlError

    with pytest.raises(WinctlError) as caught:
        check_url(url, local=True)
    assert says in caught.value.message


def test_open_url_takes_urls_with_their_scheme(tmp_path):
    from winactions.commands.urls import check_url

    page = tmp_path / "a page.html"
    page.write_text("x")
    for url in ("https://example.org/?a=1&b=2", "mailto:a@example.org", "tel:+15550100", page.as_uri()):
        assert check_url(f"  {url} ", local=True) == url
    assert check_url("file:///sdcard/x.html", local=False) == "file:///sdcard/x.html"  # the phone's files


def test_the_phone_agents_example_plan_and_its_fallback_table_are_read_as_written():
    """The example plan of the runner's design (a phone agent's, in its own words) and the four
    fallbacks of its table, unchanged."""
    import json
    from pathlib import Path

    example = Path(__file__).parent / "fixtures" / "plans" / "phone_agent_example.json"
    plan = parse_plan(json.loads(example.read_text(encoding="utf-8")))
    assert [s.action.value for s in plan.steps] == ["tap", "tap", "input_text", "tap", "input_text", "tap"]
    assert [s.level for s in plan.steps] == [2, 2, 0, 3, 3, 3]
    fallbacks = [
        {"action": "swipe", "params": {"direction": "left"}},
        {"action": "swipe", "params": {"direction": "up"}},
        {"action": "press_key", "params": {"keycode": 4}},
        {"action": "wait", "params": {"duration": 2000}},
    ]
    read = parse_plan([{"action": "tap", "target_ref": "wechat", "fallback": f} for f in fallbacks])
    assert [s.fallback.model_dump(exclude={"description"}) for s in read.steps if s.fallback] == [
        {"target_ref": None, **f} for f in fallbacks
    ]


def test_a_quoted_text_is_read_whole_and_a_longer_sentence_is_not_a_template():
    """Mousepad's templates once read `type 'Minutes of Monday' into the empty document and
    save it as …` as the text "Minutes of Monday' into the empty document": a quote now
    closes the text, and a task that says more than the template knows goes to the planner."""
    from winactions.agent.apps import ModuleRegistry

    mousepad = ModuleRegistry.load().get("mousepad")
    assert mousepad is not None
    said = {
        'write "don\'t panic" in mousepad and save as "/tmp/x y.txt"': {"text": "don't panic", "path": "/tmp/x y.txt"},
        "type 'a \"b\"' and save it as ~/n.txt": {"text": 'a "b"', "path": "~/n.txt"},
        "write hello world and save": {"text": "hello world"},
    }
    for task, parameters in said.items():
        found = mousepad.template_plan(task)
        assert found is not None and found[0].analysis["parameters"] == parameters, task
    assert (
        mousepad.template_plan(
            "In Mousepad, type 'Minutes of Monday' into the empty document and save it as "
            "/w/reports/2026/minutes.txt; the folder 2026 does not exist yet."
        )
        is None
    )


def test_an_outcome_checked_by_code_is_looked_at_again_until_its_time():
    """A Save click read 300 ms after the act saw the closing Save As and failed the step
    (3 runs in 5); the outcome is now looked at again, never acted again, for a while."""
    import time

    from winactions.agent.policy import settle
    from winactions.agent.verify import VerifyResult

    looks = iter([False, False, True])
    soon = time.monotonic() + 5
    verdict = settle(VerifyResult(verified=False), lambda: VerifyResult(verified=next(looks)), until=soon, blocked=bool)
    assert verdict.verified and next(looks, None) is None
    now = time.monotonic()
    assert not settle(
        VerifyResult(verified=False), lambda: VerifyResult(verified=False), until=now, blocked=bool
    ).verified
    calls: list[int] = []
    blocked = settle(
        VerifyResult(verified=False),
        lambda: calls.append(1) or VerifyResult(verified=True),
        until=soon,
        blocked=lambda: True,
    )
    assert not blocked.verified and calls == []  # a dialog in the way: the blockers' work, at once
