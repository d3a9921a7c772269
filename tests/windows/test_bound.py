"""Bound-window mode: input by window messages that leaves the real mouse and the focus
alone, capture by PrintWindow, and clear refusals where messages cannot arrive."""

from __future__ import annotations

from winactions.backends.windows.bound import WM_CHAR, WM_MOUSEWHEEL, make_lparam
from winactions.backends.windows.native import HIGH_INTEGRITY

WM_LBUTTONDOWN, WM_LBUTTONUP = 0x0201, 0x0202


def app(fake, title):
    return next(a for a in fake.apps if a.title.endswith(title))


def test_list_bind_status_unbind(winctl, fake):
    listing = winctl("bind-window", "list").out
    assert "Calculator" in listing and "Settings" in listing
    assert winctl("bind-window", "status").out.startswith("status: not bound")
    out = winctl("bind-window", "bind", "Settings").out
    assert out.startswith("bind: bound to") and "green DWM border set" in out
    settings = app(fake, "Settings")
    assert fake.borders[settings.hwnd] == (0, 200, 80)
    status = winctl("bind-window", "status").out
    assert "Settings" in status and "window messages" in status and "PrintWindow" in status
    assert winctl("bind-window", "unbind").out.startswith("unbind: unbound from")
    assert fake.borders[settings.hwnd] is None
    assert winctl("bind-window", "status").out.startswith("status: not bound")


def test_a_bound_click_is_posted_and_leaves_mouse_and_focus_alone(winctl, fake):
    winctl("focus", "Notepad")
    foreground, cursor = fake.foreground, fake.cursor
    winctl("bind-window", "bind", "Settings")
    apply = winctl.find("Button", "Apply")
    out = winctl("click", "--via", "input", str(apply["id"])).out
    assert "via mouse" in out
    settings = app(fake, "Settings")
    assert ("click", "Apply") in settings.events
    button_hwnd = 0x50B08
    posted = [(h, m, lp) for h, m, _w, lp in fake.posted if m in (WM_LBUTTONDOWN, WM_LBUTTONUP)]
    at = make_lparam(40, 15)  # the button's own client coordinates
    assert posted == [(button_hwnd, WM_LBUTTONDOWN, at), (button_hwnd, WM_LBUTTONUP, at)]
    assert fake.foreground == foreground and fake.cursor == cursor and not fake.sent


def test_bound_typing_is_wm_char_to_the_focused_child_with_surrogate_pairs(winctl, fake):
    winctl("bind-window", "bind", "Notepad")
    winctl("type", "Zoë 😀")
    chars = [w for h, m, w, _ in fake.posted if m == WM_CHAR]
    assert len(chars) == 6 and all(h == 0x40A10 for h, m, _, _ in fake.posted)
    doc = fake.find(app(fake, "Notepad"), Name="Text editor")
    assert doc["Patterns"]["Value"]["Value"] == "Zoë 😀" and not fake.sent


def test_bound_wheel_is_wm_mousewheel_with_screen_coordinates(winctl, fake):
    winctl("bind-window", "bind", "Notepad")
    winctl("scroll-at", "500", "400", "down", "2")
    ((hwnd, _message, wparam, lparam),) = [p for p in fake.posted if p[1] == WM_MOUSEWHEEL]
    assert hwnd == 0x40A10 and (wparam >> 16) - 0x10000 == -240 and lparam == make_lparam(500, 400)


def test_points_outside_the_bound_window_are_refused(winctl, fake):
    winctl("bind-window", "bind", "Settings")
    run = winctl("click-at", "1500", "300", expect=4)
    assert "outside the bound window" in run.err and not fake.posted and not fake.sent


def test_an_elevated_window_cannot_be_bound(winctl, fake):
    app(fake, "Settings").integrity = HIGH_INTEGRITY
    run = winctl("bind-window", "bind", "Settings", expect=4)
    assert "runs elevated" in run.err and "UIPI" in run.err and "unbind" in run.err
    assert winctl("bind-window", "status").out.startswith("status: not bound")


def test_a_conpty_terminal_cannot_be_bound(winctl, fake):
    terminal = app(fake, "Notepad")
    terminal.class_name, terminal.title = "CASCADIA_HOSTING_WINDOW_CLASS", "Windows PowerShell"
    run = winctl("bind-window", "bind", "PowerShell", expect=4)
    assert "ConPTY" in run.err and "clipboard" in run.err


def test_a_bound_screenshot_comes_from_the_window_even_off_screen(winctl, fake, tmp_path):
    winctl("bind-window", "bind", "Settings")
    winctl("window", "offscreen")
    settings = app(fake, "Settings")
    assert settings.client_rect.left == -32000
    out = winctl("screenshot", str(tmp_path / "bound.png")).out
    assert "(544x381" in out and fake.printed == [settings.hwnd]
    apply = winctl.find("Button", "Apply")
    assert apply["rect"][0] < -31000, "the tree follows the window off-screen"
    winctl("click", "--via", "input", str(apply["id"]))
    assert ("click", "Apply") in settings.events


def test_a_new_process_rebinds_and_a_closed_bound_window_goes_global(winctl, fake):
    winctl("bind-window", "bind", "Settings")
    assert "Settings" in winctl("bind-window", "status").out, "the binding outlives the process"
    fake.apps = [a for a in fake.apps if a.title != "Settings"]
    run = winctl("bind-window", "status")
    assert run.out.startswith("status: not bound") and "no longer bound to" in run.out
    assert "status: not bound\ninput: global" in winctl("bind-window", "status").out


def test_bound_mouse_down_move_up_drags_with_the_virtual_cursor(winctl, fake):
    winctl("bind-window", "bind", "Settings")
    winctl("mouse-down", "300", "330")
    winctl("mouse-move", "400", "330")
    winctl("mouse-up")
    messages = [(m, w, lp) for _h, m, w, lp in fake.posted]
    assert [m for m, _, _ in messages] == [0x0200, 0x0201, 0x0200, 0x0202]
    assert messages[2][1] == 0x0001, "the move carries MK_LBUTTON while the button is down"
    assert winctl("cursor").out.strip() == "[400, 330]", "the virtual cursor, kept between processes"
    assert fake.cursor == (5, 5), "the real pointer never moved"
