"""Remember where a target was found, and trust it only while the pixels there still match.

A hit needs an entry younger than the TTL (MAX_TTL, lowered by WINCTL_LOCATE_CACHE_TTL, 0–30 s)
and a 16×16 grey thumbnail of the box that differs from the remembered one by at most MAX_DIFF
on average and MAX_CELL_DIFF in any cell (`same_pixels`). A session's cache lives in a file
beside its store (`path`), re-read when another process wrote it and written back atomically
under its own lock (`lock`), so one-shot processes and the daemon share it. Per app it also
keeps the scale of the last sure template find (`remember_scale`), with no TTL. Why the
thumbnail has cells, and why the scale needs no check: docs/locator.md ("Cache entries and
the remembered scale").
"""

from __future__ import annotations

import base64
import contextlib
import json
import threading
import time
from collections.abc import Callable, Hashable
from contextlib import AbstractContextManager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from winactions import settings
from winactions.errors import InvalidInput
from winactions.files import stamp, write_whole
from winactions.model import Rect

THUMB = 16
MAX_DIFF = 12.0  # mean absolute grey difference (0..255) still counted as "the same pixels"
MAX_CELL_DIFF = 40.0  # ...and the largest difference of one cell (a 1 px jitter stays below; a new label does not)
MAX_TTL = settings.LOCATE_CACHE_TTL.default
TTL_ENV = settings.LOCATE_CACHE_TTL.name
FORMAT = 1  # the file's layout; a file of another layout is started over, never misread


@dataclass
class _Entry:
    value: Any
    rect: Rect
    thumb: np.ndarray
    stored: float


class LocateCache:
    """A small TTL cache of located boxes, validated by their pixels on every hit.

    In memory by default (a daemon's, an MCP server's); with `path` it lives in that file, and
    `encode`/`decode` turn values into JSON and back (`lock` guards the file across processes)."""

    def __init__(
        self,
        ttl: float = MAX_TTL,
        max_entries: int = 256,
        clock: Callable[[], float] | None = None,
        *,
        path: Path | None = None,
        encode: Callable[[Any], Any] | None = None,
        decode: Callable[[Any], Any] | None = None,
        lock: Callable[[], AbstractContextManager[Any]] | None = None,
    ) -> None:
        self.ttl = ttl
        self.max_entries = max_entries
        self.clock = clock or (time.time if path is not None else time.monotonic)
        self.path = path
        self.hits = 0
        self.misses = 0
        self.stale = 0  # entries found but refused: too old, or their pixels changed
        self._entries: dict[Hashable, _Entry] = {}
        self._lock = threading.Lock()
        self._encode = encode or (lambda v: v)
        self._decode = decode or (lambda v: v)
        self._file_lock = lock or contextlib.nullcontext
        self._seen: tuple[int, int, int] | None = None
        self._scales: dict[str, float] = {}

    def get(self, key: Hashable, grab: Callable[[Rect], np.ndarray]) -> Any | None:
        """The cached value if it is fresh and `grab(rect)` (grey pixels there now) still matches."""
        with self._update():
            entry = self._entries.get(key)
            if entry is None:
                self.misses += 1
                return None
        fresh = self.clock() - entry.stored <= self.ttl
        if not fresh or not same_pixels(entry.thumb, thumbnail(grab(entry.rect))):
            with self._update():
                current = self._entries.get(key)
                if current is not None and current.stored == entry.stored:  # not one stored since
                    self._entries.pop(key, None)
                self.stale += 1
                self.misses += 1
            return None
        with self._update():
            self.hits += 1
        return entry.value

    def put(self, key: Hashable, value: Any, rect: Rect, pixels: np.ndarray) -> None:
        with self._update():
            if key not in self._entries and len(self._entries) >= self.max_entries:
                oldest = min(self._entries, key=lambda k: self._entries[k].stored)
                del self._entries[oldest]
            self._entries[key] = _Entry(value, rect, thumbnail(pixels), self.clock())

    def clear(self) -> int:
        """Forget every entry and remembered scale (the counters stay); returns how many entries
        there were."""
        with self._update():
            count = len(self._entries)
            self._entries.clear()
            self._scales.clear()
        return count

    def remember_scale(self, app: str, scale: float) -> None:
        """This display draws `app`'s reference images `scale` times their size (a sure find)."""
        with self._update():
            self._scales[app] = round(scale, 4)

    def known_scale(self, app: str) -> float | None:
        """The scale `remember_scale` last kept for `app`, if any."""
        with self._update(write=False):
            return self._scales.get(app)

    @property
    def stats(self) -> dict[str, float]:
        with self._update(write=False):
            total = self.hits + self.misses
            return {
                "hits": self.hits,
                "misses": self.misses,
                "stale": self.stale,
                "entries": len(self._entries),
                "hit_rate": round(self.hits / total, 3) if total else 0.0,
            }

    # -- the file ------------------------------------------------------------------------------
    @contextlib.contextmanager
    def _update(self, write: bool = True) -> Any:
        """One consistent step: the other processes' writes read first, this one's written after."""
        with self._lock, self._file_lock():
            self._reload()
            yield
            if write and self.path is not None:
                self._save()

    def _reload(self) -> None:
        if self.path is None or stamp(self.path) == self._seen:
            return
        self._seen = stamp(self.path)
        self._entries, self._scales, self.hits, self.misses, self.stale = {}, {}, 0, 0, 0
        try:
            raw = json.loads(self.path.read_text(encoding="utf-8"))
            if raw.get("format") != FORMAT:
                return
            self.hits, self.misses, self.stale = int(raw["hits"]), int(raw["misses"]), int(raw["stale"])
            for item in raw["entries"]:
                left, top, right, bottom = item["rect"]
                self._entries[item["key"]] = _Entry(
                    self._decode(item["value"]),
                    Rect(left=left, top=top, right=right, bottom=bottom),
                    decode_thumbnail(item["thumb"]),
                    float(item["stored"]),
                )
            self._scales = {str(app): float(scale) for app, scale in raw.get("scales", {}).items()}
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            self._entries, self._scales = {}, {}  # a torn or foreign file: start over rather than fail the locate

    def _save(self) -> None:
        assert self.path is not None
        payload = json.dumps(
            {
                "format": FORMAT,
                "hits": self.hits,
                "misses": self.misses,
                "stale": self.stale,
                "entries": [
                    {
                        "key": key,
                        "value": self._encode(e.value),
                        "thumb": encode_thumbnail(e.thumb),
                        "rect": [e.rect.left, e.rect.top, e.rect.right, e.rect.bottom],
                        "stored": e.stored,
                    }
                    for key, e in self._entries.items()
                ],
                "scales": self._scales,
            }
        )
        self._seen = write_whole(self.path, payload)


