"""How `input` by keyboard recognises text typed into the old text instead of over it."""

from __future__ import annotations

from winactions.text_entry import _typed_into


def test_the_new_text_found_where_the_cursor_was():
    assert _typed_into("old tenewxt", "old text", "new") == 6  # the click put the cursor mid-word
    assert _typed_into("newold text", "old text", "new") == 0  # ctrl+a went to the start
    assert _typed_into("old textnew", "old text", "new") == 8  # the cursor was at the end
    assert _typed_into("XYXY", "XY", "XY") == 0  # the new text is the old: either place is the same outcome


def test_anything_else_is_not_taken_for_it():
    assert _typed_into("new", "old text", "new") is None  # replaced, as asked
    assert _typed_into("old text", "old text", "new") is None  # nothing typed yet
    assert _typed_into("old textne", "old text", "new") is None  # still arriving
    assert _typed_into("NEW old text", "old text", "new") is None  # an app that changed what it got
    assert _typed_into(None, "old text", "new") is None  # unreadable


def test_a_long_document_is_checked_without_copying_it_for_every_place():
    page = "lorem ipsum " * 50_000  # 600,000 characters: one string per place would be 360 GB
    assert _typed_into(page + "the end", page, "the end") == len(page)
    assert _typed_into(page[:100] + "x" + page[100:], page, "x") == 100
