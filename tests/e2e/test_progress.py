"""Progress on long work (issue 16.4): on a terminal's stderr (through the daemon and in
one process), never on a pipe, and as MCP progress notifications when the client asks."""

from __future__ import annotations

import os
import pty
import select
import subprocess
import sys
import time
from pathlib import Path

import anyio
import pytest
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

from tests.conftest import start_app, stop_app
from tests.fixtures.launch import gtk_fixture_command

pytestmark = pytest.mark.desktop
WINCTL = str(Path(sys.executable).with_name("winctl"))
TITLE = "Progress Fixture"


@pytest.fixture
def env(desktop, tmp_path):
    log = tmp_path / "events.jsonl"
    proc = start_app(desktop, gtk_fixture_command(str(log), rows=20, title=TITLE), TITLE)
    runtime = tmp_path / "runtime"
    runtime.mkdir(mode=0o700)
    environment = {**desktop.env, "XDG_RUNTIME_DIR": str(runtime), "WINCTL_SESSION": "progress"}
    subprocess.run([WINCTL, "--no-daemon", "focus", TITLE], env=environment, check=True, capture_output=True)
    yield environment
    subprocess.run([WINCTL, "session", "close", "--all"], env=environment, capture_output=True)
    stop_app(proc)


def on_terminal(environment: dict[str, str], *args: str) -> tuple[int, str, str]:
    """Run winctl with stderr on a pseudo-terminal (as in an interactive shell), stdout on a pipe."""
    master, slave = pty.openpty()
    proc = subprocess.Popen([WINCTL, *args], env=environment, stdout=subprocess.PIPE, stderr=slave)
    os.close(slave)
    seen = b""
    while True:
        ready, _, _ = select.select([master], [], [], 0.2)
        if ready:
            try:
                chunk = os.read(master, 4096)
            except OSError:  # the child closed its end
                break
            if not chunk:
                break
            seen += chunk
        elif proc.poll() is not None:
            break
    os.close(master)
    out = proc.stdout.read().decode() if proc.stdout else ""
    return proc.wait(timeout=30), out, seen.decode(errors="replace")


@pytest.mark.parametrize("mode", [(), ("--no-daemon",)], ids=["daemon", "one-process"])
def test_long_work_shows_its_step_and_time_on_a_terminal(env, mode):
    code, _out, err = on_terminal(env, *mode, "wait", "--text", "never shown here", "--timeout", "3")
    assert code != 0 and 'waiting for the text "never shown here"' in err and "(2s)" in err
    progress_end = err.rindex("\x1b[K")  # the progress line is cleared before the error is printed
    assert "error: no element shows" in err[progress_end:]


def test_the_locator_chain_says_which_strategy_it_is_trying(env):
    code, _, err = on_terminal(env, "--no-daemon", "click", "Nosuchbutton")
    assert code != 0
    assert "locate Nosuchbutton: trying ocr" in err and "no element of the window is named" in err


def test_no_progress_on_a_pipe(env):
    done = subprocess.run(
        [WINCTL, "wait", "--text", "never shown here", "--timeout", "2"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode != 0 and "waiting for" not in done.stderr and "\x1b" not in done.stderr


def test_mcp_progress_notifications_when_the_client_asks(env):
    received: list[tuple[float, str | None]] = []

    async def on_progress(progress: float, total: float | None, message: str | None) -> None:
        received.append((progress, message))

    async def main():
        params = StdioServerParameters(command=WINCTL, args=["mcp"], env=env)
        async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            await session.call_tool("focus", {"window": TITLE})
            started = time.monotonic()
            result = await session.call_tool(
                "wait", {"text": "never shown here", "timeout": 3}, progress_callback=on_progress
            )
            quiet = len(received)
            await session.call_tool("wait", {"text": "never shown here", "timeout": 2})  # no token: nothing
            return result, time.monotonic() - started, quiet

    result, _took, quiet = anyio.run(main)
    assert result.is_error and "no element shows" in result.content[0].text
    assert quiet >= 2 and len(received) == quiet
    assert all(m and 'waiting for the text "never shown here"' in m for _, m in received), received
    assert [p for p, _ in received] == sorted(p for p, _ in received) and received[0][0] >= 1.0
