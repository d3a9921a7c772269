"""An accessibility action never leaves its app held inside the call.

GTK 3 (at-spi2-atk, LibreOffice's GTK 3 plugin too) runs an action's handler inside the
accessibility call: a handler that runs a modal dialog keeps the call, and the app answers
nothing and freezes at the first key it is sent (docs/apps.md, "Known behaviour"). So `click`
presses such a toolkit's menu items where they show (`acts_in_call`), and every action sent
through the tree to such an app is followed by a request it answers only once the handler has
returned (`released`): a dialog of the app's own that opened meanwhile and holds it is closed
again, and the action reported as undone. Qt and GTK 4 go on answering while a handler's
dialog runs, so a dialog there holds nothing.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import time

from winactions.backends.base import WindowAction
from winactions.backends.linux.atspi import VCL, AtspiClient
from winactions.backends.linux.x11windows import X11Windows
from winactions.errors import AppBusy, ModalInCall, WinctlError
from winactions.model import WindowInfo

IN_CALL_TOOLKITS = frozenset({"gtk", VCL})  # at-spi2-atk runs their action handlers inside the call
HELD_SECONDS = 1.5  # s: an app not answering this long after an action is reported as still handling it
RELEASE_SECONDS = 5.0  # s for an app to answer again once the dialog that held it is closed
POLL = 0.05  # s between looks at the app's windows while its answer is awaited
# s a new dialog stays while the app does not answer before it is taken to be run inside the call
# (a handler that shows a dialog of its own and returns is answered right after)
DIALOG_GRACE = 0.5
STILL_HANDLING = " (sent; the app is still handling it)"


def acts_in_call(atspi: AtspiClient, handle: str) -> bool:
    """Whether the element's toolkit runs an action's handler inside the accessibility call
    (`IN_CALL_TOOLKITS`): an action there may hold the app (see the module's docstring)."""
    return atspi.toolkit(handle) in IN_CALL_TOOLKITS


def released(atspi: AtspiClient, x11: X11Windows, handle: str, before: frozenset[int], method: str) -> str:
    """`method` once the element's app answers again after an action sent to it through the
    tree (its handler has returned). Until it does, a dialog of the app's own that is new since
    `before` (`X11Windows.client_ids`) and stays DIALOG_GRACE means the handler runs that
    dialog inside the call: it is closed, as its close button would, and ModalInCall says so —
    AppBusy if the app still answers nothing then. An app that answers nothing for
    HELD_SECONDS and opened no dialog is only slow: `method`, said to be still handled."""
    answer = atspi.answering(handle)
    deadline = time.monotonic() + HELD_SECONDS
    pid: int | None = None
    seen: float | None = None  # when a new dialog of the app was first seen
    while not _answered(answer, POLL):
        now = time.monotonic()
        pid = pid if pid is not None else atspi.pid(handle)
        dialogs = x11.new_dialogs(pid, before) if pid is not None else []
        seen = (seen or now) if dialogs else None
        if seen is not None and now - seen >= DIALOG_GRACE:
            raise _undone(x11, answer, dialogs)
        if seen is None and now > deadline:
            answer.cancel()
            return method if STILL_HANDLING in method else method + STILL_HANDLING
    return method


def _answered(answer: concurrent.futures.Future[None], seconds: float) -> bool:
    try:
        answer.result(seconds)
    except concurrent.futures.TimeoutError:
        return False
    except Exception:  # the bus went away, the app with it: nothing holds it
        return True
    return True


def _undone(x11: X11Windows, answer: concurrent.futures.Future[None], dialogs: list[WindowInfo]) -> WinctlError:
    """Close the dialogs that hold the app, and the error that says so."""
    title = dialogs[0].title
    app = dialogs[0].process or "the app"
    for dialog in dialogs:
        with contextlib.suppress(WinctlError):  # it went on its own
            x11.window_action(dialog.id, WindowAction.CLOSE)
    if not _answered(answer, RELEASE_SECONDS):
        answer.cancel()
        return AppBusy(
            f'its action opened "{title}" inside the accessibility call, and {app} still answers '
            "nothing after winctl closed that dialog",
            hint="send it no keys (a key freezes it for good while it waits in that call): close "
            "its windows with the mouse or `winctl close`, then run `winctl state`",
        )
    return ModalInCall(
        f'its action opened "{title}" inside the accessibility call, where {app} answers nothing '
        "while the dialog is open and freezes at the first key; winctl closed the dialog again: "
        "nothing was done",
        hint="click it with the mouse where it shows (`--via input`), or use its keyboard shortcut",
        dialog=title,
    )
