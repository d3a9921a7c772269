"""A default `state` costs less than a picture of its window, on a synthetic state (no desktop).

On LibreOffice Calc (1280×800) `state` printed 15,664 bytes (3,916 tokens) where a picture
of the window costs 1,365: 495 cells one line each (406 of them with no text), ~150 toolbar
buttons one line each. These pin the budget, what is collapsed first, what is said about it,
and the sheet read as its grid of rows.
"""

from __future__ import annotations

import re

from winactions import compact
from winactions.commands.results import StateResult
from winactions.model import Rect, Target, UIState, WindowInfo
from winactions.render import to_text

BIG = WindowInfo(
    id="0x1",
    title="book.ods - LibreOffice Calc",
    pid=7,
    process="soffice.bin",
    rect=Rect(left=0, top=0, right=1280, bottom=800),
)
SMALL = WindowInfo(id="0x2", title="Question", pid=8, process="zenity", rect=Rect(left=0, top=0, right=400, bottom=200))
COLUMNS = "ABCDEFGHIJKLMNO"
DATA = [["Invoice", "Customer", "Amount", "Status"]] + [
    [f"INV-{r:04}", "Globex", str(100 + r), "Open"] for r in range(1, 33)
]


def big_state() -> UIState:
    """A sheet of 33×15 cells (4 columns of data; rows 20+ of column C not read), a toolbar of
    40 buttons with a font field, 12 menus, separators, unnamed panes, a focused cell."""
    targets = [Target(id=1, type="MenuBar", name="Menu Bar")]
    targets += [
        Target(id=2 + i, type="Menu", name=n, parent_id=1)
        for i, n in enumerate(
            ["File", "Edit", "View", "Insert", "Format", "Styles", "Sheet", "Data", "Tools", "Window", "Help", "Extra"]
        )
    ]
    targets += [Target(id=20, type="Pane", name=""), Target(id=21, type="Table", name="Sheet Sheet1", parent_id=20)]
    next_id = 22
    for r in range(33):
        for c, letter in enumerate(COLUMNS):
            text = DATA[r][c] if c < 4 else ""
            value: str | None = text
            if c == 2 and r >= 20:
                value = None  # placed by row and column, its text not read
            targets.append(
                Target(
                    id=next_id,
                    type="DataItem",
                    name=f"{letter}{r + 1}",
                    value=value,
                    parent_id=21,
                    cell=(r, c),
                    states=["focused"] if (r, c) == (0, 0) else [],
                )
            )
            next_id += 1
    targets.append(Target(id=600, type="ToolBar", name="Formatting"))
    targets.append(Target(id=601, type="Edit", name="Font Name", value="DejaVu Sans", parent_id=600))
    targets += [Target(id=610 + i, type="Button", name=f"Format {i}", parent_id=600) for i in range(40)]
    targets += [Target(id=700 + i, type="Separator", name="", parent_id=600) for i in range(10)]
    targets.append(Target(id=800, type="Text", name="Sheet 1 of 1"))
    targets.append(Target(id=801, type="Pane", name=""))
    return UIState(window=BIG, targets=targets, timestamp="now")


def text_of(ui: UIState) -> str:
    return to_text(StateResult(state=ui, budget=compact.budget(ui)))


def test_a_big_window_costs_at_most_half_its_picture_and_says_how_to_see_all():
    ui = big_state()
    text = text_of(ui)
    picture = 1280 * 800 // 750
    assert compact.tokens(to_text(StateResult(state=ui))) > picture  # the full listing: more than a picture
    assert compact.tokens(text) <= picture // 2, (compact.tokens(text), text)
    assert "`winctl state --all`" in text
    assert '[601] [Edit] "Font Name" value="DejaVu Sans"' in text  # a field and its value kept
    assert "40 buttons" in text and "`winctl state --scope 600`" in text  # the toolbar as one line
    assert "[Separator]" not in text and "[801]" not in text  # never read by an agent: left out first
    assert '[20] [Pane] ""' in text  # the focused cell's ancestors stay
    assert "[DataItem]" not in text  # cells as rows, not one line each


def test_a_sheet_is_read_as_rows_with_unread_cells_shown_as_such():
    lines = text_of(big_state()).splitlines()
    head = next(line for line in lines if line.startswith("[21] [Table]"))
    assert "A1:O33 in view" in head and "data in A–D" in head and "focused A1 [22]" in head, head
    assert "  1: Invoice | Customer | Amount | Status" in lines
    assert "  2: INV-0001 | Globex | 101 | Open" in lines
    assert "  21: INV-0020 | Globex | ? | Open" in lines  # not read: never shown as empty
    assert any(line.startswith("  (? = not read") for line in lines)


