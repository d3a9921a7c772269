"""LibreOffice Calc: what `state`, `get`, `inspect` and `find` say of a cell agrees, with each
other and with the file the sheet was opened from.

The sheet is a CSV of 250 invoices (about 1,300 elements in a state): row 1 is a header
("Invoice", "Client", "Total", "Status"), row N+1 holds INV-000N. Calc shows rows 1 to ~40; A218
(INV-0217) is out of view.
"""

from __future__ import annotations

import csv
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import Winctl, stop_app
from tests.e2e.helpers.office import start_soffice
from tests.fixtures.sheets import CSV_FILTER

pytestmark = pytest.mark.desktop
WINCTL = str(Path(sys.executable).with_name("winctl"))
TITLE = "invoices.csv - LibreOffice Calc"


@pytest.fixture
def invoices(desktop, tmp_path: Path, winctl: Winctl) -> Iterator[list[list[str]]]:
    """Calc on the invoices; yields the rows of the CSV file as the file holds them."""
    data = tmp_path / "invoices.csv"
    with data.open("w", newline="") as f:
        out = csv.writer(f)
        out.writerow(["Invoice", "Client", "Total", "Status"])
        for n in range(1, 251):
            out.writerow([f"INV-{n:04d}", f"Client {n % 17}", n * 10, "Paid" if n % 3 else "Open"])
    proc = start_soffice(desktop, tmp_path, "--calc", CSV_FILTER, str(data), title=TITLE)
    winctl("focus", TITLE)
    yield list(csv.reader(data.read_text().splitlines()))
    stop_app(proc)
    subprocess.run(["pkill", "-P", str(proc.pid)], check=False)


def cell(state: dict, address: str) -> dict:
    return next(t for t in state["targets"] if t["type"] == "DataItem" and t["name"] == address)


def test_get_value_and_inspect_of_a_text_cell_say_what_state_shows(winctl: Winctl, invoices):
    """`state` showed `[91] [DataItem] "C1" value="Total"` while `get value C1` printed 0: a
    cell's numeric Value interface says 0 for text, and `get value` read that where `state`
    reads the cell's text. `inspect` printed "Total" on its top line and "value: 0" below it.
    All three say the text now, and it is the file's."""
    rows = invoices
    state = winctl.state()
    c1 = cell(state, "C1")
    assert c1["value"] == rows[0][2] == "Total"
    assert winctl("get", "value", "C1").out.strip() == "Total"
    assert winctl("get", "value", str(c1["id"])).out.strip() == "Total"
    assert winctl("get", "value", str(cell(state, "C2")["id"])).out.strip() == rows[1][2] == "10"
    shown = winctl("inspect", str(c1["id"])).out.splitlines()
    assert 'value="Total"' in shown[0], shown
    assert "  value: Total" in shown, shown
    element = winctl("--json", "inspect", str(c1["id"])).json["result"]
    assert element["element"]["value"] == element["target"]["value"] == "Total"


def test_find_says_none_matched_and_finds_a_cell_by_its_text(winctl: Winctl, invoices):
    """`find --name INV-9999` on the sheet said "the window exposes no accessible elements"
    when nothing matched among its ~1,300. It says none matched now, and a cell whose text is
    in view (A4, "INV-0003") is found by that text (a cell's name is its address); one out of
    view too (test_find_anywhere)."""
    rows = invoices
    missing = winctl("find", "--name", "INV-9999")
    assert "none matched" in missing.out and '"INV-9999"' in missing.out, missing.out
    assert "exposes no accessible elements" not in missing.out
    nothing = winctl("--json", "find", "--name", "INV-9999").json["result"]
    assert nothing["targets"] == [] and '--name "INV-9999"' in nothing["searched"], nothing
    found = winctl("--json", "find", "--name", "INV-0003").json["result"]["targets"]
    assert [(t["name"], t["value"]) for t in found] == [("A4", rows[3][0])], found


def test_get_text_reaches_a_cell_out_of_view_by_its_address(winctl: Winctl, invoices):
    """`get text A218` refused ("no element the window shows is named 'A218' ... one out of
    view is read by its id"), though such a cell has no id, while `input A218` reaches it by its
    address. `get` reads it by its address too, and leaves the sheet where it was."""
    rows = invoices
    assert "A218" not in {t["name"] for t in winctl.state()["targets"]}
    assert winctl("get", "text", "A218").out.strip() == rows[217][0] == "INV-0217"
    assert winctl("get", "value", "C218").out.strip() == rows[217][2] == "2170"
    inspected = winctl("--json", "inspect", "A218").json["result"]
    assert inspected["target"]["id"] == 0 and inspected["element"]["value"] == "INV-0217", inspected
    after = {t["name"] for t in winctl.state()["targets"]}
    assert "A1" in after and "A218" not in after  # reading scrolled nothing
    gone = winctl("get", "text", "ZZ9999999", expect=3)  # no such place: said so, with the way to look
    assert "the sheet has no cell 'ZZ9999999'" in gone.err, gone.err


def test_the_same_answers_through_the_daemon(winctl: Winctl, invoices):
    """The same three answers through the session daemon (`--session`)."""
    rows = invoices

    def daemon(*args: str) -> str:
        done = subprocess.run(
            [WINCTL, "--session", "cells", *args], env=winctl.env, capture_output=True, text=True, timeout=120
        )
        assert done.returncode == 0, f"winctl {args} -> {done.returncode}\n{done.stdout}\n{done.stderr}"
        return done.stdout

    try:
        daemon("focus", TITLE)
        state = json.loads(daemon("--json", "state"))["result"]
        assert cell(state, "C1")["value"] == "Total"
        assert daemon("get", "value", "C1").strip() == rows[0][2]
        assert "none matched" in daemon("find", "--name", "INV-9999")
        assert daemon("get", "text", "A218").strip() == rows[217][0]
    finally:
        subprocess.run([WINCTL, "session", "close", "--all"], env=winctl.env, capture_output=True, timeout=60)
