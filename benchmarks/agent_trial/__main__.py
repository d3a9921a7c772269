"""python -m benchmarks.agent_trial COMMAND — run the agent trial by hand or from a harness.

tasks                          list the tasks and their instructions
up TASK ARM DIR                start TASK's desktop for ARM (winctl, text, screenshots) in DIR;
                               prints the agent's brief
check DIR                      check the app's outcome; writes DIR/outcome.json
claim DIR done|failed|unverified [TEXT]
                               record what the agent said at the end
runner TASK DIR                the runner as the agent: up, `winctl run "<the task>"`, its status
                               as the claim, check, down (scripted model: plans/TASK.json)
runner --all ROOT              that for every task, each in ROOT/TASK-runner
down DIR                       stop DIR's desktop and apps
report DIR|FILE... [--json]    the table of what the rounds measured (task folders or archives)
archive DIR... --to FILE       keep the runs' outcomes, claims and call logs in one JSON-lines file
hold DIR                       (internal) the process `up` starts
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from benchmarks.agent_trial import desk, report
from benchmarks.agent_trial.tasks import TASKS


def brief(folder: Path, task: str, arm: str) -> str:
    """What the agent of an arm is told: the task, and the tools it may use."""
    work = folder / "work"
    tools = {
        "winctl": "`winctl` (`winctl skill` prints its manual)",
        "text": "`winctl` (`winctl skill` prints its manual); you may not look at any "
        "picture: commands that make one are refused",
        "screenshots": "`shot` (prints the path of a PNG of the whole screen; look at it), `zoom X Y W H` (a "
        "region at full resolution) and `xdo` (xdotool's mousemove, click, mousedown, mouseup, key, "
        "keydown, keyup, type, getmouselocation)",
    }[arm]
    return (
        f"Task: {TASKS[task].instructions.format(work=work)}\n\n"
        f"Tools: only {tools}. Run each as `. {folder}/env.sh && TOOL ARGS` in a shell; do not read or "
        f"write the task's files, start programs or use other commands. When you finish, say whether the "
        f"task is done.\n"
    )


def main(argv: list[str]) -> int:
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__)
        return 0
    command, rest = argv[0], argv[1:]
    if command == "tasks":
        for name, each in TASKS.items():
            print(f"{name}  [{', '.join(each.apps)}; {', '.join(each.toolkits)}]\n  {each.instructions}")
        return 0
    if command == "up" and len(rest) == 3:
        task, arm, folder = rest[0], rest[1], Path(rest[2]).resolve()
        desk.up(folder, task, arm)
        print(brief(folder, task, arm))
        return 0
    if command == "check" and len(rest) == 1:
        folder = Path(rest[0]).resolve()
        task = json.loads((folder / "task.json").read_text())["task"]
        outcome = TASKS[task].check(desk.place(folder))
        (folder / "outcome.json").write_text(json.dumps({"done": outcome.done, "detail": outcome.detail}))
        print(f"{'done' if outcome.done else 'NOT done'}: {outcome.detail}")
        return 0 if outcome.done else 1
    if command == "claim" and len(rest) >= 2 and rest[1] in ("done", "failed", "unverified"):
        Path(rest[0], "claim.json").write_text(json.dumps({"claim": rest[1], "text": " ".join(rest[2:])}))
        return 0
    if command == "runner" and len(rest) == 2:
        from benchmarks.agent_trial import runner_arm

        return runner_arm.main(rest)
    if command in ("down", "hold") and len(rest) == 1:
        (desk.down if command == "down" else desk.hold)(Path(rest[0]))
        return 0
    if command == "archive" and len(rest) >= 3 and rest[-2] == "--to":
        with Path(rest[-1]).open("w") as out:
            for record in report.records([Path(a) for a in rest[:-2]]):
                out.write(json.dumps(record) + "\n")
        return 0
    if command == "report" and rest:
        rows = [report.row(r) for r in report.records([Path(a) for a in rest if a != "--json"])]
        print(report.as_json(rows) if "--json" in rest else report.table(rows))
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
