"""`winctl mcp` driven by the official MCP SDK's own client over stdio."""

from __future__ import annotations

from typing import Any

import anyio
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

from tests.e2e.helpers.runners import WINCTL

TITLE = "MCP Fixture"  # the GTK fixture app's title in the MCP tests (the `mcp_app` fixture)


def run_client(
    desktop,
    tmp_path,
    script,
    args: tuple[str, ...] = ("mcp", "--tools", "all", "--structured"),
    command: str = WINCTL,
    env: dict[str, str] | None = None,
) -> Any:
    """Start `winctl mcp` (every tool, with results as JSON too, unless `args` says otherwise;
    `command`: another winctl, or a program that runs one) as the SDK starts any stdio server,
    in the desktop's environment with `env` over it, and run `script(session)`."""
    env = {**desktop.env, "XDG_RUNTIME_DIR": str(tmp_path / "runtime"), **(env or {})}
    (tmp_path / "runtime").mkdir(mode=0o700, exist_ok=True)
    params = StdioServerParameters(command=command, args=list(args), env=env)

    async def main():
        async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            return await script(session)

    return anyio.run(main)


class HTTPServer:
    """`winctl mcp --http --port 0` started on the test desktop: its URL and the token it printed."""

    def __init__(self, desktop, tmp_path, args: tuple[str, ...] = ("--tools", "all")) -> None:
        import subprocess

        env = {**desktop.env, "XDG_RUNTIME_DIR": str(tmp_path / "runtime")}
        (tmp_path / "runtime").mkdir(mode=0o700, exist_ok=True)
        self.proc = subprocess.Popen(
            [WINCTL, "mcp", "--http", "--port", "0", *args], env=env, stderr=subprocess.PIPE, text=True
        )
        self.url, self.token, self.said = "", "", []
        assert self.proc.stderr is not None
        for line in self.proc.stderr:  # the address, then the token made at start
            self.said.append(line)
            if "serving streamable HTTP at " in line:
                self.url = line.split(" at ", 1)[1].strip()
            if "token (shown once): " in line:
                self.token = line.split(": ", 2)[2].strip()
            if self.url and (self.token or "--token-file" in args):
                break
        assert self.url, "".join(self.said)

    def close(self) -> str:
        """Stop the server; the rest of what it wrote to stderr."""
        self.proc.terminate()
        try:
            _, rest = self.proc.communicate(timeout=20)
        except Exception:
            self.proc.kill()
            _, rest = self.proc.communicate()
        return "".join(self.said) + (rest or "")


def run_http_client(url: str, token: str, script) -> Any:
    """Run `script(session)` on the SDK's streamable HTTP client, sending the bearer token."""
    from mcp.client.streamable_http import streamable_http_client
    from mcp.shared._httpx_utils import create_mcp_http_client

    async def main():
        http = create_mcp_http_client(headers={"Authorization": f"Bearer {token}"})
        async with http, streamable_http_client(url, http_client=http) as streams:
            read, write = streams[0], streams[1]
            async with ClientSession(read, write) as session:
                await session.initialize()
                return await script(session)

    return anyio.run(main)
