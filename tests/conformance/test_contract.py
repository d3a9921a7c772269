"""The contract every backend keeps: the same situation, the same outcome.

Each test runs once per backend (`driver` is parametrised in conftest.py) and checks both
what winctl answered (exit code, error code, message) and what really reached the app (its
own log on Linux, the fake's recorded calls on Windows).
"""

from __future__ import annotations

import pytest

from winactions.model import CONTROL_TYPES, Rect


def _rect(values: list[int]) -> Rect:
    return Rect(left=values[0], top=values[1], right=values[2], bottom=values[3])


def test_an_unknown_id_is_not_found_and_nothing_is_acted_on(driver):
    driver.use("button")
    mark = driver.mark()
    done = driver.run("--json", "click", "99999")
    assert done.code == 3
    assert done.error["code"] == "not_found" and done.error["message"] == "no element 99999"
    assert "winctl state" in done.error["hint"]
    assert driver.reached(mark) == []


def test_a_stale_id_is_stale_element_and_nothing_is_acted_on(driver):
    gone = driver.remove_after_state("button")
    mark = driver.mark()
    done = driver.run("--json", "click", gone)
    assert done.code == 3
    assert done.error["code"] == "stale_element", done.error
    assert "winctl state" in done.error["hint"]
    assert driver.reached(mark) == []


def test_select_of_a_missing_option_is_not_found_and_lists_the_options(driver):
    if "combo" not in driver.elements:
        pytest.skip(f"[{driver.name}] no recorded screen with a combo box of Red, Green and Blue")
    combo = driver.use("combo")
    mark = driver.mark()
    done = driver.run("--json", "select", combo, "Purple")
    assert done.code == 3
    assert done.error["code"] == "not_found" and 'no option "Purple"' in done.error["message"]
    for option in ("Red", "Green", "Blue"):
        assert f'"{option}"' in done.error["hint"]
    # nothing was chosen: the app saw no selection, and the combo still shows its choice
    assert not [e for e in driver.reached(mark) if "Select" in str(e) or "combo_changed" in str(e)]
    assert driver.target("combo")["value"] == "Red"


def test_scrolling_an_element_that_cannot_scroll_turns_the_wheel_and_says_nothing_moved(driver):
    """Decision: an element with no scrolling of its own gets the mouse wheel at its visible
    centre — the wheel reaches whatever scrolls under it, as it does for a person, which is how
    list rows and web content scroll. Whether it scrolled shows only in the pixels: when nothing
    in the element's area moved, the scroll fails (exit 4) and says so, rather than "via wheel"
    (the agent trial's Gnumeric sheet, where a wheel over a header cell moved nothing)."""
    label = driver.target("label")
    mark = driver.mark()
    done = driver.run("--json", "scroll", str(label["id"]), "down", "2")
    assert done.code == 4, done.out
    assert "moved" in done.json["error"]["message"]
    assert driver.pointer() == tuple(_rect(label["rect"]).center)
    assert not driver.scrolled(mark), "the list elsewhere in the window did not move"
    # while an element that scrolls does scroll
    scrolling = driver.use("list")
    mark = driver.mark()
    driver.ok("scroll", scrolling, "down", "5")
    assert driver.scrolled(mark)


def test_a_password_field_is_never_read(driver):
    secret = driver.target("password")
    assert "protected" in secret["states"]
    assert secret.get("value") is None, "not even its bullets: their count is the length"
    for what in ("text", "value"):
        done = driver.run("--json", "get", what, str(secret["id"]))
        assert done.code == 4, done.out
        assert done.error["code"] == "action_failed" and "password field" in done.error["message"]
        assert "hunter2" not in done.out + done.err and "●" not in done.out + done.err
    inspected = driver.ok("inspect", str(secret["id"])).out
    assert "hunter2" not in inspected and "●" not in inspected
    assert "protected" in inspected


def test_every_target_lies_inside_its_window(driver):
    driver.use("list")  # the window with a list longer than it shows
    state = driver.state()
    bounds = driver.window_bounds(state)
    assert state["targets"]
    for t in state["targets"]:
        if t.get("rect"):
            r = _rect(t["rect"])
            assert r.intersect(bounds) == r, f"[{driver.name}] {t['type']} {t['name']!r} {r} outside {bounds}"
    # the rows beyond the list's viewport are clipped away, not listed where they would be
    listed = next(t for t in state["targets"] if t["id"] == int(driver.use("list")))
    viewport = _rect(listed["rect"])
    rows = [t for t in state["targets"] if t.get("parent_id") == listed["id"] and t.get("rect")]
    assert rows, "the list's rows are listed"
    for t in rows:
        r = _rect(t["rect"])
        assert r.intersect(viewport) == r, f"[{driver.name}] row {t['name']!r} {r} outside its list {viewport}"


def test_input_into_a_read_only_element_is_refused_and_nothing_is_typed(driver):
    label = driver.use("label")
    driver.ok("click", driver.use("edit"))  # the focus is in a field, where typed text would land
    mark = driver.mark()
    done = driver.run("--json", "input", label, "stray")
    assert done.code == 4
    assert done.error["code"] == "action_failed" and "read-only" in done.error["message"]
    assert driver.reached(mark) == []


def test_every_type_in_a_state_is_a_control_type(driver):
    for role in ("button", "password"):  # both windows the drivers use
        driver.use(role)
        types = {t["type"] for t in driver.state()["targets"]}
        assert types <= CONTROL_TYPES, f"[{driver.name}] not in CONTROL_TYPES: {types - CONTROL_TYPES}"


def test_a_command_the_backend_lacks_a_capability_for_is_refused(driver, monkeypatch):
    command, capability = driver.lacking(monkeypatch)
    driver.use("button")
    mark = driver.mark()
    done = driver.run("--json", *command)
    assert done.code != 0
    assert done.error["code"] == "unsupported", done.error
    assert capability in done.error["message"] or done.error.get("hint")
    assert driver.reached(mark) == []
    assert "bound to" not in driver.run("bind-window", "status").out  # refused on Linux, "not bound" elsewhere
