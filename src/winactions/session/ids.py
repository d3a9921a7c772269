"""Stable element ids: an id stays bound to one element for a whole session, never reused.

The id is what an agent remembers between calls, so it must never point at another
element. Elements from the tree are keyed by their backend handle; elements without one
(inferred, vision, OCR) by what they are and where, so re-detecting the same border or icon
gives back the same id.
"""

from __future__ import annotations

from winactions.model import Target


def identity_key(target: Target) -> str:
    """What makes two detections the same element across `state` calls."""
    if target.handle:
        return target.handle
    rect = target.rect.as_list() if target.rect else None
    return f"{target.source.value}|{target.type}|{target.name}|{rect}|{target.derived_from or ''}"


class IdRegistry:
    """Hands out increasing integer ids by identity key; persisted as plain data."""

    def __init__(self, next_id: int = 1, ids: dict[str, int] | None = None) -> None:
        self.next_id = next_id
        self.ids: dict[str, int] = dict(ids or {})

    def assign(self, targets: list[Target]) -> list[Target]:
        """Give every target its session id (new elements get fresh ids in document order)."""
        out = []
        for t in targets:
            key = identity_key(t)
            tid = self.ids.get(key)
            if tid is None:
                tid = self.next_id
                self.ids[key] = tid
                self.next_id += 1
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
