"""LibreOffice (gtk3 VCL plugin) read and driven for real, without harming it.

Calc's sheet declares 2,147,483,647 children and MANAGES_DESCENDANTS: a walk of them never
ends and swells soffice. These tests prove a state lists the visible cells by address, that
`input`/`get text` reach a cell (checked in the saved file), that soffice's memory and main
loop are untouched by a state, and that Writer lists only the visible paragraphs of a long
document.
"""

from __future__ import annotations

import csv
import json
import subprocess
import sys
import threading
import time
import zipfile
from pathlib import Path

import psutil
import pytest

from tests.conftest import desktop_env, stop_app, wait_for_window
from tests.e2e.helpers.office import cell, saved_rows, start_soffice
from winactions.backends.linux.atspi import ACCESSIBLE, AtspiClient, split_handle

pytestmark = pytest.mark.desktop


def soffice_pid(proc: subprocess.Popen[bytes]) -> int:
    """The soffice.bin process (the `soffice` script may exec it or start it as a child)."""
    me = psutil.Process(proc.pid)
    for p in [me, *me.children(recursive=True)]:
        if p.name().startswith("soffice.bin"):
            return p.pid
    return proc.pid


def test_calc_lists_visible_cells_by_address_with_the_files_values(winctl, calc):
    state = winctl.state()
    assert not state["truncated"], state["warnings"]
    assert cell(state, "A1")["value"] == "name" and cell(state, "B1")["value"] == "qty"
    assert cell(state, "A2")["value"] == "apple" and cell(state, "A3")["value"] == "pear"
    names = {t["name"] for t in state["targets"] if t["type"] == "DataItem"}
    assert {"A1", "C5", "H20"} <= names and "A2000" not in names  # visible cells only
    assert state["node_count"] < 5000
    # the formula bar and the sheet tabs are targets
    assert any(t["type"] == "TabItem" and t["name"] == "data" for t in state["targets"])
    assert any(t["type"] == "Paragraph" and t["name"] == "Input line" for t in state["targets"])
    assert any(t["type"] == "Edit" and t.get("value") == "A1" for t in state["targets"])  # the Name Box
    cells = cell(state, "B3")
    assert winctl("get", "text", str(cells["id"])).out.strip() == "5"


def test_calc_context_menu_is_listed_first_and_its_items_act(winctl, calc):
    """LibreOffice shows its context menu in a window of its own, which `state` lists with the
    sheet's: it came last, after the 1,200 cells it covers. It now comes first, as it lies on top,
    and its "Cut" chosen by id cuts the cell (the file saved shows it empty)."""
    data, _ = calc
    winctl("rightclick", str(cell(winctl.state(), "B2")["id"]))
    deadline = time.monotonic() + 10
    while True:
        targets = winctl.state()["targets"]
        if any(t["type"] == "MenuItem" and t["name"] == "Cut" for t in targets):
            break
        assert time.monotonic() < deadline, "the context menu was never listed"
        time.sleep(0.3)
    cut = next(i for i, t in enumerate(targets) if t["type"] == "MenuItem" and t["name"] == "Cut")
    first_cell = next(i for i, t in enumerate(targets) if t["type"] == "DataItem")
    assert targets[0]["type"] == "Menu" and cut < first_cell, [(t["type"], t["name"]) for t in targets[:5]]
    winctl("click", str(targets[cut]["id"]))
    rows = saved_rows(winctl, data, lambda rows: len(rows) > 1 and rows[1] == ["apple", ""])
    assert rows[1] == ["apple", ""], rows


