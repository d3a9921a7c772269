"""A HiDPI display, on real apps drawn twice as large: galculator (GTK 3) and GNOME Text
Editor (GTK 4) by GDK_SCALE=2, jEdit (Java Swing) by sun.java2d.uiScale=2.

- GTK 3 under GDK_SCALE reports its elements in logical pixels, half the screen's: left as
  reported, most keys fell outside the window and vanished from `state`, and the few left
  were 10 px wide. Every key must be listed where it is drawn, and pressed there by the mouse.
- GTK 4 reports them inside its window, in logical pixels too: a mouse click on a tab's label
  must land on that tab (before, it landed a quarter of the window away).
- Java reports logical pixels, and its frame no place at all: jEdit's menus must be opened
  and chosen by the mouse (before, its File menu was listed 100 px left of the window).
- Chromium at a device scale factor of 2 (Xft.dpi 192, as a HiDPI desktop sets it, or its own
  flag) reports its frame and toolbar in logical pixels but its page in the screen's: a mouse
  click on the page's button must press it (before, it landed at twice the button's place).
- Qt 6 scales itself by Xft.dpi and reports logical pixels; GTK 3's and Java's context menus,
  windows of their own, are reported in logical pixels too: each must be listed and clicked
  where it is drawn.
- A reference captured on the HiDPI display (a key's crop from the 2x screenshot, cut where
  `state` says the key is) is found on the same app drawn at 1x, at half its size (seed 004's
  scale tolerance on real rendering, not a resized screenshot), or refused, never found on
  another key; clicking one presses the key. The session remembers the scale of its sure
  finds, and later one-shot processes search at it first; when the app restarts drawn at 2x,
  the stale scale costs nothing but a match: the keys are found at their own size.
Each outcome is checked in galculator's own display."""

from __future__ import annotations

import contextlib
import json
import shutil
import subprocess
import time
from collections.abc import Iterator

import cv2
import pytest
from Xlib import Xatom
from Xlib import display as xdisplay

from tests.conftest import wait_for_window, window_gone
from tests.e2e.helpers.apps import keys, shows, target, wait_for, wait_for_buttons, wait_for_file
from tests.e2e.helpers.toolkit_steps import translation_field
from tests.fixtures.toolkit_apps import (
    PAGE,
    chromium_plain_command,
    featherpad_command,
    gnome_text_editor_command,
    jedit_command,
    linguist_command,
    mousepad_command,
    web_page,
)
from winactions.locate import density

pytestmark = pytest.mark.desktop


def galculator_at(winctl, launch, desktop, scale: int | None):
    """galculator drawn `scale` times as large (None: told nothing), the pointer parked where no
    tooltip opens."""
    subprocess.run(["xdotool", "mousemove", "0", "0"], env=desktop.env, check=True)
    told = [] if scale is None else [f"GDK_SCALE={scale}"]
    window = launch(["env", "-u", "GDK_SCALE", *told, "galculator"], title="galculator").window
    wait_for_buttons(winctl, 20)
    return window, keys(winctl)


def test_every_key_of_a_gtk3_app_at_gdk_scale_2_is_listed_where_it_is_drawn(winctl, launch, desktop):
    window, big = galculator_at(winctl, launch, desktop, 2)
    rect = window["rect"]
    assert len(big) >= 25, f"keys listed at GDK_SCALE=2: {sorted(big)}"
    for name, (left, top, right, bottom) in big.items():
        assert rect["left"] <= left < right <= rect["right"] and rect["top"] <= top < bottom <= rect["bottom"], (
            name,
            big[name],
            rect,
        )
    width, height = big["5"][2] - big["5"][0], big["5"][3] - big["5"][1]
    assert 100 <= width <= 130 and 60 <= height <= 76, f"the 5 key is {width}x{height}: drawn 2x, about 118x68"
    state = winctl.state()
    for key in ("7", "+", "8", "="):  # by the mouse at each rect's centre: a wrong place presses the wrong key
        assert "via mouse" in winctl("click", str(winctl.find("Button", key, state)), "--via", "input").out
    shows(winctl, "15")


