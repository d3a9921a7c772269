"""examples/langgraph_mcp.py run for real: a LangGraph agent whose tools `langchain-mcp-adapters`
loads from `winctl mcp` (over stdio, and over streamable HTTP with the bearer token) types into
Mousepad and saves; the model is the scripted OpenAI-compatible server, over real HTTP.

The agent side runs in its own environment, `.venv-langgraph` (scripts/setup.sh test makes it
from examples/requirements-langgraph.txt): the adapters pin the MCP SDK below 2.0 and
`winctl mcp` needs 2.0, so an SDK 1.x client talks to the 2.x server here, as in most agents.
"""

from __future__ import annotations

import json
import re
import subprocess
import time
from pathlib import Path

import pytest

from tests.conftest import ROOT, start_app, stop_app
from tests.e2e.helpers.mcp_client import HTTPServer, run_client
from tests.e2e.helpers.runners import WINCTL
from tests.fixtures.llm_server import API_KEY, LLMServer, Recorded
from tests.fixtures.toolkit_apps import isolated_env, mousepad_command

pytestmark = pytest.mark.desktop

AGENT_PYTHON = ROOT / ".venv-langgraph" / "bin" / "python"
EXAMPLE = ROOT / "examples" / "langgraph_mcp.py"
TITLE = "doc.txt"
MIXED = ("$ref", "$defs", "anyOf", "oneOf", "allOf")


@pytest.fixture(scope="module")
def agent_python() -> str:
    if not AGENT_PYTHON.exists():
        pytest.fail(f"{AGENT_PYTHON} is missing: run scripts/setup.sh test (it installs the LangGraph example's side)")
    return str(AGENT_PYTHON)


@pytest.fixture
def mousepad(desktop, tmp_path: Path, monkeypatch):
    """Mousepad on an empty doc.txt in a fresh home; yields the file."""
    for name, value in isolated_env(tmp_path / "home").items():
        monkeypatch.setitem(desktop.env, name, value)
    doc = tmp_path / "doc.txt"
    doc.write_text("")
    proc = start_app(desktop, mousepad_command(doc), TITLE)
    yield doc
    stop_app(proc)


def edit_id(request: Recorded) -> int:
    """The id of the Edit element in the last `state` result the model was sent."""
    result = next(m for m in reversed(request.body["messages"]) if m["role"] == "tool")
    text = result["content"] if isinstance(result["content"], str) else json.dumps(result["content"])
    found = re.search(r"\[(\d+)\] \[Edit\]", text)
    assert found, f"no Edit element in what the model read:\n{text}"
    return int(found.group(1))


def script_the_model(server: LLMServer, text: str, mistake: bool = False) -> None:
    """focus, (a click with a string id: a tool error the model reads), state, input into the
    Edit by the id `state` gave, ctrl+s, then a final answer. One call per step: a `ToolNode`
    runs the calls of one answer at the same time."""
    server.call_tools(("focus", {"window": TITLE}))
    if mistake:
        server.call_tools(("click", {"id": "7"}))
    server.call_tools(("state", {}))
    server.call_tools(lambda request: [("input", {"id": edit_id(request), "text": text})])
    server.call_tools(("keys", {"keys": "ctrl+s"}))
    server.reply("Typed and saved.")


def run_example(agent_python: str, env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [agent_python, str(EXAMPLE), *args], env=env, capture_output=True, text=True, timeout=180, check=False
    )


def model_env(desktop, tmp_path: Path, server: LLMServer) -> dict[str, str]:
    (tmp_path / "runtime").mkdir(mode=0o700, exist_ok=True)
    return {
        **desktop.env,
        "XDG_RUNTIME_DIR": str(tmp_path / "runtime"),
        "OPENAI_BASE_URL": server.openai_url,
        "OPENAI_API_KEY": API_KEY,
        "OPENAI_MODEL": "scripted",
    }


def saved(doc: Path, expected: str, timeout: float = 10.0) -> str:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and doc.read_text() != expected:
        time.sleep(0.1)
    return doc.read_text()


def assert_model_saw_flat_tools(server: LLMServer) -> None:
    """What langchain-openai sent the model: the MCP tools as functions, their schemas flat."""
    first = server.requests[0].body
    assert first["parallel_tool_calls"] is False, "one call at a time: the order matters on a desktop"
    functions = {t["function"]["name"]: t["function"] for t in first["tools"]}
    assert {"state", "click", "input", "keys", "focus"} <= set(functions), sorted(functions)
    for name, function in functions.items():
        text = json.dumps(function["parameters"])
        assert not any(f'"{word}"' in text for word in MIXED), (name, text)
        assert function["description"], name
    assert functions["click"]["parameters"]["properties"]["id"] == {"type": "integer"}
    assert functions["input"]["parameters"]["properties"]["text"]["type"] == "string"


