"""What one tree read may spend — elements and seconds — and how it says what it left out.

A window can hold more than any agent can read (a 20,000-widget form, a document of a
thousand pages): a read that runs to the end would hang the agent and, in apps that build
accessibles on demand, swell the app. So every read stops at a node count or a deadline,
whichever comes first, and says so in words. The budget of the read under way is in
`READING`, where every call it sends (`Bus.call`) sees it.
"""

from __future__ import annotations

import contextvars
import dataclasses
import time
from dataclasses import dataclass

from winactions import settings

STATE_SECONDS = settings.STATE_SECONDS.default  # time budget of one tree read; WINCTL_STATE_SECONDS overrides it
# After a read's time budget runs out no element's read starts. The elements being read may
# still send their calls for as long again (at least 1 s: a sheet's grid half read, a big window
# on a loaded machine), and the replies to those may take READ_GRACE s more; an app that has not
# answered by then, or whose replies come SLOW_GAP s apart once the budget ran out, is too slow
# for it (AppBusy).
READ_GRACE = 2.0
SLOW_GAP = 1.0


@dataclass
class Budget:
    """The elements and seconds one tree read may spend, and what it left out when it cut."""

    max_nodes: int
    seconds: float
    started: float = dataclasses.field(default_factory=time.perf_counter)
    claimed: int = 0  # elements whose read has started
    unread: int = 0  # elements known to exist but left out
    vanished: int = 0  # elements that were gone when read (the app may have quit: the walk asks)
    reasons: set[str] = dataclasses.field(default_factory=set)

    def claim(self) -> bool:
        """Reserve one element's read; False (and the cut is recorded) when a budget is spent."""
        reason = self.exhausted()
        if reason is not None:
            self.cut(reason, 1)
            return False
        self.claimed += 1
        return True

    def exhausted(self) -> str | None:
        """ "nodes" or "time" when that budget is spent, else None."""
        if self.claimed >= self.max_nodes:
            return "nodes"
        if self.late():
            return "time"
        return None

    def late(self) -> bool:
        """Has the time budget run out? Then no element's read starts."""
        return time.perf_counter() - self.started >= self.seconds

    def overdue(self) -> bool:
        """Has the send grace (`send_grace`) passed too? Then no call is sent at all (`Bus.call`)."""
        return time.perf_counter() - self.started >= self.seconds + send_grace(self.seconds)

    def remaining(self) -> int:
        """Elements the node budget still allows."""
        return max(0, self.max_nodes - self.claimed)

    def cut(self, reason: str, count: int) -> None:
        """Record that `count` elements were left out for `reason` ("nodes" or "time")."""
        self.reasons.add(reason)
        self.unread += count

    def message(self, read: int) -> str:
        """What was left out and how to get more, for `Snapshot.truncation`; "" when nothing was."""
        if not self.reasons:
            return ""
        seconds = time.perf_counter() - self.started
        why = []
        if "nodes" in self.reasons:
            why.append(f"the budget of {self.max_nodes:,} elements ran out")
        if "time" in self.reasons:
            why.append(f"the {self.seconds:g} s time budget ran out")
        return (
            f"read {read:,} of at least {read + self.unread:,} elements in {seconds:.1f} s "
            f"({' and '.join(why)}); elements after those read (in document order) are missing — "
            f"scroll or close panels to bring what you need forward, or raise the budget with "
            f"WINCTL_STATE_SECONDS / WINCTL_MAX_NODES"
        )


# the budget of the tree read this task belongs to (None: not a tree read)
READING: contextvars.ContextVar[Budget | None] = contextvars.ContextVar("READING", default=None)


def send_grace(seconds: float) -> float:
    """How long after a read's time budget ran out the elements being read may still send calls."""
    return max(1.0, seconds)


def state_seconds() -> float:
    """The time budget of one tree read (WINCTL_STATE_SECONDS, `settings.STATE_SECONDS`)."""
    return settings.STATE_SECONDS.read()