def test_state_leaves_soffice_memory_and_main_loop_alone(winctl, calc, desktop):
    _, proc = calc
    soffice = psutil.Process(soffice_pid(proc))
    winctl.state()  # the first read builds LibreOffice's accessibles for good
    before = soffice.memory_info().rss
    with desktop_env(desktop):
        client = AtspiClient()
    app_root = None
    for bus, _name, pid in client.applications():
        if pid == soffice.pid:
            app_root = (bus, "/org/a11y/atspi/accessible/root")
    assert app_root is not None
    pings: list[float] = []
    stop = threading.Event()

    def ping() -> None:
        while not stop.is_set():
            started = time.monotonic()
            client.bus.run(client.bus.call(app_root[0], app_root[1], ACCESSIBLE, "GetRole"))
            pings.append(time.monotonic() - started)
            time.sleep(0.1)

    pinger = threading.Thread(target=ping)
    pinger.start()
    try:
        for _ in range(3):
            winctl.state()
    finally:
        stop.set()
        pinger.join()
        client.close()
    grown = (soffice.memory_info().rss - before) / 2**20
    assert grown < 12, f"soffice grew {grown:.1f} MB over 3 states"
    assert len(pings) >= 5 and max(pings) < 1.5, f"main loop pings: {pings}"
    window = wait_for_window(desktop, "data.csv - LibreOffice Calc")
    xprop = subprocess.run(
        ["xprop", "-id", window, "WM_NAME"], env=desktop.env, capture_output=True, text=True, timeout=5
    )
    assert "data.csv" in xprop.stdout
    assert split_handle(f"{app_root[0]}{app_root[1]}") == app_root


WINCTL = str(Path(sys.executable).with_name("winctl"))
READS_AFTER_KEYS = 50
GROWTH_BOUND_MB = 20  # measured here: +38.7 to +39.5 MB before, +11.5 to +12.2 MB after (see below)


