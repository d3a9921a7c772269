"""How the protocol's data is written for a reader: an element's line, a window's line, a
state and a diff as text and as JSON, and the escaping that keeps an app's names from forging
lines. Every result's `text()` and `data()` (`winactions.commands.results`) is built of these.

Text is compact, one element per line, in the `[id] [Type] "Name"` form; whatever an app
names its elements or windows is escaped (`safe`), so it can never add a line, move the
cursor or reorder what the agent reads.
"""

from __future__ import annotations

import unicodedata
from typing import Any

from winactions import compact
from winactions.commands.stateview import StateDiff
from winactions.model import Source, Target, UIState, WindowInfo

# States worth a word in compact output; the rest are implied or noise.
_SHOWN_STATES = ("focused", "checked", "selected", "expanded", "collapsed", "pressed", "indeterminate")


def _disabled(t: Target) -> bool:
    """Whether the element says it is disabled: the tree by leaving out "enabled"; what was
    seen in pixels (most of it says nothing either way) by "disabled" (a greyed-out menu item)."""
    return "disabled" in t.states or ("enabled" not in t.states and t.source is Source.ACCESSIBILITY)


# -- text --------------------------------------------------------------------------------
def target_line(t: Target, verbose: bool = False) -> str:
    """One element on one line: `[id] [Type] "Name"`, then its value when it differs from the
    name, the states worth a word, where it came from when not the tree (with its confidence),
    its rect when verbose or when coordinates are the only way to act on it."""
    parts = [f'[{t.id}] [{t.type}] "{clean(t.name)}"']
    if t.value not in (None, "") and t.value != t.name:
        parts.append(f'value="{_value(t.value)}"')
    flags = [s for s in _SHOWN_STATES if s in t.states]
    if _disabled(t):
        flags.append("disabled")
    parts.extend(flags)
    if t.source is not Source.ACCESSIBILITY:
        parts.append(f"source={t.source.value}")
        if t.confidence is not None:
            parts.append(f"confidence={t.confidence:.2f}")
    if t.rect is not None and (verbose or t.acts_by_coordinates):
        parts.append(f"rect={t.rect}")
    if verbose and t.automation_id:
        parts.append(f"automation_id={safe(t.automation_id)}")
    if t.derived_from and (verbose or t.source is Source.INFERRED):
        parts.append(f"derived_from={safe(t.derived_from)}")
    if t.screen is not None:
        return " ".join(parts) + _screen_text(t)
    return " ".join(parts)


SCREEN_CHARS = 200  # a terminal's row longer than this is cut, with "…"
# the bytes of rows a terminal shows in `state` (~250 tokens): with the window's other lines,
# under 90 % of the picture of an 80×24 terminal (~380 tokens); the newest rows are kept, and
# the cursor's row always
SCREEN_BYTES = 1000


def _screen_text(t: Target) -> str:
    """A terminal's screen under its line: "(screen, N rows; > marks the cursor's)", then each
    row indented by two spaces, the cursor's led by "> " instead, each escaped and cut at
    SCREEN_CHARS. Rows past SCREEN_BYTES are left out from the top (never the cursor's and
    those below it), and a line says how many and how to read them all."""
    screen = t.screen or []
    rows = [("> " if i == t.cursor_row else "  ") + screen_row(r) for i, r in enumerate(screen)]
    first, size = len(rows), 0
    while first > 0 and size + len(rows[first - 1].encode()) + 1 <= SCREEN_BYTES:
        first -= 1
        size += len(rows[first].encode()) + 1
    if t.cursor_row is not None:
        first = min(first, t.cursor_row)
    head = f" (screen, {len(screen)} rows" + ("; > marks the cursor's)" if t.cursor_row is not None else ")")
    above = [f"  ({first} rows above not shown: `winctl get text {t.id}`)"] if first else []
    return "\n".join([head, *above, *rows[first:]])


def screen_row(row: str) -> str:
    """A terminal's row for reading: tabs expanded, escaped (`safe`), cut at SCREEN_CHARS."""
    return _cut(safe(row.expandtabs()), SCREEN_CHARS)


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def window_header(state: UIState) -> str:
    """A state's first line: the window, and `modified` when its document has unsaved changes."""
    w = state.window
    return f'Window: "{clean(w.title, 200)}" ({safe(w.process) or "?"}, pid {w.pid}, id {w.id})' + (
        " modified" if state.modified else ""
    )


