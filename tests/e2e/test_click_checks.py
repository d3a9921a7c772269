"""A click is reported done only when it reached what was named (issue 40, items 5 and 7).
Each outcome is checked in the app: the fixture's log, galculator's display."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import FIXTURES, SYSTEM_PYTHON, Run, start_app, stop_app
from tests.e2e.helpers.apps import display, shows, wait_for_buttons
from tests.fixtures.applog import AppLog

pytestmark = pytest.mark.desktop
RELABELLING = "Relabelling"
CLICKS = 30  # per interval and route


def relabelling(desktop, tmp_path: Path, every_ms: int):
    """The fixture whose two buttons swap "Keep" and "Delete" every `every_ms` ms, and its log."""
    log = AppLog(str(tmp_path / f"relabel-{every_ms}.jsonl"))
    proc = start_app(
        desktop,
        [
            SYSTEM_PYTHON,
            str(FIXTURES / "relabel_app.py"),
            "--title",
            RELABELLING,
            "--log",
            log.path.as_posix(),
            "--every",
            str(every_ms),
        ],
        RELABELLING,
    )
    return proc, log


def left_button_id(state: Callable[[], dict]) -> int:
    """The id of the left button, read while it is named "Keep" (its id stands for "Keep")."""
    deadline = time.monotonic() + 10
    while True:
        buttons = [t for t in state()["targets"] if t["type"] == "Button"]
        if buttons and buttons[0]["name"] == "Keep":
            return int(buttons[0]["id"])
        assert time.monotonic() < deadline, buttons


def click_the_keep_id(click: Callable[[], tuple[int, str]], log: AppLog) -> tuple[int, int, list[str]]:
    """CLICKS clicks on the id of "Keep"; each outcome checked against the app's log: a reported
    success must be a click the app took on "Keep", a refusal that says nothing was done must
    have left no click. Returns (successes, refusals, failures after a press)."""
    done = refused = 0
    uncertain: list[str] = []
    for _ in range(CLICKS):
        mark = log.mark()
        code, said = click()
        if code == 0:
            clicked = log.wait_for("clicked", since=mark, timeout=5)
            time.sleep(0.05)
            assert log.events("clicked", since=mark) == [clicked], said
            assert (clicked["widget"], clicked["label"]) == ("left", "Keep"), (
                f"reported {said!r}, but the app took a click on {clicked['label']!r}"
            )
            done += 1
        elif "nothing was done" in said:
            time.sleep(0.3)
            assert log.events("clicked", since=mark) == [], f"said {said!r}, but the app took a click"
            assert 'and is now "Delete"' in said, said
            refused += 1
        else:
            assert 'was renamed "Delete" as it was clicked' in said, said
            assert 'the click may have reached "Delete"' in said, said
            uncertain.append(said)
    return done, refused, uncertain


@pytest.mark.parametrize("every_ms", [10, 250])
@pytest.mark.parametrize("via", ["auto", "input"])
def test_a_button_relabelled_around_the_click_is_never_reported_as_clicked(daemon, desktop, tmp_path, every_ms, via):
    """Two buttons swap "Keep" and "Delete" every 10-250 ms. `click ID` (the id of "Keep")
    printed `click [1] [Button] "Keep" via action:click` while the app logged a click on
    "Delete": measured here through the daemon before the fix, at 10 ms 5 of 17 reported
    clicks by the semantic action and 8 of 18 by the mouse. The identity was checked once,
    when the id was resolved, milliseconds before the press. Now the name is read again right
    before the press and right after it (with the renames the app announced in between, which
    the daemon hears): a reported click is one on "Keep"; anything else fails."""
    proc, log = relabelling(desktop, tmp_path, every_ms)
    try:
        daemon("focus", RELABELLING)
        keep = left_button_id(daemon.state)

        def click() -> tuple[int, str]:
            run = daemon("click", str(keep), "--via", via, expect=None)
            return run.code, run.out + run.err

        done, refused, uncertain = click_the_keep_id(click, log)
        print(f"every {every_ms} ms via {via}: {done} done, {refused} refused, {len(uncertain)} renamed as clicked")
        if every_ms == 250:
            assert done >= CLICKS // 4, (done, refused, uncertain)  # most clicks land between two swaps
    finally:
        stop_app(proc)


@pytest.mark.parametrize("via", ["auto"])
def test_one_shot_clicks_on_a_relabelling_button_never_report_the_wrong_one(winctl, desktop, tmp_path, via):
    """The same through a one-shot `winctl` process, which hears no rename events: the reads
    right before and right after the press are what it has (by the mouse, at 10 ms, a
    relabel and its undoing both between two reads still passed once in 30)."""
    proc, log = relabelling(desktop, tmp_path, 10)
    try:
        winctl("focus", RELABELLING)
        keep = left_button_id(winctl.state)

        def click() -> tuple[int, str]:
            run: Run = winctl("click", str(keep), "--via", via, expect=None)
            return run.code, run.out + run.err

        click_the_keep_id(click, log)
    finally:
        stop_app(proc)


def test_over_mcp_a_relabelling_button_is_never_reported_as_clicked(desktop, tmp_path):
    from tests.e2e.helpers.mcp_client import run_client

    proc, log = relabelling(desktop, tmp_path, 10)

    async def script(session):
        await session.call_tool("focus", {"window": RELABELLING})
        outcomes = []
        while not outcomes:  # the left button's id, read while it is named "Keep"
            state = (await session.call_tool("state", {})).structured_content["result"]
            buttons = [t for t in state["targets"] if t["type"] == "Button"]
            if buttons[0]["name"] == "Keep":
                for _ in range(CLICKS):
                    mark = log.mark()
                    result = await session.call_tool("click", {"id": buttons[0]["id"]})
                    time.sleep(0.3)
                    outcomes.append((result.is_error, result.content[0].text, log.events("clicked", since=mark)))
        return outcomes

    try:
        outcomes = run_client(desktop, tmp_path, script)
    finally:
        stop_app(proc)
    for is_error, text, clicked in outcomes:
        if not is_error:
            assert [(c["widget"], c["label"]) for c in clicked] == [("left", "Keep")], text
        elif "nothing was done" in text:
            assert clicked == [], text


@pytest.fixture
def galculator(launch, desktop, winctl):
    """galculator, the pointer parked where no tooltip opens."""
    import subprocess

    subprocess.run(["xdotool", "mousemove", "0", "0"], env=desktop.env, check=True)
    launch(["galculator"], title="galculator")
    wait_for_buttons(winctl, 20)


@pytest.mark.parametrize("route", ["one-shot", "daemon"])
def test_a_click_in_an_app_whose_menu_is_open_without_a_grab_is_refused(route, galculator, winctl, daemon):
    """galculator: MS pressed three times (by its action) opens its menu three times, each
    over the last; Escape closes the top one and lets the X pointer grab go, the others stay
    open. `click name:1 --via input` printed `via mouse` rc 0: the press only closed a menu
    (GTK keeps its own grab for an open menu, the X server none), and "1" was never entered.
    A click on the app while one of its menus is open elsewhere is refused, nothing pressed."""
    run = winctl if route == "one-shot" else daemon
    run("focus", "galculator")
    for _ in range(3):
        run("click", "name:MS", "--via", "semantic")
    run("keys", "Escape")
    time.sleep(0.3)
    refused = run("click", "name:1", "--via", "input", expect=4)
    assert "an open menu of its app" in refused.err, refused.err
    assert "nothing was clicked" in refused.err
    assert "winctl keys Escape" in refused.err
    assert [text.split()[0] for text in display(winctl) if text.split()] == ["0"], display(winctl)
    for _ in range(3):  # the menus closed as the hint says, the click goes through
        run("keys", "Escape")
        time.sleep(0.2)
    assert "via mouse" in run("click", "name:1", "--via", "input").out
    shows(winctl, "1")


def test_over_mcp_a_click_in_an_app_whose_menu_is_open_is_refused(galculator, winctl, desktop, tmp_path):
    from tests.e2e.helpers.mcp_client import run_client

    async def script(session):
        await session.call_tool("focus", {"window": "galculator"})
        for _ in range(3):
            await session.call_tool("click", {"name": "MS", "via": "semantic"})
        await session.call_tool("keys", {"keys": ["Escape"]})
        time.sleep(0.3)
        return await session.call_tool("click", {"name": "1", "via": "input"})

    refused = run_client(desktop, tmp_path, script)
    assert refused.is_error and "an open menu of its app" in refused.content[0].text, refused.content[0].text
    assert [text.split()[0] for text in display(winctl) if text.split()] == ["0"], display(winctl)
