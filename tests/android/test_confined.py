"""Confined mode on a phone (the fake device): the app is the package in front, which owns the
whole screen; HOME is a system key. What reached the phone is read from the fake's record."""

from __future__ import annotations

from pathlib import Path

from tests.android.conftest import Phone
from tests.android.helpers import ids


def _policy(tmp_path: Path, body: str) -> dict[str, str]:
    folder = tmp_path / "config" / "winactions"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "policy.toml").write_text(body)
    return {"XDG_CONFIG_HOME": str(tmp_path / "config")}


def test_a_phone_app_not_granted_is_refused_and_a_granted_one_is_driven(phone: Phone, tmp_path: Path) -> None:
    env = _policy(tmp_path, 'confine = true\ngrant = ["com.android.settings"]\n')
    forms = ids(phone.winctl("state", env=env).out)["Button Forms"]
    run = phone.winctl("click", str(forms), env=env)
    assert run.code == 9 and "com.wdiodemoapp" in run.err, run.err
    run = phone.winctl("go-home", env=env)
    assert run.code == 9 and "system-keys" in run.err, run.err
    assert phone.inputs() == []
    env = _policy(tmp_path, 'confine = true\ngrant = ["com.wdiodemoapp"]\n')
    assert phone.winctl("click", str(forms), env=env).code == 0
    assert phone.inputs() == [["input", "tap", "540", "2273"]]
