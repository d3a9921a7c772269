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
    return lambda r: image[r.top - BOX.top : r.bottom - BOX.top, r.left - BOX.left : r.right - BOX.left]


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
    for text in (
        "{not json",
        json.dumps({"format": 99, "entries": []}),
        json.dumps([1, 2]),
        json.dumps({"format": 1, "hits": 0, "misses": 0, "stale": 0, "entries": [{"key": "a"}]}),
    ):
        path.write_text(text)
        cache = file_cache(path, [0.0])
        assert cache.get("a", grab_from(PIXELS)) is None and cache.stats["entries"] == 0
    cache.put("a", 1, BOX, PIXELS)
    assert json.loads(path.read_text())["entries"][0]["key"] == "a"


def test_the_session_cache_round_trips_locate_results(tmp_path):
    store = SessionStore("work1", directory=tmp_path)
    cache = session_cache(store.locate_cache_path(), store.locate_cache_lock)
    element = Located(
        bbox=BOX,
        center=BOX.center,
        click_point=BOX.center,
        confidence=0.97,
        method="ocr",
        label="Apply",
        thumbnail=encode_thumbnail(thumbnail(PIXELS)),
    )
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


def test_a_remembered_scale_is_shared_by_processes_and_forgotten_on_clear(tmp_path):
    """The scale at which a display draws an app's reference images (`remember_scale`) lives in
    the session's cache file beside the places: a later one-shot process searches at it first.
    It has no TTL; `locate-cache clear` forgets it with the places."""
    now = [1000.0]
    first, second = file_cache(tmp_path / "c.json", now), file_cache(tmp_path / "c.json", now)
    assert second.known_scale("galculator") is None
    first.remember_scale("galculator", 1.2496)
    first.remember_scale("", 0.5)
    now[0] += 3600
    assert second.known_scale("galculator") == 1.2496 and second.known_scale("") == 0.5
    assert second.known_scale("mate-calc") is None
    second.put("a", 1, BOX, PIXELS)
    assert json.loads((tmp_path / "c.json").read_text())["scales"] == {"galculator": 1.2496, "": 0.5}
    assert first.clear() == 1
    assert second.known_scale("galculator") is None


def test_a_torn_scale_memory_starts_over(tmp_path):
    path = tmp_path / "c.json"
    path.write_text(
        json.dumps({"format": 1, "hits": 0, "misses": 0, "stale": 0, "entries": [], "scales": {"galculator": "large"}})
    )
    cache = file_cache(path, [0.0])
    assert cache.known_scale("galculator") is None and cache.stats["entries"] == 0
    cache.remember_scale("galculator", 2.0)
    assert file_cache(path, [0.0]).known_scale("galculator") == 2.0


def test_a_second_process_searches_at_the_scale_the_first_found(tmp_path, monkeypatch):
    """Two locators on one session's cache file, as two one-shot `winctl` processes: the first
    finds MATE Calculator's "7" (captured at 1x) in the window drawn at 1.25x, and keeps that
    scale; the second is handed it for "8", and finds "8" there."""
    import cv2

    from winactions.locate import template
    from winactions.locate.files import ScreenFile
    from winactions.locate.locator import Locator

    keypads = Path(__file__).parent / "fixtures" / "screens" / "keypads"
    image = cv2.imread(str(keypads / "mate-calc-basic.png"))
    labels = {k["label"]: k["rect"] for k in json.loads((keypads / "mate-calc-basic.json").read_text())["labels"]}
    cv2.imwrite(str(tmp_path / "shot.png"), cv2.resize(image, None, fx=1.25, fy=1.25, interpolation=cv2.INTER_LINEAR))
    for key in ("7", "8"):
        left, top, right, bottom = labels[key]
        cv2.imwrite(str(tmp_path / f"{key}.png"), image[top:bottom, left:right])
    hints: list[float | None] = []
    real = template.find_template

    def spy(*args, **kwargs):
        hints.append(kwargs.get("scale_hint"))
        return real(*args, **kwargs)

    monkeypatch.setattr(template, "find_template", spy)
    store = SessionStore("s", directory=tmp_path)

    def locate(key: str):
        locator = Locator(
            ScreenFile.open(tmp_path / "shot.png"),
            cache=session_cache(store.locate_cache_path(), store.locate_cache_lock),
        )
        return locator.locate(f"image:{tmp_path / f'{key}.png'}", strategies=["template"])

    for key in ("7", "8"):
        found = locate(key)
        left, top, right, bottom = (round(v * 1.25) for v in labels[key])
        x, y = found.element.click_point
        assert found.success and left <= x < right and top <= y < bottom, (key, found)
    assert hints[0] is None and abs(hints[1] - 1.25) < 0.03, hints
