"""A click whose handler runs a modal dialog never holds the app: File > Open, opened and
cancelled again and again by `winctl click ID` in a real app of GTK 3, Qt 5 and GTK 4.

Each round checks from outside winctl (wmctrl) that the dialog opened and closed, and that the
app still answers (its window title in a fresh state); at the end, that the app still ends on
SIGTERM — a GTK 3 app held inside an accessibility call ignored it.
"""

from __future__ import annotations

import signal
import time
from collections.abc import Callable, Iterator

import psutil
import pytest

from tests.conftest import Winctl, desktop_env, start_app, stop_app, wait_for_window, window_gone
from tests.e2e.helpers.apps import target, wait_for
from tests.e2e.helpers.runners import NamedSession
from tests.fixtures.applog import AppLog
from tests.fixtures.launch import gtk_fixture_command
from tests.fixtures.toolkit_apps import featherpad_command, gnome_text_editor_command, mousepad_command
from winactions.backends.linux.atspi import AtspiClient
from winactions.model import Operation

pytestmark = pytest.mark.desktop
ROUNDS = 20
CLOSE_SECONDS = 10.0
MENU_SECONDS = 3.0


def gone(desktop, title: str) -> None:
    deadline = time.monotonic() + CLOSE_SECONDS
    while not window_gone(desktop, title):
        assert time.monotonic() < deadline, f'the dialog "{title}" stayed open'
        time.sleep(0.1)


def ends_on_sigterm(pid: int) -> None:
    """The app ends on SIGTERM: its main loop runs (a GTK 3 app held inside the call did not)."""
    proc = psutil.Process(pid)
    proc.send_signal(signal.SIGTERM)
    proc.wait(timeout=10)


def rounds(
    winctl: Winctl,
    desktop,
    main_title: str,
    open_dialog: Callable[[int], str],
    dialog: str,
    run: Callable[..., str] | None = None,
) -> None:
    """ROUNDS times: `open_dialog(round)` clicks its way to the dialog (and returns what the
    last click printed); the dialog opens (wmctrl), its state lists Cancel, and it is closed by
    Escape in even rounds, by a click on Cancel in odd ones; then the app's window answers."""
    say = run or (lambda *args: winctl(*args).out)
    for n in range(ROUNDS):
        clicked = open_dialog(n)
        wait_for_window(desktop, dialog)
        read = say("state")
        assert read.startswith(f'Window: "{dialog}"'), f"round {n}: {clicked}\n{read}"
        if n % 2:
            cancel = next(line for line in read.splitlines() if line.endswith('[Button] "Cancel"'))
            say("click", cancel[1 : cancel.index("]")])
        else:
            say("keys", "Escape")
        gone(desktop, dialog)
        assert main_title in say("state").splitlines()[0], f"round {n}: the app does not answer"


def menu_item(say: Callable[..., str], menu: str, item: str, menu_type: str = "Menu") -> str:
    """Open `menu` and click `item` in it, each by the id the state gives it. A GTK 4 popover
    shows a frame or two after its button's action returns: the state is read again until it
    lists the item (MENU_SECONDS)."""
    say("click", state_id(say("state"), menu_type, menu))
    deadline = time.monotonic() + MENU_SECONDS
    while f'[MenuItem] "{item}"' not in (read := say("state")) and time.monotonic() < deadline:
        time.sleep(0.1)
    return say("click", state_id(read, "MenuItem", item))


def state_id(text: str, type_: str, name: str) -> str:
    line = next((line for line in text.splitlines() if line.split("] ", 1)[-1].startswith(f'[{type_}] "{name}"')), None)
    assert line is not None, f'no [{type_}] "{name}" in\n{text}'
    return line[1 : line.index("]")]


