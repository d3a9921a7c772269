"""winctl on Java Swing: jEdit through the ATK wrapper, its menus, file browser and combo box.

Each app is started with `winctl launch` (tests/fixtures/toolkit_apps.py); each outcome is read
from the app's side: the file it saved, its title as wmctrl sees it, a dialog that appeared.
"""

from __future__ import annotations

import time

import pytest

from tests.conftest import wait_for_window
from tests.e2e.helpers.apps import (
    process_env,
    semantic_click,
    target,
    wait_for,
    wait_for_file,
)
from tests.e2e.helpers.toolkit_steps import (
    chosen_by_keys,
    many_notes,
    open_far_down,
)
from tests.fixtures.toolkit_apps import (
    jedit_command,
)

pytestmark = pytest.mark.desktop


def test_java_swing_jedit(winctl, desktop, launch, tmp_path):
    doc = tmp_path / "swing.txt"
    saved = tmp_path / "swing-saved.txt"
    app = launch(jedit_command(tmp_path / "jedit-settings", doc), title="jEdit -")
    assert "AtkWrapper" in process_env(app.pid).get("JAVA_TOOL_OPTIONS", "")
    state = wait_for(winctl, ("Menu", "File"), ("Menu", "Edit"), ("Menu", "Help"), app=app)

    winctl("type", "hello swing")  # jEdit's own text area has no accessible text: keyboard
    semantic_click(winctl, target(state, "Menu", "File"))
    semantic_click(winctl, target(wait_for(winctl, ("MenuItem", "Save As...")), "MenuItem", "Save As..."))
    wait_for_window(desktop, "File Browser - Save")
    winctl("focus", "File Browser - Save")
    dialog = wait_for(winctl, ("Edit", "File name:"), ("Button", "Save"))
    assert "EditableText" in winctl("input", str(target(dialog, "Edit", "File name:")), str(saved)).out
    semantic_click(winctl, target(dialog, "Button", "Save"))
    assert wait_for_file(saved, "hello swing").strip() == "hello swing"

    # the text area's text, which its tree lacks, is read from its pixels; its gutter (24x376
    # px) and the strip beside it are no buttons (`--vision local` listed both as such)
    deadline = time.monotonic() + 15
    while True:
        seen = winctl("--json", "--window", "jEdit -", "state", "--vision", "local", "--verbose").json["result"]
        read = [t["name"] for t in seen["targets"] if t.get("source") == "ocr"]
        if "hello swing" in read:
            break
        assert time.monotonic() < deadline, (read, seen["tiers"])
        time.sleep(0.5)
    for t in (t for t in seen["targets"] if t.get("source") == "vision"):
        width, height = t["rect"][2] - t["rect"][0], t["rect"][3] - t["rect"][1]
        assert min(width, height) <= 96 and not (height > 2 * width and height > 64), t
    # the closed File menu's separators are not listed across the text (they were, and the
    # text under one was taken for it)
    assert not any(t["type"] == "Separator" for t in seen["targets"])


def test_a_file_far_down_a_swing_file_browser_is_opened_by_name(winctl, desktop, launch, tmp_path):
    """jEdit's file browser, a Swing table of 80 files: Java does not scroll a row into view
    when asked either. The wheel turns the table, watching its scroll bar's value to know that
    it moves (reading the tree again costs over a second in Java); Open opens the file."""
    folder = many_notes(tmp_path)
    app = launch(jedit_command(tmp_path / "jedit-settings", folder / "note-01.txt"), title="jEdit -")
    wait_for(winctl, ("Menu", "File"), app=app)
    open_far_down(winctl, desktop, "File Browser - Open", "Text", "note-70.txt")


def test_a_java_app_with_a_splash_screen_is_launched_to_its_window(winctl, desktop, launch, tmp_path):
    """jEdit started as a user starts it shows a splash screen, an undecorated `JWindow` called
    "win0", for the seconds its JVM takes to build the editor, and then closes it. `launch`
    selected the splash, so the very next `state` said "the session's window ... is closed".
    Now `launch` waits past it. The toolbar's icon buttons, unnamed in the tree, are read by
    their tooltips and act: "New" opens a new buffer, as the window title shows."""
    command = [arg for arg in jedit_command(tmp_path / "jedit-settings", tmp_path / "splash.txt") if arg != "-nosplash"]
    app = launch(command, timeout=90)  # no --title: the fixture's first `state` must find the window
    assert app.window["title"].startswith("jEdit - "), app.window
    new = target(wait_for(winctl, ("Menu", "File"), ("Button", "New (C+n)"), app=app), "Button", "New (C+n)")
    semantic_click(winctl, new)
    wait_for_window(desktop, "jEdit - Untitled-")


