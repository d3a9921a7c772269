"""`winctl mcp` driven by the official MCP SDK's own client over stdio, against the fixture app."""

from __future__ import annotations

import pytest

from tests.e2e.helpers.mcp_client import TITLE, run_client
from winactions.commands.base import load_commands

pytestmark = pytest.mark.desktop


def test_every_command_is_a_tool_with_its_schema(desktop, tmp_path):
    async def script(session):
        return (await session.list_tools()).tools

    tools = {t.name: t for t in run_client(desktop, tmp_path, script)}
    table = load_commands()
    not_here = ("bind-window", "go-home")  # X11 has no bound input, a desktop no home screen
    assert {c.tool_name for c in table.values() if c.name not in not_here} == set(tools)
    click = tools["click"]
    assert click.input_schema["properties"]["id"] == {"type": "integer"}  # or its name in `name`: one of them
    assert click.input_schema["properties"]["name"]["type"] == "string"
    assert "return_state" in click.input_schema["properties"]
    assert tools["state"].annotations.read_only_hint is True
    assert tools["get_text"].description.startswith("The element's full text")


def test_state_then_act_by_id_through_mcp(desktop, tmp_path, mcp_app):
    async def script(session):
        await session.call_tool("focus", {"window": TITLE})
        state = await session.call_tool("state", {})
        targets = state.structured_content["result"]["targets"]
        apply = next(t["id"] for t in targets if t["name"] == "Apply")
        name = next(t["id"] for t in targets if t["type"] == "Edit" and t["name"] == "Name")
        clicked = await session.call_tool("click", {"id": apply, "return_state": True})
        zero = await session.call_tool("click", {"id": apply, "return_state": True, "max_elements": 0})
        alone = await session.call_tool("click", {"id": apply, "max_elements": 2})
        typed = await session.call_tool("input", {"id": name, "text": "über MCP"})
        shot = await session.call_tool("screenshot", {})
        return state, clicked, (zero, alone), typed, shot

    state, clicked, refused, typed, shot = run_client(desktop, tmp_path, script)
    assert not state.is_error and '[Button] "Apply"' in state.content[0].text
    text = clicked.content[0].text  # what the model reads: what changed, not the window again
    assert not clicked.is_error and "via action:click" in text
    assert any(line.startswith("~ [") and '"Applied 1"' in line for line in text.splitlines()), text
    assert not any(line.startswith("[") for line in text.splitlines()), text
    result = clicked.structured_content["result"]
    assert any(t["name"] == "Applied 1" for t in result["state"]["targets"])
    assert result["changes"]["changed"] and not result["changes"]["window_changed"], result["changes"]
    for call in refused:  # a cap of 0, a cap without return_state: told, never an internal error
        assert call.is_error and call.structured_content["error"]["code"] == "invalid_input", call.content
        assert "max_elements" in call.content[0].text or "--max-elements" in call.content[0].text
    mcp_app.wait_for("clicked", widget="Apply")
    mcp_app.wait_for("entry_changed", text="über MCP")
    assert not typed.is_error
    images = [c for c in shot.content if c.type == "image"]
    assert len(images) == 1 and images[0].mime_type == "image/png"


def test_errors_are_tool_errors_and_the_server_keeps_serving(desktop, tmp_path, mcp_app):
    async def script(session):
        await session.call_tool("focus", {"window": TITLE})
        await session.call_tool("state", {})
        unknown_id = await session.call_tool("click", {"id": 99999})
        wrong_type = await session.call_tool("click", {"id": "abc"})
        bad_key = await session.call_tool("keys", {"keys": "ctrl+nope"})
        extra = await session.call_tool("click", {"id": 1, "bogus": 1})
        still = await session.call_tool("state", {})
        return unknown_id, wrong_type, bad_key, extra, still

    unknown_id, wrong_type, bad_key, extra, still = run_client(desktop, tmp_path, script)
    assert unknown_id.is_error and unknown_id.structured_content["error"]["code"] == "not_found"
    assert wrong_type.is_error
    assert bad_key.is_error and bad_key.structured_content["error"]["code"] == "invalid_input"
    assert extra.is_error
    assert not still.is_error and still.structured_content["result"]["targets"]


