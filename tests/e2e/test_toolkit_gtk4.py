"""winctl on GTK 4: gnome-text-editor, its popover menu and file dialog.

Each app is started with `winctl launch` (tests/fixtures/toolkit_apps.py); each outcome is read
from the app's side: the file it saved, its title as wmctrl sees it, a dialog that appeared.
"""

from __future__ import annotations

import shlex
import time
from typing import Any

import pytest

from tests.conftest import wait_for_window
from tests.e2e.helpers.apps import (
    semantic_click,
    target,
    wait_for,
    wait_for_file,
)
from tests.fixtures.toolkit_apps import (
    gnome_text_editor_command,
)

pytestmark = pytest.mark.desktop


def test_gtk4_gnome_text_editor(winctl, desktop, launch, tmp_path):
    doc = tmp_path / "gtk4.txt"
    doc.write_text("")
    app = launch(gnome_text_editor_command(doc), title="gtk4.txt")
    state = wait_for(
        winctl, ("Button", "Open"), ("Button", "New tab (Ctrl+T)"), ("Button", "Menu"), ("Edit", None), app=app
    )

    assert "EditableText" in winctl("input", str(target(state, "Edit")), "hello gtk4").out
    winctl("keys", "ctrl+s")
    assert wait_for_file(doc, "hello gtk4").strip() == "hello gtk4"

    semantic_click(winctl, target(state, "Button", "New tab (Ctrl+T)"))
    wait_for_window(desktop, "New Document")  # the new, empty tab names the window

    # GTK 4 places elements relative to its window: a mouse click must land where the state
    # said (and the element read again before the click must not look moved)
    tabs = wait_for(winctl, ("Text", "gtk4.txt"), app=app)  # the first tab's label
    out = winctl("click", str(target(tabs, "Text", "gtk4.txt")), "--via", "input").out
    assert "mouse" in out, out
    wait_for_window(desktop, "gtk4.txt")  # its tab chosen again names the window


def test_a_gtk4_save_as_dialog_is_read_and_filled_in(winctl, desktop, launch, tmp_path):
    """GTK 4 as a user saves a file under a new name, every step by name:
    - its menu button is a button "Menu" holding a button "Menu" (the one with the action):
      listed twice, `click Menu` was ambiguous and one id did nothing;
    - GTK 4.8 gives its file dialog the role "filler": no frame matched it, and `state` of
      the "Save As" window listed the editor's window under the dialog's title;
    - its buttons are named twice over ("Save Save");
    - its name field answers GetText(0, -1) with "" and GrabFocus with NotSupported: `input`
      ended in "internal error: DBusCallError".
    The file is written where the dialog was told."""
    doc = tmp_path / "menu.txt"
    doc.write_text("")
    saved = tmp_path / "saved-as.txt"
    app = launch(gnome_text_editor_command(doc), title="menu.txt")
    state = wait_for(winctl, ("Button", "Menu"), ("Edit", None), app=app)
    assert [t["name"] for t in state["targets"]].count("Menu") == 1, state["targets"]
    winctl("input", str(target(state, "Edit")), "hello dialog")
    assert "via action:" in winctl("click", "Menu").out
    wait_for(winctl, ("MenuItem", "Save As…"))
    assert "via action:" in winctl("click", "Save As…").out
    wait_for_window(desktop, "Save As")
    winctl("focus", "Save As")
    dialog = wait_for(winctl, ("Edit", "Name:"), ("Button", "Save"), ("Button", "Cancel"))
    assert not any(t["name"] == "Menu" for t in dialog["targets"]), "the editor's window, not the dialog"
    assert "EditableText" in winctl("input", str(target(dialog, "Edit", "Name:")), str(saved)).out
    assert winctl("get", "text", str(target(dialog, "Edit", "Name:"))).out.strip() == str(saved)
    winctl("click", "Save")
    assert wait_for_file(saved, "hello dialog").strip() == "hello dialog"


