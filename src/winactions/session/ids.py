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


def identity_key(target: Target, run: str | None = None) -> str:
    """What makes two detections the same element across `state` calls: its handle (else what
    it is and where), within one run of its app (`Backend.run_of`) when the run is known."""
    if target.handle:
        key = target.handle
    else:
        rect = target.rect.as_list() if target.rect else None
        key = f"{target.source.value}|{target.type}|{target.name}|{rect}|{target.derived_from or ''}"
    return f"{run}#{key}" if run else key


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
    """Hands out increasing integer ids by identity key; persisted as plain data.

    An id is never handed out twice: `next_id` only grows, and a key's id is dropped (retired)
    rather than given to another key. Keys carry the run of the app they were read from, and
    the registry remembers each window's run (`runs`): a window whose app is another run than
    its ids were given for (`retire`) has that run's keys dropped."""

    def __init__(self, next_id: int = 1, ids: dict[str, int] | None = None, runs: dict[str, str] | None = None) -> None:
        self.next_id = next_id
        self.ids: dict[str, int] = dict(ids or {})
        self.runs: dict[str, str] = dict(runs or {})  # window id -> the run its ids were given for

    def retire(self, window_id: str, run: str | None) -> bool:
        """Record that window `window_id` now shows run `run` of its app; True when it showed
        another run before, whose ids are then retired: never given to an element again."""
        old = self.runs.get(window_id)
        if run is None:
            return False
        self.runs[window_id] = run
        if old is None or old == run:
            return False
        self.ids = {key: tid for key, tid in self.ids.items() if not key.startswith(f"{old}#")}
        return True

    def assign(
        self, targets: list[Target], previous: list[Target] | None = None, run: str | None = None
    ) -> list[Target]:
        """Give every target its session id (new elements get fresh ids in document order). A
        target without a handle that is a target of `previous` (the window's last state, of
        the same run) seen again in its place (`seen_again`) keeps that one's id. `run`: the
        run of the app the targets were read from; an element of another run never gets the
        id of one of this."""
        again = seen_again(previous or [], targets)
        keys = [identity_key(t, run) for t in targets]
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
        """Was this id ever handed out (it may since have been retired)?"""
        return 1 <= target_id < self.next_id

    def to_data(self) -> dict[str, object]:
        """The registry as plain data for the session's file (`from_data` reads it back)."""
        return {"next_id": self.next_id, "ids": self.ids, "runs": self.runs}

    @classmethod
    def from_data(cls, data: dict[str, object]) -> IdRegistry:
        """The registry `to_data` wrote; a part that is missing or malformed starts empty."""
        next_id = data.get("next_id", 1)
        ids = data.get("ids", {})
        runs = data.get("runs", {})
        return cls(
            int(next_id) if isinstance(next_id, int) else 1,
            dict(ids) if isinstance(ids, dict) else {},
            dict(runs) if isinstance(runs, dict) else {},
        )
