"""Acting through the Windows backend: patterns first, in the documented order, with the
result naming the one used; SendInput when asked for input or when no pattern fits."""

from __future__ import annotations

from tests.windows.helpers import calc_ids, display
from winactions.backends.windows.keymap import VK_CONTROL
from winactions.backends.windows.native import KeyInput, MouseInput


def test_calculator_computes_by_invoke(winctl, fake):
    ids = calc_ids(winctl)
    for key in ("num7Button", "plusButton", "num8Button", "equalButton"):
        out = winctl("click", str(ids[key])).out
        assert "via Invoke.Invoke" in out
    assert display(fake) == "Display is 15"
    assert not fake.sent, "no synthesized input was needed"
    assert winctl.find("Text", "Display is 15")


def test_calculator_computes_by_clicking_with_the_mouse(winctl, fake):
    ids = calc_ids(winctl)
    for key in ("num9Button", "multiplyButton", "num6Button", "equalButton"):
        out = winctl("click", "--via", "input", str(ids[key])).out
        assert "via mouse" in out
    assert display(fake) == "Display is 54"
    clicks = [e for e in fake.sent if isinstance(e, MouseInput) and "left_up" in e.flags]
    assert len(clicks) == 4


def test_click_uses_toggle_then_selection_item_then_expand_collapse(winctl, fake):
    winctl("focus", "Settings")
    assert "via Toggle.Toggle" in winctl("click", str(winctl.find("CheckBox", "Enable feature")["id"])).out
    assert winctl.find("CheckBox", "Enable feature")["value"] == "on"
    assert "via SelectionItem.Select" in winctl("click", str(winctl.find("RadioButton", "Large")["id"])).out
    state = {t["name"]: t for t in winctl.state()["targets"]}
    assert "selected" in state["Large"]["states"] and "selected" not in state["Small"]["states"]
    assert "via ExpandCollapse.Expand" in winctl("click", str(state["Color"]["id"])).out
    assert [c[:2] for c in fake.pattern_calls] == [
        ("Toggle", "Toggle"),
        ("SelectionItem", "Select"),
        ("ExpandCollapse", "Expand"),
    ]


def test_select_opens_the_combo_box_selects_and_closes_it(winctl, fake):
    winctl("focus", "Settings")
    combo = winctl.find("ComboBox", "Color")
    out = winctl("select", str(combo["id"]), "Blue").out
    assert "via SelectionItem.Select" in out
    assert winctl.find("ComboBox", "Color")["value"] == "Blue"
    assert [c[:2] for c in fake.pattern_calls] == [
        ("ExpandCollapse", "Expand"),
        ("SelectionItem", "Select"),
        ("ExpandCollapse", "Collapse"),
    ]
    run = winctl("select", str(combo["id"]), "Purple", expect=3)  # not_found, as on Linux
    assert 'no option "Purple"' in run.err and '"Red"' in run.err


def test_input_sets_the_value_and_get_text_reads_it_back(winctl, fake):
    winctl("focus", "Notepad")
    doc = winctl.find("Document", "Text editor")
    assert "via Value.SetValue" in winctl("input", str(doc["id"]), "Hello, Windows").out
    assert winctl("get", "text", str(doc["id"])).out.strip() == "Hello, Windows"
    assert ("Text", "GetText", (-1,), "Text editor") in fake.pattern_calls


def test_type_sends_unicode_without_a_keyboard_layout(winctl, fake):
    winctl("focus", "Notepad")
    winctl("type", "héllo 😀")
    units = [e for e in fake.sent if isinstance(e, KeyInput) and e.unicode and not e.up]
    assert len(units) == 8, "the emoji is a surrogate pair: two UTF-16 units"
    app = next(a for a in fake.apps if a.title.endswith("Notepad"))
    assert fake.find(app, Name="Text editor")["Patterns"]["Value"]["Value"] == "héllo 😀"


