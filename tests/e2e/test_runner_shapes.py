"""Plans in phone agents' shapes on a real desktop: a BACK key-code fallback on Mousepad, a
recorded run's pictures and changes, and `open-url` reaching a real handler through xdg-open.

Outcomes are read from the app's side: Mousepad's saved file and its windows as wmctrl sees
them, the PNGs on disk, and what the URL handler wrote down itself.
"""

from __future__ import annotations

import contextlib
import http.server
import json
import os
import stat
import subprocess
import threading
import time
from pathlib import Path
from typing import ClassVar

import psutil
import pytest
from PIL import Image, ImageChops

from tests.conftest import environment, wait_for_window, window_gone
from tests.e2e.helpers.editor import Editor
from tests.fixtures.toolkit_apps import chromium_plain_command, isolated_env
from winactions.agent import RunOptions, TaskRunner, TaskStatus, parse_plan
from winactions.agent.success import Success
from winactions.api import Desktop
from winactions.errors import Unsupported

pytestmark = pytest.mark.desktop


def unchecked(result) -> bool:
    """Every step done, the task unverified: these plans name no criteria (each test reads the
    app's outcome itself)."""
    done = all(r.status.value == "success" for r in result.step_results)
    return done and result.status is TaskStatus.UNVERIFIED


def test_a_back_key_code_fallback_closes_the_dialog_in_the_way(desktop, tmp_path):
    """{"action": "press_key", "params": {"keycode": 4}} crashed the run with `internal error:
    ValidationError`. On a desktop BACK is Escape: it closes the Open File dialog hiding the
    File menu, the menu is found on the second look, and the text is saved."""
    plan = parse_plan(
        [
            {
                "action": "press_key",
                "params": {"keys": "ctrl+o"},
                "wait_after": 1500,
                "expect": {"window_changed": True},
            },
            {
                "action": "tap",
                "target_ref": "File",
                "target_type": "Menu",
                "fallback": {"action": "press_key", "params": {"keycode": 4}},
            },
            {"action": "press_key", "params": {"keycode": "KEYCODE_ESCAPE"}},
            {"action": "input_text", "target_type": "Edit", "params": {"text": "after back"}},
            {"action": "press_key", "params": {"keys": "ctrl+s"}},
        ]
    )
    plan.success = Success.model_validate({"title_lacks": "*", "element": {"type": "Edit", "equals": "after back"}})
    with Editor(desktop, tmp_path) as app:
        result = TaskRunner(app.desktop, RunOptions(pixels=False)).run("back out of the chooser, then write", plan)
        assert result.status is TaskStatus.SUCCESS, result.error
        tap = result.step_results[1]
        assert tap.fallbacks >= 1 and "File" in tap.target
        assert window_gone(desktop, "Open File")
        assert app.saved("after back") == "after back"


def test_a_desktop_without_the_key_fails_the_step_clearly(desktop, tmp_path):
    plan = parse_plan(
        [
            {"action": "tap", "target_ref": "Nowhere", "fallback": {"action": "press_key", "params": {"keycode": 5}}},
        ]
    )
    record = tmp_path / "record"
    with Editor(desktop, tmp_path / "app", "untouched") as app:
        result = TaskRunner(app.desktop, RunOptions(pixels=False, record=record)).run("call from a desktop", plan)
        assert result.status is TaskStatus.FAILED
        assert "a desktop has no CALL key" in result.error and "internal error" not in result.error
        assert app.doc.read_text() == "untouched"
        dial = parse_plan(
            [{"action": "press_key", "params": {"keys": "End"}}, {"action": "call", "params": {"number": "123"}}]
        )
        called = TaskRunner(app.desktop, RunOptions(pixels=False)).run("call from a desktop", dial)
        assert [s.batch for s in called.step_results] == [1, 1]  # sent together, the call refused
        assert called.step_results[1].error.startswith("unsupported: no app here opens tel: URLs")
    (step,) = [e for e in map(json.loads, (record / "run.jsonl").read_text().splitlines()) if e["event"] == "step"]
    assert step["status"] == "failed" and step["changes"] == []  # a failed step has its pictures too
    assert Path(step["screenshot_before"]).is_file() and Path(step["screenshot_after"]).is_file()


