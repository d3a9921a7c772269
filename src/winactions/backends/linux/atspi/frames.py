"""Apps and their windows on the bus: which top-level element is an X window, the app's other
windows (menus), and where a toolkit reports its windows and content.
"""

from __future__ import annotations

import asyncio
import dataclasses
from typing import TYPE_CHECKING

from winactions.backends.linux.atspi import element, tree
from winactions.backends.linux.atspi.element import Raw
from winactions.backends.linux.atspi.refs import (
    ACCESSIBLE,
    APP_ROOT,
    PROPERTIES,
    REGISTRY,
    SHOWING_BIT,
    Ref,
    ref_of,
)
from winactions.backends.linux.atspi.toolkits import HIT_TESTED, VCL
from winactions.backends.linux.atspi_roles import IFACE, role_of, states_of
from winactions.errors import NotFound
from winactions.model import Node, Rect

if TYPE_CHECKING:
    from winactions.backends.linux.atspi.bus import Bus

OTHER_PROCESS_SLACK = 200  # px (four edges summed) another process's frame may lie from the window: decorations
# the roles of a top-level element that holds a context menu, and how far its size may be from the
# menu's X window (px, width and height together)
MENU_WINDOW_ROLES = frozenset({"window", "menu", "popup-menu"})
MENU_SLACK = 8
# LibreOffice's gtk3 plugin reports its window's content (a "root-pane") off the GTK panel that
# holds it until the window is first clicked (`backend.root_panes_aligned`)
ROOT_PANE = "root-pane"
ROOT_PANE_DEPTH = 4  # levels below an app's window where LibreOffice's GTK panel holds its root pane (3 seen)
HIT_ASKS, HIT_WAIT = 5, 0.03  # a point inside the window has something there: a null answer is asked again


async def applications(bus: Bus) -> list[tuple[str, str, int | None]]:
    """(bus name, application name, pid) of every app on the accessibility bus."""
    apps = await tree.children(bus, REGISTRY)

    async def describe(ref: Ref) -> tuple[str, str, int | None]:
        name, pid = await asyncio.gather(
            bus.maybe(ref[0], ref[1], PROPERTIES, "Get", "ss", [ACCESSIBLE, "Name"]), tree.pid(bus, ref[0])
        )
        return ref[0], str(name[0].value) if name else "", pid

    return list(await asyncio.gather(*(describe(a) for a in apps)))


async def find_frame(
    bus: Bus,
    pid: int | None,
    title: str,
    rect: Rect | None,
    active: bool | None = None,
    rank: tuple[int, int] | None = None,
) -> str | None:
    """The handle of the top-level accessible that is this window, if any: of the window's
    own process first, else another's titled as it is at its place (`frame_score`); two
    alike are told apart by `active` and `rank` (`one_frame`)."""
    apps = await applications(bus)
    mine = [a for a in apps if pid is not None and a[2] == pid]
    for group, own in ((mine, True), ([a for a in apps if a not in mine], False)):
        tops = await asyncio.gather(*(tree.children(bus, (name, APP_ROOT)) for name, _, _ in group))
        refs = [ref for kids in tops for ref in kids]
        raws = await asyncio.gather(*(element.read(bus, ref) for ref in refs))
        scored = [
            (score, raw)
            for raw in raws
            if raw is not None and (score := frame_score(raw, title, rect, own=own)) is not None
        ]
        if scored:
            best = min(score for score, _ in scored)
            return one_frame([raw for score, raw in scored if score == best], title, active, rank)
    return None


def one_frame(alike: list[Raw], title: str, active: bool | None, rank: tuple[int, int] | None) -> str:
    """The one of the frames that score best for a window. Two windows of an app may be alike
    in title and place; the window's frame is the one active as the window is (`active`)
    and, where the app lists its windows in the order they were made (as many as there are
    X windows alike), also the one at the window's place in that order (`rank`: (index,
    count)). Otherwise nothing is guessed: NotFound, saying how to tell them apart."""
    if len(alike) == 1:
        return alike[0].ref[0] + alike[0].ref[1]
    by_state = [raw for raw in alike if active is not None and ("active" in states_of(raw.states)) == active]
    by_order = alike[rank[0]] if rank is not None and rank[1] == len(alike) else None
    if len(by_state) == 1 and (by_order is None or by_order is by_state[0]):
        return by_state[0].ref[0] + by_state[0].ref[1]
    raise NotFound(
        f'{len(alike)} windows of the app are titled "{title}" at the same place, and which one\'s '
        "elements are this window's cannot be told",
        hint="focus the window (`winctl focus ID`): "
        "the active one is told apart; or move one (`winctl window move ...`)",
    )


