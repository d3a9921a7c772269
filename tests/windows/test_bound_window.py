"""Which window is bound, and what shows it: binding by process id, `launch` binding the
window it opens while bound mode is on (or with --bind), the virtual cursor's window, and the
window the status indicator follows."""

from __future__ import annotations

import pytest

from tests.fixtures.windows.fake_native import dialog_app
from winactions.backends.base import Capability, MouseButton, WindowAction
from winactions.backends.windows.backend import BOUND_BORDER, WindowsBackend, window_id
from winactions.backends.windows.cursor import HOTSPOT, SIZE
from winactions.commands.binding import working_window
from winactions.errors import ActionFailed
from winactions.model import Rect
from winactions.session.desktop import DesktopSession
from winactions.session.store import SessionStore

WS_EX_TOPMOST, WS_EX_TRANSPARENT, WS_EX_LAYERED, WS_EX_NOACTIVATE = 0x8, 0x20, 0x80000, 0x08000000
NOTEPAD_PID, SETTINGS_PID = 4242, 6100


def app(fake, title):
    return next(a for a in fake.apps if a.title.endswith(title))


def test_bind_by_pid_binds_that_process_window(winctl, fake):
    out = winctl("bind-window", "bind", "--pid", str(SETTINGS_PID)).out
    assert out.startswith("bind: bound to") and "Settings" in out
    assert fake.borders[app(fake, "Settings").hwnd] == BOUND_BORDER


def test_bind_by_an_unknown_pid_names_the_windows_there_are(winctl, fake):
    run = winctl("bind-window", "bind", "--pid", "999", expect=3)
    assert "process 999 has no window" in run.err
    assert "'Untitled - Notepad' (pid 4242)" in run.err and "'Settings' (pid 6100)" in run.err
    assert winctl("bind-window", "status").out.startswith("status: not bound") and not fake.borders


def test_bind_by_a_pid_with_several_windows_lists_them_to_pick_from(winctl, fake):
    notepad = app(fake, "Notepad")
    fake.apps.append(dialog_app(notepad, "Save As"))
    run = winctl("bind-window", "bind", "--pid", str(NOTEPAD_PID), expect=3)
    assert f"process {NOTEPAD_PID} has 2 windows" in run.err
    assert window_id(notepad.hwnd) in run.err and "Save As" in run.err and "--pid 4242 TITLE" in run.err
    assert not fake.borders
    out = winctl("bind-window", "bind", "--pid", str(NOTEPAD_PID), "Save As").out
    assert "Save As" in out and fake.borders == {notepad.hwnd + 0x100: BOUND_BORDER}
    run = winctl("bind-window", "bind", "--pid", str(NOTEPAD_PID), "Open", expect=3)
    assert "has no window named" in run.err


def test_launch_while_bound_binds_the_new_window(winctl, fake):
    winctl("bind-window", "bind", "Notepad")
    out = winctl("launch", "calc.exe").out
    assert "bound: input goes to it by window messages (green DWM border set)" in out
    calc = fake.apps[-1]
    assert calc.title == "Calculator" and calc.pid >= 7000
    assert fake.borders == {app(fake, "Notepad").hwnd: None, calc.hwnd: BOUND_BORDER}, "the binding moved"
    assert window_id(calc.hwnd) in winctl("bind-window", "status").out
    winctl("--json", "state")  # its tree is read in the background
    winctl("type", "12")
    assert [w for _h, m, w, _lp in fake.posted if m == 0x0102] == [ord("1"), ord("2")], "typing goes to it"


def test_launch_binds_only_when_asked_or_bound(winctl, fake):
    out = winctl("launch", "calc.exe").out
    assert "bound" not in out and winctl("bind-window", "status").out.startswith("status: not bound")
    out = winctl("launch", "--bind", "notepad.exe").out
    assert "bound: input goes to it" in out
    assert window_id(fake.apps[-1].hwnd) in winctl("bind-window", "status").out


def test_launch_while_bound_of_a_window_that_cannot_be_bound_goes_global_and_says_so(winctl, fake, monkeypatch):
    winctl("bind-window", "bind", "Settings")
    launched = fake.launch

    def elevated(argv):
        pid = launched(argv)
        fake.apps[-1].integrity = 0x3000  # it runs as administrator
        return pid

    monkeypatch.setattr(fake, "launch", elevated)
    out = winctl("launch", "notepad.exe").out
    assert "not bound" in out and "runs elevated" in out and "input is global now" in out
    assert winctl("bind-window", "status").out.startswith("status: not bound")
    run = winctl("launch", "--bind", "notepad.exe", expect=4)
    assert "opened but was not bound" in run.err and "runs elevated" in run.err and "pid 7001" in run.err


