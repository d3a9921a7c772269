"""The computer-use set's tools (`winctl mcp --tools computer-use`) and Anthropic's `computer` tool:
every translation onto a command, checked as a function and against the command's own
parameters; the errors for arguments the tools do not take; which tools a backend serves.
The same tools on a real desktop: tests/e2e/test_mcp_computer_use.py."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from winactions.backends.base import Capability
from winactions.commands.base import load_commands, validate
from winactions.errors import InvalidInput, WinctlError
from winactions.mcp import profiles
from winactions.mcp.computer import ACTIONS, COMPUTER
from winactions.mcp.computer_use import COMPUTER_USE
from winactions.mcp.translated import Call

ROOT = Path(__file__).resolve().parents[1]

# the 38 tools of the computer-use set, by the names it gives them
GENERAL = (
    "request_access list_granted_applications screenshot zoom switch_display left_click double_click "
    "triple_click right_click middle_click mouse_move left_click_drag left_mouse_down left_mouse_up "
    "cursor_position type key hold_key scroll open_application read_clipboard write_clipboard wait computer_batch"
).split()
WINDOWS_ONLY = (
    "bind_window window_management virtual_mouse virtual_keyboard mouse_wheel click_element "
    "type_into_element open_terminal activate_window prompt_respond status_indicator"
).split()
TEACH = ["request_teach_access", "teach_step", "teach_batch"]

XY = [120, 340]
# (tool, arguments, the call they become)
CASES: list[tuple[str, dict[str, Any], Call]] = [
    (
        "request_access",
        {"apps": ["mousepad", "gedit"], "reason": "edit notes", "clipboardRead": True, "systemKeyCombos": True},
        Call(
            "request-access",
            (["mousepad", "gedit"],),
            {"reason": "edit notes", "clipboard_read": True, "system_keys": True},
        ),
    ),
    ("request_access", {"apps": ["mousepad"]}, Call("request-access", (["mousepad"],), {"reason": None})),
    ("list_granted_applications", {}, Call("grants")),
    ("screenshot", {}, Call("screenshot", options={"screen": True})),
    ("screenshot", {"save_to_disk": True}, Call("screenshot", options={"screen": True})),
    ("zoom", {"region": [10, 20, 110, 70]}, Call("zoom", (10, 20, 100, 50))),
    ("switch_display", {"display": 1}, Call("switch-display", ("1",))),
    ("switch_display", {"display": "all"}, Call("switch-display", ("all",))),
    ("left_click", {"coordinate": XY}, Call("click-at", (120, 340), {"button": "left", "count": 1, "modifiers": None})),
    (
        "left_click",
        {"coordinate": XY, "text": "shift"},
        Call("click-at", (120, 340), {"button": "left", "count": 1, "modifiers": "shift"}),
    ),
    (
        "left_click",
        {"coordinate": XY, "text": "Control+Shift"},
        Call("click-at", (120, 340), {"button": "left", "count": 1, "modifiers": "ctrl,shift"}),
    ),
    (
        "double_click",
        {"coordinate": XY},
        Call("click-at", (120, 340), {"button": "left", "count": 2, "modifiers": None}),
    ),
    (
        "triple_click",
        {"coordinate": XY, "text": "alt"},
        Call("click-at", (120, 340), {"button": "left", "count": 3, "modifiers": "alt"}),
    ),
    (
        "right_click",
        {"coordinate": XY},
        Call("click-at", (120, 340), {"button": "right", "count": 1, "modifiers": None}),
    ),
    (
        "middle_click",
        {"coordinate": XY, "text": "super"},
        Call("click-at", (120, 340), {"button": "middle", "count": 1, "modifiers": "super"}),
    ),
    ("mouse_move", {"coordinate": XY}, Call("mouse-move", (120, 340))),
    (
        "left_click_drag",
        {"start_coordinate": [1, 2], "coordinate": [30, 40]},
        Call("drag-at", (1, 2, 30, 40)),
    ),
    ("left_mouse_down", {}, Call("mouse-down")),
    ("left_mouse_up", {}, Call("mouse-up")),
    ("cursor_position", {}, Call("cursor")),
    ("type", {"text": "héllo wörld"}, Call("type", ("héllo wörld",))),
    ("key", {"text": "ctrl+s"}, Call("keys", ("ctrl+s",))),
    ("key", {"text": "Return"}, Call("keys", ("Return",))),
    ("key", {"text": "shift+Page_Down ctrl+a", "repeat": 1}, Call("keys", ("shift+PageDown ctrl+a",))),
    ("key", {"text": "Down", "repeat": 4}, Call("press", ("Down", 4))),
    ("hold_key", {"text": "shift", "duration": 0.5}, Call("hold-key", ("shift", 0.5))),
    (
        "scroll",
        {"coordinate": XY, "scroll_direction": "down", "scroll_amount": 5},
        Call("scroll-at", (120, 340, "down", 5)),
    ),
    ("open_application", {"app": "mousepad"}, Call("launch", (["mousepad"],))),
    (
        "open_application",
        {"app": "mousepad --disable-server '/tmp/a b.txt'"},
        Call("launch", (["mousepad", "--disable-server", "/tmp/a b.txt"],)),
    ),
    ("read_clipboard", {}, Call("clipboard")),
    ("write_clipboard", {"text": "copied"}, Call("clipboard", ("copied",))),
    ("wait", {"duration": 1.5}, Call("wait", (1.5,))),
    (
        "computer_batch",
        {"actions": [{"action": "left_click", "coordinate": XY}, {"action": "key", "text": "ctrl+s"}]},
        Call(
            "batch",
            (
                [
                    {"command": "click-at", "args": {"x": 120, "y": 340, "button": "left", "count": 1}},
                    {"command": "keys", "args": {"keys": "ctrl+s"}},
                ],
            ),
        ),
    ),
    ("bind_window", {"action": "list"}, Call("bind-window", ("list", None), {"pid": None})),
    ("bind_window", {"action": "bind", "title": "Notepad"}, Call("bind-window", ("bind", "Notepad"), {"pid": None})),
    ("bind_window", {"action": "bind", "hwnd": 1311}, Call("bind-window", ("bind", "1311"), {"pid": None})),
    ("bind_window", {"action": "bind", "pid": 4242}, Call("bind-window", ("bind", None), {"pid": 4242})),
    ("bind_window", {"action": "unbind"}, Call("bind-window", ("unbind", None), {"pid": None})),
    ("window_management", {"action": "minimize"}, Call("window", ("minimize", None, None, None, None))),
    ("window_management", {"action": "maximize"}, Call("window", ("maximize", None, None, None, None))),
    ("window_management", {"action": "restore"}, Call("window", ("restore", None, None, None, None))),
    ("window_management", {"action": "focus"}, Call("window", ("activate", None, None, None, None))),
    ("window_management", {"action": "move_offscreen"}, Call("window", ("offscreen", None, None, None, None))),
    (
        "window_management",
        {"action": "move_resize", "x": 10, "y": 20, "width": 640, "height": 480},
        Call("window", ("move", 10, 20, 640, 480)),
    ),
    ("window_management", {"action": "close"}, Call("close")),
    ("window_management", {"action": "get_rect"}, Call("windows")),
    (
        "virtual_mouse",
        {"action": "click", "coordinate": XY},
        Call("click-at", (120, 340), {"button": "left", "count": 1}),
    ),
    (
        "virtual_mouse",
        {"action": "double_click", "coordinate": XY},
        Call("click-at", (120, 340), {"button": "left", "count": 2}),
    ),
    (
        "virtual_mouse",
        {"action": "right_click", "coordinate": XY},
        Call("click-at", (120, 340), {"button": "right", "count": 1}),
    ),
    ("virtual_mouse", {"action": "move", "coordinate": XY}, Call("mouse-move", (120, 340))),
    (
        "virtual_mouse",
        {"action": "drag", "start_coordinate": [1, 2], "coordinate": XY},
        Call("drag-at", (1, 2, 120, 340)),
    ),
    ("virtual_mouse", {"action": "down", "coordinate": XY}, Call("mouse-down", (120, 340))),
    ("virtual_mouse", {"action": "up"}, Call("mouse-up")),
    ("virtual_keyboard", {"action": "type", "text": "你好"}, Call("type", ("你好",))),
    ("virtual_keyboard", {"action": "combo", "text": "ctrl+s"}, Call("keys", ("ctrl+s",))),
    ("virtual_keyboard", {"action": "combo", "text": "Tab", "repeat": 3}, Call("press", ("Tab", 3))),
    ("virtual_keyboard", {"action": "press", "text": "shift"}, Call("key-down", ("shift",))),
    ("virtual_keyboard", {"action": "release", "text": "shift"}, Call("key-up", ("shift",))),
    ("virtual_keyboard", {"action": "hold", "text": "a", "duration": 2}, Call("hold-key", ("a", 2.0))),
    ("mouse_wheel", {"coordinate": XY, "delta": -5}, Call("scroll-at", (120, 340, "down", 5))),
    ("mouse_wheel", {"coordinate": XY, "delta": 2}, Call("scroll-at", (120, 340, "up", 2))),
    (
        "mouse_wheel",
        {"coordinate": XY, "delta": 5, "direction": "horizontal"},
        Call("scroll-at", (120, 340, "right", 5)),
    ),
    (
        "mouse_wheel",
        {"coordinate": XY, "delta": -1, "direction": "horizontal"},
        Call("scroll-at", (120, 340, "left", 1)),
    ),
    (
        "click_element",
        {"name": "Save", "role": "Button"},
        Call("click-element", options={"name": "Save", "type": "Button", "automation_id": None}),
    ),
    (
        "click_element",
        {"automationId": "chkAutoSave"},
        Call("click-element", options={"name": None, "type": None, "automation_id": "chkAutoSave"}),
    ),
    (
        "type_into_element",
        {"role": "Edit", "text": "new content"},
        Call("type-into-element", ("new content",), {"name": None, "type": "Edit", "automation_id": None}),
    ),
    ("open_terminal", {"agent": "claude"}, Call("open-terminal", ("claude",), {"command": None})),
    (
        "open_terminal",
        {"agent": "custom", "command": "python3 -i"},
        Call("open-terminal", ("custom",), {"command": "python3 -i"}),
    ),
    ("activate_window", {}, Call("window", ("activate",))),
    ("activate_window", {"click_x": 5, "click_y": 6}, Call("click-at", (5, 6))),
    (
        "prompt_respond",
        {"response_type": "yes"},
        Call("prompt-respond", ("yes",), {"arrow": None, "count": None, "text": None}),
    ),
    (
        "prompt_respond",
        {"response_type": "select", "arrow_direction": "down", "arrow_count": 2},
        Call("prompt-respond", ("select",), {"arrow": "down", "count": 2, "text": None}),
    ),
    (
        "prompt_respond",
        {"response_type": "type", "text": "my-project"},
        Call("prompt-respond", ("type",), {"arrow": None, "count": None, "text": "my-project"}),
    ),
    ("status_indicator", {"action": "show", "message": "Saving"}, Call("status-indicator", ("show", "Saving"))),
    ("status_indicator", {"action": "hide"}, Call("status-indicator", ("hide", None))),
    ("request_teach_access", {}, Call("request-teach-access")),
    (
        "teach_step",
        {"text": "Click Save", "element": 7, "timeout": 30},
        Call("teach-step", (7,), {"text": "Click Save", "rect": None, "timeout": 30.0}),
    ),
    (
        "teach_step",
        {"text": "This corner", "region": [10, 20, 110, 70]},
        Call("teach-step", (None,), {"text": "This corner", "rect": [10, 20, 100, 50], "timeout": None}),
    ),
]


def case_id(case: tuple[str, dict[str, Any], Call]) -> str:
    return f"{case[0]}-{json.dumps(case[1], ensure_ascii=True)[:40]}"


def test_the_profile_has_the_38_tools_by_their_names():
    assert list(COMPUTER_USE) == GENERAL + WINDOWS_ONLY + TEACH
    assert len(COMPUTER_USE) == 38


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_each_translation(case):
    name, arguments, expected = case
    tool = COMPUTER_USE[name]
    assert tool.translate(tool.parse(arguments)) == expected
    assert expected.command in tool.commands, f"{name} declares the commands it may become"


def test_every_tool_and_every_command_it_may_become_has_a_case():
    assert {name for name, _, _ in CASES} | {"teach_batch"} == set(COMPUTER_USE)
    for tool in COMPUTER_USE.values():
        made = {call.command for name, _, call in CASES if name == tool.name}
        assert made == set(tool.commands) or tool.name == "teach_batch", tool.name


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_the_command_takes_what_the_translation_gives(case):
    """The call, bound to the command's parameters, passes the command's own validation: the
    option names and value shapes are the command's. Fails while the command is absent."""
    name, arguments, expected = case
    assert expected.command in load_commands(), f"{name} runs `{expected.command}`, which the table lacks"
    command, params = COMPUTER_USE[name].call(arguments)
    validate(load_commands()[command], params)


