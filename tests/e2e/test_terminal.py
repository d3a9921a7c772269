"""open-terminal and prompt-respond on real programs in a real lxterminal (VTE) under Xvfb.

Each program writes what it received to a file, and the test reads that file: what winctl
says it sent is checked against what the program got.
"""

from __future__ import annotations

import shutil
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.e2e.helpers.apps import stop_group, wait_for_file
from tests.e2e.helpers.mcp_client import run_client

MENU = Path(__file__).parents[1] / "fixtures" / "marker_menu.py"


@pytest.fixture
def terminal(winctl) -> Iterator:
    """open-terminal custom --command SCRIPT (run by bash); every terminal is closed after."""
    if shutil.which("lxterminal") is None:
        pytest.fail("lxterminal is not installed: run scripts/setup.sh test (scripts/packages/demo.txt)")
    opened: list[int] = []

    def start(script: str) -> dict:
        done = winctl("--json", "open-terminal", "custom", "--command", f"bash -c '{script}; sleep 120'").json
        opened.append(int(done["result"]["pid"]))
        return done["result"]

    yield start
    for pid in opened:
        stop_group(pid)


def test_a_yes_no_question_is_answered_yes(winctl, terminal, tmp_path: Path):
    """bash `read -p "Continue? [y/N] "`: yes sends y and Enter; the script read "y"."""
    got = tmp_path / "got"
    opened = terminal(f'read -p "Continue? [y/N] " x; printf %s "$x" > {got}; echo "done <$x>"')
    assert opened["command"].startswith("bash -c") and any("Continue? [y/N]" in r for r in opened["shows"]), opened
    refused = winctl("prompt-respond", "select", "--count", "1", expect=2)
    assert "does not answer the terminal's prompt, a y/n question" in refused.err, refused.err
    assert "nothing was sent" in refused.err, refused.err
    done = winctl("prompt-respond", "yes").out
    assert wait_for_file(got, "y") == "y"
    assert 'prompt: y/n question "Continue? [y/N]"' in done and "sent: 'y' Enter" in done and "done <y>" in done, done


def test_a_numbered_menu_takes_a_number_or_a_label(winctl, terminal, tmp_path: Path):
    """bash `select`: "1) apple 2) banana 3) cherry" then "#? "; select --text banana sends 2."""
    got = tmp_path / "got"
    terminal(f'PS3="#? "; select f in apple banana cherry; do printf %s "$f" > {got}; break; done')
    refused = winctl("prompt-respond", "yes", expect=2)
    assert "a numbered menu" in refused.err, refused.err
    assert not got.exists()
    done = winctl("prompt-respond", "select", "--text", "banana").out
    assert wait_for_file(got, "banana") == "banana"
    assert "numbered menu" in done and "1) apple, 2) banana, 3) cherry" in done and "sent: '2' Enter" in done, done


def test_an_arrow_key_menu_moves_from_its_highlighted_option(winctl, terminal, tmp_path: Path):
    """whiptail --menu draws its highlight in colours (which VTE's accessible text does not tell
    apart by offset) and puts the cursor on the current item: the highlighted option is the
    cursor's row. select --text cherry presses Down twice from apple, then Enter."""
    if shutil.which("whiptail") is None:
        pytest.fail("whiptail is not installed: run scripts/setup.sh test (scripts/packages/test.txt)")
    got = tmp_path / "got"
    terminal(f'whiptail --title Pick --menu "Choose a fruit" 15 40 4 apple red banana yellow cherry small 2> {got}')
    state = winctl("state").out
    assert "> " in state and "apple  red" in state, state
    done = winctl("prompt-respond", "select", "--text", "cherry").out
    assert wait_for_file(got, "cherry") == "cherry"
    assert 'arrow-key menu "Choose a fruit"' in done and "[apple  red]" in done, done
    assert "sent: Down Down Enter" in done, done


def test_an_inquirer_style_menu_is_read_by_its_marker(winctl, terminal, tmp_path: Path):
    """tests/fixtures/marker_menu.py draws its list as inquirer does (the highlighted option led
    by U+276F, the cursor hidden, redrawn in place on each arrow): the highlight is read from
    the marker; select --count 2 --arrow down presses Down twice, then Enter."""
    got = tmp_path / "got"
    terminal(f'{sys.executable} {MENU} {got} "Pick a colour" red green blue')
    done = winctl("prompt-respond", "select", "--count", "2", "--arrow", "down").out
    assert wait_for_file(got, "blue") == "blue"
    assert 'arrow-key menu "? Pick a colour (Use arrow keys)": [red], green, blue' in done, done
    assert "sent: Down Down Enter" in done and "chosen: blue" in done, done


def test_an_inquirer_style_menu_moves_up_to_a_label(winctl, terminal, tmp_path: Path):
    """From the second option, select --text red presses Up once."""
    got = tmp_path / "got"
    terminal(f'{sys.executable} {MENU} {got} "Pick a colour" red green blue')
    winctl("keys", "Down")
    done = winctl("prompt-respond", "select", "--text", "red").out
    assert wait_for_file(got, "red") == "red"
    assert "red, [green], blue" in done and "sent: Up Enter" in done, done


def test_a_text_prompt_is_typed_into_through_the_daemon(winctl, daemon, terminal, tmp_path: Path):
    """`read -p "Name: "`: type --text sends the text and Enter; the script read it whole.
    Through the session's daemon, whose tree is kept live: the screen is read anew."""
    got = tmp_path / "got"
    terminal(f'read -p "Name: " n; printf %s "$n" > {got}; echo "hello $n"')
    assert "\n> Name:" in daemon("state").out
    refused = daemon("prompt-respond", "type", expect=2)
    assert "type needs --text" in refused.err, refused.err
    done = daemon("prompt-respond", "type", "--text", "Ada Lovelace").out
    assert wait_for_file(got, "Ada Lovelace") == "Ada Lovelace"
    assert 'text prompt "Name:"' in done and "hello Ada Lovelace" in done, done


