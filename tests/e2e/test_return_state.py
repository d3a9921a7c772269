"""`--return-state` prints what the action changed, not the whole window again (issue 39.3).

In both rounds of the agent trial, agents added `--return-state` to most actions (64 times
in 28 runs) and each time read the whole window again: ~500 lines on LibreOffice Calc after
`keys ctrl+s`, ~80 on Gnumeric; some tried `keys ... --return-state --max-elements 15`,
which `keys` refused. Now an action's returned state is the diff `state --diff` prints,
against the state the caller saw last; a dialog the action opened is listed whole. Checked
on Mousepad, Geany and Calc through the one-shot CLI and the session's daemon; outcomes in
the app (its title by wmctrl/xdotool, its file on disk).
"""

from __future__ import annotations

import re

import pytest

from tests.conftest import start_app, stop_app
from tests.e2e.helpers.apps import active_title, document, wait_for_file, wait_title
from tests.e2e.helpers.office import cell, saved_rows
from tests.fixtures.toolkit_apps import mousepad_command

pytestmark = pytest.mark.desktop
ELEMENT = re.compile(r"^\[\d+\] \[")  # an element listed as `state` lists it: not a change


def element_lines(out: str) -> list[str]:
    return [line for line in out.splitlines() if ELEMENT.match(line)]


def unchanged(out: str) -> int:
    found = re.search(r"^\((\d+) unchanged\)$", out, re.M)
    assert found, out
    return int(found.group(1))


@pytest.mark.parametrize("via", ["cli", "daemon"])
def test_an_input_returns_the_changed_element_and_not_the_unchanged(desktop, tmp_path, winctl, daemon, via):
    """Mousepad: `input DOC text --return-state` printed all 24 elements again; now the
    document's `~` line (its value before and after), the toolbar buttons it enabled, and
    how many stayed unchanged. `keys ctrl+s --return-state --max-elements 1` lists one
    change and says how many more there are (`keys` refused --max-elements before)."""
    front = winctl if via == "cli" else daemon
    doc = tmp_path / "notes.txt"
    doc.write_text("draft\n")
    proc = start_app(desktop, mousepad_command(doc), "notes.txt")
    try:
        text = document(front)  # the state the agent saw: the diff's "before"
        out = front("input", str(text), "changed by winctl", "--return-state").out
        assert out.splitlines()[0].startswith(f"input [{text}] [Edit]"), out
        lines = out.splitlines()
        assert any(line.startswith(f"~ [{text}] [Edit]") and '-> "changed by winctl"' in line for line in lines), out
        assert not element_lines(out), f"unchanged elements printed again:\n{out}"
        assert unchanged(out) >= 10, out
        assert any(line.startswith('Window: "*') and line.endswith(" modified") for line in lines), out
        assert wait_title(desktop, "notes.txt", starred=True).startswith("*")  # the app's own word

        saved = front("keys", "ctrl+s", "--return-state", "--max-elements", "1").out
        changes = [line for line in saved.splitlines() if line.startswith(("~ ", "+ ", "- "))]
        assert len(changes) == 1 and "(1 more changes not listed (--max-elements))" in saved, saved
        assert not element_lines(saved), saved
        assert not wait_title(desktop, "notes.txt", starred=False).startswith("*")
        assert "changed by winctl" in wait_for_file(doc, "changed by winctl")
    finally:
        stop_app(proc)


@pytest.mark.parametrize("via", ["cli", "daemon"])
def test_max_elements_without_return_state_is_refused_before_acting(desktop, tmp_path, winctl, daemon, via):
    """`--max-elements` on an action caps what `--return-state` lists; alone it would be
    silently ignored, so it is refused, with what to do, and nothing is sent to the app."""
    front = winctl if via == "cli" else daemon
    doc = tmp_path / "notes.txt"
    doc.write_text("draft\n")
    proc = start_app(desktop, mousepad_command(doc), "notes.txt")
    try:
        text = document(front)
        refused = front("input", str(text), "never typed", "--max-elements", "3", expect=None)
        assert refused.code != 0 and "--max-elements caps what --return-state lists" in refused.err, refused.err
        assert "add --return-state" in refused.err and "internal error" not in refused.err
        assert not wait_title(desktop, "notes.txt", starred=False).startswith("*")  # nothing was typed
        bad = front("input", str(text), "never typed", "--return-state", "--max-elements", "0", expect=None)
        assert bad.code != 0 and "internal error" not in bad.err and "--max-elements" in bad.err, bad.err
    finally:
        stop_app(proc)


@pytest.mark.parametrize("via", ["cli", "daemon"])
def test_a_click_that_opens_a_dialog_returns_the_dialog_whole(winctl, daemon, desktop, geany, via):
    """Geany: the toolbar's Open opens the file chooser. The state seen before was of the
    main window, so every element of the dialog is new: the diff says so and lists it whole
    (the agent needs all of it), not one line of the main window."""
    front = winctl if via == "cli" else daemon
    front("focus", geany)
    main = front.state()
    open_button = next(t["id"] for t in main["targets"] if t["type"] == "Button" and t["name"] == "Open")
    out = front("click", str(open_button), "--return-state").out
    assert "Open" in active_title(desktop)  # the app opened its dialog (xdotool reads it)
    assert "(the previous state was of another window: every element is new)" in out, out
    added = [line for line in out.splitlines() if line.startswith("+ [")]
    assert any('[Button] "Cancel"' in line for line in added), out
    assert len(added) > 10 and unchanged(out) == 0, out
    assert not any('[Menu] "Build"' in line for line in out.splitlines()), out  # nothing of the main window
    assert not element_lines(out), out
    front("keys", "Escape")


def test_a_calc_input_returns_far_fewer_bytes_than_the_whole_sheet(winctl, calc):
    """Calc lists every visible cell: an `input` with `--return-state` printed them all again
    (the action's line and the whole state). Now the cell's change and a few toolbar states;
    the cell lands in the saved file."""
    data, _ = calc
    c4 = cell(winctl.state(), "C4")
    whole = len(winctl("state", "--all").out.encode())  # what the returned state used to add to the action's line
    out = winctl("input", str(c4["id"]), "typed by winctl", "--enter", "--return-state").out
    print(f"calc: whole state {whole} bytes, input --return-state {len(out.encode())} bytes")
    assert "(no previous state" not in out and "another window" not in out, out
    assert not element_lines(out), out
    assert len(out.encode()) * 4 < whole, out
    rows = saved_rows(winctl, data, lambda rows: len(rows) >= 4 and len(rows[3]) >= 3 and bool(rows[3][2]))
    assert rows[3] == ["", "", "typed by winctl"], rows
