"""winctl on Qt 5 (featherpad) and Qt 6 (Qt Linguist): menus, combo boxes, dialogs, and a
context menu that only the pixels show.

Each app is started with `winctl launch` (tests/fixtures/toolkit_apps.py); each outcome is read
from the app's side: the file it saved, its title as wmctrl sees it, a dialog that appeared.
"""

from __future__ import annotations

import time
from pathlib import Path

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
    combo_choosing,
    featherpad_preferences,
    many_notes,
    open_far_down,
    translation_field,
)
from tests.fixtures.toolkit_apps import (
    LINGUIST,
    featherpad_command,
    linguist_command,
)

pytestmark = pytest.mark.desktop


def test_qt5_featherpad(winctl, launch, tmp_path):
    doc = tmp_path / "qt5.txt"
    doc.write_text("")
    app = launch(featherpad_command(doc), title="qt5.txt")
    assert process_env(app.pid).get("QT_LINUX_ACCESSIBILITY_ALWAYS_ON") == "1"
    state = wait_for(
        winctl,
        ("MenuItem", "File"),
        ("MenuItem", "Help"),
        ("Button", "Save"),
        ("Button", "Find"),
        ("Edit", None),
        app=app,
    )
    # the search bar's icon buttons have no accessible name: they are read by their tooltips
    assert {("Button", "Next (F3)"), ("CheckBox", "Match Case (F5)"), ("Edit", "Search...")} <= {
        (t["type"], t["name"]) for t in state["targets"]
    }
    editor = next(int(t["id"]) for t in state["targets"] if t["type"] == "Edit" and "focused" in t["states"])

    assert "EditableText" in winctl("input", str(editor), "hello qt5").out
    semantic_click(winctl, target(wait_for(winctl, ("Button", "Save")), "Button", "Save"))
    assert wait_for_file(doc, "hello qt5").strip() == "hello qt5"


def test_a_qt5_spin_box_is_named_by_the_label_before_it(winctl, desktop, launch, tmp_path):
    """Qt names a spin box without a buddy label after its group box: featherpad's preferences
    listed `[Spinner] "Window Settings"` for "Start with this size:". It is named by the label
    before it now (its own name kept in derived_from, so acting on it still checks that); the
    height beside it, after a lone "×", keeps Qt's name. Set by that name, the width is in
    featherpad's own settings file once the dialog closes."""
    featherpad_preferences(winctl, desktop, launch, tmp_path / "prefs.txt")
    winctl("focus", "Preferences")
    wait_for(winctl, ("Spinner", "Start with this size:"), ("Spinner", "Window Settings"))
    prefs = winctl("--json", "state", "--verbose").json["result"]
    width = next(t for t in prefs["targets"] if t["name"] == "Start with this size:" and t["type"] == "Spinner")
    assert width["derived_from"] == "name: the label beside it; its own is 'Window Settings'", width
    if "checked" in next(t for t in prefs["targets"] if t["name"] == "Remember window size on closing")["states"]:
        winctl("click", "Remember window size on closing")  # the size to start with is asked only without it
    winctl("wait", "--enabled", str(width["id"]), "--timeout", "5")
    assert "via Value.CurrentValue" in winctl("input", "Start with this size:", "800").out
    winctl("click", "Close")
    config = tmp_path / "home" / ".config" / "featherpad" / "fp.conf"
    assert wait_for_file(config, "startSize=@Size(800 ")


def test_a_file_far_down_a_qt5_open_dialog_is_opened_by_name(winctl, desktop, launch, tmp_path):
    """Qt's own file dialog with 80 files: Qt does not scroll an item into view when asked
    either, and makes new objects for the items a scroll brings into view, so the row wheeled
    to is known again by its name and type. Open then opens that file."""
    folder = many_notes(tmp_path)
    launch(featherpad_command(folder / "note-01.txt"), title="note-01.txt")
    open_far_down(winctl, desktop, "Open file...", "DataItem", "note-75.txt")


