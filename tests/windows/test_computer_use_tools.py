"""The computer-use set's bound-window tools (`winctl mcp --tools computer-use`) on the Windows
backend over the fake: served where input can be bound, and each a command in bound mode —
`virtual_mouse` posts its click to the window and leaves the real mouse and the focus alone."""

from __future__ import annotations

import pytest

from winactions.backends.windows.bound import WM_CHAR, WM_MOUSEWHEEL, make_lparam
from winactions.mcp import profiles

WM_LBUTTONDOWN, WM_LBUTTONUP = 0x0201, 0x0202


@pytest.fixture
def runner(fake, tmp_path, monkeypatch):
    """The MCP server's tool runner with `--tools computer-use`, in this process, on the fake desktop."""
    from winactions.mcp.server import ToolRunner

    runtime = tmp_path / "runtime"
    runtime.mkdir(mode=0o700, exist_ok=True)
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(runtime))
    monkeypatch.setenv("WINACTIONS_BACKEND", "windows")
    served = profiles.resolve("computer-use")
    # the coordinates below are the fake screen's pixels (a model's shrunk ones: tests/test_model_pixels.py)
    tools = ToolRunner("seed", profile=served.commands, translated=served.translated, screen_pixels=True)
    yield tools
    tools.close()


def text(result) -> str:
    assert not result.is_error, result.content[0].text
    return result.content[0].text


def app(fake, title):
    return next(a for a in fake.apps if a.title.endswith(title))


def test_the_bound_window_tools_are_served_on_windows(runner):
    names = {t.name for t in runner.tools()}
    assert {"bind_window", "virtual_mouse", "virtual_keyboard", "mouse_wheel", "window_management"} <= names
    assert "click" not in names and "left_click" in names


def test_virtual_mouse_clicks_by_messages_and_leaves_mouse_and_focus_alone(runner, winctl, fake):
    state = winctl("--json", "--window", "Settings", "state", "--verbose").json["result"]
    left, top, right, bottom = next(t["rect"] for t in state["targets"] if t["name"] == "Apply")
    winctl("focus", "Notepad")
    foreground, cursor = fake.foreground, fake.cursor
    assert text(runner.call("bind_window", {"action": "bind", "title": "Settings"})).startswith("bind: bound to")
    out = text(
        runner.call("virtual_mouse", {"action": "click", "coordinate": [(left + right) // 2, (top + bottom) // 2]})
    )
    assert "click-at" in out
    assert ("click", "Apply") in app(fake, "Settings").events
    posted = [m for _h, m, _w, _lp in fake.posted if m in (WM_LBUTTONDOWN, WM_LBUTTONUP)]
    assert posted == [WM_LBUTTONDOWN, WM_LBUTTONUP]
    assert fake.foreground == foreground and fake.cursor == cursor and not fake.sent
    status = text(runner.call("bind_window", {"action": "status"}))
    assert "Settings" in status and "window messages" in status


def test_virtual_keyboard_types_and_mouse_wheel_turns_in_the_bound_window(runner, fake):
    text(runner.call("bind_window", {"action": "bind", "title": "Notepad"}))
    text(runner.call("virtual_keyboard", {"action": "type", "text": "Zoë 😀"}))
    chars = [w for _h, m, w, _ in fake.posted if m == WM_CHAR]
    assert len(chars) == 6
    doc = fake.find(app(fake, "Notepad"), Name="Text editor")
    assert doc["Patterns"]["Value"]["Value"] == "Zoë 😀" and not fake.sent
    text(runner.call("mouse_wheel", {"coordinate": [500, 400], "delta": -2}))
    ((hwnd, _message, wparam, lparam),) = [p for p in fake.posted if p[1] == WM_MOUSEWHEEL]
    assert hwnd == 0x40A10 and (wparam >> 16) - 0x10000 == -240 and lparam == make_lparam(500, 400)


def test_bad_seed_arguments_are_refused_with_the_error_shape(runner):
    refused = runner.call("virtual_mouse", {"action": "click", "coordinate": [1, 2], "button": "left"})
    assert refused.is_error
    assert refused.content[0].text.startswith("error (invalid_input): virtual_mouse takes no argument 'button'")
