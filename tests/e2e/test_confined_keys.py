"""Keys in confined mode, on the apps where an agent got around the gate: Mousepad granted,
FeatherPad not. The agent held alt with `key-down alt`, pressed Tab (checked alone, it was no
system combo), and in one `keys` call let alt go (the window manager switched to FeatherPad)
and typed on: the focus had been checked once, before the first chord. It also found
`key-down alt` saying "alt already down" after a `keys alt` had let the held alt go.
Each is tried here, and FeatherPad's file and the active window say what happened; the
check of each chord where the focus is when it is sent: tests/test_access.py."""

from __future__ import annotations

import subprocess
import time
from pathlib import Path

import pytest

from tests.e2e.helpers.keyboard import held_down
from tests.fixtures.toolkit_apps import featherpad_command, mousepad_command

SECRET = "account: 4411\n"


def active_title(desktop) -> str:
    active = ["xdotool", "getactivewindow", "getwindowname"]
    return subprocess.run(active, env=desktop.env, capture_output=True, text=True).stdout.strip()


@pytest.fixture
def confined(desktop, winctl, launch, tmp_path):
    """Mousepad on notes.txt (granted by the user's policy file) and FeatherPad on secret.txt."""
    (tmp_path / "notes.txt").write_text("shopping\n")
    secret = tmp_path / "secret.txt"
    secret.write_text(SECRET)
    launch(featherpad_command(secret), title="secret.txt")
    launch(mousepad_command(tmp_path / "notes.txt"), title="notes.txt")
    policy = Path(desktop.env["XDG_CONFIG_HOME"]) / "winactions" / "policy.toml"
    policy.parent.mkdir(parents=True, exist_ok=True)
    policy.write_text('confine = true\ngrant = ["mousepad"]\n')
    winctl("focus", "notes.txt")
    yield secret
    winctl("key-up", "all", expect=None)


def test_a_key_pressed_while_alt_is_held_down_is_the_system_combo_it_makes(desktop, winctl, confined):
    assert "down now: alt" in winctl("key-down", "alt").out  # alone, alt is no system combo
    run = winctl("keys", "Tab", expect=None)
    assert run.code == 9 and "--system-keys" in run.err and "alt held down" in run.err, run.err
    winctl("key-up", "alt")
    time.sleep(0.5)
    assert "notes.txt" in active_title(desktop)  # no window switch began
    assert confined.read_text() == SECRET


def test_key_down_says_what_the_keyboard_holds_not_what_it_remembers(desktop, winctl, confined):
    winctl("key-down", "alt")
    winctl("keys", "alt")  # pressed and let go: the held alt is up now
    assert "alt" not in held_down(desktop)
    again = winctl("key-down", "alt").out
    assert "already down" not in again and "down now: alt" in again, again
    assert "alt" in held_down(desktop)


def test_a_held_key_that_would_repeat_is_refused(desktop, winctl, confined):
    """The second trial agent held BackSpace down in Mousepad, minimized Mousepad, and the
    key's repeats emptied FeatherPad's document."""
    run = winctl("key-down", "BackSpace", expect=None)
    assert run.code == 9 and "holds only ctrl, shift, alt and super" in run.err, run.err
    assert "winctl press" in run.err
    assert winctl("--json", "key-up", "all").json["result"]["detail"].startswith("released nothing")


def drag_icon_shown(desktop) -> bool:
    """Whether a drag's icon window (`_NET_WM_WINDOW_TYPE_DND`) is mapped: a drag under way."""
    from Xlib import X
    from Xlib.display import Display

    display = Display(desktop.env["DISPLAY"])
    try:
        dnd = display.intern_atom("_NET_WM_WINDOW_TYPE_DND")
        kind = display.intern_atom("_NET_WM_WINDOW_TYPE")
        for child in display.screen().root.query_tree().children:
            prop = child.get_full_property(kind, X.AnyPropertyType)
            if prop and dnd in prop.value and child.get_attributes().map_state == X.IsViewable:
                return True
        return False
    finally:
        display.close()


def text_of(winctl, title: str) -> str:
    state = winctl("--json", "--window", title, "state", "--verbose").json["result"]
    return "\n".join(str(t.get("value") or "") for t in state["targets"] if t.get("value"))


def test_a_drag_another_session_moves_or_a_session_close_drops_stays_in_the_granted_app(desktop, winctl, confined):
    """The same agent selected text in Mousepad, pressed on it, moved inside Mousepad (a drag
    began), moved onto FeatherPad from a second session (whose gate knew of no button down),
    and let `session close` release it there: the drop landed in FeatherPad. A third moved
    Mousepad's window from under the pointer and dropped with Return (GTK's drag takes keys).
    The pointer can also reach FeatherPad by a person's hand; the release then goes back
    where it pressed."""
    state = winctl("--json", "state", "--verbose").json["result"]
    text = next(t for t in state["targets"] if t.get("value") and "shopping" in str(t["value"]))
    winctl("select-text", str(text["id"]), "shopping")
    left, top = text["rect"][:2]
    x, y = left + 20, top + 12  # on "shopping", the first line
    winctl("mouse-down", str(x), str(y))
    winctl("mouse-move", str(x + 30), str(y + 40))
    winctl("mouse-move", str(x + 60), str(y + 80))
    target = subprocess.run(
        ["xdotool", "search", "--name", "secret.txt", "getwindowgeometry", "--shell"],
        env=desktop.env,
        capture_output=True,
        text=True,
    ).stdout
    geometry = dict(line.split("=") for line in target.split() if "=" in line)
    fx, fy = int(geometry["X"]) + 100, int(geometry["Y"]) + 100
    run = winctl("--session", "other", "mouse-move", str(fx), str(fy), expect=None)
    assert run.code == 9 and "a drag" in run.err and "featherpad" in run.err, run.err
    subprocess.run(["xdotool", "mousemove", str(fx), str(fy)], env=desktop.env, check=True)  # a person's hand
    time.sleep(0.5)
    assert drag_icon_shown(desktop)  # the drag is under way: its icon is under the pointer
    # the third agent moved the granted window from under the pointer, then dropped with Return
    run = winctl("window", "move", "0", "0", expect=None)
    assert run.code == 9 and "while a mouse button is down" in run.err, run.err
    run = winctl("keys", "Return", expect=None)
    assert run.code == 9 and "during a drag" in run.err and "featherpad" in run.err, run.err
    closed = winctl("session", "close", "default").out
    assert "back where it went down" in closed, closed
    time.sleep(1)
    assert held_down(desktop) == set() and confined.read_text() == SECRET
    assert "shopping" not in text_of(winctl, "secret.txt")


def test_home_is_a_lines_start_not_a_system_key_on_a_desktop(desktop, winctl, confined):
    """The third trial agent's `press "End Home"` was refused as needing --system-keys: Home
    was taken for a phone's HOME button."""
    winctl("keys", "ctrl+Home", "End", "Home")  # to the end of the first line, then its start
    winctl("type", "X")
    state = winctl("--json", "state", "--verbose").json["result"]
    assert any(str(t.get("value") or "").startswith("Xshopping") for t in state["targets"]), state