def test_teach_batch_sends_each_step_as_teach_step_takes_it():
    steps = [{"text": "Open the menu", "element": "File"}, {"text": "There", "region": [0, 0, 10, 10]}]
    call = COMPUTER_USE["teach_batch"].translate(COMPUTER_USE["teach_batch"].parse({"steps": steps, "timeout": 5}))
    assert call.command == "teach-batch" and call.options == {"timeout": 5.0}
    assert "teach-step" in load_commands(), "each step is sent as teach-step takes it"
    _, params = COMPUTER_USE["teach_batch"].call({"steps": steps, "timeout": 5})
    sent = json.loads(next(v for v in params.values() if isinstance(v, str)))
    assert [s["text"] for s in sent] == ["Open the menu", "There"]
    assert sent[0].get("rect") is None and sent[1]["rect"] == [0, 0, 10, 10]
    assert "File" in sent[0].values() and not any("timeout" in s for s in sent)
    validate(load_commands()["teach-batch"], params)
    with pytest.raises(InvalidInput, match=r"steps\.0\.timeout"):  # the batch's timeout is the batch's
        COMPUTER_USE["teach_batch"].call({"steps": [{"text": "t", "element": 1, "timeout": 3}]})


@pytest.mark.parametrize("action", ACTIONS)
def test_an_action_of_the_computer_tool_is_the_tool_of_its_name(action):
    for name, arguments, _ in CASES:
        if name == action:
            assert COMPUTER.call({"action": action, **arguments}) == COMPUTER_USE[action].call(arguments)
            break
    else:
        pytest.fail(f"no case for {action}")


