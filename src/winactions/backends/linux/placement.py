"""Where an app's elements are on the screen: AT-SPI extents mapped to screen rectangles.

The contract: given what a toolkit reports (a snapshot's nodes, or one node read again) and
the X window that shows it, give the same nodes with `rect` in screen pixels, as copies (a
node is never edited in place: the backend caches trees). The backend reads the tree and
the X windows and hands the facts in; nothing here talks to D-Bus or X.

- `placed_on_screen` places a whole snapshot and says how (`Placement`): HiDPI scale (GTK
  under GDK_SCALE, Java's uiScale, Chromium's device scale factor) and GTK 4's frame inside
  its client-side border;
- `popovers_moved` moves GTK 4 popovers and tooltips to the open menu that shows them;
- `root_panes_aligned` moves LibreOffice's root pane below its menu bar.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

from winactions.backends.base import IN_POPUP
from winactions.backends.linux.atspi import MENU_SLACK, ROOT_PANE, WEB_PAGE, pane_shift
from winactions.model import Node, Rect, Snapshot

ROOT_SLACK = 16  # px a frame's reported origin may differ from its X window's (borders, shadows)
# GTK 4 reports a popover (a menu button's menu, a primary menu) where the widget it pops from
# is, not where the X server shows it (`popovers_moved`)
POPOVER_TOOLKITS = frozenset({"gtk4"})
POPOVER_ROLES = frozenset({"menu"})
SURFACE_MARGIN = 32  # px: a tooltip's label lies this near its own surface's corner, at most
TITLE_BAR = 64  # px: the tallest window manager's title bar over a frame that reports it as its own
FRAME_STAND_INS = 4  # the first elements looked at for a frame's place when it reports none


def placed_on_screen(snapshot: Snapshot, window: Rect | None) -> tuple[Snapshot, Placement]:
    """The snapshot with its nodes on the screen (its `nodes` set to placed copies), and how
    they were placed (`Placement`, kept for elements read again later: `refresh`). The X
    window `window` has the coordinates right; the frame reported against it tells which of
    these a toolkit got wrong:
    - GTK 4.8 reports its frame at (0, 0) inside its X window, its client-side border left
      out: moved there, the border split evenly (not a frame that holds the whole window
      under a title bar: GTK 3 and LibreOffice maximized are on the screen already);
    - GTK under GDK_SCALE and Java under sun.java2d.uiScale report logical pixels: every place
      is multiplied back (a Java frame reports no place: its first element that does stands
      for it, FRAME_STAND_INS);
    - Chromium and Electron at a device scale factor report their frame in logical pixels and
      their pages in the screen's: a page is kept as it reports (`Placement.placed`);
    - Java dialogs report where they were before the window manager placed them: a root
      further than ROOT_SLACK from its X window takes the window's rect.
    """
    if window is None or not snapshot.nodes:
        return snapshot, IDENTITY
    nodes = snapshot.nodes
    root = next((n.rect for n in nodes[:FRAME_STAND_INS] if n.rect is not None), None)
    placement = placement_of(root, window) if root is not None else IDENTITY
    if placement != IDENTITY:
        nodes = placement.placed(nodes)
    root = nodes[0].rect
    if root is not None and (abs(root.left - window.left) > ROOT_SLACK or abs(root.top - window.top) > ROOT_SLACK):
        nodes = [dataclasses.replace(nodes[0], rect=window), *nodes[1:]]  # never edit a cached tree in place
    snapshot.nodes = nodes
    return snapshot, placement


@dataclasses.dataclass(frozen=True)
class Placement:
    """Where an app's reported places are on the screen: `scale` times as large, then moved
    by (dx, dy). The identity for nearly every app."""

    scale: int = 1
    dx: int = 0
    dy: int = 0
    # the X window it was fitted to, when scaled (a page in it may report screen pixels); not part of how it places
    window: Rect | None = dataclasses.field(default=None, compare=False)

    def placed(self, nodes: list[Node]) -> list[Node]:
        """A snapshot's nodes on the screen: each placed, but a web page that reports screen
        pixels already (`in_screen_pixels`) and everything in it kept as reported."""
        kept = [False] * len(nodes)
        out = []
        for i, node in enumerate(nodes):  # document order: a parent comes before its children
            kept[i] = (node.parent is not None and kept[node.parent]) or (
                node.native_role == WEB_PAGE and node.rect is not None and self.in_screen_pixels(node.rect)
            )
            out.append(node if kept[i] else self.place(node))
        return out

    def in_screen_pixels(self, page: Rect) -> bool:
        """Whether a web page (the outermost document) reports its places in the screen's pixels
        although its app's frame reports logical ones: it lies inside the X window as reported,
        and would not once scaled. Chromium does so at a device scale factor of 2: its frame
        800 px wide for a 1600 px window, its page 1584 px wide."""
        if self.scale == 1 or self.window is None:
            return False
        w = self.window
        around = w.grown(ROOT_SLACK)
        return around.encloses(page) and not around.encloses(self.on_screen(page))

    def on_screen(self, r: Rect) -> Rect:
        """A reported rect where it is on the screen."""
        k = self.scale
        return Rect(
            left=r.left * k + self.dx,
            top=r.top * k + self.dy,
            right=r.right * k + self.dx,
            bottom=r.bottom * k + self.dy,
        )

    def place(self, node: Node) -> Node:
        """The node where it is on the screen: a copy (a kept tree is never edited in place), made
        field by field: `dataclasses.replace` costs ~20 us, on every element of a big window each state."""
        if node.rect is None or self == IDENTITY:
            return node
        moved = object.__new__(Node)
        moved.__dict__.update(node.__dict__, rect=self.on_screen(node.rect))
        return moved

    def misfit(self, frames: list[Rect], window: Rect) -> int:
        """How far the frame this placement fits best lands from the window, in px."""
        k = self.scale
        return min(
            abs(f.left * k + self.dx - window.left)
            + abs(f.top * k + self.dy - window.top)
            + abs(f.width * k - window.width)
            + abs(f.height * k - window.height)
            for f in frames
        )


IDENTITY = Placement()
HIDPI_SCALES = (2, 3)  # GDK_SCALE takes whole numbers


def subtrees_moved(
    nodes: list[Node],
    shift_of: Callable[[Node, Node | None], tuple[int, int] | None],
    moved: Callable[[Node, tuple[int, int]], Node],
) -> list[Node]:
    """The nodes with each subtree whose root `shift_of(node, parent)` answers a shift for
    moved by it (`moved` makes each moved copy). Nodes are in document order: a parent comes
    before its children."""
    shifts: list[tuple[int, int] | None] = [None] * len(nodes)
    out = list(nodes)
    for i, node in enumerate(nodes):
        parent = None if node.parent is None else nodes[node.parent]
        shift = shifts[node.parent] if node.parent is not None else None
        if shift is None and node.rect is not None:
            shift = shift_of(node, parent)
        shifts[i] = shift
        if shift is not None and node.rect is not None:
            out[i] = moved(node, shift)
    return out


def popovers_moved(nodes: list[Node], menus: list[Rect], placement: Placement) -> list[Node]:
    """The nodes with each popover that is reported away from the open menu it shows in moved
    there, and everything in it. GTK 4.8 reports a popover at the place of the widget it pops
    from: gnome-text-editor's main menu at its menu button, [541,571,804,1158] (reaching
    past the screen), where the X server shows it at [427,9,690,596]; a mouse click on its
    "Save" landed in the text. A popover is told by its size: that of an open menu, to
    MENU_SLACK px. So is a tooltip, reported in its own surface's coordinates (`_surface_offset`)."""
    slack = MENU_SLACK * placement.scale

    def shift_of(node: Node, parent: Node | None) -> tuple[int, int] | None:
        assert node.rect is not None
        if pops_over(node, parent):
            return popover_offset(node.rect, menus, slack)
        return _surface_offset(node.rect, menus, placement, slack) if node.parent == 0 else None

    return subtrees_moved(nodes, shift_of, in_popover)


