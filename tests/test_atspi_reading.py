"""What the AT-SPI client makes of toolkits' quirks, measured on real apps (GTK 4.8's file
dialog in gnome-text-editor): which top-level element is a window, and names said twice."""

from __future__ import annotations

import pytest

from winactions.backends.linux.atspi.element import Raw
from winactions.backends.linux.atspi.frames import frame_score, one_frame
from winactions.backends.linux.atspi.refs import address, place
from winactions.backends.linux.atspi.toolkits import gtk4_normalized
from winactions.errors import NotFound
from winactions.model import Rect

FRAME, FILLER, BUTTON = 23, 20, 43  # AtspiRole numbers
DIALOG_RECT = Rect.from_xywh(544, 58, 1232, 419)


def raw(role: int, name: str, extents: tuple[int, int, int, int] = (0, 0, 1232, 419)) -> Raw:
    return Raw(
        ref=(":1.5", "/a"),
        name=name,
        description="",
        child_count=1,
        automation_id="",
        role_number=role,
        states=[0, 0],
        interfaces=(),
        extents=extents,
    )


def test_a_gtk4_file_dialog_reported_as_a_filler_is_its_window():
    main = frame_score(raw(FRAME, "menu.txt - Text Editor", (0, 0, 690, 510)), "Save As", DIALOG_RECT, own=True)
    dialog = frame_score(raw(FILLER, "Save As"), "Save As", DIALOG_RECT, own=True)
    assert dialog is not None and main is not None and dialog < main
    # another process's filler, or one named otherwise, is no window
    assert frame_score(raw(FILLER, "Save As"), "Save As", DIALOG_RECT, own=False) is None
    assert frame_score(raw(FILLER, "Sidebar"), "Save As", DIALOG_RECT, own=True) is None


def test_another_process_frame_is_the_window_only_by_its_title():
    """A window whose app is not on the bus (xmessage) lay over another app's frame: that frame,
    titled otherwise, was taken for it by its place (anything within 2,000 px). Place is no
    evidence across processes (every maximized window has the same); the title is, at about
    the window's place."""
    here = (544, 58, 1232, 419)
    assert frame_score(raw(FRAME, "Winactions Fixture", here), "No tree here", DIALOG_RECT, own=False) is None
    assert frame_score(raw(FRAME, "Winactions Fixture", here), "", DIALOG_RECT, own=False) is None
    assert frame_score(raw(FRAME, "notes.txt - Editor", here), "notes.txt - Editor", DIALOG_RECT, own=False) == 0
    # the same title elsewhere is another window
    far = (1544, 58, 1232, 419)
    assert frame_score(raw(FRAME, "notes.txt - Editor", far), "notes.txt - Editor", DIALOG_RECT, own=False) is None
    assert frame_score(raw(FRAME, "notes.txt - Editor", far), "notes.txt - Editor", DIALOG_RECT, own=True) == 1000
    assert frame_score(raw(FRAME, "Winactions Fixture", here), "No tree here", DIALOG_RECT, own=True) is not None


def test_frames_alike_are_told_apart_by_being_active_and_by_order_or_refused():
    """Two windows of an app alike in title and place: the frame active as the window is, when
    the app's order of its windows (as many as there are X windows alike) agrees."""
    active_bit = 1 << 1  # ATSPI_STATE_ACTIVE
    first, second = raw(FRAME, "Twin"), raw(FRAME, "Twin")
    first.ref, second.ref, second.states = (":1.5", "/first"), (":1.5", "/second"), [active_bit, 0]
    assert one_frame([first, second], "Twin", True, (1, 2)) == ":1.5/second"
    assert one_frame([first, second], "Twin", False, (0, 2)) == ":1.5/first"
    assert one_frame([first, second], "Twin", True, None) == ":1.5/second"  # no order known: active alone
    with pytest.raises(NotFound, match="cannot be told"):
        one_frame([first, second], "Twin", True, (0, 2))  # the app marked the other active: not yet settled
    second.states = [0, 0]
    with pytest.raises(NotFound, match="cannot be told"):
        one_frame([first, second], "Twin", False, (0, 2))  # neither active


def test_gtk4_button_names_said_twice_are_said_once():
    assert gtk4_normalized(raw(BUTTON, "Save Save"), frozenset())[1] == "Save"
    assert gtk4_normalized(raw(BUTTON, "Cancel Cancel"), frozenset())[1] == "Cancel"
    assert gtk4_normalized(raw(BUTTON, "Save As"), frozenset())[1] == "Save As"
    assert gtk4_normalized(raw(BUTTON, "GtkMenuButton"), frozenset())[1] == ""


def test_a_cell_address_gives_its_place_and_back():
    for row, col in ((0, 0), (3, 2), (0, 25), (0, 26), (9, 701), (1_048_575, 16_383)):
        assert place(address(row, col)) == (row, col)
    assert place("$B$12") == (11, 1)
    assert place("Sheet1") is None and place("") is None


def test_a_message_window_titled_as_its_app_is_not_the_app_s_main_frame():
    """Mousepad's "Failed to open the document." window is titled "Mousepad" by X and is an alert
    named "Error" on the bus. The main frame "a.txt - Mousepad" holds that title and won on it,
    far from the message and twice its size: `state` and `choose-file` read the main window in
    the message's place. A name counts for a frame no bigger than the window."""
    ALERT = 2
    message = Rect.from_xywh(385, 379, 512, 95)
    main = frame_score(raw(FRAME, "a.txt - Mousepad", (319, 147, 642, 505)), "Mousepad", message, own=True)
    alert = frame_score(raw(ALERT, "Error", (384, 359, 514, 116)), "Mousepad", message, own=True)
    assert main is not None and alert is not None and alert < main
    # a frame of about the window's size still wins by the title it holds
    assert frame_score(raw(FRAME, "a.txt - Mousepad", (384, 359, 514, 116)), "Mousepad", message, own=True) == 1044


def test_a_question_titled_as_the_dialog_under_it_is_not_that_dialog():
    """LibreOffice's "replace the file?" question and its file dialog are both titled "Save" by X;
    on the bus the dialog is named "Save" and the question is an alert named "Question". The
    dialog won on its name, far bigger than the question: `choose-file --overwrite` read the
    dialog's texts as the question and pressed the dialog's Cancel. A name counts for a frame no
    bigger than the window (smaller is logical pixels: GTK under GDK_SCALE=2, Java at uiScale 2)."""
    ALERT, DIALOG = 2, 19
    question = Rect.from_xywh(372, 352, 540, 150)
    dialog = frame_score(raw(DIALOG, "Save", (78, 0, 1126, 800)), "Save", question, own=True)
    alert = frame_score(raw(ALERT, "Question", (371, 332, 542, 171)), "Save", question, own=True)
    assert dialog is not None and alert is not None and alert < dialog
    assert frame_score(raw(DIALOG, "Save", (186, 176, 270, 75)), "Save", question, own=True) == 186 + 176 + 270 + 75
