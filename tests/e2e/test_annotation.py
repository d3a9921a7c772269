"""Annotated screenshots on real dense UIs (issue 16.1): mousepad's open File menu, its
toolbar, and a table. Each test reads what winctl drew (the PNG it saved), replays the
placement on the plain screenshot of the same moment to get the label rects — the replay
must give the very same pixels — runs the independent checker on them, and reads every
label back from the picture by OCR, so a number that merged with its neighbour or hid
under another would be caught in the image itself.
"""

from __future__ import annotations

import time
from typing import Any

import pytest
from PIL import Image, ImageChops, ImageOps

from tests.conftest import start_app, stop_app
from tests.fixtures.launch import gtk_fixture_command
from tests.fixtures.toolkit_apps import mousepad_command
from tests.marks_checker import problems
from winactions import screenshots
from winactions.model import Target

pytestmark = pytest.mark.desktop


def annotated(winctl) -> tuple[dict[str, Any], Any]:
    """`state --annotated` as an agent runs it, and the layout that produced its picture."""
    state = winctl("--json", "state", "--annotated", "--screenshot", "--verbose").json["result"]
    window = state["window"]["rect"]
    targets = [
        Target.model_validate({**t, "rect": dict(zip(("left", "top", "right", "bottom"), t["rect"], strict=True))})
        for t in state["targets"]
        if t.get("rect")
    ]
    plain = Image.open(state["screenshot"])
    drawn = Image.open(state["annotated_screenshot"]).convert("RGB")
    replay, layout = screenshots.annotate(plain, (window["left"], window["top"]), targets)
    assert ImageChops.difference(replay, drawn).getbbox() is None, "the replay differs from what winctl drew"
    labels = {m.text: (m.label.left, m.label.top, m.label.right, m.label.bottom) for m in layout.marks}
    boxes = {m.text: (m.box.left, m.box.top, m.box.right, m.box.bottom) for m in layout.marks}
    assert problems(labels, boxes, drawn.size) == []
    if layout.unplaced:  # what has no label is said, with the close-up to take
        assert any("winctl zoom" in w and str(layout.unplaced[0]) in w for w in state["warnings"])
    else:
        assert not any(w.startswith("annotated:") for w in state["warnings"])
    read_back(drawn, layout)
    return state, layout


def read_back(image: Image.Image, layout: Any) -> None:
    """OCR each label in the saved picture: it must read as its own ids, nothing more."""
    from rapidocr import RapidOCR

    engine = RapidOCR(params={"Global.use_cls": False, "Global.log_level": "critical"})
    wrong = []
    for mark in layout.marks:
        crop = image.crop((mark.label.left, mark.label.top, mark.label.right, mark.label.bottom))
        crop = ImageOps.expand(
            crop.resize((crop.width * 4, crop.height * 4), Image.Resampling.LANCZOS), border=12, fill=mark.colour
        )
        result = engine(crop, use_det=False, use_cls=False, use_rec=True)
        text = "".join(result.txts or ()).replace(" ", "").replace(".", ",")
        if text != mark.text:
            wrong.append((mark.text, text))
    assert not wrong, f"labels read back differently (drawn, read): {wrong}"


def ids_of(state: dict[str, Any], type_: str) -> list[int]:
    return [t["id"] for t in state["targets"] if t["type"] == type_]


def open_menu(winctl, name: str, item: str) -> dict[str, Any]:
    """Click the menu `name` and wait for its item named `item`."""
    state = winctl.state()
    winctl("click", str(winctl.find("Menu", name, state)))
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        state = winctl.state()
        if any(t["name"] == item for t in state["targets"]):
            return state
        time.sleep(0.2)
    raise AssertionError(f"the {name} menu did not open: {[(t['type'], t['name']) for t in state['targets']]}")


def test_open_file_menu_in_mousepad(winctl, launch, tmp_path):
    doc = tmp_path / "menu.txt"
    doc.write_text("hello\n")
    launch(mousepad_command(doc), title="menu.txt")
    open_menu(winctl, "File", "Quit")
    state, layout = annotated(winctl)
    items = [t["id"] for t in state["targets"] if t["type"] in ("MenuItem", "Menu")]
    labelled = {i for m in layout.marks for i in m.ids}
    assert set(items) <= labelled  # every item of the menu and the menu bar has its own label
    assert layout.unplaced == []
    winctl("keys", "Escape")


def test_toolbar_in_mousepad(winctl, launch, tmp_path):
    doc = tmp_path / "toolbar.txt"
    doc.write_text("hello\n")
    launch(mousepad_command(doc), title="toolbar.txt")
    state = open_menu(winctl, "View", "Toolbar")
    toggle = next(t for t in state["targets"] if t["name"] == "Toolbar")
    winctl("click", str(toggle["id"]))
    deadline = time.monotonic() + 10
    while len(ids_of(state := winctl.state(), "Button")) < 5:
        assert time.monotonic() < deadline, "mousepad's toolbar did not appear"
        time.sleep(0.2)
    state, layout = annotated(winctl)
    buttons = set(ids_of(state, "Button"))
    assert buttons <= {i for m in layout.marks for i in m.ids}


@pytest.fixture
def table_app(desktop, tmp_path, winctl):
    proc = start_app(desktop, gtk_fixture_command(str(tmp_path / "log.jsonl"), rows=60), "Winactions Fixture")
    winctl("focus", "Winactions Fixture")
    yield
    stop_app(proc)


def test_table_and_form_of_the_fixture(winctl, table_app):
    state, layout = annotated(winctl)
    cells = [t["id"] for t in state["targets"] if t["type"] in ("DataItem", "ListItem", "TableCell", "Cell")]
    assert len(cells) >= 20, [t["type"] for t in state["targets"]]
    labelled = {i for m in layout.marks for i in m.ids}
    assert len(labelled & set(cells)) + len(set(layout.unplaced) & set(cells)) == len(cells)


def test_calculator_button_grid_in_galculator(winctl, launch, tmp_path):
    """A dense grid of small buttons nobody here wrote."""
    launch(["galculator"], title="galculator")
    deadline = time.monotonic() + 20
    while len(ids_of(state := winctl.state(), "Button")) < 20:
        assert time.monotonic() < deadline, [(t["type"], t["name"]) for t in state["targets"]]
        time.sleep(0.3)
    state, layout = annotated(winctl)
    buttons = set(ids_of(state, "Button"))
    labelled = {i for m in layout.marks for i in m.ids}
    assert buttons <= labelled | set(layout.unplaced)
    assert len(buttons & labelled) >= 0.9 * len(buttons), layout.unplaced
