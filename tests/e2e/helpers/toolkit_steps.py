"""Steps through real apps of each toolkit that several tests take: a file dialog's list far
down, Qt Linguist's translation field, a combo box chosen by keys, featherpad's Preferences."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from tests.conftest import Winctl, wait_for_window
from tests.e2e.helpers.apps import TREE_TIMEOUT, Launch, Launched, target, wait_for
from tests.fixtures.toolkit_apps import featherpad_command


def many_notes(tmp_path: Path) -> Path:
    """A folder of 80 small files: more than a file dialog's list shows at once."""
    folder = tmp_path / "many"
    folder.mkdir()
    for i in range(1, 81):
        (folder / f"note-{i:02d}.txt").write_text(f"content {i}\n")
    return folder


def open_far_down(winctl: Winctl, desktop, dialog: str, row_type: str, name: str) -> None:
    """In the app's Open dialog (opened with ctrl+o) on `many_notes`: `click NAME` wheels the
    list to that file, Open opens it, and the app's title names it."""
    winctl("keys", "ctrl+o")
    wait_for_window(desktop, dialog)
    winctl("focus", dialog)
    wait_for(winctl, (row_type, "note-01.txt"), ("Button", "Open"))
    done = winctl("click", name).out
    assert f"scrolled '{name}' into view with the mouse wheel" in done and "located by" not in done, done
    winctl("click", "Open")
    wait_for_window(desktop, name)


def translation_field(winctl: Winctl, app: Launched, label: str) -> dict[str, Any]:
    """A state that lists Linguist's translation field. In its 1000x800 window the field lies
    below the fold of the message editor's scroll area, under the "Phrases and guesses" pane,
    and is not listed (Qt calls it showing; a click on it landed on that pane): it is scrolled
    into view as an agent does, by the wheel over the label that is listed."""
    state = wait_for(winctl, ("Button", "Done"), ("Button", "Save All"), ("Text", label), app=app)
    if ("Edit", label) not in {(t["type"], t["name"]) for t in state["targets"]}:
        winctl("scroll", str(target(state, "Text", label)), "down")
    return wait_for(winctl, ("Edit", label), ("Button", "Done"), ("Button", "Save All"), app=app)


def chosen_by_keys(winctl: Winctl, combo: int, option: str) -> None:
    """`select` on a combo box of a toolkit that takes no AT-SPI choice: opened by the mouse,
    chosen by keys, and the box then reads the option."""
    out = winctl("select", str(combo), option).out
    assert "keyboard to choose" in out, out
    assert (
        next(t for t in winctl("--json", "state").json["result"]["targets"] if int(t["id"]) == combo)["value"] == option
    )


def combo_choosing(winctl: Winctl, option: str, timeout: float = TREE_TIMEOUT) -> tuple[int, str]:
    """(id, name) of the combo box whose choice is `option`, once one is listed. Qt names a box
    by its choice; winctl names it by the label beside it, the choice its value."""
    deadline = time.monotonic() + timeout
    while True:
        found = [
            t
            for t in winctl("--json", "state").json["result"]["targets"]
            if t["type"] == "ComboBox" and t.get("value") == option
        ]
        if found:
            return int(found[0]["id"]), found[0]["name"]
        assert time.monotonic() < deadline, f"no combo box chose {option!r}"
        time.sleep(0.3)


def featherpad_preferences(winctl: Winctl, desktop, launch: Launch, doc: Path) -> None:
    """featherpad on an empty `doc`, its modal Preferences dialog opened from the Options menu."""
    doc.write_text("")
    launch(featherpad_command(doc), title=doc.name)
    winctl("click", str(target(wait_for(winctl, ("MenuItem", "Options")), "MenuItem", "Options")))
    winctl("click", str(target(wait_for(winctl, ("MenuItem", "Preferences")), "MenuItem", "Preferences")))
    wait_for_window(desktop, "Preferences")
