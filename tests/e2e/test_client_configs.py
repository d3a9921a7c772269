"""Every MCP client config in examples/clients starts a server an agent can use.

Each file is read as its client reads it: the client's own variable syntax is expanded from
the client's environment (here the test desktop's: Claude Code `${VAR}` and `${VAR:-default}`,
Cursor and VS Code `${env:VAR}`, VS Code `${input:ID}` from what the user types, a shell's
`$VAR` in a `claude mcp add` line; Claude Desktop expands nothing, so its literal values are
replaced as its user is told to). The server is then started exactly as the config says, with
the environment an MCP SDK client gives a stdio server (a few variables of its own plus the
config's `env`, nothing else), and the official SDK client does the handshake and calls tools
that reach the fixture app. A config an agent cannot start is a defect.
"""

from __future__ import annotations

import argparse
import json
import re
import shlex
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, get_default_environment, stdio_client

from tests.conftest import ROOT
from tests.e2e.helpers.mcp_client import TITLE, HTTPServer, run_http_client
from tests.e2e.helpers.runners import WINCTL

pytestmark = pytest.mark.desktop

CLIENTS = ROOT / "examples" / "clients"
STDIO = {
    "claude-desktop": CLIENTS / "claude-desktop" / "claude_desktop_config.json",
    "claude-code": CLIENTS / "claude-code" / ".mcp.json",
    "claude-code-add": CLIENTS / "claude-code" / "add.sh",
    "cursor": CLIENTS / "cursor" / ".cursor" / "mcp.json",
    "vscode": CLIENTS / "vscode" / ".vscode" / "mcp.json",
}
REMOTE = {
    "claude-code": CLIENTS / "remote" / "claude-code.mcp.json",
    "claude-code-add": CLIENTS / "remote" / "claude-code-add.sh",
    "cursor": CLIENTS / "remote" / "cursor.mcp.json",
    "vscode": CLIENTS / "remote" / "vscode.mcp.json",
}


def test_every_config_file_is_tested():
    files = {p for p in CLIENTS.rglob("*") if p.is_file()}
    assert files == set(STDIO.values()) | set(REMOTE.values())


# -- each client's own reading of its file ---------------------------------------------------------
def claude_code(text: str, env: dict[str, str], inputs: dict[str, str]) -> str:
    """`${VAR}` and `${VAR:-default}`; an unset variable without a default is a config error."""

    def one(match: re.Match[str]) -> str:
        name, default = match.group(1), match.group(3)
        if env.get(name):
            return env[name]
        assert default is not None, f"Claude Code refuses the config: {name} is not set"
        return default

    return re.sub(r"\$\{([A-Za-z_][A-Za-z0-9_]*)(:-([^}]*))?\}", one, text)


def cursor_or_vscode(text: str, env: dict[str, str], inputs: dict[str, str]) -> str:
    """`${env:VAR}` (unset: empty) and VS Code's `${input:ID}` (what the user typed)."""
    text = re.sub(r"\$\{env:([A-Za-z_][A-Za-z0-9_]*)\}", lambda m: env.get(m.group(1), ""), text)
    return re.sub(r"\$\{input:([^}]+)\}", lambda m: inputs[m.group(1)], text)


def claude_desktop(text: str, env: dict[str, str], inputs: dict[str, str]) -> str:
    """No expansion: the user writes this desktop's values over the example's."""
    config = json.loads(text)
    for server in config["mcpServers"].values():
        server["env"] = {name: env[name] for name in server["env"]}
    return json.dumps(config)


def servers(client: str, path: Path, env: dict[str, str], inputs: dict[str, str]) -> dict[str, dict[str, Any]]:
    """The file's servers as its client starts them: {name: {command, args, env} or {url, headers}}."""
    if path.suffix == ".sh":
        return {**claude_mcp_add(path, env)}
    expand = {"claude-desktop": claude_desktop, "claude-code": claude_code}.get(client, cursor_or_vscode)
    config = json.loads(expand(path.read_text(), env, inputs))
    found = config["servers"] if client == "vscode" else config["mcpServers"]
    assert found, path
    return found


