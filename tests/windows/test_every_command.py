"""Every command of the table runs through the Windows backend against the fake desktop.

The table of invocations below must cover the whole command table: a command added later
without a run here fails `test_the_run_list_covers_the_command_table`.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from winactions.commands.base import load_commands

SHOT = str(Path(__file__).resolve().parents[1] / "fixtures" / "screens" / "gtk_fixture.png")
# command -> argv after `winctl`; {Name} is replaced by the id of the element with that name
RUNS: dict[str, list[str]] = {
    "windows": ["windows"],
    "focus": ["focus", "Settings"],
    "state": ["state", "--verbose"],
    "inspect": ["inspect", "{Apply}"],
    "screenshot": ["screenshot", "{tmp}/shot.png"],
    "click": ["click", "{Apply}"],
    "dblclick": ["dblclick", "{Item 3}"],
    "rightclick": ["rightclick", "{Item 3}"],
    "input": ["input", "{Name}", "Ada"],
    "type": ["type", "Lovelace"],
    "keys": ["keys", "ctrl+a Delete"],
    "scroll": ["scroll", "{Items}", "down", "2"],
    "select": ["select", "{Color}", "Green"],
    "drag": ["drag", "{Volume}", "400", "335"],
    "drag-at": ["drag-at", "300", "335", "420", "335"],
    "click-at": ["click-at", "600", "475"],
    "batch": [
        "batch",
        '[{"command": "click", "args": {"id": {Apply}}}, {"command": "wait", "args": {"seconds": 0}}]',  # id: a number
    ],
    "bind-window": ["bind-window", "status"],
    "find": ["find", "--type", "Button"],
    "click-element": ["click-element", "--name", "Apply"],
    "type-into-element": ["type-into-element", "--name", "Name", "Grace"],
    "locate": ["locate", "fixed:nowhere", "--strategy", "fixed", "--no-cache"],
    "locate-cache": ["locate-cache", "stats"],
    "match": ["match", SHOT, SHOT],  # files only: the backend is not even opened
    "verify-location": ["verify-location", "fixed:nowhere", "--at", "10,10,20,20"],  # answers "no", exit 0
    "mouse-down": ["mouse-down", "300", "335"],
    "mouse-up": ["mouse-up", "320", "335"],
    "mouse-move": ["mouse-move", "350", "200"],
    "cursor": ["cursor"],
    "scroll-at": ["scroll-at", "600", "250", "down", "1"],
    "hold-key": ["hold-key", "shift", "0.05"],
    "key-down": ["key-down", "shift"],
    "key-up": ["key-up", "shift"],
    "select-text": ["select-text", "{Apply}", "Apply"],
    "press": ["press", "Down", "2"],
    "zoom": ["zoom", "220", "150", "100", "50", "--path", "{tmp}/zoom.png"],
    "clipboard": ["clipboard", "copied"],
    "get text": ["get", "text", "{Name}"],
    "get rect": ["get", "rect", "{Apply}"],
    "get value": ["get", "value", "{Volume}"],
    "wait": ["wait", "--enabled", "{Apply}", "--timeout", "1"],
    "launch": ["launch", "notepad.exe"],
    "window": ["window", "maximize"],
    "close": ["close"],
    "devices": ["devices"],
    "long-press": ["long-press", "{Apply}", "--duration", "0.05"],
    "swipe": ["swipe", "--x1", "300", "--y1", "335", "--x2", "420", "--y2", "335"],
    "go-home": ["go-home"],
    "run": [  # with a criterion to check: a plan with none ends unverified (exit 10)
        "run",
        "press Apply",
        "--no-pixels",
        "--plan",
        json.dumps({"steps": [{"action": "click", "target_ref": "Apply"}], "success": {"title_has": "Settings"}}),
    ],
    "replay": ["replay", "{tmp}/no-such-run"],
    "choose-file": ["choose-file", "{tmp}/notes.txt"],
    "displays": ["displays"],
    "switch-display": ["switch-display", "0"],
    "open-terminal": ["open-terminal", "custom", "--command", "cmd.exe"],
    "prompt-respond": ["prompt-respond", "yes"],
    "status-indicator": ["status-indicator", "show", "Working"],
    "request-teach-access": ["request-teach-access"],
    "teach-step": ["teach-step", "{Apply}", "--text", "Here"],
    "teach-batch": ["teach-batch", json.dumps([{"text": "Here", "rect": [1, 2, 3, 4]}])],
    "request-access": ["request-access", "notepad"],  # unconfined: nothing to ask
    "grants": ["grants"],
    "revoke": ["revoke", "notepad"],
    "open-url": ["open-url", "https://example.org"],
    "record start": ["record", "start", "{tmp}/record"],
    "record status": ["record", "status"],
    "record stop": ["record", "stop"],  # nothing to stop: says so, exit 0
}
# an unknown fixed point is "not found", and says so; a desktop has no home screen (unsupported);
# a run that was never recorded cannot be replayed; no file dialog is open for choose-file;
# overlays are drawn on X11 only (unsupported); select-text fails (no selection, no caret
# through the text pattern)
EXPECTED_FAILURES = {"locate": 3, "go-home": 4, "replay": 2, "choose-file": 3, "select-text": 4}
EXPECTED_FAILURES |= {"open-terminal": 4, "prompt-respond": 4}  # no readable terminal on Windows: unsupported
EXPECTED_FAILURES |= dict.fromkeys(("status-indicator", "request-teach-access", "teach-step", "teach-batch"), 4)


def test_the_run_list_covers_the_command_table():
    assert set(RUNS) == set(load_commands())


@pytest.mark.parametrize("name", list(RUNS))
def test_each_command_runs_on_the_windows_backend(name, winctl, fake, tmp_path):
    winctl("focus", "Settings")
    ids = {t["name"]: t["id"] for t in winctl.state()["targets"]}
    argv = [arg.replace("{tmp}", str(tmp_path)) for arg in RUNS[name]]
    for label, element_id in ids.items():
        argv = [arg.replace("{" + label + "}", str(element_id)) for arg in argv]
    run = winctl(*argv, expect=None)
    assert run.code == EXPECTED_FAILURES.get(name, 0), f"{name}: {run.out}\n{run.err}"