def frame_score(raw: Raw, title: str, rect: Rect | None, own: bool = False) -> float | None:
    """Lower is better; None when this top-level element cannot be the window.

    A frame of the window's own process (`own`) is never ruled out by title or place (both
    change while an app settles). Another process's frame must carry the window's title at
    about its place (OTHER_PROCESS_SLACK): place alone is no evidence across processes. A
    top-level element of the own process named as the window is a window whatever its role
    (GTK 4.8's file dialogs are "filler"). A name counts only for a frame no bigger than the
    window (`no_bigger`)."""
    native, ctype = role_of(raw.role_number)
    if (
        ctype not in ("Window", "Dialog", "Alert")
        and native not in ("frame", "window", "dialog")
        and not (own and title and raw.name == title)
    ):
        return None
    if not own and not (title and title in raw.name):
        return None
    sized = no_bigger(raw.extents, rect)
    score = 0.0 if raw.name == title and sized else (1000.0 if title and title in raw.name and sized else 5000.0)
    if rect is not None and raw.extents is not None:
        x, y, w, h = raw.extents
        apart = abs(x - rect.left) + abs(y - rect.top) + abs(w - rect.width) + abs(h - rect.height)
        if not own and apart > OTHER_PROCESS_SLACK:
            return None  # another window of that title, elsewhere
        score += apart
    elif rect is not None:
        score += 2000.0
    if score >= 5000.0 + 2000.0 and not own:
        return None
    return score


def no_bigger(extents: tuple[int, int, int, int] | None, rect: Rect | None) -> bool:
    """Whether a frame is no bigger than the window (give or take its decorations). An app may
    report it smaller (logical pixels: GTK under GDK_SCALE, Java at uiScale 2), never much
    bigger; unknown on either side: taken as so."""
    if extents is None or rect is None:
        return True
    return extents[2] <= rect.width + OTHER_PROCESS_SLACK and extents[3] <= rect.height + OTHER_PROCESS_SLACK


async def menu_windows(bus: Bus, dest: str, menus: list[Rect], scale: int = 1) -> list[tuple[str, Rect]]:
    """The top-level windows of the app at `dest` that show `menus` (open menus, as the X
    server places them), matched by size within MENU_SLACK (an app's reported place may be
    off by its frame's), each with the menu it shows; `scale`: how many times smaller than
    the screen's the app reports its pixels."""
    tops = await tree.children(bus, (dest, APP_ROOT))
    raws = await asyncio.gather(*(element.read(bus, ref) for ref in tops))
    found = []
    for raw in raws:
        if raw is None or raw.extents is None or role_of(raw.role_number)[0] not in MENU_WINDOW_ROLES:
            continue
        if not (raw.states and raw.states[0] & SHOWING_BIT):
            continue
        x, y, w, h = raw.extents
        same = [m for m in menus if abs(w * scale - m.width) + abs(h * scale - m.height) <= MENU_SLACK * scale]
        if same:
            menu = min(same, key=lambda m: abs(x - m.left) + abs(y - m.top))
            found.append((raw.ref[0] + raw.ref[1], menu))
    return found


async def app_frames(bus: Bus, dest: str) -> tuple[int | None, list[Rect]]:
    """The pid of the app at `dest` and its windows' rectangles as it reports them."""
    pid, tops = await asyncio.gather(tree.pid(bus, dest), tree.children(bus, (dest, APP_ROOT)))
    rects = await asyncio.gather(*(_frame_extents(bus, ref) for ref in tops))
    return pid, [r for r in rects if r is not None]


