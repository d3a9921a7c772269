"""Which characters `select-text` selects, from its parameters and the element's text."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from winactions.commands.selecting import SelectTextParams, _range
from winactions.errors import InvalidInput, NotFound

TEXT = "An Important note; the important part."


def params(**given: object) -> SelectTextParams:
    return SelectTextParams.model_validate({"id": 3, **given})


def test_a_word_is_found_by_exact_case_first_then_ignoring_case():
    assert _range(params(text="important"), TEXT) == (23, 32)  # the exact match, though a later one
    assert _range(params(text="IMPORTANT"), TEXT) == (3, 12)  # no exact match: the first ignoring case
    assert _range(params(text="important", occurrence=2), TEXT.lower()) == (23, 32)


def test_offsets_are_taken_as_given_within_the_text():
    assert _range(params(start=0, end=2), TEXT) == (0, 2)
    with pytest.raises(InvalidInput, match="past the element's text"):
        _range(params(start=0, end=len(TEXT) + 1), TEXT)


def test_a_missing_word_says_how_often_it_is_there():
    with pytest.raises(NotFound, match=r"'important' is not in the element's text 3 times \(only 2\)"):
        _range(params(text="important", occurrence=3), TEXT)
    with pytest.raises(NotFound, match="not in the element's text; nothing was selected"):
        _range(params(text="absent"), TEXT)


@pytest.mark.parametrize(
    "given",
    [{}, {"text": "a", "start": 0, "end": 1}, {"start": 1}, {"start": 3, "end": 3}, {"text": ""}],
)
def test_one_way_of_saying_what_to_select(given):
    with pytest.raises(ValidationError):
        params(**given)
