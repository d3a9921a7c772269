"""`locate`: find an element from pixels (template, OCR, vision model, fixed points), and the
locator's cache. The same targets work in the action commands: `winctl click text:Save`.

`match`, `locate --in shot.png` and `verify-location --in shot.png` read only files: their
commands say so (`offline`), and every front end runs such calls without opening the desktop.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import AliasChoices, Field

from winactions.commands.base import Context, Kind, Params, command
from winactions.commands.results import LocateCacheResult, LocateCommandResult, MatchResult, VerifyResult
from winactions.errors import NotFound

STRATEGY_HELP = "try only these strategies, in this order: template, ocr, vision, fixed"
IN_HELP = "search this screenshot file instead of the screen (no desktop needed; boxes are the file's pixels)"


def _in_field() -> Any:
    # `in` is a Python keyword: the field is `in_`, spelled `--in` on the command line and "in" in MCP
    return Field(None, validation_alias=AliasChoices("in", "in_"), description=IN_HELP)


class LocateParams(Params):
    target: str = Field(
        description="text:Save, image:ASSET (or image:path/to/ref.png), dynamic:DESCRIPTION, "
        "fixed:NAME, or plain text for the whole fallback chain"
    )
    strategy: list[Literal["template", "ocr", "vision", "fixed"]] = Field(
        default_factory=list, description=STRATEGY_HELP
    )
    region: str | None = Field(None, description="search only x,y,width,height on screen")
    screen: bool = Field(False, description="search every screen, not just the window")
    no_cache: bool = Field(False, description="look again even if a fresh cached result exists")
    reliable: float = Field(0.8, ge=0, le=1, description="confidence a result needs to count as found")
    in_: str | None = _in_field()


def _file_locator(ctx: Context, path: str) -> Any:
    """A locator whose screen is a screenshot file: no backend, no session, no cache (a file
    does not change); the model, when one is configured, from this call's options."""
    from winactions.extras import require

    require("vision", "numpy", "cv2", feature="finding targets in screenshots")
    from winactions.llm.lazy import LazyModel
    from winactions.locate.cache import LocateCache
    from winactions.locate.files import ScreenFile
    from winactions.locate.locator import Locator

    flags = ctx.options.llm
    return Locator(
        ScreenFile.open(path), model=(lambda: LazyModel(flags)) if flags.configured else None, cache=LocateCache(ttl=0)
    )


@command("locate", LocateParams, positional=("target",), offline="in_", profiles=("vision",))
def locate(ctx: Context, p: LocateParams) -> LocateCommandResult:
    """Find an element on screen from pixels when the accessibility tree does not show it.

    Tries the strategies in order and stops at the first reliable match; below the
    `--reliable` confidence it fails and lists the best candidates instead of guessing.
    Searches the window unless `--region` or `--screen` is given; `--in shot.png` searches
    a saved screenshot instead (no desktop needed)."""
    # first the locator: it says which extra to install when pixels cannot be read here
    locator = _file_locator(ctx, p.in_) if p.in_ is not None else ctx.session.locator()
    from winactions.locate.locator import parse_region

    region = parse_region(p.region) if p.region else None
    if p.in_ is not None:
        result = locator.locate(
            p.target, strategies=p.strategy or None, region=region, use_cache=False, reliable=p.reliable
        )
    else:
        if p.screen and region is None and (display := ctx.session.display()) is not None:
            region = display.rect  # on a chosen display, the screen is that monitor
        window = None if p.screen or region is not None else ctx.window()
        result = locator.locate(
            p.target,
            strategies=p.strategy or None,
            region=region,
            window=window,
            use_cache=not p.no_cache,
            reliable=p.reliable,
        )
    if not result.success:
        options = "; ".join(f'"{c.label}" {c.bbox} {c.confidence:.2f} by {c.method}' for c in result.candidates[:3])
        raise NotFound(
            result.error or f"{p.target!r} was not found",
            hint=(f"closest: {options}; lower --reliable, " if options else "")
            + "try another --strategy, or look with `winctl screenshot`",
        )
    return LocateCommandResult(located=result, cache=locator.cache.stats if p.in_ is None else {})