def state_text(
    state: UIState, verbose: bool = False, tree: bool = False, searched: str | None = None, budget: int | None = None
) -> str:
    """A state as text; `searched` (`find`): what was looked for, said when none matched;
    `budget`: the tokens it may cost, what does not fit summarized (`compact.fit`)."""
    lines = [window_header(state)]

    def line(t: Target) -> str:
        return ("  " * t.depth if tree else "") + target_line(t, verbose)

    fixed = compact.tokens("\n".join([lines[0], *state.warnings, *state.tiers]))
    lines.extend(compact.fit(state.targets, budget, line, fixed))
    if not state.targets and searched is not None:
        lines.append(
            f"(none matched {safe(searched)}; a sheet's cell is read by its address too: `winctl get text B12`)"
        )
    elif not state.targets:
        lines.append("(no elements: the window exposes no accessible elements — try `winctl screenshot` or `--vision`)")
    if state.screenshot:
        lines.append(f"Screenshot: {state.screenshot}")
    if state.annotated_screenshot:
        lines.append(f"Annotated: {state.annotated_screenshot}")
    if state.truncated:
        lines.append("(truncated: the window has more elements than were read)")
    lines.extend(f"tier: {safe(t)}" for t in state.tiers)
    lines.extend(f"warning: {safe(w)}" for w in state.warnings)
    return "\n".join(lines)


def changes_text(state: UIState, d: StateDiff, omitted: int = 0, verbose: bool = False) -> str:
    """What changed, against `state` (the new one): its header, then + added, - removed and
    ~ changed elements (with what changed), then the count of unchanged ones."""
    lines = [window_header(state)]
    if d.since is None:
        lines.append("(no previous state in this session: every element is new)")
    elif d.window_changed:
        lines.append("(the previous state was of another window: every element is new)")
    lines.extend("+ " + target_line(t, verbose) for t in d.added)
    lines.extend("- " + target_line(t, verbose) for t in d.removed)
    for change in d.changed:
        what = ", ".join(_change(field, before, after) for field, (before, after) in change.fields.items())
        lines.append(f"~ {target_line(change.target, verbose)} ({what})")
    if not (d.added or d.removed or d.changed) and d.since is not None:
        lines.append("(nothing changed)")
    if omitted:
        lines.append(f"({omitted} more changes not listed (--max-elements))")
    lines.append(f"({d.unchanged} unchanged)")
    lines.extend(f"warning: {safe(x)}" for x in state.warnings)
    return "\n".join(lines)


def _change(field: str, before: object, after: object) -> str:
    """One changed field: states as what was added and removed, the rest as before -> after."""
    if isinstance(before, list) and isinstance(after, list) and field == "states":
        gone, new = [s for s in before if s not in after], [s for s in after if s not in before]
        marks = [*(f"+{clean(str(s), 40)}" for s in new), *(f"-{clean(str(s), 40)}" for s in gone)]
        return "states: " + " ".join(marks)
    return f"{field}: {_change_value(before)} -> {_change_value(after)}"


def _change_value(value: object) -> str:
    if isinstance(value, list):
        return "[" + ", ".join(clean(str(v), 40) for v in value) + "]"
    return "none" if value is None else f'"{_value(str(value))}"'


def window_line(w: WindowInfo) -> str:
    """One window on one line: id, title, process, pid, rect, and whether it is active,
    minimized or maximized."""
    flags = [f for f, on in (("active", w.active), ("minimized", w.minimized), ("maximized", w.maximized)) if on]
    rect = f" rect={w.rect}" if w.rect else ""
    return f'{w.id} "{clean(w.title, 200)}" ({safe(w.process) or "?"}, pid {w.pid}){rect}' + (
        f" [{', '.join(flags)}]" if flags else ""
    )


