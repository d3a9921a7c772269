"""Menu items found by their ink on real Qt and Java menus, which underline a letter of each
item (its mnemonic), always, and draw an icon before most. Both pictures are screenshots in
Xvfb under openbox, cropped to the menu bar and an open menu:
- featherpad_menu.png: featherpad 1.3.5 (Qt 5, no accessibility tree unless started for it:
  pixels are all an agent has), its Search menu;
- jedit_menu.png: jEdit 5.5 (Swing's Metal look, OpenJDK 17), its Search menu, where
  "Find Next" is an item of its own and the end of "Replace and Find Next";
- writer_toolbar.png: LibreOffice Writer 7.4's menu bar, toolbars and ruler: the B, I and U
  buttons draw their letters in bold, serif italic and underlined, beside a ruler of ticks."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from winactions.locate import glyphs, ocr
from winactions.model import Rect

SCREENS = Path(__file__).parent / "fixtures" / "screens"
MENU = cv2.imread(str(SCREENS / "featherpad_menu.png"))
JEDIT = cv2.imread(str(SCREENS / "jedit_menu.png"))
WRITER = cv2.imread(str(SCREENS / "writer_toolbar.png"))
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


JEDIT_ITEMS = {  # the click point's row for each item of jEdit's Search menu
    "Find...": 35,
    "Find Next": 63,
    "Find Previous": 86,
    "Search in Directory...": 131,
    "Replace in Selection": 162,
    "Replace All": 216,
    "Incremental Search Bar": 247,
    "HyperSearch Bar": 274,
    "Whole Word": 356,
    "Ignore Case": 376,
    "Regular Expressions": 395,
}


def test_java_menu_items_are_found_by_their_ink_on_their_own_rows():
    """Swing draws its icons taller than the text and as close to it as letters are: the
    magnifier and "F̲ind..." were one word, not among the best-shaped, and the slow line pass
    read "Eind..." (0.80, 1 s). Each item is now found by its ink on its own row (0.1 s)."""
    for label, row in JEDIT_ITEMS.items():
        found = ocr.find_text(JEDIT, label)
        assert found and found[0].method == "ocr:ink" and found[0].confidence >= 0.85, (label, found[:2])
        assert abs(found[0].rect.center[1] - row) <= 4, (label, found[0])


def test_a_label_at_the_end_of_a_longer_one_is_not_that_label():
    """ "Find Next" read at the end of "Replace and Find Next" was clicked (0.97) instead of the
    item "Fi̲nd Next" above it: a run of words with a word a space before it is part of a line."""
    found = ocr.find_text(JEDIT, "Find Next")
    assert abs(found[0].rect.center[1] - 63) <= 4 and found[0].confidence >= 0.9, found[:2]
    assert all(c.confidence < 0.8 for c in found[1:]), found[:3]


def test_a_toolbars_style_letters_are_found_on_their_buttons():
    """Writer's I is a serif italic I: it scored 0.44 against the sans-serif I (a bare bar),
    was not among the words the recogniser was shown, and `text:I` was not found; against
    DejaVu Serif Italic, tried for one-letter queries, 0.94."""
    buttons = {"B": (602, 84), "I": (641, 84), "U": (672, 84)}
    for letter, (x, y) in buttons.items():
        found = ocr.find_text(WRITER, letter)
        assert found and found[0].rect.contains(x, y) and found[0].confidence >= 0.9, (letter, found[:2])


@pytest.mark.parametrize("size", [32, 40])
def test_a_headings_big_letters_are_not_icons(size):
    """An icon is split from a letter only when it is half as tall again: without that, a
    heading's square letters (its "m", its "W") at 32-40 px over 13 px body text were taken for
    icons, and "Summary of my quarterly Wagon" fell into 9 and 12 pieces instead of 5 words."""
    from PIL import Image, ImageDraw, ImageFont

    face = glyphs.ui_fonts()[0]
    picture = Image.new("L", (700, 160), 255)
    draw = ImageDraw.Draw(picture)
    draw.text((10, 5), "Summary of my quarterly Wagon", font=ImageFont.truetype(face, size), fill=0)
    for row in range(5):
        draw.text((10, 70 + row * 16), "some body text here and there", font=ImageFont.truetype(face, 13), fill=0)
    heading = [w for w in glyphs.ink_groups(np.asarray(picture)) if w.rect.top < 60 and w.words == 1]
    assert len(heading) == 5, [(w.rect.left, w.rect.right) for w in heading]
