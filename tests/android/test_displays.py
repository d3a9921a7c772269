"""A phone has one display: `displays` lists it, `switch-display 0` works and changes no
coordinate (its origin is the screen's), any other is refused."""

from __future__ import annotations

from tests.android.conftest import Phone


def test_the_phone_is_one_display(phone: Phone) -> None:
    listed = phone.winctl("--json", "displays")
    assert listed.code == 0, listed.err
    (only,) = listed.json["result"]["displays"]
    assert only["index"] == 0 and only["primary"] and only["rect"][:2] == [0, 0]
    before = phone.winctl("--json", "state", "--verbose").json["result"]["targets"]
    assert phone.winctl("switch-display", "0").code == 0
    after = phone.winctl("--json", "state", "--verbose").json["result"]
    assert [t["rect"] for t in after["targets"]] == [t["rect"] for t in before]
    assert after["display"]["index"] == 0
    refused = phone.winctl("switch-display", "1")
    assert refused.code == 2 and "there is no display 1" in refused.err
