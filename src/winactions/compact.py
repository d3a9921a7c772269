"""A state that costs less than a picture of its window.

`state` prints one line per element; on a big window (a spreadsheet's 500 cells, 150
toolbar buttons) that costs several times what a screenshot of the window would. `fit`
chooses what to print within a budget of tokens (bytes / 4) taken from the window's
size (`budget`): it collapses, in this order, until the listing fits — labels that repeat
their field's name (said nowhere: the field's line names it), a table's cells into its
rows in view (one line per row: a sheet's visible grid, a list's, a web table's),
separators and unnamed panes, runs of buttons (one line with their names, then only their
count), long lists (the rows in view around the focused one), menus; then the least useful
lines, never fields or grids (a grid gets fewer rows). What it leaves out is said on a line
with how to reach it. Every element keeps its id in the session's state: `click ID` works
on those not printed. Nothing here reads the app: it works on the state's targets alone.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from winactions.model import CELL_ADDRESS, Target, UIState

PICTURE_PIXELS_PER_TOKEN = 750  # what a picture costs a vision model: width × height / 750 tokens
BIG_WINDOW = (1000, 700)  # a window at least this big gets at most half its picture
SMALL_SHARE = 0.9  # a smaller one: less than its picture
BUTTON_TYPES = frozenset({"Button", "ToggleButton", "MenuButton", "SplitButton", "CheckBox", "RadioButton"})
NOISE_TYPES = frozenset({"Separator", "Pane", "SplitPane", "Group", "Filler", "Tab", "Panel", "ScrollBar"})
LIST_TYPES = frozenset({"List", "Tree", "Table", "DataGrid", "ListBox", "TreeView"})
CELL_TEXT_TYPES = frozenset({"DataItem", "HeaderItem", "Text", "Paragraph", "ListItem", "TreeItem"})  # not controls
FIELD_TYPES = frozenset({"Edit", "ComboBox", "Spinner", "Slider", "Document"})
BUTTON_RUN = 4  # this many buttons side by side are a toolbar's worth: collapsed together
LIST_KEEP = 6  # rows of a long list kept around the focused or selected one
NAMES_KEPT = 40  # characters of names per collapsed run, before "…"
TOKEN_BYTES = 4


def tokens(text: str) -> int:
    """What a text costs an LLM, as the trial counts it: its UTF-8 bytes / 4."""
    return len(text.encode()) // TOKEN_BYTES


def picture_tokens(state: UIState) -> int | None:
    """What a picture of the state's window costs (width × height / 750); None without a rect."""
    rect = state.window.rect
    if rect is None or rect.width <= 0 or rect.height <= 0:
        return None
    return rect.width * rect.height // PICTURE_PIXELS_PER_TOKEN


def budget(state: UIState) -> int | None:
    """The tokens a default `state` of this window may cost: half its picture on a window of
    1000×700 or more, 90 % of it on a smaller one; None (no limit) when the window has no rect."""
    picture = picture_tokens(state)
    if picture is None:
        return None
    rect = state.window.rect
    assert rect is not None
    big = rect.width >= BIG_WINDOW[0] and rect.height >= BIG_WINDOW[1]
    return picture // 2 if big else int(picture * SMALL_SHARE)


@dataclass
class Plan:
    """What to print of a state: targets left out, lines put after a target, a target's own
    line replaced (a sheet by its grid), and the lines said at the end."""

    hidden: set[int] = field(default_factory=set)
    after: dict[int, list[str]] = field(default_factory=dict)
    instead: dict[int, list[str]] = field(default_factory=dict)
    tail: list[str] = field(default_factory=list)
    runs: dict[int, list[Target]] = field(default_factory=dict)  # buttons collapsed, by their first one's id
    grids: dict[int, tuple[Target, list[Target], int]] = field(default_factory=dict)  # table, below it, rows shown