def vm_rss_mb(pid: int) -> float:
    """The resident memory of a process as the kernel counts it (VmRSS), in MB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise AssertionError(f"no VmRSS for pid {pid}")


def test_reading_a_big_sheet_after_each_key_does_not_swell_soffice(winctl, desktop, tmp_path):
    """An agent reads a sheet all day: 50 `winctl state` calls through the session daemon, each
    after a key (Down), grew soffice by 39 MB (0.8 MB a read, never levelling off), and each
    state grew slower (the sheet sends each event to every cell object it ever made).
    LibreOffice 7.4 makes a new object for each cell asked for (Table.GetAccessibleAt, hit
    tests) and keeps it for good (the cell listens to its sheet): each state asked the ~76
    cells of the first visible row and column and two hit tests anew. A cell handed out in the
    last 10 s (at-spi2-atk keeps its path for 15 s) is now read again by its path, and a leased
    cell in view a row or a column off the last grid's corner spares a hit test: the same reads
    grow soffice by 11.5-12.2 MB here, much of it the keys themselves (a cursor move makes
    LibreOffice build cell objects for its own events; as the view scrolls by a row, its first
    row is read anew) and one full read per 10 s. The bound leaves room for a slower machine
    (leases run out by the clock: fewer states share one) and is half the best run before.
    The last state still lists the first column in view with the file's text, and a cell
    placed without a read lies where the app draws it (the mouse there selects it)."""
    rows, cols = 300, 30
    data = tmp_path / "big.csv"
    with data.open("w", newline="") as f:
        out = csv.writer(f)
        out.writerow([f"col{c}" for c in range(cols)])
        out.writerows([f"INV-{r:04d}", r * 3, f"name {r}"] + [r * c for c in range(3, cols)] for r in range(1, rows))
    proc = start_soffice(
        desktop,
        tmp_path,
        "--calc",
        "--infilter=Text - txt - csv (StarCalc):44,34,76,1",
        str(data),
        title="big.csv - LibreOffice Calc",
    )
    env = {**winctl.env}
    env.pop("WINCTL_NO_DAEMON", None)

    def shell(*args: str) -> str:
        done = subprocess.run([WINCTL, *args], env=env, capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, f"winctl {args} -> {done.returncode}\n{done.stdout[-2000:]}\n{done.stderr}"
        return done.stdout

    try:
        pid = soffice_pid(proc)
        shell("focus", "big.csv - LibreOffice Calc")
        for _ in range(10):  # LibreOffice builds its accessibles and draws new rows the first time
            shell("keys", "Down")
            shell("state")
        time.sleep(1)
        before = vm_rss_mb(pid)
        for _ in range(READS_AFTER_KEYS):
            shell("keys", "Down")
            shell("state")
        time.sleep(1)
        grown = vm_rss_mb(pid) - before
        state = json.loads(shell("--json", "state", "--verbose"))["result"]
        texts = {t["name"]: t.get("value") for t in state["targets"] if t["type"] == "DataItem"}
        first_column = [name for name in texts if name.startswith("A") and name[1:].isdigit() and int(name[1:]) > 1]
        assert first_column, sorted(texts)[:20]
        for name in first_column:
            assert texts[name] == f"INV-{int(name[1:]) - 1:04d}", (name, texts[name])
        # a cell placed without a read lies where the app draws it: the mouse there selects it
        placed = max(
            (
                t
                for t in state["targets"]
                if t["type"] == "DataItem" and t["name"].startswith("M") and t.get("value") is None
            ),
            key=lambda t: int(t["name"][1:]),
        )
        left, top, right, bottom = placed["rect"]
        subprocess.run(
            ["xdotool", "mousemove", str((left + right) // 2), str((top + bottom) // 2), "click", "1"],
            env=desktop.env,
            check=True,
        )
        time.sleep(0.5)
        after = json.loads(shell("--json", "state"))["result"]
        assert any(t["type"] == "Edit" and t.get("value") == placed["name"] for t in after["targets"]), placed
        assert grown < GROWTH_BOUND_MB, f"soffice grew {grown:.1f} MB over {READS_AFTER_KEYS} states after keys"
    finally:
        subprocess.run([WINCTL, "session", "close", "--all"], env=env, capture_output=True, timeout=60)
        stop_app(proc)
        subprocess.run(["pkill", "-P", str(proc.pid)], check=False)


def test_calc_input_into_a_placed_cell_lands_in_that_cell_of_the_file(winctl, calc):
    """C4 is placed by row and column (not read); input focuses that very cell through the
    table (LibreOffice draws cells a menu bar too high until its window is clicked, so the
    mouse would hit C3), types and commits; the saved file proves which cell took it."""
    data, _ = calc
    state = winctl.state()
    c4 = cell(state, "C4")
    done = winctl("input", str(c4["id"]), "typed by winctl", "--enter").out
    assert "via Component.GrabFocus, keyboard" in done, done
    deadline = time.monotonic() + 10  # Calc takes the typed keys as its main loop gets to them
    while winctl("get", "text", str(c4["id"])).out.strip() != "typed by winctl" and time.monotonic() < deadline:
        time.sleep(0.2)
    assert winctl("get", "text", str(c4["id"])).out.strip() == "typed by winctl"
    assert cell(winctl.state(), "C4")["id"] == c4["id"], "a cell's id is its place"
    rows = saved_rows(winctl, data, lambda rows: len(rows) >= 4 and len(rows[3]) >= 3 and bool(rows[3][2]))
    assert rows[:3] == [["name", "qty", ""], ["apple", "3", ""], ["pear", "5", ""]], rows
    assert rows[3] == ["", "", "typed by winctl"], rows


def test_calc_cells_are_listed_and_clicked_by_the_mouse_where_they_show_from_the_start(winctl, calc):
    """Until its window is first clicked, LibreOffice reports everything below its menu bar a
    menu bar's height too high (25 px): B3 was listed over B2, and a mouse click on B3 selected
    B2. Its content is placed by the GTK panel that holds it, in `state` and in a click that
    reads its cell anew: the Name Box, LibreOffice's own, names the cell the mouse took."""
    state = winctl.state("--verbose")
    b2, b3 = cell(state, "B2"), cell(state, "B3")
    assert b2["rect"][3] <= b3["rect"][1], (b2["rect"], b3["rect"])
    assert "via mouse" in winctl("click", str(b3["id"]), "--via", "input").out
    deadline = time.monotonic() + 5
    while (
        box := [
            t.get("value")
            for t in winctl.state()["targets"]
            if t["type"] == "Edit" and t.get("value", "")[:1].isalpha() and t.get("value", "")[1:].isdigit()
        ]
    ) != ["B3"]:
        assert time.monotonic() < deadline, box
        time.sleep(0.2)


