"""The shared key parser: human key names in, canonical chords out, bad names rejected."""

import pytest

from winactions.errors import InvalidInput
from winactions.keys import NAMED_KEYS, Chord, parse_keys


@pytest.mark.parametrize(
    "spec, expected",
    [
        ("ctrl+a", [Chord(("ctrl",), "a")]),
        ("Ctrl+Shift+S", [Chord(("ctrl", "shift"), "s")]),
        ("shift+ctrl+s", [Chord(("ctrl", "shift"), "s")]),
        ("Enter", [Chord((), "Enter")]),
        ("return", [Chord((), "Enter")]),
        ("alt+f4", [Chord(("alt",), "F4")]),
        ("esc", [Chord((), "Escape")]),
        ("win+e", [Chord(("super",), "e")]),
        ("cmd+c", [Chord(("super",), "c")]),
        ("ctrl+a Delete", [Chord(("ctrl",), "a"), Chord((), "Delete")]),
        ("Down, Down, Enter", [Chord((), "Down"), Chord((), "Down"), Chord((), "Enter")]),
        ("ctrl++", [Chord(("ctrl",), "+")]),
        ("+", [Chord((), "+")]),
        ("ctrl+plus", [Chord(("ctrl",), "+")]),
        ("ctrl+comma", [Chord(("ctrl",), ",")]),  # "ctrl+," would be ctrl+ then nothing: a comma separates chords
        ("ctrl+Period ctrl+slash", [Chord(("ctrl",), "."), Chord(("ctrl",), "/")]),
        ("ctrl+backslash", [Chord(("ctrl",), "\\")]),
        ("ctrl+BracketLeft", [Chord(("ctrl",), "[")]),
        ("A", [Chord((), "A")]),
        ("pgdn", [Chord((), "PageDown")]),
        ("ctrl+shift+Left", [Chord(("ctrl", "shift"), "Left")]),
        ("shift", [Chord((), "shift")]),
        ("F12", [Chord((), "F12")]),
    ],
)
def test_parses_human_key_names(spec, expected):
    assert parse_keys(spec) == expected


def test_every_named_key_parses_to_itself():
    for name in NAMED_KEYS:
        assert parse_keys(name) == [Chord((), name)]
        assert parse_keys(name.lower()) == [Chord((), name)]


@pytest.mark.parametrize(
    "spec, fragment",
    [
        ("ctrl+shfit+s", "shfit"),
        ("Entr", "Entr"),
        ("", "no keys"),
        ("ctrl+", "empty key"),
        ("a+b", "not a modifier"),
    ],
)
def test_bad_key_names_fail_with_a_hint(spec, fragment):
    with pytest.raises(InvalidInput) as err:
        parse_keys(spec)
    assert fragment in err.value.message
    assert err.value.hint


def test_typo_suggests_the_right_name():
    with pytest.raises(InvalidInput) as err:
        parse_keys("Entr")
    assert "Enter" in err.value.hint
    with pytest.raises(InvalidInput) as err:
        parse_keys("ctrl+shfit+s")
    assert "shift" in err.value.hint