async def _frame_extents(bus: Bus, ref: Ref) -> Rect | None:
    """A top-level window's place as its app reports it; a Java frame reports none, and
    its first child (the root pane) stands for it."""
    for _ in range(2):
        place = await tree.extents(bus, ref)
        if place is not None:
            return place
        kids = await tree.children(bus, ref)
        if not kids:
            return None
        ref = kids[0]
    return None


async def element_over(bus: Bus, ref: Ref, x: int, y: int) -> tuple[str, str] | None:
    """(control type, name) of what the app's own hit test finds at screen point (x, y) when
    it is neither the element, nor inside it, nor around it; None when a click there reaches
    the element, or when the app's hit test cannot tell (`HIT_TESTED`)."""
    if await bus.toolkits.of(ref[0]) not in HIT_TESTED:
        return None
    around = await tree.ancestors(bus, ref)
    if not around:
        return None
    hit = None
    for _ in range(HIT_ASKS):  # Gecko answers null until its content process has hit-tested the point
        hit = ref_of(await bus.maybe(*around[-1], IFACE + "Component", "GetAccessibleAtPoint", "iiu", [x, y, 0]))
        if hit is not None:
            break
        await asyncio.sleep(HIT_WAIT)
    if hit is None or hit == ref or hit in around or ref in await tree.ancestors(bus, hit):
        return None  # the element, a container around it, or its own content (a button's text)
    role, name = await asyncio.gather(
        bus.maybe(*hit, ACCESSIBLE, "GetRole"), bus.maybe(*hit, PROPERTIES, "Get", "ss", [ACCESSIBLE, "Name"])
    )
    return (role_of(int(role[0]))[1] if role else "Custom"), (str(name[0].value) if name else "")


async def placed_around(bus: Bus, ref: Ref, roles: frozenset[str], toolkits: frozenset[str]) -> list[Rect]:
    """The places that the element and those of its ancestors whose AT-SPI role is one of
    `roles` report, nearest first; none for apps whose toolkit is not in `toolkits` (the walk
    up costs a round trip per level)."""
    if await bus.toolkits.of(ref[0]) not in toolkits:
        return []
    places = await asyncio.gather(*(tree.extents(bus, r) for r in await tree.around(bus, ref, roles)))
    return [place for place in places if place is not None]


async def lineage(bus: Bus, ref: Ref) -> list[Node]:
    """The element and its parents up to its window, outermost first, each read as
    `element.refresh` reads it and linked to the one before it (`Node.parent`)."""
    chain = [*reversed(await tree.ancestors(bus, ref)), ref]
    nodes = await asyncio.gather(*(element.read(bus, r) for r in chain))
    out: list[Node] = []
    for raw in nodes:
        if raw is not None:
            node = element.to_node(bus, raw, None, False)
            out.append(dataclasses.replace(node, parent=len(out) - 1 if out else None))
    return out


async def root_pane_shift(bus: Bus, ref: Ref) -> tuple[int, int] | None:
    """How far LibreOffice reports the root pane around this element from the GTK panel that
    holds it, in reported pixels (`pane_shift`); None for other apps, and where it reports it
    in place. The holder is looked for from the app's windows down (the pane answers its own
    frame as its parent)."""
    if await bus.toolkits.of(ref[0]) != VCL:
        return None
    panes = await tree.around(bus, ref, frozenset({ROOT_PANE}))
    if not panes:
        return None
    level = await tree.children(bus, (ref[0], APP_ROOT))
    for _ in range(ROOT_PANE_DEPTH):
        kids = await asyncio.gather(*(tree.children(bus, r) for r in level))
        holder = next((r for r, k in zip(level, kids) if panes[-1] in k), None)
        if holder is not None:
            pane, around = await asyncio.gather(tree.extents(bus, panes[-1]), tree.extents(bus, holder))
            return pane_shift(pane, around)
        level = [k for group in kids for k in group]
    return None


def pane_shift(pane: Rect | None, holder: Rect | None) -> tuple[int, int] | None:
    """How far a root pane the size of its holder lies from it; None where it is at its place,
    or is not its size (then it is no stand-in for it)."""
    if pane is None or holder is None or (pane.left, pane.top) == (holder.left, holder.top):
        return None
    if abs(pane.width - holder.width) > 2 or abs(pane.height - holder.height) > 2:
        return None
    return holder.left - pane.left, holder.top - pane.top
