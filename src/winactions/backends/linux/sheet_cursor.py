"""A click on a spreadsheet's cell, without the mouse: the cell cursor there, that cell alone selected.

As a mouse click leaves it: the sheet's selection cleared (`Selection.ClearSelection`), then
the cell's focus grabbed (`Component.GrabFocus`), then checked. LibreOffice Calc: the
selection's `SelectChild` adds the cell to what is marked and leaves the cursor where it was.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any, Protocol

from winactions.errors import ActionFailed

IFACE = "org.a11y.atspi."
ACCESSIBLE = IFACE + "Accessible"
PROPERTIES = "org.freedesktop.DBus.Properties"
FOCUSED_BIT = 1 << 12  # AtspiStateType FOCUSED: the sheet's cell cursor
CURSOR_SETTLE = 0.5  # s the app may take to show the cursor on the cell once asked
NAMED_SELECTED = 3  # selected cells an error names at most
METHOD = "Selection.ClearSelection+Component.GrabFocus"

Ref = tuple[str, str]


class _Client(Protocol):
    async def _maybe(
        self, dest: str, path: str, interface: str, method: str, signature: str = "", body: list[Any] | None = None
    ) -> Any: ...


async def put_cursor(client: _Client, sheet: Ref, cell: Ref) -> str:
    """Put the sheet's cell cursor on `cell` with no other cell selected, and check that the
    app shows it so (the cell focused, nothing else selected) within CURSOR_SETTLE; returns the
    method. ActionFailed, saying what the sheet shows instead, when it does not."""
    await client._maybe(sheet[0], sheet[1], IFACE + "Selection", "ClearSelection")
    took = await client._maybe(cell[0], cell[1], IFACE + "Component", "GrabFocus")
    if not took or not took[0]:
        raise ActionFailed(
            "the sheet's cell refused the cell cursor (Component.GrabFocus)",
            hint="click it with the mouse: `--via input`; or type its address in the Name Box",
        )
    wrong = await missed(client, sheet, cell)
    if wrong is not None:
        raise ActionFailed(
            f"the cell cursor did not land on the cell alone: {wrong}",
            hint="run `winctl state` to see the focused cell; `--via input` clicks it with the mouse",
        )
    return METHOD


async def missed(client: _Client, sheet: Ref, cell: Ref) -> str | None:
    """None once `cell` holds the cursor and no other cell is selected, within CURSOR_SETTLE;
    else what the sheet shows."""
    deadline = time.monotonic() + CURSOR_SETTLE
    while True:
        wrong = await _not_alone(client, sheet, cell)
        if wrong is None or time.monotonic() > deadline:
            return wrong
        await asyncio.sleep(0.05)


async def _not_alone(client: _Client, sheet: Ref, cell: Ref) -> str | None:
    """None when `cell` holds the cursor and no other cell is selected; else what shows."""
    states = await client._maybe(cell[0], cell[1], ACCESSIBLE, "GetState")
    focused = bool(states and states[0] and states[0][0] & FOCUSED_BIT)
    name = await _name(client, cell)
    count = await client._maybe(sheet[0], sheet[1], PROPERTIES, "Get", "ss", [IFACE + "Selection", "NSelectedChildren"])
    selected = int(count[0].value) if count else 0
    names = [await _selected_name(client, sheet, i) for i in range(min(selected, NAMED_SELECTED))]
    if focused and (selected == 0 or (selected == 1 and names == [name])):
        return None
    shown = ", ".join(n for n in names if n) + (", …" if selected > NAMED_SELECTED else "")
    if not focused:
        return (
            f"{name} does not hold the keyboard focus (another part of the window has it: keys typed "
            "now would go there)"
        )
    return f"{name} has the cursor, but {selected} cells are selected" + (f" ({shown})" if shown else "")


async def _selected_name(client: _Client, sheet: Ref, index: int) -> str:
    child = await client._maybe(sheet[0], sheet[1], IFACE + "Selection", "GetSelectedChild", "i", [index])
    if not child or not isinstance(child[0], (list, tuple)):
        return ""
    return await _name(client, (str(child[0][0]), str(child[0][1])))


async def _name(client: _Client, ref: Ref) -> str:
    named = await client._maybe(ref[0], ref[1], PROPERTIES, "Get", "ss", [ACCESSIBLE, "Name"])
    return str(named[0].value) if named else ""
