"""Fixed points: the last resort of the locator's fallback chain, from a configuration file.

    {"apps": {"gtk_fixture.py": {"play": {"rect": [24, 24, 64, 64], "relative_to": "window"},
                                 "tray":  {"x": 1890, "y": 1060, "relative_to": "screen"}}}}

Apps are matched by process name, window class or title part. Window-relative points follow
the window when it moves; screen points do not. A fixed point is blind — nothing checks it
against the pixels — so its confidence is what the file says (0.8 by default: reliable, but
below anything a strategy that looked would report).
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from winactions import settings
from winactions.errors import InvalidInput
from winactions.locate.types import Candidate
from winactions.model import Rect, WindowInfo

DEFAULT_CONFIDENCE = 0.8


@dataclass
class FixedPoints:
    path: Path | None
    apps: dict[str, dict[str, Any]]

    @classmethod
    def open(cls, path: str | os.PathLike[str] | None = None) -> FixedPoints:
        """The file at `path`, WINCTL_FIXED_POINTS, or ~/.config/winactions/fixed_points.json."""
        file = Path(path or settings.FIXED_POINTS.read() or Path.home() / ".config/winactions/fixed_points.json")
        if not file.exists():
            return cls(None, {})
        try:
            raw = json.loads(file.read_text(encoding="utf-8"))
        except ValueError as exc:
            raise InvalidInput(f"{file} is not valid JSON: {exc}") from None
        apps = raw.get("apps") if isinstance(raw, dict) else None
        if not isinstance(apps, dict):
            raise InvalidInput(f'{file} needs {{"apps": {{APP: {{NAME: {{"x":..,"y":..}}}}}}}}')
        return cls(file, apps)

    def find(self, name: str, window: WindowInfo | None) -> list[Candidate]:
        for app, points in self.apps.items():
            if window is not None and not _matches(app, window) and app != "*":
                continue
            spec = next((v for k, v in points.items() if k.casefold() == name.casefold()), None)
            if spec is None:
                continue
            rect = _rect(spec, name)
            if spec.get("relative_to", "window") == "window":
                if window is None or window.rect is None:
                    continue
                rect = Rect(
                    left=rect.left + window.rect.left,
                    top=rect.top + window.rect.top,
                    right=rect.right + window.rect.left,
                    bottom=rect.bottom + window.rect.top,
                )
            confidence = float(spec.get("confidence", DEFAULT_CONFIDENCE))
            return [Candidate(rect, confidence, "fixed", name, {"app": app, "file": str(self.path)})]
        return []


def _matches(app: str, window: WindowInfo) -> bool:
    wanted = app.casefold()
    return wanted in (window.process.casefold(), window.app_class.casefold()) or wanted in window.title.casefold()


def _rect(spec: Any, name: str) -> Rect:
    if not isinstance(spec, dict):
        raise InvalidInput(f"fixed point {name!r} must be an object with x/y or rect")
    if "rect" in spec:
        box = spec["rect"]
        if not (isinstance(box, list) and len(box) == 4 and all(isinstance(v, int) for v in box)):
            raise InvalidInput(f"fixed point {name!r}: rect must be [left, top, right, bottom]")
        return Rect(left=box[0], top=box[1], right=box[2], bottom=box[3])
    x, y = spec.get("x"), spec.get("y")
    if not isinstance(x, int) or not isinstance(y, int):
        raise InvalidInput(f"fixed point {name!r} needs integer x and y, or rect")
    return Rect(left=x - 2, top=y - 2, right=x + 3, bottom=y + 3)
