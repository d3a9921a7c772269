"""Lean MCP (issue 16.5): tool profiles, tier options only on perceiving tools, a core
`tools/list` of at most 15 KB measured on the wire, and hints and descriptions in the
client's language. Driven by the official MCP SDK client and by the MCP Inspector CLI."""

from __future__ import annotations

import json
import os
import shutil
import subprocess

import pytest
from mcp.shared.exceptions import MCPError

from tests.e2e.helpers.mcp_client import TITLE, run_client
from tests.e2e.helpers.runners import WINCTL
from winactions.mcp.profiles import PERCEIVING, PROFILES

pytestmark = pytest.mark.desktop
LIMIT = 15 * 1024


def tool_names(profile: str) -> set[str]:
    return {n.replace(" ", "_").replace("-", "_") for n in PROFILES[profile]}


def test_core_is_the_default_profile_and_fits_in_15_kb(desktop, tmp_path):
    async def script(session):
        return await session.list_tools()

    listed = run_client(desktop, tmp_path, script, args=("mcp",))
    wire = listed.model_dump_json(by_alias=True, exclude_none=True)  # what the server sent, re-serialized
    assert len(wire.encode()) <= LIMIT, f"core tools/list is {len(wire.encode())} bytes"
    names = {t.name for t in listed.tools}
    assert names == tool_names("core")
    for tool in listed.tools:
        properties = tool.input_schema["properties"]
        assert ("infer" in properties) == (tool.name in PERCEIVING), tool.name
        assert "winctl" not in (tool.description or "") + json.dumps(properties), tool.name
    everything = run_client(desktop, tmp_path, script, args=("mcp", "--tools", "all"))
    assert len(everything.tools) > len(listed.tools) + 10


def test_profiles_combine_and_a_tool_outside_the_profile_is_refused(desktop, tmp_path, mcp_app):
    async def script(session):
        tools = (await session.list_tools()).tools
        await session.call_tool("focus", {"window": TITLE})
        try:
            await session.call_tool("launch", {"program": ["true"]})
            refused = None
        except MCPError as exc:  # a tool the server does not serve is a protocol error
            refused = exc
        zoomed = await session.call_tool("zoom", {"x": 0, "y": 0, "width": 20, "height": 20})
        tier_on_click = await session.call_tool("click", {"id": 1, "infer": "rules"})
        return tools, refused, zoomed, tier_on_click

    tools, refused, zoomed, tier_on_click = run_client(
        desktop, tmp_path, script, args=("mcp", "--tools", "core,vision")
    )
    assert {t.name for t in tools} == tool_names("core") | tool_names("vision")
    assert refused is not None and refused.code == -32602 and "--tools all" in refused.message
    assert not zoomed.is_error
    assert tier_on_click.is_error and "infer" in tier_on_click.content[0].text  # not silently ignored


def test_a_bad_profile_is_a_clear_error(tmp_path):
    run = subprocess.run(
        [WINCTL, "mcp", "--tools", "corr"],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "XDG_RUNTIME_DIR": str(tmp_path)},
    )
    assert run.returncode == 2 and "unknown tool profile corr" in run.stderr and "core" in run.stderr


def test_the_mcp_inspector_lists_the_core_profile(desktop, tmp_path):
    """The official Inspector's CLI mode, a real MCP client from npm, as a new user runs it."""
    npx = shutil.which("npx")
    assert npx, "Node's npx is needed (Node 20 is on the test machine)"
    (tmp_path / "runtime").mkdir(mode=0o700)
    env_args = [
        f"-e{k}={v}"
        for k, v in {**desktop.env, "XDG_RUNTIME_DIR": str(tmp_path / "runtime")}.items()
        if k in ("DISPLAY", "DBUS_SESSION_BUS_ADDRESS", "XDG_RUNTIME_DIR", "HOME", "PATH", "PYTHONPATH")
    ]
    run = subprocess.run(
        [npx, "-y", "@modelcontextprotocol/inspector", "--cli", *env_args, WINCTL, "mcp", "--method", "tools/list"],
        capture_output=True,
        text=True,
        timeout=240,
        env={**os.environ, "npm_config_update_notifier": "false"},
    )
    assert run.returncode == 0, run.stderr[-2000:]
    listed = json.loads(run.stdout)
    assert {t["name"] for t in listed["tools"]} == tool_names("core")
    assert len(json.dumps(listed, separators=(",", ":")).encode()) <= LIMIT


def test_locate_cache_is_not_marked_read_only():
    """`locate_cache clear` forgets the cache: an MCP client must not treat it as read-only."""
    from winactions.commands.base import load_commands
    from winactions.mcp.server import tool_list

    (tool,) = tool_list([load_commands()["locate-cache"]])
    assert tool.annotations is not None and not tool.annotations.read_only_hint  # left out: false by the spec
    assert "return_state" not in tool.input_schema["properties"]
