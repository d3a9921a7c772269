"""winctl on a real Debian app of every Linux toolkit, each started with `winctl launch`.

Each test proves three things against an app nobody here wrote: `state` lists its real
controls, a semantic click (an AT-SPI action, not the mouse) changes the app, and text
input lands in it. Outcomes are read from the app's side: the file it saved, its window
title as wmctrl sees it, or a dialog that appeared. The commands carry no accessibility
switches; the tests also check that `winctl launch` put the right ones into the running
process (bridges.py). A toolkit that cannot be driven fails here with the reason.
Electron has no app in Debian 12 main: Chromium stands for Blink.
"""

from __future__ import annotations

import contextlib
import json
import os
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psutil
import pytest

from tests.conftest import Winctl, wait_for_window
from tests.fixtures.toolkit_apps import (
    LINGUIST,
    chromium_plain_command,
    featherpad_command,
    firefox_command,
    gnome_text_editor_command,
    isolated_env,
    jedit_command,
    linguist_command,
    mousepad_command,
    web_page,
)
from winactions.backends.linux.virtual_desktop import VirtualDesktop

pytestmark = pytest.mark.desktop

BRIDGE_VARIABLES = ("QT_ACCESSIBILITY", "QT_LINUX_ACCESSIBILITY_ALWAYS_ON", "GNOME_ACCESSIBILITY",
                    "JAVA_TOOL_OPTIONS", "NO_AT_BRIDGE", "GTK_A11Y")
WINCTL = str(Path(sys.executable).with_name("winctl"))
TREE_TIMEOUT = 30.0  # a JVM or a browser renderer builds its tree a few seconds after its window


@dataclass
class Launched:
    group: int  # the process winctl started, leader of its own process group
    window: dict[str, Any]

    @property
    def pid(self) -> int:
        """The process that owns the window (a wrapper script's child for jEdit)."""
        return int(self.window["pid"])


Launch = Callable[..., Launched]


@pytest.fixture
def launch(desktop, winctl: Winctl, tmp_path: Path, monkeypatch) -> Iterator[Launch]:
    """`winctl launch` in a fresh home, with no accessibility switch in the environment
    (launch must add them); every app started is stopped after the test."""
    for name, value in isolated_env(tmp_path / "home").items():
        monkeypatch.setitem(desktop.env, name, value)
    for name in BRIDGE_VARIABLES:
        if name in desktop.env:
            monkeypatch.delitem(desktop.env, name)
    groups: list[int] = []

    def start(argv: list[str], title: str | None = None, timeout: float = 60) -> Launched:
        if shutil.which(argv[0]) is None:
            pytest.fail(f"{argv[0]} is not installed: run scripts/setup.sh test (scripts/packages/test-toolkits.txt)")
        options = ["--title", title] if title else []
        result = winctl("--json", "launch", "--timeout", str(timeout), *options, "--", *argv).json["result"]
        assert "has not appeared" not in result["detail"], result  # launch waits for the tree...
        first = winctl("--json", "state", expect=None)  # ...so the very next state finds the app
        assert first.code == 0 and first.json["result"]["targets"], f"state right after launch: {first.out}{first.err}"
        group = int(result["detail"].split()[1])
        groups.append(group)
        return Launched(group, result["window"])

    yield start
    for group in groups:
        _stop_group(group)


def _stop_group(group: int) -> None:
    """Stop one launched app and everything it started (it leads its own process group)."""
    for sig in (signal.SIGTERM, signal.SIGKILL):
        try:
            os.killpg(group, sig)
        except ProcessLookupError:
            return
        deadline = time.monotonic() + 5
        while _alive_in_group(group) and time.monotonic() < deadline:
            time.sleep(0.1)
        if not _alive_in_group(group):
            return


def _alive_in_group(group: int) -> bool:
    """Is any process of the group still running? (Zombies count as gone: the leader is
    this test process's child, reaped here, and the rest belong to init.)"""
    with contextlib.suppress(ChildProcessError):
        os.waitpid(group, os.WNOHANG)
    for proc in psutil.process_iter(["status"]):
        with contextlib.suppress(psutil.Error, ProcessLookupError):
            if os.getpgid(proc.pid) == group and proc.info["status"] != psutil.STATUS_ZOMBIE:
                return True
    return False