def test_keys_captured_on_a_hidpi_display_are_found_at_half_their_size_or_refused(winctl, launch, desktop, tmp_path):
    """Every key's crop from the 2x screen (cut at the rects `state` gives at GDK_SCALE=2) is
    looked for in the app drawn at 1x. GTK hints its fonts anew at each size, so a glyph a few
    pixels wide differs and some keys score under the locator's 0.8; those must be refused,
    never found on another key (the keys share one frame). Found ones are pressed by image."""
    _, big = galculator_at(winctl, launch, desktop, 2)
    shot = tmp_path / "hidpi.png"
    winctl("screenshot", "--screen", str(shot))
    pixels = cv2.imread(str(shot))
    refs = {}
    for n, (key, (left, top, right, bottom)) in enumerate(big.items()):
        refs[key] = tmp_path / f"key{n}.png"  # a crop that says nothing of its density: the session learns it
        cv2.imwrite(str(refs[key]), pixels[top:bottom, left:right])
    winctl("close")

    _, small = galculator_at(winctl, launch, desktop, 1)
    found = found_on_their_keys(winctl, refs, small, 0.5, fresh=False)
    assert len(found) >= 0.6 * len(refs), f"found {sorted(found)} of {sorted(refs)}"
    # the session kept the scale of its sure finds: each later process searched there first
    kept = [json.loads(p.read_text()).get("scales", {}) for p in winctl.runtime_dir.rglob("*.locate.json")]
    assert any(abs(scale - 0.5) < 0.03 for scales in kept for scale in scales.values()), kept
    digits = [key for key in found if key.isdigit() and key != "0"][:2]
    assert len(digits) == 2, found
    for key in digits:
        winctl("click", f"image:{refs[key]}")
    shows(winctl, "".join(digits))

    # the app restarts drawn at 2x again: the remembered 0.5 no longer holds, the keys are
    # found at their own size, and the session learns that
    winctl("close")
    _, big = galculator_at(winctl, launch, desktop, 2)
    for key in digits:
        located = winctl("--json", "locate", f"image:{refs[key]}").json["result"]["located"]["element"]
        left, top, right, bottom = big[key]
        x, y = located["click_point"]
        assert left <= x < right and top <= y < bottom, ("found on another key", key, located, big[key])
        assert located["method"] == "template:exact", located
    kept = [json.loads(p.read_text()).get("scales", {}) for p in winctl.runtime_dir.rglob("*.locate.json")]
    assert any(scale == 1.0 for scales in kept for scale in scales.values()), kept


