"""winctl on a real Windows desktop: Notepad, Calculator, a WinForms grid and list, bound mode.

These run only on Windows (marker `windows`; .github/workflows/windows.yml runs them on a
hosted runner). Each checks the app's own account of what happened: the file Notepad
saved, Calculator's display, the CSV the grid writes, the real cursor that did not move.
"""

from __future__ import annotations

import ctypes
import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.windows
HERE = Path(__file__).resolve().parent


def winctl(*args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        [sys.executable, "-m", "winactions.cli.entry", *args], capture_output=True, text=True, timeout=120
    )
    if check:
        assert done.returncode == 0, f"winctl {' '.join(args)}\n{done.stdout}\n{done.stderr}"
    return done


def state() -> list[dict]:
    return json.loads(winctl("--json", "state", "--verbose").stdout)["result"]["targets"]


def find(targets: list[dict], **match: str) -> dict:
    return next(t for t in targets if all(t.get(k) == v for k, v in match.items()))


def wait(predicate, timeout: float = 15.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.3)
    raise AssertionError("timed out")


@pytest.fixture
def notepad():
    winctl("launch", "notepad.exe", "--title", "Notepad")
    yield
    winctl("keys", "alt+F4", check=False)
    winctl("keys", "n", check=False)  # "don't save" if it asks
    subprocess.run(["taskkill", "/IM", "notepad.exe", "/F"], capture_output=True)


def test_notepad_type_save_and_read_back(notepad, tmp_path):
    target = tmp_path / "winctl.txt"
    editor = next(t for t in state() if t["type"] in ("Document", "Edit"))
    winctl("input", str(editor["id"]), "typed by winctl")
    assert winctl("get", "text", str(editor["id"])).stdout.strip() == "typed by winctl"
    winctl("keys", "ctrl+s")
    wait(lambda: any(t["type"] == "Edit" and "File name" in t["name"] for t in state()))
    name_box = next(t for t in state() if t["type"] == "Edit" and "File name" in t["name"])
    winctl("input", str(name_box["id"]), str(target), "--enter")
    assert wait(lambda: target.exists() and target.read_text(encoding="utf-8-sig").strip()) == "typed by winctl"


def test_calculator_computes_by_clicking():
    winctl("launch", "calc.exe", "--title", "Calculator")
    try:
        targets = state()
        for key in ("num7Button", "plusButton", "num8Button", "equalButton"):
            winctl("click", str(find(targets, automation_id=key)["id"]))
        assert wait(lambda: "Display is 15" in winctl("state").stdout)
    finally:
        subprocess.run(["taskkill", "/IM", "CalculatorApp.exe", "/F"], capture_output=True)


def test_winforms_grid_cells_and_inferred_column_border(tmp_path):
    out = tmp_path / "grid.csv"
    proc = subprocess.Popen(
        [
            "powershell",
            "-NoProfile",
            "-ExecutionPolicy",
            "Bypass",
            "-File",
            str(HERE / "grid_form.ps1"),
            "-Out",
            str(out),
        ]
    )
    try:
        wait(lambda: winctl("focus", "Orders Grid", check=False).returncode == 0)
        inferred = json.loads(winctl("--json", "--infer", "state", "--verbose").stdout)["result"]["targets"]
        border = find(inferred, type="ColumnBorder", name="Name | Qty")
        x, y = (border["rect"][0] + border["rect"][2]) // 2, (border["rect"][1] + border["rect"][3]) // 2
        winctl("drag-at", str(x), str(y), str(x + 40), str(y))
        cell = find(state(), type="DataItem", name="Name Row 2")
        winctl("input", str(cell["id"]), "Gadget")
        winctl("click", str(find(state(), type="Button", name="Save")["id"]))
        lines = wait(lambda: out.exists() and out.read_text(encoding="utf-8-sig").splitlines())
        assert lines[0].startswith("Name:160,Qty:120"), lines[0]
        assert lines[3].startswith("Gadget,"), lines
    finally:
        proc.kill()


def test_a_list_item_scrolled_out_of_view_is_clicked_by_name(tmp_path):
    """A list box of 100 entries shows 12: "Entry 80" is not in the state's read (offscreen items
    are left out). `click "Entry 80"` finds it in the list by name, scrolls it into view (its
    ScrollItem pattern, else the wheel) and selects it: the app writes which entry it selected."""
    out = tmp_path / "selected.txt"
    proc = subprocess.Popen(
        [
            "powershell",
            "-NoProfile",
            "-ExecutionPolicy",
            "Bypass",
            "-File",
            str(HERE / "list_form.ps1"),
            "-Out",
            str(out),
        ]
    )
    try:
        wait(lambda: winctl("focus", "Long List", check=False).returncode == 0)
        assert not any(t["name"] == "Entry 80" for t in state())
        done = winctl("click", "Entry 80").stdout
        assert "scrolled 'Entry 80' into view" in done, done
        assert wait(lambda: out.exists() and out.read_text(encoding="utf-8-sig").strip()) == "Entry 80"
    finally:
        proc.kill()


def test_bound_typing_leaves_the_real_cursor_alone(notepad):
    import ctypes.wintypes as wt

    point = wt.POINT()
    ctypes.windll.user32.GetCursorPos(ctypes.byref(point))
    before = (point.x, point.y)
    winctl("bind-window", "bind", "Notepad")
    try:
        winctl("type", "in the background")
        editor = next(t for t in state() if t["type"] in ("Document", "Edit"))
        assert "in the background" in winctl("get", "text", str(editor["id"])).stdout
        ctypes.windll.user32.GetCursorPos(ctypes.byref(point))
        assert (point.x, point.y) == before
    finally:
        winctl("bind-window", "unbind")
