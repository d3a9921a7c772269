"""What a terminal's screen shows, as lines, and the prompt on it (platform-neutral).

`screen_lines` turns a terminal's text and cursor offset into its rows (trailing blanks dropped,
the cursor's row known); `read_prompt` finds what the program there asks, in this order:

- `yes_no`: a question with `[y/N]`, `(y/n)`, `[yes/no]` on the cursor's row;
- `arrow_menu`: options one a row, the highlighted one marked by `>` or an arrow
  (U+276F, U+203A, U+2192, U+25B8, U+27A4)
  (inquirer, prompts, enquirer), or — where the screen shows no marker, as whiptail and dialog
  draw their lists in colours — the row the cursor sits on inside a `│` frame (newt and curses
  put the cursor on the current item);
- `numbered`: "1) foo" options (bash `select`, several a row too) above a row that waits with
  the cursor;
- `text`: a row that waits with the cursor after a `:`, `?`, `>`, `$`, `#`, `%`
  or an angle quote (U+203A, U+00BB).

Standard library only: it reads text, it does not read or drive a terminal.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

YES_NO = re.compile(r"[\[(]\s*(y(?:es)?\s*/\s*n(?:o)?)\s*[\])]", re.IGNORECASE)
MARKERS = ("\u276f", "\u203a", ">", "\u2192", "\u25b8", "\u27a4")
# "1) foo" and "12. bar", several a row in columns (bash `select` pads them with tabs)
NUMBERED = re.compile(r"(?:^|\s)(\d{1,3})[).]\s+(\S.*?)(?=(?:\t|\s{2,})\s*\d{1,3}[).]\s|\s*$)")
PROMPT_ENDS = (":", "?", "\u203a", ">", "$", "#", "%", "\u00bb")
FRAME = "│┃|║"


@dataclass(frozen=True)
class ScreenLines:
    """A screen's rows (trailing spaces and trailing blank rows dropped) and the index of the
    cursor's row in them (None where the cursor is unknown)."""

    rows: list[str]
    cursor: int | None
    column: int | None = None  # the cursor's column in its row

    def tail(self, count: int = 4) -> list[str]:
        """The last `count` non-blank rows."""
        return [r for r in self.rows if r.strip()][-count:]


def screen_lines(text: str, cursor: int | None) -> ScreenLines:
    """The rows of a terminal's text; the cursor's row is kept even when blank."""
    rows = [row.rstrip() for row in text.split("\n")]
    row = col = None
    if cursor is not None and 0 <= cursor <= len(text):
        row = text.count("\n", 0, cursor)
        col = cursor - (text.rfind("\n", 0, cursor) + 1)
    keep = len(rows)
    while keep > 0 and not rows[keep - 1] and (row is None or keep - 1 > row):
        keep -= 1
    return ScreenLines(rows[:keep], row, col)


LABELS = {"yes_no": "y/n question", "numbered": "numbered menu", "arrow_menu": "arrow-key menu", "text": "text prompt"}


@dataclass
class Prompt:
    """A prompt read off a screen: its kind (`yes_no`, `numbered`, `arrow_menu`, `text`), its
    question, its options (for menus) with the highlighted one's index, and the row it is on."""

    kind: str
    question: str
    options: list[str] = field(default_factory=list)
    highlighted: int | None = None
    numbers: list[str] = field(default_factory=list)  # a numbered menu's numbers, by option

    @property
    def label(self) -> str:
        """The kind in words: "y/n question", "numbered menu", "arrow-key menu", "text prompt"."""
        return LABELS.get(self.kind, self.kind)

    def describe(self) -> str:
        """One line: the kind, the question, the options with the highlighted one marked."""
        said = f'{self.label} "{self.question}"' if self.question else self.label
        if not self.options:
            return said
        marks = [
            f"{n + ') ' if n else ''}{'[' + o + ']' if i == self.highlighted else o}"
            for i, (o, n) in enumerate(zip(self.options, self.numbers or [""] * len(self.options)))
        ]
        return f"{said}: " + ", ".join(marks)


