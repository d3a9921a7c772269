"""Exactly one element by a name or a selector, else an error that lists the candidates.

Every way of naming an element instead of giving its id — `click Save`, `click-element --name
Save`, a task step's `target_ref` — ends here, so several matches are refused in one form
everywhere: InvalidInput (`invalid_input`, exit code 2) whose message counts and lists them
(`3 elements are named 'Name': [4] [Edit] "Name", [9] [Text] "Name", [12] [HeaderItem]
"Name"`) and whose hint says how to narrow the choice and that an id is always one element.
No match is not decided here: each caller has its own next place to look.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from winactions.errors import InvalidInput
from winactions.model import Target

LISTED = 8  # candidates an error lists at most; how many more there are is said
NAME_SHOWN = 60  # characters of a candidate's name an error quotes


def named(targets: Sequence[Target], name: str) -> list[Target]:
    """The targets named `name` exactly; when none is, those named so ignoring case."""
    exact = [t for t in targets if t.name == name]
    return exact or [t for t in targets if t.name.casefold() == name.casefold()]


def only_one(
    found: Sequence[Target],
    what: str,
    *,
    narrow: str | None = None,
    by_id: str = "its id",
    prefer: Sequence[Callable[[Target], bool]] = (),
) -> Target | None:
    """The one target of `found`; None when `found` is empty.

    Of several, the only one the first `prefer` test that picks out exactly one picks out;
    else InvalidInput, its message `N elements are {what}: ` and the candidates (`listing`),
    its hint `{narrow}, or act on one by {by_id}` (`narrow` None: `act on one by {by_id}`).
    `what` completes "elements are …" ("named 'Save'", "of type Edit")."""
    if len(found) == 1:
        return found[0]
    if not found:
        return None
    for test in prefer:
        preferred = [t for t in found if test(t)]
        if len(preferred) == 1:
            return preferred[0]
    act = f"act on one by {by_id}"
    raise InvalidInput(
        f"{len(found)} elements are {what}: {listing(found)}", hint=f"{narrow}, or {act}" if narrow else act
    )


def listing(found: Sequence[Target]) -> str:
    """The candidates as the state lists them (`[4] [Edit] "Name"`), at most LISTED, then how
    many more there are."""
    shown = ", ".join(f'[{t.id}] [{t.type}] "{_cut(t.name)}"' for t in found[:LISTED])
    more = len(found) - LISTED
    return shown + (f" and {more} more" if more > 0 else "")


def _cut(name: str) -> str:
    """A name on one line, at most NAME_SHOWN characters of it."""
    flat = " ".join(name.split())
    return flat if len(flat) <= NAME_SHOWN else flat[: NAME_SHOWN - 1] + "…"
