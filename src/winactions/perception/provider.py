"""Perception providers: each detects targets in a window; the session numbers them.

Tier 1 (the accessibility tree) is the primary provider. Later tiers (structural inference,
vision) add targets the tree lacks; they receive the tree's targets so they can reason from
them and avoid duplicates.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

from winactions import prompts, settings
from winactions.backends.base import IN_POPUP, TERMINAL, Backend
from winactions.model import Node, Rect, Target, WindowInfo
from winactions.perception.accessibility import targets_from_snapshot


@dataclass
class Detection:
    """What one perception pass found, before ids are assigned."""

    targets: list[Target]
    node_count: int = 0
    truncated: bool = False
    warnings: list[str] = field(default_factory=list)
    nodes: list[Node] = field(default_factory=list)  # the raw tree, for tiers that reason from it
    popups: list[Rect] = field(default_factory=list)  # menus open over the window that the tree does not list
    reports: list[str] = field(default_factory=list)  # what each extra tier added and what it cost


class Provider(Protocol):
    name: str

    def detect(self, backend: Backend, window: WindowInfo, base: Detection | None) -> Detection: ...


class AccessibilityProvider:
    """Tier 1: the platform accessibility tree, clipped to what is visible."""

    name = "accessibility"

    def __init__(self, max_nodes: int | None = None) -> None:
        self.max_nodes = max_nodes  # None: WINCTL_MAX_NODES, read anew for each read (the caller's)
        self._last: tuple[object, list[Rect], list[Target]] | None = None

    def detect(self, backend: Backend, window: WindowInfo, base: Detection | None = None) -> Detection:
        """The window's elements from its tree. A menu seen open over the window that no listed
        element lies in is read again for up to POPUP_SETTLE: an app may list a menu's items a
        moment after the menu shows; what it still does not list then is named in a warning."""
        deadline = time.monotonic() + POPUP_SETTLE
        while True:
            detection = self._read(backend, window)
            if not detection.popups or time.monotonic() > deadline:
                return detection
            time.sleep(0.1)

    def _read(self, backend: Backend, window: WindowInfo) -> Detection:
        max_nodes = settings.MAX_NODES.read() if self.max_nodes is None else self.max_nodes
        snapshot = backend.snapshot(window, max_nodes=max_nodes)
        screens = backend.screens()
        if backend.bound_window() == window.id and window.rect is not None:
            screens = [*screens, window.rect]  # a bound window is seen through its own pixels, wherever it is
        if self._last is not None and self._last[0] is snapshot.nodes and self._last[1] == screens:
            targets = self._last[2]  # a live backend handed back its unchanged tree: same answer
        else:
            targets = targets_from_snapshot(snapshot, screens)
            self._last = (snapshot.nodes, screens, targets)
        terminals = {n.handle for n in snapshot.nodes if TERMINAL in n.extra}
        if terminals:  # a screen changes with no tree event: read it each time
            targets = [with_screen(backend, t) if t.handle in terminals else t for t in targets]
        warnings = []
        if snapshot.truncation:
            warnings.append(snapshot.truncation)
        elif snapshot.truncated:
            warnings.append(
                f"the tree has more than {max_nodes} elements; the rest was not read (raise {settings.MAX_NODES.name})"
            )
        seen = snapshot.popups if snapshot.popups is not None else backend.popups(window)
        popups = unlisted_popups(seen, targets, snapshot.nodes)
        warnings += [
            f"a menu is open at {r} that the app does not list: "
            "`winctl state --vision local` reads its items, `winctl keys Escape` closes it"
            for r in popups
        ]
        return Detection(targets, len(snapshot.nodes), snapshot.truncated, warnings, snapshot.nodes, popups=popups)


def with_screen(backend: Backend, target: Target) -> Target:
    """A terminal's target with the rows its screen shows now and its cursor's row."""
    read = backend.read_screen(target.handle) if target.handle else None
    if read is None:
        return target
    lines = prompts.screen_lines(read.text, read.cursor)
    return target.model_copy(update={"screen": lines.rows, "cursor_row": lines.cursor})


POPUP_SETTLE = 0.5  # s an open menu's items may take to be listed after the menu shows (GTK 4's popovers)
SLACK = 2  # px an element listed in a menu may reach past the menu's window (its border)
# what a menu or drop-down lists; the window's own controls under the menu do not count
MENU_ENTRY_TYPES = frozenset({"Menu", "MenuItem", "List", "ListItem", "TreeItem"})


def unlisted_popups(popups: list[Rect], targets: list[Target], nodes: Sequence[Node] = ()) -> list[Rect]:
    """The open menus that no listed element lies in: Qt never puts its context menus in the
    accessibility tree, and a state that listed only the window under one would leave an agent
    blind to it (its clicks would only close it). What its backend placed in a popup
    (`IN_POPUP`: a GTK 4 popover of a field and buttons) lists it too."""

    def within(r: Rect | None, popup: Rect) -> bool:
        return r is not None and popup.grown(SLACK).encloses(r)

    return [
        rect
        for rect in popups
        if not any(t.type in MENU_ENTRY_TYPES and within(t.rect, rect) for t in targets)
        and not any(IN_POPUP in n.extra and within(n.rect, rect) for n in nodes)
    ]
