"""Menus the tree does not list, and controls of a window without one, read from real
screenshots of IDLE (Tk 8.6), with the places of its menu windows (`Backend.popups`) and widget
windows (`Backend.widget_windows`) as the X server gave them when each was taken.

Read as plain text, the Options menu's first item and the shell's banner behind it were one
line ("Python 3.11.2 (mairConfigure IDLE"), a greyed-out item was listed like any other, an
item's shortcut was an element of its own or part of its name, and the settings dialog's
selected radio button was a button."""

from __future__ import annotations

import functools
import itertools
import json
from pathlib import Path
from typing import Any

import cv2
import pytest
from PIL import Image

from winactions.model import Rect, WindowInfo
from winactions.perception.menus import items, split_at
from winactions.perception.provider import Detection
from winactions.perception.vision import VisionProvider

SCREENS = Path(__file__).parent / "fixtures" / "screens"


def box(left: int, top: int, right: int, bottom: int) -> Rect:
    return Rect(left=left, top=top, right=right, bottom=bottom)


class Taken:
    """A screen as it was: the picture taken of `seen` and what the X server said of the window
    then. Everything `VisionProvider` asks a backend, answered from the fixture."""

    def __init__(self, name: str) -> None:
        self.picture = Image.open(SCREENS / f"{name}.png").convert("RGB")
        facts = json.loads((SCREENS / f"{name}.json").read_text())
        self.seen, self.window = box(*facts["seen"]), box(*facts["window"])
        self.menus = [box(*r) for r in facts["popups"]]
        self.widgets = [box(*r) for r in facts["widgets"]]

    def bound_window(self) -> None:
        return None

    def screens(self) -> list[Rect]:
        return [box(0, 0, 1920, 1080)]

    def capture(self, rect: Rect) -> Image.Image:
        return self.picture.crop(
            (
                rect.left - self.seen.left,
                rect.top - self.seen.top,
                rect.right - self.seen.left,
                rect.bottom - self.seen.top,
            )
        )

    def covers(self, window: WindowInfo) -> list[tuple[Rect, str]]:
        return []

    def widget_windows(self, window: WindowInfo) -> list[Rect]:
        return self.widgets

    def popups(self, window: WindowInfo) -> list[Rect]:
        return self.menus

    def overlays(self) -> list[tuple[Rect, str]]:
        return []  # winctl's own label and teach windows: none in a recorded screenshot


@functools.cache
def read(name: str, title: str) -> list[dict[str, Any]]:
    """`--vision local` of the fixture's window, as a window without a tree is read (its menus
    asked for by vision itself: told none by the tree's tier, as when a menu opens between them)."""
    taken = Taken(name)
    window = WindowInfo(id="0x00800015", title=title, rect=taken.window)
    seen = VisionProvider("local").detect(taken, window, Detection([]))  # type: ignore[arg-type]
    return [t.model_dump() for t in seen.targets]


def test_a_line_across_a_menus_edge_is_cut_there():
    menu = box(797, 211, 1000, 318)  # IDLE's Options menu, over the shell's banner
    banner = box(643, 211, 912, 234)  # OCR's line: "Python 3.11.2 (mai" and "Configure IDLE"
    assert split_at([banner], [menu]) == [box(643, 211, 797, 234), box(797, 211, 912, 234)]
    above = box(616, 182, 975, 208)  # the menu bar, above the menu: not cut
    assert split_at([above], [menu]) == [above]
    across = box(700, 240, 1100, 262)  # in and out both sides
    assert split_at([across], [menu]) == [box(700, 240, 797, 262), box(797, 240, 1000, 262), box(1000, 240, 1100, 262)]


def test_a_menus_rows_are_its_items_with_their_shortcuts_and_faint_ones_disabled():
    grey = cv2.imread(str(SCREENS / "idle_options_menu.png"), cv2.IMREAD_GRAYSCALE)
    menu = box(797, 211, 1000, 318)
    read_there = [
        ("Configure IDLE", box(797, 211, 912, 234), 0.97),
        ("Show Code Context", box(797, 249, 945, 272), 1.0),
        ("Show Line Numbers", box(798, 273, 946, 293), 1.0),
        ("Alt+2", box(951, 293, 1001, 318), 1.0),
        ("Zoom Height", box(798, 294, 900, 317), 0.97),
    ]
    rows = items(read_there, menu, grey, (610, 180))
    assert [(r.name, r.shortcut, r.enabled) for r in rows] == [
        ("Configure IDLE", "", True),
        ("Show Code Context", "", False),
        ("Show Line Numbers", "", False),
        ("Zoom Height", "Alt+2", True),
    ]  # the shell has no code context nor line numbers: Tk greys them out
    assert all(r.rect.left == 799 and r.rect.right == 998 for r in rows)  # the menu's width, within its frame
    assert all(a.rect.bottom <= b.rect.top for a, b in itertools.pairwise(rows))  # rows close together meet halfway
    one_line = items(
        [("Module Browser Ctrl+B", box(614, 301, 800, 321), 0.99)], box(611, 211, 838, 528), grey, (610, 180)
    )
    assert (one_line[0].name, one_line[0].shortcut) == ("Module Browser", "Ctrl+B")  # read as one line with it


