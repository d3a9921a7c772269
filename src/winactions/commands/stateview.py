"""What `state` shows of a fresh state: one element's subtree (`--scope`), at most N
elements (`--max-elements`), and what changed since the session's previous state (`--diff`).

The session always perceives and numbers the whole window (ids must stay stable whatever
is shown); these only choose what is printed, so an agent can keep its context small on a
big window without losing ids.
"""

from __future__ import annotations

from pydantic import BaseModel

from winactions.errors import NotFound
from winactions.model import Rect, Target, UIState

COMPARED = ("type", "name", "value", "states", "rect")  # what makes an element "changed"


class Change(BaseModel):
    """One element present before and now, and the fields that differ (before, after)."""

    target: Target
    fields: dict[str, tuple[object, object]]


class StateDiff(BaseModel):
    """What changed since the previous state of this session (in the same window)."""

    since: str | None  # the previous state's timestamp; None: there was none to compare
    added: list[Target] = []
    removed: list[Target] = []
    changed: list[Change] = []
    unchanged: int = 0
    window_changed: bool = False  # the previous state was of another window: all is "added"


def scoped(targets: list[Target], scope: int) -> list[Target]:
    """The element `scope` and everything under it (by the listed parents)."""
    ids = {t.id for t in targets}
    if scope not in ids:
        raise NotFound(
            f"scope {scope}: no element {scope} in the window's state", hint="scope to an id listed by `winctl state`"
        )
    parents = {t.id: t.parent_id for t in targets}
    inside: dict[int, bool] = {scope: True}

    def under(target_id: int | None) -> bool:
        chain = []
        while target_id is not None and target_id not in inside:
            chain.append(target_id)
            target_id = parents.get(target_id)
        result = inside.get(target_id, False) if target_id is not None else False
        for t in chain:
            inside[t] = result
        return result

    return [t for t in targets if under(t.id)]


def diff(before: UIState | None, after: UIState, view: list[Target]) -> StateDiff:
    """Compare `view` (what is shown of `after`) with the same part of `before`."""
    if before is None:
        return StateDiff(since=None, added=list(view))
    if before.window.id != after.window.id:
        return StateDiff(since=before.timestamp, added=list(view), window_changed=True)
    shown = {t.id for t in view}
    old = {t.id: t for t in before.targets}
    result = StateDiff(since=before.timestamp)
    for t in view:
        prev = old.get(t.id)
        if prev is None:
            result.added.append(t)
            continue
        fields = {
            f: (_plain(getattr(prev, f)), _plain(getattr(t, f))) for f in COMPARED if getattr(prev, f) != getattr(t, f)
        }
        if fields:
            result.changed.append(Change(target=t, fields=fields))
        else:
            result.unchanged += 1
    now = {t.id for t in after.targets}
    in_scope = {t.parent_id for t in view} | shown
    result.removed = [
        t for t in before.targets if t.id not in now and (len(view) == len(after.targets) or t.parent_id in in_scope)
    ]
    return result


def lines(changes: StateDiff) -> int:
    """How many lines the diff lists (added, changed, removed)."""
    return len(changes.added) + len(changes.changed) + len(changes.removed)


def capped(changes: StateDiff, limit: int | None) -> StateDiff:
    """--max-elements caps the diff's lines too (added, then changed, then removed)."""
    if limit is None:
        return changes
    added = changes.added[:limit]
    changed = changes.changed[: limit - len(added)]
    removed = changes.removed[: limit - len(added) - len(changed)]
    return changes.model_copy(update={"added": added, "changed": changed, "removed": removed})


def _plain(value: object) -> object:
    return value.as_list() if isinstance(value, Rect) else value
