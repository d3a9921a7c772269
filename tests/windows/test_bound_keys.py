"""Modifiers in bound-window mode: ctrl and shift combos that reach the app's own handling
(Notepad's accelerator for ctrl+S, a list view's ctrl and shift clicks), keys pressed and
released separately, and the same on global SendInput.

A posted WM_KEYDOWN carries no modifier: apps ask GetKeyState, so the fake's apps read the
key-state table of their thread when they take each message, as TranslateAccelerator and list
views do. Only a key state set through AttachThreadInput + SetKeyboardState, and kept until
the app has taken the message, makes ctrl+S Notepad's Save.
"""

from __future__ import annotations

import pytest

from tests.fixtures.windows.fake_native import FakeNative, load_app
from winactions.backends.base import MouseButton
from winactions.backends.windows.backend import WindowsBackend, window_id
from winactions.backends.windows.bound import (
    MK_CONTROL,
    MK_SHIFT,
    WM_KEYDOWN,
    WM_KEYUP,
    WM_SYSKEYDOWN,
    WM_SYSKEYUP,
)
from winactions.backends.windows.native import KeyInput, MouseInput
from winactions.errors import ActionFailed, InvalidInput
from winactions.keys import parse_keys

NOTEPAD_EDIT = 0x40A10  # Notepad's text editor child window, which has the keyboard focus
VK_CONTROL, VK_SHIFT, VK_MENU = 0x11, 0x10, 0x12
WM_LBUTTONDOWN, WM_LBUTTONUP = 0x0201, 0x0202


def app(fake, title):
    return next(a for a in fake.apps if a.title.endswith(title))


def keys_posted(fake):
    return [(h, m, w) for h, m, w, _ in fake.posted if m in (WM_KEYDOWN, WM_KEYUP, WM_SYSKEYDOWN, WM_SYSKEYUP)]


@pytest.fixture
def backend(fake):
    made = WindowsBackend(native=fake)
    yield made
    made.close()


def selected(fake, explorer):
    return [
        e["Name"]
        for e in fake.find(explorer, Name="Items View")["children"]
        if e.get("Patterns", {}).get("SelectionItem", {}).get("IsSelected")
    ]


def test_bound_ctrl_s_reaches_notepads_accelerator_in_the_background(winctl, fake):
    winctl("focus", "Calculator")
    foreground, cursor = fake.foreground, fake.cursor
    winctl("bind-window", "bind", "Notepad")
    winctl("keys", "ctrl+s")
    notepad = app(fake, "Notepad")
    assert ("command", "Save") in notepad.events, "TranslateAccelerator saw ctrl down"
    assert any(a.title == "Save As" and a.pid == notepad.pid for a in fake.apps), "Notepad asked where to save"
    assert keys_posted(fake) == [
        (NOTEPAD_EDIT, WM_KEYDOWN, VK_CONTROL),
        (NOTEPAD_EDIT, WM_KEYDOWN, ord("S")),
        (NOTEPAD_EDIT, WM_KEYUP, ord("S")),
        (NOTEPAD_EDIT, WM_KEYUP, VK_CONTROL),
    ]
    assert fake.foreground == foreground and fake.cursor == cursor and not fake.sent
    assert fake.attached is None and not fake.key_tables[notepad.pid], "detached, its key state as it was"


def test_bound_ctrl_shift_s_is_save_as(winctl, fake):
    winctl("bind-window", "bind", "Notepad")
    winctl("keys", "ctrl+shift+s")
    assert ("command", "Save As") in app(fake, "Notepad").events
    downs = [w for _h, m, w in keys_posted(fake) if m == WM_KEYDOWN]
    assert downs == [VK_CONTROL, VK_SHIFT, ord("S")]


def test_a_plain_key_after_a_combo_is_plain(winctl, fake):
    winctl("bind-window", "bind", "Notepad")
    winctl("keys", "ctrl+s")
    winctl("keys", "s")
    notepad = app(fake, "Notepad")
    assert notepad.events.count(("command", "Save")) == 1 and ("key", (WM_KEYDOWN, ord("S"))) in notepad.events


def test_bound_alt_combo_is_a_system_key_with_its_context_bit(winctl, fake):
    winctl("bind-window", "bind", "Notepad")
    winctl("keys", "alt+f")
    posted = [(m, w, lp >> 29 & 1) for _h, m, w, lp in fake.posted]
    assert posted == [
        (WM_SYSKEYDOWN, VK_MENU, 1),
        (WM_SYSKEYDOWN, ord("F"), 1),
        (WM_SYSKEYUP, ord("F"), 1),
        (WM_SYSKEYUP, VK_MENU, 1),
    ]


def test_the_windows_key_is_refused_before_anything_is_sent(winctl, fake):
    winctl("bind-window", "bind", "Notepad")
    run = winctl("keys", "s super+e", expect=4)
    assert "Windows key" in run.err and "bind-window unbind" in run.err
    assert not fake.posted and not fake.sent


def test_when_windows_will_not_share_key_state_the_combo_is_refused(winctl, fake):
    winctl("bind-window", "bind", "Notepad")
    fake.attach_refused = True
    run = winctl("keys", "ctrl+s", expect=4)
    assert "AttachThreadInput" in run.err and "ctrl would arrive as plain keys" in run.err
    assert not fake.posted, "not a plain s either"


