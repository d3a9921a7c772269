"""Typing whose outcome cannot be read back is said to be unchecked, never reported as checked."""

from __future__ import annotations

from typing import Any

from winactions import text_entry
from winactions.errors import ActionFailed
from winactions.model import Node


class Unreadable:
    """A backend whose element takes keys but whose text cannot be read (the read fails)."""

    def __init__(self) -> None:
        self.typed: list[str] = []

    def type_text(self, text: str) -> None:
        self.typed.append(text)

    def press_chords(self, chords: Any) -> None:
        self.typed.append(str(chords))

    def read_text(self, handle: str) -> str:
        raise ActionFailed("the element's text cannot be read")


def test_a_cell_that_cannot_be_read_back_is_said_unchecked(monkeypatch):
    """`type_into_cell` returned "" (a checked success) when the cell could not be read back."""
    monkeypatch.setattr(text_entry, "TYPED_SETTLE", 0.05)
    backend = Unreadable()
    cell = Node(handle=":1.5/cell#cell:3,2", parent=None, role="DataItem", native_role="table cell")
    note = text_entry.type_into_cell(backend, cell, "450")  # type: ignore[arg-type]
    assert note == text_entry.UNCHECKED
    assert backend.typed[0] == "450"


def test_a_field_that_cannot_be_read_back_is_said_unchecked(monkeypatch):
    monkeypatch.setattr(text_entry, "TYPED_SETTLE", 0.05)
    field = Node(handle=":1.5/entry", parent=None, role="Edit", native_role="text")
    assert text_entry._reads_otherwise(Unreadable(), field, None, "Ada") == text_entry.UNCHECKED  # type: ignore[arg-type]