def test_the_computer_tool_drops_nulls_and_refuses_what_the_action_does_not_take():
    assert COMPUTER.call({"action": "left_click", "coordinate": [1, 2], "text": None}) == COMPUTER_USE[
        "left_click"
    ].call({"coordinate": [1, 2]})
    with pytest.raises(InvalidInput, match="left_click takes no argument 'scroll_amount'"):
        COMPUTER.call({"action": "left_click", "coordinate": [1, 2], "scroll_amount": 3})
    with pytest.raises(InvalidInput, match="computer takes no argument 'bogus'"):
        COMPUTER.call({"action": "screenshot", "bogus": 1})
    with pytest.raises(InvalidInput, match="action"):
        COMPUTER.call({"action": "fly"})
    with pytest.raises(InvalidInput, match="action: Field required"):
        COMPUTER.call({})


@pytest.mark.parametrize(
    ("name", "arguments", "said"),
    [
        ("left_click", {"coordinate": XY, "bogus": 1}, "left_click takes no argument 'bogus'"),
        ("left_click", {"x": 1, "y": 2}, "left_click takes no argument 'x', 'y'"),
        ("left_click", {}, "coordinate: Field required"),
        ("left_click", {"coordinate": [1]}, "coordinate.1: Field required"),
        ("left_click", {"coordinate": [1, 2, 3]}, "coordinate"),
        ("left_click", {"coordinate": [True, 2]}, "a coordinate is a whole number, not True"),
        ("left_click", {"coordinate": [1.5, 2]}, "coordinate.0"),
        ("left_click", {"coordinate": XY, "text": "a"}, "'a' is not a modifier key"),
        ("left_click", {"coordinate": XY, "text": "ctrl+nope"}, "unknown key"),
        ("left_click_drag", {"coordinate": XY}, "start_coordinate: Field required"),
        ("zoom", {"region": [10, 10, 5, 20]}, "region [10, 10, 5, 20] is empty"),
        ("zoom", {"region": [1, 2, 3]}, "region"),
        ("scroll", {"coordinate": XY, "scroll_direction": "down", "scroll_amount": 1, "text": "ctrl"}, "held keys"),
        ("scroll", {"coordinate": XY, "scroll_direction": "sideways", "scroll_amount": 1}, "scroll_direction"),
        ("key", {"text": "a", "repeat": 0}, "repeat"),
        ("mouse_wheel", {"coordinate": XY, "delta": 0}, "delta 0"),
        ("bind_window", {"action": "bind", "title": "a", "pid": 3}, "one of title, hwnd, pid"),
        ("bind_window", {"action": "status", "title": "a"}, "takes no window"),
        ("window_management", {"action": "minimize", "x": 3}, "are for move_resize"),
        ("window_management", {"action": "move_resize", "width": 3}, "needs x and y"),
        ("window_management", {"action": "explode"}, "action"),
        ("virtual_mouse", {"action": "click"}, "needs coordinate"),
        ("virtual_mouse", {"action": "drag", "coordinate": XY}, "needs start_coordinate"),
        ("activate_window", {"click_x": 3}, "together"),
        ("teach_step", {"text": "t"}, "give one"),
        ("teach_step", {"text": "t", "element": 3, "region": [0, 0, 1, 1]}, "give one"),
        ("request_access", {"apps": []}, "apps"),
        ("open_terminal", {"agent": "vim"}, "agent"),
        ("computer_batch", {"actions": []}, "actions"),
        ("computer_batch", {"actions": [{"action": "fly"}]}, 'actions[1]: no action "fly"'),
        ("computer_batch", {"actions": [{"action": "computer_batch", "actions": []}]}, "no action"),
        ("computer_batch", {"actions": [{"coordinate": XY}]}, "actions[1]: no action null"),
        (
            "computer_batch",
            {"actions": [{"action": "wait", "duration": 1}, {"action": "left_click", "coordinate": [1]}]},
            "actions[2] (left_click): left_click: coordinate.1",
        ),
    ],
)
def test_bad_arguments_are_refused_by_name_before_anything_runs(name, arguments, said):
    with pytest.raises(InvalidInput) as caught:
        COMPUTER_USE[name].call(arguments)
    assert said in caught.value.message, caught.value.message
    assert caught.value.hint


