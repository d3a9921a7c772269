"""MCP that clients trust: a cancelled call stops and the server answers at once, an unknown
or excluded tool is a JSON-RPC error, and the server over streamable HTTP behind a bearer
token, each driven by the official MCP SDK's clients (stdio and streamable HTTP) against the
GTK fixture app, whose own event log says what happened."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import time

import anyio
import httpx2
import psutil
import pytest
from mcp.shared.exceptions import MCPError

from tests.e2e.helpers.mcp_client import TITLE, HTTPServer, run_client, run_http_client

pytestmark = pytest.mark.desktop


async def _cancelled_wait(session, seconds: float = 30) -> tuple[float, bool]:
    """Call `wait` for `seconds`, cancel it after one second (the SDK sends
    notifications/cancelled), then call `windows`: (seconds from the cancel to that answer,
    whether the answer is not an error)."""
    async with anyio.create_task_group() as group:

        async def waiting() -> None:
            await session.call_tool("wait", {"seconds": seconds})

        group.start_soon(waiting)
        await anyio.sleep(1.0)
        group.cancel_scope.cancel()
    cancelled = time.monotonic()
    after = await session.call_tool("windows", {})
    return time.monotonic() - cancelled, not after.is_error


def test_a_cancelled_wait_lets_the_next_call_through_at_once(desktop, tmp_path):
    """Before: a cancelled `wait 8` held the server 7 more seconds."""

    async def script(session):
        return await _cancelled_wait(session)

    took, ok = run_client(desktop, tmp_path, script)
    assert ok and took < 5, f"the call after a cancelled 30 s wait came {took:.1f}s later"


def test_an_unknown_or_excluded_tool_is_a_protocol_error(desktop, tmp_path):
    async def script(session):
        tools = {t.name for t in (await session.list_tools()).tools}
        errors = []
        for name in ("no_such_tool", "get_text", "close"):  # unknown, excluded, outside the profile
            try:
                await session.call_tool(name, {})
            except MCPError as exc:
                errors.append((exc.code, exc.message))
        return tools, errors

    tools, errors = run_client(desktop, tmp_path, script, args=("mcp", "--exclude-tools", "get_text,type"))
    assert "get_text" not in tools and "type" not in tools and "click" in tools
    assert [code for code, _ in errors] == [-32602, -32602, -32602], errors
    assert "no_such_tool" in errors[0][1] and "--tools" in errors[2][1]


def test_state_and_click_over_http_with_a_bearer_token(desktop, tmp_path, mcp_app):
    server = HTTPServer(desktop, tmp_path)
    try:

        async def script(session):
            await session.call_tool("focus", {"window": TITLE})
            state = await session.call_tool("state", {})
            line = next(x for x in state.content[0].text.splitlines() if '"Apply"' in x)
            apply = int(line.split("]")[0].strip("[ "))
            clicked = await session.call_tool("click", {"id": apply})
            took, ok = await _cancelled_wait(session)
            return clicked, took, ok

        clicked, took, ok = run_http_client(server.url, server.token, script)
        mcp_app.wait_for("clicked", widget="Apply")  # the app says it was clicked
        assert not clicked.is_error
        assert ok and took < 5, f"the call after a cancelled wait over HTTP came {took:.1f}s later"
        hello = {"jsonrpc": "2.0", "id": 1, "method": "ping"}
        headers = {"Accept": "application/json, text/event-stream"}
        without = httpx2.post(server.url, json=hello, headers=headers, timeout=10)
        wrong = httpx2.post(server.url, json=hello, headers={**headers, "Authorization": "Bearer nope"}, timeout=10)
        evil = httpx2.post(
            server.url,
            json=hello,
            headers={**headers, "Authorization": f"Bearer {server.token}", "Origin": "http://evil.example"},
            timeout=10,
        )
        assert without.status_code == 401 and wrong.status_code == 401
        assert "bearer" in without.headers["www-authenticate"].lower()
        assert evil.status_code in (400, 403), evil.status_code  # a page from elsewhere (DNS rebinding)
    finally:
        said = server.close()
    assert said.count(server.token) == 1, "the token is printed once, never logged again"


def test_http_takes_its_token_from_a_file_and_warns_off_loopback(desktop, tmp_path):
    """On all addresses a client elsewhere reaches it by this machine's address; a Host that is
    not this machine's (DNS rebinding) is refused unless `--allow-host` names it."""
    token = tmp_path / "token"
    secret = "a-long-enough-secret-token-123"
    token.write_text(secret + "\n")
    args = ("--token-file", str(token), "--host", "0.0.0.0", "--allow-host", "desk.example")
    server = HTTPServer(desktop, tmp_path, args=args)
    try:
        address = next(
            a.address
            for nic in psutil.net_if_addrs().values()
            for a in nic
            if a.family == socket.AF_INET and not a.address.startswith("127.")
        )
        port = server.url.rsplit(":", 1)[1].split("/")[0]

        async def script(session):
            return {t.name for t in (await session.list_tools()).tools}

        assert "state" in run_http_client(f"http://{address}:{port}/mcp", secret, script)
        local = f"http://127.0.0.1:{port}/mcp"
        headers = {"Accept": "application/json, text/event-stream", "Authorization": f"Bearer {secret}"}
        ping = {"jsonrpc": "2.0", "id": 1, "method": "ping"}
        evil = httpx2.post(local, json=ping, headers={**headers, "Host": f"evil.example:{port}"}, timeout=10)
        named = httpx2.post(local, json=ping, headers={**headers, "Host": f"desk.example:{port}"}, timeout=10)
        assert evil.status_code == 421 and named.status_code != 421, (evil.status_code, named.status_code)
    finally:
        said = server.close()
    assert "warning" in said and secret not in said


