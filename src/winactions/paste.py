"""Text too long to type, pasted: put on the clipboard, pasted with the keys the focused
program takes (ctrl+v; ctrl+shift+v in a terminal, where ctrl+v is a character), awaited, and
the clipboard's own text put back.

What the clipboard held is restored only as text: a clipboard that held no text (nothing, or
an image, a file list) is left empty afterwards, and the result says so. An X clipboard is
served by its owner when a program asks: the program may ask after the keys are sent, so the
clipboard is restored only once the text is seen where it was pasted, or, where nothing can be
read back, after PASTE_SETTLE.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from winactions import settings
from winactions.backends.base import Backend, Capability
from winactions.errors import ActionFailed, NotGranted, WinctlError
from winactions.keys import parse_keys

PASTE_WAIT = 3.0  # s for pasted text to show where it was pasted, when it can be read back
PASTE_SETTLE = 1.0  # s given a program to take the clipboard's text, where nothing can be read back
# Terminal emulators, by program name: they paste on ctrl+shift+v (ctrl+v reaches the program in them).
TERMINAL_PROGRAMS = frozenset(
    {
        "lxterminal",
        "xfce4-terminal",
        "gnome-terminal-server",
        "mate-terminal",
        "terminator",
        "tilix",
        "sakura",
        "qterminal",
        "konsole",
        "kitty",
        "alacritty",
        "foot",
        "xterm",
        "urxvt",
    }
)


def pastes(backend: Backend, text: str) -> bool:
    """Whether this text is pasted rather than typed: longer than WINCTL_PASTE_OVER (0: never),
    on a backend with a clipboard."""
    over = settings.PASTE_OVER.read()
    return bool(over) and len(text) > over and Capability.CLIPBOARD in backend.capabilities


def paste(backend: Backend, text: str, *, terminal: bool, arrived: Callable[[], bool] | None) -> str:
    """Paste `text` into whatever has the keyboard focus and put the clipboard back; returns
    the note for the result. `arrived` says whether the text shows where it was pasted (None:
    it cannot be read back); ActionFailed when it does not within PASTE_WAIT — the clipboard
    is put back either way."""
    before = backend.get_clipboard()  # NotGranted here or below (a confined session): nothing sent
    backend.set_clipboard(text)
    keys = "ctrl+shift+v" if terminal else "ctrl+v"
    try:
        backend.press_chords(parse_keys(keys))
        landed = _awaited(arrived)
    finally:
        backend.set_clipboard(before)
    kept = "the clipboard's text put back" if before else "the clipboard, which held no text, left empty"
    if landed is False:
        raise ActionFailed(
            f"pasted {len(text):,} characters with {keys}, but they did not show where they were pasted "
            f"within {PASTE_WAIT:g} s; {kept}",
            hint="the focus may have moved, or the program pastes otherwise: `winctl state` shows what "
            "holds the focus and what each field reads",
        )
    checked = "" if landed else " (not read back)"
    return f"pasted {len(text):,} characters with {keys}{checked}; {kept}"


def send(backend: Backend, text: str, handle: str | None = None, *, terminal: bool = False) -> str:
    """Type `text` into the focus; or, past WINCTL_PASTE_OVER characters (`pastes`), paste it
    and return the note that says so ("" when typed). `handle`: the element it goes into, whose
    text holds it once pasted (read back before the clipboard is put back); None where it
    cannot be read."""
    if not pastes(backend, text):
        backend.type_text(text)
        return ""

    def arrived() -> bool:
        assert handle is not None
        try:
            return text in backend.read_text(handle)
        except WinctlError:
            return False

    try:
        return paste(backend, text, terminal=terminal, arrived=arrived if handle is not None else None)
    except NotGranted as exc:
        if "clipboard" not in exc.message:
            raise
    backend.type_text(text)  # a confined session without clipboard rights: typed instead
    return "typed, not pasted: the clipboard is not granted to this session"


def _awaited(arrived: Callable[[], bool] | None) -> bool | None:
    """True once `arrived` says so, False if it does not within PASTE_WAIT; None without one
    (after PASTE_SETTLE, the time a program is given to take the text)."""
    if arrived is None:
        time.sleep(PASTE_SETTLE)
        return None
    deadline = time.monotonic() + PASTE_WAIT
    while not arrived():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def in_terminal(process: str | None) -> bool:
    """Whether a window's program is a terminal emulator (`TERMINAL_PROGRAMS`)."""
    return (process or "").lower() in TERMINAL_PROGRAMS