def clean(text: str, limit: int = 120) -> str:
    """A name or title for inside quotes: one line, nothing invisible, quotes escaped, capped."""
    text = safe(" ".join(text.split())).replace('"', '\\"')
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _value(text: str, limit: int = 60) -> str:
    """A value for inside quotes, on one line that still shows where its lines break: line
    breaks, tabs and every character `safe` escapes written as its escape (`\\n`, `\\t`,
    `\\u202e`), a backslash or quote of the text escaped too, so each escape reads one way;
    at most `limit` characters, an escape never cut in two."""
    pieces = [_value_piece(ch) for ch in text]
    if sum(map(len, pieces)) <= limit:
        return "".join(pieces)
    kept: list[str] = []
    used = 0
    for piece in pieces:
        if used + len(piece) > limit - 1:
            break
        kept.append(piece)
        used += len(piece)
    return "".join(kept) + "…"


def _value_piece(ch: str) -> str:
    if ch in '\\"':
        return "\\" + ch
    return _escape_char(ch) if unicodedata.category(ch) in _FORGING else ch


# Characters an element or window could use to forge output: line breaks and other controls
# (Cc), and invisible formatting (Cf: bidi overrides such as U+202E, zero-width characters),
# line and paragraph separators (Zl, Zp).
_FORGING = frozenset({"Cc", "Cf", "Zl", "Zp"})
_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _escape_char(ch: str) -> str:
    if ch in _NAMED:
        return _NAMED[ch]
    code = ord(ch)
    return f"\\x{code:02x}" if code < 0x100 else (f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}")


def safe(text: str) -> str:
    """`text` with every control, bidi and zero-width character written as an escape
    (`\\n`, `\\x07`, `\\u202e`), so that what an app names its elements can never add a
    line, move the cursor or reorder what the agent reads."""
    if text.isprintable():  # the common case, in C
        return text
    return "".join(ch if unicodedata.category(ch) not in _FORGING else _escape_char(ch) for ch in text)


# -- JSON --------------------------------------------------------------------------------
def state_data(state: UIState, verbose: bool = False) -> dict[str, Any]:
    """Compact by default: id, type, name and what is set; rects when verbose or when
    coordinates are the only way to act on the target."""
    targets = []
    for t in state.targets:
        item: dict[str, Any] = {"id": t.id, "type": t.type, "name": t.name}
        if t.value not in (None, ""):
            item["value"] = t.value
        flags = [s for s in _SHOWN_STATES if s in t.states]
        if _disabled(t):
            flags.append("disabled")
        if flags:
            item["states"] = flags
        if t.source is not Source.ACCESSIBILITY:
            item["source"] = t.source.value
            item["confidence"] = t.confidence
            if t.derived_from:
                item["derived_from"] = t.derived_from
        elif verbose and t.derived_from:  # a name the tree does not give: lent, or read off a label
            item["derived_from"] = t.derived_from
        if t.rect is not None and (verbose or t.acts_by_coordinates):
            item["rect"] = t.rect.as_list()
        if t.screen is not None:
            item["screen"] = [_cut(row, SCREEN_CHARS) for row in t.screen]
            item["cursor_row"] = t.cursor_row
        if verbose:
            item["states"] = t.states
            item["operations"] = [o.value for o in t.operations]
            item["parent_id"] = t.parent_id
            item["depth"] = t.depth
            if t.automation_id:
                item["automation_id"] = t.automation_id
        targets.append(item)
    return {
        "window": state.window.model_dump(mode="json"),
        "targets": targets,
        "timestamp": state.timestamp,
        "screenshot": state.screenshot,
        "annotated_screenshot": state.annotated_screenshot,
        "truncated": state.truncated,
        "warnings": state.warnings,
        "tiers": state.tiers,
        "node_count": state.node_count,
        "modified": state.modified,
    }


def diff_data(state: UIState, d: StateDiff, verbose: bool = False) -> dict[str, Any]:
    """A diff as JSON: the ids added (their elements are in `state`'s targets), the elements
    removed, and per changed id each field's before and after."""
    return {
        "since": d.since,
        "window_changed": d.window_changed,
        "unchanged": d.unchanged,
        "added": [t.id for t in d.added],
        "removed": state_data(state.model_copy(update={"targets": d.removed}), verbose)["targets"],
        "changed": [
            {"id": c.target.id, **{f: {"before": b, "after": a} for f, (b, a) in c.fields.items()}} for c in d.changed
        ],
    }
