"""The reference-image library: images by name, with aliases and variants.

    assets/
      index.json            {"run_button": {"aliases": ["Run", "运行"], "app": "editor",
                                             "description": "the green run button"}}
      common/close.png      shared by every app
      editor/run_button.png
      editor/run_button_v2.png   another look of the same element (theme, state, scale)
      editor/run_button@2x.png   the same captured on a 2x display (`locate.density`)

A name resolves through the index (name or any alias, case-insensitive, any language) to
the images of its app folder and then `common/`, every `_vN` variant included; a name the
index does not know is still found by file name. An entry's `description` lets the
locator fall back to the vision strategy when no image matches (`dynamic:` does that
directly). A name that is the path of an image file (`image:./save.png`, `image:/tmp/ref.png`)
is that one image, with no library needed — how references cropped a moment ago are used.
"""

from __future__ import annotations

import json
import os
import re
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path

from winactions import settings
from winactions.errors import InvalidInput, NotFound, shown
from winactions.locate.density import SUFFIX

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp")
_VARIANT = re.compile(rf"^(?P<name>.+?)(?:_v(?P<n>\d+))?(?:{SUFFIX})?$")  # run_button_v2@2x: run_button


@dataclass(frozen=True)
class Asset:
    name: str
    images: tuple[Path, ...]
    app: str | None = None
    aliases: tuple[str, ...] = ()
    description: str | None = None


@dataclass
class AssetLibrary:
    root: Path
    index: dict[str, dict[str, object]] = field(default_factory=dict)

    @classmethod
    def open(cls, root: str | os.PathLike[str] | None = None) -> AssetLibrary:
        """The library at `root`, WINCTL_ASSETS, or ~/.local/share/winactions/assets."""
        path = Path(root or settings.ASSETS.read() or Path.home() / ".local/share/winactions/assets")
        index: dict[str, dict[str, object]] = {}
        index_file = path / "index.json"
        if index_file.exists():
            try:
                raw = json.loads(index_file.read_text(encoding="utf-8"))
            except ValueError as exc:
                raise InvalidInput(f"{index_file} is not valid JSON: {exc}") from None
            if not isinstance(raw, dict):
                raise InvalidInput(f"{index_file} must map asset names to entries")
            index = {str(k): (v if isinstance(v, dict) else {}) for k, v in raw.items()}
        return cls(path, index)

    def resolve(self, name: str, app: str | None = None) -> Asset:
        """The asset called `name` (or aliased so); its images, app folder first, variants in order."""
        if not name.strip():
            raise InvalidInput("an asset name is empty", hint="use image:NAME with a name from the asset index")
        file = self._file(name)
        if file is not None:
            return Asset(file.stem, (file,))
        key, entry = self._entry(name)
        entry_app = str(entry["app"]) if entry.get("app") else None
        folders = [f for f in (entry_app, app, "common") if f]
        images = self._images(key, folders) or self._images(key, self._all_folders())
        aliases = tuple(_aliases(entry))
        description = str(entry["description"]) if entry.get("description") else None
        if not images and description is None:
            here = f"no file {name} in {Path.cwd()}, and " if Path(name).suffix.lower() in IMAGE_SUFFIXES else ""
            raise NotFound(
                f"{here}no reference image for {shown(name)} in {self.root}",
                hint=f"save one as {self.root}/common/{key}.png (variants {key}_v2.png...)"
                + (f"; known: {', '.join(sorted(self.index)[:10])}" if self.index else ""),
            )
        return Asset(key, tuple(images), entry_app, aliases, description)

    def names(self) -> list[str]:
        found = set(self.index)
        for folder in self._all_folders():
            for path in (self.root / folder).iterdir():
                if path.suffix.lower() in IMAGE_SUFFIXES:
                    found.add(_VARIANT.match(path.stem).group("name"))  # type: ignore[union-attr]
        return sorted(found)

    # -- lookups -------------------------------------------------------------------------
    @staticmethod
    def _file(name: str) -> Path | None:
        """`name` as an image file's path, when it is one (a missing path with a folder part is
        an error: it cannot be meant as an asset name)."""
        path = Path(name).expanduser()
        if path.suffix.lower() not in IMAGE_SUFFIXES:
            return None
        if path.is_file():
            return path
        if "/" in name or "\\" in name or name.startswith("~"):
            raise InvalidInput(f"reference image {path} does not exist", hint="check the path")
        return None

    def _entry(self, name: str) -> tuple[str, dict[str, object]]:
        wanted = _fold(name)
        for key, entry in self.index.items():
            if _fold(key) == wanted or any(_fold(a) == wanted for a in _aliases(entry)):
                return key, entry
        return name, {}

    def _images(self, key: str, folders: list[str]) -> list[Path]:
        out: list[Path] = []
        for folder in dict.fromkeys(folders):
            directory = self.root / folder
            if not directory.is_dir():
                continue
            variants = []
            for path in directory.iterdir():
                match = _VARIANT.match(path.stem)
                if path.suffix.lower() in IMAGE_SUFFIXES and match and _fold(match.group("name")) == _fold(key):
                    variants.append((int(match.group("n") or 1), path))
            out += [p for _, p in sorted(variants)]
        return out

    def _all_folders(self) -> list[str]:
        if not self.root.is_dir():
            return []
        return sorted(p.name for p in self.root.iterdir() if p.is_dir())


def _aliases(entry: dict[str, object]) -> list[str]:
    raw = entry.get("aliases")
    return [str(a) for a in raw] if isinstance(raw, list) else []


def _fold(text: str) -> str:
    return unicodedata.normalize("NFKC", text).casefold().strip()