def test_keys_press_modifiers_around_the_key(winctl, fake):
    winctl("focus", "Notepad")
    winctl("keys", "ctrl+s")
    keys = [(e.vk, e.up) for e in fake.sent if isinstance(e, KeyInput) and not e.unicode]
    assert keys[-4:] == [(VK_CONTROL, False), (ord("S"), False), (ord("S"), True), (VK_CONTROL, True)]
    winctl("keys", "ctrl+Home")
    home = [e for e in fake.sent if isinstance(e, KeyInput) and e.vk == 0x24]
    assert home and all(e.extended for e in home), "Home is an extended key, not the keypad's 7"


def test_scroll_uses_the_scroll_pattern_where_there_is_one(winctl, fake):
    winctl("focus", "Settings")
    items = winctl.find("List", "Items")
    assert "via Scroll.Scroll" in winctl("scroll", str(items["id"]), "down", "2").out
    assert [c[:3] for c in fake.pattern_calls] == [("Scroll", "Scroll", (2, 4))] * 2
    doc_window = winctl.find("Button", "Apply")
    failed = winctl("scroll", str(doc_window["id"]), "down", "1", expect=4)  # the wheel moved nothing there
    assert "nothing in element" in failed.err, failed.err
    wheel = [e for e in fake.sent if isinstance(e, MouseInput) and "wheel" in e.flags]
    assert wheel and wheel[-1].wheel == -120


def test_a_disabled_button_fails_clearly_and_nothing_is_invoked(winctl, fake):
    winctl("focus", "Settings")
    reset = winctl.find("Button", "Reset")
    run = winctl("click", "--via", "semantic", str(reset["id"]), expect=None)
    assert run.code != 0 and "disabled" in run.err
    assert not any(c[1] == "Invoke" for c in fake.pattern_calls)


def test_a_closed_window_and_an_unknown_id_fail_without_acting(winctl, fake):
    winctl("focus", "Calculator")
    seven = winctl.find("Button", "Seven")["id"]
    winctl("click", "999", expect=3)
    fake.apps = [a for a in fake.apps if a.title != "Calculator"]
    run = winctl("click", str(seven), expect=None)
    assert run.code != 0 and ("closed" in run.err or "gone" in run.err)
    assert not fake.pattern_calls


def test_an_item_scrolled_out_of_view_is_scrolled_to_by_its_own_pattern_and_clicked(winctl, fake):
    """ "Item 30" is in the Items list, below its view: the state's one read leaves offscreen
    items out, so the name was searched in the pixels. The list is asked for it by name (UIA
    FindAll, offscreen included), the item scrolls itself into view (ScrollItemPattern, as a
    WinForms list box item does: it becomes the last row shown), and it is selected; the wheel
    is never turned."""
    winctl("focus", "Settings")
    assert "Item 30" not in {t["name"] for t in winctl.state()["targets"]}
    done = winctl("click", "Item 30").out
    assert "scrolled 'Item 30' into view" in done and "wheel" not in done, done
    assert [(*c[:2], c[3]) for c in fake.pattern_calls] == [
        ("ScrollItem", "ScrollIntoView", "Item 30"),
        ("SelectionItem", "Select", "Item 30"),
    ]
    shown = {t["name"]: t for t in winctl.state()["targets"]}
    assert "Item 30" in shown and "Item 1" not in shown
    assert not any(isinstance(e, MouseInput) and "wheel" in e.flags for e in fake.sent)
    missing = winctl("click", "Item 99", expect=None)
    assert missing.code != 0 and "Item 99" in missing.err


def test_find_says_what_is_out_of_view_is_not_searched_here(winctl, fake):
    """`find` looks out of view only where the backend can (AT-SPI); on Windows, a name found
    nowhere in view said it was searched for "out of view" too, which it was not."""
    winctl("focus", "Settings")
    answer = winctl("find", "No such row").out
    assert "none matched" in answer and "not searched on this platform" in answer, answer
    assert "and out of view" not in answer
