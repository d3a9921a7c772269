"""The runner's phone rows on the fake device: Back to the app's home, the soft keyboard put
away before a tap it covers, a step's timeout waiting for a screen still coming, the next
candidate after a tap that changed nothing, and the verifier's WAIT and SKIP (the scripted
model server plays the verifier). The witness is what reached the "device": its input
commands and the screen it shows afterwards."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.android.conftest import Phone
from tests.fixtures.android.fake_device import Screen
from tests.fixtures.llm_server import API_KEY, LLMServer
from winactions import Desktop
from winactions.agent.plan import TaskPlan
from winactions.agent.runner import RunOptions, StepStatus, TaskRunner, TaskStatus
from winactions.llm.config import LLMFlags

LOGIN_BUTTON = (277, 1449, 802, 1580)  # "button-LOGIN" in wdio_login.xml
LOGIN_TAB_TEXT = (318, 546, 473, 631)  # the Text "Login" of the login/sign-up switch
# Gboard's window, as a dump taken with the keyboard up carries it (Android 11+ dumps every
# interactive window: the input method's is a second root, its keys with the IME's resource
# ids). Built here over the real login dump: no such dump of this app was published.
KEYBOARD = (
    '<node index="0" text="" resource-id="com.google.android.inputmethod.latin:id/keyboard_holder" '
    'class="android.widget.FrameLayout" package="com.google.android.inputmethod.latin" content-desc="" '
    'checkable="false" checked="false" clickable="false" enabled="true" focusable="false" focused="false" '
    'scrollable="false" long-clickable="false" password="false" selected="false" bounds="[0,1400][1080,2340]">'
    + "".join(
        f'<node index="{i}" text="" resource-id="com.google.android.inputmethod.latin:id/key_pos_{i}" '
        f'class="android.widget.FrameLayout" package="com.google.android.inputmethod.latin" content-desc="{k}" '
        'checkable="false" checked="false" clickable="true" enabled="true" focusable="false" focused="false" '
        f'scrollable="false" long-clickable="false" password="false" selected="false" bounds="{b}" />'
        for i, (k, b) in enumerate(
            (("q", "[0,1420][108,1560]"), ("p", "[972,1420][1080,1560]"), ("space", "[270,2100][810,2240]"))
        )
    )
    + "</node>"
)


@pytest.fixture
def server() -> Iterator[LLMServer]:
    with LLMServer() as s:
        yield s


def flags(server: LLMServer) -> LLMFlags:
    return LLMFlags(provider="openai", base_url=server.openai_url, api_key=API_KEY, model="scripted")


def module(folder: Path, **home: object) -> str:
    """An app module for the demo app, its home marker the login screen's title."""
    (folder / "wdio").mkdir(parents=True)
    config = {"name": "wdio", "packages": ["com.wdiodemoapp"], "keywords": ["wdio"], "home": home}
    (folder / "wdio" / "config.yaml").write_text(json.dumps(config))
    return str(folder)


def run(phone: Phone, steps: list[dict], task: str = "a wdio task", success: dict | None = None, **options: object):
    """The plan run on the phone; `success` is its criteria (none: the run is at best unverified)."""
    plan = TaskPlan.model_validate({"steps": steps, **({"success": success} if success else {})})
    with Desktop("runner-phone", device=phone.serial) as desktop:
        runner = TaskRunner(desktop, RunOptions(pixels=False, use_templates=False, **options))  # type: ignore[arg-type]
        return runner.run(task, plan)


def ran_unchecked(result) -> bool:
    """Every step done, and the task honestly unverified: its plan names no criteria."""
    done = all(r.status in (StepStatus.SUCCESS, StepStatus.SKIPPED) for r in result.step_results)
    return done and result.status is TaskStatus.UNVERIFIED and "the plan names none" in result.error


LOGIN_HOME = {"appears": "Login / Sign up Form"}  # the app's home screen
FORMS_SHOWN = {"appears": "Form components"}  # the screen a login tap opens


def taps(phone: Phone) -> list[tuple[int, int]]:
    return [(int(c[2]), int(c[3])) for c in phone.inputs() if c[:2] == ["input", "tap"]]


def keys(phone: Phone) -> list[str]:
    return [c[-1] for c in phone.inputs() if c[:2] == ["input", "keyevent"]]


def inside(point: tuple[int, int], box: tuple[int, int, int, int]) -> bool:
    return box[0] <= point[0] < box[2] and box[1] <= point[1] < box[3]


def test_go_home_presses_back_until_the_apps_home_shows_and_home_only_when_asked(session_env, tmp_path):
    phone = session_env
    phone.state.current = "forms"
    phone.state.screens["forms"].back = "login"
    apps = module(tmp_path / "apps", marker="Login / Sign up Form")
    result = run(phone, [{"step": 1, "action": "go_home", "wait_after": 0}], apps=[apps], success=LOGIN_HOME)
    assert result.ok, result.error
    assert result.module == "wdio"
    assert keys(phone) == ["KEYCODE_BACK"] and phone.state.current == "login"  # Back once, no HOME

    phone.state.current = "forms"
    result = run(phone, [{"step": 1, "action": "go_home", "params": {"launcher": True}}], apps=[apps])
    assert ran_unchecked(result), result.error
    back, *home = keys(phone)[1:]  # Back to the app's home, then the table's go-home (HOME)
    assert back == "KEYCODE_BACK" and home and set(home) == {"KEYCODE_HOME"} and phone.state.current == "launcher"