def test_calc_cells_typed_one_after_another_are_each_committed(winctl, calc):
    """`input` into a cell typed the text into the cell's editor and left it open: the text was
    not in the cell, and Calc then said every cell of the sheet was disabled (and listed one
    column it does not show) until something committed it. Each input is committed now, as a
    user's Enter does: three inputs, no --enter, a formula among them, and the saved file holds
    each value and the formula's result; the sheet reads as enabled in between. --append is
    refused on a cell (ctrl+End there went to the sheet's last cell) before anything is typed."""
    data, _ = calc
    state = winctl.state()
    for address, text in (("C2", "10"), ("C3", "32"), ("C4", "=C2+C3")):
        done = winctl("input", str(cell(state, address)["id"]), text).out
        assert "via Component.GrabFocus, keyboard" in done, done
        after = winctl.state()
        sheet = next(t for t in after["targets"] if t["type"] == "Table")
        assert "disabled" not in sheet.get("states", []), f"the sheet is left editing after {address}"
    assert "the cell reads '42'" in done, done  # the formula's result, said as it reads
    refused = winctl("input", str(cell(state, "C2")["id"]), "0", "--append", expect=2)
    assert "--append cannot add to it; nothing was typed" in refused.err, refused.err
    winctl("input", str(cell(state, "C2")["id"]), "100")
    rows = saved_rows(winctl, data, lambda rows: len(rows) >= 4 and len(rows[3]) >= 3 and rows[3][2] == "132")
    assert [row[2] if len(row) > 2 else "" for row in rows[:4]] == ["", "100", "32", "132"], rows


def test_calc_cells_out_of_view_are_found_by_address_and_filled_in(winctl, calc):
    """A user fills Z200 by its address. The sheet lists only the cells in view, and its table
    declares 2**31 cells, so the name was searched in the pixels and not found ("no element of
    the window is named 'Z200'", after 5.6 s). The cell is asked of the table by its place now
    and scrolled to (LibreOffice scrolls to its cell cursor when a key moves it, not when the
    tree does); the saved file holds the text in row 200, column Z, and a formula beside the
    first rows reads it."""
    data, _ = calc
    done = winctl("input", "Z200", "far away").out
    assert done.startswith("input [") and '[DataItem] "Z200" via Component.GrabFocus, keyboard' in done, done
    assert "scrolled 'Z200' into view" in done, done
    assert "Z200" in {t["name"] for t in winctl.state()["targets"] if t["type"] == "DataItem"}
    done = winctl("input", "C2", "=Z200").out  # back to the top: C2 is out of view now
    assert "scrolled 'C2' into view" in done and "the cell reads 'far away'" in done, done
    rows = saved_rows(winctl, data, lambda rows: len(rows) >= 200)
    assert rows[199][25] == "far away" and rows[1][2] == "far away", (rows[199], rows[1])
    assert not any(v for row in rows[4:199] for v in row), "nothing else was written"


def test_calc_sidebar_buttons_are_named_by_their_decks(winctl, calc, desktop):
    """The sidebar puts each deck's button in a panel that carries its tooltip, in a toolbar
    named after the deck; the button has no name or description: `state` listed `[Button] ""`
    five times, each under a toolbar. Each is named by its tooltip now, the wrappers are not
    listed, and "Gallery (Ctrl+Alt+3)" opens the gallery deck."""
    state = winctl.state()
    buttons = {t["name"]: t["id"] for t in state["targets"] if t["type"] == "Button"}
    decks = ("Properties", "Styles", "Gallery", "Navigator", "Functions")
    for n, deck in enumerate(decks, start=1):
        assert f"{deck} (Ctrl+Alt+{n})" in buttons, sorted(buttons)
    assert not any(t["type"] == "ToolBar" and t["name"] in decks for t in state["targets"])
    winctl("click", str(buttons["Gallery (Ctrl+Alt+3)"]))
    deadline = time.monotonic() + 10
    while not any(t["name"] == "Gallery Theme" for t in winctl.state()["targets"]):
        assert time.monotonic() < deadline, "the gallery deck did not open"
        time.sleep(0.3)