def body(targets: list[Target], plan: Plan, line_of: Callable[[Target], str]) -> list[str]:
    """The state's lines (without its header) as `plan` says."""
    lines: list[str] = []
    for t in targets:
        if t.id in plan.instead:
            lines.extend(plan.instead[t.id])
        elif t.id not in plan.hidden:
            lines.append(line_of(t))
        lines.extend(plan.after.get(t.id, ()))
    return lines + plan.tail


def fit(targets: list[Target], limit: int | None, line_of: Callable[[Target], str], fixed: int = 0) -> list[str]:
    """The lines of `targets` within `limit` tokens (with `fixed` more spent on the header and
    warnings), collapsing step by step (module docstring); all of them when they fit."""
    plan = Plan()
    if limit is None:
        return body(targets, plan, line_of)
    tree = _Tree(targets)

    def cost() -> int:
        return fixed + tokens("\n".join(body(targets, plan, line_of)))

    steps: list[Callable[[], None]] = [
        lambda: _grids(tree, plan),
        lambda: _noise(tree, plan),
        lambda: _button_runs(tree, plan, names=True),
        lambda: _long_lists(tree, plan),
        lambda: _button_runs(tree, plan, names=False),
        lambda: _menus(tree, plan),
    ]
    summary = f"({{hidden}} of {len(targets)} elements summarized, their ids work; every line: `winctl state --all`)"
    if cost() <= limit:
        return body(targets, plan, line_of)
    echoes = _echo_labels(tree, plan)
    if cost() <= limit:  # only labels that repeat their field's name were left out: nothing to say
        return body(targets, plan, line_of)
    limit -= tokens(summary) + 3  # it is said once anything is left out (and the newlines around it)
    for step in steps:
        if cost() <= limit:
            break
        step()
    cut = 0
    limit -= 20 if cost() > limit else 0  # what `_cut_tail` says
    # lines of rank 2 and lower go, then a grid's rows; fields and grids are never cut: what an
    # agent reads values from stays, even over the budget
    while cost() > limit and (more := _cut_tail(tree, plan, (cost() - limit) * TOKEN_BYTES, line_of, 2)):
        cut += more
    while cost() > limit and _shorter_grids(plan):
        pass
    if cut:
        plan.tail.append(f"({cut} more elements not listed — `winctl find TEXT` finds one)")
    plan.tail.append(summary.format(hidden=len(plan.hidden - echoes)))
    return body(targets, plan, line_of)


class _Tree:
    """The targets with their children and the focused element's family, for the steps."""

    def __init__(self, targets: list[Target]) -> None:
        self.targets = targets
        self.by_id = {t.id: t for t in targets}
        self.children: dict[int, list[Target]] = {}
        for t in targets:
            if t.parent_id is not None:
                self.children.setdefault(t.parent_id, []).append(t)
        focused = [t for t in targets if "focused" in t.states]
        self.kept: set[int] = set()  # the focused element, its ancestors and its neighbours
        for f in focused:
            self.kept.add(f.id)
            self.kept.update(self.ancestors(f))
            siblings = self.children.get(f.parent_id, []) if f.parent_id is not None else []
            at = siblings.index(f) if f in siblings else -1
            self.kept.update(s.id for s in siblings[max(at - 1, 0) : at + 2] if at >= 0)

    def ancestors(self, t: Target) -> list[int]:
        found: list[int] = []
        parent = t.parent_id
        while parent is not None and parent in self.by_id and parent not in found:
            found.append(parent)
            parent = self.by_id[parent].parent_id
        return found

    def descendants(self, t: Target) -> list[Target]:
        out: list[Target] = []
        stack = list(reversed(self.children.get(t.id, [])))
        while stack:
            kid = stack.pop()
            out.append(kid)
            stack.extend(reversed(self.children.get(kid.id, [])))
        return out