def test_go_home_fails_when_back_never_reaches_the_marker(session_env, tmp_path):
    phone = session_env
    phone.state.current = "forms"  # Back changes nothing here
    apps = module(tmp_path / "apps", marker="Login / Sign up Form", limit=3)
    result = run(phone, [{"step": 1, "action": "go_home"}], apps=[apps], max_replans=0)
    assert not result.ok and "'Login / Sign up Form' not seen after 3 presses of back" in result.error
    assert keys(phone) == ["KEYCODE_BACK"] * 3


def test_the_soft_keyboard_over_the_target_is_put_away_with_back_first(session_env):
    phone = session_env
    screens = phone.state.screens
    login = screens["login"]
    screens["login_kb"] = Screen(
        login.dump.replace("</hierarchy>", KEYBOARD + "</hierarchy>"), login.package, login.activity, back="login"
    )
    login.taps = {LOGIN_BUTTON: "forms"}
    phone.state.current = "login_kb"
    step = {"step": 1, "action": "tap", "target_ref": "button-LOGIN", "expect": {"appears": "Form components"}}
    result = run(phone, [step], success=FORMS_SHOWN)
    assert result.ok, result.error
    assert phone.state.current == "forms"
    assert keys(phone) == ["KEYCODE_BACK"] and len(taps(phone)) == 1 and inside(taps(phone)[0], LOGIN_BUTTON)
    (dismissal,) = result.step_results[0].dismissals
    assert dismissal["blocker"]["type"] == "keyboard" and dismissal["method"] == "keys: back" and dismissal["cleared"]


def test_a_step_waits_up_to_its_timeout_for_a_target_still_coming(session_env):
    phone = session_env
    phone.state.current = "forms"
    timer = threading.Timer(1.2, lambda: setattr(phone.state, "current", "login"))  # the screen comes late
    timer.start()
    try:
        result = run(phone, [{"step": 1, "action": "tap", "target_ref": "button-LOGIN", "timeout": 8000}])
    finally:
        timer.cancel()
    assert ran_unchecked(result), result.error
    assert len(taps(phone)) == 1 and inside(taps(phone)[0], LOGIN_BUTTON)

    phone.state.current = "forms"  # never comes: over the step's time, it fails saying so
    result = run(phone, [{"step": 1, "action": "tap", "target_ref": "button-LOGIN", "timeout": 600}], max_replans=0)
    assert not result.ok and "step 1 timed out after 600 ms" in result.error
    assert len(taps(phone)) == 1


def test_a_tap_that_changed_nothing_tries_the_next_element_of_that_name(session_env):
    phone = session_env
    phone.state.screens["login"].taps = {LOGIN_TAB_TEXT: "forms"}  # the bottom bar's "Login" does nothing
    step = {
        "step": 1,
        "action": "tap",
        "target_ref": "Login",
        "target_type": "Button",
        "expect": {"appears": "Form components"},
    }
    result = run(phone, [step], success=FORMS_SHOWN)
    assert result.ok, result.error
    first, second = taps(phone)
    assert first[1] > 2200 and inside(second, LOGIN_TAB_TEXT)  # the bar's button, then the other "Login"
    assert phone.state.current == "forms"
    assert "next candidate" in result.step_results[0].target


def test_nothing_left_to_try_fails_saying_what_was_tried(session_env):
    phone = session_env
    step = {"step": 1, "action": "tap", "target_ref": "Login", "target_type": "Button", "retry": 0}
    step["expect"] = {"appears": "Form components"}
    result = run(phone, [step], max_replans=0)
    assert not result.ok and "tried" in result.error and '"Login"' in result.error
    assert len(taps(phone)) == 2 and phone.state.current == "login"


def test_wait_looks_again_without_tapping_again(session_env, server):
    phone = session_env
    phone.state.screens["login"].taps = {LOGIN_BUTTON: "forms"}
    server.reply(json.dumps({"verified": False, "reason": "the next screen is drawing", "suggestion": "wait"}))
    server.reply(json.dumps({"verified": True, "reason": "the form is there"}))
    step = {"step": 1, "action": "tap", "target_ref": "button-LOGIN", "success_condition": "the form shows"}
    result = run(phone, [step], llm=flags(server), success=FORMS_SHOWN)
    assert result.ok, result.error
    assert len(taps(phone)) == 1 and phone.state.current == "forms"  # one tap: the wait did not act again
    assert len(server.requests) == 2 and result.step_results[0].verify.verified


def test_skip_marks_an_optional_step_skipped_and_goes_on(session_env, server):
    phone = session_env
    server.reply(json.dumps({"verified": False, "reason": "no banner to close", "suggestion": "skip"}))
    steps = [
        {
            "step": 1,
            "action": "tap",
            "target_ref": "Sign up",
            "params": {"optional": True},
            "success_condition": "the banner is closed",
        },
        {"step": 2, "action": "press_key", "params": {"key": "back"}},
    ]
    result = run(phone, steps, llm=flags(server))
    assert ran_unchecked(result), result.error
    assert [r.status for r in result.step_results] == [StepStatus.SKIPPED, StepStatus.SUCCESS]
    assert "optional" in result.step_results[0].error
    assert len(taps(phone)) == 1 and keys(phone) == ["KEYCODE_BACK"]


def test_skip_on_a_needed_step_is_a_failure_not_a_skip(session_env, server):
    phone = session_env
    server.reply(json.dumps({"verified": False, "reason": "looks unnecessary", "suggestion": "skip"}))
    step = {"step": 1, "action": "tap", "target_ref": "Sign up", "success_condition": "the sign-up form shows"}
    result = run(phone, [step], llm=flags(server), max_replans=0)
    assert not result.ok and result.step_results[0].status is StepStatus.FAILED
    assert "not verified" in result.error and len(taps(phone)) == 1  # not skipped, not tapped again
