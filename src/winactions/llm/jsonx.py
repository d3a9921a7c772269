"""Pull the JSON out of a model's reply, which rarely contains only JSON.

Models wrap JSON in code fences, put prose before or after it, or answer with several
fragments. We try, in order: the whole text; each fenced block; then, from each `[` or `{`
left to right, the JSON decoder itself (which knows strings and escapes) — so the earliest,
outermost complete value wins: `[1, 2] and then [3]` yields `[1, 2]`, a `]` inside a quoted
name does not end the array early, and an unclosed `[` is skipped for the next one.
"""

from __future__ import annotations

import contextlib
import json
import re
from collections.abc import Iterator
from typing import Any

_FENCE = re.compile(r"```(?:json|JSON)?\s*\n?(.*?)```", re.DOTALL)
_DECODER = json.JSONDecoder()


class NoJSON(ValueError):
    """The reply holds no parseable JSON; `reply` keeps it for the error message."""

    def __init__(self, reply: str) -> None:
        super().__init__("the reply holds no JSON")
        self.reply = reply


def extract_json(text: str, *, want: type | None = None) -> Any:
    """The first JSON value in `text` (of type `want`, list or dict, if given)."""
    for value in _values(text):
        if want is None or isinstance(value, want):
            return value
    raise NoJSON(text)


def _values(text: str) -> Iterator[Any]:
    for whole in [text.strip(), *(m.group(1).strip() for m in _FENCE.finditer(text))]:
        with contextlib.suppress(ValueError):
            yield json.loads(whole)
    for start, ch in enumerate(text):
        if ch in "[{":
            try:
                yield _DECODER.raw_decode(text, start)[0]
            except ValueError:
                continue