def test_a_key_captured_on_one_display_is_found_on_another_by_the_density_its_file_records(
    winctl, launch, desktop, tmp_path
):
    """`winctl screenshot --element` cuts a key out as a reference image and records in it the
    density galculator draws at (what it was started with: GDK_SCALE). A key cut at 1x is then
    found on the app drawn at 2x: twice its size, beyond seed 004's 0.5-1.5x, where the same
    crop without its density is not found at all; one cut at 2x is found at 1x. Keys GTK
    re-renders too differently are refused; none may be found on another key, and the keys
    clicked by image must show in galculator's own display."""

    def cut(scale: int) -> dict[str, object]:
        state = winctl.state()
        refs = {}
        for n, key in enumerate(keys(winctl)):
            path = tmp_path / f"key{n}-at-{scale}.png"
            shot = winctl("--json", "screenshot", "--element", str(winctl.find("Button", key, state)), str(path)).json[
                "result"
            ]
            assert shot["density"] == scale, shot
            refs[key] = path
        assert len(refs) >= 25, sorted(refs)
        return refs

    galculator_at(winctl, launch, desktop, 1)
    single = cut(1)
    winctl("close")
    _, big = galculator_at(winctl, launch, desktop, 2)
    double = cut(2)
    shot = winctl("--json", "state", "--screenshot").json["result"]["screenshot"]
    assert density.recorded(shot) == 2.0  # the task runner matches app modules' images in it
    unmarked = tmp_path / "7-unmarked.png"
    cv2.imwrite(str(unmarked), cv2.imread(str(single["7"])))  # the same pixels, the density chunk dropped
    assert winctl("--json", "locate", f"image:{unmarked}", expect=3).json["error"]["code"] == "not_found"
    found = found_on_their_keys(winctl, single, big, 2.0)
    print(f"1x keys found at 2x: {len(found)} of {len(single)}")
    assert len(found) >= 0.5 * len(single), found  # 17 of 27 here: a 1x glyph drawn up is blurred
    digits = [key for key in found if key.isdigit() and key != "0"][:2]
    for key in digits:
        winctl("click", f"image:{single[key]}")
    shows(winctl, "".join(digits))
    winctl("close")
    _, small = galculator_at(winctl, launch, desktop, 1)
    found = found_on_their_keys(winctl, double, small, 0.5)
    print(f"2x keys found at 1x: {len(found)} of {len(double)}")
    assert len(found) >= 0.6 * len(double), found  # 21 of 27 here
    digits = [key for key in found if key.isdigit() and key != "0"][:2]
    for key in digits:
        winctl("click", f"image:{double[key]}")
    shows(winctl, "".join(digits))


def found_on_their_keys(
    winctl, refs: dict[str, object], keys: dict[str, list[int]], scale: float, fresh: bool = True
) -> list[str]:
    """The keys whose reference the session finds reliably, each on itself at about `scale`; the
    rest refused. `fresh`: the session's memory cleared first, so only the densities say the
    scale; else each find may teach the next its scale."""
    if fresh:
        winctl("locate-cache", "clear")
    found = []
    for key, ref in refs.items():
        run = winctl("--json", "locate", f"image:{ref}", "--no-cache", expect=None)
        if run.code == 3:
            assert "no reliable match" in run.json["error"]["message"], run.out
            continue
        assert run.code == 0, run.out + run.err
        located = run.json["result"]["located"]["element"]
        left, top, right, bottom = keys[key]
        x, y = located["click_point"]
        assert left <= x < right and top <= y < bottom, ("found on another key", key, located, keys[key])
        assert abs(located["scale"] - scale) < 0.06 * scale, (key, located)
        found.append(key)
    return found


def test_a_gtk4_app_at_gdk_scale_2_is_clicked_where_it_is_drawn(winctl, launch, desktop, tmp_path, monkeypatch):
    monkeypatch.setitem(desktop.env, "GDK_SCALE", "2")
    doc = tmp_path / "hidpi.txt"
    doc.write_text("")
    app = launch(gnome_text_editor_command(doc), title="hidpi.txt")
    wait_for(winctl, ("Button", "New tab (Ctrl+T)"), ("Text", "hidpi.txt"), app=app)
    state = winctl("--json", "state", "--verbose").json["result"]
    window = state["window"]["rect"]
    new_tab = next(t for t in state["targets"] if t["name"] == "New tab (Ctrl+T)")
    left, top, right, bottom = new_tab["rect"]
    assert 40 <= right - left <= 56 and 40 <= bottom - top <= 56, f"a 24 px button drawn 2x: {new_tab['rect']}"
    assert window["left"] <= left and right <= window["right"] and window["top"] <= top and bottom <= window["bottom"]
    assert "mouse" in winctl("click", str(new_tab["id"]), "--via", "input").out
    wait_for_window(desktop, "New Document")  # the new, empty tab names the window
    tabs = wait_for(winctl, ("Text", "hidpi.txt"), app=app)  # the first tab's label
    assert "mouse" in winctl("click", str(target(tabs, "Text", "hidpi.txt")), "--via", "input").out
    wait_for_window(desktop, "hidpi.txt")  # its tab chosen again names the window