def ttl_from_env() -> float:
    """The TTL: `WINCTL_LOCATE_CACHE_TTL` seconds when set (0–30), else MAX_TTL."""
    return settings.LOCATE_CACHE_TTL.read()


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
            cell = grey[ys[i] : max(ys[i + 1], ys[i] + 1), xs[j] : max(xs[j + 1], xs[j] + 1)]
            out[i, j] = float(cell.mean())
    return out


def difference(a: np.ndarray, b: np.ndarray) -> tuple[float, float]:
    """Mean and largest absolute grey difference of two thumbnails' cells (infinite when
    their shapes differ)."""
    if a.shape != b.shape:
        return float("inf"), float("inf")
    cells = np.abs(a.astype(np.float32) - b.astype(np.float32))
    return float(cells.mean()), float(cells.max())


def same_pixels(a: np.ndarray, b: np.ndarray) -> bool:
    mean, largest = difference(a, b)
    return mean <= MAX_DIFF and largest <= MAX_CELL_DIFF


def encode_thumbnail(thumb: np.ndarray) -> str:
    """A thumbnail as text (256 grey bytes in base64): kept in files and handed to agents."""
    return base64.b64encode(np.clip(np.rint(thumb), 0, 255).astype(np.uint8).tobytes()).decode("ascii")


def decode_thumbnail(text: str) -> np.ndarray:
    """The thumbnail `encode_thumbnail` wrote; anything else is a clear error."""
    try:
        raw = base64.b64decode(text.strip(), validate=True)
    except (ValueError, TypeError):
        raw = b""
    if len(raw) != THUMB * THUMB:
        raise InvalidInput(
            "the thumbnail is not one `locate` printed (256 grey values in base64)",
            hint="pass the element's `thumbnail` from `winctl --json locate ...`",
        )
    return np.frombuffer(raw, dtype=np.uint8).reshape(THUMB, THUMB).astype(np.float32)