class MatchParams(Params):
    reference: str = Field(description="the reference image file: a crop of the element")
    image: str = Field(description="the screenshot file to search")
    threshold: float = Field(
        0.75,
        ge=0.3,
        le=1,
        description="confidence a match needs (TM_CCOEFF_NORMED score, or the feature matcher's inlier share)",
    )


@command("match", MatchParams, positional=("reference", "image"), offline=True, profiles=("vision",))
def match(ctx: Context, p: MatchParams) -> MatchResult:
    """Find a reference image in a screenshot file, by template matching.

    Exact match first, then scales 0.5-1.5, then ORB features. When both files record their
    pixel density (`screenshot --element`, or a name like ref@2x.png) and they differ: their
    ratio first, then 0.7-1.4 times it, then 0.5-1.5. Prints each place with its box,
    confidence, method and scale. Needs no desktop: for checks on saved screenshots."""
    from winactions.extras import require

    require("vision", "numpy", "cv2", feature="matching images")
    from winactions.locate.match import match_files

    found = match_files(p.reference, p.image, p.threshold)
    return MatchResult(
        reference=p.reference,
        image=p.image,
        threshold=p.threshold,
        matches=[
            MatchResult.Match(
                box=c.rect,
                center=c.rect.center,
                confidence=c.confidence,
                method=c.method,
                scale=float(c.detail.get("scale", 1.0)),
            )
            for c in found
        ],
    )


class VerifyParams(Params):
    target: str = Field(description="the target as it was located (text:Save, image:NAME, ...)")
    at: str = Field(description="x,y,width,height: the box where it was found (the located `bbox`)")
    thumbnail: str | None = Field(
        None,
        description="the `thumbnail` locate returned with it: the pixels "
        "there are compared first (no OCR when they match)",
    )
    reliable: float = Field(0.8, ge=0, le=1, description="confidence a new look needs to count as found")
    in_: str | None = _in_field()


@command("verify-location", VerifyParams, positional=("target",), offline="in_", profiles=("vision",))
def verify_location(ctx: Context, p: VerifyParams) -> VerifyResult:
    """Say whether a located element is still where it was found.

    Compares the pixels there with the thumbnail `locate` kept; when they changed (or no
    thumbnail is given) looks for the target again. Answers yes or no with the reason:
    unchanged, found there again, moved (and where to), or gone. Checks the window, or a
    screenshot file with `--in`."""
    locator = _file_locator(ctx, p.in_) if p.in_ is not None else ctx.session.locator()  # or which extra to install
    from winactions.locate.locator import parse_region
    from winactions.locate.verify import verify_location as verify

    box = parse_region(p.at)
    if p.in_ is not None:
        answer = verify(locator, p.target, box, p.thumbnail, reliable=p.reliable)
    else:
        answer = verify(locator, p.target, box, p.thumbnail, window=ctx.window(), reliable=p.reliable)
    return VerifyResult(verification=answer)


class CacheParams(Params):
    action: Literal["stats", "clear"] = Field(
        "stats", description="show hit/miss counts, or forget every entry and remembered scale"
    )


@command("locate-cache", CacheParams, kind=Kind.SESSION, positional=("action",), profiles=("vision",))
def locate_cache(ctx: Context, p: CacheParams) -> LocateCacheResult:
    """The locator's cache of this session: `stats` (hits, misses, entries) or `clear`.

    Cached places live at most 30 s and only while the pixels there still match; the cache
    is the session's, shared by its one-shot `winctl` calls, its daemon and MCP server. It
    also keeps, per app, the scale the display draws reference images at (from a find of 0.9
    or more), tried first by the next image search; `clear` forgets that too."""
    cache = ctx.session.locator().cache
    cleared = cache.clear() if p.action == "clear" else 0
    return LocateCacheResult(action=p.action, cleared=cleared, stats=cache.stats)