def in_popover(node: Node, shift: tuple[int, int]) -> Node:
    """The node of a popover moved where it shows, marked as being in a popup of its own (a
    click on it is not in the popup's way, whatever its type: `IN_POPUP`)."""
    assert node.rect is not None
    return dataclasses.replace(
        node, rect=node.rect.moved(*shift), extra={**node.extra, IN_POPUP: f"a GTK 4 popup, moved by {shift}"}
    )


def pops_over(node: Node, parent: Node | None) -> bool:
    """Whether a node may be a GTK 4 popover: a menu (a menu button's, a text view's context
    menu), or what an expanded button holds reported at the button's own place (GTK 4.8's
    popovers are; gnome-text-editor's recent-files popover is a "filler"). An expander's
    content lies below its header instead. Its size then tells whether an open menu shows it."""
    if node.native_role in POPOVER_ROLES:
        return True
    return (
        parent is not None
        and "expanded" in parent.states
        and node.rect is not None
        and parent.rect is not None
        and (node.rect.left, node.rect.top) == (parent.rect.left, parent.rect.top)
    )


def root_panes_aligned(nodes: list[Node]) -> list[Node]:
    """The nodes with each root pane that is its holder's size but not at its place moved
    there, and everything in it. LibreOffice's gtk3 plugin holds its window's content (menus
    aside) in a GTK panel below the menu bar, and reports that content at the window's top
    until the window is first clicked, a menu bar's height too high (25 px at 1x, 40 at 2x):
    Calc's B2 was listed over row 1, and a mouse click there took another cell."""

    def shift_of(node: Node, holder: Node | None) -> tuple[int, int] | None:
        return pane_shift(node.rect, holder.rect) if holder is not None and node.native_role == ROOT_PANE else None

    return subtrees_moved(
        nodes,
        shift_of,
        lambda node, shift: dataclasses.replace(node, rect=node.rect.moved(*shift) if node.rect is not None else None),
    )


