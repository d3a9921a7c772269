"""Menu items found by their ink on a real Qt menu (featherpad, no accessibility tree: pixels
are all an agent has). tests/fixtures/screens/featherpad_menu.png is featherpad 1.3 (Qt 5) in
Xvfb under openbox with its Search menu open, cropped to the menu bar and the menu: Qt
underlines a letter of each item (its mnemonic), always, and draws an icon before it."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from winactions.locate import glyphs, ocr
from winactions.model import Rect

MENU = cv2.imread(str(Path(__file__).parent / "fixtures" / "screens" / "featherpad_menu.png"))
FIND = Rect(left=175, top=29, right=203, bottom=42)  # the ink of "Find" with the bar under its F


def test_a_mnemonics_underline_is_found_and_left_out_of_the_reading():
    grey = cv2.cvtColor(MENU, cv2.COLOR_BGR2GRAY)
    bar = glyphs.mnemonic_bar(grey, FIND)
    assert bar is not None and bar.top >= 39 and bar.width <= 8, bar  # under the F alone
    search = glyphs.mnemonic_bar(grey, Rect(left=151, top=5, right=196, bottom=18))  # light on the open title
    assert search is not None and search.left == 151 and search.width <= 9, search
    box = Rect(left=169, top=23, right=209, bottom=48)
    assert ocr.OcrEngine.shared().recognize(MENU, [box])[0].text == "Eind"  # what the recogniser makes of F̲
    clean = ocr._without_mnemonics(MENU, grey, [FIND], "Find")
    assert ocr.OcrEngine.shared().recognize(clean, [box])[0].text == "Find"


def test_menu_items_beside_their_icons_are_found_by_their_ink():
    """ "Find" was read "Eind" and, beside its magnifier icon, counted as part of a line (0.74):
    the slow line pass then found it at 0.84."""
    for label in ("Find", "Replace", "Jump to", "Search", "Edit"):
        found = ocr.find_by_ink(MENU, label)
        assert found and found[0].confidence >= 0.9, (label, found[:2])
    assert ocr.find_by_ink(MENU, "Find")[0].rect.contains(185, 35)


def test_no_bar_under_words_without_one():
    """A descender joins its letter, a link's underline runs the whole word, and a word with no
    mark below has none."""
    image = np.full((40, 220), 255, np.uint8)
    cv2.putText(image, "gypsy", (5, 22), cv2.FONT_HERSHEY_SIMPLEX, 0.6, 0, 1, cv2.LINE_AA)
    cv2.putText(image, "link", (120, 22), cv2.FONT_HERSHEY_SIMPLEX, 0.6, 0, 1, cv2.LINE_AA)
    cv2.line(image, (120, 27), (158, 27), 0, 1)
    assert glyphs.mnemonic_bar(image, Rect(left=4, top=8, right=80, bottom=30)) is None
    assert glyphs.mnemonic_bar(image, Rect(left=119, top=8, right=160, bottom=29)) is None
