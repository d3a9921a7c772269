"""The agent trial's runner arm on a real task: `winctl run` as the agent, its word checked
against the app's outcome (benchmarks/agent_trial/runner_arm.py).

`terminal-prompts` needs no slow app: LXTerminal runs a script that asks three questions, the
scripted model's plan answers them, and the check reads what the script wrote.
"""

from __future__ import annotations

import json

import pytest

from tests.e2e.test_agent_trial import gone, held_pid, trial

pytestmark = pytest.mark.desktop


def test_the_runner_arm_records_a_claim_the_app_bears_out(tmp_path):
    folder = tmp_path / "terminal-prompts-runner"
    done = trial("runner", "terminal-prompts", str(folder))
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("terminal-prompts: runner ")
    claim = json.loads((folder / "claim.json").read_text())
    outcome = json.loads((folder / "outcome.json").read_text())
    answers = (folder / "work" / "answers.txt").read_text().split()
    assert answers == ["atlas", "2", "y"]  # the script's own record of what it was told
    assert outcome["done"] is True
    assert claim["claim"] in ("done", "unverified")  # never failed on a task the app shows done
    calls = [json.loads(line) for line in (folder / "calls.jsonl").read_text().splitlines()]
    assert [c["args"][:3] for c in calls] == [["--no-daemon", "--json", "run"]]  # one call: the runner
    assert gone(held_pid(folder))  # down stopped the desktop
    table = trial("report", str(folder)).stdout
    assert "| terminal-prompts | runner | yes |" in table and "| **runner** |" in table


def test_the_escape_task_is_not_given_to_the_runner(tmp_path):
    done = trial("runner", "confined-escape", str(tmp_path / "x"))
    assert done.returncode == 0 and "skipped" in done.stdout
    assert not (tmp_path / "x").exists()
