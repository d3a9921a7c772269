"""The prompt parser on terminal screens recorded from lxterminal through AT-SPI
(tests/fixtures/screens/terminal/*.json: the Text interface's text and caret offset), and on
screens written after the programs' documented output where no program was at hand here
(inquirer's list and input prompts)."""

from __future__ import annotations

import json
from pathlib import Path

from winactions.prompts import ScreenLines, read_prompt, screen_lines

RECORDED = Path(__file__).parent / "fixtures" / "screens" / "terminal"


def recorded(name: str) -> ScreenLines:
    data = json.loads((RECORDED / f"{name}.json").read_text())
    return screen_lines(data["text"], data["cursor"])


def typed(text: str) -> ScreenLines:
    """A screen whose cursor is where the text ends."""
    return screen_lines(text + "\n\n\n", len(text))


def test_rows_drop_trailing_blanks_and_keep_the_cursor_row():
    lines = screen_lines("one  \ntwo\n\n\n\n", 10)
    assert lines.rows == ["one", "two", ""] and lines.cursor == 2 and lines.column == 0
    assert screen_lines("a\n\n", None).rows == ["a"]


def test_a_yes_no_question_after_output():
    prompt = read_prompt(recorded("yes_no"))
    assert prompt is not None and prompt.kind == "yes_no" and prompt.question == "Overwrite config? (y/n)"


def test_bash_select_in_columns_lists_every_option_by_number():
    prompt = read_prompt(recorded("select_menu"))
    assert prompt is not None and prompt.kind == "numbered", prompt
    assert prompt.numbers == [str(n) for n in range(1, 13)]
    assert prompt.options[:3] == ["apple", "banana", "cherry"] and prompt.options[-1] == "mango"
    assert prompt.options[5] == "fig" and prompt.question == "#?"


def test_whiptail_menu_highlight_is_the_cursor_row():
    prompt = read_prompt(recorded("whiptail_menu"))
    assert prompt is not None and prompt.kind == "arrow_menu", prompt
    assert prompt.question == "Choose a fruit"
    assert prompt.options == ["apple  red one", "banana yellow", "cherry small"] and prompt.highlighted == 1


def test_no_prompt_on_a_bare_waiting_row():
    assert read_prompt(recorded("no_prompt")) is None
    assert read_prompt(screen_lines("", 0)) is None


def test_inquirer_list_with_its_marker():
    screen = "? Pick a colour (Use arrow keys)\n  red\n\u276f green\n  blue\n"
    prompt = read_prompt(screen_lines(screen, None))
    assert prompt is not None and prompt.kind == "arrow_menu"
    assert prompt.question == "? Pick a colour (Use arrow keys)"
    assert prompt.options == ["red", "green", "blue"] and prompt.highlighted == 1
    assert prompt.describe() == 'arrow-key menu "? Pick a colour (Use arrow keys)": red, [green], blue'


def test_text_prompts():
    for screen, question in (("Name: ", "Name:"), ("? Project name \u203a ", "? Project name \u203a")):
        prompt = read_prompt(typed(screen))
        assert prompt is not None and (prompt.kind, prompt.question) == ("text", question), screen


def test_a_row_with_text_after_the_cursor_is_no_text_prompt():
    lines = screen_lines("Name: Ada\n", 3)
    assert read_prompt(lines) is None


def test_confirm_in_inquirer_style_is_yes_no():
    prompt = read_prompt(typed("? Continue? (Y/n) "))
    assert prompt is not None and prompt.kind == "yes_no"
