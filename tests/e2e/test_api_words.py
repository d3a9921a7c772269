"""The Python API in the CLI's words, on real apps: a method per command (`type`, `launch`,
`find`, `dblclick`, `drag`, `state(diff=True)`), one rule for an element across Python, the
CLI and the daemon's structured calls (an int is an id, a str a name, even "7"), and
`AsyncDesktop` under asyncio. Each outcome is read from the app: its event log, galculator's
display."""

from __future__ import annotations

import asyncio
import json
import subprocess

import pytest

from tests.conftest import environment
from tests.e2e.helpers.apps import shows, wait_for_buttons
from tests.fixtures.applog import AppLog
from tests.fixtures.launch import gtk_fixture_command
from winactions import AsyncDesktop, Desktop, StateResult, UIState

pytestmark = pytest.mark.desktop
TITLE = "Winactions Words"


@pytest.fixture
def galculator(launch, desktop, winctl):
    """galculator, the pointer parked where no tooltip opens; its keypad has a key named "7"
    and, with other ids, an element whose id is 7 (its "<-" key)."""
    subprocess.run(["xdotool", "mousemove", "0", "0"], env=desktop.env, check=True)
    launch(["galculator"], title="galculator")
    state = wait_for_buttons(winctl, 20)
    named = {t["id"]: t["name"] for t in state["targets"]}
    assert named[7] == "<-" and named[9] == "AC", named  # what a digit string taken for an id would press
    return state


def test_the_cli_words_are_methods_that_act_on_a_real_app(desktop, winctl, tmp_path):
    """`desktop.type(...)` failed (it was `type_text`); there were no `launch`, `find`,
    `dblclick` or `drag` methods; `state(diff=True)` gave the state and lost the diff."""
    log = tmp_path / "events.jsonl"
    app = AppLog(str(log))
    with environment(winctl.env), Desktop("words") as d:
        opened = d.launch(gtk_fixture_command(str(log), rows=10, title=TITLE), title=TITLE)
        try:
            assert opened.window.title == TITLE
            app.wait_for("started")
            name = d.find(name="Name", type="Edit")
            assert isinstance(name, StateResult) and [t.type for t in name.state.targets] == ["Edit"]
            d.click(name.state.targets[0].id)
            d.type("words")
            app.wait_for("entry_changed", text="words")
            assert isinstance(d.state(), UIState)
            cell = d.find(name="file-003.txt").state.targets[0]
            d.dblclick(cell.id)
            app.wait_for("row_activated", name="file-003.txt")
            slider = next(t for t in d.state().targets if t.type == "Slider")
            d.drag(slider.id, slider.rect.right - 3, (slider.rect.top + slider.rect.bottom) // 2)
            assert app.wait_for("value_changed", widget="Volume")["value"] > 80
            d.state()
            d.click("Apply")
            app.wait_for("clicked", widget="Apply")
            changed = d.state(diff=True)
            assert isinstance(changed, StateResult) and changed.diff is not None
            now = [c.target.name for c in changed.diff.changed] + [t.name for t in changed.diff.added]
            assert "Applied 1" in now, changed.diff
            d.click(name.state.targets[0].id)  # the keyboard's focus back in the field
            with pytest.warns(DeprecationWarning, match="use Desktop.type"):
                d.type_text("!")  # the old name still types, and says it is old
            app.wait_for("entry_changed", text="words!")
        finally:
            d.close_window(window=TITLE)
    assert app.wait_for("delete_event")


def test_an_int_is_an_id_and_a_str_a_name_in_python_the_cli_and_the_daemon(galculator, winctl):
    """A digit string meant a name in Python but an id in the CLI, the daemon's calls and a
    batch's steps (JSON): `{"id": "9"}` pressed AC, the element with id 9. Now one rule: an int
    is an id, a str a name, always; the CLI reads a bare number as the int."""
    with environment(winctl.env), Desktop("default", window="galculator") as d:
        assert d.click("9").target.name == "9"  # the key named 9
        assert d.click("7").target.name == "7"  # the key named 7...
        shows(winctl, "97")
        assert d.click(7).target.name == "<-"  # ...and the id 7: galculator's backspace
        shows(winctl, "9")
        d.click("8")
        steps = [{"command": "click", "args": {"id": "4"}}, {"command": "click", "args": {"id": "2"}}]
        assert [s.ok for s in d.batch(steps).steps] == [True, True]  # names, as Python says them
        shows(winctl, "9842")
    assert '"<-"' in winctl("click", "7").out  # the CLI's bare number: the id
    shows(winctl, "984")
    assert '"7"' in winctl("click", "name:7").out
    assert '"1"' in winctl("click-element", "--name", "1").out
    shows(winctl, "98471")
    steps = json.dumps([{"command": "click", "args": {"id": "3"}}])
    assert json.loads(winctl("--json", "batch", steps).out)["result"]["steps"][0]["ok"]
    shows(winctl, "984713")  # "3" in JSON is the key named 3, not the id 3 (the View menu)


def test_async_desktop_awaits_the_same_methods_in_order_without_blocking_the_loop(galculator, winctl):
    async def main() -> tuple[list[str], int, str]:
        ticks = 0

        async def tick() -> None:
            nonlocal ticks
            while True:
                ticks += 1
                await asyncio.sleep(0.01)

        ticker = asyncio.create_task(tick())
        async with AsyncDesktop(window="galculator") as d:
            pressed = await asyncio.gather(d.click("5"), d.click("6"), d.click("7"))
            await d.wait(0.3)
            text = await d.get_text(6)
        ticker.cancel()
        return [r.target.name for r in pressed], ticks, text

    with environment(winctl.env):
        names, ticks, text = asyncio.run(main())
    assert names == ["5", "6", "7"]  # one session, one worker: in the order they were made
    shows(winctl, "567")
    assert text.split()[0] == "567"
    assert ticks > 1  # the loop ran while the desktop worked
