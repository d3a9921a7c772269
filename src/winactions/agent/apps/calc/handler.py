"""Code hooks of the calc module, loaded by path by the task runner.

`read_file(path) -> str` gives the success checks (`file_contains`, `file_equals`) the text
of a document Calc saved: OpenDocument and Office Open XML read from their XML, a sheet one
row a line (cells joined by tabs), anything else as UTF-8 text.

`plan(task, state) -> dict | None` plans what a template cannot: a column or a row filled
with a list of values, one cell each ("fill column B from B2 with 3, 5, 8 and save",
"fill row 4 with north, south"). None for any other task (the templates take it).
"""

from __future__ import annotations

import re
from typing import Any

from winactions.agent.documents import document_text as read_file
from winactions.agent.odf import column_letters, column_number

__all__ = ["plan", "read_file"]

_ADDRESS = r"[a-z]{1,3}[0-9]{1,7}"
_IN_APP = r"(?: in (?:libre ?office )?(?:calc|the spreadsheet))?"
_FILL = re.compile(
    r"(?:in (?:libre ?office )?(?:calc|the spreadsheet),? )?"
    rf"fill (?:(?:column|col) (?P<column>[a-z]{{1,3}})|row (?P<row>[0-9]{{1,7}})){_IN_APP}"
    rf"(?: (?:from|starting at|at) (?P<start>{_ADDRESS}))? with (?P<values>.+?)"
    rf"{_IN_APP}(?P<save> and save(?: it)?)?",
    re.IGNORECASE,
)
MAX_VALUES = 200


def plan(task: str, state: object = None) -> dict[str, Any] | None:
    """The steps that fill a column (Enter after each value) or a row (Tab) from its start
    cell (the column's row 1 / the row's column A unless given), then check the last cell's
    content in the Input line, then save when asked. None: not such a task, or one value
    only (the fill_range template enters one value into a range)."""
    found = _FILL.fullmatch(task.strip())
    if found is None:
        return None
    values = [v.strip().strip("\"'") for v in found["values"].split(",")]
    if len(values) < 2 or len(values) > MAX_VALUES or any(not v or "\n" in v or "\t" in v for v in values):
        return None
    down = found["column"] is not None
    start = (found["start"] or (f"{found['column']}1" if down else f"A{found['row']}")).upper()
    column, row = re.fullmatch(r"([A-Z]+)([0-9]+)", start).groups()  # type: ignore[union-attr]
    if (down and column != found["column"].upper()) or (not down and row != found["row"]):
        return None  # "fill column B from C2": the start is not in that column
    if down:
        last = f"{column}{int(row) + len(values) - 1}"
    else:
        last = f"{column_letters(column_number(column) + len(values) - 1)}{row}"
    steps: list[dict[str, Any]] = [
        {"action": "press_key", "params": {"keys": "Escape"}, "description": "leave any cell being edited"},
        *_go_to(start),
        {
            "action": "input_text",
            "params": {"text": ("\n" if down else "\t").join(values) + "\n"},
            "description": "each value into its cell: " + ("Enter moves down" if down else "Tab moves right"),
        },
        *_go_to(last),
    ]
    steps[-1].update(expect={"text": {"Input line": values[-1]}}, retry=0)
    if found["save"]:
        steps.append({"action": "press_key", "params": {"keys": "ctrl+s"}, "description": "save", "wait_after": 1500})
    where = f"{start}:{last}"
    saved = " and the spreadsheet is saved" if found["save"] else ""
    return {
        "analysis": {"handler": "calc/fill", "parameters": {"range": where, "values": values}},
        "steps": steps,
        "success_criteria": f"{where} holds {', '.join(values)}{saved}",
        # checked by code: the last cell (the cursor is on it) holds the last value; a save
        # that asks something (Keep Format) leaves a dialog, which fails the run
        "success": {"element": {"name": "Input line", "equals": values[-1]}},
    }


def _go_to(address: str) -> list[dict[str, Any]]:
    return [
        {"action": "press_key", "params": {"keys": "ctrl+shift+F5"}, "description": "focus the Name Box"},
        {"action": "input_text", "params": {"text": f"{address}\n"}, "description": f"go to {address}"},
    ]
