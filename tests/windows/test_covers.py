"""A mouse click on an element checks what is on top at its point, on Windows as on X: a
tooltip is waited out, another window or an open menu refuses the click, and nothing is
clicked then (the fake app's own event log says so)."""

from __future__ import annotations

from tests.fixtures.windows.fake_native import FakePopup
from tests.windows.helpers import calc_ids, display
from winactions.model import Rect


def rect_of(fake, title: str, automation_id: str) -> Rect:
    app = next(a for a in fake.apps if a.title == title)
    left, top, right, bottom = fake.find(app, AutomationId=automation_id)["BoundingRectangle"]
    return Rect(left=left, top=top, right=right, bottom=bottom)


def calculator(fake):
    return next(a for a in fake.apps if a.title == "Calculator")


def test_a_tooltip_over_a_key_is_waited_out_and_the_key_is_pressed(winctl, fake):
    ids = calc_ids(winctl)
    eight, five = rect_of(fake, "Calculator", "num8Button"), rect_of(fake, "Calculator", "num5Button")
    fake.cursor = eight.center  # the pointer rests on 8; its tooltip hangs over 5
    tip = Rect(left=five.left, top=five.top + 10, right=five.right + 40, bottom=five.top + 40)
    fake.popups.append(
        FakePopup(hwnd=0x7001, class_name="tooltips_class32", pid=calculator(fake).pid, tool=eight, rect=tip)
    )
    assert "via mouse" in winctl("click", "--via", "input", str(ids["num5Button"])).out
    assert display(fake) == "Display is 5"
    assert not fake.popups, "the tooltip went when the pointer left the 8 key"


def test_a_window_kept_on_top_is_named_and_nothing_is_clicked(winctl, fake):
    ids = calc_ids(winctl)
    plus = rect_of(fake, "Calculator", "plusButton")
    above = Rect(left=plus.left - 50, top=plus.top - 50, right=plus.right, bottom=plus.bottom)
    fake.popups.append(FakePopup(hwnd=0x7002, class_name="Notepad", title="Untitled - Notepad", pid=4242, rect=above))
    before = list(calculator(fake).events)
    refused = winctl("click", "--via", "input", str(ids["plusButton"]), expect=4)
    assert f"element {ids['plusButton']} is covered at" in refused.err, refused.err
    assert 'by the window "Untitled - Notepad": nothing was clicked' in refused.err, refused.err
    assert calculator(fake).events == before
    assert "via Invoke.Invoke" in winctl("click", str(ids["plusButton"])).out  # its own action needs no pointer


def test_an_open_win32_menu_refuses_clicks_but_on_its_items(winctl, fake):
    """Notepad tracks its File menu: a click under the menu, or beside it, would only close
    it; the menu's own item is clicked where it is."""
    notepad = next(a for a in fake.apps if a.title == "Untitled - Notepad")
    for item in fake.find(notepad, ControlType="MenuItem", Name="File")["children"]:
        item["IsOffscreen"] = False  # the menu is open: its items are on screen ...
    fake.menu_mode.add(notepad.hwnd)  # ... in a Win32 menu window, which the app's thread tracks
    menu = FakePopup(
        hwnd=0x7003, class_name="#32768", pid=notepad.pid, rect=Rect(left=116, top=165, right=396, bottom=440)
    )
    fake.popups.append(menu)
    winctl("focus", "Notepad")
    state = winctl.state()
    ids = {(t["type"], t["name"]): t["id"] for t in state["targets"]}
    opened = list(notepad.events)
    for name in ("Settings", "Text editor"):  # beside the menu, and under it
        element = next(t for t in state["targets"] if t["name"] == name)
        refused = winctl("click", "--via", "input", str(element["id"]), expect=4)
        assert "an open menu or popup" in refused.err and "nothing was clicked" in refused.err, refused.err
    assert fake.menu_mode and not menu.events and notepad.events == opened
    assert "via mouse" in winctl("click", "--via", "input", str(ids[("MenuItem", "Save")])).out
    assert menu.events, "the menu's item took the click"


def test_a_popup_of_the_app_itself_is_a_popup_and_its_dialog_is_named(winctl, fake):
    ids = calc_ids(winctl)
    seven = rect_of(fake, "Calculator", "num7Button")
    over = Rect(left=seven.left - 5, top=seven.top - 5, right=seven.right + 5, bottom=seven.bottom + 5)
    fake.popups.append(FakePopup(hwnd=0x7004, class_name="ComboLBox", pid=calculator(fake).pid, rect=over))
    refused = winctl("click", "--via", "input", str(ids["num7Button"]), expect=4)
    assert "an open menu or popup" in refused.err, refused.err
    fake.popups[-1] = FakePopup(hwnd=0x7005, class_name="#32770", title="Save As", pid=calculator(fake).pid, rect=over)
    refused = winctl("click", "--via", "input", str(ids["num7Button"]), expect=4)
    assert 'by the window "Save As"' in refused.err, refused.err
    fake.popups.clear()
    assert "via mouse" in winctl("click", "--via", "input", str(ids["num7Button"])).out
    assert display(fake) == "Display is 7"
