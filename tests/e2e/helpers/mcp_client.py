"""`winctl mcp` driven by the official MCP SDK's own client over stdio."""

from __future__ import annotations

from typing import Any

import anyio
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

from tests.e2e.helpers.runners import WINCTL

TITLE = "MCP Fixture"  # the GTK fixture app's title in the MCP tests (the `mcp_app` fixture)


def run_client(desktop, tmp_path, script, args: tuple[str, ...] = ("mcp", "--tools", "all", "--structured")) -> Any:
    """Start `winctl mcp` (every tool, with results as JSON too, unless `args` says otherwise)
    as the SDK starts any stdio server and run `script(session)`."""
    env = {**desktop.env, "XDG_RUNTIME_DIR": str(tmp_path / "runtime")}
    (tmp_path / "runtime").mkdir(mode=0o700, exist_ok=True)
    params = StdioServerParameters(command=WINCTL, args=list(args), env=env)

    async def main():
        async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            return await script(session)

    return anyio.run(main)
