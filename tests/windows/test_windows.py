"""Window management through Win32: list, focus past the foreground lock, show states,
move and resize by the client area, park off-screen, close, launch and wait."""

from __future__ import annotations

from winactions.backends.windows.native import KeyInput


def test_windows_lists_hwnd_pid_process_title_and_client_rect(winctl, fake):
    rows = winctl("--json", "windows").json["result"]["windows"]
    notepad = next(w for w in rows if w["title"] == "Untitled - Notepad")
    assert notepad["id"] == "0x00040812" and notepad["pid"] == 4242 and notepad["process"] == "Notepad.exe"
    assert notepad["rect"] == {"left": 108, "top": 131, "right": 1092, "bottom": 792}
    assert notepad["app_class"] == "Notepad"


def test_focus_gets_past_the_foreground_lock_with_an_alt_tap(winctl, fake):
    fake.foreground_lock = True
    winctl("focus", "Notepad")
    assert fake.foreground == 264210
    assert fake.sent[:2] == [KeyInput(vk=0x12), KeyInput(vk=0x12, up=True)]


def test_focus_that_windows_refuses_says_what_to_do(winctl, fake, monkeypatch):
    monkeypatch.setattr(type(fake), "set_foreground", lambda self, hwnd: False)
    run = winctl("focus", "Notepad", expect=4)
    assert "foreground lock" in run.err and "bind-window" in run.err


def test_minimize_maximize_restore_move_and_offscreen(winctl, fake):
    winctl("focus", "Settings")
    settings = next(a for a in fake.apps if a.title == "Settings")
    winctl("window", "minimize")
    assert settings.minimized
    winctl("window", "restore")
    winctl("window", "maximize")
    assert settings.maximized
    out = winctl("window", "move", "--", "-1800", "50", "640", "480").out  # a monitor left of the primary
    assert not settings.maximized, "a maximized window is restored before it is moved"
    assert "[-1800,50,-1160,530]" in out.replace(" ", "")
    winctl("window", "offscreen")
    assert settings.client_rect.left == -32000


def test_close_and_launch(winctl, fake):
    winctl("focus", "Calculator")
    winctl("close")
    assert all(a.title != "Calculator" for a in fake.apps)
    out = winctl("launch", "calc.exe").out
    assert "Calculator" in out and "pid 7000" in out
    run = winctl("launch", "nosuchapp.exe", expect=None)
    assert run.code != 0


def test_open_url_goes_through_shell_execute(winctl, fake, tmp_path):
    """The app Windows associates with the scheme opens the URL; a scheme nothing is associated
    with, a URL without a scheme or a file that is not there is refused with nothing opened."""
    assert "via ShellExecute" in winctl("open-url", "https://example.org/?q=a&b=c").out
    page = tmp_path / "page.html"
    page.write_text("<p>hi</p>")
    winctl("open-url", page.as_uri())
    assert fake.opened == ["https://example.org/?q=a&b=c", page.as_uri()]
    assert "no app here opens tel: URLs" in winctl("open-url", "tel:123", expect=None).err
    assert "has no scheme" in winctl("open-url", "example.org", expect=None).err
    assert "https://example.org" in winctl("open-url", "example.org", expect=None).err  # the hint
    assert "no file" in winctl("open-url", (tmp_path / "gone.html").as_uri(), expect=None).err
    assert len(fake.opened) == 2
