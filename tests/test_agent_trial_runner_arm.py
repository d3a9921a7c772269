"""The agent trial's runner arm, without a desktop: its plans, its claims, its report."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from benchmarks.agent_trial import report, runner_arm
from benchmarks.agent_trial.tasks import TASKS

from winactions.agent.apps import ModuleRegistry
from winactions.agent.plan import parse_plan


@pytest.mark.parametrize("path", sorted(runner_arm.PLANS.glob("*.json")), ids=lambda p: p.stem)
def test_every_scripted_plan_is_a_valid_plan_for_a_task_no_template_covers(path):
    assert path.stem in TASKS and path.stem not in runner_arm.SKIPPED
    words = TASKS[path.stem].instructions.format(work="/w")
    module, _ = ModuleRegistry.load().route(words)
    assert module is None or module.template_plan(words) is None  # a template would make the plan moot
    replies = runner_arm._scripted_replies(path.stem, Path("/w"))
    assert replies
    for reply in replies:
        body = json.loads(reply.removeprefix("```json\n").removesuffix("\n```"))
        assert "{work}" not in reply
        assert parse_plan(body, where=path.name).steps


@pytest.mark.parametrize(
    ("out", "status", "says"),
    [
        (json.dumps({"ok": True, "result": {"run": {"status": "success", "model": {"calls": 1}}}}), "success", "1"),
        (
            json.dumps({"ok": False, "result": {"run": {"status": "failed", "error": "step 2 failed"}}}),
            "failed",
            "step 2 failed",
        ),
        (
            json.dumps(
                {"ok": True, "result": {"run": {"status": "unverified", "checks": [{"what": "file", "ok": None}]}}}
            ),
            "unverified",
            "file: None",
        ),
        (json.dumps({"ok": False, "error": {"message": "no window"}}), "error", "no window"),
        ("Traceback (most recent call last)", "error", "no JSON"),
    ],
)
def test_the_runners_status_is_read_from_its_json(out, status, says):
    found, text = runner_arm._status(out)
    assert found == status and says in text
    assert runner_arm.CLAIMS.get(found, "failed") in ("done", "failed", "unverified")


def _record(task: str, claim: str | None, done: bool) -> dict[str, object]:
    return {
        "spec": {"task": task, "arm": "runner"},
        "outcome": {"done": done, "detail": ""},
        "claim": {"claim": claim, "text": ""} if claim else None,
        "calls": [],
    }


def test_the_report_counts_false_successes_and_unverified_apart():
    rows = [
        report.row(r)
        for r in (
            _record("a", "done", True),
            _record("b", "done", False),  # the runner said success, the app disagrees
            _record("c", "unverified", False),
            _record("d", "unverified", True),
            _record("e", "failed", False),
        )
    ]
    assert [r.false_success for r in rows] == [False, True, False, False, False]
    total = report.table(rows).splitlines()[-1]
    assert total.startswith("| **all 5** | **runner** | 2 | 2 unverified | 1 |")