def test_a_swing_menu_is_listed_once(winctl, desktop, launch, tmp_path):
    """Swing draws an open menu in its window's layered pane, and the menu's items are also the
    menu's children: `state` met them twice and listed each twice, with the same id. Each is
    listed once, and acts: "Global Options..." opens its dialog."""
    launch(jedit_command(tmp_path / "jedit-settings", tmp_path / "menu.txt"), title="jEdit -", timeout=90)
    semantic_click(winctl, target(wait_for(winctl, ("Menu", "Utilities")), "Menu", "Utilities"))
    state = wait_for(winctl, ("MenuItem", "Global Options..."))
    ids = [int(t["id"]) for t in state["targets"]]
    assert len(ids) == len(set(ids)), [t for t in state["targets"] if ids.count(int(t["id"])) > 1]
    assert "via action:" in winctl("click", "Global Options...").out
    wait_for_window(desktop, "Global Options")


def test_a_swing_context_menu_outside_its_frame_is_listed(winctl, launch, tmp_path):
    """A Swing context menu that reaches past its frame is a window of its own: an
    override-redirect X window typed as a dialog, and an accessible top-level whose place Java
    reports off by the frame's. `state` listed nothing of it. Its items are listed where the
    screen shows them, and "Paste" acts: the clipboard's text is in the file saved."""
    doc = tmp_path / "swing-menu.txt"
    doc.write_text("hello\n")
    app = launch(jedit_command(tmp_path / "jedit-settings", doc), title="jEdit - swing-menu.txt", timeout=90)
    wait_for(winctl, ("Menu", "File"), app=app)
    winctl("clipboard", "pasted ")
    rect = app.window["rect"]
    winctl("click-at", str(rect["right"] - 120), str(rect["bottom"] - 80), "--button", "right")  # the menu overflows
    menu = wait_for(winctl, ("MenuItem", "Paste"), ("MenuItem", "Cut"))
    assert not any("a menu is open" in w for w in menu["warnings"]), menu["warnings"]
    # clicked as a user does: the item's action alone would leave the menu open (no menu bar to close it)
    assert "via mouse" in winctl("click", str(target(menu, "MenuItem", "Paste"))).out
    winctl("keys", "ctrl+s")
    assert "pasted" in wait_for_file(doc, "pasted")
    assert not any(t["name"] == "Paste" and t["type"] == "MenuItem" for t in winctl.state()["targets"])


def test_a_swing_menu_item_closes_its_menu_and_a_closed_menu_lists_nothing(winctl, launch, tmp_path):
    """Swing's accessible "click" on a menu item runs it and leaves the menu open over the
    window, and a closed menu's items stay "visible": `state` went on listing all of Edit's items
    (at the places they had while open) after the menu closed. The menu bar's menus are now
    closed first, as a user's click closes them; a closed menu's items are not listed; and the
    text typed after Edit > Select All replaces the buffer's, by the item's action or the mouse."""
    doc = tmp_path / "swing-select.txt"
    doc.write_text("hello\n")
    app = launch(jedit_command(tmp_path / "jedit-settings", doc), title="jEdit - swing-select.txt", timeout=90)
    semantic_click(winctl, target(wait_for(winctl, ("Menu", "Edit"), app=app), "Menu", "Edit"))
    semantic_click(winctl, target(wait_for(winctl, ("MenuItem", "Select All")), "MenuItem", "Select All"))
    deadline = time.monotonic() + 5
    while any(t["type"] == "MenuItem" for t in winctl.state()["targets"]):
        assert time.monotonic() < deadline, "Edit's items are still listed"
        time.sleep(0.1)
    winctl("type", "swapped")
    winctl("keys", "ctrl+s")
    assert wait_for_file(doc, "swapped").strip() == "swapped"

    # Java places a menu's items at the menu's place plus theirs in its popup: a mouse click at
    # "Select All" hit "More Clipboard" above it. Listed where they show, the mouse hits them.
    semantic_click(winctl, target(wait_for(winctl, ("Menu", "Edit")), "Menu", "Edit"))
    select_all = target(wait_for(winctl, ("MenuItem", "Select All")), "MenuItem", "Select All")
    assert "via mouse" in winctl("click", str(select_all), "--via", "input").out
    time.sleep(0.5)
    winctl("type", "by mouse")
    winctl("keys", "ctrl+s")
    assert wait_for_file(doc, "by mouse").strip() == "by mouse"


def test_a_java_combo_box_option_reaches_the_app(winctl, desktop, launch, tmp_path):
    """A Swing combo box lists its options only while open, deep in a popup (a list in the
    viewport of a scroll pane in a menu): `select` said "options: none". And an option chosen
    through AT-SPI shows in the box but never reaches the app, and is undone when the list
    closes. `select` now opens it, reads the options, chooses by keys: jEdit switches to the
    buffer chosen in its buffer switcher, as its window title shows."""
    first, second = tmp_path / "first.txt", tmp_path / "second.txt"
    first.write_text("one")
    second.write_text("two")
    command = [*jedit_command(tmp_path / "jedit-settings", first), str(second)]
    shown = launch(command, title="jEdit - ", timeout=90).window["title"]
    other = "second.txt" if "first.txt" in shown else "first.txt"
    switcher = target(wait_for(winctl, ("ComboBox", None)), "ComboBox")
    chosen_by_keys(winctl, switcher, f"{other} ({tmp_path}/)")
    wait_for_window(desktop, f"jEdit - {other}")
