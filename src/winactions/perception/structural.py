"""Tier 1+: hidden handles derived from the tree's own rectangles, by rule.

Column borders, splitters and resize handles are drawn but not in the accessibility tree.
Their places follow exactly from elements that are: the border between two column headers
is the first header's right edge. Rules are free, instant and pixel-exact, so they run
before any model is asked. Every inferred target says which anchors it came from and how
(`derived_from`), carries a confidence, and has no handle: it is acted on by coordinates.
"""

from __future__ import annotations

import dataclasses
import itertools

from winactions.backends.base import Backend
from winactions.model import Node, Rect, Source, Target, WindowInfo
from winactions.perception.provider import Detection

GRIP = 3  # half-width of a border's grab area, in pixels
TOUCH = 3  # how far apart two edges may be and still be "adjacent"
MAX_ROW_BORDERS = 60
PANE_TYPES = ("Pane", "Group")
DOCK_GAP = 16  # widest gap between two docked panes that still reads as one splitter
DOCK_EDGE = 8  # how far a docked row of panes may stop short of its container's edges
DOCK_SPAN = 0.6  # a docked pane spans at least this share of its container across the row


def _inferred(type_: str, name: str, rect: Rect, confidence: float, derived_from: str) -> Target:
    return Target(
        id=0,
        type=type_,
        name=name,
        rect=rect,
        source=Source.INFERRED,
        confidence=confidence,
        derived_from=derived_from,
        states=["enabled"],
    )


def _header_handles(nodes: list[Node]) -> set[str]:
    """Handles of the elements that sit directly in a header row, whatever their own type:
    Windows Explorer's column headers are SplitButtons (class UIColumnHeader) in a Header."""
    return {n.handle for n in nodes if n.handle and n.parent is not None and nodes[n.parent].role == "Header"}


def column_borders(targets: list[Target], nodes: list[Node] | None = None) -> list[Target]:
    """Between horizontally adjacent column headers of one header row."""
    out = []
    in_header = _header_handles(nodes or [])
    headers = [
        (i, t)
        for i, t in enumerate(targets)
        if (t.type == "HeaderItem" or t.handle in in_header) and t.rect is not None
    ]
    rows: dict[tuple[int | None, int], list[tuple[int, Target]]] = {}
    for i, t in headers:
        assert t.rect is not None
        rows.setdefault((t.parent_id, t.rect.top), []).append((i, t))
    for row in rows.values():
        row.sort(key=lambda item: item[1].rect.left)  # type: ignore[union-attr]
        for (i, a), (j, b) in itertools.pairwise(row):
            assert a.rect is not None and b.rect is not None
            if abs(b.rect.left - a.rect.right) > TOUCH:
                continue
            x = a.rect.right
            rect = Rect(left=x - GRIP, top=a.rect.top, right=x + GRIP, bottom=a.rect.bottom)
            out.append(
                _inferred(
                    "ColumnBorder",
                    f"{a.name} | {b.name}",
                    rect,
                    0.95,
                    f"border_x = [#{i}].rect.right = [#{j}].rect.left",
                )
            )
    return out


def row_borders(targets: list[Target]) -> list[Target]:
    """Between vertically adjacent cells of a table's first column."""
    out = []
    by_table: dict[int | None, list[tuple[int, Target]]] = {}
    for i, t in enumerate(targets):
        if t.type == "DataItem" and t.rect is not None:
            by_table.setdefault(t.parent_id, []).append((i, t))
    for cells in by_table.values():
        first_left = min(t.rect.left for _, t in cells)  # type: ignore[union-attr]
        column = sorted(
            ((i, t) for i, t in cells if t.rect and t.rect.left == first_left),
            key=lambda item: item[1].rect.top,  # type: ignore[union-attr]
        )
        for (i, a), (j, b) in list(itertools.pairwise(column))[:MAX_ROW_BORDERS]:
            assert a.rect is not None and b.rect is not None
            if abs(b.rect.top - a.rect.bottom) > TOUCH:
                continue
            y = a.rect.bottom
            rect = Rect(left=a.rect.left, top=y - GRIP, right=a.rect.right, bottom=y + GRIP)
            out.append(
                _inferred(
                    "RowBorder", f"{a.name} / {b.name}", rect, 0.75, f"border_y = [#{i}].rect.bottom = [#{j}].rect.top"
                )
            )
    return out