def test_a_digit_string_is_never_taken_for_an_id(desktop, tmp_path, mcp_app):
    """Before: `{"id": "7"}` clicked element 7. Now it is refused and nothing is clicked; the
    id as an integer, or the name in `name`, clicks."""

    async def script(session):
        await session.call_tool("focus", {"window": TITLE})
        state = await session.call_tool("state", {})
        line = next(x for x in state.content[0].text.splitlines() if '"Apply"' in x)
        apply = int(line.split("]")[0].strip("[ "))
        as_text = await session.call_tool("click", {"id": str(apply)})
        by_name = await session.call_tool("click", {"name": "Apply"})
        return as_text, by_name

    as_text, by_name = run_client(desktop, tmp_path, script)
    assert as_text.is_error and "whole number" in as_text.content[0].text and '"name"' in as_text.content[0].text
    assert not by_name.is_error, by_name.content[0].text
    mcp_app.wait_for("clicked", widget="Apply")
    assert len(mcp_app.events("clicked", widget="Apply")) == 1  # the refused call clicked nothing


def test_a_cancelled_run_stops_before_its_next_step_and_says_where(desktop, tmp_path, mcp_app):
    """Before: a cancelled `run` went on driving the desktop. Now the step under way finishes
    (its click and its check), the next one never starts, and the run's record says where it
    stopped."""
    plan = json.dumps(
        [
            {"action": "click", "target_ref": "Apply", "target_type": "Button", "wait_after": 3000},
            {"action": "click", "target_ref": "Apply", "target_type": "Button"},
        ]
    )
    out = tmp_path / "out"
    out.mkdir()

    async def script(session):
        await session.call_tool("focus", {"window": TITLE})
        async with anyio.create_task_group() as group:

            async def running() -> None:
                await session.call_tool("run", {"task": "click Apply twice", "plan": plan, "record": "cancelled"})

            group.start_soon(running)
            await anyio.sleep(1.5)  # inside the first step's settle
            group.cancel_scope.cancel()
        after = await session.call_tool("windows", {})
        await anyio.sleep(4)  # longer than the second step would take to come
        return after

    after = run_client(desktop, tmp_path, script, args=("mcp", "--tools", "all", "--output-dir", str(out)))
    assert not after.is_error
    assert len(mcp_app.events("clicked", widget="Apply")) == 1  # the first step only
    events = [json.loads(line) for line in (out / "cancelled" / "run.jsonl").read_text().splitlines()]
    result = events[-1]["result"]
    assert result["status"] == "aborted" and "cancelled by the caller before step 2" in result["error"], result


