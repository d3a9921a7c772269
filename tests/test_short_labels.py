"""Short labels and symbols (issue 15.1) on real calculators' keypads, truth from their trees.

The pictures and truth are recorded by tests/fixtures/screens/keypads.py from galculator,
MATE Calculator, GNOME Calculator and Qalculate!, two of them with a tooltip open over
some buttons.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import cv2
import pytest

from winactions.locate.ocr import TextBox, find_text, match_line
from winactions.model import Rect

pytestmark = pytest.mark.timeout(600)  # one module fixture locates ~200 labels: about a minute

KEYPADS = Path(__file__).parent / "fixtures" / "screens" / "keypads"
PICTURES = sorted(KEYPADS.glob("*.json"))


def inside(rect: list[int], point: tuple[int, int]) -> bool:
    return rect[0] <= point[0] < rect[2] and rect[1] <= point[1] < rect[3]


@pytest.fixture(scope="module")
def outcomes() -> list[tuple[str, dict, list]]:
    """Every label of one to three characters, looked for as `text:LABEL` in its picture
    (longer ones take the text-line path, tested in test_locate_strategies.py)."""
    out = []
    for truth_file in PICTURES:
        truth = json.loads(truth_file.read_text())
        image = cv2.imread(str(truth_file.with_suffix(".png")))
        for label in truth["labels"]:
            if len(label["label"].replace(" ", "")) > 3:
                continue
            out.append((truth_file.stem, label, find_text(image, label["label"])))
    return out


def test_the_set_has_short_labels_of_four_apps_and_tooltips():
    apps = {json.loads(p.read_text())["app"] for p in PICTURES}
    assert apps == {"galculator", "mate-calc", "gnome-calculator", "qalculate-gtk"}
    labels = [label for p in PICTURES for label in json.loads(p.read_text())["labels"]]
    assert sum(len(label["label"]) <= 3 for label in labels) >= 150
    assert sum(label["covered"] for label in labels) >= 8


def test_visible_labels_are_found_where_they_are(outcomes):
    visible = [(name, label, found) for name, label, found in outcomes if not label["covered"]]
    right = [found[0] for _, label, found in visible if found and inside(label["rect"], found[0].rect.center)]
    sure = [c for c in right if c.confidence >= 0.8]
    missed = [
        (name, label["label"])
        for name, label, found in visible
        if not (found and inside(label["rect"], found[0].rect.center))
    ]
    # issue 15 asks for 95% found and 90% found at >= 0.8; measured 187/192 and 184/192
    assert len(right) / len(visible) >= 0.95, missed
    assert len(sure) / len(visible) >= 0.90


@pytest.mark.parametrize(
    "picture,label",
    [
        ("galculator-basic", "="),
        ("galculator-basic", "+"),
        ("galculator-basic", "7"),
        ("galculator-basic", "MR"),
        ("gnome-calculator-basic", "×"),
        ("gnome-calculator-basic", "−"),
        ("gnome-calculator-basic", "÷"),
        ("qalculate-keypad", "+"),
        ("qalculate-keypad", "="),
        ("qalculate-keypad", "∕"),
        ("mate-calc-basic", "√"),
    ],
)
def test_operators_and_short_names_are_found_reliably(outcomes, picture, label):
    [(_, truth, found)] = [o for o in outcomes if o[0] == picture and o[1]["label"] == label]
    assert found and inside(truth["rect"], found[0].rect.center), found[:3]
    assert found[0].confidence >= 0.8


@pytest.mark.parametrize(
    "picture,label",
    [("galculator-basic", "="), ("qalculate-keypad", "="), ("qalculate-keypad", "−"), ("gnome-calculator-basic", "−")],
)
def test_a_symbol_is_compared_with_its_ink_not_the_box_around_it(outcomes, picture, label):
    """The word's box from the stroke gradient is a pixel taller and wider than its ink, and a
    theme's light row under each stroke falls in it; the query's rendered shape, stretched
    over that box, scored these 0.28-0.37 (confidence 0.82-0.94), compared with the ink's own box 0.9-1."""
    [(_, truth, found)] = [o for o in outcomes if o[0] == picture and o[1]["label"] == label]
    assert found and inside(truth["rect"], found[0].rect.center), found[:3]
    assert found[0].detail["shape"] >= 0.85 and found[0].confidence >= 0.95, found[0]