def test_trailing_empty_cells_and_rows_are_dropped():
    cells = [
        Target(
            id=10 + i,
            type="DataItem",
            name=f"{'ABC'[c]}{r + 1}",
            cell=(r, c),
            parent_id=1,
            value=[["a", "", ""], ["b", "x", ""], ["", "", ""]][r][c],
        )
        for i, (r, c) in enumerate((r, c) for r in range(3) for c in range(3))
    ]
    lines = compact.grid_lines(Target(id=1, type="Table", name="Sheet Sheet1"), cells)
    assert lines[1:] == ["  1: a", "  2: b | x"], lines
    assert "A1:C3 in view (data in A–B)" in lines[0]


def test_a_state_that_fits_is_printed_whole_as_before():
    ui = UIState(
        window=SMALL,
        timestamp="now",
        targets=[
            Target(id=1, type="Text", name="Delete the file?"),
            Target(id=2, type="Button", name="Cancel"),
            Target(id=3, type="Button", name="OK", states=["focused"]),
        ],
    )
    assert text_of(ui) == to_text(StateResult(state=ui))


def test_a_small_window_costs_less_than_its_picture():
    targets = [Target(id=i, type="Button", name=f"Key {i}", parent_id=100) for i in range(1, 60)]
    ui = UIState(
        window=SMALL,
        timestamp="now",
        targets=[
            Target(id=100, type="Pane", name="Keys"),
            *targets,
            Target(id=200, type="Edit", name="Display", value="42", states=["focused"]),
        ],
    )
    text = text_of(ui)
    assert compact.tokens(text) < 400 * 200 // 750, text
    assert '[200] [Edit] "Display" value="42" focused' in text


def test_what_must_stay_is_printed_even_over_the_budget():
    """The focused element and its ancestors are never left out: a chain of them longer than
    the budget is printed whole (the cut stops when nothing more may go)."""
    chain = [
        Target(id=i, type="Pane", name=f"Pane number {i}", parent_id=i - 1 if i > 1 else None) for i in range(1, 60)
    ]
    chain.append(Target(id=60, type="Edit", name="Here", parent_id=59, states=["focused"]))
    text = text_of(UIState(window=SMALL, timestamp="now", targets=chain))
    assert all(f"[{i}] [Pane]" in text for i in range(1, 60)) and '[60] [Edit] "Here"' in text


def test_a_grid_too_long_for_the_budget_keeps_its_first_rows_and_counts_the_others():
    """A sheet of 40 rows of 12 long cells in a 1280×800 window: its rows alone cost more than
    half the picture; the grid keeps its header and first rows and says how to read the rest."""
    cells = [
        Target(
            id=100 + 12 * r + c,
            type="DataItem",
            name=f"{COLUMNS[c]}{r + 1}",
            cell=(r, c),
            parent_id=1,
            value=f"a long text in row {r + 1} col {c + 1}",
        )
        for r in range(40)
        for c in range(12)
    ]
    ui = UIState(window=BIG, timestamp="now", targets=[Target(id=1, type="Table", name="Sheet Sheet1"), *cells])
    text = text_of(ui)
    assert compact.tokens(text) <= 1280 * 800 // 750 // 2, compact.tokens(text)
    assert "  1: a long text in row 1 col 1 |" in text and "  40: " not in text
    assert re.search(r"\(\d+ more rows in view, to row 40: `winctl get text A40` reads a cell", text), text


def test_a_long_list_keeps_the_rows_around_the_selected_one():
    rows = [
        Target(
            id=10 + i,
            type="ListItem",
            name=f"file-{i:03}.txt with a long description of it",
            parent_id=1,
            states=["selected"] if i == 50 else [],
        )
        for i in range(120)
    ]
    window = WindowInfo(id="0x3", title="Open File", rect=Rect(left=0, top=0, right=800, bottom=600))
    ui = UIState(window=window, timestamp="now", targets=[Target(id=1, type="List", name="Files"), *rows])
    text = text_of(ui)
    assert "file-050.txt" in text and "file-000.txt" not in text and "file-119.txt" not in text, text
    assert "more rows of [1]: `winctl find TEXT`, `winctl state --scope 1`" in text


