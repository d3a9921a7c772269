"""The `runner` arm: `winctl run` is the agent, its status the claim, the app's outcome the verdict.

`runner TASK DIR` starts the task's desktop (`up`), runs `winctl run "<the task's words>"`
once on it (through the folder's logged `bin/winctl`, with no agent in the loop), records
the runner's status as the claim (success → done, failed → failed, unverified → unverified),
checks the app's outcome with the task's own check, and stops the desktop (`down`).

Where a model is needed, it is a local scripted server speaking the real Anthropic API
(tests/fixtures/llm_server.py) that replays `plans/TASK.json`: `{"note": ..., "replies": [plan,
...]}`, each plan what a sensible model would answer for that task, in order; once they are
used up it answers with no plan, so a replan fails rather than being invented. Tasks an app
template covers need no file. `confined-escape` is not run: it asks the agent to get around
the user's policy, and the runner is no adversary trying to; its check would measure nothing.
"""

from __future__ import annotations

import json
import subprocess
import time
from pathlib import Path

from benchmarks.agent_trial import desk
from benchmarks.agent_trial.tasks import TASKS

ROOT = Path(__file__).resolve().parents[2]
PLANS = Path(__file__).resolve().parent / "plans"
SKIPPED = {"confined-escape": "an escape attempt from the user's policy: the runner is not an adversary"}
CLAIMS = {"success": "done", "failed": "failed", "unverified": "unverified"}
RUN_TIMEOUT = 300.0


def _scripted_replies(task: str, work: Path) -> list[str]:
    """The model's answers for `task`, `{work}` in them being the task's folder (as in its words)."""
    path = PLANS / f"{task}.json"
    if not path.exists():
        return []
    plans = json.loads(path.read_text().replace("{work}", str(work)))["replies"]
    return ["```json\n" + json.dumps(p) + "\n```" if isinstance(p, dict) else str(p) for p in plans]


def _status(out: str) -> tuple[str, str]:
    """The runner's status and its words, from `winctl --json run`'s output."""
    try:
        body = json.loads(out)
    except ValueError:
        return "error", f"no JSON from winctl run: {out[-300:]!r}"
    run = ((body.get("result") or {}).get("run")) or {}
    status = str(run.get("status") or ("error" if not body.get("ok") else "unknown"))
    words = run.get("error") or (body.get("error") or {}).get("message") or ""
    checks = [
        f"{c.get('what')}: {c.get('ok')}" for c in run.get("checks") or [] if isinstance(c, dict)
    ]  # the success checks, when the runner reports them
    calls = (run.get("model") or {}).get("calls")
    text = "; ".join(
        x
        for x in (str(words), ", ".join(checks), f"model calls {calls:g}" if isinstance(calls, (int, float)) else "")
        if x
    )
    return status, text


def run_task(task: str, folder: Path) -> str:
    """Up, `winctl run`, claim, check, down for one task; the line the table shows for it."""
    from tests.fixtures.llm_server import API_KEY, LLMServer

    if task in SKIPPED:
        return f"{task}: skipped ({SKIPPED[task]})"
    env = desk.up(folder, task, "runner")
    try:
        with LLMServer(default=lambda request: "There is no further plan.") as server:
            for reply in _scripted_replies(task, folder / "work"):
                server.reply(reply)
            model = {
                "WINCTL_LLM_PROVIDER": "anthropic",
                "WINCTL_VISION_BASE_URL": server.anthropic_url,
                "WINCTL_VISION_API_KEY": API_KEY,
                "WINCTL_VISION_MODEL": "scripted",
                "PATH": f"{folder / 'bin'}:/usr/bin:/bin",
            }
            words = TASKS[task].instructions.format(work=folder / "work")
            started = time.monotonic()
            try:
                done = subprocess.run(
                    [
                        "winctl",
                        "--no-daemon",
                        "--json",
                        "run",
                        "--timeout",
                        str(RUN_TIMEOUT - 20),
                        words,
                    ],
                    env={**env, **model},
                    cwd=folder / "work",
                    capture_output=True,
                    text=True,
                    timeout=RUN_TIMEOUT,
                )
                (folder / "run.json").write_text(done.stdout)  # the runner's whole result, steps and all
                status, text = _status(done.stdout)
            except subprocess.TimeoutExpired:
                status, text = "error", f"winctl run did not end within {RUN_TIMEOUT:g}s"
            (folder / "runner.json").write_text(
                json.dumps(
                    {
                        "status": status,
                        "text": text,
                        "seconds": round(time.monotonic() - started, 1),
                        "model_requests": len(server.requests),
                    }
                )
            )
        claim = CLAIMS.get(status, "failed")  # a crash or a timeout claims nothing done
        (folder / "claim.json").write_text(json.dumps({"claim": claim, "text": f"{status}: {text}"}))
        outcome = TASKS[task].check(desk.place(folder))
        (folder / "outcome.json").write_text(json.dumps({"done": outcome.done, "detail": outcome.detail}))
    finally:
        desk.down(folder)
    verdict = "done" if outcome.done else "NOT done"
    return f"{task}: runner {status}, app {verdict} ({outcome.detail[:160]})"


def run_all(root: Path) -> list[str]:
    """Every task in its own folder under `root` (ROOT/TASK-runner); one line each."""
    lines = []
    for task in TASKS:
        folder = root / f"{task}-runner"
        try:
            line = run_task(task, folder)
        except (SystemExit, RuntimeError, OSError) as exc:
            line = f"{task}: not run ({exc})"
        print(line, flush=True)
        lines.append(line)
    return lines


def main(args: list[str]) -> int:
    """`runner TASK DIR` or `runner --all ROOT`."""
    if args[0] == "--all":
        run_all(Path(args[1]).resolve())
    else:
        print(run_task(args[0], Path(args[1]).resolve()))
    return 0