def test_no_visible_label_is_clicked_elsewhere(outcomes):
    """A reliable answer is on its label or there is none: gnome-calculator's `.` was found at
    0.86 in the hole of the window's maximize button (a light square in a dark frame) when the
    background was read from the frame right around it."""
    wrong = [
        (name, label["label"], found[0])
        for name, label, found in outcomes
        if not label["covered"]
        and found
        and found[0].confidence >= 0.8
        and not inside(label["rect"], found[0].rect.center)
    ]
    assert not wrong


def test_a_label_under_a_tooltip_is_never_found_there(outcomes):
    covered = [(label, found) for _, label, found in outcomes if label["covered"]]
    assert covered
    for label, found in covered:
        assert not any(c.confidence >= 0.8 and inside(label["rect"], c.rect.center) for c in found), label


def test_a_symbol_inside_a_sentence_is_not_that_label():
    sentence = TextBox(Rect(left=0, top=0, right=300, bottom=20), 'e.g. "5 + 2 / 3",', 0.99)
    assert match_line(sentence, "+", "auto", 0.8) is None
    dropdown = TextBox(Rect(left=0, top=0, right=40, bottom=20), "MS√", 0.9)  # "MS▾" as read
    assert match_line(dropdown, "MS", "auto", 0.8) is not None
    backspace = TextBox(Rect(left=0, top=0, right=40, bottom=20), "<-", 0.9)
    assert match_line(backspace, "-", "auto", 0.8) is None


@pytest.mark.parametrize("read,query", [("二", "="), ("十", "+"), ("一", "−"), ("∕", "/"), ("-", "−")])
def test_the_recognisers_look_alikes_count_as_the_symbol(read, query):
    line = TextBox(Rect(left=0, top=0, right=20, bottom=20), read, 0.9)
    found = match_line(line, query, "auto", 0.8)
    assert found is not None and found.confidence >= 0.85


def test_chinese_text_is_not_read_as_symbols():
    line = TextBox(Rect(left=0, top=0, right=20, bottom=20), "一二", 0.9)
    assert match_line(line, "一二", "auto", 0.8) is not None
    assert match_line(line, "-=", "auto", 0.8) is not None  # a symbol query may still take them
    assert match_line(TextBox(line.rect, "-=", 0.9), "一二", "auto", 0.8) is None


CHROMIUM = Path(__file__).parent / "fixtures" / "screens" / "chromium_form.png"


@pytest.mark.parametrize(
    "label,kind",
    [
        ("Name", "HeaderItem"),
        ("Qty", "HeaderItem"),
        ("Price", "HeaderItem"),
        ("Search", "Text"),
        ("Details", "Hyperlink"),
        ("Place order", "Button"),
        ("Item 2", "DataItem"),
        ("Item 3", "DataItem"),
    ],
)
def test_words_of_a_web_form_are_read_by_their_ink(label, kind):
    """A table's header (it once stacked onto the row above), a link (its underline joined to its
    letters), a label beside a field and a cell of two words among rows of look-alikes (its word
    "Item" once outranked the run "Item 2"): found without the text-line detector (`ocr:ink`, a
    few hundred ms instead of seconds) at the place Chromium's tree gives."""
    truth = json.loads(CHROMIUM.with_suffix(".json").read_text())
    rect = next(t["rect"] for t in truth["targets"] if t["name"] == label and t["type"] == kind)
    found = find_text(cv2.imread(str(CHROMIUM)), label)
    assert found and found[0].method == "ocr:ink" and found[0].confidence >= 0.9, found[:2]
    assert inside(rect, found[0].rect.center)