def read_prompt(screen: ScreenLines) -> Prompt | None:
    """The prompt the screen shows at its cursor, or None when it shows none (see the module)."""
    rows = screen.rows
    at = screen.cursor if screen.cursor is not None else _last_filled(rows)
    if at is None or at >= len(rows) + 1:
        return None
    row = rows[at] if at < len(rows) else ""
    before = row[: screen.column] if screen.column is not None else row
    if YES_NO.search(row):
        return Prompt("yes_no", row.strip())
    return _marked_menu(rows) or _framed_menu(rows, at) or _numbered(rows, at, before) or _text(row, before)


def _last_filled(rows: list[str]) -> int | None:
    filled = [i for i, r in enumerate(rows) if r.strip()]
    return filled[-1] if filled else None


def _marked_menu(rows: list[str]) -> Prompt | None:
    """Options below a question, one a row, the highlighted one led by a marker; the options
    are the rows next to it whose text starts where the marked row's does (these programs
    hide the cursor, so it is not asked where it is)."""
    for i in reversed(range(len(rows))):  # the latest list on the screen
        row = rows[i]
        body = row.lstrip()
        marker = next((m for m in MARKERS if body.startswith(m + " ")), None)
        if marker is None:
            continue
        start = len(row) - len(body) + len(marker) + 1
        while start < len(row) and row[start] == " ":
            start += 1
        first, last = i, i
        while first > 0 and _starts_at(rows[first - 1], start):
            first -= 1
        while last + 1 < len(rows) and _starts_at(rows[last + 1], start):
            last += 1
        if last == first:
            continue
        options = [rows[k][start:].strip() for k in range(first, last + 1)]
        return Prompt("arrow_menu", _question(rows, first), options, i - first)
    return None


def _starts_at(row: str, column: int) -> bool:
    """The row's text starts at `column`, after blanks only (an unmarked option of a list)."""
    return len(row) > column and not row[:column].strip() and row[column] != " "


def _framed_menu(rows: list[str], at: int) -> Prompt | None:
    """A list inside a `│` frame whose current item is the cursor's row (newt's whiptail,
    dialog): the options are the framed rows next to it whose text starts at the same column."""
    if at >= len(rows):
        return None
    inner = [_framed(r) for r in rows]
    here = inner[at]
    if here is None or not here[1]:
        return None
    column = here[0]
    first, last = at, at
    while first > 0 and _same_column(inner[first - 1], column):
        first -= 1
    while last + 1 < len(rows) and _same_column(inner[last + 1], column):
        last += 1
    if last == first:
        return None
    options = [inner[k][1] for k in range(first, last + 1)]  # type: ignore[index]
    above = next((r[1] for r in reversed(inner[:first]) if r is not None and r[1]), "")
    return Prompt("arrow_menu", above, options, at - first)


def _framed(row: str) -> tuple[int, str] | None:
    """(the column its text starts at, its text) for a row between two frame bars, else None."""
    left = next((i for i, ch in enumerate(row) if ch in FRAME), None)
    right = next((i for i in range(len(row) - 1, -1, -1) if row[i] in FRAME), None)
    if left is None or right is None or right <= left:
        return None
    body = row[left + 1 : right]
    text = body.strip()
    return (left + 1 + len(body) - len(body.lstrip()), text)


def _same_column(framed: tuple[int, str] | None, column: int) -> bool:
    return framed is not None and bool(framed[1]) and framed[0] == column


def _numbered(rows: list[str], at: int, before: str) -> Prompt | None:
    """Numbered options ("1) foo", several a row) in the rows just above a row that waits
    with the cursor after its prompt (bash `select`'s "#? ")."""
    if not before.strip():
        return None
    found: list[tuple[int, str]] = []
    k = at - 1
    while k >= 0 and (hits := NUMBERED.findall(rows[k])):
        found = [(int(n), text.strip()) for n, text in hits] + found
        k -= 1
    if len(found) < 2:
        return None
    found.sort()
    question = rows[k].strip() if k >= 0 else ""
    return Prompt(
        "numbered",
        question or before.strip(),
        [t for _, t in found],
        None,
        [str(n) for n, _ in found],
    )


def _text(row: str, before: str) -> Prompt | None:
    """A row that waits for text: the cursor after a prompt's end, nothing after it."""
    asked = before.rstrip()
    if not asked or row[len(before) :].strip() or not asked.endswith(PROMPT_ENDS):
        return None
    return Prompt("text", asked)


def _question(rows: list[str], first: int) -> str:
    """The nearest non-blank row above a list of options."""
    return next((r.strip() for r in reversed(rows[:first]) if r.strip()), "")