def test_the_example_drives_mousepad_over_stdio(desktop, tmp_path, mousepad, agent_python):
    with LLMServer() as server:
        script_the_model(server, "typed by LangGraph over stdio", mistake=True)
        done = run_example(agent_python, model_env(desktop, tmp_path, server), "--winctl", WINCTL, "type and save")
    assert done.returncode == 0, done.stderr
    assert saved(mousepad, "typed by LangGraph over stdio") == "typed by LangGraph over stdio", done.stderr
    assert "Typed and saved." in done.stdout
    assert "-> input" in done.stderr and done.stderr.count("<- error") == 1, done.stderr
    told = server.requests[2].body["messages"][-1]  # the tool error, as the model was sent it
    assert told["role"] == "tool" and "error (invalid_input): id is an element id" in json.dumps(told["content"])
    assert_model_saw_flat_tools(server)
    assert len(server.requests) == 6  # one model call per step: the graph stopped at the answer


def test_the_example_drives_mousepad_over_http_with_the_token(desktop, tmp_path, mousepad, agent_python):
    http = HTTPServer(desktop, tmp_path, ("--tools", "core"))
    try:
        with LLMServer() as server:
            script_the_model(server, "typed by LangGraph over HTTP")
            env = {**model_env(desktop, tmp_path, server), "WINCTL_MCP_TOKEN": http.token}
            done = run_example(agent_python, env, "--url", http.url, "type and save")
            wrong = run_example(agent_python, {**env, "WINCTL_MCP_TOKEN": "x" * 20}, "--url", http.url, "type")
            missing = run_example(agent_python, {**env, "WINCTL_MCP_TOKEN": ""}, "--url", http.url, "type")
    finally:
        said = http.close()
    assert done.returncode == 0, done.stderr + said
    assert saved(mousepad, "typed by LangGraph over HTTP") == "typed by LangGraph over HTTP", done.stderr
    assert_model_saw_flat_tools(server)
    assert wrong.returncode == 2 and "401" in wrong.stderr and "Traceback" not in wrong.stderr, wrong.stderr
    assert missing.returncode == 2 and "WINCTL_MCP_TOKEN" in missing.stderr, missing.stderr
    assert len(server.requests) == 5  # a refused token never reached the model
    assert said.count(http.token) == 1, "the token is printed once, at start, and never logged again"


def test_titles_hints_and_flat_schemas_reach_langchain_tools(desktop, tmp_path, agent_python):
    """What the server declares (the SDK 2 client reads it) is what LangChain's tools carry:
    the same names, descriptions, schemas and hints."""

    async def script(session):
        return (await session.list_tools()).tools

    declared = {t.name: t for t in run_client(desktop, tmp_path, script, ("mcp", "--tools", "all"))}
    (tmp_path / "runtime").mkdir(mode=0o700, exist_ok=True)
    env = {**desktop.env, "XDG_RUNTIME_DIR": str(tmp_path / "runtime")}
    listed = run_example(agent_python, env, "--winctl", WINCTL, "--tools", "all", "--list-tools")
    assert listed.returncode == 0, listed.stderr
    tools = {t["name"]: t for t in json.loads(listed.stdout)}
    assert set(tools) == set(declared)
    for name, tool in tools.items():
        mcp = declared[name]
        assert tool["description"] == mcp.description, name
        assert tool["args_schema"] == mcp.input_schema, name
        assert not any(f'"{word}"' in json.dumps(tool["args_schema"]) for word in MIXED), name
        hints = mcp.annotations.model_dump(by_alias=True, exclude_none=True) if mcp.annotations else {}
        metadata = {k: v for k, v in (tool["metadata"] or {}).items() if v is not None and k != "_meta"}
        assert metadata == hints, (name, metadata, hints)
    assert tools["state"]["metadata"]["readOnlyHint"] is True
    # a hint the server leaves out is the spec's default (click: destructive, not idempotent);
    # the adapters keep it left out (None), and they drop the tool's top-level `title`
    assert tools["focus"]["metadata"]["destructiveHint"] is False and tools["focus"]["metadata"]["idempotentHint"]
    assert tools["click"]["metadata"]["destructiveHint"] is None and declared["click"].title == "Click"
    assert tools["click"]["metadata"]["openWorldHint"] is False
