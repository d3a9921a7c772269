"""The demo: drive a real GTK app on a private virtual display with `winctl`, as an agent would.

Each step prints the command and winctl's own output. Element ids are looked up from
`winctl --json state` the way an agent reads them, then used in plain commands.
Run through scripts/demo.sh, which installs everything first.
"""

from __future__ import annotations

import json
import shlex
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from winactions.backends.linux.virtual_desktop import VirtualDesktop

ROOT = Path(__file__).resolve().parent.parent
WINCTL = str(Path(sys.executable).with_name("winctl"))
OUT = ROOT / "demo-output"


def step(env: dict[str, str], *args: str, show: bool = True) -> str:
    if show:
        print(f"\n$ winctl {shlex.join(args)}", flush=True)
    done = subprocess.run([WINCTL, "--session", "demo", *args], env=env, capture_output=True, text=True)
    if show:
        print((done.stdout + done.stderr).rstrip(), flush=True)
    if done.returncode != 0:
        raise SystemExit(f"demo step failed with exit code {done.returncode}")
    return done.stdout


def find(env: dict[str, str], type_: str, name: str | None = None) -> str:
    """The id of the first element of this type (and name), read as an agent reads it."""
    state = json.loads(step(env, "--json", "state", show=False))["result"]
    for t in state["targets"]:
        if t["type"] == type_ and (name is None or t["name"] == name):
            return str(t["id"])
    raise SystemExit(f'the demo app has no {type_} "{name}"')


def main() -> None:
    OUT.mkdir(exist_ok=True)
    log = Path(tempfile.mkdtemp()) / "events.jsonl"
    app = ["/usr/bin/python3", str(ROOT / "tests/fixtures/gtk_fixture.py"), "--rows", "40", "--log", str(log)]
    with VirtualDesktop() as desk:
        env = desk.env
        print("A private desktop (Xvfb + session bus + openbox) is up; launching a GTK app.")
        step(env, "launch", "--", *app)
        step(env, "windows")
        step(env, "state")
        step(env, "input", find(env, "Edit", "Name"), "Hello from winctl ✓")
        step(env, "click", find(env, "Button", "Apply"))
        step(env, "select", find(env, "ComboBox"), "Green")
        step(env, "click", find(env, "CheckBox", "Enable feature"))
        step(env, "keys", "ctrl+shift+s")
        step(env, "get", "value", find(env, "Edit", "Name"))
        step(env, "scroll", find(env, "Table", "Files"), "down", "5")
        annotated = step(env, "state", "--annotated").rsplit("Annotated: ", 1)[1].split()[0]
        shutil.copy(annotated, OUT / "annotated.png")
        step(env, "screenshot", str(OUT / "after.png"))
        step(env, "close")
        print("\nWhat the app itself recorded (its event log):")
        for line in log.read_text().splitlines():
            print("  " + line)
    print(f"\nScreenshots are in {OUT}/")


if __name__ == "__main__":
    main()
