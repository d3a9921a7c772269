"""Controls of an app without a tree read widget window by widget window, on a real
screenshot: IDLE's search dialog (Tk 8.6) at [25,656,676,759], with the places of its widget
windows as `xwininfo -tree` gave them. Read by lines, OCR took its four check boxes and their
label for one text, and its radio buttons and theirs for another."""

import itertools
from pathlib import Path

import cv2
import pytest

from winactions.model import Rect
from winactions.perception.widgets import cut_at, framed, holder, menu_bar, spaced_words, toggle

SHOT = Path(__file__).parent / "fixtures" / "screens" / "idle_search_dialog.png"
ORIGIN = (25, 656)


def box(left: int, top: int, right: int, bottom: int) -> Rect:
    return Rect(left=left, top=top, right=right, bottom=bottom)


FIND, OPTIONS, DIRECTION = box(32, 663, 69, 682), box(32, 697, 88, 716), box(32, 731, 99, 750)
REGEX, MATCH_CASE, WHOLE_WORD, WRAP = (
    box(101, 697, 256, 718),
    box(256, 697, 354, 718),
    box(354, 697, 456, 718),
    box(456, 697, 567, 718),
)
UP, DOWN = box(101, 731, 141, 752), box(141, 731, 202, 752)
FIELD, CLOSE, FIND_NEXT = box(101, 663, 569, 684), box(571, 666, 663, 694), box(571, 696, 663, 724)
WIDGETS = [
    FIND,
    OPTIONS,
    DIRECTION,
    REGEX,
    MATCH_CASE,
    WHOLE_WORD,
    WRAP,
    UP,
    DOWN,
    FIELD,
    CLOSE,
    FIND_NEXT,
    box(25, 656, 676, 759),
]  # the dialog's own frame holds nothing but these: a leaf only when empty


@pytest.fixture(scope="module")
def grey():
    return cv2.imread(str(SHOT), cv2.IMREAD_GRAYSCALE)


def test_a_line_read_across_widgets_is_cut_into_one_piece_each():
    line = box(28, 696, 569, 718)  # the line OCR found: "Options Regular expressionMatch case Whole word Wrap around"
    assert cut_at([line], WIDGETS[:-1]) == [
        box(32, 697, 88, 716),
        box(101, 697, 256, 718),
        box(256, 697, 354, 718),
        box(354, 697, 456, 718),
        box(456, 697, 567, 718),
    ]
    inside = box(120, 700, 200, 716)  # a line within one widget stays as it is
    assert cut_at([inside], WIDGETS[:-1]) == [inside]


def test_text_is_held_by_a_control_sized_widget_only():
    assert holder(box(120, 700, 200, 716), WIDGETS) == REGEX
    assert holder(box(300, 500, 340, 520), [box(1, 373, 685, 1057)]) is None  # a text area holds lines, not a control


@pytest.mark.parametrize(
    ("widget", "kind", "checked"),
    [
        (REGEX, "CheckBox", False),
        (MATCH_CASE, "CheckBox", False),
        (WHOLE_WORD, "CheckBox", False),
        (WRAP, "CheckBox", True),
        (UP, "RadioButton", False),
        (DOWN, "RadioButton", True),
    ],
)
def test_a_toggles_mark_says_what_it_is_and_whether_it_is_checked(grey, widget, kind, checked):
    mark = toggle(grey, ORIGIN, widget)
    assert mark is not None and (mark.kind, mark.checked) == (kind, checked)
    assert widget.left < mark.mark.left < mark.mark.right < widget.left + 16  # before the text


@pytest.mark.parametrize("widget", [FIND, OPTIONS, DIRECTION, CLOSE, FIND_NEXT])
def test_a_label_or_a_button_has_no_mark(grey, widget):
    """The O of "Options" is about as square as a check box's mark, and stands a letter's gap
    from the p: it is hollow, and too close."""
    assert toggle(grey, ORIGIN, widget) is None


def test_a_button_is_framed_and_a_label_or_a_check_box_is_not(grey):
    assert framed(grey, ORIGIN, CLOSE) and framed(grey, ORIGIN, FIND_NEXT)
    assert not any(framed(grey, ORIGIN, w) for w in (FIND, OPTIONS, DIRECTION, REGEX, WRAP, UP))


SHELL = Path(__file__).parent / "fixtures" / "screens" / "idle_shell.png"  # IDLE's shell window at [1,341,700,1075]


def test_a_menu_bar_read_as_one_line_is_its_menus_and_a_line_of_code_is_not():
    """IDLE's menu bar, in the strip a shape was found for: its words stand 12-13 px apart at
    15 px tall. The banner in its monospaced text stands 8 px apart at places: one text."""
    shell = cv2.imread(str(SHELL), cv2.IMREAD_GRAYSCALE)
    origin = (1, 341)
    menus = spaced_words(shell, origin, box(1, 341, 369, 374), "File Edit Shell Debug Options Window Help")
    assert [word for word, _ in menus] == ["File", "Edit", "Shell", "Debug", "Options", "Window", "Help"]
    assert all(a.right <= b.left for (_, a), (_, b) in itertools.pairwise(menus))  # each at its own place
    assert menus[1][1].left < 61 < menus[1][1].right  # "Edit", where `click text:Edit` opened its menu
    assert menu_bar(box(1, 341, 699, 374), box(1, 341, 700, 1075))
    banner = "Python 3.11.2 (main, Oct 7 2026, 12:35:07) [GCC 12.2.0] on linux"
    assert spaced_words(shell, origin, box(35, 373, 563, 393), banner) == []
    assert spaced_words(shell, origin, box(1, 341, 369, 374), "File Edit") == []  # not one word of ink per word read