def _surface_offset(placed: Rect, menus: list[Rect], placement: Placement, slack: int) -> tuple[int, int] | None:
    """How far a child of the window's root lies from the popup it shows in, when it reports
    its place in that popup's own coordinates: GTK 4's tooltip label "Mode selection" at
    (11, 7), 99x16 px, in a tooltip of 121x30 px (its margins each side), listed over the
    window's corner. GTK 4 types its tooltips as menus, so `state` warned of a menu it does not
    list. None where no open menu is the label's size with its margins."""
    k = placement.scale
    x, y = (placed.left - placement.dx) / k, (placed.top - placement.dy) / k
    if not (0 <= x <= SURFACE_MARGIN and 0 <= y <= SURFACE_MARGIN):
        return None
    for menu in menus:
        if abs(menu.width - placed.width - 2 * x * k) + abs(menu.height - placed.height - 2 * y * k) <= slack:
            return round(menu.left + x * k) - placed.left, round(menu.top + y * k) - placed.top
    return None


def popover_offset(reported: Rect, menus: list[Rect], slack: int) -> tuple[int, int] | None:
    """How far a popover reported at `reported` (on the screen, as placed) lies from the open
    menu of its size that shows it; None where it shows at one, or none is its size."""
    same = [m for m in menus if abs(m.width - reported.width) + abs(m.height - reported.height) <= slack]
    if not same:
        return None
    menu = min(same, key=lambda m: abs(m.left - reported.left) + abs(m.top - reported.top))
    dx, dy = menu.left - reported.left, menu.top - reported.top
    return None if abs(dx) + abs(dy) <= slack else (dx, dy)


def _scaled_frame(root: Rect, window: Rect, k: int) -> bool:
    """Whether a frame reported as `root` is `window` in pixels k times as large: as wide to a
    pixel or two, as tall or taller by up to ROOT_SLACK (GTK 3 reports its frame with the
    window manager's title bar), and where the window is."""
    if abs(root.width - window.width) <= ROOT_SLACK:
        return False  # the same size: not scaled
    return (
        abs(root.width * k - window.width) <= 2 * k
        and -2 * k <= root.height * k - window.height <= ROOT_SLACK * k
        and abs(root.left * k - window.left) <= ROOT_SLACK * k
        and abs(root.top * k - window.top) <= ROOT_SLACK * k
    )


def placement_of(root: Rect, window: Rect) -> Placement:
    """How to place the elements of a window whose frame reports `root` and whose X window is
    `window` (see `placed_on_screen`)."""
    if (root.left, root.top) == (0, 0) and (window.left, window.top) != (0, 0) and not _around(root, window):
        return _inside_window(root, window)
    for k in HIDPI_SCALES:
        if _scaled_frame(root, window, k):
            # GDK places a toplevel at its screen position divided by the scale, rounded down
            return Placement(k, window.left % k, window.top % k, window)
    return IDENTITY


def _around(root: Rect, window: Rect) -> bool:
    """Whether a frame reported at (0, 0) holds the whole X window, at some scale: a maximized
    window under a title bar (GTK 3, LibreOffice), whose frame is on the screen with the title
    bar above its client area, not a frame inside its window (GTK 4.8)."""
    return any(
        abs(root.left * k - window.left) <= k
        and abs(root.right * k - window.right) <= 2 * k
        and abs(root.bottom * k - window.bottom) <= 2 * k
        and 0 < window.top - root.top * k <= TITLE_BAR
        for k in (1, *HIDPI_SCALES)
    )


def _inside_window(root: Rect, window: Rect) -> Placement:
    """GTK 4.8: its frame at (0, 0) inside an X window elsewhere, its client-side border (the
    same each way, up to ROOT_SLACK) left out, all in logical pixels under GDK_SCALE: the scale
    is the one that leaves such a border."""
    for k in (1, *HIDPI_SCALES):
        across, down = window.width / k - root.width, window.height / k - root.height
        if 0 <= across <= 2 * ROOT_SLACK and abs(across - down) <= 1:
            return Placement(k, window.left + round(across * k / 2), window.top + round(down * k / 2))
    return Placement(
        1, window.left + max(0, window.width - root.width) // 2, window.top + max(0, window.height - root.height) // 2
    )