@pytest.mark.parametrize("front", ["cli", "daemon"])
def test_gtk3_file_open_by_click_never_holds_mousepad(winctl, desktop, launch, tmp_path, front):
    """Mousepad's File > Open... clicked by `winctl click ID` (`via action:click`) opened the
    dialog inside AT-SPI's DoAction: at-spi2-atk runs the item's handler — and the dialog's
    own loop — within libdbus's dispatch of the call. The app answered nothing (`state` ->
    app_busy), the first key (`keys Escape`) froze it for good (libdbus waited on its own
    dispatch: a futex), and SIGTERM no longer ended it. The item is now clicked where it shows."""
    doc = tmp_path / "modal.txt"
    doc.write_text("")
    app = launch(mousepad_command(doc), title="modal.txt")
    wait_for(winctl, ("Menu", "File"), ("Edit", None), app=app)
    daemon = NamedSession(winctl, "modal") if front == "daemon" else None
    say: Callable[..., str] = daemon or (lambda *args: winctl(*args).out)
    try:
        say("focus", app.window["id"])
        rounds(winctl, desktop, "modal.txt", lambda n: menu_item(say, "File", "Open..."), "Open File", say)
    finally:
        if daemon is not None:
            daemon.close()
    ends_on_sigterm(app.pid)


def test_qt5_file_open_by_click_never_holds_featherpad(winctl, desktop, launch, tmp_path):
    """featherpad's File > Open (clicked where it shows: Qt leaves a pressed item's menu open)
    in even rounds, its toolbar's Open button (pressed through the tree: Qt runs the dialog
    inside the call too, but keeps answering) in odd ones. Qt answers that press only when the
    dialog closes: `click` waited 1.5 s for it, then said the app was "still handling it"; it
    now sees the app answer meanwhile and says the action is under way."""
    doc = tmp_path / "qt-modal.txt"
    doc.write_text("")
    app = launch(featherpad_command(doc), title="qt-modal.txt")
    state = wait_for(winctl, ("MenuItem", "File"), ("Button", "Open"), app=app)
    button = str(target(state, "Button", "Open"))

    def open_dialog(n: int) -> str:
        if n % 2:  # Qt answers the press when its dialog closes: winctl does not wait for that
            out = winctl("click", button).out
            assert "via action:press (sent; the app is running it)" in out, out
            return out
        return menu_item(lambda *args: winctl(*args).out, "File", "Open", menu_type="MenuItem")

    rounds(winctl, desktop, "qt-modal.txt", open_dialog, "Open file...")
    ends_on_sigterm(app.pid)


def test_gtk4_save_as_by_click_never_holds_gnome_text_editor(winctl, desktop, launch, tmp_path):
    """GNOME Text Editor has no File menu: its main menu's Save As... opens its file dialog.
    GTK 4 answers AT-SPI through GDBus, which runs each call on its own from the main loop:
    the item is pressed through the tree, and the dialog never holds the app."""
    doc = tmp_path / "gtk4-modal.txt"
    doc.write_text("")
    app = launch(gnome_text_editor_command(doc), title="gtk4-modal.txt")
    wait_for(winctl, ("Button", "Menu"), ("Edit", None), app=app)

    def open_dialog(_n: int) -> str:
        out = menu_item(lambda *args: winctl(*args).out, "Menu", "Save As…", menu_type="Button")
        assert "via action:" in out, out
        return out

    rounds(winctl, desktop, "gtk4-modal.txt", open_dialog, "Save As")
    ends_on_sigterm(app.pid)


# -- a button whose handler runs its dialog: the GTK 3 fixture ---------------------------------------
FIXTURE = "Modal Fixture"


@pytest.fixture
def fixture_app(desktop, tmp_path, winctl) -> Iterator[tuple[AppLog, int]]:
    """The GTK 3 fixture app, focused; its log and pid."""
    log = AppLog(str(tmp_path / "events.jsonl"))
    proc = start_app(desktop, gtk_fixture_command(log.path.as_posix(), rows=5, title=FIXTURE), FIXTURE)
    winctl("focus", FIXTURE)
    yield log, proc.pid
    stop_app(proc)


