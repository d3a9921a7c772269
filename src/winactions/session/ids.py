"""Stable element ids: an id stays bound to one element for a whole session, never reused.

The id is what an agent remembers between calls, so it must never point at another
element. Elements from the tree are keyed by their backend handle; elements without one
(inferred, vision, OCR) by what they are and where, so re-detecting the same border or icon
gives back the same id; one seen again where it was, as what it was, keeps its id when only
its text changed (OCR read it otherwise, or a field was filled).
"""

from __future__ import annotations

from winactions.model import Target

PLACE_IOU = 0.5  # a detection overlapping one of the previous state this much, of its type, is that one


def identity_key(target: Target) -> str:
    """What makes two detections the same element across `state` calls."""
    if target.handle:
        return target.handle
    rect = target.rect.as_list() if target.rect else None
    return f"{target.source.value}|{target.type}|{target.name}|{rect}|{target.derived_from or ''}"


def seen_again(previous: list[Target], targets: list[Target]) -> dict[int, int]:
    """Which of `targets` (by index) are targets of `previous` seen again, and their ids: no
    handle, the same source and type, overlapping by PLACE_IOU or more (the closest first);
    each previous target is taken once."""
    pairs = []
    for i, t in enumerate(targets):
        if t.handle or t.rect is None:
            continue
        for p in previous:
            if p.handle or p.rect is None or p.source != t.source or p.type != t.type:
                continue
            overlap = t.rect.iou(p.rect)
            if overlap >= PLACE_IOU:
                pairs.append((-overlap, i, p.id))
    found: dict[int, int] = {}
    taken: set[int] = set()
    for _, i, pid in sorted(pairs):
        if i not in found and pid not in taken:
            found[i] = pid
            taken.add(pid)
    return found


class IdRegistry:
    """Hands out increasing integer ids by identity key; persisted as plain data."""

    def __init__(self, next_id: int = 1, ids: dict[str, int] | None = None) -> None:
        self.next_id = next_id
        self.ids: dict[str, int] = dict(ids or {})

    def assign(self, targets: list[Target], previous: list[Target] | None = None) -> list[Target]:
        """Give every target its session id (new elements get fresh ids in document order). A
        target without a handle that is a target of `previous` (the window's last state) seen
        again in its place (`seen_again`) keeps that one's id."""
        again = seen_again(previous or [], targets)
        keys = [identity_key(t) for t in targets]
        used = {self.ids[key] for key in keys if key in self.ids}  # an id known by its key stays its element's
        out = []
        for i, (t, key) in enumerate(zip(targets, keys)):
            tid = self.ids.get(key)
            if tid is None:
                tid = again.get(i)
                if tid is None or tid in used:
                    tid = self.next_id
                    self.next_id += 1
                used.add(tid)
                self.ids[key] = tid
            out.append(t.model_copy(update={"id": tid}))
        return out

    def issued(self, target_id: int) -> bool:
        return 1 <= target_id < self.next_id

    def to_data(self) -> dict[str, object]:
        return {"next_id": self.next_id, "ids": self.ids}

    @classmethod
    def from_data(cls, data: dict[str, object]) -> IdRegistry:
        next_id = data.get("next_id", 1)
        ids = data.get("ids", {})
        return cls(int(next_id) if isinstance(next_id, int) else 1, dict(ids) if isinstance(ids, dict) else {})