def test_a_word_beside_the_next_control_is_found_whole():
    """ "Shipping" is drawn one space after "Gift wrap": by ink it is part of a longer line (0.74),
    read whole by its line it is itself; the more confident reading of the place is kept."""
    truth = json.loads(CHROMIUM.with_suffix(".json").read_text())
    rect = next(t["rect"] for t in truth["targets"] if t["name"] == "Shipping" and t["type"] == "Text")
    found = find_text(cv2.imread(str(CHROMIUM)), "Shipping")
    assert found[0].confidence >= 0.8 and inside(rect, found[0].rect.center), found[:2]
    assert sum(inside(rect, c.rect.center) for c in found) == 1, "one candidate per place"


XMESSAGE = Path(__file__).parent / "fixtures" / "screens" / "xmessage.png"
XMESSAGE_BUTTONS = {"okay": [4, 359, 53, 386], "cancel": [57, 359, 124, 386]}  # their outlines, read off the picture


@pytest.mark.parametrize("label", ["okay", "cancel"])
def test_a_label_read_in_a_run_of_words_is_cut_from_it(label):
    """xmessage (which has no accessibility tree) draws its buttons "okay" and "cancel" four
    pixels apart, and their ink is one run of words; the pointer rests on cancel, whose outline
    is drawn thicker. "cancel)", read alone with its outline, scored less than the run "okay
    cancel", whose whole box was given for cancel: its middle lay 7 px inside cancel, its left
    half over okay. The label's own part of the run is given now."""
    found = find_text(cv2.imread(str(XMESSAGE)), label)
    left, top, right, bottom = XMESSAGE_BUTTONS[label]
    assert found and found[0].confidence >= 0.8, found[:2]
    rect = found[0].rect
    assert left - 2 <= rect.left and rect.right <= right + 2, (label, found[:2])
    assert inside([left + 8, top, right - 8, bottom], rect.center), (label, found[:2])
    assert found[0].label == label, "the label is the part of the run that matched, as `click` reports it"


def test_a_slash_read_as_one_counts_only_among_signs():
    """galculator's "+/-" comes back as "+1-": among signs a slash may be a 1 (less sure), but a
    "1" key is never the "/" key, nor an "l" the "1" key (a short label must match itself)."""
    key = Rect(left=0, top=0, right=20, bottom=20)
    found = match_line(TextBox(key, "+1-", 0.9), "+/-", "auto", 0.8)
    assert found is not None and 0.8 <= found.confidence < 0.9 and found.detail["mode"] == "alike"
    assert match_line(TextBox(key, "1", 0.9), "/", "auto", 0.8) is None
    assert match_line(TextBox(key, "l", 0.9), "1", "auto", 0.8) is None
    assert match_line(TextBox(key, "+1", 0.9), "+/-", "auto", 0.8) is None


@pytest.mark.parametrize(
    ("read", "query"), [("Item 9", "Item 90"), ("Item 90", "Item 9"), ("Page 123", "Page 12"), ("Row 18", "Row 19")]
)
def test_a_label_with_another_number_is_another_label(read, query):
    """Fuzzy reading forgives letters the recogniser confuses, never numbers: with "Item 90"
    scrolled out of view, `click "Item 90"` found "Item 9" at 0.86 and pressed it."""
    assert match_line(TextBox(Rect(left=0, top=0, right=60, bottom=12), read, 0.99), query, "auto", 0.75) is None


def test_letters_misread_in_a_numbered_label_still_match():
    box = Rect(left=0, top=0, right=80, bottom=12)
    assert match_line(TextBox(box, "Itern 90", 0.99), "Item 90", "auto", 0.75) is not None
    assert match_line(TextBox(box, "Page 12 of 30", 0.99), "Page 12", "auto", 0.75) is not None


