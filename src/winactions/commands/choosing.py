"""`choose-file`: open or save a file by its path through the app's own file dialog, in one call."""

from __future__ import annotations

import contextlib
import os
import time
from dataclasses import dataclass, field
from pathlib import Path, PurePath

from pydantic import Field, field_validator

from winactions import file_dialogs as fd
from winactions.backends.base import Backend
from winactions.commands.base import Context, Kind, Params, command
from winactions.commands.results import ActionResult
from winactions.errors import ActionFailed, AppBusy, InvalidInput, NotFound, WinctlError, shown
from winactions.files import Stamp, stamp
from winactions.keys import parse_keys
from winactions.model import Node, WindowInfo

OPEN_WAIT = 5.0  # s a dialog opened by --keys may take to show
TITLE_WAIT = 2.0  # s a saved file's window may take to be named after it
NO_FOLDER_WAIT = 1.0  # s to wait for a message once a save into a missing folder closed its dialog


class ChooseFileParams(Params):
    path: str = Field(description="the file's absolute path")
    overwrite: bool = Field(False, description="on Save, replace a file that is there (else refused)")
    keys: str | None = Field(None, description='keys that open the dialog when none is open: "ctrl+o", "ctrl+shift+s"')
    timeout: float = Field(10.0, gt=0, le=120, description="seconds the app may take to open or save")

    @field_validator("path")
    @classmethod
    def _absolute(cls, value: str) -> str:
        if not value.strip() or not PurePath(value).is_absolute():
            raise ValueError(f"give the file's absolute path (/home/me/a.txt), not {shown(value, 60)}")
        return value


@dataclass
class Watch:
    """What one choice is about: the dialog, the path, the file as it was before, who answers."""

    backend: Backend
    dialog: fd.FileDialog
    path: str
    local: bool
    before: Stamp | None
    overwrite: bool
    seen: set[str] = field(default_factory=set)  # the app's windows before the button was pressed
    notes: list[str] = field(default_factory=list)
    written: float | None = None  # when the saved file was first seen written (monotonic)

    @property
    def verb(self) -> str:
        return "saved" if self.dialog.saves else "opened"

    @property
    def still_open(self) -> str:
        return f'nothing was {self.verb}; the "{self.dialog.window.title}" dialog is still open'


@command("choose-file", ChooseFileParams, kind=Kind.ACTION, positional=("path",), profiles=("windows",))
def choose_file(ctx: Context, p: ChooseFileParams) -> ActionResult:
    """Open or save a file by path in the window's file dialog (--keys ctrl+o opens one first):
    the path goes in its field, its Open/Save button is pressed, and the outcome is checked (the
    dialog gone, a window naming the file, a save written). An existing file is replaced only
    with --overwrite; a message the app shows fails the call with its text."""
    dialog = _dialog(ctx, p.keys)
    try:
        watch, window, how, accept = _choose(ctx, dialog, p)
    except ActionFailed:
        _follow(ctx, dialog.window.pid)  # the next call reaches what the app shows now
        raise
    ctx.session.select_window(window)
    ctx.forget_window()
    return ActionResult(action="choose-file", method=f'{how}, "{accept.name}" pressed', detail=_said(watch, window))


def _choose(ctx: Context, dialog: fd.FileDialog, p: ChooseFileParams) -> tuple[Watch, WindowInfo, str, Node]:
    """Put the path in, press the dialog's button, and check the outcome: (what was watched,
    the app's window now, how the path went in, the button pressed)."""
    backend = ctx.session.backend
    local = not backend.one_screen
    if local and os.path.isdir(p.path):
        raise InvalidInput(f"{p.path} is a folder; nothing was chosen", hint="give the path of a file")
    watch = Watch(backend, dialog, p.path, local, stamp_of(p.path) if local else None, p.overwrite)
    if dialog.saves and watch.before is not None and not p.overwrite:
        raise ActionFailed(
            f"{p.path} is there already: not replaced; {watch.still_open}",
            hint="add --overwrite to replace it, or choose another path",
        )
    how = fd.put_path(backend, dialog, p.path)
    accept = fd.enabled_accept(backend, dialog)
    if accept is None:
        missing = ": there is no such file" if local and not dialog.saves and watch.before is None else ""
        raise ActionFailed(
            f'the dialog\'s "{dialog.accept.name}" button stayed disabled with {p.path} in its '
            f"field{missing}; {watch.still_open}",
            hint="check the path; `winctl keys Escape` closes the dialog",
        )
    watch.seen = {w.id for w in fd.app_windows(backend, dialog.window.pid)}
    fd.press(backend, accept)
    return watch, _outcome(watch, p.timeout), how, accept