def test_calc_typing_a_formula_keeps_the_visible_cells_listed(winctl, calc):
    """While a formula is being typed, Calc's cells answer a hit test with no index in their
    table: `state` fell back to a sweep down the middle and listed its column alone (M1, M2...),
    each a new id at every read. The cells are placed by their address now: the same grid,
    the same ids, said disabled as Calc says while it takes a formula."""
    before = {t["name"]: t["id"] for t in winctl.state()["targets"] if t["type"] == "DataItem"}
    winctl("click", str(before["D2"]))
    winctl("type", "=B2+")
    deadline = time.monotonic() + 10
    while True:
        during = {t["name"]: t for t in winctl.state()["targets"] if t["type"] == "DataItem"}
        sheet = next(t for t in winctl.state()["targets"] if t["type"] == "Table")
        if "disabled" in sheet.get("states", []) or time.monotonic() > deadline:
            break
        time.sleep(0.2)
    assert {"A1", "B2", "C3", "D4"} <= set(during), sorted(during)[:20]
    assert all(during[name]["id"] == before[name] for name in ("A1", "B2", "C3")), "a cell's id is its place"
    winctl("keys", "Escape")


def write_odt(path: Path, paragraphs: int) -> None:
    """A minimal OpenDocument text with this many paragraphs (~116 pages at 6,000)."""
    body = "".join(f"<text:p>Paragraph {i} of the long document.</text:p>" for i in range(1, paragraphs + 1))
    content = (
        '<?xml version="1.0" encoding="UTF-8"?><office:document-content '
        'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
        'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" office:version="1.2">'
        f"<office:body><office:text>{body}</office:text></office:body></office:document-content>"
    )
    manifest = (
        '<?xml version="1.0" encoding="UTF-8"?><manifest:manifest '
        'xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.2">'
        '<manifest:file-entry manifest:full-path="/" '
        'manifest:media-type="application/vnd.oasis.opendocument.text"/>'
        '<manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/>'
        "</manifest:manifest>"
    )
    with zipfile.ZipFile(path, "w") as z:
        z.writestr(zipfile.ZipInfo("mimetype"), "application/vnd.oasis.opendocument.text")
        z.writestr("META-INF/manifest.xml", manifest, zipfile.ZIP_DEFLATED)
        z.writestr("content.xml", content, zipfile.ZIP_DEFLATED)


def test_writer_lists_only_the_visible_paragraphs_of_a_long_document(winctl, desktop, tmp_path):
    """Writer's document declares MANAGES_DESCENDANTS: its paragraphs are found by hit tests
    down the visible page, never by walking the 6,000 paragraphs of the document."""
    doc = tmp_path / "long.odt"
    write_odt(doc, 6000)
    proc = start_soffice(desktop, tmp_path, "--writer", str(doc), title="long.odt - LibreOffice Writer")
    try:
        winctl("focus", "long.odt - LibreOffice Writer")
        started = time.monotonic()
        state = winctl.state()
        seconds = time.monotonic() - started
        paragraphs = [t for t in state["targets"] if t["type"] == "Paragraph"]
        texts = [t["name"] for t in paragraphs]
        # the visible start of the document, in order, and nothing past the first page
        shown = len(texts)
        assert 5 < shown < 200, texts
        assert texts == [f"Paragraph {i} of the long document." for i in range(1, shown + 1)], texts
        assert not state["truncated"], state["warnings"]
        assert state["node_count"] < 1000
        assert seconds < 10, f"the state took {seconds:.1f} s"
        # a paragraph's text, read when asked
        third = paragraphs[2]
        assert winctl("get", "text", str(third["id"])).out.strip() == "Paragraph 3 of the long document."
    finally:
        stop_app(proc)
        subprocess.run(["pkill", "-P", str(proc.pid)], check=False)