def test_a_tk_menu_is_listed_item_by_item_on_its_own():
    targets = read("idle_options_menu", "IDLE Shell 3.11.2")
    menu = {t["name"]: t for t in targets if t["type"] == "MenuItem"}
    assert set(menu) == {"Configure IDLE", "Show Code Context", "Show Line Numbers", "Zoom Height"}, targets
    assert sorted(n for n, t in menu.items() if "disabled" in t["states"]) == ["Show Code Context", "Show Line Numbers"]
    assert "its shortcut Alt+2" in menu["Zoom Height"]["derived_from"]
    assert not [t for t in targets if "Configure" in t["name"] and t["type"] != "MenuItem"], targets  # the banner's
    assert not [t for t in targets if t["name"] == "Alt+2"], targets  # the shortcut is the item's


def test_a_long_tk_menu_keeps_every_item_and_its_shortcut():
    targets = read("idle_file_menu", "IDLE Shell 3.11.2")
    menu = {t["name"]: t for t in targets if t["type"] == "MenuItem"}
    assert {
        "New File",
        "Open...",
        "Open Module...",
        "Recent Files",
        "Module Browser",
        "Path Browser",
        "Save",
        "Save As...",
        "Save Copy As...",
        "Close Window",
        "Exit IDLE",
    } <= set(menu), sorted(menu)
    assert len(menu) == 12, sorted(menu)  # and Print Window, whatever OCR makes of its "t"
    assert "its shortcut Ctrl+B" in menu["Module Browser"]["derived_from"]
    assert "its shortcut Ctrl+Shift+S" in menu["Save As..."]["derived_from"]
    assert not any("disabled" in t["states"] for t in menu.values())
    assert not [t for t in targets if t["name"].startswith("Ctrl")], targets


@pytest.mark.parametrize(
    ("name", "kind", "states"),
    [
        ("Use a Built-in Key Set", "RadioButton", {"enabled", "checked"}),  # a button, before: its focus ring's shape
        ("Use a Custom Key Set", "RadioButton", {"disabled"}),
        ("Delete Custom Key Set", "Button", {"disabled"}),
        ("Save as New Custom Key Set", "Button", {"enabled"}),
        ("Get New Keys for Selection", "Button", {"disabled"}),
        ("Ok", "Button", {"enabled"}),
    ],
)
def test_a_tk_dialogs_controls_say_whether_they_are_checked_or_disabled(name, kind, states):
    targets = read("idle_keys_settings", "Settings")
    found = [t for t in targets if t["name"] == name]
    assert [(t["type"], set(t["states"])) for t in found] == [(kind, states)], targets


def test_a_qt_context_menu_is_read_the_same_way():
    """featherpad's context menu (Qt 6, Fusion), which Qt leaves out of its tree, over an editor
    with nothing typed: what cannot be done yet is greyed out."""
    targets = read("featherpad_context_menu", "ctx.txt")
    menu = {t["name"]: t for t in targets if t["type"] == "MenuItem"}
    assert sorted(n for n, t in menu.items() if "disabled" in t["states"]) == [
        "Copy",
        "Cut",
        "Delete",
        "Paste",
        "Redo",
        "Undo",
    ], menu
    assert {"Select All", "Text Tabs to Spaces", "Check Spelling", "Paste Date and Time"} <= set(menu)
    assert "its shortcut F2" in menu["Check Spelling"]["derived_from"]
    assert "its shortcut Ctrl+Shift+V" in menu["Paste Date and Time"]["derived_from"]


def test_chromiums_greyed_out_items_are_disabled_though_drawn_darker_than_tks():
    """Chromium's context menu (not in its tree), with the pointer on "Reload": "Back" and
    "Forward" are greyed out in a grey 0.70 as far off the white as the other items' (Tk's
    0.25), and were listed as enabled; "Print...", a short word, stood off as little as they by
    the share of its box its strokes fill."""
    menu = {t["name"]: t for t in read("chromium_context_menu", "Ctx") if t["type"] == "MenuItem"}
    assert {
        "Back",
        "Forward",
        "Reload",
        "Save as...",
        "Print...",
        "Cast...",
        "Open in reading mode",
        "View page source",
        "Inspect",
    } <= set(menu), sorted(menu)
    assert sorted(n for n, t in menu.items() if "disabled" in t["states"]) == ["Back", "Forward"], menu
    assert "its shortcut Alt+Left Arrow" in menu["Back"]["derived_from"]


def test_the_row_under_the_pointer_is_judged_on_its_own_highlight():
    """featherpad's context menu with the pointer on "Select All": Qt draws it white on blue,
    standing off its highlight half as far as the other items off the menu's white. (Read from
    this picture, "Paste Date and Time" took its clock icon into its name.)"""
    menu = {t["name"]: t for t in read("featherpad_context_menu_hovered", "ctx.txt") if t["type"] == "MenuItem"}
    assert "disabled" not in menu["Select All"]["states"], menu["Select All"]
    # its clock icon left of the items' text was read into the name: "© Paste Date and Time"
    assert "its shortcut Ctrl+Shift+V" in menu["Paste Date and Time"]["derived_from"], sorted(menu)
    assert sorted(n.lower() for n, t in menu.items() if "disabled" in t["states"]) == [
        "copy",
        "cut",
        "delete",
        "paste",
        "redo",
        "undo",
    ], menu  # OCR read this "Cut" as "cut"