def test_an_open_menus_items_are_never_collapsed_into_the_menu_line():
    """The menu bar's menus go on one line when over budget; the items of a menu that is open
    (listed first, on top) are what the next click is for: each keeps its line."""
    items = [Target(id=1 + i, type="MenuItem", name=f"Item {i}", parent_id=100) for i in range(8)]
    menus = [Target(id=200 + i, type="Menu", name=f"Menu {i}", parent_id=300) for i in range(12)]
    filler = [Target(id=400 + i, type="Text", name=f"a label that is long enough to cost {i}") for i in range(60)]
    window = WindowInfo(id="0x3", title="Editor", rect=Rect(left=0, top=0, right=800, bottom=600))
    ui = UIState(
        window=window, timestamp="now", targets=[*items, Target(id=300, type="MenuBar", name="Menus"), *menus, *filler]
    )
    text = text_of(ui)
    assert all(f'[{1 + i}] [MenuItem] "Item {i}"' in text for i in range(8)), text
    assert "(menus Menu 1, Menu 2," in text, text


ZENITY = WindowInfo(
    id="0x3", title="New account", pid=9, process="zenity", rect=Rect(left=503, top=299, right=779, bottom=540)
)


def filled_form() -> UIState:
    """zenity's New account form (276×241: a picture of 88 tokens) once filled in."""
    targets = [Target(id=1, type="Pane", name="Create an account", states=["enabled"])]
    for i, (name, kind, value) in enumerate(
        [
            ("Password", "Edit", None),
            ("Plan", "ComboBox", "Team"),
            ("Email", "Edit", "ada@example.org"),
            ("Full name", "Edit", "Ada Lovelace"),
        ]
    ):
        targets.append(
            Target(
                id=2 + 2 * i,
                type=kind,
                name=name,
                value=value,
                parent_id=1,
                states=["enabled", "focused"] if name == "Full name" else ["enabled"],
            )
        )
        targets.append(Target(id=3 + 2 * i, type="Text", name=name, parent_id=1, states=["enabled"]))
    targets += [
        Target(id=10, type="Button", name="Cancel", states=["enabled"]),
        Target(id=11, type="Button", name="OK", states=["enabled"]),
    ]
    return UIState(window=ZENITY, targets=targets, timestamp="now")


def test_a_small_forms_labels_go_before_its_fields_and_buttons():
    """Round 3 of the agent trial: the filled form cost 91 tokens against a budget of 79, and
    `state` printed 4 of its 11 lines — fields and OK cut, the labels next to the focus kept —
    so the agent ran `state --all`. The labels only repeat their fields' names: they go first,
    and then the form fits, with every field, value and button, and nothing to say about it."""
    ui = filled_form()
    text = text_of(ui)
    assert compact.tokens(text) <= compact.budget(ui)
    for name in ("Password", "Plan", "Email", "Full name", "Cancel", "OK"):
        assert f'"{name}"' in text, text
    assert 'value="Ada Lovelace" focused' in text and 'value="Team"' in text
    assert "[Text]" not in text and "summarized" not in text, text


def test_fields_are_never_cut_even_over_the_budget():
    ui = UIState(
        window=SMALL,
        targets=[Target(id=i, type="Edit", name=f"Field {i}", value="x" * 20) for i in range(1, 15)],
        timestamp="now",
    )
    text = text_of(ui)
    assert all(f'"Field {i}"' in text for i in range(1, 15)), text


def file_list(selected: int = 5) -> UIState:
    """A GTK file list as the backend reads it: column headers without a place, 20 rows in
    view of 400, three cells a row placed by (row, column), one row selected."""
    headers = [Target(id=2 + c, type="HeaderItem", name=n, parent_id=1) for c, n in enumerate(("ID", "Name", "Size"))]
    cells = [
        Target(
            id=10 + 3 * r + c,
            type="DataItem",
            parent_id=1,
            cell=(r + 11, c),
            name=(str(r + 12), f"report-{r + 12:04}.txt", f"{r + 2}.1 kB")[c],
            states=["selected"] if r == selected else [],
        )
        for r in range(20)
        for c in range(3)
    ]
    window = WindowInfo(id="0x3", title="Open File", rect=Rect(left=0, top=0, right=800, bottom=400))
    return UIState(
        window=window, timestamp="now", targets=[Target(id=1, type="Table", name="Files", rows=400), *headers, *cells]
    )


