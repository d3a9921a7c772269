"""The prompt that asks the person at the desktop to allow access: a `zenity --question` window.

Its WM_CLASS is `prompt`/`Winctl` (zenity's `--name`/`--class`), so the gate keeps every agent
input away from it: only a person's click or key answers it. Deny is the default button (an
Enter that slipped through would deny), and closing it or letting it time out denies too.
"""

from __future__ import annotations

import shutil
import subprocess
from dataclasses import dataclass

from winactions.errors import BackendUnavailable

TITLE = "winctl: allow access?"
ALLOW, DENY = "Allow", "Deny"
ZENITY_TIMEOUT = 5  # zenity's exit status when its --timeout ran out


@dataclass(frozen=True)
class Answer:
    allowed: bool
    how: str  # "allowed", "denied", "timed out"


def question(apps: list[str], rights: list[str], reason: str) -> str:
    """What the prompt says: the apps, the extra rights, and the agent's reason, quoted as its."""
    lines = ["An AI agent driving this desktop through winctl asks to act on:", ""]
    lines += [f"    • {app}" for app in apps]
    if rights:
        lines += ["", "and for these rights:"] + [f"    • {r.replace('_', ' ')}" for r in rights]
    if reason:
        lines += ["", f"The agent says why: “{reason}”"]
    lines += ["", "Allow only if you started this agent and want it to use these apps."]
    return "\n".join(lines)


def ask(apps: list[str], rights: list[str], reason: str, timeout: float) -> Answer:
    """Show the prompt and wait for the person's answer (or `timeout` seconds: a denial)."""
    zenity = shutil.which("zenity")
    if zenity is None:
        raise BackendUnavailable(
            "no prompt can be shown: zenity is not installed",
            hint="install zenity (Debian: apt-get install zenity), or a person grants apps in the policy file",
        )
    argv = [
        zenity,
        "--question",
        "--class=Winctl",
        "--name=prompt",
        f"--title={TITLE}",
        f"--text={question(apps, rights, reason)}",
        "--no-markup",
        "--no-wrap",
        f"--ok-label={ALLOW}",
        f"--cancel-label={DENY}",
        "--default-cancel",
        f"--timeout={max(1, round(timeout))}",
    ]
    try:
        done = subprocess.run(argv, stdin=subprocess.DEVNULL, capture_output=True, timeout=timeout + 10)
    except subprocess.TimeoutExpired:
        return Answer(False, "timed out")
    if done.returncode == 0:
        return Answer(True, "allowed")
    if done.returncode == ZENITY_TIMEOUT:
        return Answer(False, "timed out")
    if done.returncode == 1:
        return Answer(False, "denied")
    raise BackendUnavailable(
        f"the prompt could not be shown (zenity exit {done.returncode}: {done.stderr.decode(errors='replace')[-200:]})",
        hint="check that a display is there (`winctl doctor`); nothing was granted",
    )
