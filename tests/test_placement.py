"""Where the Linux backend puts an app's reported places on the screen (`placement_of`), from
frames and X windows measured on real apps."""

from __future__ import annotations

import dataclasses

from winactions.backends.base import IN_POPUP
from winactions.backends.linux.placement import IDENTITY, Placement, placement_of, popovers_moved, root_panes_aligned
from winactions.model import Node, Rect


def xywh(x: int, y: int, w: int, h: int) -> Rect:
    return Rect.from_xywh(x, y, w, h)


def node(
    key: str, parent: int | None, role: str, native: str, left: int, top: int, right: int, bottom: int, **fields: object
) -> Node:
    """A node as an app reports it: `key` stands for its handle."""
    return Node(
        handle=f":1.9/{key}",
        parent=parent,
        role=role,
        native_role=native,
        rect=Rect(left=left, top=top, right=right, bottom=bottom),
        **fields,
    )  # type: ignore[arg-type]


def test_gtk3_at_gdk_scale_2_is_placed_twice_as_large():
    # galculator under GDK_SCALE=2: its frame (with the title bar) in logical pixels, its X window in screen pixels
    frame, window = Rect(left=314, top=92, right=646, bottom=448), Rect(left=629, top=204, right=1291, bottom=890)
    placement = placement_of(frame, window)
    assert placement == Placement(2, 1, 0)
    five = node("five", 0, "Button", "toggle-button", 385, 325, 444, 359)
    # where the 2x screenshot shows it
    assert placement.place(five).rect == Rect(left=771, top=650, right=889, bottom=718)
    assert five.rect == Rect(left=385, top=325, right=444, bottom=359), "a kept tree is never edited in place"


def test_gtk3_at_gdk_scale_3_and_an_even_window():
    assert placement_of(xywh(200, 90, 300, 210), xywh(600, 300, 900, 600)) == Placement(3, 0, 0)


def test_apps_that_report_screen_pixels_are_left_alone():
    window = xywh(794, 376, 331, 343)
    assert placement_of(xywh(794, 376, 331, 343), window) == IDENTITY
    assert placement_of(xywh(794, 366, 331, 356), window) == IDENTITY  # the frame with its title bar
    # a Java dialog still reporting where it was before the window manager placed it: not scaled
    assert placement_of(xywh(0, 0, 331, 343), xywh(0, 0, 331, 343)) == IDENTITY


def test_a_frame_half_as_large_elsewhere_on_the_screen_is_not_taken_for_a_scaled_one():
    assert placement_of(xywh(1200, 700, 165, 171), xywh(100, 100, 331, 343)) == IDENTITY


def test_gtk4_reports_places_inside_its_window():
    # GTK 4.8: a frame at (0, 0), its client-side border (5 px each way) left out
    assert placement_of(xywh(0, 0, 400, 300), xywh(100, 50, 410, 310)) == Placement(1, 105, 55)


def test_gtk4_at_gdk_scale_2_reports_logical_places_inside_its_window():
    # gnome-text-editor: a 690x510 frame (its 5 px border left out) in a 1400x1040 X window
    assert placement_of(xywh(0, 0, 690, 510), xywh(260, 20, 1400, 1040)) == Placement(2, 270, 30)
    # and at GDK_SCALE=1, the same frame in a 700x520 window
    assert placement_of(xywh(0, 0, 690, 510), xywh(610, 280, 700, 520)) == Placement(1, 615, 285)


def test_java_at_ui_scale_2_is_placed_twice_as_large():
    # jEdit under sun.java2d.uiScale=2: its root pane (the frame reports no place) in logical pixels
    assert placement_of(xywh(102, 25, 752, 497), xywh(205, 50, 1504, 994)) == Placement(2, 1, 0)


def test_a_maximized_window_under_a_title_bar_is_left_alone():
    """Maximized under openbox, mousepad (GTK 3) and LibreOffice report their frame at (0, 0)
    with the title bar, and their menus where they are on the screen: the X window's client
    area starts 19 px lower. Taken for a GTK 4 frame inside its window, every place moved 19 px
    down, and a mouse click on Writer's File menu pressed the New button below it."""
    assert placement_of(xywh(0, 0, 1920, 1080), xywh(0, 19, 1920, 1061)) == IDENTITY
    # the same at GDK_SCALE=2: a frame in logical pixels, placed twice as large
    assert placement_of(xywh(0, 0, 960, 540), xywh(0, 19, 1920, 1061)) == Placement(2, 0, 1)
    # GTK 4 maximized: its frame is its client area, inside the window
    assert placement_of(xywh(0, 0, 1920, 1061), xywh(0, 19, 1920, 1061)) == Placement(1, 0, 19)


def test_chromium_at_device_scale_2_keeps_its_page_in_screen_pixels():
    """Chromium with Xft.dpi 192: its frame reports 800x540 logical pixels for a 1600x1080 window,
    its toolbar logical too, but its page (the outermost document) and all in it the screen's.
    Measured on the real app: the page's button drawn at (124, 418)-(302, 469)."""
    window = Rect(left=100, top=0, right=1700, bottom=1080)
    placement = placement_of(xywh(50, 0, 800, 540), window)
    assert placement == Placement(2, 0, 0)
    nodes = [
        node("frame", None, "Window", "frame", 50, 0, 850, 540),
        node("reload", 0, "Button", "push-button", 132, 46, 166, 80),
        node("page", 0, "Document", "document-web", 108, 286, 1692, 1072),
        node("section", 2, "Group", "section", 108, 286, 1692, 500),
        node("button", 3, "Button", "push-button", 124, 418, 302, 469),
    ]
    placed = placement.placed(nodes)
    assert placed[1].rect == Rect(left=264, top=92, right=332, bottom=160)  # the toolbar: scaled
    assert [n.rect for n in placed[2:]] == [n.rect for n in nodes[2:]]  # the page and all in it: as reported
    assert placement.in_screen_pixels(nodes[2].rect)
    # a page that reports logical pixels like its frame (Chromium at 1x, or GTK's WebKit) is placed like it
    assert not placement.in_screen_pixels(Rect(left=54, top=143, right=846, bottom=536))
    assert not IDENTITY.in_screen_pixels(nodes[2].rect)