def test_a_recorded_batch_has_its_pictures_and_says_what_changed(desktop, tmp_path):
    """Level-0 steps sent as one `batch` call were recorded with no screenshots; now the batch's
    pictures before and after are every step's, and each line lists what changed."""
    plan = parse_plan(
        [
            {"action": "press_key", "params": {"keys": "ctrl+End"}},
            {"action": "input_text", "params": {"text": " world"}},
            {"action": "press_key", "params": {"keys": "ctrl+s"}},
            {
                "action": "input_text",
                "target_type": "Edit",
                "params": {"text": "hello again"},
                "expect": {"value": "hello again"},
            },
        ]
    )
    record = tmp_path / "record"
    with Editor(desktop, tmp_path / "app", "hello") as app:
        result = TaskRunner(app.desktop, RunOptions(pixels=False, record=record)).run("append and save", plan)
        assert unchecked(result), result.error
        assert app.saved("hello world") == "hello world"  # the batch saved; the last step is unsaved
    steps = [e for e in map(json.loads, (record / "run.jsonl").read_text().splitlines()) if e["event"] == "step"]
    assert [s["batch"] for s in steps] == [1, 1, 1, None]
    assert "wait_after" not in steps[0]["step"]  # as planned: a replay waits as level 0 does
    for s in steps:
        assert s["screenshot_before"] and s["screenshot_after"], s
        assert Path(s["screenshot_before"]).is_file() and Path(s["screenshot_after"]).is_file()
    assert steps[0]["screenshot_before"] == str(record / "batch-1-before.png")
    assert {s["screenshot_after"] for s in steps[:3]} == {str(record / "batch-1-after.png")}
    with Image.open(steps[0]["screenshot_before"]) as before, Image.open(steps[0]["screenshot_after"]) as after:
        assert ImageChops.difference(before.convert("RGB"), after.convert("RGB")).getbbox() is not None
    assert any(line.startswith("value of Edit") and "hello world" in line for line in steps[0]["changes"])
    assert any("'hello world' -> 'hello again'" in line for line in steps[3]["changes"]), steps[3]["changes"]


HANDLER = """#!/bin/sh
printf '%s\\n' "$@" >> "{log}"
"""


def _register(home: dict[str, str], log: Path, *schemes: str) -> None:
    """A URL handler in this home: a desktop file whose program writes its arguments to `log`,
    made the default for `schemes` with xdg-mime (as a user would)."""
    script = Path(home["HOME"]) / "handler.sh"
    script.write_text(HANDLER.format(log=log))
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    _default_app(home, "winctl-test-handler.desktop", f"{script} %u", *schemes)


def _default_app(home: dict[str, str], name: str, exec_line: str, *schemes: str) -> None:
    apps = Path(home["XDG_DATA_HOME"]) / "applications"
    apps.mkdir(parents=True, exist_ok=True)
    mimes = ";".join(f"x-scheme-handler/{s}" for s in schemes)
    (apps / name).write_text(f"[Desktop Entry]\nType=Application\nName={name}\nExec={exec_line}\nMimeType={mimes};\n")
    for scheme in schemes:
        subprocess.run(
            ["xdg-mime", "default", name, f"x-scheme-handler/{scheme}"], env={**os.environ, **home}, check=True
        )


def _logged(log: Path, lines: int, timeout: float = 10.0) -> list[str]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if log.exists() and len(log.read_text().splitlines()) >= lines:
            break
        time.sleep(0.1)
    return log.read_text().splitlines() if log.exists() else []