def process_env(pid: int) -> dict[str, str]:
    """The environment the app really runs with (what launch gave it)."""
    raw = Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
    return dict(item.decode(errors="replace").partition("=")[::2] for item in raw if b"=" in item)


def process_command_line(pid: int) -> str:
    """The app's command line as one string (Chromium rewrites its argv into a single one)."""
    return " ".join(a.decode(errors="replace") for a in Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0"))


def wait_for(winctl: Winctl, *wanted: tuple[str, str | None], timeout: float = TREE_TIMEOUT,
             app: Launched | None = None) -> dict[str, Any]:
    """A fresh state that lists every (type, name) wanted (name None: any); the tree of a
    just-opened window or menu fills in a little after it appears (`launch` returns once the
    window is on the accessibility bus, not once every control is)."""
    deadline = time.monotonic() + timeout
    while True:
        run = winctl("--json", "state", expect=None)
        if run.code != 0:  # the window is up but its app has not joined the bus yet
            if app is not None and not _alive_in_group(app.group):
                raise AssertionError(f"{app.window['process']} (pid {app.pid}) died while winctl read its "
                                     f"accessibility tree: {run.out}{run.err}")
            assert time.monotonic() < deadline, f"state kept failing: {run.out}{run.err}"
            time.sleep(0.5)
            continue
        state = run.json["result"]
        found = {(t["type"], t["name"]) for t in state["targets"]}
        types = {t["type"] for t in state["targets"]}
        missing = [w for w in wanted if (w not in found if w[1] is not None else w[0] not in types)]
        if not missing:
            return state
        if time.monotonic() > deadline:
            raise AssertionError(f"missing {missing} in state:\n{winctl('state').out}")
        time.sleep(0.5)


def target(state: dict[str, Any], type_: str, name: str | None = None, after: str | None = None) -> int:
    """The id of the first element of this type (and name), optionally the first after a label."""
    targets = state["targets"]
    if after is not None:
        start = next(i for i, t in enumerate(targets) if t["name"] == after)
        targets = targets[start + 1:]
    for t in targets:
        if t["type"] == type_ and (name is None or t["name"] == name):
            return int(t["id"])
    raise AssertionError(f"no {type_} {name!r} in state")


def wait_for_file(path: Path, expected: str, timeout: float = 10.0) -> str:
    """The file's text once it holds `expected` (editors may add a final newline)."""
    deadline = time.monotonic() + timeout
    text = ""
    while time.monotonic() < deadline:
        text = path.read_text() if path.exists() else ""
        if expected in text:
            return text
        time.sleep(0.2)
    raise AssertionError(f"{path} holds {text!r}, not {expected!r}")


def semantic_click(winctl: Winctl, element: int, *options: str) -> str:
    out = winctl("click", str(element), *options).out
    assert "via action:" in out, f"not a semantic click: {out}"
    return out


# -- GTK 3 ----------------------------------------------------------------------------------------
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


def many_notes(tmp_path: Path) -> Path:
    """A folder of 80 small files: more than a file dialog's list shows at once."""
    folder = tmp_path / "many"
    folder.mkdir()
    for i in range(1, 81):
        (folder / f"note-{i:02d}.txt").write_text(f"content {i}\n")
    return folder


def open_far_down(winctl: Winctl, desktop, dialog: str, row_type: str, name: str) -> None:
    """In the app's Open dialog (opened with ctrl+o) on `many_notes`: `click NAME` wheels the
    list to that file, Open opens it, and the app's title names it."""
    winctl("keys", "ctrl+o")
    wait_for_window(desktop, dialog)
    winctl("focus", dialog)
    wait_for(winctl, (row_type, "note-01.txt"), ("Button", "Open"))
    done = winctl("click", name).out
    assert f"scrolled '{name}' into view with the mouse wheel" in done and "located by" not in done, done
    winctl("click", "Open")
    wait_for_window(desktop, name)


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
    file_menu = next(t for t in winctl("--json", "state", "--verbose").json["result"]["targets"]
                     if t["type"] == "Menu" and t["name"] == "File")
    assert file_menu["rect"][1] < 50, file_menu  # the menu bar under the 19 px title bar, not a row lower
    assert "via mouse" in winctl("click", str(file_menu["id"]), "--via", "input").out
    opened = wait_for(winctl, ("MenuItem", "Save As..."))
    assert not any("a menu is open" in w for w in opened["warnings"]), "GTK lists its menu: no warning"
    save_as = target(opened, "MenuItem", "Save As...")
    assert "via mouse" in winctl("click", str(save_as), "--via", "input").out
    wait_for_window(desktop, "Save As")


def test_a_launch_a_running_instance_takes_over_selects_its_window(winctl, desktop, launch, tmp_path):
    """Single-instance apps hand a second launch to the running process and exit: mousepad
    opens the file as a tab of its window. `launch` said "exited without opening a window";
    it now selects the window that shows the file, and says who took it over."""
    first, second = tmp_path / "first.txt", tmp_path / "second.txt"
    first.write_text("one")
    second.write_text("two")
    app = launch(["mousepad", str(first)], title="first.txt")  # with its server: single instance
    result = winctl("--json", "launch", "--", "mousepad", str(second)).json["result"]
    assert f"handed over to the running mousepad (pid {app.pid})" in result["detail"], result
    assert result["window"]["id"] == app.window["id"] and "second.txt" in result["window"]["title"], result
    wait_for_window(desktop, "second.txt")  # the window manager sees the tab it shows
    assert "second.txt" in winctl("--json", "state").json["result"]["window"]["title"]
    third = tmp_path / "third.txt"
    third.write_text("three")
    result = winctl("--json", "launch", "--", "env", "LC_ALL=C", "mousepad", str(third)).json["result"]  # wrapped
    assert f"handed over to the running mousepad (pid {app.pid})" in result["detail"], result
    wait_for_window(desktop, "third.txt")


def test_a_program_that_exits_without_a_window_is_an_error_at_once(winctl):
    started = time.monotonic()
    failed = winctl("launch", "true", expect=4)
    assert "true exited without opening a window" in failed.err, failed.err
    assert time.monotonic() - started < 5, "no running instance could take it over: no reason to wait"


def test_a_program_that_exits_without_a_window_is_quoted(winctl, tmp_path, monkeypatch):
    """An app that exits at once says why on stderr, and `launch` said only "exited without
    opening a window". Its last words are quoted now (mousepad given an option it does not
    know), and no file of them is left behind."""
    kept = tmp_path / "kept"
    kept.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(kept))  # where the kept words go: this test's own folder
    failed = winctl("launch", "--", "mousepad", "--disable-server", "--no-such-option", expect=4)
    assert "mousepad exited without opening a window; it said: Unknown option --no-such-option" in failed.err, \
        failed.err
    assert list(kept.iterdir()) == []


