"""`locate`: find an element from pixels (template, OCR, vision model, fixed points), and the
locator's cache. The same targets work in the action commands: `winctl click text:Save`."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from winactions.commands.base import Context, Kind, Params, command
from winactions.commands.results import LocateCacheResult, LocateCommandResult
from winactions.errors import NotFound

STRATEGY_HELP = "try only these strategies, in this order: template, ocr, vision, fixed"


class LocateParams(Params):
    target: str = Field(description="text:Save, image:ASSET, dynamic:DESCRIPTION, fixed:NAME, "
                                    "or plain text for the whole fallback chain")
    strategy: list[Literal["template", "ocr", "vision", "fixed"]] = Field(default_factory=list,
                                                                          description=STRATEGY_HELP)
    region: str | None = Field(None, description="search only x,y,width,height on screen")
    screen: bool = Field(False, description="search every screen, not just the window")
    no_cache: bool = Field(False, description="look again even if a fresh cached result exists")
    reliable: float = Field(0.8, ge=0, le=1, description="confidence a result needs to count as found")


@command("locate", LocateParams, positional=("target",))
def locate(ctx: Context, p: LocateParams) -> LocateCommandResult:
    """Find an element on screen from pixels when the accessibility tree does not show it.

    Tries the strategies in order and stops at the first reliable match; below the
    `--reliable` confidence it fails and lists the best candidates instead of guessing.
    Searches the window unless `--region` or `--screen` is given."""
    locator = ctx.session.locator()  # says which extra to install when pixels cannot be read here
    from winactions.locate.locator import parse_region

    region = parse_region(p.region) if p.region else None
    window = None if p.screen or region is not None else ctx.window()
    result = locator.locate(p.target, strategies=p.strategy or None, region=region, window=window,
                            use_cache=not p.no_cache, reliable=p.reliable)
    if not result.success:
        options = "; ".join(f'"{c.label}" {c.bbox} {c.confidence:.2f} by {c.method}' for c in result.candidates[:3])
        raise NotFound(result.error or f"{p.target!r} was not found",
                       hint=(f"closest: {options}; " if options else "")
                       + "lower --reliable, try another --strategy, or look with `winctl screenshot`")
    return LocateCommandResult(located=result, cache=locator.cache.stats)


class CacheParams(Params):
    action: Literal["stats", "clear"] = Field("stats", description="show hit/miss counts, or forget every entry")


@command("locate-cache", CacheParams, kind=Kind.SESSION, positional=("action",))
def locate_cache(ctx: Context, p: CacheParams) -> LocateCacheResult:
    """The locator's cache: `stats` (hits, misses, entries) or `clear`.

    Cached places live at most 30 s and only while the pixels there still match."""
    cache = ctx.session.locator().cache
    cleared = cache.clear() if p.action == "clear" else 0
    return LocateCacheResult(action=p.action, cleared=cleared, stats=cache.stats)
