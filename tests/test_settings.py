"""The settings table: one parser with one kind of error, every read of a WINCTL_* variable
through it, and `winctl doctor` telling what is set.

The variables were read in some 25 files with four number parsers, and drifted: the read
budgets were documented for every platform and honoured on Linux only (a phone's state told
its user to raise WINCTL_MAX_NODES, which nothing there read), and WINCTL_DEBUG=0 turned
tracebacks on.
"""

from __future__ import annotations

import inspect
import re
from pathlib import Path

import pytest

from winactions import options, settings
from winactions.doctor import settings_checks
from winactions.errors import InvalidInput
from winactions.settings import BY_NAME, SETTINGS

SRC = Path(__file__).resolve().parents[1] / "src" / "winactions"
# A read of a WINCTL_* variable straight from the environment, bypassing the table.
DIRECT_READ = re.compile(r"""(environ(\.get)?\s*[(\[]|getenv\s*\()\s*["']WINCTL_""")
# Modules whose reads are wired to the table after they are split up (their own change).
NOT_YET_WIRED: set[str] = set()


def test_every_setting_is_named_once_and_says_what_it_does_and_where():
    assert len(BY_NAME) == len(SETTINGS)
    for setting in SETTINGS:
        assert re.fullmatch(r"WINCTL_[A-Z_]+", setting.name), setting.name
        assert setting.help and setting.reader and setting.where and setting.takes, setting.name
        assert setting.read({}) == setting.default
        assert setting.read({setting.name: "  "}) == setting.default, "blank is unset"


def test_no_module_reads_a_winctl_variable_but_through_the_table():
    direct = [
        str(path.relative_to(SRC)) for path in SRC.rglob("*.py") if DIRECT_READ.search(path.read_text(encoding="utf-8"))
    ]
    assert sorted(set(direct) - NOT_YET_WIRED) == []


def test_every_variable_the_code_names_is_a_setting():
    """A WINCTL_* name in the code (a read, a hint, a message) is one the table declares."""
    named = {m for path in SRC.rglob("*.py") for m in re.findall(r"WINCTL_[A-Z_]*[A-Z]", path.read_text("utf-8"))}
    named -= {"WINCTL_VISION"}  # `WINCTL_VISION_*`, the model's variables as a group
    assert sorted(named - set(BY_NAME)) == []


def test_the_global_options_variables_are_settings():
    for option in (*options.FLAG_OPTIONS, *options.VALUE_OPTIONS):
        assert option.env is None or option.env in BY_NAME, option.flag


def test_defaults_agree_with_the_constants_beside_their_readers():
    from winactions.backends.base import Backend
    from winactions.backends.linux.atspi import budget

    assert settings.STATE_SECONDS.default == budget.STATE_SECONDS
    assert inspect.signature(Backend.snapshot).parameters["max_nodes"].default == settings.MAX_NODES.default


@pytest.mark.parametrize(
    ("setting", "text", "message"),
    [
        (settings.MAX_NODES, "lots", "WINCTL_MAX_NODES='lots' is not a whole number"),
        (settings.MAX_NODES, "0", "WINCTL_MAX_NODES='0' must be 1 or more"),
        (settings.MAX_NODES, "2.5", "is not a whole number"),
        (settings.STATE_SECONDS, "0", "WINCTL_STATE_SECONDS='0' must be more than 0"),
        (settings.STATE_SECONDS, "soon", "WINCTL_STATE_SECONDS='soon' is not a number of seconds"),
        (settings.LOCATE_CACHE_TTL, "45", "WINCTL_LOCATE_CACHE_TTL='45' must lie between 0 and 30"),
        (settings.VISION_IOU, "nan", "must lie between 0 and 1"),
        (settings.LLM_TIMEOUT, "-1", "WINCTL_LLM_TIMEOUT='-1' must be more than 0"),
        (settings.LLM_PROVIDER, "gemini", "WINCTL_LLM_PROVIDER='gemini' is not one of anthropic, openai"),
    ],
)
def test_a_bad_value_is_refused_naming_the_variable_and_what_it_takes(setting, text, message):
    with pytest.raises(InvalidInput) as caught:
        setting.read({setting.name: text})
    assert message in caught.value.message
    assert caught.value.hint == (
        f"{setting.name} takes {setting.takes} (default {setting.default_text()}); set it right or unset it"
    )


