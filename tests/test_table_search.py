"""How `find TEXT` reads a sheet and a tree out of view (backends/linux/table_search.py), over a
fake AT-SPI client that counts the cells it hands out: each costs LibreOffice memory it never
frees, so a search reads the used area only, and never more than its cap."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

from winactions.backends.linux import table_search
from winactions.backends.linux.table_search import IFACE, sheet_matches, walk_matches


class FakeSheet:
    """A sheet of 2**31 cells whose first `rows` rows hold text in columns A..D."""

    def __init__(self, rows: int) -> None:
        self.rows = rows
        self.asked: list[tuple[int, int]] = []

    async def _sheet_cell(self, table: Any, place: tuple[int, int]) -> tuple[str, str]:
        self.asked.append(place)
        return ":1.5", f"/cell/{place[0]}/{place[1]}"

    async def _maybe(
        self, dest: str, path: str, interface: str, method: str, signature: str = "", body: list[Any] | None = None
    ) -> Any:
        if method == "Get" and body and body[1] in ("NRows", "NColumns"):
            return [SimpleNamespace(value=1_048_576 if body[1] == "NRows" else 1024)]
        if interface == IFACE + "Text":
            _, _, row, col = path.split("/")
            r, c = int(row), int(col)
            return [f"INV-{r:04d}" if c == 0 and 0 < r <= self.rows else ("x" if c < 4 and r <= self.rows else "")]
        return None

    async def _children(self, ref: Any) -> list[Any]:
        return []


def test_a_sheet_is_read_over_its_used_area_only():
    sheet = FakeSheet(rows=300)
    found, cut = asyncio.run(sheet_matches(sheet, (":1.5", "/table"), "inv-0277"))
    assert [(m.handle, m.text, m.place) for m in found] == [(":1.5/table#cell:277,0", "INV-0277", (277, 0))]
    assert not cut
    assert max(c for r, c in sheet.asked if r >= table_search.FIRST_ROWS) == 3  # the used columns only
    assert max(r for r, _ in sheet.asked) < 300 + 2 * table_search.BLOCK_ROWS  # stopped after the data


def test_a_sheet_search_stops_at_its_cap_and_says_so():
    sheet = FakeSheet(rows=100_000)
    found, cut = asyncio.run(sheet_matches(sheet, (":1.5", "/table"), "INV-9999", limit=2000))
    assert cut and not found and len(sheet.asked) == 2000


class FakeTree:
    """A list of rows, each a cell whose text child repeats its name."""

    def __init__(self) -> None:
        self.kids = {("a", "/list"): [("a", f"/row{i}") for i in range(3)]}
        for i in range(3):
            self.kids[("a", f"/row{i}")] = [("a", f"/row{i}/text")]
        self.names = {
            **{("a", f"/row{i}"): f"report-{i}" for i in range(3)},
            **{("a", f"/row{i}/text"): f"report-{i}" for i in range(3)},
        }

    async def _children(self, ref: Any) -> list[Any]:
        return self.kids.get(ref, [])

    async def _maybe(
        self, dest: str, path: str, interface: str, method: str, signature: str = "", body: list[Any] | None = None
    ) -> Any:
        ref = (dest, path)
        if method == "Get" and body and body[1] == "Name":
            return [SimpleNamespace(value=self.names.get(ref, ""))]
        if method == "Get" and body and body[1] == "ChildCount":
            return [SimpleNamespace(value=len(self.kids.get(ref, [])))]
        if method == "GetRole":
            return [29]  # a filler: its children are read
        return None

    async def _sheet_cell(self, table: Any, place: Any) -> Any:
        raise AssertionError("no sheet here")


def test_a_match_inside_a_match_is_left_out():
    found, cut, sheets = asyncio.run(walk_matches(FakeTree(), [("a", "/list")], "REPORT-1", 100, 2000, 1_000_000))
    assert [m.handle for m in found] == ["a/row1"] and not cut and sheets == []


def test_a_walk_stops_at_its_limit_and_says_so():
    found, cut, _ = asyncio.run(walk_matches(FakeTree(), [("a", "/list")], "report-2", 2, 2000, 1_000_000))
    assert cut and found == []
