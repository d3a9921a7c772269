"""The state's header says `modified`, and a value's line breaks show, without a desktop."""

from __future__ import annotations

import json

from winactions.commands.results import StateResult
from winactions.model import Node, Target, UIState, WindowInfo
from winactions.perception.document import unsaved
from winactions.render import to_json, to_text

WRITER = WindowInfo(id="0x1", title="report.odt - LibreOffice Writer", pid=7, process="soffice.bin")


def state(value: str | None = None, modified: bool | None = None, window: WindowInfo = WRITER) -> StateResult:
    ui = UIState(
        window=window,
        targets=[Target(id=1, type="Edit", value=value, states=["enabled"])],
        timestamp="now",
        modified=modified,
    )
    return StateResult(state=ui)


def test_the_header_says_modified_only_when_the_document_is():
    assert to_text(state(modified=True)).splitlines()[0].endswith("(soffice.bin, pid 7, id 0x1) modified")
    for answer in (False, None):
        assert to_text(state(modified=answer)).splitlines()[0].endswith("id 0x1)")
    assert json.loads(to_json(state(modified=True)))["result"]["modified"] is True
    assert json.loads(to_json(state()))["result"]["modified"] is None


def test_a_values_line_breaks_show_as_escapes_and_read_one_way():
    """A text area's value was shown with its lines joined by spaces: agents called `get text`
    to see where they broke. A backslash of the text is doubled, so `\\n` means a line break."""
    line = to_text(state('first line\nsecond\tline "quoted" C:\\new')).splitlines()[1]
    assert line == '[1] [Edit] "" value="first line\\nsecond\\tline \\"quoted\\" C:\\\\new"', line


def test_a_long_value_is_capped_and_an_escape_never_cut_in_two():
    line = to_text(state("a" * 58 + "\nmore")).splitlines()[1]
    assert 'value="' + "a" * 58 + '…"' in line, line
    assert len(line.split('value="')[1]) <= 61


def node(
    index_parent: int | None, role: str, name: str = "", native: str = "", states: frozenset[str] = frozenset()
) -> Node:
    return Node(
        handle=f"h/{role}/{name}",
        parent=index_parent,
        role=role,
        native_role=native or role.lower(),
        name=name,
        states=states,
    )


def writer_tree(save_all_enabled: bool) -> list[Node]:
    """A frame, LibreOffice's own menu bar under its root pane (File > Save All), and the
    GTK copy of its menus, which is updated only when opened."""
    enabled = frozenset({"enabled"})
    return [
        node(None, "Window", WRITER.title, "frame"),
        node(0, "Pane", WRITER.title, "root-pane"),
        node(1, "MenuBar"),
        node(2, "Menu", "File"),
        node(3, "MenuItem", "Save All", states=enabled if save_all_enabled else frozenset()),
        node(0, "MenuBar"),
        node(5, "Menu", "File"),
        node(6, "MenuItem", "Save All", states=frozenset()),
    ]


def test_libreoffice_is_modified_while_its_own_save_all_is_enabled():
    def windows(*titles: str) -> list[WindowInfo]:
        return [WRITER.model_copy(update={"title": t}) for t in titles]

    for enabled, expected in ((True, True), (False, False)):
        tree = writer_tree(enabled)
        asked: list[str] = []

        def reread(handle: str, tree: list[Node] = tree, asked: list[str] = asked) -> Node | None:
            asked.append(handle)
            return next(n for n in tree if n.handle == handle and n.parent == 3)

        assert unsaved(WRITER, tree, reread, lambda: windows(WRITER.title)) is expected
        assert asked == ["h/MenuItem/Save All"]  # read again now: a kept tree may be older
    # Save All is the app's: with two documents open it cannot say which one is modified
    assert (
        unsaved(
            WRITER,
            writer_tree(True),
            lambda h: writer_tree(True)[4],
            lambda: windows(WRITER.title, "data.ods - LibreOffice Calc"),
        )
        is None
    )
    assert (
        unsaved(
            WRITER,
            writer_tree(False),
            lambda h: writer_tree(False)[4],
            lambda: windows(WRITER.title, "data.ods - LibreOffice Calc"),
        )
        is False
    )


def test_a_title_mark_says_modified_and_no_mark_says_nothing():
    never: list[Node] = []
    geany = WindowInfo(id="0x2", title="*notes.txt - /tmp - Geany", pid=9, process="geany")
    assert unsaved(geany, never, lambda h: None, lambda: []) is True
    assert (
        unsaved(geany.model_copy(update={"title": "notes.txt - /tmp - Geany"}), never, lambda h: None, lambda: [])
        is None
    )


def test_a_full_terminal_screen_costs_less_than_its_picture():
    """An 80×24 terminal's picture is ~380 tokens (656×436 / 750): `state` keeps the newest rows
    within ~300 tokens, names how many it left out and how to read them, and never drops the
    cursor's row or those below it."""
    from winactions.commands.formats import target_line
    from winactions.compact import tokens

    rows = [f"-rw-r--r-- 1 root root {n:>8} Nov 27 12:00 file-number-{n:03d}.txt" for n in range(24)]
    line = target_line(Target(id=4, type="Terminal", name="bash", screen=rows, cursor_row=23))
    assert tokens(line) < 656 * 436 // 750
    assert "rows above not shown: `winctl get text 4`" in line
    assert line.splitlines()[-1].startswith("> ") and "file-number-023" in line
    left_out = int(line.split("(")[2].split(" rows above")[0])
    assert f"file-number-{left_out:03d}" in line and f"file-number-{left_out - 1:03d}" not in line
    menu = target_line(Target(id=4, type="Terminal", name="bash", screen=rows, cursor_row=2))
    assert "file-number-002" in menu and "rows above not shown" in menu  # the cursor's row stays
    short = target_line(Target(id=4, type="Terminal", name="bash", screen=rows[:5], cursor_row=4))
    assert "not shown" not in short and all(f"file-number-{n:03d}" in short for n in range(5))