def stamp_of(path: str) -> Stamp | None:
    try:
        return stamp(Path(path))
    except OSError:
        return None


def _follow(ctx: Context, pid: int | None) -> None:
    """Select the app's active window (a message, the dialog left open, the main window), read
    as the session's state: once it closes (Escape), the session follows to the app's next."""
    windows = fd.app_windows(ctx.session.backend, pid)
    active = next((w for w in windows if w.active), windows[0] if windows else None)
    if active is not None:
        ctx.session.select_window(active)
        ctx.forget_window()
        with contextlib.suppress(WinctlError):  # the failure said is what matters
            ctx.session.refresh_state(active)


def _dialog(ctx: Context, keys: str | None) -> fd.FileDialog:
    """The file dialog the call acts on: the window's, else the one `keys` open."""
    backend = ctx.session.backend
    window = ctx.window()
    dialog = fd.parts(backend, window)
    if dialog is not None:
        return dialog
    if keys is None:
        raise NotFound(
            f'window "{window.title}" is no file dialog (no file name field and Open or Save button)',
            hint="open it first (`winctl keys ctrl+o`; ctrl+shift+s for Save As), or add --keys ctrl+o",
        )
    chords = parse_keys(keys, backend.key_names)
    backend.ensure_active(window)
    backend.press_chords(chords)
    deadline = time.monotonic() + OPEN_WAIT
    while time.monotonic() < deadline:
        time.sleep(fd.POLL)
        active = next((w for w in fd.app_windows(backend, window.pid) if w.active and w.id != window.id), None)
        dialog = fd.parts(backend, active) if active is not None else None
        if dialog is not None:
            ctx.session.select_window(active)  # type: ignore[arg-type]
            ctx.forget_window()
            return dialog
    now = fd.titles([w for w in fd.app_windows(backend, window.pid) if w.active])
    raise ActionFailed(
        f'{keys} opened no file dialog over "{window.title}" in {OPEN_WAIT:g} s (the app\'s active window: {now})',
        hint="`winctl state` shows what it did; try the app's menu (File > Open...)",
    )


def _outcome(watch: Watch, timeout: float) -> WindowInfo:
    """The app's window once the dialog is gone and the outcome checks out; answers the app's
    questions on the way (a replacement: only with --overwrite) and fails on its messages."""
    deadline = time.monotonic() + timeout
    pid = watch.dialog.window.pid
    while True:
        windows = fd.app_windows(watch.backend, pid)
        for window in [w for w in windows if w.id not in watch.seen]:
            note = _read(watch.backend, window)
            if note is not None and note.dialog:
                _answer(watch, note)
            elif note is not None:
                watch.seen.add(window.id)  # a window of its own: where the file opened (LibreOffice)
        if all(w.id != watch.dialog.window.id for w in windows) and all(w.id in watch.seen for w in windows):
            done = _checked(watch, windows)
            if done is not None:
                return done
            if watch.dialog.saves and watch.local and not Path(watch.path).parent.is_dir():
                deadline = min(deadline, time.monotonic() + NO_FOLDER_WAIT)  # it cannot come
        if time.monotonic() >= deadline:
            raise _unfinished(watch, windows, timeout)
        time.sleep(fd.POLL)


def _read(backend: Backend, window: WindowInfo) -> fd.Message | None:
    """What a new window of the app says; None while its tree is not there yet."""
    try:
        return fd.message(backend, window)
    except (NotFound, AppBusy):
        return None


