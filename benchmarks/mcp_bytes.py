"""Benchmark: bytes of an MCP tool result, per part, on a real app (Mousepad) over stdio.

    .venv/bin/python benchmarks/mcp_bytes.py [--app mousepad|geany] [--structured]

Starts `winctl mcp` with the official SDK's client, as an MCP host does, and calls `state`,
`click` (the text area) and `input ... return_state` (the text area). For each result it prints
the bytes of the text content, of `structuredContent` (as JSON) and of the whole result as
sent on the wire. `--structured` serves `winctl mcp --structured` (JSON for programs too).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import anyio
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from winactions.backends.linux.virtual_desktop import VirtualDesktop  # noqa: E402

WINCTL = str(Path(sys.executable).with_name("winctl"))


def sizes(result: Any) -> dict[str, int]:
    text = sum(len(c.text.encode()) for c in result.content if c.type == "text")
    structured = (
        len(json.dumps(result.structured_content, ensure_ascii=False).encode())
        if result.structured_content is not None
        else 0
    )
    wire = len(result.model_dump_json(by_alias=True, exclude_none=True).encode())
    return {"text": text, "structured": structured, "wire": wire}


APPS = {"mousepad": ["mousepad", "--disable-server"], "geany": ["geany", "--new-instance", "--no-session"]}


def text_area(state_text: str) -> str:
    found = re.search(r"^\s*\[(\d+)\] \[Edit\]", state_text, re.M)
    if found is None:
        raise LookupError(f"no text area in:\n{state_text}")
    return found.group(1)


async def calls(params: StdioServerParameters, title: str) -> list[tuple[str, dict[str, int]]]:
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        await session.call_tool("focus", {"window": title})
        state = await session.call_tool("state", {})
        edit = text_area(state.content[0].text)
        click = await session.call_tool("click", {"id": int(edit)})
        typed = await session.call_tool("input", {"id": int(edit), "text": "hello bytes", "return_state": True})
        return [("state", sizes(state)), ("click", sizes(click)), ("input return_state", sizes(typed))]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--structured", action="store_true")
    parser.add_argument("--app", choices=sorted(APPS), default="mousepad")
    args = parser.parse_args()
    with VirtualDesktop() as desk, tempfile.TemporaryDirectory() as home:
        env = {**desk.env, "XDG_RUNTIME_DIR": home, "HOME": home}
        doc = Path(home) / "bytes.txt"
        doc.write_text("")
        app = subprocess.Popen(
            [*APPS[args.app], str(doc)], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        try:
            time.sleep(3)
            os.environ.update(env)
            argv = ["mcp", "--tools", "all", *(["--structured"] if args.structured else [])]
            rows = anyio.run(calls, StdioServerParameters(command=WINCTL, args=argv, env=env), "bytes.txt")
        finally:
            app.terminate()
            try:
                app.wait(5)
            except subprocess.TimeoutExpired:  # Geany asks whether to save the changed document
                app.kill()
                app.wait()
    print(f"{'call':<20} {'text':>7} {'structured':>11} {'wire':>7}")
    for name, size in rows:
        print(f"{name:<20} {size['text']:>7} {size['structured']:>11} {size['wire']:>7}")


if __name__ == "__main__":
    main()
