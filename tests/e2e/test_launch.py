"""`winctl launch`: an app that hands its window to a running instance, one that exits without a
window (and what it said on stderr), and a Qt 5 app launched first on a fresh desktop, whose
accessibility bus `launch` must start. Outcomes are read from outside winctl: the window
manager's windows, what stays in the temporary folder, the app's accessibility tree."""

from __future__ import annotations

import json
import subprocess
import tempfile
import time

import pytest

from tests.conftest import wait_for_window
from tests.e2e.helpers.apps import (
    BRIDGE_VARIABLES,
    stop_group,
)
from tests.e2e.helpers.runners import WINCTL
from tests.fixtures.toolkit_apps import (
    featherpad_command,
    isolated_env,
    mousepad_command,
)
from winactions.backends.linux.virtual_desktop import VirtualDesktop

pytestmark = pytest.mark.desktop


def test_a_launch_a_running_instance_takes_over_selects_its_window(winctl, desktop, launch, tmp_path):
    """Single-instance apps hand a second launch to the running process and exit: mousepad
    opens the file as a tab of its window. `launch` said "exited without opening a window";
    it now selects the window that shows the file, and says who took it over."""
    first, second = tmp_path / "first.txt", tmp_path / "second.txt"
    first.write_text("one")
    second.write_text("two")
    app = launch(["mousepad", str(first)], title="first.txt")  # with its server: single instance
    result = winctl("--json", "launch", "--", "mousepad", str(second)).json["result"]
    assert f"handed over to the running mousepad (pid {app.pid})" in result["detail"], result
    assert result["window"]["id"] == app.window["id"] and "second.txt" in result["window"]["title"], result
    wait_for_window(desktop, "second.txt")  # the window manager sees the tab it shows
    assert "second.txt" in winctl("--json", "state").json["result"]["window"]["title"]
    third = tmp_path / "third.txt"
    third.write_text("three")
    result = winctl("--json", "launch", "--", "env", "LC_ALL=C", "mousepad", str(third)).json["result"]  # wrapped
    assert f"handed over to the running mousepad (pid {app.pid})" in result["detail"], result
    wait_for_window(desktop, "third.txt")


def test_a_program_that_exits_without_a_window_is_an_error_at_once(winctl):
    started = time.monotonic()
    failed = winctl("launch", "true", expect=4)
    assert "true exited without opening a window" in failed.err, failed.err
    assert time.monotonic() - started < 5, "no running instance could take it over: no reason to wait"


def test_a_program_that_exits_without_a_window_is_quoted(winctl, tmp_path, monkeypatch):
    """An app that exits at once says why on stderr, and `launch` said only "exited without
    opening a window". Its last words are quoted now (mousepad given an option it does not
    know), and no file of them is left behind."""
    kept = tmp_path / "kept"
    kept.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(kept))  # where the kept words go: this test's own folder
    failed = winctl("launch", "--", "mousepad", "--disable-server", "--no-such-option", expect=4)
    assert "mousepad exited without opening a window; it said: Unknown option --no-such-option" in failed.err, (
        failed.err
    )
    assert list(kept.iterdir()) == []


def test_a_program_that_floods_stderr_is_not_blocked_and_is_quoted_in_bounds(winctl, tmp_path, monkeypatch):
    """What a launched app writes to stderr is drained for as long as it writes (a full pipe
    would block it), and only its first 16 KiB are kept: 2 MB written, the app exits at once,
    and the quote is a few hundred characters of the start."""
    kept = tmp_path / "kept"
    kept.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(kept))
    started = time.monotonic()
    failed = winctl(
        "launch", "--", "sh", "-c", r"head -c 2000000 /dev/zero | tr '\0' x >&2; echo END >&2; exit 3", expect=4
    )
    assert time.monotonic() - started < 10
    said = failed.err.split("it said: ", 1)[1].splitlines()[0]
    assert set(said) <= {"x", "…"} and 100 < len(said) <= 601, said  # the start kept; "END" past the bound
    assert list(kept.iterdir()) == []


def test_a_program_launched_leaves_no_file_of_its_words(winctl, launch, tmp_path, monkeypatch):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "kept"))
    (tmp_path / "kept").mkdir()
    doc = tmp_path / "words.txt"
    doc.write_text("")
    launch(mousepad_command(doc), title="words.txt")
    assert list((tmp_path / "kept").iterdir()) == []


def test_a_qt5_app_launched_first_on_a_fresh_desktop_shows_its_tree(tmp_path):
    """Qt 5 joins the accessibility bus only if the bus runs when the app starts, and on a fresh
    desktop nothing starts it until something asks for it (GTK and Qt 6 apps do; Qt 5 only
    waits). Launched first there, featherpad showed no tree for the whole time `launch` waited,
    nor ever after; `launch` now starts the bus before the app. One started by hand before the
    bus (its Qt switches set) gets a `state` error that says so and what to do."""
    runtime = tmp_path / "runtime"
    runtime.mkdir(mode=0o700)
    doc = tmp_path / "first.txt"
    doc.write_text("")
    with VirtualDesktop() as fresh:
        env = {**fresh.env, **isolated_env(tmp_path / "home"), "XDG_RUNTIME_DIR": str(runtime)}
        for name in BRIDGE_VARIABLES:
            env.pop(name, None)

        def winctl(*args: str) -> subprocess.CompletedProcess[str]:
            return subprocess.run([WINCTL, *args], env=env, capture_output=True, text=True, timeout=120)

        early = subprocess.Popen(
            featherpad_command(tmp_path / "early.txt"),
            start_new_session=True,
            env={**env, "QT_ACCESSIBILITY": "1", "QT_LINUX_ACCESSIBILITY_ALWAYS_ON": "1"},
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            wait_for_window(fresh, "early.txt")
            time.sleep(2)  # time enough to join a bus, had one been running
            assert winctl("focus", "early.txt").returncode == 0
            missing = winctl("state")
            assert missing.returncode != 0 and "exposes no accessibility tree" in missing.stderr, missing.stdout
            assert "its toolkit (qt5) needs" in missing.stderr and "winctl launch" in missing.stderr, missing.stderr
        finally:
            stop_group(early.pid)
        launched = winctl("--json", "launch", "--timeout", "20", "--title", "first.txt", "--", *featherpad_command(doc))
        assert launched.returncode == 0, launched.stderr
        group = int(json.loads(launched.stdout)["result"]["detail"].split()[1].rstrip(";"))
        try:
            assert "has not appeared" not in launched.stdout, launched.stdout
            targets = json.loads(winctl("--json", "state").stdout)["result"]["targets"]
            assert {("MenuItem", "File"), ("Button", "Save")} <= {(t["type"], t["name"]) for t in targets}
        finally:
            winctl("session", "close", "--all")
            stop_group(group)