def test_bound_key_down_holds_ctrl_for_later_keys_even_in_a_new_process(fake, backend):
    notepad = app(fake, "Notepad")
    backend.bind(window_id(notepad.hwnd))
    backend.key_state(parse_keys("ctrl"), down=True)
    assert keys_posted(fake) == [(NOTEPAD_EDIT, WM_KEYDOWN, VK_CONTROL)]
    kept = backend.bound_pointer()
    later = WindowsBackend(native=fake)  # the next one-shot winctl restores what is held
    try:
        later.bind(window_id(notepad.hwnd), kept)
        later.press_chords(parse_keys("s"))
        assert ("command", "Save") in notepad.events
        later.key_state(parse_keys("ctrl"), down=False)
        assert keys_posted(fake)[-1] == (NOTEPAD_EDIT, WM_KEYUP, VK_CONTROL)
        assert later.bound_pointer() is None, "nothing held, the cursor never moved"
        later.press_chords(parse_keys("s"))
    finally:
        later.close()
    assert notepad.events.count(("command", "Save")) == 1, "released: s is a plain s again"


def test_bound_key_down_and_up_of_a_chord_release_in_reverse(fake, backend):
    backend.bind(window_id(app(fake, "Notepad").hwnd))
    backend.key_state(parse_keys("shift+a"), down=True)
    backend.key_state(parse_keys("shift+a"), down=False)
    assert [(m, w) for _h, m, w in keys_posted(fake)] == [
        (WM_KEYDOWN, VK_SHIFT),
        (WM_KEYDOWN, ord("A")),
        (WM_KEYUP, ord("A")),
        (WM_KEYUP, VK_SHIFT),
    ]
    assert backend.bound_pointer() is None


def test_global_key_down_and_up_are_sendinput_halves(fake, backend):
    backend.key_state(parse_keys("ctrl+c"), down=True)
    assert fake.held == {VK_CONTROL, ord("C")} and not fake.posted
    backend.key_state(parse_keys("ctrl+c"), down=False)
    assert fake.held == set()
    assert [(e.vk, e.up) for e in fake.sent] == [
        (VK_CONTROL, False),
        (ord("C"), False),
        (ord("C"), True),
        (VK_CONTROL, True),
    ]


@pytest.fixture
def explorer_desktop():
    fake = FakeNative([load_app("notepad"), load_app("explorer")])
    backend = WindowsBackend(native=fake)
    yield fake, backend, app(fake, "File Explorer")
    backend.close()


def test_bound_ctrl_and_shift_clicks_extend_a_list_selection(explorer_desktop):
    fake, backend, explorer = explorer_desktop
    fake.foreground = app(fake, "Notepad").hwnd
    backend.bind(window_id(explorer.hwnd))
    backend.click(370, 273)  # Projects
    backend.click(370, 333, modifiers=["ctrl"])  # budget.xlsx
    assert selected(fake, explorer) == ["Projects", "budget.xlsx"]
    downs = [w for _h, m, w, _lp in fake.posted if m == WM_LBUTTONDOWN]
    assert downs == [0x0001, 0x0001 | MK_CONTROL], "MK_CONTROL in the wParam too"
    backend.click(370, 393, modifiers=["shift"])  # photo.jpg: the range from the anchor
    assert selected(fake, explorer) == ["budget.xlsx", "notes.txt", "photo.jpg"]
    assert [w for _h, m, w, _lp in fake.posted if m == WM_LBUTTONUP][-1] == MK_SHIFT
    assert not fake.sent and fake.attached is None


def test_a_click_with_a_held_key_carries_it(explorer_desktop):
    fake, backend, explorer = explorer_desktop
    backend.bind(window_id(explorer.hwnd))
    backend.click(370, 273)
    backend.key_state(parse_keys("ctrl"), down=True)
    backend.click(370, 303)  # Receipts
    assert selected(fake, explorer) == ["Projects", "Receipts"]
    assert [w for _h, m, w, _lp in fake.posted if m == WM_LBUTTONDOWN][-1] == 0x0001 | MK_CONTROL
    backend.key_state(parse_keys("ctrl"), down=False)
    backend.click(370, 333)
    assert selected(fake, explorer) == ["budget.xlsx"], "ctrl was held for the second click only"


def test_global_click_with_modifiers_holds_them_around_the_click_in_one_batch(explorer_desktop):
    fake, backend, explorer = explorer_desktop
    fake.foreground = explorer.hwnd
    backend.click(370, 273)
    fake.sent.clear()
    backend.click(370, 333, modifiers=["ctrl"])
    assert fake.sent == [
        MouseInput(370, 333, ("move",)),
        KeyInput(vk=VK_CONTROL),
        MouseInput(370, 333, ("left_down",)),
        MouseInput(370, 333, ("left_up",)),
        KeyInput(vk=VK_CONTROL, up=True),
    ]
    assert selected(fake, explorer) == ["Projects", "budget.xlsx"] and fake.held == set()


def test_bad_modifiers_are_refused_before_any_input(explorer_desktop):
    fake, backend, explorer = explorer_desktop
    with pytest.raises(InvalidInput, match="unknown modifier hyper"):
        backend.click(370, 273, modifiers=["hyper"])
    backend.bind(window_id(explorer.hwnd))
    with pytest.raises(InvalidInput, match="unknown modifier hyper"):
        backend.click(370, 273, MouseButton.LEFT, 1, ["hyper"])
    with pytest.raises(ActionFailed, match="Windows key"):
        backend.click(370, 273, modifiers=["super"])
    assert not fake.sent and not fake.posted and not fake.overlays
