"""winctl on GTK 3: mousepad, its menus, context menu and file dialogs.

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
    many_notes,
    open_far_down,
)
from tests.fixtures.toolkit_apps import (
    mousepad_command,
)

pytestmark = pytest.mark.desktop


def test_gtk3_mousepad(winctl, desktop, launch, tmp_path):
    doc = tmp_path / "gtk3.txt"
    doc.write_text("")
    app = launch(mousepad_command(doc), title="gtk3.txt")
    assert "NO_AT_BRIDGE" not in process_env(app.pid)
    state = wait_for(winctl, ("Menu", "File"), ("Menu", "Edit"), ("Menu", "Help"), ("Edit", None), app=app)
    editor = target(state, "Edit")

    semantic_click(winctl, target(state, "Menu", "Help"))
    # asked for: by itself `click` presses a GTK 3 menu item where it shows (tests/e2e/test_modal_actions.py)
    semantic_click(winctl, target(wait_for(winctl, ("MenuItem", "About")), "MenuItem", "About"), "--via", "semantic")
    wait_for_window(desktop, "About Mousepad")  # the dialog exists for the window manager
    winctl("focus", "About Mousepad")
    winctl("close")

    winctl("focus", app.window["id"])
    assert "EditableText" in winctl("input", str(editor), "hello gtk3").out
    winctl("keys", "ctrl+s")
    assert wait_for_file(doc, "hello gtk3").strip() == "hello gtk3"


def test_a_gtk3_save_as_dialog_names_its_fields_by_their_labels(winctl, desktop, launch, tmp_path):
    """GTK's file chooser names its name field only through the label beside it (a
    labelled-by relation): `state` listed `[Edit] ""`. It is "Name" now, and `input Name` means
    it, not the file list's column header of that name. Save is refused while the name is empty
    (it is disabled); filled in, Save writes the file at that path."""
    doc = tmp_path / "draft.txt"
    doc.write_text("")
    launch(mousepad_command(doc), title="draft.txt")
    winctl("input", str(target(wait_for(winctl, ("Edit", None)), "Edit")), "saved through the dialog")
    winctl("keys", "ctrl+shift+s")
    wait_for_window(desktop, "Save As")
    winctl("focus", "Save As")
    state = wait_for(winctl, ("Edit", "Name"), ("Button", "Save"))
    name, save = target(state, "Edit", "Name"), target(state, "Button", "Save")
    winctl("input", str(name), "")
    deadline = time.monotonic() + 5
    while "disabled" not in next(t for t in winctl.state()["targets"] if t["id"] == save).get("states", []):
        assert time.monotonic() < deadline, "Save stayed enabled with no name"
        time.sleep(0.1)
    refused = winctl("click", str(save), expect=4)
    assert "is disabled: nothing was clicked" in refused.err, refused.err
    copy = tmp_path / "copy.txt"
    # by name: the file list's column header is named "Name" too, but only the field takes text
    assert winctl("input", "Name", str(copy)).out.startswith(f'input [{name}] [Edit] "Name" via EditableText')
    assert "2 elements are named 'Name'" in winctl("click", "Name", expect=2).err  # a click could mean either
    winctl("wait", "--enabled", str(save), "--timeout", "5")
    winctl("click", "Save")
    assert wait_for_file(copy, "saved through the dialog").strip() == "saved through the dialog"


def test_a_file_far_down_a_gtk3_open_dialog_is_opened_by_name(winctl, desktop, launch, tmp_path):
    """A real file chooser with 80 files: `click note-70.txt` found the row in the tree, out of
    view, and stopped (GTK 3 does not scroll a row into view when asked). It now wheels the
    file list until the row shows and clicks it; Open then opens that file in the editor."""
    folder = many_notes(tmp_path)
    launch(mousepad_command(folder / "note-01.txt"), title="note-01.txt")
    open_far_down(winctl, desktop, "Open File", "DataItem", "note-70.txt")


def test_a_gtk3_context_menu_is_listed_with_its_window(winctl, launch, tmp_path):
    """GTK 3 keeps a context menu in a top-level window of its own, not under the frame: a
    state of mousepad's window listed nothing of its open context menu. Its items are listed
    now, and "Select All" acts: the text typed next replaces all of it, in the file saved."""
    doc = tmp_path / "context.txt"
    doc.write_text("hello world\n")
    launch(mousepad_command(doc), title="context.txt")
    editor = target(wait_for(winctl, ("Edit", None)), "Edit")
    winctl("rightclick", str(editor))
    menu = wait_for(winctl, ("MenuItem", "Select All"), ("MenuItem", "Paste"))
    assert not any("a menu is open" in w for w in menu["warnings"]), menu["warnings"]
    assert "via mouse" in winctl("click", str(target(menu, "MenuItem", "Select All"))).out  # where it shows: GTK 3
    winctl("type", "replaced")
    winctl("keys", "ctrl+s")
    assert wait_for_file(doc, "replaced").strip() == "replaced"


def test_a_maximized_gtk3_window_is_clicked_where_it_shows(winctl, desktop, launch, tmp_path):
    """Maximized under a title bar, GTK 3 reports its frame at (0, 0) with the title bar and its
    controls where they are; the X window's client area starts 19 px lower. Taken for GTK 4's
    frame-inside-its-window, every place moved 19 px down: a mouse click on the File menu
    missed it. The menu and its "Save As..." are clicked by the mouse; the dialog shows."""
    doc = tmp_path / "big.txt"
    doc.write_text("")
    launch(mousepad_command(doc), title="big.txt")
    winctl("window", "maximize")
    wait_for(winctl, ("Menu", "File"))
    file_menu = next(
        t
        for t in winctl("--json", "state", "--verbose").json["result"]["targets"]
        if t["type"] == "Menu" and t["name"] == "File"
    )
    assert file_menu["rect"][1] < 50, file_menu  # the menu bar under the 19 px title bar, not a row lower
    assert "via mouse" in winctl("click", str(file_menu["id"]), "--via", "input").out
    opened = wait_for(winctl, ("MenuItem", "Save As..."))
    assert not any("a menu is open" in w for w in opened["warnings"]), "GTK lists its menu: no warning"
    save_as = target(opened, "MenuItem", "Save As...")
    assert "via mouse" in winctl("click", str(save_as), "--via", "input").out
    wait_for_window(desktop, "Save As")
