"""`--vision local` lists what it sees, says what it left out and why, and keeps ids.

Issue 40 item 14, on the apps where it was found. lxterminal running a `select` menu: its
lines are set so close that the boxes OCR finds for "2) test" and "3) prod" overlap by 4 px
(IOU 0.104), and the merge took the second for the first: `+3 of 4 seen`, no "3) prod",
nothing said. zenity's entry field without a tree: empty it was `[Edit]`; with "Grace" typed
in it, a wide box with something in it was a `[Button] "Grace"` with a new id, its OK and
Cancel buttons were left out for the frame around both, and "Name:" got a new id each read
(OCR's box moved by 2 px, and the id was keyed by the exact box).
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import start_app, stop_app

pytestmark = pytest.mark.desktop
WINCTL = str(Path(sys.executable).with_name("winctl"))
OPTIONS = ("1) dev", "2) test", "3) prod")


def winctl(env: dict[str, str], *args: str) -> dict[str, Any]:
    done = subprocess.run([WINCTL, "--json", *args], env=env, capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, (args, done.stdout, done.stderr)
    return json.loads(done.stdout)["result"]


@pytest.fixture
def env(desktop, tmp_path) -> Any:
    runtime = tmp_path / "runtime"
    runtime.mkdir(mode=0o700)
    env = {**desktop.env, "XDG_RUNTIME_DIR": str(runtime)}
    yield env
    subprocess.run([WINCTL, "session", "close", "--all"], env=env, capture_output=True, timeout=60)


SESSIONS = [pytest.param((), id="one-shot"), pytest.param(("--session", "pixels"), id="daemon")]


@pytest.mark.parametrize("session", SESSIONS)
def test_every_option_of_a_terminal_menu_is_listed_and_keeps_its_id(desktop, env, tmp_path, session):
    chosen = tmp_path / "chosen.txt"
    script = f'PS3="pick: "; select x in dev test prod; do echo "$x" > {chosen}; done'
    title = f"Deploy {len(session)}"
    proc = start_app(desktop, ["lxterminal", "--no-remote", f"--title={title}", "-e", "bash", "-c", script], title)
    try:
        seen = _drawn(env, session, title, "pick:")
        texts = {t["name"]: t for t in seen["targets"] if t.get("source") == "ocr"}
        assert set(OPTIONS) <= set(texts), (seen["targets"], seen["tiers"])
        again = winctl(env, *session, "--window", title, "state", "--vision", "local")
        ids = {t["name"]: t["id"] for t in again["targets"]}
        assert all(ids.get(name) == texts[name]["id"] for name in OPTIONS), (texts, again["targets"])
        # the third option listed is the app's third: choosing it gives "prod"
        subprocess.run(["xdotool", "type", "--delay", "60", "3\n"], env=desktop.env, check=True)
        deadline = time.monotonic() + 10
        while not (chosen.exists() and chosen.read_text().strip()) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert chosen.read_text().strip() == "prod"
    finally:
        stop_app(proc)


@pytest.mark.parametrize("session", SESSIONS)
def test_a_field_seen_in_pixels_keeps_its_type_and_id_once_filled(desktop, env, session):
    title = f"Pixel name {len(session)}"
    app = subprocess.Popen(
        ["zenity", "--entry", f"--title={title}", "--text=Name:"],
        env={**desktop.env, "NO_AT_BRIDGE": "1"},
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        from tests.conftest import wait_for_window

        wait_for_window(desktop, title)
        winctl(env, *session, "focus", title)
        empty = _drawn(env, session, title, "Name:")
        fields = [t for t in empty["targets"] if t["type"] == "Edit"]
        assert len(fields) == 1 and not fields[0].get("value"), empty["targets"]
        buttons = {t["name"] for t in empty["targets"] if t["type"] == "Button"}
        assert {"OK", "Cancel"} <= buttons, empty["targets"]
        label = next(t for t in empty["targets"] if t["name"] == "Name:")

        subprocess.run(["xdotool", "type", "--delay", "60", "Grace"], env=desktop.env, check=True)
        deadline = time.monotonic() + 10
        while True:
            filled = winctl(env, *session, "--window", title, "state", "--vision", "local")
            field = next((t for t in filled["targets"] if t["id"] == fields[0]["id"]), None)
            if (field and field.get("value") == "Grace") or time.monotonic() > deadline:
                break
        assert field is not None and field["type"] == "Edit" and field["value"] == "Grace", filled["targets"]
        assert not any(t["type"] == "Button" and "Grace" in t["name"] for t in filled["targets"]), filled["targets"]
        assert any(t["id"] == label["id"] and t["name"] == "Name:" for t in filled["targets"]), filled["targets"]

        subprocess.run(["xdotool", "key", "Return"], env=desktop.env, check=True)
        out, _ = app.communicate(timeout=10)
        assert out.strip() == "Grace"  # what zenity itself read from its field
    finally:
        if app.poll() is None:
            app.kill()
            app.wait()


def _drawn(env: dict[str, str], session: tuple[str, ...], title: str, text: str) -> dict[str, Any]:
    """`state --vision local` once `text` is read: a window just mapped has not drawn itself yet."""
    deadline = time.monotonic() + 20
    while True:
        seen = winctl(env, *session, "--window", title, "state", "--vision", "local")
        if any(text in t["name"] for t in seen["targets"]) or time.monotonic() > deadline:
            return seen
        time.sleep(0.3)


def test_toolbar_icons_read_as_ideographs_are_icons(desktop, env, tmp_path):
    """Geany without its tree: OCR (its dictionary Chinese and English) read two toolbar
    icons as "旦" and "司", listed as text an agent would take for labels."""
    title = "Geany"
    app = subprocess.Popen(
        ["geany", "--new-instance", "--no-session", "-c", str(tmp_path / "geany")],
        env={**desktop.env, "NO_AT_BRIDGE": "1"},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        from tests.conftest import wait_for_window

        wait_for_window(desktop, title)
        seen = _drawn(env, (), title, "Symbols")
        ideographs = [t for t in seen["targets"] if t["name"] and all("\u3400" <= c <= "\u9fff" for c in t["name"])]
        assert not ideographs, ideographs
        icons = [
            t
            for t in winctl(env, "--window", title, "state", "--vision", "local", "--verbose")["targets"]
            if t["type"] == "Icon" and "OCR read it as" in (t.get("derived_from") or "")
        ]
        symbols = next(t for t in seen["targets"] if t["name"] == "Symbols")  # the side bar's tab, under the toolbar
        assert icons and all(t["rect"][3] <= symbols["rect"][1] for t in icons), icons
    finally:
        app.terminate()
        app.wait(timeout=10)
