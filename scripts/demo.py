"""The demo: drive Mousepad, a real app nobody here wrote, with `winctl` as an agent would.

On a private virtual display (its own Xvfb, session bus and window manager) and a fresh home,
it launches Mousepad on a short notes file, reads the window's state (saving the annotated
screenshot of that moment to docs/images/demo.png, or --picture), appends a line to the
document by its id, opens the File menu and its "Save As..." by name, and saves as hello.txt
through Mousepad's own Save dialog with `choose-file`. Then it checks what the app
did from outside winctl: the saved file's bytes (read from disk) and the window's title (as
the window manager reports it, `wmctrl -l`), and prints the cost of what the agent read: the
state's text (UTF-8 bytes / 4 tokens) against a picture of the window (width × height / 750).

Every step prints the command and winctl's own output; the README quotes this transcript and
tests/e2e/test_readme.py runs the demo and compares them. Exit status 0 only when every check
held; a check that fails stops the demo with what the app did instead. Nothing is left
running: the app is closed, the session's daemon stopped, the desktop torn down, and the
temporary folder (the home, the notes, the saved file) removed.
Run through scripts/demo.sh, which installs everything first.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from PIL import Image

from winactions.backends.linux.virtual_desktop import VirtualDesktop
from winactions.compact import PICTURE_PIXELS_PER_TOKEN, tokens

ROOT = Path(__file__).resolve().parent.parent
WINCTL = str(Path(sys.executable).with_name("winctl"))
PICTURE = ROOT / "docs/images/demo.png"
SESSION = "demo"
NOTES = "Things to try:\n• winctl state\n"  # the file Mousepad opens
TEXT = "• winctl input, click, choose-file ✓"  # the line the agent adds
XDG_HOMES = ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME")
APP = ["mousepad", "--disable-server"]  # its own process: no Mousepad already running takes the window


class DemoFailed(SystemExit):
    """A step failed or the app did not do what winctl said: the message says what happened."""


class Agent:
    """Runs `winctl` in the demo's session and desktop, printing each call as a transcript."""

    def __init__(self, env: dict[str, str]) -> None:
        self.env = env

    def run(self, *args: str, show: bool = True) -> str:
        """Run `winctl ARGS`; print the command line and its output when `show`; its stdout.
        A non-zero exit stops the demo."""
        if show:
            print(f"\n$ winctl {shlex.join(args)}", flush=True)
        done = subprocess.run([WINCTL, "--session", SESSION, *args], env=self.env, capture_output=True, text=True)
        if show:
            print((done.stdout + done.stderr).rstrip(), flush=True)
        if done.returncode != 0:
            raise DemoFailed(f"demo step `winctl {shlex.join(args)}` failed with exit code {done.returncode}")
        return done.stdout

    def find(self, type_: str) -> str:
        """The id of the first element of this type, read from `--json state` as an agent reads it."""
        state = json.loads(self.run("--json", "state", show=False))["result"]
        for target in state["targets"]:
            if target["type"] == type_:
                return str(target["id"])
        raise DemoFailed(f"Mousepad's window has no {type_}: its state lists {state['targets']}")


def use_fresh_home(folder: Path) -> None:
    """Give this process, and so the desktop's buses and every app they start, a home of its
    own: HOME is `folder` and the XDG folders (config, data, cache, state) fall back under it,
    so no saved Mousepad session, GSettings value (the bus's dconf) or winctl setting leaks in
    or out."""
    folder.mkdir(parents=True, exist_ok=True)
    os.environ["HOME"] = str(folder)
    for name in XDG_HOMES:
        os.environ.pop(name, None)


def window_title(env: dict[str, str], window_id: str) -> str:
    """The title the window manager shows for this window (`wmctrl -l`), or "" when it has none."""
    listing = subprocess.run(["wmctrl", "-l"], env=env, capture_output=True, text=True, check=True).stdout
    for line in listing.splitlines():
        wid, _desktop, _host, *title = line.split(maxsplit=3)
        if int(wid, 16) == int(window_id, 16):
            return title[0] if title else ""
    return ""


def check_outcome(env: dict[str, str], saved: Path, window_id: str) -> list[str]:
    """The lines that say what Mousepad did, each checked against the app's own outcome."""
    if not saved.exists():
        raise DemoFailed(f"Mousepad wrote no file at {saved}")
    data = saved.read_bytes()
    if data != (NOTES + TEXT).encode():
        raise DemoFailed(f"{saved} holds {data!r}, not the notes with the line added ({NOTES + TEXT!r})")
    title = window_title(env, window_id)
    if saved.name not in title:
        raise DemoFailed(f'the window is titled "{title}", which does not name {saved.name}')
    return [
        f"  ✓ {saved} (read from disk): {len(data)} bytes, the notes and the line added",
        f'  ✓ the window\'s title (wmctrl -l): "{title}"',
    ]


def cost(state_text: str, picture: Path) -> str:
    """The state's token cost next to the picture's, as the design notes count them."""
    with Image.open(picture) as image:
        width, height = image.size
    size = len(state_text.encode())
    return (
        f"  state: {tokens(state_text)} tokens ({size} bytes / 4); "
        f"picture: {width * height // PICTURE_PIXELS_PER_TOKEN} tokens ({width}×{height} / 750)"
    )


def shown(path: Path) -> str:
    """A path as the transcript prints it: relative to the repository when inside it."""
    return str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path)


def drive(agent: Agent, work: Path, picture: Path) -> list[str]:
    """The agent's steps; the check and cost lines to print at the end."""
    notes = work / "notes.txt"
    notes.write_text(NOTES, encoding="utf-8")
    launched = agent.run("launch", "--", *APP, str(notes))
    window_id = launched.split()[1]
    state = agent.run("state", "--annotated")
    annotated = Path(state.rsplit("Annotated: ", 1)[1].split()[0])
    picture.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(annotated, picture)
    agent.run("input", "--append", agent.find("Edit"), TEXT)
    agent.run("click", "File")
    agent.run("click", "Save As...")
    saved = work / "hello.txt"
    agent.run("choose-file", str(saved))
    checks = check_outcome(agent.env, saved, window_id)
    agent.run("close")
    state_text = state.split("\nAnnotated: ", 1)[0] + "\n"
    return [
        "\nWhat Mousepad did, checked outside winctl:",
        *checks,
        "What the agent read, in tokens:",
        cost(state_text, picture),
        f"The annotated picture of that state: {shown(picture)}",
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--picture", type=Path, default=PICTURE, help=f"where to save it (default {PICTURE})")
    picture = parser.parse_args().picture.resolve()
    work = Path(tempfile.mkdtemp(prefix="winctl-demo-"))
    use_fresh_home(work / "home")
    with VirtualDesktop() as desk:
        agent = Agent(desk.env)
        print("A private desktop is up (Xvfb, a session bus, openbox); launching Mousepad in a fresh home.")
        try:
            lines = drive(agent, work, picture)
        finally:
            subprocess.run([WINCTL, "session", "close", SESSION], env=agent.env, capture_output=True, check=False)
            shutil.rmtree(work, ignore_errors=True)
    print("\n".join(lines))


if __name__ == "__main__":
    main()
