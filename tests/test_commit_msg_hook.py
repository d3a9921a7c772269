"""scripts/hooks/commit-msg keeps `git log --oneline` readable: it refuses a subject over 72
characters or glued to its body, and takes a short subject with its why in the body."""

from __future__ import annotations

import subprocess
from pathlib import Path

HOOK = Path(__file__).resolve().parent.parent / "scripts" / "hooks" / "commit-msg"


def run_hook(tmp_path: Path, message: str) -> subprocess.CompletedProcess[str]:
    path = tmp_path / "COMMIT_EDITMSG"
    path.write_text(message)
    return subprocess.run(["sh", str(HOOK), str(path)], capture_output=True, text=True, check=False)


def test_a_short_subject_with_its_why_in_the_body_is_taken(tmp_path):
    done = run_hook(
        tmp_path, "Return from keys once the focus stops moving\n\nCalc refocused its field.\n# a comment git strips\n"
    )
    assert done.returncode == 0, done.stderr


def test_a_subject_over_72_characters_is_refused_saying_its_length(tmp_path):
    done = run_hook(tmp_path, "x" * 73 + "\n")
    assert done.returncode == 1
    assert "73 characters" in done.stderr


def test_exactly_72_characters_of_any_script_are_taken(tmp_path):
    assert run_hook(tmp_path, "é" * 72 + "\n").returncode == 0


def test_a_body_glued_to_the_subject_is_refused(tmp_path):
    done = run_hook(tmp_path, "Fix the thing\nbecause it broke\n")
    assert done.returncode == 1
    assert "blank line" in done.stderr


def test_an_empty_message_is_refused(tmp_path):
    assert run_hook(tmp_path, "# only comments\n").returncode == 1
