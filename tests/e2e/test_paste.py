"""Text too long to type is pasted through the clipboard, and the clipboard's text put back:
checked in the apps' own text (the GTK fixture's log of its text view, the file Mousepad
saved, what a program in a terminal received) and in the clipboard read with xclip."""

from __future__ import annotations

import subprocess
import time
from pathlib import Path

import pytest

from tests.conftest import focused_fixture
from tests.fixtures.toolkit_apps import mousepad_command

pytestmark = pytest.mark.desktop

LONG = "\n".join(f"Line {n}: the quick brown fox jumps over the lazy dog — é ✓ 中 {n * 7}" for n in range(1, 9))


def clipboard(desktop) -> str | None:
    """The clipboard's text as xclip reads it, None when it holds none."""
    done = subprocess.run(
        ["xclip", "-selection", "clipboard", "-o", "-target", "UTF8_STRING"],
        env=desktop.env,
        capture_output=True,
        timeout=5,
    )
    return done.stdout.decode() if done.returncode == 0 else None


def set_clipboard(desktop, text: str) -> None:
    subprocess.run(
        ["xclip", "-selection", "clipboard", "-i"],
        env=desktop.env,
        input=text.encode(),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        timeout=5,
        check=True,
    )


def test_a_long_text_is_pasted_into_a_gtk_text_view_and_the_clipboard_put_back(winctl, desktop, tmp_path):
    assert len(LONG) > 200
    with focused_fixture(desktop, winctl, tmp_path, "Paste Fixture") as app:
        set_clipboard(desktop, "kept on the clipboard")
        notes = _notes(winctl)
        done = winctl("--json", "input", str(notes), LONG, "--via", "input").json["result"]
        assert f"pasted {len(LONG)} characters with ctrl+v" in done["detail"], done
        assert "the clipboard's text put back" in done["detail"], done
        app.wait_for("notes_changed", text=LONG)
        assert clipboard(desktop) == "kept on the clipboard"
        short = winctl("--json", "input", str(notes), "short and typed", "--via", "input").json["result"]
        assert "pasted" not in short["detail"], short
        app.wait_for("notes_changed", text="short and typed")
        assert clipboard(desktop) == "kept on the clipboard"


def _notes(winctl) -> int:
    """The fixture's text view named Notes, whatever type the tree gives it."""
    return next(t["id"] for t in winctl.state()["targets"] if t["name"] == "Notes")


def test_type_pastes_a_long_text_into_mousepad_and_leaves_an_empty_clipboard_empty(winctl, launch, desktop, tmp_path):
    doc = tmp_path / "doc.txt"
    doc.write_text("")
    launch(mousepad_command(doc), title="doc.txt")
    subprocess.run(["xclip", "-selection", "clipboard", "-i", "/dev/null"], env=desktop.env, check=True, timeout=5)
    edit = next(t["id"] for t in winctl.state()["targets"] if t["type"] == "Edit")
    winctl("click", str(edit), "--via", "input")
    done = winctl("--json", "type", LONG).json["result"]
    assert done["method"] == "clipboard" and "not read back" in done["detail"], done
    assert "which held no text, left empty" in done["detail"], done
    winctl("keys", "ctrl+s")
    _saved(doc, LONG)
    assert not clipboard(desktop)  # empty before, empty after


def test_a_terminal_gets_a_long_text_with_ctrl_shift_v(winctl, launch, desktop, tmp_path):
    received = tmp_path / "received.txt"
    launch(["lxterminal", "-e", f"sh -c 'cat > {received}'"], title="")
    time.sleep(1.0)  # the shell starts cat
    set_clipboard(desktop, "before")
    done = winctl("--json", "type", LONG).json["result"]
    assert "with ctrl+shift+v" in done["detail"], done
    winctl("keys", "Enter")
    winctl("keys", "ctrl+d")
    _saved(received, LONG + "\n")
    assert clipboard(desktop) == "before"


def _saved(path: Path, text: str) -> None:
    deadline = time.monotonic() + 15
    while path.read_text() != text:
        assert time.monotonic() < deadline, f"{path.name} holds {path.read_text()!r}"
        time.sleep(0.2)
