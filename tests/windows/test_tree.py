"""Reading windows through the Windows backend: one CacheRequest per state, runtime ids as
identity, a budget with a visible marker, one COM thread, one coordinate space."""

from __future__ import annotations

import threading

from tests.fixtures.windows.fake_native import FakeNative, big_list_app, load_app
from winactions.backends.windows.backend import WindowsBackend
from winactions.model import Operation, Rect


def test_state_reads_a_window_in_one_cache_request(winctl, fake):
    winctl("focus", "Calculator")
    before = fake.round_trips
    state = winctl.state()
    assert fake.round_trips - before == 1, "the whole tree comes from one CacheRequest"
    buttons = {t["name"]: t for t in state["targets"] if t["type"] == "Button"}
    assert {"Seven", "Plus", "Equals", "Clear"} <= set(buttons)
    assert "invoke" in buttons["Seven"]["operations"] and buttons["Seven"]["automation_id"] == "num7Button"
    display = next(t for t in state["targets"] if t.get("automation_id") == "CalculatorResults")
    assert display["name"] == "Display is 0" and display["type"] == "Text"
    disabled = next(t for t in state["targets"] if t["name"] == "Clear all memory")
    assert "enabled" not in disabled["states"]


def test_patterns_become_states_operations_and_values(winctl, fake):
    winctl("focus", "Settings")
    state = winctl.state()
    by_name = {t["name"]: t for t in state["targets"]}
    assert set(by_name["Enable feature"]["operations"]) >= {"toggle"} and by_name["Enable feature"]["value"] == "off"
    assert "selected" in by_name["Small"]["states"] and "select" in by_name["Large"]["operations"]
    assert {"choose", "expand", "invoke"} <= set(by_name["Color"]["operations"]) and by_name["Color"]["value"] == "Red"
    assert "set_value" in by_name["Volume"]["operations"] and by_name["Volume"]["value"] == "20"
    assert "set_text" in by_name["Name"]["operations"]
    assert "scroll" in by_name["Items"]["operations"]
    assert "Red" not in [t["name"] for t in state["targets"] if t["type"] == "ListItem"], (
        "a closed combo box's items are offscreen and not read"
    )


def test_ids_follow_runtime_ids_and_a_removed_element_is_stale(winctl, fake):
    winctl("focus", "Calculator")
    first = winctl.find("Button", "Plus")["id"]
    assert winctl.find("Button", "Plus")["id"] == first
    app = next(a for a in fake.apps if a.title == "Calculator")
    group = fake.find(app, AutomationId="StandardOperators")
    group["children"] = [c for c in group["children"] if c.get("AutomationId") != "plusButton"]
    run = winctl("click", str(first), expect=3)
    assert "stale" in run.err or "gone" in run.err


def test_a_ten_thousand_row_list_costs_only_its_rows_on_screen(tmp_path):
    desktop = FakeNative([big_list_app(rows=10_000, visible=25)])
    backend = WindowsBackend(native=desktop)
    window = backend.list_windows()[0]
    snapshot = backend.snapshot(window)
    rows = [n for n in snapshot.nodes if n.role == "ListItem"]
    assert len(rows) == 25 and desktop.round_trips == 1
    # the app tests a cheap condition on each row in its own process, but builds and sends
    # the full property set only for the 25 on screen
    assert desktop.evaluated == 10_002 and len(snapshot.nodes) == 27
    small = backend.snapshot(window, max_nodes=10)
    assert small.truncated and len(small.nodes) == 10
    assert [n.role for n in small.nodes[:2]] == ["Window", "List"], "the budget keeps the top of the tree"
    backend.close()


def test_the_budget_shows_as_a_truncated_marker(winctl, fake, monkeypatch):
    fake.apps.append(big_list_app(rows=300, visible=300))
    monkeypatch.setattr("winactions.perception.provider.AccessibilityProvider.__init__.__defaults__", (50,))
    winctl("focus", "Big List")
    out = winctl("state").out
    assert "truncated" in out.lower() or "more than 50" in out


def test_the_node_budget_is_read_from_the_environment(winctl, fake, monkeypatch):
    fake.apps.append(big_list_app(rows=300, visible=300))
    winctl("focus", "Big List")
    assert not winctl.state()["truncated"]
    monkeypatch.setenv("WINCTL_MAX_NODES", "50")
    cut = winctl.state()
    assert cut["truncated"] and any("more than 50 elements" in w and "WINCTL_MAX_NODES" in w for w in cut["warnings"])


def test_every_uia_call_runs_on_one_com_thread_never_the_callers(winctl, fake):
    winctl("focus", "Notepad")
    winctl("state")
    winctl("input", str(winctl.find("Document", "Text editor")["id"]), "hello")
    uia = {"cache_tree", "find_element", "call_pattern", "top_windows", "set_dpi_awareness"}
    threads = {ident for name, ident in fake.calls if name in uia}
    assert threading.get_ident() not in threads
    assert all(ident in fake.com_threads for ident in threads)


def test_dpi_awareness_comes_first_so_rects_are_physical_pixels():
    desktop = FakeNative([load_app("notepad")], scale=1.5)
    backend = WindowsBackend(native=desktop)
    assert desktop.calls[1][0] == "set_dpi_awareness" and backend.dpi_mode == "per-monitor-v2"
    window = backend.list_windows()[0]
    assert window.rect == Rect(left=108, top=131, right=1092, bottom=792), "not the 96-DPI virtualized rect"
    document = next(n for n in backend.snapshot(window).nodes if n.role == "Document")
    assert document.rect == Rect(left=108, top=165, right=1092, bottom=760)
    assert Operation.SET_TEXT in document.operations
    backend.close()


def test_a_fake_call_outside_the_com_thread_fails_like_com_does():
    desktop = FakeNative([load_app("notepad")])
    try:
        desktop.cache_tree(264210)
    except RuntimeError as exc:
        assert "RPC_E_WRONG_THREAD" in str(exc)
    else:
        raise AssertionError("the fake must refuse calls from a thread without COM")


def test_chromium_windows_are_asked_to_build_their_tree_once():
    chrome = load_app("notepad")
    chrome.class_name, chrome.title = "Chrome_WidgetWin_1", "Example - Google Chrome"
    desktop = FakeNative([chrome])
    backend = WindowsBackend(native=desktop)
    window = backend.list_windows()[0]
    backend.snapshot(window)
    backend.snapshot(window)
    assert [name for name, _ in desktop.calls].count("wake_accessibility") == 1
    backend.close()
