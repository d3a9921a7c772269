"""`progress.interruptible`: work that changes nothing (a model's answer) is left behind the
moment its caller cancels, instead of holding the call until it ends."""

from __future__ import annotations

import threading

import pytest

from winactions import progress
from winactions.errors import Cancelled


def test_unwatched_work_runs_in_the_callers_thread():
    assert progress.interruptible(threading.current_thread, "reading") is threading.current_thread()


def test_a_cancel_returns_while_the_work_is_still_running():
    release, cancel = threading.Event(), threading.Event()
    threading.Timer(0.2, cancel.set).start()
    with progress.watching(None, cancel=cancel.is_set), pytest.raises(Cancelled) as raised:
        progress.interruptible(lambda: release.wait(30), "while waiting for the model (m)")
    assert not release.is_set()  # the work was still waiting: the call did not wait for it
    release.set()
    assert str(raised.value).startswith("cancelled while waiting for the model (m)")


def test_an_answer_and_an_error_come_back_as_they_are():
    with progress.watching(None, cancel=lambda: False):
        assert progress.interruptible(lambda: 42, "x") == 42
        with pytest.raises(ZeroDivisionError):
            progress.interruptible(lambda: 1 / 0, "x")


def test_a_call_cancelled_before_it_starts_never_starts_the_work():
    started = threading.Event()
    with progress.watching(None, cancel=lambda: True), pytest.raises(Cancelled):
        progress.interruptible(started.set, "before asking")
    assert not started.is_set()
