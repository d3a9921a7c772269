"""A default `state` of a big real window costs at most half its picture (issue 39, item 3).

LibreOffice Calc maximized (the trial's calc-invoices task) printed 15,664 bytes = 3,916
tokens where a picture of the window costs 1,365: 495 cells one line each (406 of them
without their text), ~150 toolbar buttons one line each. Its sheet now reads as rows checked
against the file, and a toolbar button left out of the listing is still clicked by name and
by id (the saved file shows what it did).
"""

from __future__ import annotations

import csv
import json
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.conftest import stop_app
from tests.e2e.helpers.office import saved_rows, start_soffice

pytestmark = pytest.mark.desktop
WINCTL = str(Path(sys.executable).with_name("winctl"))
TITLE = "invoices.csv - LibreOffice Calc"
CUSTOMERS = ["Globex", "Initech", "Umbrella", "Hooli"]
ROW = re.compile(r"^  (\d+): (.*)$")


@pytest.fixture
def invoices(desktop, tmp_path, winctl):
    """A 300-invoice sheet in Calc, 1280×800 (the trial's screen, maximized)."""
    data = tmp_path / "invoices.csv"
    rows = [["Invoice", "Customer", "Amount", "Status"]] + [
        [f"INV-{r:04d}", CUSTOMERS[r % 4], str(100 + 37 * r % 900), "Paid" if r % 3 == 0 else "Open"]
        for r in range(1, 301)
    ]
    with data.open("w", newline="") as f:
        csv.writer(f).writerows(rows)
    proc = start_soffice(
        desktop, tmp_path, "--calc", "--infilter=Text - txt - csv (StarCalc):44,34,76,1", str(data), title=TITLE
    )
    winctl("focus", TITLE)
    winctl("window", "restore")  # LibreOffice opens maximized on the test's 1920×1080 screen
    winctl("window", "move", "0", "0", "1280", "800")  # the trial's laptop screen, as a maximized window
    time.sleep(1.5)  # the frame settles into its new size
    yield data, rows
    subprocess.run([WINCTL, "session", "close", "--all"], env=winctl.env, capture_output=True, timeout=60)
    stop_app(proc)
    subprocess.run(["pkill", "-P", str(proc.pid)], check=False)


def tokens(text: str) -> int:
    """What a text costs an LLM, as the trial counts it: its UTF-8 bytes / 4."""
    return len(text.encode()) // 4


def grid_rows(text: str) -> dict[int, list[str]]:
    return {int(m.group(1)): m.group(2).split(" | ") for m in map(ROW.match, text.splitlines()) if m}


def picture_tokens(state: dict) -> tuple[int, int, int]:
    rect = state["window"]["rect"]
    width, height = rect["right"] - rect["left"], rect["bottom"] - rect["top"]
    return width, height, width * height // 750


def test_a_maximized_calc_prints_its_grid_as_the_file_holds_it_in_half_a_picture(winctl, invoices):
    """Through the CLI and the session daemon: the grid's rows are the file's rows (a cell
    not read shown as `?`; the first 20 rows read whole), and the text costs at most half a picture."""
    _, rows = invoices
    width, height, picture = picture_tokens(winctl.state())
    assert width >= 1000 and height >= 700, (width, height)
    session = subprocess.run(
        [WINCTL, "--session", "grid", "state"], env=winctl.env, capture_output=True, text=True, timeout=120
    ).stdout
    for text in (winctl("state").out, session):
        assert tokens(text) <= picture // 2, (tokens(text), picture, text)
        printed = grid_rows(text)
        assert len(printed) >= 20, text
        for number, cells in printed.items():  # a cell not read says so: never another text
            assert [c if c == "?" else f for c, f in zip(cells, rows[number - 1])] == cells, (number, cells)
            assert len(cells) == 4
        whole = [n for n, cells in printed.items() if "?" not in cells]
        assert len(whole) >= 20 and whole == list(range(1, len(whole) + 1)), text  # the sheet's read budget
        assert "data in A–D" in text and "`winctl state --all`" in text, text
        assert "[DataItem]" not in text
    every = winctl("state", "--all").out  # the full listing, one line per cell, as before
    assert '[DataItem] "A2" value="INV-0001"' in every and tokens(every) > picture


def test_a_toolbar_button_left_out_is_clicked_by_name_and_by_id(winctl, invoices):
    """ "Percent" and "Currency" are not listed (their toolbar is one summary line); clicked by
    name (CLI) and by the id `state --all` gives (session daemon), the saved file shows C2 as a
    percentage and C3 as money."""
    data, _ = invoices
    text = winctl("state").out
    assert '"Percent"' not in text and "`winctl click NAME`" in text, text
    winctl("click", "C2")  # the cell cursor to C2
    winctl("click", "Percent")
    every = json.loads(
        subprocess.run(
            [WINCTL, "--session", "tb", "--json", "state", "--all"],
            env=winctl.env,
            capture_output=True,
            text=True,
            timeout=120,
        ).stdout
    )["result"]
    currency = next(t["id"] for t in every["targets"] if t["type"] == "Button" and t["name"] == "Currency")
    winctl("keys", "Down")  # to C3
    done = subprocess.run(
        [WINCTL, "--session", "tb", "click", str(currency)], env=winctl.env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0 and "Currency" in done.stdout, done
    subprocess.run([WINCTL, "session", "close", "tb"], env=winctl.env, capture_output=True, timeout=60)
    winctl("focus", TITLE)
    saved = saved_rows(winctl, data, lambda r: len(r) > 2 and "%" in r[1][2] and not r[2][2].isdigit())
    assert saved[1][2].endswith("%"), saved[1]
    assert not saved[2][2].isdigit() and "174" in saved[2][2], saved[2]
