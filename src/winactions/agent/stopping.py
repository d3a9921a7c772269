"""Whether a run must stop before its next step: its time limit, or its caller's cancel.

A run checks this between steps, never inside one: a step under way finishes its own action
and check first, so the desktop is never left half-acted on. A cancel (an MCP client's
`notifications/cancelled`, read through `winactions.progress`) stops the run at once, and
the reason names the step it stopped before and how many were done.
"""

from __future__ import annotations

import time

from winactions import progress


def stop_reason(deadline: float | None, timeout: float | None, next_step: int, done: int) -> str | None:
    """Why the run stops before step `next_step` (`done` steps finished), or None to go on."""
    if progress.cancelled():
        return f"cancelled by the caller before step {next_step} ({done} step(s) done; nothing more was done)"
    if deadline is not None and time.monotonic() > deadline:
        return f"the run's time limit ({timeout or 0:g}s) was reached before step {next_step}"
    return None