def _answer(watch: Watch, note: fd.Message) -> None:
    """Answer a window the app opened: a replace question with --overwrite (else declined), a
    message by failing with its text."""
    watch.seen.add(note.window.id)
    if note.asks_to_replace and watch.dialog.saves:
        if watch.overwrite:
            button = note.button(fd.REPLACE_NAMES)
            if button is not None:
                fd.press(watch.backend, button)
                watch.notes.append("the app asked to replace the file: replaced")
                return
            raise ActionFailed(
                f"the app asks {shown(note.text, 200)} and has no {'/'.join(fd.REPLACE_NAMES)} "
                f"button: left unanswered; {watch.still_open}",
                hint=f"its buttons: {', '.join(note.buttons) or 'none'}: answer it with `winctl click`",
            )
        declined = note.button(fd.DECLINE_NAMES)
        if declined is not None:
            fd.press(watch.backend, declined)
        answered = f'answered "{declined.name}"' if declined else "left unanswered"
        raise ActionFailed(
            f"the app asks {shown(note.text, 200)}: {answered}; {watch.still_open}",
            hint="add --overwrite to replace the file, or choose another path",
        )
    said = fd.dismiss(watch.backend, note)
    if watch.dialog.saves and watch.local and watch.before != stamp_of(watch.path):
        gone = f"yet {watch.path} changed"
    elif any(w.id == watch.dialog.window.id for w in fd.app_windows(watch.backend, watch.dialog.window.pid)):
        gone = watch.still_open
    else:
        gone = f"nothing was {watch.verb}"
    raise ActionFailed(
        f"the app answered {shown(note.text, 300)} ({said}); {gone}",
        hint="check the path; `winctl state` shows where the app is now",
    )


def _checked(watch: Watch, windows: list[WindowInfo]) -> WindowInfo | None:
    """The app's window naming the file (for a save: once the file is written), else None."""
    name = PurePath(watch.path).name
    naming = next((w for w in windows if watch.path in w.title), None) or next(
        (w for w in windows if name in w.title), None
    )  # the whole path where the title has it
    if watch.dialog.saves and watch.local:
        now = stamp_of(watch.path)
        if now is None or now == watch.before:
            return None
        watch.written = watch.written or time.monotonic()
        if naming is None and time.monotonic() - watch.written < TITLE_WAIT:  # the title follows the file
            return None
        return naming or next((w for w in windows if w.active), windows[0] if windows else watch.dialog.window)
    return naming


def _unfinished(watch: Watch, windows: list[WindowInfo], timeout: float) -> ActionFailed:
    """Why the outcome did not check out in time."""
    if any(w.id == watch.dialog.window.id for w in windows):
        return ActionFailed(
            f'the "{watch.dialog.window.title}" dialog is still open {timeout:g} s after '
            f'"{watch.dialog.accept.name}" was pressed with {watch.path} in its field; '
            f"nothing was {watch.verb}",
            hint="`winctl state` shows the dialog (a message in it?); `winctl keys Escape` closes it",
        )
    if watch.dialog.saves and watch.local:
        folder = Path(watch.path).parent
        why = f"its folder {folder} does not exist" if not folder.is_dir() else f"in {timeout:g} s"
        return ActionFailed(
            f"the dialog closed but {watch.path} was not written ({why}; windows: {fd.titles(windows)})",
            hint="`winctl state` shows what the app is doing; save again with ctrl+s",
        )
    return ActionFailed(
        f"the dialog closed but no window of the app names {PurePath(watch.path).name} in "
        f"{timeout:g} s (windows: {fd.titles(windows)})",
        hint="`winctl state` shows what the app opened",
    )


def _said(watch: Watch, window: WindowInfo) -> str:
    """The result's detail: what is now true, in the app and on disk."""
    what = f'{watch.verb} {watch.path}; window "{window.title}"'
    if watch.dialog.saves and watch.local:
        now = stamp_of(watch.path)
        what += f"; the file has {now[2]:,} bytes" if now else ""
    return "; ".join([what, *watch.notes])
