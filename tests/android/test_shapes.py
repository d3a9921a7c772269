"""Plans in phone agents' own shapes on the fake phone: key codes as numbers and names, a
fallback that presses BACK, `open_url` and `call` through the phone's VIEW intent — with what
reached the "device" as the witness."""

from __future__ import annotations

import pytest

from tests.android.conftest import Phone
from winactions import Desktop
from winactions.agent.plan import parse_plan
from winactions.agent.runner import RunOptions, StepStatus, TaskRunner, TaskStatus
from winactions.errors import Unsupported


def test_key_codes_reach_the_phone_as_its_own_keys(session_env: Phone) -> None:
    phone = session_env
    plan = parse_plan(
        [
            {"action": "press_key", "params": {"keycode": 4}, "wait_after": 0},
            {"action": "press_key", "params": {"keycode": "KEYCODE_ENTER"}, "wait_after": 0},
            {"action": "press_key", "params": {"keycode": "dpad_down"}, "wait_after": 0},
            {"action": "press_key", "params": {"key": "KEYCODE_VOLUME_UP"}, "wait_after": 0},
            {"action": "press_key", "params": {"keycode": "26"}, "wait_after": 0},
        ]
    )
    with Desktop("shapes-keys", device=phone.serial) as desktop:
        result = TaskRunner(desktop, RunOptions(pixels=False, use_templates=False)).run("press keys", plan)
    assert all(r.status is StepStatus.SUCCESS for r in result.step_results), result.error
    assert result.status is TaskStatus.UNVERIFIED  # the plan says nothing of the task's outcome
    keys = [c[-1] for c in phone.inputs() if c[:2] == ["input", "keyevent"]]
    assert keys == ["KEYCODE_BACK", "KEYCODE_ENTER", "KEYCODE_DPAD_DOWN", "KEYCODE_VOLUME_UP", "KEYCODE_POWER"]


def test_the_seeds_fallback_presses_back_then_looks_again(session_env: Phone) -> None:
    """{"action": "press_key", "params": {"keycode": 4}} as a fallback: BACK three times, then
    the step fails naming what it looked for (it crashed the run with a ValidationError)."""
    phone = session_env
    plan = parse_plan(
        [
            {
                "action": "tap",
                "target_ref": "No Such Button",
                "fallback": {"action": "press_key", "params": {"keycode": 4}},
            }
        ]
    )
    with Desktop("shapes-fallback", device=phone.serial) as desktop:
        result = TaskRunner(desktop, RunOptions(pixels=False, use_templates=False)).run("tap it", plan)
    assert not result.ok and "internal error" not in result.error
    (step,) = result.step_results
    assert step.fallbacks == 3 and "No Such Button" in step.error
    keys = [c[-1] for c in phone.inputs() if c[:2] == ["input", "keyevent"]]
    assert keys == ["KEYCODE_BACK"] * 3


def test_open_url_and_call_go_through_the_view_intent(session_env: Phone) -> None:
    phone = session_env
    plan = parse_plan(
        [
            {"action": "open_url", "params": {"url": "https://example.org/a?b=1&c=2"}, "wait_after": 0},
            {"action": "call", "params": {"number": "+1 555 0100"}, "wait_after": 0},
        ]
    )
    with Desktop("shapes-urls", device=phone.serial) as desktop:
        result = TaskRunner(desktop, RunOptions(pixels=False, use_templates=False)).run("open and call", plan)
        assert all(r.status is StepStatus.SUCCESS for r in result.step_results), result.error
        assert result.status is TaskStatus.UNVERIFIED
        assert phone.state.opened == ["https://example.org/a?b=1&c=2", "tel:+15550100"]
        said = desktop.call("open-url", url="tel:123")
        assert "GoogleDialtactsActivity" in said.method
        with pytest.raises(Unsupported, match="opens sms: URLs"):
            desktop.call("open-url", url="sms:123")
    assert phone.state.opened[-1] == "tel:123"  # the refused one opened nothing
    starts = [c for c in phone.inputs() if c[:2] == ["am", "start"]]
    assert starts[0] == ["am", "start", "-W", "-a", "android.intent.action.VIEW", "-d", "https://example.org/a?b=1&c=2"]