def test_qt6_linguist(winctl, launch, tmp_path):
    if not Path(LINGUIST).exists():
        pytest.fail(f"{LINGUIST} is not installed: run scripts/setup.sh test (linguist-qt6)")
    ts_file = tmp_path / "demo.ts"
    app = launch(linguist_command(ts_file), title="demo.ts")
    assert process_env(app.pid).get("QT_ACCESSIBILITY") == "1"
    label = "Translation to Deutsch (Deutschland)"
    state = translation_field(winctl, app, label)
    assert ("MenuItem", "File") in {(t["type"], t["name"]) for t in state["targets"]}

    assert "EditableText" in winctl("input", str(target(state, "Edit", label)), "Hallo Qt6").out
    semantic_click(winctl, target(state, "Button", "Done"))
    semantic_click(winctl, target(state, "Button", "Save All"))
    text = wait_for_file(ts_file, "<translation>Hallo Qt6</translation>")
    assert 'type="unfinished"' not in text  # "Done" marked it finished


def test_a_qt6_combo_box_option_reaches_the_app(winctl, desktop, launch, tmp_path):
    """Qt's combo boxes list their options on the bus with one action, "toggle", which marks
    the option and leaves the box as it was: `select` failed on every Qt 5 and Qt 6 combo box
    ("no suitable action (it has: toggle)"). It now chooses as a user does. Linguist's own
    handler runs: choosing the target language refills the country box, and the file saved
    says French. An option the box does not have is refused before the box is touched."""
    ts_file = tmp_path / "demo.ts"
    launch(linguist_command(ts_file), title="demo.ts")
    winctl("click", str(target(wait_for(winctl, ("MenuItem", "Edit")), "MenuItem", "Edit")))
    # clicked where it shows (Qt's own press would leave the Edit menu open over the dialog)
    assert (
        "via mouse"
        in winctl(
            "click",
            str(
                target(
                    wait_for(winctl, ("MenuItem", "Translation File Settings...")),
                    "MenuItem",
                    "Translation File Settings...",
                )
            ),
        ).out
    )
    wait_for_window(desktop, "Settings for")
    winctl("focus", "Settings for")
    language, label = combo_choosing(winctl, "German (Deutsch)")
    assert label == "Language"  # Qt's own name for it is its choice

    wrong = winctl("select", str(language), "Klingon", expect=None)
    assert wrong.code != 0 and 'no option "Klingon"' in wrong.err and '"French (français)"' in wrong.err
    assert (
        "collapsed"
        in next(t for t in winctl("--json", "state").json["result"]["targets"] if int(t["id"]) == language)["states"]
    )
    chosen_by_keys(winctl, language, "French (français)")  # far down a list of 328: from the nearer end
    combo_choosing(winctl, "Any Country")  # the app refilled the country box
    semantic_click(winctl, target(winctl.state(), "Button", "OK"))
    winctl("focus", "demo.ts")
    winctl("keys", "ctrl+s")
    assert 'language="fr"' in wait_for_file(ts_file, 'language="fr"')


def test_focus_on_a_window_behind_its_modal_dialog_selects_the_dialog(winctl, desktop, launch, tmp_path):
    """featherpad's Preferences is modal: the window manager gives the focus asked for the main
    window to the dialog. `focus` waited 3 s and said "the window manager refused; is one
    running?". It now selects the dialog and says why; the dialog is what `state` then reads."""
    featherpad_preferences(winctl, desktop, launch, tmp_path / "modal.txt")
    focused = winctl("--json", "focus", "modal.txt").json["result"]
    assert focused["window"]["title"] == "Preferences", focused
    assert "stays behind its dialog" in focused["detail"]
    assert winctl("--json", "state").json["result"]["window"]["title"] == "Preferences"


