"""Confined mode on the Windows backend (against the fake): an app is its process's name
(with or without .exe) or its window class; the gate asks the window under a point
(WindowFromPoint's root), the foreground window for keys, and an element's window."""

from __future__ import annotations

import pytest

from tests.windows.helpers import calc_ids, display


@pytest.fixture
def confined(tmp_path, monkeypatch):
    folder = tmp_path / "config" / "winactions"
    folder.mkdir(parents=True)
    (folder / "policy.toml").write_text('confine = true\ngrant = ["notepad"]\n')
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))


def test_an_ungranted_app_is_refused_by_id_by_window_and_at_a_point(winctl, fake, confined):
    winctl("focus", "Notepad")
    run = winctl("focus", "Calculator", expect=9)
    assert "CalculatorApp" in run.err and "request-access CalculatorApp" in run.err
    state = winctl("--json", "--window", "Calculator", "state", "--verbose").json["result"]
    seven = next(t for t in state["targets"] if t.get("automation_id") == "num7Button")
    run = winctl("--window", "Calculator", "click", str(seven["id"]), expect=9)
    assert "not granted" in run.err
    left, top, right, bottom = winctl("--json", "--window", "Calculator", "get", "rect", str(seven["id"])).json[
        "result"
    ]["value"]
    winctl("focus", "Notepad")
    winctl("click-at", str((left + right) // 2), str((top + bottom) // 2), expect=9)
    assert display(fake) == "Display is 0" and not fake.sent


def test_a_granted_app_works_as_before(winctl, fake, confined, tmp_path):
    (tmp_path / "config" / "winactions" / "policy.toml").write_text('confine = true\ngrant = ["calculatorapp"]\n')
    ids = calc_ids(winctl)
    for key in ("num7Button", "plusButton", "num8Button", "equalButton"):
        winctl("click", str(ids[key]))
    assert display(fake) == "Display is 15"