def test_a_program_that_floods_stderr_is_not_blocked_and_is_quoted_in_bounds(winctl, tmp_path, monkeypatch):
    """What a launched app writes to stderr is drained for as long as it writes (a full pipe
    would block it), and only its first 16 KiB are kept: 2 MB written, the app exits at once,
    and the quote is a few hundred characters of the start."""
    kept = tmp_path / "kept"
    kept.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(kept))
    started = time.monotonic()
    failed = winctl("launch", "--", "sh", "-c", r"head -c 2000000 /dev/zero | tr '\0' x >&2; echo END >&2; exit 3",
                    expect=4)
    assert time.monotonic() - started < 10
    said = failed.err.split("it said: ", 1)[1].splitlines()[0]
    assert set(said) <= {"x", "…"} and 100 < len(said) <= 601, said  # the start kept; "END" past the bound
    assert list(kept.iterdir()) == []


def test_a_program_launched_leaves_no_file_of_its_words(winctl, launch, tmp_path, monkeypatch):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "kept"))
    (tmp_path / "kept").mkdir()
    doc = tmp_path / "words.txt"
    doc.write_text("")
    launch(mousepad_command(doc), title="words.txt")
    assert list((tmp_path / "kept").iterdir()) == []


# -- GTK 4 ----------------------------------------------------------------------------------------
def test_gtk4_gnome_text_editor(winctl, desktop, launch, tmp_path):
    doc = tmp_path / "gtk4.txt"
    doc.write_text("")
    app = launch(gnome_text_editor_command(doc), title="gtk4.txt")
    state = wait_for(winctl, ("Button", "Open"), ("Button", "New tab (Ctrl+T)"), ("Button", "Menu"), ("Edit", None),
                     app=app)

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
    app = launch(["sh", "-c", f"cd {shlex.quote(str(folder))} && exec {shlex.join(gnome_text_editor_command(doc))}"],
                 title="up.txt")
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


