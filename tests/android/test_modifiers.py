"""A phone has no keys to hold during a tap: clicks with modifiers are refused before adb is
asked to do anything, and keys cannot be left down."""

from __future__ import annotations

from tests.android.conftest import Phone
from tests.android.helpers import ids


def test_a_tap_with_modifiers_is_refused_and_nothing_reaches_the_phone(phone: Phone) -> None:
    forms = ids(phone.winctl("state").out)["Button Forms"]
    for args in (("click-at", "540", "2273", "--modifiers", "shift"), ("click", str(forms), "--modifiers", "ctrl")):
        run = phone.winctl("--json", *args)
        assert run.code != 0, run.out
        error = run.json["error"]
        assert error["code"] == "unsupported" and "cannot hold" in error["message"], error
    held = phone.winctl("--json", "key-down", "shift")
    assert held.code != 0 and "hold" in held.json["error"]["message"], held.out
    assert phone.inputs() == []
