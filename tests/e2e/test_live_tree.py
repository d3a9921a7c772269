"""A daemon's tree after a change, read from the events, equals a whole read of the same window.

The live client (what the session daemon runs) keeps the tree it read and, after a change,
reads only the elements and children lists the app's events name (atspi_events). That is
only worth having if it never shows a stale element: after every step below — focus moves,
typing, toggles, tab switches, menus, rows and list items added, elements shown, hidden and
renamed, a spreadsheet's cursor moved and a cell typed into — its snapshot is compared field
by field with a whole read by a fresh client, on real apps: the GTK fixture, a Chromium page
and LibreOffice Calc. Each test also proves the partial path ran (not just whole reads).
"""

from __future__ import annotations

import subprocess
import time
from pathlib import Path

import pytest

from tests.conftest import environment, start_app, stop_app, wait_for_window
from tests.e2e.helpers.office import start_soffice
from tests.fixtures.launch import chromium_command, gtk_fixture_command
from tests.fixtures.sheets import CSV_FILTER, write_sheet
from winactions.backends.linux.atspi import AtspiClient
from winactions.model import Operation, Snapshot

pytestmark = pytest.mark.desktop

PAGE = """<!doctype html><html><head><meta charset="utf-8"><title>Live page</title></head><body>
<h1>Live</h1>
<input aria-label="Query"> <button onclick="add()">Add item</button>
<button onclick="var m=document.getElementById('more'); m.hidden=!m.hidden">Toggle</button>
<button onclick="this.textContent='Renamed '+(++n)">Rename me</button>
<p id="status">Ready</p>
<div id="more" hidden><button>Hidden one</button><a href="#x">Hidden link</a></div>
<ul id="list"><li>first</li></ul>
<script>var n=0;function add(){var li=document.createElement('li');li.textContent='item '+(++n);
document.getElementById('list').appendChild(li);document.getElementById('status').textContent='Added '+n;}</script>
</body></html>"""


def fields(snapshot: Snapshot) -> list[tuple[object, ...]]:
    return [
        (n.handle, n.parent, n.role, n.name, n.value, tuple(sorted(n.states)), n.rect, n.operations)
        for n in snapshot.nodes
    ]


def check_steps(
    desk, title: str, pid: int | None, steps: list[list[str] | str | tuple[str, str]], settle: float
) -> list[str]:
    """Run each step (an xdotool command, the name of a button to press through AT-SPI, or
    ("wheel", name): scroll over that element),
    then compare the live read with a whole one; returns how each live read was made."""
    with environment(desk.env):
        live = AtspiClient(live=True)
        try:
            root = None
            deadline = time.monotonic() + 30
            while root is None and time.monotonic() < deadline:
                root = live.find_frame(pid, title, None)
                time.sleep(0.2 if root is None else 0)
            assert root is not None, f"no accessible frame titled {title!r}"
            subprocess.run(
                ["xdotool", "search", "--name", title, "windowactivate", "--sync"],
                env=desk.env,
                capture_output=True,
                timeout=10,
            )
            time.sleep(settle)
            live.snapshot(root)
            how = []
            for step in steps:
                if isinstance(step, tuple):  # ("wheel", name): the mouse wheel over that element
                    box = next(n.rect for n in live.snapshot(root).nodes if n.name == step[1] and n.rect)
                    x, y = box.center
                    subprocess.run(
                        ["xdotool", "mousemove", str(x), str(y), "click", "--repeat", "4", "5"],
                        env=desk.env,
                        check=True,
                    )
                elif isinstance(step, str):  # a button, pressed the semantic way
                    button = next(n for n in live.snapshot(root).nodes if n.name == step and n.role == "Button")
                    live.perform(button.handle, Operation.INVOKE)
                else:
                    subprocess.run(["xdotool", *step], env=desk.env, check=True)
                time.sleep(settle)
                kept = live.snapshot(root)
                how.append(live.last_read)
                whole_client = AtspiClient()
                try:
                    whole = whole_client.snapshot(root)
                finally:
                    whole_client.close()
                ours, truth = fields(kept), fields(whole)
                assert ours == truth, (
                    f"after {step}: read {live.last_read}, it differs from a whole read: "
                    f"only ours {sorted(set(ours) - set(truth), key=str)[:3]}, "
                    f"only the whole read {sorted(set(truth) - set(ours), key=str)[:3]}"
                )
            return how
        finally:
            live.close()


def test_gtk_changes_read_from_events_match_a_whole_read(desktop, tmp_path):
    app = start_app(desktop, gtk_fixture_command(str(tmp_path / "app.log"), rows=30, title="Live GTK"), "Live GTK")
    try:
        how = check_steps(
            desktop,
            "Live GTK",
            app.pid,
            [
                ["key", "Tab"],
                ["key", "Tab"],
                ["type", "hello"],
                ["key", "Tab"],
                ["key", "space"],
                ["key", "ctrl+Page_Down"],
                "Add Row",
                "Add Row",
                ["key", "Tab"],
                ["key", "Down"],
                ["key", "Down"],
                ["key", "F10"],
                ["key", "Right"],
                ["key", "Escape"],
                ["key", "Escape"],
                "Apply",
                ["key", "shift+Tab"],
                ("wheel", "Files"),
                ("wheel", "Files"),  # rows scrolled: GTK says so only by its scroll bar
            ],
            settle=0.4,
        )
    finally:
        stop_app(app)
    assert how.count("changes") >= len(how) // 2, how  # the partial path is what ran, mostly


def test_chromium_changes_read_from_events_match_a_whole_read(desktop, tmp_path):
    page = tmp_path / "live.html"
    page.write_text(PAGE)
    app = subprocess.Popen(
        chromium_command(page.as_uri(), str(tmp_path / "profile")),
        env=desktop.env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        wait_for_window(desktop, "Live page", timeout=60)
        time.sleep(3)
        how = check_steps(
            desktop,
            "Live page - Chromium",
            None,
            [
                ["key", "Tab"],
                ["type", "abc"],
                ["key", "Tab"],
                ["key", "Return"],
                ["key", "Return"],
                ["key", "Tab"],
                ["key", "Return"],
                ["key", "Tab"],
                ["key", "Return"],
                ["key", "shift+Tab"],
                ["key", "Return"],
                ["key", "Escape"],
            ],
            settle=0.6,
        )
    finally:
        stop_app(app)
    assert how.count("changes") >= len(how) // 2, how


def test_calc_changes_read_from_events_match_a_whole_read(desktop, tmp_path: Path):
    data = write_sheet(tmp_path / "sheet.csv", rows=80, columns=12)
    app = start_soffice(desktop, tmp_path, "--calc", CSV_FILTER, str(data), title="sheet.csv - LibreOffice Calc")
    try:
        how = check_steps(
            desktop,
            "sheet.csv - LibreOffice Calc",
            None,
            [
                ["key", "Tab"],
                ["key", "Tab"],
                ["type", "42"],
                ["key", "Return"],
                ["key", "Down"],
                ["key", "Right"],
                ["key", "ctrl+Home"],
                ["key", "Page_Down"],
                ["key", "Right"],
                ["key", "Escape"],
                ["key", "Tab"],
            ],
            settle=1.0,
        )
    finally:
        stop_app(app)
        subprocess.run(["pkill", "-f", f"UserInstallation=file://{tmp_path}"], capture_output=True)
    assert how.count("changes") >= 4, how