def test_a_java_app_at_ui_scale_2_is_clicked_where_it_is_drawn(winctl, launch, desktop, tmp_path, monkeypatch):
    monkeypatch.setitem(desktop.env, "_JAVA_OPTIONS", "-Dsun.java2d.uiScale=2")
    app = launch(jedit_command(tmp_path / "jedit-settings", tmp_path / "hidpi.txt"), title="jEdit -")
    wait_for(winctl, ("Menu", "File"), ("Menu", "Help"), app=app)
    # its text area's context menu, a window of its own reported in logical pixels: listed, drawn 2x
    rect = app.window["rect"]
    winctl(
        "click-at",
        str((rect["left"] + rect["right"]) // 2),
        str((rect["top"] + rect["bottom"]) // 2),
        "--button",
        "right",
    )
    menu = wait_for(winctl, ("MenuItem", "Cut"), ("MenuItem", "Paste"), app=app)
    assert not any("a menu is open" in w for w in menu["warnings"]), menu["warnings"]
    cut = next(
        t["rect"]
        for t in winctl("--json", "state", "--verbose").json["result"]["targets"]
        if (t["type"], t["name"]) == ("MenuItem", "Cut")
    )
    assert cut[3] - cut[1] >= 30, f"a menu item drawn 2x: {cut}"
    winctl("keys", "Escape")
    choose_by_mouse(winctl, app, ("Menu", "File"), "Save As...", tall=30)
    wait_for_window(desktop, "File Browser - Save")  # the item under the mouse was the one chosen


def choose_by_mouse(winctl, app, menu: tuple[str, str], item: str, tall: int) -> None:
    """Open a menu and choose its item, both by the mouse at the places `state` gives; the
    menu's title must lie inside the window and be drawn at least `tall` px high."""
    state = winctl("--json", "state", "--verbose").json["result"]
    window = state["window"]["rect"]
    title = next(t for t in state["targets"] if (t["type"], t["name"]) == menu)
    left, top, right, bottom = title["rect"]
    assert window["left"] <= left and right <= window["right"] and window["top"] <= top and bottom <= window["bottom"]
    assert bottom - top >= tall, f"a menu title drawn 2x: {title['rect']}"
    assert "mouse" in winctl("click", str(title["id"]), "--via", "input").out
    items = wait_for(winctl, ("MenuItem", item), app=app)
    assert "mouse" in winctl("click", str(target(items, "MenuItem", item)), "--via", "input").out


def test_a_qt5_app_at_qt_scale_factor_2_is_clicked_where_it_is_drawn(winctl, launch, desktop, tmp_path):
    """Qt 5 reports screen pixels at any scale factor (checked here, not assumed), and is started
    as users do it, through `env`: the toolkit behind the wrapper still gets its bridge. Text
    typed into featherpad is saved by its File menu's Save, both chosen by the mouse; the file
    on disk says the click landed on that item."""
    doc = tmp_path / "qt5-2x.txt"
    doc.write_text("")
    app = launch(["env", "QT_SCALE_FACTOR=2", *featherpad_command(doc)], title="qt5-2x.txt")
    state = wait_for(winctl, ("MenuItem", "File"), ("Edit", None), app=app)
    window = app.window["rect"]
    assert window["right"] - window["left"] >= 1200, f"featherpad's 700 px window drawn 2x: {window}"
    editor = next(int(t["id"]) for t in state["targets"] if t["type"] == "Edit" and "focused" in t["states"])
    winctl("input", str(editor), "saved at 2x")
    choose_by_mouse(winctl, app, ("MenuItem", "File"), "Save", tall=40)
    assert wait_for_file(doc, "saved at 2x").strip() == "saved at 2x"


def test_a_qt5_toolbar_cut_at_qt_scale_factor_2_is_found_and_clicked_at_1x(winctl, launch, desktop, tmp_path):
    """featherpad's toolbar buttons cut at QT_SCALE_FACTOR=2 by `screenshot --element`: the file
    records 2 (what the app was started with: Qt reports screen pixels, so only its environment
    says it), and a session that remembers nothing finds each on its button at 1x, at half its
    size. Clicking New by its picture opens a second tab in featherpad."""
    doc = tmp_path / "toolbar.txt"
    doc.write_text("")
    names = ("New", "Open", "Reload", "Find", "Replace")
    app = launch(["env", "QT_SCALE_FACTOR=2", *featherpad_command(doc)], title="toolbar.txt")
    state = wait_for(winctl, *(("Button", name) for name in names), app=app)
    subprocess.run(["xdotool", "mousemove", "0", "0"], env=desktop.env, check=True)  # no hover highlight
    refs = {}
    for name in names:
        refs[name] = tmp_path / f"{name}.png"
        shot = winctl("--json", "screenshot", "--element", str(target(state, "Button", name)), str(refs[name])).json[
            "result"
        ]
        assert shot["density"] == 2.0, shot
    winctl("close")
    app = launch(featherpad_command(doc), title="toolbar.txt")
    state = wait_for(winctl, *(("Button", name) for name in names), app=app)
    rects = {
        t["name"]: t["rect"]
        for t in winctl("--json", "state", "--verbose").json["result"]["targets"]
        if t["type"] == "Button"
    }
    found = found_on_their_keys(winctl, refs, rects, 0.5)
    assert found == list(names), found
    winctl("click", f"image:{refs['New']}")
    tabs = wait_for(winctl, ("TabItem", "Untitled"), app=app)
    assert sum(t["type"] == "TabItem" for t in tabs["targets"]) == 2, tabs["targets"]


def test_gtk_scaled_by_xsettings_alone_is_known_drawn_at_2x(winctl, launch, desktop, tmp_path):
    """GNOME scales GTK through XSETTINGS (Gdk/WindowScalingFactor), which leaves nothing in the
    app's environment: the density comes from the tree, placed twice as large. Here xsettingsd
    says 2 on the test display, galculator starts with no GDK_SCALE, and a key cut out by
    `screenshot --element` records 2."""
    if shutil.which("xsettingsd") is None:
        pytest.fail("xsettingsd is not installed: run scripts/setup.sh test")
    conf = tmp_path / "xsettings.conf"
    conf.write_text("Gdk/WindowScalingFactor 2\n")
    settings = subprocess.Popen(["xsettingsd", "-c", str(conf)], env=desktop.env, stderr=subprocess.DEVNULL)
    try:
        time.sleep(0.5)  # it owns the settings selection before GTK asks
        _, keys_2x = galculator_at(winctl, launch, desktop, None)
        state = winctl.state()
        shot = winctl(
            "--json", "screenshot", "--element", str(winctl.find("Button", "7", state)), str(tmp_path / "seven.png")
        ).json["result"]
        left, _top, right, _bottom = keys_2x["7"]
        assert right - left >= 100, f"galculator's 7 key drawn at 2x by XSETTINGS: {keys_2x['7']}"
        assert shot["density"] == 2.0 and density.recorded(tmp_path / "seven.png") == 2.0, shot
    finally:
        settings.terminate()
        settings.wait(5)


# on the toolkit page: a button under a banner fixed over it (a click there reaches the banner),
# and a button in a frame (a page within the page: the outermost one says how both report)
COVERED = """<button style="position:absolute;left:8px;top:300px" onclick="document.title = 'Covered'">Covered</button>
<div style="position:fixed;left:0;top:290px;width:300px;height:60px;background:#fc8">Cookie banner</div>
<iframe style="position:absolute;left:340px;top:290px;width:200px;height:80px"
 srcdoc="<button onclick=&quot;parent.document.title = 'Framed'&quot;>Inner</button>"></iframe>
"""


@contextlib.contextmanager
def x_resources(desktop, text: str) -> Iterator[None]:
    """The display's X resources (what `xrdb` sets, and Chromium and Qt read Xft.dpi from) for
    the apps started inside the block."""
    screen = xdisplay.Display(desktop.env["DISPLAY"])
    root, name = screen.screen().root, screen.intern_atom("RESOURCE_MANAGER")
    root.change_property(name, Xatom.STRING, 8, text.encode())
    screen.sync()
    try:
        yield
    finally:
        root.delete_property(name)
        screen.sync()  # closing does not send what is queued: the resources outlived the test and scaled later apps
        screen.close()


@pytest.mark.parametrize("how", ["Xft.dpi", "flag"])
def test_a_page_in_chromium_at_device_scale_2_is_clicked_where_it_is_drawn(winctl, launch, desktop, tmp_path, how):
    """Chromium drawn at 2x, by the desktop's Xft.dpi 192 or by --force-device-scale-factor=2.
    Its frame reports logical pixels (half the window), its page the screen's: placed like the
    frame, the page's button was listed at twice its place, and a mouse click there pressed
    nothing (the page's lower part fell outside the window and vanished from `state`). The
    button pressed and the field clicked into by the mouse each rename the tab (wmctrl reads
    it back); the toolbar, in logical pixels, is still placed on the window. Chromium's own hit
    test takes the same screen pixels: a button under a cookie banner is refused, not clicked.
    A button in a frame (a page within the page) is clicked where it is drawn too."""
    page = web_page(tmp_path)
    (tmp_path / "page.html").write_text(PAGE.replace("</body>", COVERED + "</body>"))
    command = chromium_plain_command(page, tmp_path / "profile")
    if how == "flag":
        command.insert(1, "--force-device-scale-factor=2")
    with x_resources(desktop, "Xft.dpi:\t192\n" if how == "Xft.dpi" else ""):
        app = launch(command, title="Toolkit page")
        state = wait_for(
            winctl,
            ("Button", "Press me"),
            ("Edit", "Name"),
            ("Button", "Reload"),
            ("Button", "Covered"),
            ("Button", "Inner"),
            app=app,
        )
    window = app.window["rect"]
    listed = winctl("--json", "state", "--verbose").json["result"]["targets"]
    targets = {(t["type"], t["name"]): t["rect"] for t in listed}
    for key in (("Heading", "Toolkit page"), ("Button", "Press me"), ("Edit", "Name"), ("Button", "Reload")):
        left, top, right, bottom = targets[key]
        assert window["left"] <= left < right <= window["right"], (key, targets[key], window)
        assert window["top"] <= top < bottom <= window["bottom"], (key, targets[key], window)
    left, top, right, bottom = targets[("Button", "Press me")]
    assert bottom - top >= 36, f"the page's button drawn 2x: {targets[('Button', 'Press me')]}"
    shot = winctl(
        "--json", "screenshot", "--element", str(target(state, "Button", "Press me")), str(tmp_path / "press.png")
    ).json["result"]
    assert shot["density"] == 2.0, shot  # told by its frame
    assert [shot["rect"][side] for side in ("left", "top", "right", "bottom")] == [left, top, right, bottom], shot
    assert "mouse" in winctl("click", str(target(state, "Button", "Press me")), "--via", "input").out
    wait_for_window(desktop, "Pressed 1")
    assert "mouse" in winctl("click", str(target(state, "Edit", "Name")), "--via", "input").out
    winctl("type", "at 2x")
    wait_for_window(desktop, "Typed at 2x")
    refused = winctl("click", str(target(state, "Button", "Covered")), "--via", "input", expect=None)
    assert refused.code != 0 and "is covered at" in refused.err, refused.err  # by the banner's box
    time.sleep(0.5)
    assert window_gone(desktop, "Covered"), "the button under the banner was pressed"
    assert "mouse" in winctl("click", str(target(state, "Button", "Inner")), "--via", "input").out
    wait_for_window(desktop, "Framed")


def test_a_qt6_app_scaled_by_xft_dpi_is_clicked_where_it_is_drawn(winctl, launch, desktop, tmp_path):
    """Qt 6 scales itself by the desktop's Xft.dpi (192: 2x) with nothing in its environment,
    and reports logical pixels, as its frame against its X window shows. Drawn that large,
    linguist's translation field lies below the fold of its editor's scroll area, under the
    "Phrases and guesses" pane: it must not be listed until scrolled into view (Qt reports it
    "showing"; listed, a mouse click on it landed on that pane and the text typed was lost).
    The field, Done and Save All, each clicked by the mouse at the places `state` gives, save
    the translation in the file; a button cut out by `screenshot --element` records 2."""
    ts_file = tmp_path / "demo.ts"
    label = "Translation to Deutsch (Deutschland)"
    with x_resources(desktop, "Xft.dpi:\t192\n"):
        app = launch(linguist_command(ts_file), title="demo.ts")
        wait_for(winctl, ("Button", "Done"), ("Button", "Save All"), ("Text", label), app=app)
    window = app.window["rect"]
    listed = {(t["type"], t["name"]): t for t in winctl("--json", "state", "--verbose").json["result"]["targets"]}
    done = listed[("Button", "Done")]["rect"]
    assert window["left"] <= done[0] < done[2] <= window["right"] and done[3] - done[1] >= 40, (done, window)
    assert ("Edit", label) not in listed, f"the field under another pane is listed: {listed.get(('Edit', label))}"
    state = translation_field(winctl, app, label)
    assert "mouse" in winctl("click", str(target(state, "Edit", label)), "--via", "input").out
    winctl("type", "Hallo 2x")
    for button in ("Done", "Save All"):
        assert "mouse" in winctl("click", str(target(state, "Button", button)), "--via", "input").out
    text = wait_for_file(ts_file, "<translation>Hallo 2x</translation>")
    assert 'type="unfinished"' not in text  # "Done" was pressed where it is drawn
    shot = winctl(
        "--json", "screenshot", "--element", str(target(state, "Button", "Done")), str(tmp_path / "done.png")
    ).json["result"]
    assert shot["density"] == 2.0, shot


def test_a_gtk3_context_menu_at_gdk_scale_2_is_listed_and_clicked_where_it_is_drawn(winctl, launch, tmp_path):
    """GTK 3 reports its context menu's window in logical pixels too, half the X window's size:
    it was not matched to that window, and `state` warned of a menu it does not list. Its items
    are listed now, placed as its window's are, and "Select All" clicked by the mouse acts: the
    text typed next replaces all of it, in the file saved."""
    doc = tmp_path / "context.txt"
    doc.write_text("hello world\n")
    launch(["env", "GDK_SCALE=2", *mousepad_command(doc)], title="context.txt")
    editor = target(wait_for(winctl, ("Edit", None)), "Edit")
    winctl("rightclick", str(editor))
    menu = wait_for(winctl, ("MenuItem", "Select All"), ("MenuItem", "Paste"))
    assert not any("a menu is open" in w for w in menu["warnings"]), menu["warnings"]
    item = next(
        t
        for t in winctl("--json", "state", "--verbose").json["result"]["targets"]
        if (t["type"], t["name"]) == ("MenuItem", "Select All")
    )
    _left, top, _right, bottom = item["rect"]
    assert bottom - top >= 40, f"a menu item drawn 2x: {item['rect']}"
    assert "via mouse" in winctl("click", str(target(menu, "MenuItem", "Select All")), "--via", "input").out
    winctl("type", "replaced")
    winctl("keys", "ctrl+s")
    assert wait_for_file(doc, "replaced").strip() == "replaced"
