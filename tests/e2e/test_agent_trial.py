"""The agent trial's set-ups and checks (benchmarks/agent_trial/): every task's apps start on a
private desktop, and every check reads the app's outcome and fails while the app is untouched.

The trial itself needs AI agents and is run by hand (benchmarks/agent_trial/README.md); what
CI proves is that a round starts, that no check passes on an app nobody touched, that a
check passes once the work is really done in the app, and that `down` leaves nothing behind.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from benchmarks.agent_trial.tasks import TASKS

pytestmark = pytest.mark.desktop

ROOT = Path(__file__).resolve().parents[2]


def trial(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "benchmarks.agent_trial", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        env={**(env or os.environ), "PYTHONPATH": str(ROOT)},
    )


def held_pid(folder: Path) -> int:
    return int(json.loads((folder / "desktop.json").read_text())["pid"])


def gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return Path(f"/proc/{pid}/stat").read_text().split()[2] == "Z"


def tool(folder: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    """One call of an arm's tool, as the agent makes it."""
    command = f". {folder}/env.sh && " + " ".join(f"'{a}'" for a in argv)
    return subprocess.run(["sh", "-c", command], capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("name", sorted(TASKS))
def test_a_check_fails_on_the_untouched_app_and_down_stops_everything(name, tmp_path):
    folder = tmp_path / name
    up = trial("up", name, "winctl", str(folder))
    assert up.returncode == 0, up.stderr + up.stdout
    pid = held_pid(folder)
    try:
        assert "Task: " in up.stdout and str(folder / "env.sh") in up.stdout
        checked = trial("check", str(folder))
        assert checked.returncode == 1, checked.stdout + checked.stderr
        assert checked.stdout.startswith("NOT done: ")
        assert json.loads((folder / "outcome.json").read_text())["done"] is False
    finally:
        trial("down", str(folder))
    assert gone(pid)


def test_a_check_passes_once_the_work_is_done_and_the_round_is_reported(tmp_path):
    """Geany's replace done through the winctl arm's own tool: the file on disk changes, the
    check says done, and the report counts the calls the log recorded."""
    folder = tmp_path / "geany"
    assert trial("up", "geany-replace", "winctl", str(folder)).returncode == 0
    try:
        assert tool(folder, "winctl", "keys", "ctrl+h").returncode == 0
        state = tool(folder, "winctl", "state").stdout
        ids = {line.split("]")[0].strip("["): line for line in state.splitlines() if line.startswith("[")}

        def find(role: str, name: str = "", nth: int = 0) -> str:
            hits = [i for i, line in ids.items() if f'[{role}] "{name}"' in line]
            return hits[nth]

        assert tool(folder, "winctl", "input", find("Edit", "", 0), "colour").returncode == 0
        assert tool(folder, "winctl", "input", find("Edit", "", 1), "color").returncode == 0
        assert tool(folder, "winctl", "click", find("CheckBox", "Case sensitive")).returncode == 0
        assert tool(folder, "winctl", "click", find("Button", "Replace All")).returncode == 0
        menu = tool(folder, "winctl", "state").stdout
        in_document = next(line for line in menu.splitlines() if '"In Document"' in line).split("]")[0][1:]
        assert tool(folder, "winctl", "click", in_document).returncode == 0
        assert tool(folder, "winctl", "keys", "ctrl+s").returncode == 0
        checked = trial("check", str(folder))
        assert checked.returncode == 0, checked.stdout
        assert (folder / "work" / "notes.txt").read_text().count("color") == 6
        trial("claim", str(folder), "done")
        table = trial("report", str(folder), "--json")
        row = json.loads(table.stdout)[0]
        assert row["done"] is True and row["false_success"] is False and row["calls"] == 9
        assert row["text_tokens"] > 0 and row["pictures"] == 0
    finally:
        trial("down", str(folder))


def test_the_text_arm_refuses_pictures_and_the_screenshot_arm_counts_them(tmp_path):
    text, shots = tmp_path / "text", tmp_path / "shots"
    assert trial("up", "galculator-copy", "text", str(text)).returncode == 0
    try:
        refused = tool(text, "winctl", "screenshot")
        assert refused.returncode == 2 and "no pictures" in refused.stderr
        assert not (text / "bin" / "shot").exists()
    finally:
        trial("down", str(text))
    assert trial("up", "galculator-copy", "screenshots", str(shots)).returncode == 0
    try:
        shot = tool(shots, "shot")
        assert shot.returncode == 0 and "1280x800" in shot.stdout
        assert tool(shots, "xdo", "getmouselocation").returncode == 0
        assert tool(shots, "xdo", "exec", "sh").returncode == 2
        assert not (shots / "bin" / "winctl").exists()
        row = json.loads(trial("report", str(shots), "--json").stdout)[0]
        assert row["pictures"] == 1 and row["picture_tokens"] == 1280 * 800 // 750 and row["calls"] == 3
    finally:
        trial("down", str(shots))


def test_the_runner_arm_records_a_claim_the_app_bears_out(tmp_path):
    """`winctl run` as the agent on terminal-prompts (no slow app): its claim is held against
    what the script wrote (benchmarks/agent_trial/runner_arm.py)."""
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