def test_a_list_with_columns_is_read_as_rows_led_by_their_first_cells_id():
    """A file chooser's list of 400 files was printed one line per cell and cut to six of
    them (two rows). Its rows in view now print one line each, led by the id of the row's
    first cell (a click on it selects the row), under a line with the columns and which
    rows of how many show."""
    text = text_of(file_list())
    assert '[1] [Table] "Files" rows 12–31 of 400 in view; columns: ID | Name | Size;' in text, text
    assert "\n  [10] 12 | report-0012.txt | 2.1 kB\n" in text, text
    assert "\n  [25] 17 | report-0017.txt | 7.1 kB selected\n" in text, text
    assert "\n  [67] 31 | report-0031.txt | 21.1 kB" in text, text
    assert "[11]" not in text and "[2] [HeaderItem]" not in text, text


def test_a_web_tables_header_row_names_its_columns_and_rows_count_below_it():
    """A web page's <table>: the header row is row 0 of the cells the backend placed, and
    the row count it read includes it: rows are numbered from the first below it. An unnamed
    table (a page's usually is) was cut whole as an unnamed element; a grid never is."""
    header = [
        Target(id=2 + c, type="HeaderItem", name=n, parent_id=1, cell=(0, c))
        for c, n in enumerate(("Name", "Team", "Pages"))
    ]
    cells = [
        Target(
            id=10 + 3 * r + c,
            type="DataItem",
            parent_id=1,
            cell=(r + 1, c),
            name=(f"report-{r + 1:04}", f"team {r % 9}", str(7 * r))[c],
        )
        for r in range(30)
        for c in range(3)
    ]
    window = WindowInfo(id="0x4", title="Reports - Chromium", rect=Rect(left=0, top=0, right=600, bottom=300))
    ui = UIState(
        window=window, timestamp="now", targets=[Target(id=1, type="Table", name="", rows=301), *header, *cells]
    )
    text = text_of(ui)
    assert '[1] [Table] "" rows 1–30 of 300 in view; columns: Name | Team | Pages;' in text, text
    assert "\n  [10] report-0001 | team 0 | 0\n" in text, text
    assert re.search(r"\n  \(\d+ more rows in view: `winctl state --scope 1` lists them\)", text), text


def test_a_list_that_fits_is_printed_cell_by_cell_as_before():
    ui = file_list()
    ui.window.rect = Rect(left=0, top=0, right=1920, bottom=1080)
    text = text_of(ui)
    assert '[10] [DataItem] "12"' in text and "rows 12–31" not in text, text


def test_a_web_tables_controls_keep_their_ids_in_the_row_line():
    """A page's rows hold a link, a button, a check box and a field (benchmarks/apps/web_page.py):
    folded into their row's line they would lose their ids; each is shown as `[ID] name`,
    with its state and value, the row led by its first plain text's id."""
    targets = [Target(id=1, type="Table", name="", rows=41)]
    targets += [
        Target(id=2 + c, type="HeaderItem", name=n, parent_id=1, cell=(0, c))
        for c, n in enumerate(("Id", "Item", "Action", "Note"))
    ]
    for r in range(1, 41):
        base = 100 * r
        targets += [
            Target(id=base, type="DataItem", name=str(r), parent_id=1, cell=(r, 0)),
            Target(id=base + 1, type="DataItem", name=f"Item {r}", parent_id=1, cell=(r, 1)),
            Target(id=base + 2, type="Hyperlink", name=f"Item {r}", parent_id=base + 1),
            Target(id=base + 3, type="DataItem", name="", parent_id=1, cell=(r, 2)),
            Target(id=base + 4, type="Button", name=f"Open {r}", parent_id=base + 3),
            Target(id=base + 5, type="DataItem", name="", parent_id=1, cell=(r, 3)),
            Target(id=base + 6, type="CheckBox", name="done", parent_id=base + 5, states=["checked"] if r == 2 else []),
            Target(id=base + 7, type="Edit", name=f"Note {r}", value=f"n{r}", parent_id=base + 5),
        ]
    window = WindowInfo(id="0x5", title="Bench page - Chromium", rect=Rect(left=0, top=0, right=1000, bottom=700))
    text = text_of(UIState(window=window, timestamp="now", targets=targets))
    assert "; columns: Id | Item | Action | Note;" in text, text
    assert '\n  [200] 2 | [202] Item 2 | [204] Open 2 | [206] done checked [207] Note 2="n2"\n' in text, text