@pytest.mark.parametrize("front", ["cli", "daemon"])
def test_a_button_whose_handler_runs_its_dialog_is_clicked_without_holding_the_app(winctl, desktop, fixture_app, front):
    """The fixture's "Open Dialog" button runs its dialog inside its click handler
    (`dialog.run()`), as many GTK 3 apps do. Pressed through AT-SPI, that handler ran inside
    the call: the app answered nothing while the dialog was open (a test here took that as the
    way it is, and answered the dialog with `keys Escape` — which froze the app for good when a
    request of ours was still queued in it). `click` now closes a dialog that holds the app and
    clicks the button with the mouse: the dialog is read, and a key closes it."""
    log, _pid = fixture_app
    daemon = NamedSession(winctl, "fixture") if front == "daemon" else None
    say: Callable[..., str] = daemon or (lambda *args: winctl(*args).out)
    try:
        say("focus", FIXTURE)
        button = state_id(say("state"), "Button", "Open Dialog")
        for _ in range(3):
            mark = log.mark()
            out = say("click", button)
            assert "via mouse" in out and 'opened "Confirm" inside the accessibility call' in out, out
            log.wait_for("dialog_response", since=mark, response="cancel")  # the first, closed again
            log.wait_for("dialog_opened", since=log.events("dialog_response", since=mark)[-1]["seq"])
            wait_for_window(desktop, "Confirm")
            read = say("state")
            assert read.startswith('Window: "Confirm"') and '[Edit] "Reason"' in read, read
            say("keys", "Escape")
            gone(desktop, "Confirm")
            deadline = time.monotonic() + CLOSE_SECONDS  # the app logs the response after its window is gone
            while len(log.events("dialog_response", since=mark)) < 2 and time.monotonic() < deadline:
                time.sleep(0.05)
            assert [e["response"] for e in log.events("dialog_response", since=mark)] == ["cancel", "cancel"]
            assert say("state").startswith(f'Window: "{FIXTURE}"')
    finally:
        if daemon is not None:
            daemon.close()


def test_a_semantic_press_that_would_hold_the_app_is_undone_and_said(winctl, desktop, fixture_app):
    """Asked for the semantic press only, the action runs, its dialog is closed again, and the
    press fails saying so (nothing was done); the app answers, and takes a key."""
    log, _pid = fixture_app
    mark = log.mark()
    failed = winctl("--json", "click", "Open Dialog", "--via", "semantic", expect=4).json["error"]
    assert failed["code"] == "modal_in_call" and '"Confirm"' in failed["message"], failed
    assert "nothing was done" in failed["message"] and "--via input" in failed["hint"], failed
    log.wait_for("dialog_response", since=mark, response="cancel")
    gone(desktop, "Confirm")
    assert winctl("state").out.startswith(f'Window: "{FIXTURE}"')
    winctl("keys", "F2")
    log.wait_for("key", since=mark, keyval="F2")


def test_an_app_held_by_another_client_is_named_with_its_dialog_and_closed_without_keys(winctl, desktop, fixture_app):
    """An app held inside another client's call (the button pressed through the accessibility
    bus, as winctl did before): `state` of its dialog said `"Confirm" is not answering ... while
    its window "Modal Fixture" is open` — the dialog named as the app, the main window as the
    dialog — and told the agent to press Escape, the key that freezes such an app for good.
    It names the app and its dialog now, and says how to close the dialog without keys; done
    so, the app answers again."""
    log, pid = fixture_app
    with desktop_env(desktop):
        client = AtspiClient()
        try:
            frame = client.find_frame(pid, FIXTURE, None)
            assert frame is not None
            button = client.named_below([frame], "Open Dialog", 2000)[0]
            assert client.perform(button, Operation.INVOKE) == "action:click"  # no guard at this level
        finally:
            client.close()
    log.wait_for("dialog_opened")
    wait_for_window(desktop, "Confirm")
    winctl("focus", "Confirm")
    busy = winctl("--json", "state", expect=7).json["error"]
    assert busy["message"].startswith(
        f'python3 (pid {pid}) is not answering accessibility requests while its window "Confirm" is open'
    ), busy
    assert '`winctl focus "Confirm"`, then `winctl close`' in busy["hint"] and "winctl keys" not in busy["hint"]
    assert f'then `winctl focus "{FIXTURE}"`' in busy["hint"], busy
    winctl("close")
    log.wait_for("dialog_response", response="cancel")
    winctl("focus", FIXTURE)
    assert winctl("state").out.startswith(f'Window: "{FIXTURE}"')
