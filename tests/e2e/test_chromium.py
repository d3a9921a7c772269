"""winctl on a program nobody here wrote: Chromium showing a local page.

Chromium's accessibility tree reaches AT-SPI only with --force-renderer-accessibility and
the bus's IsEnabled switched on (the virtual desktop does that). Web inputs have no
EditableText interface, so `input` must fall back to focusing and typing.
"""

from __future__ import annotations

import shutil
import time

import pytest

from tests.conftest import FIXTURES, start_app, stop_app, wait_for_window
from tests.fixtures.launch import chromium_command

pytestmark = pytest.mark.desktop


@pytest.fixture(scope="module")
def browser(desktop, tmp_path_factory):
    if shutil.which("chromium") is None:
        pytest.fail("chromium is not installed: run scripts/setup.sh")
    profile = tmp_path_factory.mktemp("chromium-profile")
    page = (FIXTURES / "web" / "form.html").as_uri()
    proc = start_app(desktop, chromium_command(page, str(profile)), "Chromium")
    yield proc
    stop_app(proc)


@pytest.fixture
def page(winctl, browser):
    winctl("focus", "Chromium")
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:  # the renderer's tree arrives a little after the window
        state = winctl.state()
        if any(t["type"] == "Button" for t in state["targets"]):
            return state
        time.sleep(0.5)
    raise AssertionError(f"the page never showed a button:\n{winctl('state').out}")


def named(page, type_, name):
    return next(t for t in page["targets"] if t["type"] == type_ and t["name"] == name)


def test_state_shows_the_page(winctl, page):
    found = {(t["type"], t["name"]) for t in page["targets"]}
    for expected in (
        ("Button", "Place order"),
        ("Edit", "Search"),
        ("CheckBox", "Gift wrap"),
        ("ComboBox", "Shipping"),
        ("Hyperlink", "Details"),
        ("HeaderItem", "Qty"),
        ("Heading", "Order form"),
        ("DataItem", "Item 1"),
    ):
        assert expected in found, expected
    texts = [t for t in page["targets"] if t["type"] == "Text"]
    assert not any(t["name"] == "Place order" for t in texts), "label text repeating its button is dropped"


def test_click_a_web_button_changes_the_title(winctl, desktop, page):
    out = winctl("click", str(named(page, "Button", "Place order")["id"])).out
    assert "via action:press" in out
    wait_for_window(desktop, "Clicked 1")


def test_input_into_a_web_field_types_it(winctl, page):
    field = named(page, "Edit", "Search")
    out = winctl("input", str(field["id"]), "hello web").out
    # typed when Chromium refuses SetTextContents, after a focus through the tree or a click
    assert "keyboard" in out or "EditableText" in out
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        if winctl("get", "text", str(field["id"])).out.strip() == "hello web":
            return
        time.sleep(0.2)
    raise AssertionError(winctl("inspect", str(field["id"])).out)


def test_check_box_and_table_cells(winctl, page):
    box = named(page, "CheckBox", "Gift wrap")
    winctl("click", str(box["id"]))
    deadline = time.monotonic() + 5
    while winctl("get", "value", str(box["id"])).out.strip() != "checked":
        assert time.monotonic() < deadline, "the check box never became checked"
        time.sleep(0.2)
    cells = [t for t in page["targets"] if t["type"] == "DataItem"]
    assert len(cells) >= 9


def test_select_a_web_option(winctl, page):
    combo = named(page, "ComboBox", "Shipping")
    out = winctl("select", str(combo["id"]), "Express").out
    assert "Express" in out
    deadline = time.monotonic() + 5
    while winctl("get", "text", str(combo["id"])).out.strip() != "Express":
        assert time.monotonic() < deadline, winctl("inspect", str(combo["id"])).out
        time.sleep(0.2)


def test_a_label_drawn_on_a_nameless_canvas_is_read_by_vision_local(winctl, desktop, tmp_path):
    """A web page's button drawn on a canvas: the tree lists a canvas with no name. Its label
    filled a fifth of the canvas, and `--vision local` took it for the canvas itself (a
    detection overlapping a listed element is that element) and listed nothing. Text is now
    matched only against elements that say something or are controls: "Checkout" is listed,
    and clicking it by its id checks out (the page's title)."""
    page = (FIXTURES / "web" / "canvas.html").as_uri()
    proc = start_app(desktop, chromium_command(page, str(tmp_path / "profile")), "Canvas Fixture")
    try:
        winctl("focus", "Canvas Fixture")
        deadline = time.monotonic() + 20
        while not any(t["type"] == "Canvas" for t in winctl.state()["targets"]):
            assert time.monotonic() < deadline, "the page's canvas was never listed"
            time.sleep(0.5)
        seen = winctl("--json", "state", "--vision", "local", "--verbose").json["result"]["targets"]
        canvas = next(t for t in seen if t["type"] == "Canvas")
        label = next((t for t in seen if t.get("source") == "ocr" and t["name"] == "Checkout"), None)
        assert label is not None, [t["name"] for t in seen if t.get("source") == "ocr"]
        assert canvas["rect"][0] <= label["rect"][0] and label["rect"][2] <= canvas["rect"][2]
        assert "via mouse" in winctl("click", str(label["id"])).out
        wait_for_window(desktop, "Checked out")
    finally:
        stop_app(proc)


def test_a_context_menu_missing_from_the_tree_is_read_with_its_greyed_out_items(winctl, desktop, tmp_path):
    """Chromium leaves its context menus out of the tree. `state` warns of the open menu, and
    `--vision local` reads its rows; on a page with no history, "Back" and "Forward" are greyed
    out, in a grey 0.70 as far off the white as the other items' (listed as enabled before), and
    "View page source" chosen by its id opens the page's source in a tab titled by the file's name
    (the page's own title is "Form Fixture")."""
    page = (FIXTURES / "web" / "form.html").as_uri()
    proc = start_app(desktop, chromium_command(page, str(tmp_path / "profile")), "Chromium")
    try:
        winctl("focus", "Chromium")
        deadline = time.monotonic() + 20
        while True:  # the renderer's tree arrives a little after the window
            state = winctl.state()
            if any(t["type"] == "Heading" for t in state["targets"]):
                break
            assert time.monotonic() < deadline, "the page's heading was never listed"
            time.sleep(0.5)
        winctl("rightclick", str(named(state, "Heading", "Order form")["id"]))
        deadline = time.monotonic() + 10
        while not any("a menu is open at" in warning for warning in winctl.state()["warnings"]):
            assert time.monotonic() < deadline, "no warning of the open menu"
            time.sleep(0.2)
        seen = winctl("--json", "state", "--vision", "local").json["result"]["targets"]
        menu = {t["name"]: t for t in seen if t["type"] == "MenuItem" and t.get("source") == "vision"}
        assert {"Back", "Forward", "Reload", "View page source", "Inspect"} <= set(menu), sorted(menu)
        assert sorted(n for n, t in menu.items() if "disabled" in t.get("states", [])) == ["Back", "Forward"], menu
        assert "via mouse" in winctl("click", str(menu["View page source"]["id"])).out
        wait_for_window(desktop, "form.html - Chromium")
    finally:
        stop_app(proc)