def resize_handles(targets: list[Target]) -> list[Target]:
    """The bottom-right corner of each table or grid."""
    out = []
    for i, t in enumerate(targets):
        if t.type == "Table" and t.rect is not None and t.rect.width > 40 and t.rect.height > 40:
            r = t.rect
            rect = Rect(left=r.right - 2 * GRIP, top=r.bottom - 2 * GRIP, right=r.right, bottom=r.bottom)
            out.append(
                _inferred(
                    "ResizeHandle",
                    f"{t.name or 'table'} corner",
                    rect,
                    0.7,
                    f"corner = ([#{i}].rect.right, [#{i}].rect.bottom)",
                )
            )
    return out


def splitters(nodes: list[Node], targets: list[Target]) -> list[Target]:
    """The divider of each split pane: the gap between its two child panes."""
    out = []
    ids = {t.handle: i for i, t in enumerate(targets) if t.handle}
    children: dict[int, list[Node]] = {}
    for n in nodes:
        if n.parent is not None:
            children.setdefault(n.parent, []).append(n)
    for index, node in enumerate(nodes):
        if node.role != "SplitPane" or node.rect is None:
            continue
        panes = [c for c in children.get(index, []) if c.rect is not None and not c.rect.is_empty]
        if len(panes) != 2:
            continue
        a, b = sorted(panes, key=lambda c: (c.rect.left, c.rect.top))  # type: ignore[union-attr]
        assert a.rect is not None and b.rect is not None
        anchor = f"[#{ids[node.handle]}]" if node.handle in ids else "split pane"
        if "vertical" in node.states or (b.rect.top >= a.rect.bottom - TOUCH and b.rect.left < a.rect.right):
            top, bottom = a.rect.bottom, max(b.rect.top, a.rect.bottom + 1)
            rect = Rect(left=node.rect.left, top=top - GRIP, right=node.rect.right, bottom=bottom + GRIP)
            formula = f"divider_y = {anchor}.first_pane.bottom .. second_pane.top"
        else:
            left, right = a.rect.right, max(b.rect.left, a.rect.right + 1)
            rect = Rect(left=left - GRIP, top=node.rect.top, right=right + GRIP, bottom=node.rect.bottom)
            formula = f"divider_x = {anchor}.first_pane.right .. second_pane.left"
        out.append(_inferred("Splitter", node.name or "splitter", rect, 0.95, formula))
    return out


def _anchor(node: Node, ids: dict[str, int]) -> str:
    if node.handle in ids:
        return f"[#{ids[node.handle]}]"
    return f'{node.role} "{node.name}"' if node.name else node.role


