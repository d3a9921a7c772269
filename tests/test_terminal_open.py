"""`open-terminal` with a command that ends at once: the terminal's window can appear and go
while its elements are read. That is the command ending, reported as such (exit 4), never as
"the app quit while its window's elements were read" (exit 3). Seen once in a full run:
tests/e2e/test_terminal.py::test_open_terminal_refuses_a_program_not_on_path with `true`."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from winactions.commands import terminal
from winactions.commands.results import WindowResult
from winactions.errors import ActionFailed, WindowClosed
from winactions.model import WindowInfo

WINDOW = WindowInfo(id="0x1", title="winctl: true", pid=999_999_999)
GONE = "the app quit while its window's elements were read (1 asked, 1 of them lost): a partial list is not shown"


class GoneWhileRead:
    """A backend whose terminal window vanishes on the first read."""

    def __init__(self) -> None:
        self.reads = 0

    def terminal_command(self, argv: list[str], title: str) -> list[str]:
        return ["lxterminal", "-e", *argv]

    def snapshot(self, window: WindowInfo) -> Any:
        self.reads += 1
        raise WindowClosed(GONE)


def opened(detail: str):
    def launch(ctx: Any, params: Any) -> WindowResult:
        return WindowResult(action="launched", window=WINDOW, detail=detail)

    return launch


def test_a_window_gone_while_read_is_the_command_ending(monkeypatch):
    monkeypatch.setattr(terminal, "launch", opened("pid 999999999"))
    backend = GoneWhileRead()
    ctx = SimpleNamespace(session=SimpleNamespace(backend=backend))
    params = terminal.OpenTerminalParams(agent="custom", command="true")
    with pytest.raises(ActionFailed) as failed:
        terminal.open_terminal(ctx, params)  # type: ignore[arg-type]
    assert "true may have ended at once (the terminal closes when its command ends)" in failed.value.message
    assert GONE in failed.value.message
    assert backend.reads == 1


def test_a_terminal_process_gone_before_its_screen_showed_is_the_command_ending(monkeypatch):
    monkeypatch.setattr(terminal, "launch", opened("pid 999999999"))
    monkeypatch.setattr(terminal, "_terminal", lambda backend, window, deadline: SimpleNamespace(handle="h"))
    monkeypatch.setattr(terminal, "_read", lambda backend, node: None)
    ctx = SimpleNamespace(session=SimpleNamespace(backend=GoneWhileRead()))
    params = terminal.OpenTerminalParams(agent="custom", command="true")
    with pytest.raises(ActionFailed, match=r"the terminal closed: true may have ended at once"):
        terminal.open_terminal(ctx, params)  # type: ignore[arg-type]
