"""The daemon and the MCP server on the Windows backend, each in a process of its own that
loads the fake Native layer by name (WINACTIONS_WINDOWS_NATIVE), as a real one would load
win32.py: one desktop per process, kept for the session's lifetime."""

from __future__ import annotations

import json
import subprocess

import anyio
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

from tests.windows.helpers import WINCTL, windows_env


def test_a_daemon_session_keeps_one_windows_desktop_between_calls(tmp_path):
    env = windows_env(tmp_path)

    def winctl(*args: str) -> str:
        done = subprocess.run([WINCTL, "--session", "win", *args], env=env, capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done.stderr
        return done.stdout

    try:
        winctl("focus", "Calculator")
        state = json.loads(winctl("--json", "state", "--verbose"))["result"]
        ids = {t.get("automation_id"): t["id"] for t in state["targets"] if t.get("automation_id")}
        for key in ("num6Button", "multiplyButton", "num7Button", "equalButton"):
            assert "via Invoke.Invoke" in winctl("click", str(ids[key]))
        assert '"Display is 42"' in winctl("state"), "the daemon's fake app kept its state across calls"
    finally:
        subprocess.run([WINCTL, "session", "close", "win"], env=env, capture_output=True, timeout=30)


def test_the_mcp_server_serves_the_windows_backend(tmp_path):
    params = StdioServerParameters(command=WINCTL, args=["mcp", "--tools", "all"], env=windows_env(tmp_path))

    async def main():
        async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            await session.call_tool("focus", {"window": "Notepad"})
            state = await session.call_tool("state", {})
            text = state.content[0].text
            doc = next(line for line in text.splitlines() if '"Text editor"' in line)
            doc_id = int(doc.split("]")[0].lstrip("["))
            await session.call_tool("input", {"id": doc_id, "text": "from MCP"})
            read_back = await session.call_tool("get_text", {"id": doc_id})
            bound = await session.call_tool("bind_window", {"action": "bind"})
            return read_back.content[0].text, bound.content[0].text

    text, bound = anyio.run(main)
    assert text.strip() == "from MCP"
    assert bound.startswith("bind: bound to") and "Notepad" in bound


def test_a_daemon_session_binds_by_pid_and_sends_ctrl_s_in_the_background(tmp_path):
    """The daemon's own fake desktop: Notepad's accelerator opens its Save As dialog, which
    `windows` then lists as a second window of Notepad's process."""
    env = windows_env(tmp_path)

    def winctl(*args: str, code: int = 0) -> subprocess.CompletedProcess[str]:
        done = subprocess.run([WINCTL, "--session", "winb", *args], env=env, capture_output=True, text=True, timeout=60)
        assert done.returncode == code, done.stderr
        return done

    try:
        assert "Notepad" in winctl("bind-window", "bind", "--pid", "4242").stdout
        winctl("keys", "ctrl+s")
        assert "Save As" in winctl("windows").stdout
        run = winctl("bind-window", "bind", "--pid", "4242", code=3)
        assert "has 2 windows" in run.stderr and "Save As" in run.stderr
    finally:
        subprocess.run([WINCTL, "session", "close", "winb"], env=env, capture_output=True, timeout=30)


def test_the_mcp_server_launches_into_bound_mode(tmp_path):
    params = StdioServerParameters(command=WINCTL, args=["mcp", "--tools", "all"], env=windows_env(tmp_path))

    async def main():
        async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            launched = await session.call_tool("launch", {"command": ["notepad.exe"], "bind": True})
            status = await session.call_tool("bind_window", {"action": "status"})
            return launched.content[0].text, status.content[0].text

    launched, status = anyio.run(main)
    assert "bound: input goes to it by window messages" in launched
    assert status.startswith("status: bound to") and "Notepad" in status and "pid 7000" in launched
