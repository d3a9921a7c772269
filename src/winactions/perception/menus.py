"""The items of a menu the tree does not list, read from its pixels row by row.

Some menus never reach the accessibility tree: a Tk or Xt app has no tree at all, and Qt leaves
its context menus out (`provider.unlisted_popups`). The backend still knows where such a menu's
window is (`Backend.popups`). A text line is cut at the menu's edges, and the text inside a
menu is grouped into rows: each row is one MenuItem, named by its first text, as wide as the
menu (where a click picks it), with the text at its right as its shortcut, and disabled when
its text is drawn faint beside the menu's other items.

A menu draws all its items in two colours, one for those that can be chosen and one for those
that cannot, so the two are told apart more finely than a window's controls are
(MENU_FAINT). The row under the pointer is drawn on a highlight of its own, and is not
compared with the others. What plain text reading made of such menus: docs/perception.md
("Known behaviour").
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from winactions.model import Rect
from winactions.perception.widgets import MIN_INK, stroke

if TYPE_CHECKING:
    import numpy as np  # the vision extra

EDGE = 2  # px a menu's frame takes at each side: a row's click area stops there
ROW_PAD = 2  # px a row reaches above and below its text
SAME_ROW = 0.5  # of the lower text's height: texts overlapping this much in height share a row
MENU_FAINT = 0.8  # an item whose text stands off less than this share of the boldest item's is greyed out
# (Chromium's greyed-out items 0.70; enabled items down to 0.87 in nedit's menu, 0.97 in IDLE's)
HIGHLIGHT_STEP = 12  # grey levels a row's background may differ from the menu's before it is the highlighted row
ICON_SLACK = 6  # px a row's text may start left of the menu's text column before its start is an icon ...
ICON_WORD = 2  # ... read as a word of at most this many characters (featherpad's clock: ")", "©")
# a shortcut at the end of an item's line: "Ctrl+B", "Alt+Shift+S", "Ctrl+F12", "F5"
SHORTCUT = re.compile(r"\s(?:(?:Ctrl|Control|Alt|Shift|Meta|Super|Cmd|Command)[+-])+\S+$|\sF\d{1,2}$", re.IGNORECASE)


@dataclass(frozen=True)
class Item:
    """One row of a menu: what a click in `rect` picks."""

    name: str
    rect: Rect
    shortcut: str
    enabled: bool
    score: float  # the recognition's confidence in the name


def within(box: Rect, menus: Sequence[Rect]) -> Rect | None:
    """The menu the box's centre lies in, if any."""
    cx, cy = box.center
    return next((menu for menu in menus if menu.contains(cx, cy)), None)


def split_at(boxes: list[Rect], menus: Sequence[Rect]) -> list[Rect]:
    """The text lines cut where they cross a menu's left or right edge: the piece inside it
    is the menu's, each piece outside the window's. A line overlapping a menu by less than
    half its height is not cut (a text just above or below it)."""
    out: list[Rect] = []
    for box in boxes:
        pieces = [box]
        for menu in menus:
            cut: list[Rect] = []
            for piece in pieces:
                over = piece.intersect(menu)
                if over is None or over.height < piece.height / 2 or over == piece:
                    cut.append(piece)
                    continue
                cut += [
                    p
                    for p in (
                        Rect(left=piece.left, top=piece.top, right=over.left, bottom=piece.bottom),
                        over,
                        Rect(left=over.right, top=piece.top, right=piece.right, bottom=piece.bottom),
                    )
                    if p.width >= 3
                ]
            pieces = cut
        out += pieces
    return out


def items(
    texts: Sequence[tuple[str, Rect, float]], menu: Rect, grey: np.ndarray, origin: tuple[int, int]
) -> list[Item]:
    """The menu's rows from the texts read in it (text, place, confidence), top first."""
    rows: list[list[tuple[str, Rect, float]]] = []
    for text in sorted(texts, key=lambda t: t[1].center[1]):
        last = rows[-1][-1][1] if rows else None
        shared = 0 if last is None else min(last.bottom, text[1].bottom) - max(last.top, text[1].top)
        if last is not None and shared >= SAME_ROW * min(last.height, text[1].height):
            rows[-1].append(text)
        else:
            rows.append([text])
    for row in rows:
        row.sort(key=lambda t: t[1].left)
    looks = [stroke(grey, origin, row[0][1]) for row in rows]
    grounds = sorted(background for _, background in looks)
    ground = grounds[len(grounds) // 2] if grounds else 0
    lit = [abs(background - ground) > HIGHLIGHT_STEP for _, background in looks]
    boldest = max((s for (s, _), highlighted in zip(looks, lit) if not highlighted), default=0.0)
    bands = [(min(t[1].top for t in row), max(t[1].bottom for t in row)) for row in rows]
    starts = sorted(row[0][1].left for row in rows)
    column = starts[len(starts) // 2] if starts else 0  # where the items' text starts, right of any icons
    found = []
    for i, (row, (strokes, _)) in enumerate(zip(rows, looks)):
        name, _, score = row[0]
        if row[0][1].left < column - ICON_SLACK:
            name = _without_icon(name)
        shortcut = " ".join(t[0] for t in row[1:])
        if not shortcut and (keys := SHORTCUT.search(name)) is not None and keys.start() > 0:
            name, shortcut = name[: keys.start()].rstrip(), keys.group().strip()  # read as one line with its item
        top, bottom = bands[i][0] - ROW_PAD, bands[i][1] + ROW_PAD
        if i > 0:  # rows close together meet halfway between their texts
            top = max(top, (bands[i - 1][1] + bands[i][0] + 1) // 2)
        if i + 1 < len(bands):
            bottom = min(bottom, (bands[i][1] + bands[i + 1][0] + 1) // 2)
        rect = Rect(
            left=menu.left + EDGE, top=max(menu.top, top), right=menu.right - EDGE, bottom=min(menu.bottom, bottom)
        )
        usable = lit[i] or boldest < MIN_INK or strokes >= MENU_FAINT * boldest
        found.append(Item(name, rect, shortcut, usable, score))
    return found


def _without_icon(name: str) -> str:
    """An item's name read together with the icon before it, without the icon: a short word
    (ICON_WORD) read left of the menu's text column (ICON_SLACK) is the icon, not the name."""
    first, _, rest = name.partition(" ")
    return rest.lstrip() if rest.strip() and len(first) <= ICON_WORD else name
