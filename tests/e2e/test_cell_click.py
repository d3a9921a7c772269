"""A click on a sheet's cell puts Calc's cell cursor there, that cell alone selected (issue 39).

`winctl click C3` said done, but it went through AT-SPI `Selection.SelectChild`, which adds the
cell to the sheet's marked range and leaves the cell cursor where it was: the Name Box read
`C2:C3`, Bold (ctrl+b, the toolbar's button) made the old cell or the whole range bold, and
the text typed next went into the old cell. An agent clicking a cell means what a mouse click
there does. Each test checks the saved .ods: only the cells clicked changed.
"""

from __future__ import annotations

import re

import pytest

from tests.conftest import Winctl
from tests.e2e.helpers.mcp_client import run_client
from tests.e2e.helpers.office import invoices, saved
from winactions.agent import odf

pytestmark = pytest.mark.desktop


def cursor(winctl: Winctl, *session: str) -> str:
    """The cell the sheet's state names as focused (its cell cursor)."""
    text = winctl(*session, "state").out
    found = re.search(r"focused ([A-Z]+[0-9]+) \[", text)
    assert found, text
    return found.group(1)


def test_a_clicked_cell_takes_the_cursor_alone_then_bold_and_typing_reach_it(winctl: Winctl, sheet):
    """By address and by id, in the CLI and the daemon, in view and out of it: each click moves
    the cell cursor there alone; Bold (ctrl+b, the toolbar's button) and the text typed next
    change that cell only."""
    clicked = winctl("click", "C3").out
    assert "C3" in clicked and cursor(winctl) == "C3", clicked
    winctl("keys", "ctrl+b")
    winctl("click", "B5")
    winctl("type", "Hooli")
    winctl("keys", "Enter")
    daemon = ("--session", "cells")
    state = winctl(*daemon, "--json", "state").json["result"]
    d4 = next(t["id"] for t in state["targets"] if t["name"] == "D4")
    winctl(*daemon, "click", str(d4))
    assert cursor(winctl, *daemon) == "D4"
    winctl(*daemon, "type", "Paid")
    winctl(*daemon, "keys", "Enter")
    winctl(*daemon, "click", "D278")  # out of view: scrolled to
    winctl(*daemon, "type", "Paid")
    winctl(*daemon, "keys", "Enter")
    winctl("session", "close", "cells")
    winctl("click", "A2")
    pressed = winctl("click", "Bold").out  # the toolbar's button acts on the cell cursor's cell
    assert "Bold" in pressed, pressed
    before = sheet.stat().st_mtime
    winctl("keys", "ctrl+s")
    wanted = [[str(v) for v in row] for row in invoices()]
    wanted[4][1], wanted[3][3], wanted[277][3] = "Hooli", "Paid", "Paid"
    assert saved(sheet, before) == wanted
    assert odf.bold_cells(sheet) == {"C3", "A2"}


def test_input_after_a_click_writes_its_own_cell(winctl: Winctl, sheet):
    """`input` on a cell focuses it and checks its text: after a click elsewhere has left that
    cell selected, it still writes only the cell it names."""
    winctl("click", "B2")
    winctl("input", "C7", "999")
    winctl("click", "D9")
    winctl("input", "B3", "Acme")
    before = sheet.stat().st_mtime
    winctl("keys", "ctrl+s")
    wanted = [[str(v) for v in row] for row in invoices()]
    wanted[6][2], wanted[2][1] = "999", "Acme"
    assert saved(sheet, before) == wanted


def test_a_cell_clicked_through_mcp_takes_the_cursor(desktop, tmp_path, sheet):
    """The same through MCP: `click` on C5, then `type` writes C5 alone."""

    async def script(session):
        await session.call_tool("focus", {"window": "invoices.ods - LibreOffice Calc"})
        clicked = await session.call_tool("click", {"name": "C5"})
        typed = await session.call_tool("type", {"text": "77"})
        entered = await session.call_tool("keys", {"keys": "Enter"})
        saving = await session.call_tool("keys", {"keys": "ctrl+s"})
        return clicked, typed, entered, saving

    before = sheet.stat().st_mtime
    results = run_client(desktop, tmp_path, script)
    assert not any(r.is_error for r in results), [r.content for r in results]
    wanted = [[str(v) for v in row] for row in invoices()]
    wanted[4][2] = "77"
    assert saved(sheet, before) == wanted


def test_a_cell_clicked_while_the_find_bar_has_the_keys_takes_them(winctl: Winctl, sheet):
    """With Calc's Find toolbar holding the keyboard focus, the cell's focus through the tree
    moves the cell cursor but not the keys: the click said done and the text typed next went
    into the search field. The check sees the cell does not hold the keys: `--via semantic`
    fails saying so (exit 4), and the default click takes the mouse, which gives the sheet
    the keys; the text typed then is in the cell."""
    winctl("keys", "ctrl+f")
    refused = winctl("click", "--via", "semantic", "C6", expect=4)
    assert "C6 does not hold the keyboard focus" in refused.err, refused.err
    clicked = winctl("click", "C6").out
    assert "mouse" in clicked, clicked
    winctl("type", "321")
    winctl("keys", "Enter")
    before = sheet.stat().st_mtime
    winctl("keys", "ctrl+s")
    wanted = [[str(v) for v in row] for row in invoices()]
    wanted[5][2] = "321"
    assert saved(sheet, before) == wanted