# -- the steps -------------------------------------------------------------------------------
def _grids(tree: _Tree, plan: Plan) -> None:
    """Each table whose cells are placed by row and column as its rows in view, one line per
    row (`table_lines`): a sheet's visible grid, a list's or a web page's rows."""
    for t in tree.targets:
        if t.type not in LIST_TYPES or t.id in plan.hidden:
            continue
        kids = tree.descendants(t)
        cells = [c for c in kids if c.cell is not None]
        if cells:
            plan.instead[t.id] = table_lines(t, kids)
            plan.grids[t.id] = (t, kids, len({c.cell[0] for c in cells if c.cell is not None}))
            plan.hidden.update(k.id for k in kids)


def _shorter_grids(plan: Plan) -> bool:
    """Each grid with an eighth fewer rows (at least 2 kept); whether any got shorter."""
    shorter = False
    for table_id, (table, kids, rows) in list(plan.grids.items()):
        if rows > 2 and table_id in plan.instead:
            rows = max(2, rows - max(1, rows // 8))
            plan.grids[table_id] = (table, kids, rows)
            plan.instead[table_id] = table_lines(table, kids, rows)
            shorter = True
    return shorter


def table_lines(table: Target, kids: list[Target], max_rows: int | None = None) -> list[str]:
    """A table's elements below it as rows: a sheet's (cells named by address) as its grid
    (`grid_lines`), any other's as its rows (`row_lines`)."""
    cells = [c for c in kids if c.cell is not None]
    if all(CELL_ADDRESS.match(c.name) for c in cells):
        return grid_lines(table, cells, max_rows)
    return row_lines(table, kids, max_rows)


def row_lines(table: Target, kids: list[Target], max_rows: int | None = None) -> list[str]:
    """A list's or web table's rows in view: a header line (which rows of how many, the
    column headers) and `[ID] text | text | …` per row, ID that of the element holding the
    row's first text (a click on it selects the row); rows of header cells only are the
    column headers; at most `max_rows` rows, the others counted. Rows are numbered from 1
    below the header rows."""
    by_row: dict[int, dict[int, Target]] = {}
    below: dict[int | None, list[Target]] = {}
    for c in kids:
        below.setdefault(c.parent_id, []).append(c)
        if c.cell is not None:
            by_row.setdefault(c.cell[0], {})[c.cell[1]] = c
    heads = sorted(r for r, row in by_row.items() if all(c.type == "HeaderItem" for c in row.values()))
    headers = [c for c in kids if c.type == "HeaderItem" and (c.cell is None or c.cell[0] in heads)]
    data = sorted(r for r in by_row if r not in heads)
    cols = sorted({c for r in data for c in by_row[r]})

    def number(r: int) -> int:
        return r + 1 - sum(1 for h in heads if h < r)

    head = f'[{table.id}] [{table.type}] "{_plain(table.name)}"'
    if data:
        total = f" of {table.rows - len(heads)}" if table.rows is not None else ""
        head += f" rows {number(data[0])}–{number(data[-1])}{total} in view"
    if headers:
        head += "; columns: " + " | ".join(_plain(h.name, 40) for h in headers)
    head += "; `winctl click ID` selects a row, `winctl find TEXT` finds one out of view"
    lines = [head]
    for r in data[:max_rows]:
        row = by_row[r]
        texts = [_cell_texts(row[c], below) if c in row else [] for c in cols]
        plain = [who for found in texts for who, _ in found if who.type in CELL_TEXT_TYPES]
        first = plain[0] if plain else row[min(row)]
        cells = [" ".join(_part(who, text) for who, text in found) for found in texts]
        marks = [m for m in ("selected", "focused") if any(m in c.states for c in row.values())]
        lines.append(f"  [{first.id}] " + " | ".join(cells) + "".join(f" {m}" for m in marks))
    if max_rows is not None and len(data) > max_rows:
        lines.append(f"  ({len(data) - max_rows} more rows in view: `winctl state --scope {table.id}` lists them)")
    return lines


def _cell_texts(cell: Target, below: dict[int | None, list[Target]]) -> list[tuple[Target, str]]:
    """A cell's text with the elements that hold it, in order: its own, unless parts of it are
    controls (a web table's link, button, field: each with its own); else its parts' (a GTK
    column of an icon and a name is one cell holding a cell per part). A control is one part
    with its name; empty text and unnamed images are left out."""
    own = bool(cell.name.strip() or cell.value)
    if cell.type not in CELL_TEXT_TYPES:
        return [(cell, _text(cell))] if own or cell.type != "Image" else []
    parts = [found for part in below.get(cell.id, []) for found in _cell_texts(part, below)]
    if own and not any(who.type not in CELL_TEXT_TYPES for who, _ in parts):
        return [(cell, _text(cell))]
    return parts


def _part(who: Target, text: str) -> str:
    """A part of a cell as a row line shows it: text as is; a control in the cell (a page's
    link, button, check box, field) with its id, state and value, so it is acted on by id."""
    shown = _plain(text if who.type in CELL_TEXT_TYPES else who.name, 40).replace("|", "\\|")
    if who.type in CELL_TEXT_TYPES:
        return shown
    marks = "".join(f" {m}" for m in ("checked", "disabled") if m in who.states)
    value = f'="{_plain(who.value, 40)}"' if who.value and who.value != who.name else ""
    return f"[{who.id}] {shown}{marks}{value}"


def _text(cell: Target) -> str:
    return cell.name if cell.name.strip() else cell.value or ""


def grid_lines(table: Target, cells: list[Target], max_rows: int | None = None) -> list[str]:
    """A table's cells in view as rows: a header line (the address range, the columns holding
    data, the focused cell) and `ROW: text | text | …` per row; trailing empty cells, empty
    columns and empty rows dropped; a cell whose text was not read shown as `?`; at most
    `max_rows` rows, the others counted."""
    places: dict[tuple[int, int], Target] = {c.cell: c for c in cells if c.cell is not None}
    rows = sorted({r for r, _ in places})
    cols = sorted({c for _, c in places})
    known = {p: c.value for p, c in places.items() if c.value is not None}
    filled = [c for c in cols if any(known.get((r, c)) for r in rows)]
    last_col = filled[-1] if filled else cols[0]
    shown_cols = [c for c in cols if c <= last_col]
    unread = [p for p in places if p not in known]
    head = (
        f'[{table.id}] [{table.type}] "{_plain(table.name)}" {_address(rows[0], cols[0], places)}:'
        f"{_address(rows[-1], cols[-1], places)} in view"
    )
    if filled:
        head += f" (data in {_column(filled[0], places)}–{_column(filled[-1], places)})"
    focused = [c for c in cells if "focused" in c.states or "selected" in c.states]
    if focused:
        head += f"; focused {_plain(focused[0].name)} [{focused[0].id}]"
    head += "; a cell by address: `winctl get text C124`, `winctl click C124`"
    lines = [head]
    beyond = [p for p in unread if p[1] > last_col]
    if beyond:
        lines.append(
            f"  (columns right of {_column(last_col, places)}: {len(beyond)} cells not read, "
            "the others empty — `winctl get text ADDRESS` reads one)"
        )
    body_rows: list[str] = []
    for r in rows:
        texts = [_cell_text(places.get((r, c)), known.get((r, c))) for c in shown_cols]
        while texts and texts[-1] == "":
            texts.pop()
        body_rows.append(f"  {_row_label(r, places)}: " + " | ".join(texts) if texts else "")
    while body_rows and body_rows[-1] == "":
        body_rows.pop()
    empty = [i for i, line in enumerate(body_rows) if not line]
    full = [line for line in body_rows if line]
    lines.extend(full[:max_rows])
    if max_rows is not None and len(full) > max_rows:
        lines.append(
            f"  ({len(full) - max_rows} more rows in view, to row {_row_label(rows[-1], places)}: "
            f"`winctl get text A{_row_label(rows[-1], places)}` reads a cell, "
            f"`winctl state --scope {table.id}` lists them)"
        )
    if empty:
        lines.append(f"  ({len(empty)} empty rows not listed)")
    if any(p[1] <= last_col for p in unread):
        lines.append("  (? = not read: `winctl get text ADDRESS` reads it)")
    return lines


def _cell_text(cell: Target | None, text: str | None) -> str:
    if cell is None:
        return ""  # merged into a neighbour
    if text is None:
        return "?"
    return _plain(text, 40).replace("|", "\\|")


def _address(row: int, col: int, places: dict[tuple[int, int], Target]) -> str:
    return f"{_column(col, places)}{_row_label(row, places)}"


def _column(col: int, places: dict[tuple[int, int], Target]) -> str:
    """The column's letters, from any of its cells' address; its 1-based number otherwise."""
    for (_, c), t in places.items():
        if c == col and (m := CELL_ADDRESS.match(t.name)):
            return m.group(1)
    return str(col + 1)


def _row_label(row: int, places: dict[tuple[int, int], Target]) -> str:
    for (r, _), t in places.items():
        if r == row and (m := CELL_ADDRESS.match(t.name)):
            return m.group(2)
    return str(row + 1)


def _echo_labels(tree: _Tree, plan: Plan) -> set[int]:
    """Static texts that only repeat the name of a field of the window (a form's labels: the
    field is named by its label, so its line says it already), left out; their ids."""
    fields = {_plain(t.name) for t in tree.targets if t.type in FIELD_TYPES and t.name.strip()}
    echoes = {
        t.id
        for t in tree.targets
        if t.type == "Text" and _plain(t.name) in fields and "focused" not in t.states and not t.value
    }
    plan.hidden.update(echoes)
    return echoes


def _noise(tree: _Tree, plan: Plan) -> None:
    """Separators, scroll bars and unnamed containers with no value: never read by an agent."""
    dropped = [
        t
        for t in tree.targets
        if t.type in NOISE_TYPES
        and t.id not in tree.kept
        and t.id not in plan.hidden
        and (t.type in ("Separator", "ScrollBar") or (not t.name.strip() and not t.value))
        and t.id not in plan.instead
        and "focused" not in t.states
    ]
    plan.hidden.update(t.id for t in dropped)


def _button_runs(tree: _Tree, plan: Plan, names: bool) -> None:
    """Runs of BUTTON_RUN or more buttons side by side under one parent (a toolbar's, a
    keypad's; elements left out do not break a run) as one line in the first one's place:
    their names (with `names` False, runs already collapsed say only their count), how to
    click one by name, how to list them."""
    if names:
        for kids in [*tree.children.values(), [t for t in tree.targets if t.parent_id not in tree.by_id]]:
            for run in _runs(kids, tree, plan):
                plan.runs[run[0].id] = run
                plan.hidden.update(k.id for k in run)
    for first, run in plan.runs.items():
        what = f"{len(run)} buttons" + (f": {_names(k.name for k in run)}" if names else "")
        parent = run[0].parent_id
        listed = f"`winctl state --scope {parent}`" if parent in tree.by_id else "`winctl state --all`"
        plan.after[first] = [f"  ({what} — `winctl click NAME`; list: {listed})"]


def _runs(kids: list[Target], tree: _Tree, plan: Plan) -> list[list[Target]]:
    """The runs of at least BUTTON_RUN buttons among siblings, none kept or left out already."""
    runs: list[list[Target]] = [[]]
    for k in kids:
        if k.type in BUTTON_TYPES and k.id not in tree.kept and k.id not in plan.hidden:
            runs[-1].append(k)
        elif k.id not in plan.hidden and runs[-1]:
            runs.append([])
    return [run for run in runs if len(run) >= BUTTON_RUN]


def _long_lists(tree: _Tree, plan: Plan) -> None:
    """A list or tree of more than 2 × LIST_KEEP rows: the rows around the focused or
    selected one (or the first), and how many more with how to find one."""
    for t in tree.targets:
        if t.type not in LIST_TYPES or t.id in plan.instead:
            continue
        rows = [k for k in tree.descendants(t) if k.id not in plan.hidden]
        if len(rows) <= 2 * LIST_KEEP:
            continue
        marked = [i for i, k in enumerate(rows) if "focused" in k.states or "selected" in k.states]
        centre = marked[0] if marked else 0
        start = max(0, min(centre - LIST_KEEP // 2, len(rows) - LIST_KEEP))
        kept = {k.id for k in rows[start : start + LIST_KEEP]}
        tree.kept.add(rows[centre].id)  # the row the user is on stays, whatever is cut later
        gone = [k for k in rows if k.id not in kept]
        plan.hidden.update(k.id for k in gone)
        last = rows[min(start + LIST_KEEP, len(rows)) - 1].id
        plan.after.setdefault(last, []).append(
            f"  ({len(gone)} more rows of [{t.id}]: `winctl find TEXT`, `winctl state --scope {t.id}`)"
        )


def _menus(tree: _Tree, plan: Plan) -> None:
    """A menu bar's menus as one line after the first with their names (an open menu's items
    stay: they are what the next click is for)."""
    by_parent: dict[int | None, list[Target]] = {}
    for t in tree.targets:
        if t.type == "Menu" and t.id not in plan.hidden and t.id not in tree.kept:
            by_parent.setdefault(t.parent_id, []).append(t)
    for menus in by_parent.values():
        if len(menus) < BUTTON_RUN:
            continue
        plan.hidden.update(m.id for m in menus[1:])
        plan.after.setdefault(menus[0].id, []).append(
            f"  (menus {_names((m.name for m in menus[1:]), limit=200)} — `winctl click NAME`)"
        )


def _cut_tail(tree: _Tree, plan: Plan, over: int, line_of: Callable[[Target], str], most: int = 3) -> int:
    """Leave out elements of `_rank` up to `most`, the least useful first and from the end
    (never the focused one and its ancestors, nor a grid, named or not), until `over` bytes
    fewer are printed; how many."""
    order = sorted(
        (
            t
            for t in reversed(tree.targets)
            if t.id not in plan.hidden and t.id not in tree.kept and t.id not in plan.grids and _rank(t) <= most
        ),
        key=_rank,
    )  # stable: from the end within a rank
    left = 0
    for t in order:
        if over <= 0:
            break
        shown = plan.instead.pop(t.id, None) or [line_of(t)]
        shown += plan.after.pop(t.id, [])
        over -= sum(len(line.encode()) + 1 for line in shown)
        plan.hidden.add(t.id)
        left += 1
    return left


def _rank(t: Target) -> int:
    """How much an agent needs an element's line: 0 unnamed, 1 controls it can click by name,
    2 text and menus, 3 fields with their values and grids."""
    if not t.name.strip() and not t.value:
        return 0
    if t.type in FIELD_TYPES or t.type in LIST_TYPES:
        return 3
    if t.type in BUTTON_TYPES or t.type in NOISE_TYPES or t.type in ("TabItem", "ToolBar"):
        return 1
    return 2


def _names(names: Iterable[str], limit: int = NAMES_KEPT * 4) -> str:
    text = ", ".join(_plain(n, 30) for n in names if n.strip()) or "unnamed"
    return text if len(text) <= limit else text[: limit - 1].rsplit(", ", 1)[0] + ", …"


def _plain(text: str, limit: int = 120) -> str:
    """One line of printable text, capped (names in summaries never add lines)."""
    text = "".join(ch if ch.isprintable() else " " for ch in " ".join(text.split())).replace('"', '\\"')
    return text if len(text) <= limit else text[: limit - 1] + "…"
