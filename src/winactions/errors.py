"""A small error hierarchy whose every message tells the agent what to do next.

Front ends turn these into a non-zero exit code and `{"ok": false, "error": {...}}`.
"""

from __future__ import annotations

ECHO_LIMIT = 120  # characters of an input that an error quotes back


def shown(value: object, limit: int = ECHO_LIMIT) -> str:
    """`repr(value)` to quote an input in an error, at most `limit` characters of it and then how
    many were cut: a 64 KB title given to `focus` is not echoed whole. repr escapes line breaks
    and lone surrogates, so the quote stays one printable line."""
    text = repr(value)
    if len(text) <= limit:
        return text
    return f"{text[:limit]}… ({len(text) - limit:,} more characters not shown)"


class WinctlError(Exception):
    """Base class: `code` is machine-readable, `hint` is the next step for the agent."""

    code = "error"
    exit_code = 1

    def __init__(self, message: str, *, hint: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint

    def to_dict(self) -> dict[str, str]:
        out = {"code": self.code, "message": self.message}
        if self.hint:
            out["hint"] = self.hint
        return out


class InvalidInput(WinctlError):
    """The request itself is wrong: a bad key name, a malformed coordinate, a missing arg."""

    code = "invalid_input"
    exit_code = 2


class NotFound(WinctlError):
    """An id, window or option that does not exist."""

    code = "not_found"
    exit_code = 3


class StaleElement(NotFound):
    """The id was valid once but its element is gone or changed; nothing was acted on."""

    code = "stale_element"


class NoTree(NotFound):
    """The window exposes no accessibility tree (its app is not on the bus, or has none):
    its elements can only be read from its pixels (`state --vision local`)."""

    code = "no_tree"


class WindowClosed(NotFound):
    """The session's window no longer exists."""

    code = "window_closed"


class ActionFailed(WinctlError):
    """The element was found but the platform refused or failed the action."""

    code = "action_failed"
    exit_code = 4


class DialogInFront(ActionFailed):
    """A window was not brought forward because its app keeps a dialog of its own in front of
    it (a modal one); `dialog` is that dialog's window id, which takes the input instead."""

    code = "dialog_in_front"

    def __init__(self, message: str, *, hint: str | None = None, dialog: str) -> None:
        super().__init__(message, hint=hint)
        self.dialog = dialog


class ModalInCall(ActionFailed):
    """An element's accessibility action ran a modal dialog inside the call that asked for it
    (GTK 3 runs an action's handler there): the app answers nothing more until the dialog
    closes, and the first key it is sent freezes it for good. The dialog (titled `dialog`) was
    closed again, as its close button would: the action did nothing."""

    code = "modal_in_call"

    def __init__(self, message: str, *, hint: str | None = None, dialog: str) -> None:
        super().__init__(message, hint=hint)
        self.dialog = dialog


class Unsupported(ActionFailed):
    """This backend cannot do that at all (a phone has no window to move); nothing was done."""

    code = "unsupported"


class BackendUnavailable(WinctlError):
    """No display, no accessibility bus, or a platform library missing."""

    code = "backend_unavailable"
    exit_code = 5


class NoAccessibility(BackendUnavailable):
    """The platform's accessibility service cannot be reached (no live accessibility bus):
    no window's tree can be read, but its pixels can (`state --vision local`)."""

    code = "no_accessibility"


class WaitTimeout(WinctlError):
    """A wait ran out before its condition held."""

    code = "timeout"
    exit_code = 6


class Cancelled(WinctlError):
    """The caller cancelled the call (an MCP client's `notifications/cancelled`); it stopped at a
    safe point, and the message says where."""

    code = "cancelled"
    exit_code = 1


class AppBusy(WinctlError):
    """The app stopped answering accessibility requests (busy, or inside a modal dialog)."""

    code = "app_busy"
    exit_code = 7


class LLMFailed(WinctlError):
    """A language model could not be reached, refused, or replied with something unusable."""

    code = "llm_failed"
    exit_code = 8


class NotGranted(WinctlError):
    """Confined mode: the act would reach an app (or use a right) no person granted this
    session, or winctl's own prompt; nothing was sent."""

    code = "not_granted"
    exit_code = 9


class Unverified(WinctlError):
    """A task's steps ran, but its success could not be shown: a criterion could not be checked
    (no model for criteria in words, a path that is not absolute, none given)."""

    code = "unverified"
    exit_code = 10


def of_code(code: str) -> type[WinctlError]:
    """The error class whose `code` this is (`WinctlError` for an unknown one): an error kept as
    a dict (a batch step's) raised again with its own exit code."""
    pending: list[type[WinctlError]] = [WinctlError]
    while pending:
        cls = pending.pop()
        if cls.code == code:
            return cls
        pending.extend(cls.__subclasses__())
    return WinctlError
