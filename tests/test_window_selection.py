"""Which window a command acts on: the one `--window` names, else the session's, or the window
the session follows from it (a dialog its app opened, the window that replaced it)."""

import pytest

from winactions.errors import InvalidInput, NotFound, WindowClosed
from winactions.model import WindowInfo
from winactions.session.windows import choose_window, find_window

EDITOR = {"pid": 10, "process": "mousepad", "app_class": "Mousepad"}
MAIN = dict(id="0x3a00007", title="notes.txt - Mousepad", **EDITOR)
DIALOG = dict(id="0x3a00100", title="Save As", **EDITOR)
CALC = dict(id="0x1e00004", title="galculator", pid=20, process="galculator", app_class="Galculator")


def windows(*specs: dict, active: str | None = None) -> list[WindowInfo]:
    return [WindowInfo(**spec, active=spec["id"] == active) for spec in specs]


def test_a_window_is_found_by_its_id_in_hex_or_decimal_before_any_title():
    listed = windows(MAIN, CALC)
    assert find_window(lambda: listed, "0x3A00007").id == MAIN["id"]
    assert find_window(lambda: listed, str(0x1E00004)).id == CALC["id"]


def test_an_exact_title_wins_over_a_part_of_another_and_of_several_the_active_one():
    listed = windows(MAIN, dict(CALC, title="Mousepad"), DIALOG, active=DIALOG["id"])
    assert find_window(lambda: listed, "mousepad").id == CALC["id"]  # the title is exactly that
    assert find_window(lambda: listed, "mousepad ").id == CALC["id"]
    both = windows(MAIN, DIALOG, active=DIALOG["id"])  # by title and by process
    assert find_window(lambda: both, "Mousepad").id == DIALOG["id"]  # the active one
    neither = windows(MAIN, DIALOG)
    assert find_window(lambda: neither, "Mousepad").id == MAIN["id"]  # none active: the first


def test_a_blank_or_unknown_window_is_an_error_that_lists_the_open_ones():
    listed = windows(MAIN, CALC)

    def unasked() -> list[WindowInfo]:
        raise AssertionError("the windows were listed for a blank selector")

    with pytest.raises(InvalidInput):
        find_window(unasked, "  ")
    with pytest.raises(NotFound) as raised:
        find_window(lambda: listed, "gedit")
    assert raised.value.message == "no window matches 'gedit'"
    assert "'notes.txt - Mousepad', 'galculator'" in str(raised.value.hint)


def test_the_session_follows_a_dialog_its_app_opened_and_says_so():
    listed = windows(MAIN, DIALOG, CALC, active=DIALOG["id"])
    assert choose_window(listed, MAIN["id"], 10, one_screen=False) == (
        listed[1],
        'following the active window "Save As" of the same app',
    )
    assert choose_window(windows(MAIN, CALC, active=CALC["id"]), MAIN["id"], 10, one_screen=False) == (
        windows(MAIN, CALC)[0],
        None,
    )  # another app in front: the session's window stays


def test_a_closed_window_is_replaced_only_by_its_own_apps():
    replaced = windows(DIALOG, CALC, active=DIALOG["id"])
    assert choose_window(replaced, MAIN["id"], 10, one_screen=False) == (
        replaced[0],
        'the previous window closed; now in "Save As"',
    )
    with pytest.raises(WindowClosed):
        choose_window(windows(CALC, active=CALC["id"]), MAIN["id"], 10, one_screen=False)


def test_with_nothing_remembered_the_active_window_else_an_error_and_a_phone_is_its_screen():
    listed = windows(MAIN, CALC, active=CALC["id"])
    assert choose_window(listed, None, None, one_screen=False) == (listed[1], None)
    with pytest.raises(NotFound, match="none is active"):
        choose_window(windows(MAIN, CALC), None, None, one_screen=False)
    assert choose_window(listed, "gone", None, one_screen=True) == (listed[0], None)
