"""The task runner on a phone: the same plan shapes as on the desktop, through the Python API
against the fake device, with what reached the "device" as the witness."""

from __future__ import annotations

from tests.android.conftest import Phone
from winactions import Desktop
from winactions.agent.plan import TaskPlan
from winactions.agent.runner import RunOptions, TaskRunner, TaskStatus


def test_a_plan_runs_on_the_phone_by_names_from_its_tree(session_env: Phone) -> None:
    phone = session_env
    plan = TaskPlan.model_validate(
        {
            "analysis": {"goal": "log in on the demo app, then leave it"},
            "steps": [
                {
                    "step": 1,
                    "action": "input_text",
                    "target_ref": "input-email",
                    "params": {"text": "alice@example.com"},
                    "wait_after": 0,
                },
                {
                    "step": 2,
                    "action": "input_text",
                    "target_ref": "input-password",
                    "params": {"text": "secret1"},
                    "wait_after": 0,
                },
                {
                    "step": 3,
                    "action": "long_press",
                    "target_ref": "button-LOGIN",
                    "params": {"duration": 1200},
                    "wait_after": 0,
                },
                {"step": 4, "action": "swipe", "params": {"direction": "up", "duration": 500}, "wait_after": 0},
                {"step": 5, "action": "press_key", "params": {"key": "back"}, "wait_after": 0},
                {"step": 6, "action": "go_home", "wait_after": 0},
            ],
            "success_criteria": "the phone is on its home screen",
        }
    )
    with Desktop("agent-phone", device=phone.serial) as desktop:
        result = TaskRunner(desktop, RunOptions(pixels=False, use_templates=False)).run("log in", plan)
    # every step ran; the criteria are words and no model is configured: not shown, so not success
    assert result.status is TaskStatus.UNVERIFIED, result.error
    assert "the phone is on its home screen (in words, and no model is configured" in result.error
    assert result.model.get("calls", 0) == 0  # a given plan costs no model call
    sent = phone.inputs()
    typed = [c for c in sent if c[:2] == ["input", "text"]]
    assert [c[2] for c in typed] == ["alice@example.com", "secret1"]
    presses = [c for c in sent if c[:2] == ["input", "swipe"] and c[2] == c[4] and c[3] == c[5]]
    assert presses and presses[0][-1] == "1200"  # the long press, held as long as the plan said
    swipes = [c for c in sent if c[:2] == ["input", "swipe"] and c not in presses]
    assert swipes and int(swipes[0][3]) > int(swipes[0][5]) and swipes[0][-1] == "500"  # upward, 0.5 s
    keys = [c[-1] for c in sent if c[:2] == ["input", "keyevent"]]
    assert "KEYCODE_BACK" in keys and keys[-2:] == ["KEYCODE_HOME", "KEYCODE_HOME"]  # go-home: HOME twice


def test_a_step_the_phone_cannot_do_fails_clearly_and_acts_on_nothing(session_env: Phone) -> None:
    phone = session_env
    plan = TaskPlan.model_validate({"steps": [{"step": 1, "action": "open_url", "params": {"url": "sms:+15550100"}}]})
    with Desktop("agent-phone-url", device=phone.serial) as desktop:
        result = TaskRunner(desktop, RunOptions(pixels=False, use_templates=False, max_replans=0)).run("open", plan)
    assert not result.ok and "opens sms: URLs" in result.error  # no app on this phone takes sms: links
    assert phone.state.opened == [] and [c for c in phone.inputs() if c[0] == "input"] == []
