"""What a trial round measured, per task and arm, from the task folders alone.

Per folder: the check's outcome (`outcome.json`), the agent's own claim (`claim.json`), and
the calls it made (`calls.jsonl`). Observation tokens are counted as agents pay them: text
printed / 4, and each picture made as width × height / 750 (Anthropic's published estimate
for an image). A false success is a claim of done that the app's outcome contradicts; an
unverified claim (the runner arm's: the steps ran, success could not be shown) is counted apart,
neither done nor false.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from pathlib import Path


@dataclass
class Row:
    task: str
    arm: str
    done: bool | None  # None: never checked
    claimed: str | None  # the agent's word: "done", "failed" or (the runner arm) "unverified"
    false_success: bool
    calls: int
    text_tokens: int
    picture_tokens: int
    pictures: int
    seconds: float
    manual_tokens: int = 0  # of text_tokens: reading the tool's manual (`skill`, `--help`)

    @property
    def tokens(self) -> int:
        return self.text_tokens + self.picture_tokens


def _json(path: Path) -> dict[str, object] | None:
    try:
        value = json.loads(path.read_text())
    except (OSError, ValueError):
        return None
    return value if isinstance(value, dict) else None


def run_record(folder: Path) -> dict[str, object]:
    """One run as an archive keeps it: the task and arm, the check's outcome, the claim, the calls."""
    log = folder / "calls.jsonl"
    calls = [json.loads(line) for line in log.read_text().splitlines() if line.strip()] if log.exists() else []
    return {
        "spec": _json(folder / "task.json") or {},
        "outcome": _json(folder / "outcome.json"),
        "claim": _json(folder / "claim.json"),
        "calls": calls,
    }


def records(paths: list[Path]) -> list[dict[str, object]]:
    """Runs from task folders, or from archive files (`.jsonl`, one run a line)."""
    found: list[dict[str, object]] = []
    for path in paths:
        if path.is_file():
            found.extend(json.loads(line) for line in path.read_text().splitlines() if line.strip())
        else:
            found.append(run_record(path))
    return found


def row(record: dict[str, object]) -> Row:
    spec = record["spec"] if isinstance(record["spec"], dict) else {}
    outcome = record["outcome"] if isinstance(record["outcome"], dict) else None
    claim = record["claim"] if isinstance(record["claim"], dict) else None
    calls = record["calls"] if isinstance(record["calls"], list) else []
    text = sum(int(c["stdout_bytes"]) + int(c["stderr_bytes"]) for c in calls) // 4
    manual = sum(int(c["stdout_bytes"]) + int(c["stderr_bytes"]) for c in calls if _is_manual(c["args"])) // 4
    pictures = [p for c in calls for p in c["pictures"]]
    picture_tokens = sum(int(p["width"]) * int(p["height"]) // 750 for p in pictures)
    seconds = (calls[-1]["t"] + calls[-1]["seconds"] - calls[0]["t"]) if calls else 0.0
    done = bool(outcome["done"]) if outcome is not None else None
    claimed = str(claim["claim"]) if claim is not None else None
    return Row(
        task=str(spec.get("task")),
        arm=str(spec.get("arm")),
        done=done,
        claimed=claimed,
        false_success=claimed == "done" and done is False,
        calls=len(calls),
        text_tokens=text,
        picture_tokens=picture_tokens,
        pictures=len(pictures),
        seconds=round(seconds, 1),
        manual_tokens=manual,
    )


def _is_manual(args: list[str]) -> bool:
    """A call that reads the tool's manual rather than the app: `winctl skill`, any `--help`."""
    return "--help" in args or "-h" in args or (bool(args) and args[0] in ("skill", "help"))


def table(rows: list[Row]) -> str:
    """A Markdown table, one line per task and arm, then each arm's totals."""
    lines = [
        "| task | arm | done | claimed | false success | calls | tokens (text + pictures) | of which manual "
        "| pictures | seconds |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in sorted(rows, key=lambda r: (r.task, r.arm)):
        lines.append(
            f"| {r.task} | {r.arm} | {'yes' if r.done else 'no' if r.done is False else '?'} | "
            f"{r.claimed or '-'} | {'YES' if r.false_success else 'no'} | {r.calls} | "
            f"{r.tokens} ({r.text_tokens} + {r.picture_tokens}) | {r.manual_tokens} | {r.pictures} | "
            f"{r.seconds} |"
        )
    for arm in sorted({r.arm for r in rows}):
        mine = [r for r in rows if r.arm == arm]
        lines.append(
            f"| **all {len(mine)}** | **{arm}** | {sum(bool(r.done) for r in mine)} | "
            f"{sum(r.claimed == 'unverified' for r in mine)} unverified | "
            f"{sum(r.false_success for r in mine)} | {sum(r.calls for r in mine)} | "
            f"{sum(r.tokens for r in mine)} ({sum(r.text_tokens for r in mine)} + "
            f"{sum(r.picture_tokens for r in mine)}) | {sum(r.manual_tokens for r in mine)} | "
            f"{sum(r.pictures for r in mine)} | "
            f"{round(sum(r.seconds for r in mine), 1)} |"
        )
    return "\n".join(lines)


def as_json(rows: list[Row]) -> str:
    return json.dumps([{**asdict(r), "tokens": r.tokens} for r in rows], indent=1)
