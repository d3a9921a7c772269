"""Apps whose toolkit has no accessibility bridge at all: Xt's Athena widgets (xcalc) and Tk
(IDLE, and so every tkinter program and git gui).

They never join the AT-SPI bus, and they do not say their pid in _NET_WM_PID: `launch` waited
its whole timeout and failed ("opened no window") although xcalc's window was up at once, and
`state` told the user to restart the app with switches that change nothing. Their windows are
now matched by the X server's own record of which process made them (X-Resource), `launch`
does not wait for a tree that never comes, and what they show is read from their pixels —
never another window's pixels that lie over them (IDLE's text was listed as xcalc's, and a
click on it, once xcalc came forward, pressed one of its keys).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import time
from collections.abc import Iterator
from typing import Any

import pytest
from Xlib import X, display

from tests.conftest import Winctl, wait_for_window
from tests.fixtures.toolkit_apps import isolated_env

pytestmark = pytest.mark.desktop

XCALC = ["xcalc"]
IDLE = ["idle-python3.11"]  # Debian's IDLE: a tkinter program
NEDIT = ["nedit"]  # a Motif editor


@pytest.fixture
def launched(desktop, winctl: Winctl, tmp_path, monkeypatch) -> Iterator[list[int]]:
    """The process groups `winctl launch` started (each leads its own), stopped afterwards;
    the apps run in a fresh home (IDLE writes ~/.idlerc)."""
    for name, value in isolated_env(tmp_path / "home").items():
        monkeypatch.setitem(desktop.env, name, value)
    groups: list[int] = []
    yield groups
    for group in groups:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(group, signal.SIGKILL)


def launch(winctl: Winctl, groups: list[int], argv: list[str]) -> tuple[dict[str, Any], float]:
    if shutil.which(argv[0]) is None:
        pytest.fail(f"{argv[0]} is not installed: run scripts/setup.sh test (scripts/packages/test-toolkits.txt)")
    started = time.monotonic()
    result = winctl("--json", "launch", "--", *argv).json["result"]
    groups.append(int(result["detail"].split()[1].rstrip(";")))
    return result, time.monotonic() - started


def drawn(winctl: Winctl, shown: str, timeout: float = 10.0) -> dict[str, Any]:
    """`state --vision local` once the window shows `shown` (in an element's name): a window
    just mapped shows its background until it has drawn itself, and vision lists nothing, saying
    so (the test's first `state` of IDLE's dialog did so once in a full run)."""
    deadline = time.monotonic() + timeout
    while True:
        state = winctl.state("--vision", "local")
        if any(shown in t["name"] for t in state["targets"]) or time.monotonic() > deadline:
            return state
        time.sleep(0.3)


def named(state: dict[str, Any], name: str) -> dict[str, Any]:
    found = [t for t in state["targets"] if t["name"] == name and t["type"] == "Button"]
    assert found, f"no Button {name!r} in {[(t['type'], t['name']) for t in state['targets']]}"
    return found[0]


def test_xt_and_tk_apps_are_launched_at_once_and_said_to_have_no_tree(winctl, launched, desktop):
    xcalc, took = launch(winctl, launched, XCALC)
    assert took < 10, f"launch waited {took:.1f}s for a tree Xt never has"  # 20 s, and failed, before
    assert xcalc["window"]["process"] == "xcalc" and xcalc["window"]["pid"] == launched[-1]
    assert "Xaw (the Athena widgets) has no accessibility bridge" in xcalc["detail"], xcalc
    no_tree = winctl("state", expect=None)
    assert no_tree.code != 0 and "exposes no accessibility tree" in no_tree.err, no_tree.out
    assert "--vision local" in no_tree.err and "winctl launch PROGRAM" not in no_tree.err, no_tree.err

    idle, took = launch(winctl, launched, IDLE)
    assert took < 10, f"launch waited {took:.1f}s for a tree Tk never has"
    assert idle["window"]["title"].startswith("IDLE Shell") and idle["window"]["pid"] == launched[-1]
    assert "Tk has no accessibility bridge" in idle["detail"], idle
    seen = drawn(winctl, ">>>")
    assert any(">>>" in t["name"] for t in seen["targets"]), seen["targets"]  # the shell's prompt, read
    menus = {t["name"]: t for t in seen["targets"] if t["type"] == "Menu"}  # one button named by them all, before
    assert {"File", "Edit", "Debug", "Options", "Window", "Help"} <= set(menus), seen["targets"]
    assert not open_menus(desktop)
    winctl("click", str(menus["Options"]["id"]))
    deadline = time.monotonic() + 5
    while not open_menus(desktop) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert open_menus(desktop), "clicking the Options menu opened nothing"
    winctl("keys", "Escape")


def open_menus(desktop) -> list[int]:
    """The menus open on the display, as the X server has them (Tk maps one as an
    override-redirect window)."""
    screen = display.Display(desktop.env["DISPLAY"])
    try:
        return [
            child.id
            for child in screen.screen().root.query_tree().children
            if (a := child.get_attributes()).override_redirect
            and a.map_state == X.IsViewable
            and child.get_geometry().width > 16
        ]
    finally:
        screen.close()


def test_a_window_over_an_app_seen_by_its_pixels_is_not_listed_as_the_apps(winctl, launched, desktop, tmp_path):
    launch(winctl, launched, XCALC)
    winctl("window", "move", "100", "100")
    launch(winctl, launched, IDLE)
    winctl("window", "move", "250", "330", "600", "400")  # over xcalc's lower right keys
    winctl("focus", "Calculator")
    keys = drawn(winctl, "EXC")
    for name in ("DRG", "mod", "SUM", "EXC"):  # keys no shape was seen for: each an X window, framed by its border
        assert named(keys, name)["source"] == "vision"
    for name in ("7", "+", "6", "="):  # 7 + 6 = by the mouse, where vision saw the keys
        winctl("click", str(named(keys, name)["id"]))
    equals = named(keys, "=")

    subprocess.run(["wmctrl", "-a", "IDLE Shell"], env=desktop.env, check=True)  # over xcalc, not by us
    wait_for_window(desktop, "IDLE Shell")
    time.sleep(0.5)
    refused = winctl("screenshot", "--element", str(equals["id"]), str(tmp_path / "key.png"), expect=None)
    assert refused.code != 0 and 'covered by the window "IDLE Shell' in refused.err, refused.out + refused.err
    shot = winctl("--json", "screenshot", str(tmp_path / "calc.png")).json["result"]
    assert any("IDLE Shell" in what for what in shot["covered_by"]), shot

    covered = winctl("--json", "state", "--vision", "local").json["result"]
    names = [t["name"] for t in covered["targets"]]
    assert not any(">>>" in n or "Python" in n or "IDLE" in n for n in names), names  # IDLE's, listed as xcalc's before
    assert any('covered by the window "IDLE Shell' in w for w in covered["warnings"]), covered["warnings"]
    assert named(covered, "INV")  # what xcalc still shows is listed
    assert not [t for t in covered["targets"] if t["name"] == "="], "a key under IDLE listed"

    winctl("window", "activate")
    shown = drawn(winctl, "13")
    display = next((t for t in shown["targets"] if t["name"] == "13"), None)  # xcalc's display, once in front: 7 + 6
    assert display is not None and display["type"] == "Text", shown["targets"]  # a label (its frame holds DEG too)
    assert display["rect"][1] < equals["rect"][1]  # the display, above the keys


def primary_selection(desktop) -> str:
    """What the app offers as the X primary selection (Tk offers a text widget's selection); ""
    when it offers none, or does not answer (a Motif field that owns it with nothing selected)."""
    try:
        run = subprocess.run(
            ["xclip", "-o", "-selection", "primary"], env=desktop.env, capture_output=True, text=True, timeout=3
        )
    except subprocess.TimeoutExpired:
        return ""
    return run.stdout if run.returncode == 0 else ""


def test_a_tk_dialogs_check_boxes_are_listed_one_by_one_and_toggled(winctl, launched, desktop):
    """IDLE's search dialog: OCR read its four check boxes and their label as one line of text.
    Read widget window by widget window, each is a CheckBox with its state; clicking one
    changes what the search finds (the app's selection, read with xclip)."""
    launch(winctl, launched, IDLE)
    winctl("keys", "ctrl+f")
    wait_for_window(desktop, "Search Dialog")
    winctl("focus", "Search Dialog")
    state = drawn(winctl, "Find Next")
    toggles = {
        t["name"]: (t["type"], "checked" in t.get("states", []))
        for t in state["targets"]
        if t["type"] in ("CheckBox", "RadioButton")
    }
    assert toggles == {
        "Regular expression": ("CheckBox", False),
        "Match case": ("CheckBox", False),
        "Whole word": ("CheckBox", False),
        "Wrap around": ("CheckBox", True),
        "Up": ("RadioButton", False),
        "Down": ("RadioButton", True),
    }, state["targets"]
    assert {"Find:", "Options", "Direction"} <= {t["name"] for t in state["targets"] if t["type"] == "Text"}
    field = next(t for t in state["targets"] if t["type"] == "Edit")
    match_case = next(t for t in state["targets"] if t["name"] == "Match case")
    find_next = next(t for t in state["targets"] if t["name"] == "Find Next")

    winctl("input", str(field["id"]), "PYTHON")
    winctl("click", str(match_case["id"]))
    winctl("click", str(find_next["id"]))
    time.sleep(0.5)
    assert primary_selection(desktop) != "Python"  # the banner says "Python": no match with the case matched

    state = winctl.state("--vision", "local")
    assert "checked" in next(t for t in state["targets"] if t["name"] == "Match case").get("states", [])
    winctl("click", str(next(t for t in state["targets"] if t["name"] == "Match case")["id"]))
    winctl("click", str(next(t for t in state["targets"] if t["name"] == "Find Next")["id"]))
    deadline = time.monotonic() + 5
    while primary_selection(desktop) != "Python" and time.monotonic() < deadline:
        time.sleep(0.2)
    assert primary_selection(desktop) == "Python"


def menu_items(winctl: Winctl, shown: str) -> dict[str, dict[str, Any]]:
    """The MenuItems `--vision local` lists once the menu just opened shows `shown`."""
    state = drawn(winctl, shown)
    found = {t["name"]: t for t in state["targets"] if t["type"] == "MenuItem"}
    assert shown in found, (
        [(t["type"], t["name"], t.get("rect")) for t in state["targets"]],
        state["warnings"],
        state.get("tiers"),
    )
    return found


def choose(winctl: Winctl, desktop, state: dict[str, Any], menu: str, item: str, opens: str) -> None:
    """Click the menu bar's `menu`, then its `item`, by the ids vision gave; wait for the window
    titled `opens` and make it the session's."""
    winctl("click", str(next(t for t in state["targets"] if t["type"] == "Menu" and t["name"] == menu)["id"]))
    winctl("click", str(menu_items(winctl, item)[item]["id"]))
    wait_for_window(desktop, opens)
    winctl("focus", opens)


def test_a_tk_apps_menus_and_own_dialogs_are_worked_by_their_pixels(winctl, launched, desktop, tmp_path):
    """IDLE driven as an agent drives an app with no tree. Its menus are X windows of their own
    that `state` never looked at: read as text, the Options menu's first item and the shell's
    banner behind it were one line ("Python 3.11.2 (mairConfigure IDLE"), greyed-out items were
    listed like the rest, the settings' selected radio button was a Button and greyed-out
    buttons looked like any other. Now each menu row is a MenuItem (disabled when greyed out),
    and a file is written and saved through the File menu and Tk's own Save As dialog, all by
    the ids `--vision local` gave: the file on disk says it worked."""
    launch(winctl, launched, IDLE)
    shell = drawn(winctl, ">>>")
    winctl("click", str(next(t for t in shell["targets"] if t["type"] == "Menu" and t["name"] == "Options")["id"]))
    options = menu_items(winctl, "Zoom Height")
    assert {"Configure IDLE", "Show Code Context", "Show Line Numbers", "Zoom Height"} <= set(options), options
    assert "disabled" in options["Show Code Context"].get("states", [])  # the shell has no code context
    assert "disabled" not in options["Zoom Height"].get("states", [])
    winctl("click", str(options["Configure IDLE"]["id"]))
    wait_for_window(desktop, "Settings")
    winctl("focus", "Settings")
    tab = next(t for t in drawn(winctl, "Keys")["targets"] if t["name"] == "Keys")
    winctl("click", str(tab["id"]))
    keys = {t["name"]: t for t in drawn(winctl, "Use a Custom Key Set")["targets"]}
    assert "Use a Built-in Key Set" in keys and "Use a Custom Key Set" in keys, [
        (t["type"], t["name"], t.get("states"), t["rect"]) for t in keys.values()
    ]
    built_in, custom = keys["Use a Built-in Key Set"], keys["Use a Custom Key Set"]
    assert (built_in["type"], custom["type"]) == ("RadioButton", "RadioButton"), keys
    assert "checked" in built_in.get("states", []) and "disabled" in custom.get("states", []), (built_in, custom)
    assert "disabled" in keys["Delete Custom Key Set"].get("states", []), keys["Delete Custom Key Set"]
    assert "disabled" not in keys["Save as New Custom Key Set"].get("states", [])
    winctl("click", str(keys["Cancel"]["id"]))

    winctl("focus", "IDLE Shell")
    choose(winctl, desktop, drawn(winctl, ">>>"), "File", "New File", "untitled")
    winctl("type", "print('saved through its menus')")
    choose(winctl, desktop, drawn(winctl, "saved through"), "File", "Save As...", "Save As")
    dialog = drawn(winctl, "File name")
    label = next(t for t in dialog["targets"] if t["name"].startswith("File name"))
    save = next(t for t in dialog["targets"] if t["name"] == "Save")
    middle = (label["rect"][1] + label["rect"][3]) / 2
    field = next(
        t
        for t in dialog["targets"]
        if t["rect"][0] >= label["rect"][2]
        and t["rect"][2] <= save["rect"][0]
        and t["rect"][1] <= middle <= t["rect"][3]
    )  # the entry on the label's row
    assert field["type"] == "Edit", field  # with its text cursor blinking in it, a Button before
    saved = tmp_path / "saved.py"
    winctl("input", str(field["id"]), str(saved))
    winctl("click", str(save["id"]))
    deadline = time.monotonic() + 10
    while not (saved.exists() and "saved through its menus" in saved.read_text()):
        assert time.monotonic() < deadline, f"{saved} not written"
        time.sleep(0.2)


def test_a_motif_editors_menus_check_boxes_and_field_are_worked_by_their_pixels(winctl, launched, desktop, tmp_path):
    """nedit (Motif): its menu titles are widget windows of their own (read as Text), its menus
    say neither a pid nor a type (taken for another app's popup over the window: vision listed
    nothing under them), its check boxes are bevelled squares hollow inside (read as Text), and
    its fields take ctrl+a as a character: `input` of a second search gave "motif\x01find me",
    while it said it had typed. Its field counts a second press within its double-click time as
    a word's selection whatever was clicked between: the test's second `input`, 150 ms after
    the first with Find clicked between, gave "motiffind", and `input --append` 70 ms after it
    selected "find" and typed " me" over it (about one run in eight, and in CI); with the clicks
    spaced, Home, shift+End still left its selection empty about once in 25 runs (Motif's
    select-all, ctrl+/, is pressed now). Now the menus, the Find dialog's check boxes and its
    field are used by their ids, and what nedit finds is read from its PRIMARY selection (xclip)."""
    note = tmp_path / "note.txt"
    note.write_text("hello motif\nfind me here\n")
    launch(winctl, launched, [*NEDIT, str(note)])
    window = drawn(winctl, "Preferences")
    bar = {t["name"]: t for t in window["targets"] if t["type"] == "Menu"}
    assert {"File", "Edit", "Search", "Preferences", "Help"} <= set(bar), window["targets"]
    winctl("click", str(bar["Search"]["id"]))
    items = menu_items(winctl, "Find...")
    assert "disabled" in items["Find Again"].get("states", []), items  # nothing searched yet
    winctl("click", str(items["Find..."]["id"]))
    wait_for_window(desktop, "Find")
    dialog = {t["name"]: t for t in drawn(winctl, "Keep Dialog")["targets"]}
    toggles = {n: "checked" in t.get("states", []) for n, t in dialog.items() if t["type"] == "CheckBox"}
    assert toggles == {
        "Regular Expression": False,
        "Case Sensitive": False,
        "Whole Word": False,
        "Search Backward": False,
        "Keep Dialog": False,
    }, dialog
    assert "disabled" in dialog["Find"].get("states", []), dialog["Find"]  # nothing to find yet: greyed out
    winctl("click", str(dialog["Keep Dialog"]["id"]))  # the dialog stays for the second search
    dialog = {t["name"]: t for t in winctl.state("--vision", "local")["targets"]}
    assert "checked" in dialog["Keep Dialog"].get("states", []), dialog["Keep Dialog"]
    field = next(t for t in dialog.values() if t["type"] == "Edit")
    for wanted, appended in (("motif", ""), ("find", " me")):  # the second replaces the first, then adds to it
        typed = winctl("input", str(field["id"]), wanted).out
        assert "could not be read back" in typed, typed  # said, not claimed
        if appended:
            assert "could not be read back" in winctl("input", "--append", str(field["id"]), appended).out
        wanted += appended
        winctl("click", str(dialog["Find"]["id"]))
        deadline = time.monotonic() + 5
        while primary_selection(desktop) != wanted:
            assert time.monotonic() < deadline, (wanted, primary_selection(desktop))
            time.sleep(0.2)