def test_the_mcp_inspector_lists_over_http_with_the_token(desktop, tmp_path):
    """The official Inspector's CLI, a real MCP client from npm, over streamable HTTP with the token."""
    npx = shutil.which("npx")
    assert npx, "Node's npx is needed (Node 20 is on the test machine)"
    server = HTTPServer(desktop, tmp_path)
    try:
        # the 2.x CLI sends headers (`--header`, last: it takes several); 0.x could not
        inspector = [npx, "-y", "@modelcontextprotocol/inspector@2.12.0", "--cli", server.url]
        base = [*inspector, "--transport", "http", "--method", "tools/list"]
        env = {**os.environ, "npm_config_update_notifier": "false", "npm_config_loglevel": "error"}
        auth = ["--header", f"Authorization: Bearer {server.token}"]
        listed = subprocess.run([*base, *auth], capture_output=True, text=True, timeout=240, env=env)
        refused = subprocess.run(base, capture_output=True, text=True, timeout=240, env=env)
    finally:
        server.close()
    assert listed.returncode == 0, listed.stderr[-2000:]
    tools = {t["name"]: t for t in json.loads(listed.stdout)["tools"]}
    assert tools["click"]["title"] == "Click" and tools["state"]["annotations"]["readOnlyHint"] is True
    assert refused.returncode != 0 and "auth_required" in refused.stderr  # it met the 401 and asks for auth


def test_a_run_cancelled_while_its_model_thinks_stops_at_once(desktop, tmp_path, mcp_app):
    """Before: a `run` cancelled while its planner waited for the model held the server until
    the model answered (30 s here), and then went on to act. Now the call ends at once, the
    run says it stopped while waiting for the model, and nothing is clicked."""
    from tests.fixtures.llm_server import API_KEY, LLMServer

    out = tmp_path / "out"
    out.mkdir()
    plan = {"steps": [{"action": "click", "target_ref": "Apply", "target_type": "Button"}]}
    with LLMServer() as server:
        server.reply("```json\n" + json.dumps(plan) + "\n```", delay=30)
        env = {
            "WINCTL_LLM_PROVIDER": "openai",
            "WINCTL_VISION_BASE_URL": server.openai_url,
            "WINCTL_VISION_API_KEY": API_KEY,
            "WINCTL_VISION_MODEL": "scripted",
        }

        async def script(session):
            await session.call_tool("focus", {"window": TITLE})
            async with anyio.create_task_group() as group:

                async def running() -> None:
                    await session.call_tool("run", {"task": "press the frobnicator", "record": "thinking"})

                group.start_soon(running)
                while not server.requests:  # the planner's request has reached the model
                    await anyio.sleep(0.1)
                await anyio.sleep(0.5)
                group.cancel_scope.cancel()
            cancelled = time.monotonic()
            after = await session.call_tool("windows", {})
            return time.monotonic() - cancelled, after

        args = ("mcp", "--tools", "all", "--output-dir", str(out))
        took, after = run_client(desktop, tmp_path, script, args=args, env=env)
    assert not after.is_error and took < 5, f"the call after the cancelled run came {took:.1f}s later"
    events = [json.loads(line) for line in (out / "thinking" / "run.jsonl").read_text().splitlines()]
    result = events[-1]["result"]
    assert result["status"] == "aborted" and "while waiting for the model" in result["error"], result
    assert mcp_app.events("clicked", widget="Apply") == []