def test_good_values_parse_to_their_type():
    assert settings.MAX_NODES.read({"WINCTL_MAX_NODES": " 500 "}) == 500
    assert settings.STATE_SECONDS.read({"WINCTL_STATE_SECONDS": "0.3"}) == 0.3
    assert settings.LOCATE_CACHE_TTL.read({"WINCTL_LOCATE_CACHE_TTL": "0"}) == 0.0
    assert settings.APPS.read({"WINCTL_APPS": f"/a{settings.os.pathsep}{settings.os.pathsep}/b"}) == ("/a", "/b")
    assert settings.LLM_PROVIDER.read({"WINCTL_LLM_PROVIDER": "openai"}) == "openai"
    assert settings.ASSETS.read({"WINCTL_ASSETS": "/lib"}) == "/lib"


@pytest.mark.parametrize(("text", "on"), [("1", True), ("yes", True), ("0", False), (" 0 ", False), ("", False)])
def test_a_flag_is_on_unless_blank_or_0(text, on):
    assert settings.NO_DAEMON.read({"WINCTL_NO_DAEMON": text}) is on
    assert settings.DEBUG.read({"WINCTL_DEBUG": text}) is on


@pytest.mark.parametrize(
    ("setting", "text"),
    [
        (settings.COMMAND_DEADLINE, "500"),
        (settings.COMMAND_DEADLINE, "soon"),
        (settings.IDLE_TIMEOUT, "never"),
        (settings.IDLE_TIMEOUT, "0"),
        (settings.VISION_BOX_UNITS, "inches"),
    ],
)
def test_a_setting_the_daemon_or_a_guess_reads_ignores_a_bad_value(setting, text):
    """Read where no one would see an error (a daemon starting) or beside a guess: the default
    applies, and doctor says so."""
    assert setting.falls_back and setting.read({setting.name: text}) == setting.default
    [check] = settings_checks({setting.name: text})
    assert check.status == "warn" and setting.name in check.detail and "the default" in check.detail


def test_a_value_given_by_flag_is_checked_against_the_same_range():
    assert settings.VISION_IOU.check(0.0) == 0.0
    with pytest.raises(InvalidInput, match=r"WINCTL_VISION_IOU must lie between 0 and 1, not 1\.5") as caught:
        settings.VISION_IOU.check(1.5)
    assert "0 to 1" in (caught.value.hint or "")


def test_doctor_shows_each_setting_set_with_its_effective_value():
    found = {
        c.name: c
        for c in settings_checks(
            {
                "WINCTL_STATE_SECONDS": "2",
                "WINCTL_MAX_NODES": "lots",
                "WINCTL_VISION_API_KEY": "sk-secret",
                "WINCTL_MAX_NODE": "5",
                "WINCTL_DEBUG": "",
                "PATH": "/bin",
            }
        )
    }
    assert set(found) == {
        "setting WINCTL_STATE_SECONDS",
        "setting WINCTL_MAX_NODES",
        "setting WINCTL_VISION_API_KEY",
        "setting WINCTL_MAX_NODE",
    }
    seconds = found["setting WINCTL_STATE_SECONDS"]
    assert seconds.status == "ok" and seconds.detail.startswith("2 seconds (default 4 seconds)")
    assert "honoured on Linux only" in seconds.detail
    nodes = found["setting WINCTL_MAX_NODES"]
    assert nodes.status == "fail" and "is not a whole number" in nodes.detail and "1 or more" in nodes.fix
    key = found["setting WINCTL_VISION_API_KEY"]
    assert key.status == "ok" and "sk-secret" not in key.detail + key.fix
    assert found["setting WINCTL_MAX_NODE"].status == "warn"


def test_doctor_says_when_no_setting_is_set():
    [check] = settings_checks({"PATH": "/bin"})
    assert check.status == "ok" and "every default applies" in check.detail