def test_computer_use_tools_through_mcp(desktop, tmp_path, mcp_app):
    async def script(session):
        await session.call_tool("focus", {"window": TITLE})
        state = await session.call_tool("state", {"verbose": True})
        apply = next(t for t in state.structured_content["result"]["targets"] if t["name"] == "Apply")
        left, top, right, bottom = apply["rect"]
        zoomed = await session.call_tool(
            "zoom", {"x": left, "y": top, "width": right - left, "height": bottom - top, "scale": 2}
        )
        batch = await session.call_tool(
            "batch",
            {
                "steps": [
                    {"command": "click_element", "args": {"name": "Apply"}},
                    {"command": "clipboard", "args": {"text": "via mcp"}},
                ]
            },
        )
        clip = await session.call_tool("clipboard", {})
        return zoomed, batch, clip

    zoomed, batch, clip = run_client(desktop, tmp_path, script)
    assert [c.type for c in zoomed.content] == ["text", "image"]
    assert batch.is_error is False and batch.structured_content["result"]["completed"] == 2
    assert clip.structured_content["result"]["value"] == "via mcp"
    mcp_app.wait_for("clicked", widget="Apply")


def test_tools_the_backend_cannot_run_are_not_offered(desktop, tmp_path):
    async def script(session):
        tools = (await session.list_tools()).tools
        refused = await session.call_tool("bind_window", {"action": "bind"})
        return tools, refused

    tools, refused = run_client(desktop, tmp_path, script)
    names = {t.name for t in tools}
    assert "click" in names and "bind_window" not in names, "X11 has no bound-window input"
    assert refused.is_error and refused.structured_content["error"]["code"] == "unsupported"


def test_hints_name_tools_and_a_warning_is_said_once(desktop, tmp_path, mcp_app):
    """An MCP client is told to call the `state` tool, not to run `winctl state`; and a
    one-time warning (the session followed a dialog) is not repeated by later calls."""

    async def script(session):
        await session.call_tool("focus", {"window": TITLE})
        state = (await session.call_tool("state", {})).structured_content["result"]
        missing = await session.call_tool("click", {"id": 99999})
        await session.call_tool("click", {"id": next(t["id"] for t in state["targets"] if t["name"] == "File")})
        menu = (await session.call_tool("state", {})).structured_content["result"]
        item = next(t["id"] for t in menu["targets"] if t["type"] == "MenuItem" and "Dialog" in t["name"])
        await session.call_tool("click", {"id": item})  # the app opens its dialog from an idle callback
        mcp_app.wait_for("dialog_opened")
        followed = (await session.call_tool("state", {})).structured_content["result"]
        again = (await session.call_tool("state", {})).structured_content["result"]
        await session.call_tool("keys", {"keys": "Escape"})
        return missing, followed, again

    missing, followed, again = run_client(desktop, tmp_path, script)
    hint = missing.structured_content["error"]["hint"]
    assert "the `state` tool" in hint and "winctl" not in hint and "winctl" not in missing.content[0].text
    assert followed["window"]["title"] == "Confirm" and any("following" in w for w in followed["warnings"])
    assert again["window"]["title"] == "Confirm" and not any("following" in w for w in again["warnings"])
    mcp_app.wait_for("dialog_response", response="cancel")


def test_a_locate_threshold_stays_on_its_call_in_mcp(desktop, tmp_path, mcp_app):
    async def script(session):
        await session.call_tool("focus", {"window": TITLE})
        loose = await session.call_tool("locate", {"target": "text:Aplly", "reliable": 0.2, "no_cache": True})
        strict = await session.call_tool("locate", {"target": "text:Aplly", "no_cache": True})
        return loose, strict

    loose, strict = run_client(desktop, tmp_path, script)
    assert not loose.is_error and loose.structured_content["result"]["located"]["element"]["confidence"] < 0.8
    assert strict.is_error and strict.structured_content["error"]["code"] == "not_found"
