"""`Locator.locate(target)`: the fallback chain over one screenshot, validated and cached.

Targets name their strategy, or leave it to the chain:

    text:Save              OCR          image:run_button   reference image (asset library)
    dynamic:the green run  vision model fixed:tray          configured point
    Save                   template (if an asset is called so) → OCR → vision → fixed

One capture serves every strategy. Each attempt is recorded (what it found, its best
confidence, why it failed, how long it took); the chain stops at the first result at or above
the `reliable` threshold (0.8). Below it nothing is guessed: the result fails and lists the
best candidates instead. A winner is validated against the screens (off-screen rejected,
partly visible → `safe_region`) and cached for ≤ 30 s while its pixels stay the same.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from pydantic import BaseModel

from winactions import progress
from winactions.backends import own_pixels
from winactions.backends.base import Backend
from winactions.errors import InvalidInput, NotFound, WinctlError, shown
from winactions.locate import density
from winactions.locate.assets import AssetLibrary
from winactions.locate.cache import LocateCache, encode_thumbnail, thumbnail, ttl_from_env
from winactions.locate.fixed import FixedPoints
from winactions.locate.types import Candidate, PixelSource
from winactions.locate.validate import validate
from winactions.model import Rect, WindowInfo

STRATEGIES = ("template", "ocr", "vision", "fixed")
PREFIXES = {"text": "ocr", "image": "template", "dynamic": "vision", "fixed": "fixed"}
RELIABLE = 0.8
TEMPLATE_THRESHOLD = 0.75
MAX_CANDIDATES = 5
SURE_SCALE = 0.9  # a template found this well teaches the session the scale its app's images are drawn at


class Located(BaseModel):
    """One place a target was found, checked against the screens."""

    bbox: Rect
    center: tuple[int, int]
    click_point: tuple[int, int] | None
    confidence: float
    method: str
    label: str = ""
    visible_region: Rect | None = None
    safe_region: Rect | None = None
    visible_fraction: float = 0.0
    can_interact: bool = False
    valid: bool = True
    error: str | None = None
    scale: float | None = None  # an image found drawn this many times its reference's size (1 at its own)
    thumbnail: str | None = None  # the box's pixels when found (16x16 grey, base64): `verify-location` compares


class Attempt(BaseModel):
    strategy: str
    found: int = 0
    best: float | None = None
    error: str | None = None
    ms: float = 0.0


class LocateResult(BaseModel):
    """What a locate did: the element (if reliable), the alternatives, and how it got there."""

    target: str
    success: bool
    reliable: bool = False
    element: Located | None = None
    method_used: str | None = None
    candidates: list[Located] = []
    attempts: list[Attempt] = []
    cache_hit: bool = False
    searched: Rect | None = None
    error: str | None = None


@dataclass(frozen=True)
class Query:
    kind: str  # text | image | dynamic | fixed | auto
    value: str

    @classmethod
    def parse(cls, target: str) -> Query:
        prefix, sep, rest = target.partition(":")
        if sep and prefix in PREFIXES:
            if not rest.strip():
                example = "dynamic:the green run button" if prefix == "dynamic" else f"{prefix}:Save"
                raise InvalidInput(f"{prefix}: needs something after the colon", hint=f"e.g. {example}")
            return cls(prefix, rest.strip())
        if not target.strip():
            raise InvalidInput("the target is empty", hint="text:Save, image:NAME, dynamic:DESCRIPTION, fixed:NAME")
        return cls("auto", target.strip())


@dataclass
class Shot:
    """The one capture every strategy searches: BGR pixels and where they are on screen."""

    bgr: np.ndarray
    rect: Rect

    @property
    def origin(self) -> tuple[int, int]:
        return self.rect.left, self.rect.top

    def crop(self, rect: Rect) -> np.ndarray:
        part = rect.intersect(self.rect)
        if part is None:
            return np.zeros((0, 0), dtype=np.uint8)
        return self.bgr[
            part.top - self.rect.top : part.bottom - self.rect.top,
            part.left - self.rect.left : part.right - self.rect.left,
        ]


@dataclass
class Locator:
    """Strategies, the asset library, fixed points, a model and a cache, for one session.

    `backend` is where the pixels come from: the platform's backend, or a screenshot file
    (`ScreenFile`) — the locator asks only for the screens and a capture."""

    backend: PixelSource
    assets: AssetLibrary = field(default_factory=AssetLibrary.open)
    fixed: FixedPoints = field(default_factory=FixedPoints.open)
    model: Callable[[], Any] | None = None  # returns a LazyModel, or None when none is configured
    cache: LocateCache = field(default_factory=LocateCache)
    reliable: float = RELIABLE
    template_threshold: float = TEMPLATE_THRESHOLD
    last_seen: dict[str, Rect] = field(default_factory=dict)  # template hint: where an image was last found

    def locate(
        self,
        target: str,
        *,
        strategies: list[str] | None = None,
        region: Rect | None = None,
        window: WindowInfo | None = None,
        use_cache: bool = True,
        reliable: float | None = None,
    ) -> LocateResult:
        """`reliable` is this call's threshold (default: the locator's): the locator lives as
        long as a daemon or MCP server, so a call's choice must not stay behind for the next."""
        query = Query.parse(target)
        chain = self._chain(query, strategies, window)
        area = self._area(region, window)
        threshold = self.reliable if reliable is None else reliable
        key = json.dumps(
            [query.kind, query.value, chain, [area.left, area.top, area.right, area.bottom], threshold],
            ensure_ascii=False,
        )  # text: the cache may live in a file
        if use_cache:
            cached = self.cache.get(key, lambda r: to_grey(self.grab(r)))
            if cached is not None:
                return cached.model_copy(
                    update={
                        "cache_hit": True,
                        "attempts": [Attempt(strategy="cache", found=1, best=cached.element.confidence)],
                    }
                )
        shot = Shot(self.grab(area), area)
        result = self._run(target, query, chain, shot, window, threshold)
        if result.success and result.element is not None:
            pixels = to_grey(shot.crop(result.element.bbox))
            result.element.thumbnail = encode_thumbnail(thumbnail(pixels))
            self.cache.put(key, result, result.element.bbox, pixels)
        return result

    # -- the chain ---------------------------------------------------------------------------
    def _chain(self, query: Query, strategies: list[str] | None, window: WindowInfo | None) -> list[str]:
        if strategies:
            unknown = [s for s in strategies if s not in STRATEGIES]
            if unknown:
                raise InvalidInput(f"unknown strategy {shown(unknown[0])}", hint=f"strategies: {', '.join(STRATEGIES)}")
            return list(dict.fromkeys(strategies))
        if query.kind != "auto":
            chain = [PREFIXES[query.kind]]
            if query.kind == "image" and self.model is not None:
                chain.append("vision")  # an asset's description, when its images do not match
            return chain
        chain = ["ocr"]
        if self._asset(query.value, window) is not None:
            chain.insert(0, "template")
        if self.model is not None:
            chain.append("vision")
        if self.fixed.apps:
            chain.append("fixed")
        return chain

    def _run(  # noqa: C901  (one branch per locator strategy)
        self,
        target: str,
        query: Query,
        chain: list[str],
        shot: Shot,
        window: WindowInfo | None,
        reliable: float,
    ) -> LocateResult:
        attempts: list[Attempt] = []
        pool: list[Candidate] = []
        unusable: InvalidInput | None = None
        screens = self.backend.screens()
        for strategy in chain:
            progress.step(
                f"locate {target}: trying {strategy}"
                + (f" (after {', '.join(a.strategy for a in attempts)})" if attempts else "")
            )
            started = time.perf_counter()
            attempt = Attempt(strategy=strategy)
            try:
                found = self._try(strategy, query, shot, window)
            except InvalidInput as exc:  # the target is unusable to this strategy: said at the end, with its mend
                found, attempt.error = [], exc.message
                unusable = unusable or exc
            except WinctlError as exc:
                found, attempt.error = [], exc.message
            except Exception as exc:
                found, attempt.error = [], f"{type(exc).__name__}: {exc}"
            attempt.ms = round((time.perf_counter() - started) * 1000, 1)
            attempt.found = len(found)
            attempt.best = round(found[0].confidence, 3) if found else None
            if not found and attempt.error is None:
                attempt.error = "not found"
            attempts.append(attempt)
            valid = [c for c in found if validate(c.rect, screens).valid]
            if found and not valid:
                attempt.error = "found only off screen"
            valid, cover = self._shown(valid, window)
            if cover is not None and not valid:
                attempt.error = f"found only where {cover} covers the window"
            pool += valid
            best = valid[0] if valid else None
            if best is not None and best.confidence >= reliable:
                if best.method.startswith("template"):
                    self.last_seen[query.value] = best.rect
                    if best.confidence >= SURE_SCALE and "scale" in best.detail:
                        captured = best.detail.get("density")
                        self.cache.remember_scale(
                            _app(window) or "",
                            density.learned(float(best.detail["scale"]), None if captured is None else float(captured)),
                        )
                element = _located(best, screens)
                others = [_located(c, screens) for c in valid[1:MAX_CANDIDATES]]
                return LocateResult(
                    target=target,
                    success=True,
                    reliable=True,
                    element=element,
                    method_used=best.method,
                    candidates=others,
                    attempts=attempts,
                    searched=shot.rect,
                )
            if best is not None:
                attempt.error = f"best confidence {best.confidence:.2f} < {reliable}"
                if "runner_up" in best.detail:  # lowered by the strategy: another place matches as well
                    attempt.error += (
                        f", as another place matches about as well ({best.detail['runner_up']}):"
                        " `winctl locate` with --region picks one"
                    )
        pool.sort(key=lambda c: -c.confidence)
        why = "; ".join(f"{a.strategy}: {a.error}" for a in attempts) or "no strategy applies"
        if unusable is not None and not pool:
            # a reference that is no image, or flat: lowering the bar finds nothing, mending the input may
            raise InvalidInput(f"no reliable match for {shown(target)} ({why})", hint=unusable.hint)
        return LocateResult(
            target=target,
            success=False,
            candidates=[_located(c, screens) for c in pool[:MAX_CANDIDATES]],
            attempts=attempts,
            searched=shot.rect,
            error=f"no reliable match for {target!r} ({why})",
        )

    def _try(self, strategy: str, query: Query, shot: Shot, window: WindowInfo | None) -> list[Candidate]:
        if strategy == "ocr":
            from winactions.locate.ocr import find_text

            return find_text(shot.bgr, query.value, origin=shot.origin)
        if strategy == "template":
            return self._template(query, shot, window)
        if strategy == "vision":
            return self._vision(query, shot, window)
        if strategy == "fixed":
            return self.fixed.find(query.value, window)
        raise InvalidInput(f"unknown strategy {shown(strategy)}")

    def _template(self, query: Query, shot: Shot, window: WindowInfo | None) -> list[Candidate]:
        """The asset's images in the shot, each searched first at the scale its density and the
        window's say (`locate.density`), else at the one this session remembers for the app."""
        from winactions.locate.template import find_as_said, load_image

        asset = self._asset(query.value, window)
        if asset is None:
            asset = self.assets.resolve(query.value, _app(window))  # raises with the library's hint
        drawn = self.backend.density(window)
        best: list[Candidate] = []
        for path in asset.images:
            captured = density.recorded(path)
            where = density.search(captured, drawn, self.cache.known_scale(_app(window) or ""))
            found = find_as_said(
                shot.bgr,
                load_image(path),
                where,
                origin=shot.origin,
                threshold=self.template_threshold,
                hint=self.last_seen.get(query.value),
            )
            found = [
                Candidate(c.rect, c.confidence, c.method, asset.name, {**c.detail, **_marked(path.name, captured, c)})
                for c in found
            ]
            best = sorted([*best, *found], key=lambda c: -c.confidence)
            if best and best[0].confidence >= self.reliable:
                break
        return best

    def _vision(self, query: Query, shot: Shot, window: WindowInfo | None) -> list[Candidate]:
        """A description goes to the model as text; an asset with images goes as the images
        themselves beside the screenshot (one-shot): a reference the template could not match
        (another theme, scale or state) is still what it looks like."""
        from PIL import Image

        from winactions.locate.vision import REFERENCES, find_described, find_reference

        model = self.model() if self.model is not None else None
        if model is None:
            raise NotFound(
                "no vision model is configured", hint="pass --vision-api-key (or --vision-base-url for a local server)"
            )
        image = Image.fromarray(np.ascontiguousarray(shot.bgr[:, :, ::-1]))
        if query.kind not in ("image", "auto"):
            return find_described(model, image, shot.origin, query.value)
        asset = self._asset(query.value, window)
        if asset is not None and asset.images:
            from winactions.locate.files import read_image

            references = [read_image(path, "the reference image") for path in asset.images[:REFERENCES]]
            return find_reference(model, image, shot.origin, references, asset.name, asset.description)
        description = (
            asset.description
            if asset is not None and asset.description
            else (f'the element labelled or looking like "{query.value}"')
        )
        return find_described(model, image, shot.origin, description)

    # -- helpers -----------------------------------------------------------------------------
    def _shown(self, found: list[Candidate], window: WindowInfo | None) -> tuple[list[Candidate], str | None]:
        """The candidates the window itself shows, and what lies over the first that it does
        not (another app's window, a tooltip): a window's capture holds whatever covers it."""
        if window is None:
            return found, None
        shown, cover = [], None
        for c in found:
            over = self.backend.covering(window.id, *c.rect.center, True)  # a menu of its own is the window's
            if over is None:
                shown.append(c)
            elif cover is None:
                cover = over
        return shown, cover

    def _asset(self, name: str, window: WindowInfo | None) -> Any:
        try:
            return self.assets.resolve(name, _app(window))
        except WinctlError:
            return None

    def _area(self, region: Rect | None, window: WindowInfo | None) -> Rect:
        screens = self.backend.screens()
        if region is not None:
            parts = [p for s in screens if (p := region.intersect(s)) is not None]
            if not parts:
                raise InvalidInput(
                    f"the region {region} is off every screen", hint=f"screens: {', '.join(str(s) for s in screens)}"
                )
            return max(parts, key=lambda r: r.area)
        if window is not None and window.rect is not None:
            part = next((p for s in screens if (p := window.rect.intersect(s)) is not None), None)
            if part is not None:
                return part
        return max(screens, key=lambda r: r.area)

    def grab(self, rect: Rect) -> np.ndarray:
        """The BGR pixels of a rectangle of the screens (or of the screenshot file)."""
        image = self.backend.capture(rect)
        if isinstance(self.backend, Backend):  # the live desktop: winctl's own overlays are not the apps'
            image = own_pixels.paint_out(image, (rect.left, rect.top), [r for r, _ in self.backend.overlays()])
        image = image.convert("RGB")
        return np.ascontiguousarray(np.asarray(image)[:, :, ::-1])