# -- Qt 5 -----------------------------------------------------------------------------------------
def test_qt5_featherpad(winctl, launch, tmp_path):
    doc = tmp_path / "qt5.txt"
    doc.write_text("")
    app = launch(featherpad_command(doc), title="qt5.txt")
    assert process_env(app.pid).get("QT_LINUX_ACCESSIBILITY_ALWAYS_ON") == "1"
    state = wait_for(winctl, ("MenuItem", "File"), ("MenuItem", "Help"), ("Button", "Save"), ("Button", "Find"),
                     ("Edit", None), app=app)
    # the search bar's icon buttons have no accessible name: they are read by their tooltips
    assert {("Button", "Next (F3)"), ("CheckBox", "Match Case (F5)"), ("Edit", "Search...")} <= \
        {(t["type"], t["name"]) for t in state["targets"]}
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
    _featherpad_preferences(winctl, desktop, launch, tmp_path / "prefs.txt")
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


def test_a_qt5_app_launched_first_on_a_fresh_desktop_shows_its_tree(tmp_path):
    """Qt 5 joins the accessibility bus only if the bus runs when the app starts, and on a fresh
    desktop nothing starts it until something asks for it (GTK and Qt 6 apps do; Qt 5 only
    waits). Launched first there, featherpad showed no tree for the whole time `launch` waited,
    nor ever after; `launch` now starts the bus before the app. One started by hand before the
    bus (its Qt switches set) gets a `state` error that says so and what to do."""
    runtime = tmp_path / "runtime"
    runtime.mkdir(mode=0o700)
    doc = tmp_path / "first.txt"
    doc.write_text("")
    with VirtualDesktop() as fresh:
        env = {**fresh.env, **isolated_env(tmp_path / "home"), "XDG_RUNTIME_DIR": str(runtime)}
        for name in BRIDGE_VARIABLES:
            env.pop(name, None)

        def winctl(*args: str) -> subprocess.CompletedProcess[str]:
            return subprocess.run([WINCTL, *args], env=env, capture_output=True, text=True, timeout=120)

        early = subprocess.Popen(featherpad_command(tmp_path / "early.txt"), start_new_session=True,
                                 env={**env, "QT_ACCESSIBILITY": "1", "QT_LINUX_ACCESSIBILITY_ALWAYS_ON": "1"},
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            wait_for_window(fresh, "early.txt")
            time.sleep(2)  # time enough to join a bus, had one been running
            assert winctl("focus", "early.txt").returncode == 0
            missing = winctl("state")
            assert missing.returncode != 0 and "exposes no accessibility tree" in missing.stderr, missing.stdout
            assert "its toolkit (qt5) needs" in missing.stderr and "winctl launch" in missing.stderr, missing.stderr
        finally:
            _stop_group(early.pid)
        launched = winctl("--json", "launch", "--timeout", "20", "--title", "first.txt", "--",
                          *featherpad_command(doc))
        assert launched.returncode == 0, launched.stderr
        group = int(json.loads(launched.stdout)["result"]["detail"].split()[1].rstrip(";"))
        try:
            assert "has not appeared" not in launched.stdout, launched.stdout
            targets = json.loads(winctl("--json", "state").stdout)["result"]["targets"]
            assert {("MenuItem", "File"), ("Button", "Save")} <= {(t["type"], t["name"]) for t in targets}
        finally:
            winctl("session", "close", "--all")
            _stop_group(group)


def test_a_file_far_down_a_qt5_open_dialog_is_opened_by_name(winctl, desktop, launch, tmp_path):
    """Qt's own file dialog with 80 files: Qt does not scroll an item into view when asked
    either, and makes new objects for the items a scroll brings into view, so the row wheeled
    to is known again by its name and type. Open then opens that file."""
    folder = many_notes(tmp_path)
    launch(featherpad_command(folder / "note-01.txt"), title="note-01.txt")
    open_far_down(winctl, desktop, "Open file...", "DataItem", "note-75.txt")


# -- Qt 6 -----------------------------------------------------------------------------------------
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



def translation_field(winctl: Winctl, app: Launched, label: str) -> dict[str, Any]:
    """A state that lists Linguist's translation field. In its 1000x800 window the field lies
    below the fold of the message editor's scroll area, under the "Phrases and guesses" pane,
    and is not listed (Qt calls it showing; a click on it landed on that pane): it is scrolled
    into view as an agent does, by the wheel over the label that is listed."""
    state = wait_for(winctl, ("Button", "Done"), ("Button", "Save All"), ("Text", label), app=app)
    if ("Edit", label) not in {(t["type"], t["name"]) for t in state["targets"]}:
        winctl("scroll", str(target(state, "Text", label)), "down")
    return wait_for(winctl, ("Edit", label), ("Button", "Done"), ("Button", "Save All"), app=app)


def _chosen_by_keys(winctl: Winctl, combo: int, option: str) -> None:
    """`select` on a combo box of a toolkit that takes no AT-SPI choice: opened by the mouse,
    chosen by keys, and the box then reads the option."""
    out = winctl("select", str(combo), option).out
    assert "keyboard to choose" in out, out
    assert next(t for t in winctl("--json", "state").json["result"]["targets"]
                if int(t["id"]) == combo)["value"] == option


def combo_choosing(winctl: Winctl, option: str, timeout: float = TREE_TIMEOUT) -> tuple[int, str]:
    """(id, name) of the combo box whose choice is `option`, once one is listed. Qt names a box
    by its choice; winctl names it by the label beside it, the choice its value."""
    deadline = time.monotonic() + timeout
    while True:
        found = [t for t in winctl("--json", "state").json["result"]["targets"]
                 if t["type"] == "ComboBox" and t.get("value") == option]
        if found:
            return int(found[0]["id"]), found[0]["name"]
        assert time.monotonic() < deadline, f"no combo box chose {option!r}"
        time.sleep(0.3)


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
    assert "via mouse" in winctl("click", str(target(wait_for(winctl, ("MenuItem", "Translation File Settings...")),
                                                     "MenuItem", "Translation File Settings..."))).out
    wait_for_window(desktop, "Settings for")
    winctl("focus", "Settings for")
    language, label = combo_choosing(winctl, "German (Deutsch)")
    assert label == "Language"  # Qt's own name for it is its choice

    wrong = winctl("select", str(language), "Klingon", expect=None)
    assert wrong.code != 0 and 'no option "Klingon"' in wrong.err and '"French (français)"' in wrong.err
    assert "collapsed" in next(t for t in winctl("--json", "state").json["result"]["targets"]
                               if int(t["id"]) == language)["states"]
    _chosen_by_keys(winctl, language, "French (français)")  # far down a list of 328: from the nearer end
    combo_choosing(winctl, "Any Country")  # the app refilled the country box
    semantic_click(winctl, target(winctl.state(), "Button", "OK"))
    winctl("focus", "demo.ts")
    winctl("keys", "ctrl+s")
    assert 'language="fr"' in wait_for_file(ts_file, 'language="fr"')


def _featherpad_preferences(winctl: Winctl, desktop, launch: Launch, doc: Path) -> None:
    """featherpad on an empty `doc`, its modal Preferences dialog opened from the Options menu."""
    doc.write_text("")
    launch(featherpad_command(doc), title=doc.name)
    winctl("click", str(target(wait_for(winctl, ("MenuItem", "Options")), "MenuItem", "Options")))
    winctl("click", str(target(wait_for(winctl, ("MenuItem", "Preferences")), "MenuItem", "Preferences")))
    wait_for_window(desktop, "Preferences")


def test_focus_on_a_window_behind_its_modal_dialog_selects_the_dialog(winctl, desktop, launch, tmp_path):
    """featherpad's Preferences is modal: the window manager gives the focus asked for the main
    window to the dialog. `focus` waited 3 s and said "the window manager refused; is one
    running?". It now selects the dialog and says why; the dialog is what `state` then reads."""
    _featherpad_preferences(winctl, desktop, launch, tmp_path / "modal.txt")
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
    assert set(items) == {"Undo", "Redo", "Cut", "Copy", "Paste", "Delete", "Select All", "Text Tabs to Spaces",
                          "Check Spelling", "Paste Date and Time"}, sorted(items)
    select_all = items.get("Select All")
    assert select_all is not None and select_all["source"] == "vision", seen["targets"]
    paste_date = items.get("Paste Date and Time")
    assert paste_date is not None and "its shortcut Ctrl+Shift+V" in paste_date["derived_from"], \
        [(t["type"], t["name"], t.get("derived_from")) for t in seen["targets"]]  # the shortcut on its row
    assert "disabled" in items["Undo"].get("states", []), items  # nothing typed yet: Qt greys it out
    assert "disabled" not in select_all.get("states", [])
    assert "via mouse" in winctl("click", str(select_all["id"])).out
    winctl("type", "replaced")
    winctl("keys", "ctrl+s")
    assert wait_for_file(doc, "replaced").strip() == "replaced"
    assert not any("a menu is open" in w for w in winctl.state()["warnings"])


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
    _featherpad_preferences(winctl, desktop, launch, tmp_path / "qt5.txt")
    winctl("focus", "Preferences")
    tabs, label = combo_choosing(winctl, "North")
    assert label == "Tab position:"
    _chosen_by_keys(winctl, tabs, "South")
    winctl("keys", "Escape")
    settings = tmp_path / "home" / ".config" / "featherpad" / "fp.conf"
    assert "tabPosition=1" in wait_for_file(settings, "tabPosition=1")


# -- Gecko and Blink ------------------------------------------------------------------------------
def _drive_page(winctl: Winctl, desktop) -> None:
    """The local page's button and field each rename the tab, which wmctrl reads back."""
    state = wait_for(winctl, ("Heading", "Toolkit page"), ("Button", "Press me"), ("Edit", "Name"))
    semantic_click(winctl, target(state, "Button", "Press me"))
    wait_for_window(desktop, "Pressed 1")
    winctl("input", str(target(state, "Edit", "Name")), "hello web")
    wait_for_window(desktop, "Typed hello web")


def test_gecko_firefox(winctl, desktop, launch, tmp_path):
    launch(firefox_command(tmp_path / "profile", web_page(tmp_path)), title="Toolkit page")
    _drive_page(winctl, desktop)


def test_blink_chromium_without_the_flag(winctl, desktop, launch, tmp_path):
    app = launch(chromium_plain_command(web_page(tmp_path), tmp_path / "profile"), title="Toolkit page")
    assert " --force-renderer-accessibility " in process_command_line(app.pid)
    _drive_page(winctl, desktop)


# -- Java Swing -----------------------------------------------------------------------------------
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
    command = [arg for arg in jedit_command(tmp_path / "jedit-settings", tmp_path / "splash.txt")
               if arg != "-nosplash"]
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
    command = jedit_command(tmp_path / "jedit-settings", first) + [str(second)]
    shown = launch(command, title="jEdit - ", timeout=90).window["title"]
    other = "second.txt" if "first.txt" in shown else "first.txt"
    switcher = target(wait_for(winctl, ("ComboBox", None)), "ComboBox")
    _chosen_by_keys(winctl, switcher, f"{other} ({tmp_path}/)")
    wait_for_window(desktop, f"jEdit - {other}")