def test_a_gtk4_file_dialogs_buttons_are_named_by_their_text(winctl, desktop, launch, tmp_path):
    """GTK 4's path bar and column headers are buttons with no name, a label inside (a header's
    under layout panels, beside its sort arrow): `state` listed `[Button] ""` over `[Text]
    "tmp"`. They are named by their text now, and the text is not listed again. A user saves
    into the folder above by clicking its name in the path bar: the file lands there."""
    folder = tmp_path / "inner"
    folder.mkdir()
    doc = folder / "up.txt"
    doc.write_text("")
    # the dialog opens in the app's working folder
    app = launch(
        ["sh", "-c", f"cd {shlex.quote(str(folder))} && exec {shlex.join(gnome_text_editor_command(doc))}"],
        title="up.txt",
    )
    winctl("input", str(target(wait_for(winctl, ("Edit", None), app=app), "Edit")), "saved one folder up")
    winctl("click", "Menu")
    wait_for(winctl, ("MenuItem", "Save As…"))
    winctl("click", "Save As…")
    wait_for_window(desktop, "Save As")
    winctl("focus", "Save As")
    dialog = wait_for(winctl, ("Button", "inner"), ("Button", tmp_path.name), ("Button", "Name"), ("Button", "Size"))
    assert not any(t["type"] == "Text" and t["name"] in ("Size", "Modified") for t in dialog["targets"])
    assert "pressed" in next(t for t in dialog["targets"] if t["name"] == "inner" and t["type"] == "Button")["states"]
    winctl("click", tmp_path.name)
    deadline = time.monotonic() + 5
    while "pressed" not in next(t for t in winctl.state()["targets"] if t["name"] == tmp_path.name).get("states", []):
        assert time.monotonic() < deadline, "the folder above was not chosen"
        time.sleep(0.1)
    winctl("input", "Name:", "above.txt")
    winctl("click", "Save")
    assert wait_for_file(tmp_path / "above.txt", "saved one folder up").strip() == "saved one folder up"


def test_a_gtk4_popover_is_listed_and_clicked_where_it_shows(desktop, winctl, launch, tmp_path):
    """GTK 4.8 reports a popover where the widget it pops from is: gnome-text-editor's main
    menu was listed at its menu button, 114 px right of where it shows, so `state` warned of a
    menu "the app does not list", a mouse click on its "Save" missed it, and one on its
    "Zoom in" button was refused as covered by the menu. Now the popover is placed where the
    X server shows it: both are clicked by the mouse, the zoom changes and the file is saved."""
    doc = tmp_path / "popover.txt"
    doc.write_text("hello\n")
    launch(["gnome-text-editor", "--standalone", str(doc)], title="popover.txt")
    editor = target(wait_for(winctl, ("Edit", None)), "Edit")
    winctl("click", str(editor))
    winctl("keys", "ctrl+End")
    winctl("type", "world")

    def open_menu() -> dict[str, Any]:
        winctl("click", str(target(winctl.state(), "Button", "Menu")))
        return wait_for(winctl, ("MenuItem", "Save"))

    state = open_menu()
    assert not any("a menu is open" in warning for warning in state["warnings"]), state["warnings"]
    assert "via mouse" in winctl("click", str(target(state, "Button", "Zoom in")), "--via", "input").out
    deadline = time.monotonic() + 10
    while True:
        state = winctl.state()
        zoom = [t["name"] for t in state["targets"] if t["name"].endswith("%")]
        if zoom and "100%" not in zoom:
            break
        assert time.monotonic() < deadline, zoom
        time.sleep(0.2)
    if not any(t["name"] == "Save" for t in state["targets"]):
        state = open_menu()
    assert "via mouse" in winctl("click", str(target(state, "MenuItem", "Save")), "--via", "input").out
    assert wait_for_file(doc, "world").strip() == "helloworld"
    winctl("keys", "ctrl+comma")  # its Preferences' shortcut: "ctrl+," parsed as two chords, and no name said ","
    wait_for_window(desktop, "Preferences")