@pytest.fixture
def backend(fake):
    made = WindowsBackend(native=fake)
    yield made
    made.close()


def test_the_virtual_cursor_follows_bound_input_and_goes_on_unbind(fake, backend):
    settings = app(fake, "Settings")
    backend.bind(window_id(settings.hwnd))
    assert not fake.overlays, "nothing drawn before input points somewhere"
    backend.mouse_move(300, 330)
    ((hwnd, overlay),) = fake.overlays.items()
    assert overlay.ex_style & (WS_EX_TOPMOST | WS_EX_TRANSPARENT | WS_EX_LAYERED | WS_EX_NOACTIVATE) == (
        WS_EX_TOPMOST | WS_EX_TRANSPARENT | WS_EX_LAYERED | WS_EX_NOACTIVATE
    )
    assert overlay.rect == Rect.from_xywh(300 - HOTSPOT[0], 330 - HOTSPOT[1], *SIZE), "its tip on the point"
    assert overlay.image.getpixel(HOTSPOT)[3] == 255 and overlay.image.getpixel((0, SIZE[1] - 1))[3] == 0
    backend.click(600, 475)  # Apply
    assert ("click", "Apply") in settings.events
    assert overlay.moves[-1] == Rect.from_xywh(600 - HOTSPOT[0], 475 - HOTSPOT[1], *SIZE)
    assert fake.root_window_at(600, 475) == settings.hwnd, "clicks go through it to the app"
    backend.unbind()
    assert not fake.overlays and fake.destroyed == [hwnd]


def test_the_virtual_cursor_shows_the_press_while_a_button_is_down(fake, backend):
    backend.bind(window_id(app(fake, "Settings").hwnd))
    backend.mouse_move(300, 330)
    (overlay,) = fake.overlays.values()
    ring = (HOTSPOT[0] - 7, HOTSPOT[1])  # on the ring drawn round the tip
    assert overlay.image.getpixel(ring)[3] == 0
    backend.mouse_button(MouseButton.LEFT, True)
    assert overlay.image.getpixel(ring)[3] == 255
    backend.mouse_button(MouseButton.LEFT, False)
    assert overlay.image.getpixel(ring)[3] == 0


def test_global_input_draws_no_cursor_and_closing_removes_it(fake, backend):
    backend.click(600, 475)
    assert not fake.overlays
    backend.bind(window_id(app(fake, "Settings").hwnd))
    backend.mouse_move(300, 330)
    assert fake.overlays
    backend.close()
    assert not fake.overlays, "a process that ends takes its cursor window with it"


def test_the_status_indicator_follows_the_bound_window(fake, backend, tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(tmp_path))
    session = DesktopSession(backend, SessionStore("bound-test"))
    with session.turn():
        notepad = session.find_window("Notepad")
        session.select_window(notepad)
        assert working_window(session).id == notepad.id, "unbound: the session's window"
        settings = session.find_window("Settings")
        session.bind(settings)
        session.select_window(session.find_window("Calculator"))
        backend.window_action(settings.id, WindowAction.MOVE_RESIZE, Rect.from_xywh(300, 200, 544, 381))
        placed = working_window(session)
    assert placed.id == settings.id, "input still goes to the bound window"
    assert placed.rect == Rect.from_xywh(300, 200, 544, 381), "where it is now, its client area"


def test_launch_bind_where_windows_cannot_be_bound_is_refused_before_launching(winctl, fake, monkeypatch):
    without = WindowsBackend.capabilities - {Capability.BOUND_WINDOW}
    monkeypatch.setattr(WindowsBackend, "capabilities", without)
    apps = len(fake.apps)
    run = winctl("launch", "--bind", "calc.exe", expect=None)
    assert run.code != 0 and "--bind is not available" in run.err and "nothing was done" in run.err
    assert len(fake.apps) == apps, "nothing launched"


def test_a_long_lived_binding_follows_its_window_when_it_moves(fake, backend):
    """The daemon keeps one backend: a window parked off-screen after binding is still the
    bound window where it is now, not where it was bound."""
    settings = app(fake, "Settings")
    backend.bind(window_id(settings.hwnd))
    backend.window_action(window_id(settings.hwnd), WindowAction.MOVE_RESIZE, Rect.from_xywh(-32000, -32000, 544, 381))
    backend.click(-32000 + 392, -32000 + 344)  # Apply, moved with its window
    assert ("click", "Apply") in settings.events
    with pytest.raises(ActionFailed, match="outside the bound window"):
        backend.click(600, 475)  # where Apply was
