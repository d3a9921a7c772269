"""LibreOffice started as a user starts it, the tables the tests search (sheets, and a web
page's), and reading back what Calc saved."""

from __future__ import annotations

import csv
import shutil
import subprocess
import time
from pathlib import Path

import pytest

from tests.conftest import wait_for_window
from winactions.agent import odf

INVOICES_TITLE = "invoices.ods - LibreOffice Calc"  # Calc's window on `invoices()` saved as invoices.ods


def start_soffice(desk, tmp_path: Path, *args: str, title: str) -> subprocess.Popen[bytes]:
    """soffice as a user starts it under the virtual desktop: gtk3 plugin, own profile."""
    if shutil.which("soffice") is None:
        pytest.fail("LibreOffice is not installed: run scripts/setup.sh test (scripts/packages/test-libreoffice.txt)")
    profile = tmp_path / "lo-profile"
    env = {**desk.env, "SAL_USE_VCLPLUGIN": "gtk3"}
    proc = subprocess.Popen(
        ["soffice", "--norestore", "--nologo", f"-env:UserInstallation=file://{profile}", *args],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        wait_for_window(desk, title, timeout=60)
    except AssertionError:
        proc.kill()
        raise
    time.sleep(2)  # the sheet's accessible appears after the frame
    return proc


def saved_rows(winctl, data: Path, done) -> list[list[str]]:
    """Save the sheet in its CSV file (keeping the format) and read the file back once `done`
    says the rows are written (or after 15 s)."""
    winctl("keys", "ctrl+s")
    time.sleep(1.5)
    winctl("keys", "Enter")  # "Use Text CSV Format!"
    deadline = time.monotonic() + 15
    rows: list[list[str]] = []
    while time.monotonic() < deadline:
        rows = list(csv.reader(data.read_text().splitlines()))
        if done(rows):
            break
        time.sleep(0.3)
    return rows


def saved(path: Path, before: float) -> list[list[str]]:
    """The .ods file's rows once it is saved after `before` (its mtime then; within 20 s)."""
    deadline = time.monotonic() + 20
    while path.stat().st_mtime <= before:
        assert time.monotonic() < deadline, "the sheet was not saved"
        time.sleep(0.2)
    time.sleep(0.5)  # written in full
    return odf.read_sheet(path)


def cell(state, address):
    """The sheet cell listed under this address (`B2`)."""
    return next(t for t in state["targets"] if t["type"] == "DataItem" and t["name"] == address)


def invoices() -> list[list[str | float]]:
    """A header row and 300 invoices: INV-0001 ... INV-0300, customer, amount, status."""
    rows: list[list[str | float]] = [["Invoice", "Customer", "Amount", "Status"]]
    rows += [[f"INV-{n:04d}", f"Customer {n % 7}", n * 3, "Open"] for n in range(1, 301)]
    return rows


def invoices_csv(path: Path, rows: int = 300) -> Path:
    """A sheet an agent searches: INV-0001 in A2 ... INV-0300 in A301."""
    path.write_text(
        "invoice,customer,amount,status\n"
        + "".join(f"INV-{i:04d},Cust {i % 17},{i * 10},Open\n" for i in range(1, rows + 1))
    )
    return path


def reports_page(path: Path, rows: int = 3000) -> str:
    """A page with a table of `rows` reports; a click on a row names it in the page's title."""
    body = "".join(f"<tr><td>report-{i:04d}</td><td>team {i % 9}</td><td>{i * 7}</td></tr>" for i in range(1, rows + 1))
    path.write_text(
        "<!doctype html><html><head><meta charset='utf-8'><title>Reports</title></head><body>"
        "<h1>Reports</h1><table><thead><tr><th>Name</th><th>Team</th><th>Pages</th></tr></thead>"
        f"<tbody>{body}</tbody></table><script>document.querySelector('tbody').addEventListener("
        "'click', e => { document.title = 'Picked ' + e.target.closest('tr').cells[0].textContent; });"
        "</script></body></html>"
    )
    return path.as_uri()
