"""The locate cache kept in a session's file (issue 15.6): shared by separate processes,
with the same 30 s limit and pixel re-check, safe when processes write at once."""

from __future__ import annotations

import json
import multiprocessing
from pathlib import Path

import numpy as np
import pytest

from winactions.errors import InvalidInput
from winactions.locate.cache import LocateCache, decode_thumbnail, encode_thumbnail, thumbnail, ttl_from_env
from winactions.locate.locator import Located, LocateResult, session_cache
from winactions.model import Rect
from winactions.session.store import SessionStore

BOX = Rect(left=10, top=20, right=110, bottom=50)
RNG = np.random.default_rng(7)
PIXELS = RNG.integers(0, 255, size=(30, 100)).astype(np.float64)  # a textured element


def grab_from(image: np.ndarray):
    return lambda r: image[r.top - BOX.top:r.bottom - BOX.top, r.left - BOX.left:r.right - BOX.left]


def file_cache(path: Path, now: list[float], ttl: float = 30) -> LocateCache:
    return LocateCache(ttl, clock=lambda: now[0], path=path)


def test_a_second_process_sees_the_first_ones_entries_and_counters(tmp_path):
    now = [1000.0]
    first, second = file_cache(tmp_path / "c.json", now), file_cache(tmp_path / "c.json", now)
    first.put("apply", {"found": "here"}, BOX, PIXELS)
    assert second.get("apply", grab_from(PIXELS)) == {"found": "here"}
    assert first.stats == second.stats == {"hits": 1, "misses": 0, "stale": 0, "entries": 1, "hit_rate": 1.0}
    changed = PIXELS.copy()
    changed[5:25, 20:60] = 255 - changed[5:25, 20:60]  # a new label where the old one was
    assert first.get("apply", grab_from(changed)) is None
    assert second.stats["stale"] == 1 and second.stats["entries"] == 0
    second.put("apply", {"found": "again"}, BOX, PIXELS)
    now[0] += 31
    assert first.get("apply", grab_from(PIXELS)) is None, "older than the TTL"
    second.put("x", 1, BOX, PIXELS)
    assert first.clear() == 1 and second.stats["entries"] == 0 and second.stats["stale"] == 2


def test_a_torn_or_foreign_file_starts_over(tmp_path):
    path = tmp_path / "c.json"
    for text in ("{not json", json.dumps({"format": 99, "entries": []}), json.dumps([1, 2]),
                 json.dumps({"format": 1, "hits": 0, "misses": 0, "stale": 0, "entries": [{"key": "a"}]})):
        path.write_text(text)
        cache = file_cache(path, [0.0])
        assert cache.get("a", grab_from(PIXELS)) is None and cache.stats["entries"] == 0
    cache.put("a", 1, BOX, PIXELS)
    assert json.loads(path.read_text())["entries"][0]["key"] == "a"


def test_the_session_cache_round_trips_locate_results(tmp_path):
    store = SessionStore("work1", directory=tmp_path)
    cache = session_cache(store.locate_cache_path(), store.locate_cache_lock)
    element = Located(bbox=BOX, center=BOX.center, click_point=BOX.center, confidence=0.97, method="ocr",
                      label="Apply", thumbnail=encode_thumbnail(thumbnail(PIXELS)))
    result = LocateResult(target="text:Apply", success=True, reliable=True, element=element, method_used="ocr")
    cache.put("k", result, BOX, PIXELS)
    again = session_cache(store.locate_cache_path(), store.locate_cache_lock).get("k", grab_from(PIXELS))
    assert isinstance(again, LocateResult) and again == result
    assert store.locate_cache_path() == tmp_path / "work1.locate.json"


def test_the_ttl_can_only_be_lowered(monkeypatch):
    monkeypatch.delenv("WINCTL_LOCATE_CACHE_TTL", raising=False)
    assert ttl_from_env() == 30
    monkeypatch.setenv("WINCTL_LOCATE_CACHE_TTL", "2.5")
    assert ttl_from_env() == 2.5
    for bad in ("45", "-1", "soon"):
        monkeypatch.setenv("WINCTL_LOCATE_CACHE_TTL", bad)
        with pytest.raises(InvalidInput, match="WINCTL_LOCATE_CACHE_TTL"):
            ttl_from_env()


def test_thumbnails_as_text_and_bad_ones():
    thumb = thumbnail(PIXELS)
    assert np.abs(decode_thumbnail(encode_thumbnail(thumb)) - thumb).max() <= 0.5
    for bad in ("", "abc", encode_thumbnail(thumb)[:-8]):
        with pytest.raises(InvalidInput, match="thumbnail"):
            decode_thumbnail(bad)


def _writer(directory: str, worker: int) -> None:
    store = SessionStore("race", directory=Path(directory))
    cache = LocateCache(path=store.locate_cache_path(), lock=store.locate_cache_lock)
    for i in range(15):
        cache.put(f"{worker}-{i}", i, BOX, PIXELS)
        cache.get(f"{worker}-{i}", grab_from(PIXELS))


def test_processes_writing_at_once_lose_nothing(tmp_path):
    context = multiprocessing.get_context("spawn")
    workers = [context.Process(target=_writer, args=(str(tmp_path), n)) for n in range(4)]
    for w in workers:
        w.start()
    for w in workers:
        w.join(120)
        assert w.exitcode == 0
    stats = LocateCache(path=tmp_path / "race.locate.json").stats
    assert stats["entries"] == 60 and stats["hits"] == 60 and stats["misses"] == 0