def test_a_paragraph_written_by_id_is_written_again_by_that_id(winctl, desktop, tmp_path):
    """A Writer paragraph is named by its text, so `input 15 TEXT` renamed it, and the next
    `input 15 --append ...` was refused: "element 15 was [Paragraph] "first line" and is now
    "written"". The name the agent's own input gave it is accepted now, by either route; a
    paragraph changed otherwise (typed into with the keyboard) is still refused. Typed, the
    appended text went half to the end of the document (ctrl+End, which Writer acted on only
    after " th" had gone in): the cursor is put at the paragraph's end through its text
    interface now. The saved file (which Writer starts with a BOM) holds what was written."""
    doc = tmp_path / "notes.txt"
    doc.write_text("first line\nsecond line\n")
    proc = start_soffice(desktop, tmp_path, "--writer", str(doc), title="notes.txt - LibreOffice Writer")
    try:
        winctl("focus", "notes.txt - LibreOffice Writer")
        state = winctl.state()
        first, second = (winctl.find("Paragraph", name, state) for name in ("first line", "second line"))
        winctl("input", str(first), "written")
        winctl("input", str(first), "--append", " twice")
        winctl("input", str(first), "--append", " thrice", "--via", "input")
        assert winctl.find("Paragraph", "second line") == second  # read again: Writer moves as its bars settle
        winctl("click", str(second))
        winctl("keys", "End")
        winctl("type", " typed")
        refused = winctl("input", str(second), "--append", " again", expect=3)
        assert f'element {second} was [Paragraph] "second line" and is now "second line typed"' in refused.err, (
            refused.err
        )
        winctl("keys", "ctrl+s")
        wait_for_window(desktop, "Confirm File Format")
        winctl("focus", "Confirm File Format")
        winctl("click", "Use Text Format")
        deadline = time.monotonic() + 15
        while doc.read_text("utf-8-sig").splitlines()[:1] != ["written twice thrice"] and time.monotonic() < deadline:
            time.sleep(0.3)
        assert doc.read_text("utf-8-sig").splitlines() == ["written twice thrice", "second line typed"], doc.read_text()
    finally:
        stop_app(proc)
        subprocess.run(["pkill", "-P", str(proc.pid)], check=False)


def test_a_maximized_writer_shows_one_menu_bar_and_is_clicked_where_it_shows(winctl, desktop, tmp_path):
    """Writer keeps its own menu bar, flattened to no height and still "showing", under the GTK
    one: `click File` was refused as ambiguous, and its File took an action that opened
    nothing. Maximized, every place was 19 px too low (see `placement_of`): a mouse click on
    File pressed the New button under it and opened a second document. Now one File is
    listed, and the mouse opens it and its "Save As...": the dialog shows, no new document."""
    doc = tmp_path / "short.odt"
    write_odt(doc, 3)
    proc = start_soffice(desktop, tmp_path, "--writer", str(doc), title="short.odt - LibreOffice Writer")
    try:
        winctl("focus", "short.odt - LibreOffice Writer")
        winctl("window", "maximize")
        time.sleep(1)  # the frame settles into its new size
        assert "via action:" in winctl("click", "File").out  # one File, named by a plain target
        winctl("keys", "Escape")
        file_menu = next(t for t in winctl.state()["targets"] if t["type"] == "Menu" and t["name"] == "File")
        assert "via mouse" in winctl("click", str(file_menu["id"]), "--via", "input").out
        deadline = time.monotonic() + 10
        while not (save_as := [t for t in winctl.state()["targets"] if t["name"] == "Save As..."]):
            assert time.monotonic() < deadline, "the File menu did not open"
            time.sleep(0.2)
        assert "via mouse" in winctl("click", str(save_as[0]["id"]), "--via", "input").out
        wait_for_window(desktop, "Save")  # LibreOffice's file dialog ("Save", "Save As" by version)
        titles = subprocess.run(["wmctrl", "-l"], env=desktop.env, capture_output=True, text=True).stdout
        assert "Untitled" not in titles, titles
    finally:
        stop_app(proc)
        subprocess.run(["pkill", "-P", str(proc.pid)], check=False)


def test_a_second_launch_handed_to_the_running_soffice_selects_its_new_window(winctl, calc, desktop, tmp_path):
    """With Calc open, `winctl launch soffice --writer` (same profile) hands the request to the
    running soffice.bin through its pipe and exits; the Writer window that soffice opens is
    selected and read, and the result says who took the launch over."""
    _, proc = calc
    result = winctl(
        "--json",
        "launch",
        "--timeout",
        "60",
        "--",
        "soffice",
        "--norestore",
        "--nologo",
        f"-env:UserInstallation=file://{tmp_path / 'lo-profile'}",
        "--writer",
    ).json["result"]
    try:
        assert f"handed over to the running soffice.bin (pid {soffice_pid(proc)})" in result["detail"], result
        assert "LibreOffice Writer" in result["window"]["title"], result
        wait_for_window(desktop, "LibreOffice Writer")
        state = winctl.state()
        assert "LibreOffice Writer" in state["window"]["title"]
        assert any(t["type"] == "Paragraph" for t in state["targets"]), "the new document's body is read"
    finally:
        winctl("close", expect=None)