def session_cache(path: Path, lock: Callable[[], AbstractContextManager[Any]]) -> LocateCache:
    """A session's cache of `LocateResult`s, kept in `path` (see `LocateCache`)."""
    return LocateCache(
        ttl_from_env(),
        path=path,
        lock=lock,
        encode=lambda r: r.model_dump(mode="json"),
        decode=LocateResult.model_validate,
    )


def _located(c: Candidate, screens: list[Rect]) -> Located:
    v = validate(c.rect, screens)
    scale = c.detail.get("scale") if c.method.startswith("template") else None
    return Located(
        bbox=c.rect,
        center=c.rect.center,
        click_point=v.click_point,
        confidence=round(c.confidence, 3),
        method=c.method,
        label=c.label,
        visible_region=v.visible_region,
        safe_region=v.safe_region,
        visible_fraction=v.visible_fraction,
        can_interact=v.can_interact,
        valid=v.valid,
        error=v.error,
        scale=None if scale is None else float(scale),
    )


def to_grey(bgr: np.ndarray) -> np.ndarray:
    return bgr.mean(axis=2) if bgr.ndim == 3 else bgr


def _app(window: WindowInfo | None) -> str | None:
    return window.process if window is not None else None


def _marked(image: str, captured: float | None, found: Candidate) -> dict[str, float | str]:
    """What a template find says of its reference: the image, and the density it was captured
    at, which the session's remembered scale is taken from (`density.learned`) unless the find
    ignored it (a file that says its density wrongly)."""
    if captured is None or found.detail.get("densities") == "ignored":
        return {"image": image}
    return {"image": image, "density": captured}


def parse_region(text: str) -> Rect:
    """`x,y,width,height` (negative x/y allowed for monitors left of or above the primary)."""
    parts = [p.strip() for p in text.split(",")]
    try:
        x, y, w, h = (int(p) for p in parts)
    except ValueError:
        raise InvalidInput(f"region {shown(text)} is not x,y,width,height", hint="e.g. --region 0,0,800,600") from None
    if w <= 0 or h <= 0:
        raise InvalidInput(f"region {shown(text)} has no area", hint="width and height must be positive")
    return Rect.from_xywh(x, y, w, h)