def backend(*capabilities: Capability) -> Any:
    """What `Translated.served_on` reads of a backend: its capabilities."""
    return SimpleNamespace(capabilities=frozenset(capabilities))


def test_the_bound_window_tools_are_served_only_where_input_can_be_bound():
    desktop = backend(Capability.POINTER, Capability.HOLD_KEY, Capability.WINDOW_MANAGE, Capability.CLIPBOARD)
    bound = backend(*Capability)
    on_desktop = {t.name for t in COMPUTER_USE.values() if t.served_on(desktop)}
    assert not {"bind_window", "virtual_mouse", "virtual_keyboard", "mouse_wheel"} & on_desktop
    assert {"left_click", "window_management", "click_element", "activate_window", "computer_batch"} <= on_desktop
    assert {"bind_window", "virtual_mouse", "virtual_keyboard", "mouse_wheel"} <= {
        t.name for t in COMPUTER_USE.values() if t.served_on(bound)
    }
    phone = backend(Capability.DEVICE)
    assert not COMPUTER_USE["mouse_move"].served_on(phone) and not COMPUTER_USE["window_management"].served_on(phone)


def test_profiles_seed_and_computer_combine_and_clashing_names_are_refused():
    served = profiles.resolve("computer-use")
    assert served.commands == frozenset() and list(served.translated) == list(COMPUTER_USE)
    both = profiles.resolve("computer-use,computer")
    assert set(both.translated) == {*COMPUTER_USE, "computer"}
    assert profiles.resolve("computer,core").commands == profiles.PROFILES["core"]
    with pytest.raises(WinctlError, match=r"share names \(.*screenshot.*type.*\)"):
        profiles.resolve("computer-use,core")
    with pytest.raises(WinctlError, match="share names"):
        profiles.resolve("all,computer-use")
    with pytest.raises(WinctlError, match="unknown tool profile sead"):
        profiles.resolve("sead")
    assert "computer-use (" in profiles.tools_help() and "computer (" in profiles.tools_help()


def test_the_docs_table_maps_every_tool():
    page = (ROOT / "docs" / "computer-use-tools.md").read_text(encoding="utf-8")
    rows = [line for line in page.splitlines() if line.startswith("| `")]
    mapped = [line.split("`")[1] for line in rows]
    assert [n for n in mapped if n in COMPUTER_USE] == list(COMPUTER_USE), "one row per tool, in the set's order"
    for tool in COMPUTER_USE.values():
        row = next(line for line in rows if line.split("`")[1] == tool.name)
        for command in tool.commands:
            assert f"`{command}" in row, (tool.name, command)
    assert "computer-use-tools.md" in (ROOT / "docs" / "mcp.md").read_text(encoding="utf-8")