def test_a_gtk4_popover_is_moved_where_the_x_server_shows_it():
    """gnome-text-editor's main menu, a GTK 4.8 popover, reported (once placed in its window) at
    its menu button's place, reaching below the screen; the X server shows it above the button.
    Everything in it moves with it and says it is in a popup of its own; the button it pops
    from, and a menu already where it shows, stay."""
    menus = [Rect(left=427, top=9, right=690, bottom=596)]
    nodes = [
        node("frame", None, "Window", "frame", 0, 560, 700, 1080),
        node("button", 0, "Button", "push-button", 541, 571, 575, 605),
        node("popover", 1, "Menu", "menu", 541, 571, 804, 1158),
        node("save", 2, "MenuItem", "menu-item", 583, 768, 762, 800),
    ]
    moved = popovers_moved(nodes, menus, IDENTITY)
    assert moved[2].rect == menus[0]
    assert moved[3].rect == Rect(left=469, top=206, right=648, bottom=238)  # drawn there (screenshot)
    assert IN_POPUP in moved[3].extra and IN_POPUP not in moved[1].extra
    assert moved[:2] == nodes[:2]
    assert popovers_moved(moved, menus, IDENTITY) == moved  # where it shows: left as it is
    assert popovers_moved(nodes, [Rect(left=427, top=9, right=600, bottom=400)], IDENTITY) == nodes  # no menu its size


def test_a_gtk4_popover_that_is_no_menu_is_told_by_the_expanded_button_that_holds_it():
    """gnome-text-editor's recent-files popover: a "filler" under its expanded button, reported
    at the button's place, shown 23 px left and 13 px lower. A filler of that size under a
    button that is not expanded is the window's own, and stays."""
    menus = [Rect(left=-12, top=584, right=384, bottom=863)]
    button = node(
        "button", None, "Button", "push-button", 11, 571, 88, 605, states=frozenset({"expandable", "expanded"})
    )
    popover = node("popover", 0, "Pane", "filler", 11, 571, 407, 850)
    browse = node("browse", 1, "Button", "push-button", 348, 616, 372, 640)
    moved = popovers_moved([button, popover, browse], menus, IDENTITY)
    assert moved[1].rect == menus[0] and moved[2].rect == Rect(left=325, top=629, right=349, bottom=653)
    closed = dataclasses.replace(button, states=frozenset({"expandable"}))
    assert popovers_moved([closed, popover, browse], menus, IDENTITY) == [closed, popover, browse]
    # an expanded expander's content, of an open menu's size but laid out below its header, stays
    expander = node(
        "expander", None, "Button", "push-button", 11, 571, 407, 600, states=frozenset({"expandable", "expanded"})
    )
    content = node("content", 0, "Pane", "filler", 11, 600, 407, 879)
    assert popovers_moved([expander, content], menus, IDENTITY) == [expander, content]


def test_a_gtk4_tooltip_reported_in_its_own_surface_is_moved_into_it():
    """gnome-calculator (GTK 4.8) in a window at (1453, 52), its 5 px border left out of its
    reports: its "Mode selection" tooltip's label, a child of the window's root, reports
    (11, 7) in the tooltip, 99x16 px; the X server shows the tooltip, typed as a menu, at
    [1542,101,1663,131]: 121x30, the label with its margins. The window's own content, also a
    child of its root, has no menu of its size and stays."""
    placement = Placement(1, 1458, 57)
    frame = node("frame", None, "Window", "frame", 1458, 57, 1813, 543)
    content = node("content", 0, "Pane", "filler", 1458, 57, 1813, 543)
    tip = node("tip", 0, "Pane", "filler", 1469, 64, 1568, 80)
    label = node("label", 2, "Text", "label", 1469, 64, 1568, 80, name="Mode selection")
    menus = [Rect(left=1542, top=101, right=1663, bottom=131)]
    moved = popovers_moved([frame, content, tip, label], menus, placement)
    assert moved[3].rect == Rect(left=1553, top=108, right=1652, bottom=124) and IN_POPUP in moved[3].extra
    assert moved[:2] == [frame, content]


def test_libreoffice_content_reported_a_menu_bar_too_high_is_put_in_its_panel():
    """Calc maximized at 1x, before its window was clicked: the GTK panel under the menu bar at
    [0,44,1920,1080], the root pane it holds reported at [0,19,1920,1055], and B2 inside it at
    [123,174,205,191] (drawn at [123,199,205,216]). A root pane at its panel's place, or of
    another size, stays."""
    panel = node("panel", None, "Pane", "panel", 0, 44, 1920, 1080)
    pane = node("pane", 0, "Pane", "root-pane", 0, 19, 1920, 1055)
    b2 = node("b2", 1, "DataItem", "table-cell", 123, 174, 205, 191, name="B2")
    aligned = root_panes_aligned([panel, pane, b2])
    assert aligned[1].rect == panel.rect and aligned[2].rect == Rect(left=123, top=199, right=205, bottom=216)
    assert root_panes_aligned(aligned) == aligned
    smaller = dataclasses.replace(pane, rect=Rect(left=0, top=19, right=1920, bottom=900))
    assert root_panes_aligned([panel, smaller, b2]) == [panel, smaller, b2]
