"""The X clipboard through xclip.

On X11 the clipboard is not storage: its owner must stay alive to hand the text to every
app that pastes. A one-shot winctl exits at once, so ownership goes to xclip, which forks a
small process that serves the selection until something else is copied.
"""

from __future__ import annotations

import shutil
import subprocess

from winactions.errors import ActionFailed, BackendUnavailable

TIMEOUT = 5.0


def _xclip() -> str:
    path = shutil.which("xclip")
    if path is None:
        raise BackendUnavailable("xclip is not installed", hint="apt-get install xclip (scripts/setup.sh does)")
    return path


def get_text() -> str:
    try:
        done = subprocess.run(
            [_xclip(), "-selection", "clipboard", "-o", "-target", "UTF8_STRING"], capture_output=True, timeout=TIMEOUT
        )
    except subprocess.TimeoutExpired:
        raise ActionFailed("the clipboard's owner did not answer", hint="the copying app may be busy") from None
    if done.returncode != 0:
        return ""  # no owner, or no text on it: an empty clipboard
    return done.stdout.decode("utf-8", "replace")


def set_text(text: str) -> None:
    # xclip forks a child that serves the selection; it must not inherit a pipe we wait on
    done = subprocess.run(
        [_xclip(), "-selection", "clipboard", "-i", "-target", "UTF8_STRING"],
        input=text.encode("utf-8"),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        timeout=TIMEOUT,
    )
    if done.returncode != 0:
        raise ActionFailed(
            f"xclip could not take the clipboard (exit {done.returncode})", hint="is the display reachable?"
        )
