"""A session recorded and replayed through the Windows backend (the fake's UIA patterns say
what reached the app): the record names the element, not only its id, and the replay
computes again on a fresh calculator."""

from __future__ import annotations

import json

from tests.fixtures.windows.fake_native import FakeNative, load_app
from tests.windows.helpers import calc_ids, display


def test_a_recorded_calculation_replays_on_a_new_calculator(winctl, fake, tmp_path, monkeypatch):
    folder = tmp_path / "record"
    winctl("record", "start", str(folder))
    ids = calc_ids(winctl)
    for key in ("num7Button", "plusButton", "num8Button", "equalButton"):
        winctl("click", str(ids[key]))
    assert display(fake) == "Display is 15"
    assert "stopped" in winctl("record", "stop").out
    lines = [json.loads(line) for line in (folder / "session.jsonl").read_text().splitlines()]
    clicks = [line for line in lines if line.get("command") == "click"]
    assert len(clicks) == 4 and all(c["element"]["name"] for c in clicks), clicks
    assert all(c.get("before") and c.get("after") for c in clicks)  # PrintWindow's pictures, kept

    fresh = FakeNative([load_app("calculator")])  # the app started again: new elements, new ids
    monkeypatch.setattr("winactions.backends.windows.backend.load_native", lambda: fresh)
    winctl("session", "close", "default")  # the ids it gave are the old calculator's
    winctl("focus", "Calculator")
    replayed = winctl("replay", str(folder), expect=None)
    assert replayed.code == 0, replayed.out + replayed.err
    assert display(fresh) == "Display is 15"
