"""The rules that keep one long input from holding a session: the typing budget, and a
daemon's deadline that tells a command that never started from one still running."""

from __future__ import annotations

import threading
from typing import Any

import pytest

from winactions.daemon.server import COMMAND_DEADLINE, Call, Daemon, command_deadline
from winactions.errors import InvalidInput
from winactions.text_entry import TYPING_LIMIT, check_typing_budget, typing_limit


def test_the_typing_budget_defaults_and_is_read_from_the_environment(monkeypatch):
    monkeypatch.delenv("WINCTL_TYPING_LIMIT", raising=False)
    assert typing_limit() == TYPING_LIMIT
    check_typing_budget("a" * TYPING_LIMIT)
    with pytest.raises(InvalidInput, match="10,001 characters is more than one command types"):
        check_typing_budget("a" * (TYPING_LIMIT + 1))
    monkeypatch.setenv("WINCTL_TYPING_LIMIT", "5")
    with pytest.raises(InvalidInput, match="nothing was typed"):
        check_typing_budget("abcdef")


@pytest.mark.parametrize("value", ["many", "0", "-3", "1.5"])
def test_a_bad_typing_budget_is_refused_plainly(monkeypatch, value):
    monkeypatch.setenv("WINCTL_TYPING_LIMIT", value)
    with pytest.raises(InvalidInput, match="WINCTL_TYPING_LIMIT"):
        typing_limit()


@pytest.mark.parametrize(
    ("told", "seconds"),
    [
        (None, COMMAND_DEADLINE),
        ("", COMMAND_DEADLINE),
        ("5", 5.0),
        ("500", COMMAND_DEADLINE),
        ("-1", COMMAND_DEADLINE),
        ("soon", COMMAND_DEADLINE),
    ],
)
def test_the_command_deadline_can_only_be_shortened(told, seconds):
    assert command_deadline(told) == seconds


class Blocking(Daemon):
    """A daemon whose commands run until released, and which counts what it ran."""

    def __init__(self) -> None:
        super().__init__("unit", idle_timeout=60)
        self.deadline = 0.3
        self.release = threading.Event()
        self.ran: list[list[str]] = []

    def execute(self, call: Call) -> dict[str, Any]:
        self.ran.append(list(call.argv or []))
        self.release.wait(10)
        return {"exit": 0, "stdout": "done\n", "stderr": ""}


def test_a_queued_command_is_told_it_never_started_and_is_never_run():
    """A batch queued behind a long command was reported "ran longer than 120s" though it never
    started, and a queued command whose client had given up could run later."""
    daemon = Blocking()
    worker = threading.Thread(target=daemon.worker, daemon=True)
    worker.start()
    first: dict[str, Any] = {}
    try:
        running = threading.Thread(target=lambda: first.update(daemon._operate({"op": "run", "argv": ["long"]})))
        running.start()
        while not daemon.busy:
            threading.Event().wait(0.01)
        queued = daemon._operate({"op": "run", "argv": ["click", "3"]})
        assert queued["exit"] == 6 and "never started; it was not run" in queued["stderr"], queued
        running.join(5)
        assert "is still running after 0s" in first["stderr"], first
        called = daemon._operate({"op": "call", "command": "state", "args": {}, "options": {}})
        assert called["error"]["code"] == "timeout" and "never started" in called["error"]["message"]
        daemon.release.set()
        daemon.release = threading.Event()
        while daemon.busy or not daemon.jobs.empty():
            threading.Event().wait(0.01)
        assert daemon.ran == [["long"]]  # neither queued command ran once the long one ended
    finally:
        daemon.release.set()
        daemon.stopping.set()
        worker.join(5)