def test_open_url_reaches_the_handler_xdg_mime_names(desktop, tmp_path):
    """`open-url` and a plan's open_url and call reach the app xdg-mime names for each scheme
    (it writes down what it was given); a scheme no app is registered for is refused."""
    log = tmp_path / "opened.txt"
    _register(isolated_env(tmp_path / "home"), log, "https", "winctltest", "tel")
    with Editor(desktop, tmp_path) as app:  # the same home: the handler is this user's
        said = app.desktop.call("open-url", url="https://example.org/a?b=1&c=2")
        assert "winctl-test-handler.desktop" in said.method
        assert _logged(log, 1) == ["https://example.org/a?b=1&c=2"]
        with pytest.raises(Unsupported, match="no app here opens nothing-here: URLs"):
            app.desktop.call("open-url", url="nothing-here:x")
        plan = parse_plan(
            [
                {"action": "open_url", "params": {"url": "winctltest:from-a-plan"}},
                {"action": "call", "params": {"number": "+1 555 0100"}},
            ]
        )
        started = time.monotonic()
        result = TaskRunner(app.desktop, RunOptions(pixels=False)).run("open a link, then call", plan)
        assert unchecked(result), result.error
        assert [s.batch for s in result.step_results] == [1, 1]
        assert time.monotonic() - started >= 2.5  # open_url's own wait, as the plan gave none
        assert _logged(log, 3)[1:] == ["winctltest:from-a-plan", "tel:+15550100"]
    time.sleep(0.5)
    assert len(log.read_text().splitlines()) == 3  # the refused scheme opened nothing


def test_a_tap_at_a_point_of_the_plan_acts_there(desktop, tmp_path):
    """A phone plan's tap at `x`, `y` (no target to look up): the File menu under that point
    opens (its items are in Mousepad's tree afterwards), and a BACK key code closes it."""
    with Editor(desktop, tmp_path) as app:
        before = app.desktop.state()
        menu = next(t for t in before.targets if t.type == "Menu" and t.name == "File")
        assert menu.rect is not None and not any(t.type == "MenuItem" for t in before.targets)
        x, y = menu.rect.center
        plan = parse_plan([{"action": "tap", "params": {"x": x, "y": y}, "wait_after": 800}])
        result = TaskRunner(app.desktop, RunOptions(pixels=False)).run("open the file menu by its place", plan)
        assert unchecked(result), result.error
        assert result.step_results[0].call == {"command": "click-at", "args": {"x": x, "y": y}}
        assert any(t.type == "MenuItem" for t in app.desktop.state().targets)
        closed = TaskRunner(app.desktop, RunOptions(pixels=False)).run(
            "close it", parse_plan([{"action": "press_key", "params": {"keycode": 4}, "wait_after": 500}])
        )
        assert unchecked(closed), closed.error
        assert not any(t.type == "MenuItem" for t in app.desktop.state().targets)


class _Page(http.server.BaseHTTPRequestHandler):
    seen: ClassVar[list[str]] = []  # the paths asked for

    def do_GET(self) -> None:
        self.seen.append(self.path)
        body = b"<html><head><title>opened by winctl</title></head><body>hello</body></html>"
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


def test_open_url_opens_a_local_page_in_chromium(desktop, tmp_path):
    """The user's browser (Chromium, made the http handler in this home) fetches the page from
    a local server, which logs the request, and shows it in a window titled by the page."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Page)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    profile = tmp_path / "chromium"
    argv = chromium_plain_command("%U", profile)
    home = isolated_env(tmp_path / "home")
    _default_app(home, "winctl-test-chromium.desktop", " ".join(argv), "http")
    (tmp_path / "rt").mkdir(mode=0o700)
    url = f"http://127.0.0.1:{server.server_address[1]}/page?from=winctl"
    try:
        with (
            environment({**desktop.env, **home, "XDG_RUNTIME_DIR": str(tmp_path / "rt")}),
            Desktop("chromium-url") as s,
        ):
            said = s.call("open-url", url=url)
            assert "winctl-test-chromium.desktop" in said.method
            wait_for_window(desktop, "opened by winctl", timeout=60)
        assert "/page?from=winctl" in _Page.seen
    finally:
        server.shutdown()
        for proc in psutil.process_iter(["cmdline"]):
            if f"--user-data-dir={profile}" in (proc.info["cmdline"] or []):
                with contextlib.suppress(psutil.Error):
                    proc.kill()