def claude_mcp_add(path: Path, env: dict[str, str]) -> dict[str, dict[str, Any]]:
    """The `claude mcp add` line after the shell expands `$VAR`, read with Claude Code's options."""
    lines = [line for line in path.read_text().replace("\\\n", " ").splitlines() if line.startswith("claude ")]
    assert len(lines) == 1, path
    words = shlex.split(re.sub(r"\$([A-Za-z_][A-Za-z0-9_]*)", lambda m: env.get(m.group(1), ""), lines[0]))
    command = words[words.index("--") + 1 :] if "--" in words else []
    words = words[: words.index("--")] if "--" in words else words
    assert words[:3] == ["claude", "mcp", "add"], words
    parser = argparse.ArgumentParser(exit_on_error=False)
    parser.add_argument("-t", "--transport", default="stdio")
    parser.add_argument("-e", "--env", action="append", default=[])
    parser.add_argument("-H", "--header", action="append", default=[])
    parser.add_argument("-s", "--scope", default="local")
    parser.add_argument("name")
    parser.add_argument("url", nargs="?")
    given = parser.parse_args(words[3:])
    if given.transport == "stdio":
        pairs = dict(item.split("=", 1) for item in given.env)
        return {given.name: {"command": command[0], "args": command[1:], "env": pairs}}
    headers = dict(item.split(": ", 1) for item in given.header)
    return {given.name: {"type": given.transport, "url": given.url, "headers": headers}}


# -- starting them -----------------------------------------------------------------------------
def start_and_use(server: dict[str, Any]) -> tuple[set[str], str]:
    """The SDK's stdio client starts `server` as configured; its tools, and `state` of the fixture app."""
    params = StdioServerParameters(command=server["command"], args=server.get("args", []), env=server.get("env"))

    async def main() -> tuple[set[str], str]:
        async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            tools = {t.name for t in (await session.list_tools()).tools}
            focused = await session.call_tool("focus", {"window": TITLE})
            assert not focused.is_error, focused.content
            state = await session.call_tool("state", {})
            assert not state.is_error, state.content
            return tools, state.content[0].text

    return anyio.run(main)


@pytest.fixture
def client_env(desktop, tmp_path, monkeypatch) -> dict[str, str]:
    """The environment a client runs in on the test desktop; `winctl` is on its PATH."""
    monkeypatch.setenv("PATH", f"{Path(WINCTL).parent}:{get_default_environment().get('PATH', '')}")
    runtime = tmp_path / "runtime"
    runtime.mkdir(mode=0o700)
    return {**desktop.env, "XDG_RUNTIME_DIR": str(runtime)}


@pytest.mark.parametrize("client", sorted(STDIO))
def test_a_stdio_config_starts_a_server_that_reaches_the_desktop(client, client_env, mcp_app):
    for name, server in servers(client, STDIO[client], client_env, {}).items():
        assert name == "winactions" and server.get("type", "stdio") == "stdio", server
        assert client != "vscode" or server["type"] == "stdio", "VS Code's schema requires the type"
        assert server["command"] == "winctl", "the config names the program, found on PATH"
        tools, state = start_and_use(server)
        assert {"state", "click", "input", "keys", "focus", "launch"} <= tools, sorted(tools)
        assert '[Button] "Apply"' in state, state


def test_without_the_desktops_env_a_config_fails_with_a_clear_error(client_env, mcp_app):
    """What the configs' `env` is for: an SDK client passes a stdio server only HOME, PATH,
    USER... so a config without DISPLAY and the bus cannot reach the desktop."""
    params = StdioServerParameters(command="winctl", args=["mcp"])

    async def main() -> Any:
        async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            return await session.call_tool("state", {})

    state = anyio.run(main)
    text = state.content[0].text
    assert state.is_error and "internal error" not in text, text
    assert "DISPLAY is not set" in text, text
    assert "config's `env`" in text, text  # the hint says where an MCP client's user fixes it


@pytest.fixture
def remote(desktop, tmp_path):
    server = HTTPServer(desktop, tmp_path, ("--tools", "core"))
    yield server
    server.close()


@pytest.mark.parametrize("client", sorted(REMOTE))
def test_a_remote_config_reaches_the_http_server_with_its_token(client, client_env, remote, mcp_app):
    env = {**client_env, "WINCTL_MCP_TOKEN": remote.token}
    (name, server), *more = servers(client, REMOTE[client], env, {"winctl-token": remote.token}).items()
    assert not more and name == "winactions" and server.get("type", "http") == "http", server
    assert server["url"] == "http://127.0.0.1:8765/mcp", "the examples name the default address"
    port = remote.url.rsplit(":", 1)[1].split("/")[0]
    url = server["url"].replace("8765", port)  # the test's server has a port of its own
    token = server["headers"]["Authorization"].removeprefix("Bearer ")

    async def script(session):
        await session.call_tool("focus", {"window": TITLE})
        return await session.call_tool("state", {})

    state = run_http_client(url, token, script)
    assert not state.is_error and '[Button] "Apply"' in state.content[0].text, state.content
