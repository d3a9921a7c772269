"""Remember where a target was found — but never trust the memory blindly.

A hit needs two things: the entry is younger than the TTL (30 s at most by default, as seed
002 asks), and the pixels at the remembered place still look the same. The second check is
a 16×16 grey thumbnail of the box compared by mean absolute difference — a few microseconds
— so an element that moved, changed or was covered is re-located instead of clicked at its
old place.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any

import numpy as np

from winactions.model import Rect

THUMB = 16
MAX_DIFF = 12.0  # mean absolute grey difference (0..255) still counted as "the same pixels"


@dataclass
class _Entry:
    value: Any
    rect: Rect
    thumb: np.ndarray
    stored: float


class LocateCache:
    """A small TTL cache of located boxes, validated by their pixels on every hit."""

    def __init__(self, ttl: float = 30.0, max_entries: int = 256, clock: Callable[[], float] = time.monotonic):
        self.ttl = ttl
        self.max_entries = max_entries
        self.clock = clock
        self.hits = 0
        self.misses = 0
        self.stale = 0  # entries found but refused: too old, or their pixels changed
        self._entries: dict[Hashable, _Entry] = {}
        self._lock = threading.Lock()

    def get(self, key: Hashable, grab: Callable[[Rect], np.ndarray]) -> Any | None:
        """The cached value if it is fresh and `grab(rect)` (grey pixels there now) still matches."""
        with self._lock:
            entry = self._entries.get(key)
        if entry is None:
            self.misses += 1
            return None
        if self.clock() - entry.stored > self.ttl or not same_pixels(entry.thumb, thumbnail(grab(entry.rect))):
            with self._lock:
                self._entries.pop(key, None)
            self.stale += 1
            self.misses += 1
            return None
        self.hits += 1
        return entry.value

    def put(self, key: Hashable, value: Any, rect: Rect, pixels: np.ndarray) -> None:
        with self._lock:
            if len(self._entries) >= self.max_entries:
                oldest = min(self._entries, key=lambda k: self._entries[k].stored)
                del self._entries[oldest]
            self._entries[key] = _Entry(value, rect, thumbnail(pixels), self.clock())

    def clear(self) -> int:
        """Forget everything; returns how many entries there were."""
        with self._lock:
            count = len(self._entries)
            self._entries.clear()
        return count

    @property
    def stats(self) -> dict[str, float]:
        total = self.hits + self.misses
        return {"hits": self.hits, "misses": self.misses, "stale": self.stale, "entries": len(self._entries),
                "hit_rate": round(self.hits / total, 3) if total else 0.0}


def thumbnail(grey: np.ndarray) -> np.ndarray:
    """A THUMB×THUMB float summary of a grey image (area averaging, no OpenCV needed)."""
    if grey.ndim == 3:
        grey = grey.mean(axis=2)
    h, w = grey.shape[:2]
    if h == 0 or w == 0:
        return np.zeros((THUMB, THUMB), dtype=np.float32)
    ys = np.linspace(0, h, THUMB + 1).astype(int)
    xs = np.linspace(0, w, THUMB + 1).astype(int)
    out = np.empty((THUMB, THUMB), dtype=np.float32)
    for i in range(THUMB):
        for j in range(THUMB):
            cell = grey[ys[i]:max(ys[i + 1], ys[i] + 1), xs[j]:max(xs[j + 1], xs[j] + 1)]
            out[i, j] = float(cell.mean())
    return out


def same_pixels(a: np.ndarray, b: np.ndarray) -> bool:
    return a.shape == b.shape and float(np.abs(a - b).mean()) <= MAX_DIFF
