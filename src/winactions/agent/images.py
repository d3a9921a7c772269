"""An app module's reference images (`apps/NAME/images/`), matched by the runner itself.

    images/help_button.png        the element, as a crop of a screenshot
    images/help_button_v2.png     another look of it (theme, state)
    images/help_button@2x.png     it captured on a 2x display: searched for at its density first
    images/aliases.yaml           {help_button: ["Help", "帮助"]}: other names for it

The session's asset library (WINCTL_ASSETS) serves `image:NAME` through the table; a
module's own images travel with the module, so the runner matches them against the
window's screenshot with the locator's template matcher (exact, multi-scale, ORB).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml

from winactions.errors import BackendUnavailable, InvalidInput, NotFound
from winactions.locate import density
from winactions.locate.types import Candidate

SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp")
RELIABLE = 0.8
_VARIANT = re.compile(rf"^(?P<name>.+?)(?:_v\d+)?(?:{density.SUFFIX})?$")  # help_button_v2@2x: help_button


def images_for(folder: Path, name: str) -> list[Path]:
    """The module's images for `name` (a file stem or an alias, case-insensitive), variants included."""
    if not folder.is_dir():
        return []
    wanted = {name.casefold()}
    for stem, listed in _aliases(folder).items():
        if name.casefold() in (n.casefold() for n in listed):
            wanted.add(stem.casefold())
    found = []
    for path in sorted(folder.iterdir()):
        match = _VARIANT.match(path.stem)
        if path.suffix.lower() in SUFFIXES and match and match.group("name").casefold() in wanted:
            found.append(path)
    return found


def catalogue(folder: Path) -> dict[str, list[str]]:
    """The module's images by name (variants folded into one), each with its aliases: what a
    planner may name as `image:NAME` (or by a bare alias)."""
    if not folder.is_dir():
        return {}
    names: dict[str, list[str]] = {}
    for path in sorted(folder.iterdir()):
        match = _VARIANT.match(path.stem)
        if path.suffix.lower() in SUFFIXES and match:
            names.setdefault(match.group("name"), [])
    for stem, listed in _aliases(folder).items():
        if stem in names:
            names[stem] = listed
    return names


def _aliases(folder: Path) -> dict[str, list[str]]:
    aliases_file = folder / "aliases.yaml"
    if not aliases_file.exists():
        return {}
    try:
        raw: Any = yaml.safe_load(aliases_file.read_text(encoding="utf-8")) or {}
    except yaml.YAMLError as exc:
        raise InvalidInput(f"{aliases_file} is not YAML: {exc}".splitlines()[0]) from None
    if not isinstance(raw, dict):
        return {}
    return {
        str(stem): [str(n) for n in ([names] if isinstance(names, str) else list(names or []))]
        for stem, names in raw.items()
    }


def match_image(images: list[Path], screenshot: Path, origin: tuple[int, int]) -> Candidate:
    """The best reliable match of any of the images in the screenshot; NotFound otherwise."""
    try:
        from winactions.locate.template import find_as_said, load_image
    except ImportError:
        raise BackendUnavailable(
            "matching an app module's images needs the vision extra", hint="pip install 'winactions[vision]'"
        ) from None
    screen = load_image(screenshot)
    drawn = density.recorded(screenshot)
    best: Candidate | None = None
    for path in images:
        where = density.search(density.recorded(path), drawn)  # each image at the size its density says first
        for candidate in find_as_said(screen, load_image(path), where, origin=origin):
            if best is None or candidate.confidence > best.confidence:
                best = candidate
    if best is None or best.confidence < RELIABLE:
        seen = f" (best {best.confidence:.2f})" if best else ""
        raise NotFound(f"the app module's image {images[0].stem!r} is not on screen{seen}")
    return best
