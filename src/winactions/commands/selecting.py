"""`select-text`: select a range of the text inside an element — a word found by its text, or
characters by offset — through the element's text interface, else by the keyboard from a
caret placed there; the result says what the app shows selected, read back. The element is
given the keyboard focus first (before the selection: a GTK entry selects all its text when
it takes the focus), so that the keys pressed next act on the selection."""

from __future__ import annotations

import time

from pydantic import Field, model_validator

from winactions import text_entry
from winactions.backends.base import Backend
from winactions.commands.base import Context, Kind, Params, Ref, command
from winactions.commands.results import ActionResult
from winactions.errors import ActionFailed, InvalidInput, NotFound, shown
from winactions.execution import Via
from winactions.keys import Chord
from winactions.model import Node, Target

SELECTION_SETTLE = 0.6  # s for the app to show a selection made through the tree or by keys
KEYS_LIMIT = 2000  # characters at most selected by shift+Right, one key each


class SelectTextParams(Params):
    id: Ref = Field(description="element id from `winctl state` (a field, a paragraph, a document)")
    text: str | None = Field(None, description="the text to select (its first match; see --occurrence)")
    occurrence: int = Field(1, ge=1, le=1000, description="which match of TEXT: 1 the first")
    start: int | None = Field(None, ge=0, description="select from this character offset (with --end)")
    end: int | None = Field(None, ge=0, description="... to this offset, not included")

    @model_validator(mode="after")
    def _one_way(self) -> SelectTextParams:
        by_offset = self.start is not None or self.end is not None
        if (self.text is None) == (not by_offset):
            raise ValueError("give the TEXT to select, or --start and --end, not both")
        if by_offset and (self.start is None or self.end is None or self.start >= self.end):
            raise ValueError("--start and --end go together, with start before end")
        if not self.text and not by_offset:
            raise ValueError("the text to select cannot be empty")
        return self


@command("select-text", SelectTextParams, kind=Kind.ACTION, positional=("id", "text"), profiles=("vision",))
def select_text(ctx: Context, p: SelectTextParams) -> ActionResult:
    """Select text inside an element: `select-text ID "word"` (the first match, or
    --occurrence N) or `select-text ID --start N --end M`; then `keys ctrl+b`, `keys ctrl+c`.
    The result says what the app shows selected."""
    backend = ctx.session.backend
    target, node = ctx.session.resolve_ref(p.id, ctx.window(), takes_text=True)
    if node is None or node.handle is None:
        raise ActionFailed(
            f"element {p.id} has no text winctl can read (it was found on screen, not in the tree)",
            hint="select with the mouse: `winctl drag-at X1 Y1 X2 Y2` across the text",
        )
    whole = backend.read_text(node.handle)
    start, end = _range(p, whole)
    backend.ensure_active(ctx.window())
    if backend.holds_focus(node.handle) is False:  # keys pressed next (ctrl+b, typing) act on the selection
        text_entry.take_focus(backend, ctx.window(), target, node, Via.AUTO, "nothing was selected")
    method = _select(backend, target, node, start, end)
    wanted = whole[start:end]
    shown_now = _read_back(backend, node.handle, (start, end))
    if shown_now is None:
        note = "the app's selection could not be read back: not checked"
    elif shown_now != (start, end):
        raise ActionFailed(
            f"asked for characters {start}-{end} ({shown(wanted, 60)}), but the app shows "
            f"{shown_now[0]}-{shown_now[1]} ({shown(whole[shown_now[0] : shown_now[1]], 60)}) selected",
            hint="read it with `winctl get text ID`; select again, or with the mouse (`drag-at`)",
        )
    else:
        note = "read back from the app"
    return ActionResult(
        action="select-text",
        method=method,
        target=target,
        detail=f"selected {shown(wanted, 80)} (characters {start}-{end}); {note}",
    )


def _range(p: SelectTextParams, whole: str) -> tuple[int, int]:
    """(start, end) in the element's text: the `occurrence`th match of `p.text` (exact case
    first, else ignoring case), or the offsets given; NotFound / InvalidInput otherwise."""
    if p.text is None:
        assert p.start is not None and p.end is not None
        if p.end > len(whole):
            raise InvalidInput(
                f"--end {p.end} is past the element's text ({len(whole)} characters); nothing was selected",
                hint="`winctl get text ID` shows its text",
            )
        return p.start, p.end
    for haystack, needle in ((whole, p.text), (whole.lower(), p.text.lower())):
        at = -1
        for _ in range(p.occurrence):
            at = haystack.find(needle, at + 1)
            if at < 0:
                break
        if at >= 0:
            return at, at + len(p.text)
    count = whole.lower().count(p.text.lower())
    raise NotFound(
        f"{shown(p.text, 60)} is not in the element's text"
        + (f" {p.occurrence} times (only {count})" if count else "")
        + "; nothing was selected",
        hint=f"its text begins {shown(whole, 80)}; `winctl get text ID` shows all of it",
    )


def _select(backend: Backend, target: Target, node: Node, start: int, end: int) -> str:
    """Select through the text interface, else put the caret at `start` and press shift+Right
    up to `end`; the method said in the result."""
    if backend.select_text(node.handle, start, end):
        return "Text.SetSelection"
    if end - start > KEYS_LIMIT:
        raise ActionFailed(
            f"element {target.id} takes no selection through its text interface, and "
            f"{end - start} characters are too many to select by keys ({KEYS_LIMIT} at most); nothing was selected",
            hint="select less, or with the mouse (`winctl drag-at X1 Y1 X2 Y2`)",
        )
    if not backend.place_caret(node.handle, start):
        raise ActionFailed(
            f"element {target.id} takes neither a selection nor a caret through its text interface; "
            "nothing was selected",
            hint="click where the text starts, then `winctl keys shift+Right` (or drag across it with `drag-at`)",
        )
    backend.press_chords([Chord(("shift",), "Right")] * (end - start))
    return "caret and shift+Right"


def _read_back(backend: Backend, handle: str, wanted: tuple[int, int]) -> tuple[int, int] | None:
    """The selection the app shows once it is `wanted`, or as it is after SELECTION_SETTLE."""
    deadline = time.monotonic() + SELECTION_SETTLE
    while True:
        now = backend.text_selection(handle)
        if now == wanted or time.monotonic() > deadline:
            return now
        time.sleep(0.03)