def test_a_label_written_twice_is_found_in_neither_for_sure(tmp_path):
    """Qalculate! after 7×8−5: its "5" key and the 5 of the expression shown above the keys
    read alike (0.96 each), and `click text:5` pressed whichever sorted first. Here the key's
    middle is copied into the empty display of the real keypad picture: both places are
    reported below the reliable bar, with the runner-up's score, and `locate` says why."""
    picture = KEYPADS / "qalculate-keypad.png"
    image = cv2.imread(str(picture))
    [key] = [
        label["rect"]
        for label in json.loads(picture.with_suffix(".json").read_text())["labels"]
        if label["label"] == "5"
    ]
    once = find_text(image, "5")
    assert inside(key, once[0].rect.center) and once[0].confidence >= 0.8
    left, top, right, bottom = key
    w, h = right - left, bottom - top
    image[60 : 60 + h // 2, 300 : 300 + w // 2] = image[top + h // 4 : bottom - h // 4, left + w // 4 : right - w // 4]
    twice = find_text(image, "5")
    assert len(twice) >= 2 and all(c.confidence <= 0.75 for c in twice), twice
    assert twice[0].detail["runner_up"] >= 0.8
    cv2.imwrite(str(tmp_path / "twice.png"), image)
    done = subprocess.run(
        [sys.executable, "-m", "winactions.cli.entry", "locate", "text:5", "--in", str(tmp_path / "twice.png")],
        capture_output=True,
        text=True,
        timeout=180,
        env={k: v for k, v in os.environ.items() if k != "DISPLAY"},
    )
    assert done.returncode == 3, done.stdout + done.stderr
    assert "another place matches about as well" in done.stderr and "--region" in done.stderr


def test_a_label_read_without_its_spaces_still_matches():
    """The recogniser drops the spaces of Qalculate's "a / b" button ("a/b", live: not found)."""
    box = Rect(left=0, top=0, right=40, bottom=14)
    found = match_line(TextBox(box, "a/b", 0.99), "a / b", "auto", 0.8)
    assert found is not None and found.detail["mode"] == "spacing" and found.confidence >= 0.9
    assert match_line(TextBox(box, "x =", 0.99), "x=", "auto", 0.8) is not None
    assert match_line(TextBox(box, "A/b", 0.99), "a / b", "exact", 0.8) is None  # exact keeps the case
    assert match_line(TextBox(box, "a/c", 0.99), "a / b", "auto", 0.8) is None


ADVANCED = {  # GNOME Calculator 43 in its Advanced mode: keys as its tree places them in the picture
    "7": [22, 413, 74, 453],
    "mod": [214, 365, 266, 405],
    "÷": [214, 413, 266, 453],
    "×": [214, 461, 266, 501],
    "−": [214, 509, 266, 549],
    "+": [214, 557, 266, 597],
    "√": [278, 413, 330, 453],
    "%": [150, 557, 202, 597],
    "=": [278, 509, 330, 597],
    "cos": [482, 365, 533, 405],
    "ln": [545, 461, 596, 501],
    "Re": [545, 509, 596, 549],
    "Im": [608, 509, 658, 549],
}


@pytest.mark.parametrize("label", list(ADVANCED))
def test_an_advanced_keypad_with_a_variable_x_beside_its_times_key(label):
    """GNOME Calculator's Advanced mode has a "×" key and an "x" (variable) key, and a
    window close button drawn as a cross. `text:×` clicked the x key (0.92): × and the
    letters x and X counted as one symbol, and the recogniser's shaky "X" gave way to the
    shape. They are now told apart by shape, and the × key (read "x" at 0.49, third by shape)
    is judged too. `text:Im`, read "lm", was not found: two or three letters count with their
    look-alikes (l I 1). tests/fixtures/screens/gnome_calculator_advanced.png, the window."""
    image = cv2.imread(str(KEYPADS.parent / "gnome_calculator_advanced.png"))
    found = find_text(image, label)
    assert found and inside(ADVANCED[label], found[0].rect.center) and found[0].confidence >= 0.8, found[:2]
