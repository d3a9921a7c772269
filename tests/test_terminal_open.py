"""`open-terminal` with a command that ends at once: the terminal's window can appear and go
while its elements are read. That is the command ending, reported as such (exit 4), never as
"the app quit while its window's elements were read" or "exposes no accessibility tree"
(exit 3). Both seen once each in full runs of
tests/e2e/test_terminal.py::test_open_terminal_refuses_a_program_not_on_path with `true`.
A terminal still running when its read fails gets the read's own error."""

from __future__ import annotations

import os
from types import SimpleNamespace
from typing import Any

import pytest

from winactions.commands import terminal
from winactions.commands.results import WindowResult
from winactions.errors import ActionFailed, NotFound, WindowClosed
from winactions.model import WindowInfo

WINDOW = WindowInfo(id="0x1", title="winctl: true", pid=999_999_999)
GONE = "the app quit while its window's elements were read (1 asked, 1 of them lost): a partial list is not shown"


NO_TREE = 'window "winctl: true" exposes no accessibility tree'


class GoneWhileRead:
    """A backend whose terminal window fails its first read with `error`."""

    def __init__(self, error: Exception | None = None) -> None:
        self.reads = 0
        self.error = error or WindowClosed(GONE)

    def terminal_command(self, argv: list[str], title: str) -> list[str]:
        return ["lxterminal", "-e", *argv]

    def snapshot(self, window: WindowInfo) -> Any:
        self.reads += 1
        raise self.error


def opened(detail: str):
    def launch(ctx: Any, params: Any) -> WindowResult:
        return WindowResult(action="launched", window=WINDOW, detail=detail)

    return launch


@pytest.mark.parametrize("error", [WindowClosed(GONE), NotFound(NO_TREE)], ids=["gone", "no-tree"])
def test_a_read_that_fails_once_the_terminal_ended_is_the_command_ending(monkeypatch, error):
    monkeypatch.setattr(terminal, "launch", opened("pid 999999999"))  # no such process: it ended
    backend = GoneWhileRead(error)
    ctx = SimpleNamespace(session=SimpleNamespace(backend=backend))
    params = terminal.OpenTerminalParams(agent="custom", command="true")
    with pytest.raises(ActionFailed) as failed:
        terminal.open_terminal(ctx, params)  # type: ignore[arg-type]
    assert "true may have ended at once (the terminal closes when its command ends)" in failed.value.message
    assert error.message in failed.value.message
    assert backend.reads == 1


def test_a_read_that_fails_while_the_terminal_runs_is_that_failure(monkeypatch):
    monkeypatch.setattr(terminal, "launch", opened(f"pid {os.getpid()}"))  # this process: still running
    monkeypatch.setattr(terminal, "ENDS_WITHIN", 0.3)
    ctx = SimpleNamespace(session=SimpleNamespace(backend=GoneWhileRead(NotFound(NO_TREE))))
    params = terminal.OpenTerminalParams(agent="custom", command="true")
    with pytest.raises(NotFound, match="exposes no accessibility tree"):
        terminal.open_terminal(ctx, params)  # type: ignore[arg-type]


def test_a_terminal_process_gone_before_its_screen_showed_is_the_command_ending(monkeypatch):
    monkeypatch.setattr(terminal, "launch", opened("pid 999999999"))
    monkeypatch.setattr(terminal, "_terminal", lambda backend, window, deadline: SimpleNamespace(handle="h"))
    monkeypatch.setattr(terminal, "_read", lambda backend, node: None)
    ctx = SimpleNamespace(session=SimpleNamespace(backend=GoneWhileRead()))
    params = terminal.OpenTerminalParams(agent="custom", command="true")
    with pytest.raises(ActionFailed, match=r"the terminal closed: true may have ended at once"):
        terminal.open_terminal(ctx, params)  # type: ignore[arg-type]