def test_a_qt_context_menu_missing_from_the_tree_is_reported_and_read_from_pixels(winctl, launch, tmp_path):
    """Qt never puts a context menu in the accessibility tree: with featherpad's open over its
    editor, `state` listed the window as if nothing were there, and a click on a listed element
    would only have closed the menu. `state` now says a menu is open that the app does not
    list; `--vision local` reads its items row by row (where the menu reaches past the window, and
    over the window's controls it hides), with their shortcuts and greyed-out ones disabled, and
    "Select All" chosen from them acts (the text
    typed next replaces all of it, in the file saved). (A GTK menu, listed in its tree, gets no
    such warning: `test_a_maximized_gtk3_window_is_clicked_where_it_shows`.)"""
    doc = tmp_path / "context.txt"
    doc.write_text("hello world\n")
    launch(featherpad_command(doc), title="context.txt")
    editor = target(wait_for(winctl, ("Edit", None)), "Edit")
    winctl("rightclick", str(editor))
    deadline = time.monotonic() + 10
    while not any("a menu is open at" in warning for warning in winctl.state()["warnings"]):
        assert time.monotonic() < deadline, "no warning of the open menu"
        time.sleep(0.2)
    seen = winctl("--json", "state", "--vision", "local").json["result"]
    items = {t["name"]: t for t in seen["targets"] if t["type"] == "MenuItem" and t.get("source") == "vision"}
    # each row an item, as wide as the menu, those over the search bar too (taken for its field before)
    assert set(items) == {
        "Undo",
        "Redo",
        "Cut",
        "Copy",
        "Paste",
        "Delete",
        "Select All",
        "Text Tabs to Spaces",
        "Check Spelling",
        "Paste Date and Time",
    }, sorted(items)
    select_all = items.get("Select All")
    assert select_all is not None and select_all["source"] == "vision", seen["targets"]
    paste_date = items.get("Paste Date and Time")
    assert paste_date is not None and "its shortcut Ctrl+Shift+V" in paste_date["derived_from"], [
        (t["type"], t["name"], t.get("derived_from")) for t in seen["targets"]
    ]  # the shortcut on its row
    assert "disabled" in items["Undo"].get("states", []), items  # nothing typed yet: Qt greys it out
    assert "disabled" not in select_all.get("states", [])
    assert "via mouse" in winctl("click", str(select_all["id"])).out
    winctl("type", "replaced")
    winctl("keys", "ctrl+s")
    assert wait_for_file(doc, "replaced").strip() == "replaced"
    assert not any("a menu is open" in w for w in winctl.state()["warnings"])


def test_a_qt_menu_item_clicked_closes_its_menu(winctl, launch, tmp_path):
    """Qt's "Press" on a menu item runs it and leaves the menu open, and Qt hands the keys typed
    next to the open menu: after Edit > Select All, "replaced" typed left "ed" in the editor (the
    menu took the rest). `click` now clicks such an item where it shows, as a user does, and
    the menu closes; asked for the semantic press, it says the menu stays open."""
    doc = tmp_path / "qt-menu.txt"
    doc.write_text("hello world\n")
    launch(featherpad_command(doc), title="qt-menu.txt")
    winctl("click", str(target(wait_for(winctl, ("MenuItem", "Edit")), "MenuItem", "Edit")))
    select_all = target(wait_for(winctl, ("MenuItem", "Select All")), "MenuItem", "Select All")
    clicked = winctl("click", str(select_all)).out
    time.sleep(0.5)
    winctl("type", "replaced")
    winctl("keys", "ctrl+s")
    assert wait_for_file(doc, "replaced").strip() == "replaced"
    assert "via mouse" in clicked
    assert not any(t["name"] == "Select All" for t in winctl.state()["targets"])

    winctl("click", str(target(wait_for(winctl, ("MenuItem", "Edit")), "MenuItem", "Edit")))
    select_all = target(wait_for(winctl, ("MenuItem", "Select All")), "MenuItem", "Select All")
    out = winctl("click", str(select_all), "--via", "semantic").out
    assert "via action:press" in out and "leaves its menu open" in out and "Escape" in out, out


def test_a_qt5_combo_box_option_reaches_the_app(winctl, desktop, launch, tmp_path):
    """The same on Qt 5, whose combo box says neither expanded nor collapsed (its open list is
    the one with an option focused): featherpad's tab position, saved in its settings file
    when the dialog closes."""
    featherpad_preferences(winctl, desktop, launch, tmp_path / "qt5.txt")
    winctl("focus", "Preferences")
    tabs, label = combo_choosing(winctl, "North")
    assert label == "Tab position:"
    chosen_by_keys(winctl, tabs, "South")
    winctl("keys", "Escape")
    settings = tmp_path / "home" / ".config" / "featherpad" / "fp.conf"
    assert "tabPosition=1" in wait_for_file(settings, "tabPosition=1")
