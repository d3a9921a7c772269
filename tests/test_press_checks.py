"""The name read right before a press: an app still busy with the act before it (Qt opening a
combo box's popup) is asked again, not reported busy at once. Seen on Qt Linguist under load:
`select` failed with "no reply for 0.3 s" before pressing anything
(tests/e2e/test_toolkit_qt.py::test_a_qt6_combo_box_option_reaches_the_app, once in a full run)."""

from __future__ import annotations

import pytest

from winactions import execution
from winactions.errors import AppBusy


def watch_busy_for(times: int, name: str = "French (français)"):
    calls = []

    def watch() -> tuple[str | None, list[str]]:
        calls.append(1)
        if len(calls) <= times:
            raise AppBusy("the app stopped answering accessibility requests: no reply for 0.3 s")
        return name, []

    return watch, calls


def test_a_moment_of_busyness_before_the_press_is_waited_out():
    watch, calls = watch_busy_for(2)
    assert execution._name_before_press(watch) == "French (français)"
    assert len(calls) == 3


def test_an_app_busy_past_the_limit_is_reported_busy(monkeypatch):
    monkeypatch.setattr(execution, "BUSY_BEFORE_PRESS", 0.3)
    watch, calls = watch_busy_for(10**6)
    with pytest.raises(AppBusy, match="no reply"):
        execution._name_before_press(watch)
    assert 2 <= len(calls) < 10  # asked again a few times, then gave up: nothing was pressed