def test_an_empty_field_showing_its_text_cursor_is_a_field():
    """Tk's Save As dialog, its name field empty with the focus: the cursor blinking in it made
    its box "busy", and it was listed as a button (taken while the cursor showed)."""
    targets = read("tk_save_as_caret", "Save As")
    name_field = box(845, 642, 1093, 663)  # its widget window
    there = [t["type"] for t in targets if name_field.contains(*Rect(**t["rect"]).center)]
    assert there == ["Edit"], targets


def test_a_panel_holding_lines_of_text_is_named_by_none_of_them():
    """nedit's (Motif) message dialog: its message area is a bordered box holding two lines; the
    first named it as if it were a button, and the box then lost to the second line at the merge:
    "Can't open ..." was not listed at all."""
    names = [(t["type"], t["name"]) for t in read("nedit_cannot_open", "")]
    assert ("Text", "Can't open /tmp/tp/fresh.txt:") in names and ("Text", "Resource temporarily unavailable") in names
    assert ("Button", "New File") in names, names
    assert not [t for t in read("nedit_cannot_open", "") if "disabled" in t["states"]]  # beside its black message


def test_a_motif_menu_bar_and_menu_are_listed_as_menus():
    """nedit (Motif) with its File menu open: each menu title is a widget window of its own in a
    row across the window's top (read as Text before), and its menu window says neither a pid
    nor a type (the backend asks the X server whose it is): its items, greyed-out ones
    disabled, and not a word of the window under it."""
    targets = read("nedit_file_menu", "m.txt - /tmp/tp/")
    bar = {t["name"] for t in targets if t["type"] == "Menu"}
    assert {"Edit", "Search", "Preferences", "Macro", "Windows", "Help"} <= bar, targets
    menu = {t["name"]: t for t in targets if t["type"] == "MenuItem"}
    assert {"New", "Open...", "Save", "Save As...", "Revert to Saved", "Print...", "Exit"} <= set(menu), sorted(menu)
    assert sorted(n for n, t in menu.items() if "disabled" in t["states"]) == [
        "Print Selection...",
        "Unload Calltips File",
        "Unload Tags File",
    ], menu
    assert "its shortcut Ctrl+N" in menu["New"]["derived_from"]


@pytest.mark.parametrize(
    ("name", "checked"), [("nedit_find_dialog", None), ("nedit_find_dialog_focused", "Case Sensitive")]
)
def test_motif_check_boxes_are_hollow_bevelled_squares_filled_when_set(name, checked):
    """nedit's Find dialog (Motif): a check box not set is a bevelled square with the
    background inside (no Tk-like white or dark fill: read as Text before), a set one is filled
    darker; the one with the keyboard focus has a black ring round its widget (once taken for a
    button's frame). Its two labels in a row at the top are no menu bar; its Find button, greyed
    out until something is typed, is disabled; its empty field, sunk in a bevel, a field."""
    targets = read(name, "Find")
    toggles = {t["name"]: "checked" in t["states"] for t in targets if t["type"] == "CheckBox"}
    assert toggles == {
        n: n == checked
        for n in ("Regular Expression", "Case Sensitive", "Whole Word", "Search Backward", "Keep Dialog")
    }, targets
    assert not [t for t in targets if t["type"] == "Menu"], targets
    assert [(t["type"], t["states"]) for t in targets if t["name"] == "Find"] == [("Button", ["disabled"])]
    assert [t["type"] for t in targets if t["type"] == "Edit"] == ["Edit"], targets


def test_a_motif_file_dialogs_fields_radio_buttons_and_check_box():
    """nedit's Save As dialog (Motif): its fields are sunk into the window and hold text (read as
    buttons named by their text before: an agent would click them, not type into them), the
    cursors in them painted over before they are read (the focused one solid, the other
    stippled: "/tmp/tp/nd2/\\" was read); its Format radio buttons are diamonds, the one set
    filled, the others hollow (read as Text)."""
    targets = read("nedit_save_as", "")
    fields = sorted(t["value"] for t in targets if t["type"] == "Edit")
    assert len(fields) == 3 and "*" in fields and "/tmp/tp/nd2/" in fields, targets
    assert "note.txt" in fields, fields  # its text cursor, an I-beam before the name, read as "I" before
    radios = {t["name"]: "checked" in t["states"] for t in targets if t["type"] == "RadioButton"}
    assert radios == {"Unix": True, "DOS": False, "Macintosh": False}, targets
    assert [t["name"] for t in targets if t["type"] == "CheckBox"] == ["Add line breaks where wrapped"]
    assert {"OK", "Filter", "Cancel", "Help"} <= {t["name"] for t in targets if t["type"] == "Button"}