def _docked_rows(nodes: list[Node], horizontal: bool) -> list[list[Node]]:
    """Rows (or columns) of sibling panes that together fill their container from edge to
    edge, each spanning most of it the other way: a sidebar beside an editor, an editor above
    a bottom panel. Split panes are left to `splitters`, which knows their divider exactly."""
    children: dict[int, list[Node]] = {}
    for n in nodes:
        if n.parent is not None and n.role in PANE_TYPES and n.rect is not None and not n.rect.is_empty:
            children.setdefault(n.parent, []).append(n)
    rows = []
    for parent_index, panes in children.items():
        parent = nodes[parent_index]
        if parent.rect is None or parent.role == "SplitPane" or len(panes) < 2:
            continue
        p = parent.rect
        if horizontal:
            tall = [n for n in panes if n.rect.height >= max(80, DOCK_SPAN * p.height)]  # type: ignore[union-attr]
            tall.sort(key=lambda n: n.rect.left)  # type: ignore[union-attr]
            ends = (tall[0].rect.left - p.left, p.right - tall[-1].rect.right) if tall else (p.width, 0)  # type: ignore[union-attr]
            steps = [b.rect.left - a.rect.right for a, b in itertools.pairwise(tall)]  # type: ignore[union-attr]
        else:
            tall = [n for n in panes if n.rect.width >= max(80, DOCK_SPAN * p.width)]  # type: ignore[union-attr]
            tall.sort(key=lambda n: n.rect.top)  # type: ignore[union-attr]
            ends = (tall[0].rect.top - p.top, p.bottom - tall[-1].rect.bottom) if tall else (p.height, 0)  # type: ignore[union-attr]
            steps = [b.rect.top - a.rect.bottom for a, b in itertools.pairwise(tall)]  # type: ignore[union-attr]
        if len(tall) >= 2 and max(ends) <= DOCK_EDGE and all(-TOUCH <= s <= DOCK_GAP for s in steps):
            rows.append(tall)
    return rows


def panel_edges(nodes: list[Node], targets: list[Target]) -> list[Target]:
    """Where docked panes meet: a visible gap between them is a splitter; panes that touch
    share a draggable edge, a panel grip. Neither is in the tree (web layouts and IDE sashes
    hit-test the mouse themselves), so both come with a lower confidence than a split pane's
    divider: not every pair of panes that fills a window can be resized."""
    ids = {t.handle: i for i, t in enumerate(targets) if t.handle}
    out = []
    for horizontal in (True, False):
        for row in _docked_rows(nodes, horizontal):
            for a, b in itertools.pairwise(row):
                assert a.rect is not None and b.rect is not None
                first, second = _anchor(a, ids), _anchor(b, ids)
                name = f"{a.name or a.role} | {b.name or b.role}"
                if horizontal:
                    top, bottom = max(a.rect.top, b.rect.top), min(a.rect.bottom, b.rect.bottom)
                    lo, hi, axis, near, far = a.rect.right, b.rect.left, "x", "right", "left"
                else:
                    left, right = max(a.rect.left, b.rect.left), min(a.rect.right, b.rect.right)
                    lo, hi, axis, near, far = a.rect.bottom, b.rect.top, "y", "bottom", "top"
                gap = hi - lo
                if gap > TOUCH:
                    kind, confidence = "Splitter", 0.8
                    formula = f"splitter_{axis} = {first}.rect.{near} .. {second}.rect.{far}"
                    lo_edge, hi_edge = lo, hi
                else:
                    kind, confidence = "PanelGrip", 0.7
                    formula = f"grip_{axis} = {first}.rect.{near} = {second}.rect.{far}"
                    lo_edge = hi_edge = lo
                if horizontal:
                    rect = Rect(left=lo_edge - GRIP, top=top, right=hi_edge + GRIP, bottom=bottom)
                else:
                    rect = Rect(left=left, top=lo_edge - GRIP, right=right, bottom=hi_edge + GRIP)
                out.append(_inferred(kind, name, rect, confidence, formula))
    return out


class StructuralProvider:
    """Adds rule-inferred targets to the tree's, never ones the tree already has."""

    name = "structural"

    def detect(self, backend: Backend, window: WindowInfo, base: Detection | None) -> Detection:
        if base is None:
            raise ValueError("structural inference needs the accessibility tier's result")
        targets = base.targets
        found = [
            *column_borders(targets, base.nodes),
            *splitters(base.nodes, targets),
            *panel_edges(base.nodes, targets),
            *resize_handles(targets),
            *row_borders(targets),
        ]
        counts: dict[str, int] = {}
        for t in found:
            counts[t.type] = counts.get(t.type, 0) + 1
        report = "rules: +" + (", ".join(f"{n} {kind}" for kind, n in counts.items()) or "nothing")
        return dataclasses.replace(base, targets=[*targets, *found], reports=[*base.reports, report])