def test_no_prompt_is_refused_and_nothing_is_sent(winctl, terminal, tmp_path: Path):
    """A program that prints and waits on a bare line shows no prompt: refused, and the line
    it reads stays empty (the file it would write never appears)."""
    got = tmp_path / "got"
    terminal(f'echo working; read x; printf %s "$x" > {got}')
    refused = winctl("prompt-respond", "enter", expect=3)
    assert "the terminal shows no prompt: nothing was sent" in refused.err and "working" in refused.err, refused.err
    time.sleep(1.0)
    assert not got.exists()


def test_state_lists_the_screen_rows_with_the_cursor_marked(winctl, terminal):
    """The terminal's element lists its rows, trailing blank rows dropped, the cursor's row
    led by "> "; in JSON as `screen` and `cursor_row`."""
    terminal('printf "one\\ntwo\\n"; read -p "three: " x')
    text = winctl("state").out
    assert "(screen, 3 rows; > marks the cursor's)\n  one\n  two\n> three:" in text, text
    found = [t for t in winctl.state()["targets"] if "screen" in t]
    assert found and found[0]["screen"] == ["one", "two", "three:"] and found[0]["cursor_row"] == 2, found


def test_open_terminal_runs_the_agent_named(winctl, desktop, tmp_path: Path, monkeypatch):
    """`open-terminal claude` runs `claude` from PATH (here a stand-in script that asks a
    question) and says what its screen shows; the answer reaches it."""
    folder = tmp_path / "bin"
    folder.mkdir()
    got = tmp_path / "got"
    agent = folder / "claude"
    agent.write_text(
        "#!/bin/bash\necho 'Claude stand-in'\n"
        f'read -p "Trust this folder? (y/n) " a\nprintf %s "$a" > {got}\nsleep 120\n'
    )
    agent.chmod(0o755)
    monkeypatch.setitem(desktop.env, "PATH", f"{folder}:{desktop.env['PATH']}")
    opened = winctl("--json", "open-terminal", "claude").json["result"]
    try:
        assert opened["command"] == "claude" and "Claude stand-in" in opened["shows"], opened
        assert "claude" in winctl("windows").out
        done = winctl("prompt-respond", "no").out
        assert wait_for_file(got, "n") == "n", done
    finally:
        stop_group(int(opened["pid"]))


def test_open_terminal_refuses_a_program_not_on_path(winctl, desktop):
    """A program not on PATH is refused before anything opens; custom needs --command."""
    before = winctl("windows").out
    refused = winctl("open-terminal", "custom", "--command", "no-such-program-x --flag", expect=3)
    assert "no-such-program-x is not on PATH: nothing was opened" in refused.err, refused.err
    refused = winctl("open-terminal", "custom", expect=2)
    assert "needs --command" in refused.err, refused.err
    ended = winctl("open-terminal", "custom", "--command", "true", expect=4)
    assert "true may have ended at once (the terminal closes when its command ends)" in ended.err, ended.err
    assert winctl("windows").out == before


@pytest.mark.parametrize("seconds", ["0.3", "1", "2"])
def test_a_command_that_ends_soon_after_its_window_shows_is_reported_ended(winctl, desktop, seconds):
    """A program that ends while its terminal is being read, at whichever point of the reading
    it happens (the window going during a read, or the process gone before its screen shows):
    the call fails saying the program ended, never that the app quit mid-read (exit 3), and
    nothing is left open. Seen once in a full run with `true`, where the window went mid-read."""
    before = winctl("windows").out
    ended = winctl("open-terminal", "custom", "--command", f"sleep {seconds}", expect=4)
    assert "sleep may have ended at once (the terminal closes when its command ends)" in ended.err, ended.err
    assert "while its window's elements were read" not in ended.err
    deadline = time.monotonic() + 5
    while winctl("windows").out != before and time.monotonic() < deadline:
        time.sleep(0.2)
    assert winctl("windows").out == before


def test_a_prompt_that_stays_unchanged_is_a_failure(winctl, terminal, tmp_path: Path):
    """A program that reads the answer without showing anything (no echo, nothing printed):
    the keys reach it, but the screen still shows the same question, so the call fails and
    says the prompt is still there."""
    got = tmp_path / "got"
    terminal(f'printf "Continue? [y/N] "; while read -r -s x; do printf %s "$x" >> {got}; done')
    failed = winctl("prompt-respond", "yes", expect=4)
    assert "the screen did not change: the prompt is still there" in failed.err, failed.err
    assert wait_for_file(got, "y") == "y"


def test_an_mcp_client_opens_a_terminal_and_answers_its_menu(desktop, tmp_path: Path):
    """The same two tools over MCP (profile `windows`): open_terminal, then prompt_respond
    select with a number in a bash `select` menu; the script read the option chosen."""
    got = tmp_path / "got"
    script = f'PS3="pick: "; select f in dev test prod; do printf %s "$f" > {got}; break; done; sleep 120'

    async def client(session):
        opened = await session.call_tool("open_terminal", {"agent": "custom", "command": f"bash -c '{script}'"})
        answered = await session.call_tool("prompt_respond", {"response": "select", "text": "3"})
        return opened, answered

    opened, answered = run_client(desktop, tmp_path, client, args=("mcp", "--tools", "windows", "--structured"))
    try:
        assert not opened.is_error and not answered.is_error, (opened.content, answered.content)
        assert wait_for_file(got, "prod") == "prod"
        assert "sent: '3' Enter" in answered.content[0].text, answered.content[0].text
    finally:
        stop_group(int(opened.structured_content["result"]["pid"]))
