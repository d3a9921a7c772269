"""A long input never holds the session: too long for its field fails at once with nothing
typed, the keyboard types no more than a budget, and a daemon's queued command that never
started is said to have never started (and is not run later). Outcomes are read in zenity,
which prints what its entry held when its OK closed it."""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import Run, Winctl, wait_for_window

pytestmark = pytest.mark.desktop
TITLE = "Long Entry"
WINCTL = str(Path(sys.executable).with_name("winctl"))
Front = Callable[..., Run]


@pytest.fixture
def zenity(desktop) -> Iterator[subprocess.Popen[str]]:
    """zenity's entry dialog holding "hello" (a GtkEntry: 65,535 characters at most)."""
    proc = subprocess.Popen(
        ["zenity", "--entry", "--title", TITLE, "--text", "Name:", "--entry-text", "hello"],
        env=desktop.env,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        wait_for_window(desktop, TITLE)
        yield proc
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def through_daemon(winctl: Winctl, session: str = "long", **env: str) -> Front:
    def run(*args: str, expect: int | None = 0) -> Run:
        done = subprocess.run(
            [WINCTL, "--session", session, *args],
            env={**winctl.env, **env},
            capture_output=True,
            text=True,
            timeout=150,
        )
        if expect is not None:
            assert done.returncode == expect, f"winctl {args} -> {done.returncode}\n{done.stdout}\n{done.stderr}"
        return Run(done.returncode, done.stdout, done.stderr)

    return run


@pytest.fixture(params=["cli", "daemon"])
def front(request, winctl: Winctl) -> Iterator[Front]:
    if request.param == "cli":
        yield winctl
        return
    yield through_daemon(winctl)
    winctl("session", "close", "--all", expect=None)


def element(run: Front, type_: str, name: str | None = None) -> int:
    import json

    state = json.loads(run("--json", "state").out)["result"]
    return next(t["id"] for t in state["targets"] if t["type"] == type_ and (name is None or t["name"] == name))


def closed_with(run: Front, proc: subprocess.Popen[str]) -> str:
    """Press zenity's OK; what it printed: its entry's text."""
    run("click", str(element(run, "Button", "OK")))
    return proc.communicate(timeout=15)[0].rstrip("\n")


def timed(run: Front, *args: str, expect: int | None) -> tuple[Run, float]:
    started = time.monotonic()
    done = run(*args, expect=expect)
    return done, time.monotonic() - started


def test_a_text_longer_than_its_field_fails_at_once_with_nothing_typed(front: Front, zenity: Any) -> None:
    """66,000 characters into a GTK entry (65,535 at most): the semantic set kept only the
    first part, so `input` fell back to typing all 66,000; after 120 s the client gave up while
    the daemon typed on past 125 s with later commands queued behind it."""
    front("focus", TITLE)
    field = element(front, "Edit")
    refused, seconds = timed(front, "input", str(field), "x" * 66_000, expect=2)
    assert "holds at most 65,5" in refused.err and "has 66,000" in refused.err, refused
    assert "nothing was typed" in refused.err and "hint:" in refused.err
    assert seconds < 30, seconds  # typing it took minutes
    print(f"refused in {seconds:.2f}s")
    answered, seconds = timed(front, "get", "text", str(field), expect=0)
    assert answered.out.strip().endswith("hello"), answered  # its old text put back; the session answers
    print(f"next command answered in {seconds:.2f}s")
    assert closed_with(front, zenity) == "hello"


def test_the_keyboard_types_no_more_than_its_budget(front: Front, zenity: Any, winctl: Winctl, monkeypatch) -> None:
    """A field typed into (`--via input`, as when no semantic set fits) gets a text past the
    budget pasted through the clipboard (WINCTL_PASTE_OVER); with pasting off, such a text is
    refused up front, and the clipboard route the refusal names does fill it."""
    front("focus", TITLE)
    field = element(front, "Edit")
    pasted, seconds = timed(front, "input", "--via", "input", str(field), "p" * 10_001, expect=0)
    assert "pasted 10,001 characters with ctrl+v" in pasted.out, pasted
    assert front("get", "text", str(field)).out.strip() == "p" * 10_001
    print(f"pasted in {seconds:.2f}s")
    monkeypatch.setitem(winctl.desk.env, "WINCTL_PASTE_OVER", "0")  # typed, never pasted
    refused, seconds = timed(front, "input", "--via", "input", str(field), "y" * 10_001, expect=2)
    assert "10,001 characters is more than one command types (10,000" in refused.err, refused
    assert "winctl clipboard" in refused.err and "WINCTL_TYPING_LIMIT" in refused.err
    assert "WINCTL_PASTE_OVER" in refused.err
    print(f"refused in {seconds:.2f}s")
    refused = front("type", "z" * 10_001, expect=2)
    assert "nothing was typed" in refused.err, refused
    assert front("get", "text", str(field)).out.strip() == "p" * 10_001
    front("clipboard", "c" * 20_000)
    front("keys", "ctrl+a", "ctrl+v")
    assert closed_with(front, zenity) == "c" * 20_000


def test_the_typing_budget_is_a_setting(winctl: Winctl, zenity: Any) -> None:
    run = through_daemon(winctl, WINCTL_TYPING_LIMIT="20")
    try:
        run("focus", TITLE)
        field = element(run, "Edit")
        refused = run("input", "--via", "input", str(field), "w" * 21, expect=2)
        assert "(20, about 0 s of keys)" in refused.err, refused
        run("input", "--via", "input", str(field), "w" * 20)
        assert closed_with(run, zenity) == "w" * 20
    finally:
        winctl("session", "close", "--all", expect=None)


def test_a_command_queued_behind_a_long_one_is_said_never_to_have_started(winctl: Winctl, zenity: Any) -> None:
    """A batch queued behind a long command in the daemon was reported "ran longer than 120s"
    though it never started. The deadline is shortened for the test (WINCTL_COMMAND_DEADLINE);
    a queued click of OK is refused as never started, and is not run once the long typing ends:
    zenity is still open and prints the typed text when OK is pressed afterwards."""
    run = through_daemon(winctl, WINCTL_COMMAND_DEADLINE="2", WINCTL_PASTE_OVER="0")  # typed: it takes long
    try:
        run("focus", TITLE)
        field, ok = element(run, "Edit"), element(run, "Button", "OK")
        long = subprocess.Popen(
            [WINCTL, "--session", "long", "input", "--via", "input", str(field), "t" * 4_000],
            env={**winctl.env, "WINCTL_PASTE_OVER": "0"},
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        time.sleep(0.5)  # the typing has started
        queued = run("click", str(ok), expect=6)
        assert (
            "waited in the session daemon's queue 2s behind another command and never started; it was not run"
            in queued.err
        ), queued
        _, still = long.communicate(timeout=120)
        assert long.returncode == 6 and "is still running after" in still, still
        deadline = time.monotonic() + 60
        while len(run("get", "text", str(field), expect=None).out.strip()) < 4_000 and time.monotonic() < deadline:
            time.sleep(0.5)  # the typing goes on in the daemon (a read queued behind it is refused meanwhile)
        time.sleep(1)
        assert zenity.poll() is None  # the queued click never ran
        assert closed_with(run, zenity) == "t" * 4_000
    finally:
        winctl("session", "close", "--all", expect=None)
