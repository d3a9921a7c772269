"""winactions: desktop UI automation for AI agents.

    from winactions import Desktop

    with Desktop(window="Calculator") as desktop:
        print(desktop.state())
        desktop.click(4)

The public names below load on first use (PEP 562, from the explicit table `_EXPORTS`, never
by guessing): the thin `winctl` client lives in this package and must not pay for pydantic
on every call. Errors load at once; they are tiny.
"""

from __future__ import annotations

import importlib

from winactions._version import __version__
from winactions.errors import (
    ActionFailed,
    AppBusy,
    BackendUnavailable,
    InvalidInput,
    LLMFailed,
    NotFound,
    NoTree,
    StaleElement,
    Unsupported,
    WaitTimeout,
    WinctlError,
    WindowClosed,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from winactions.api import Desktop, locate_in, match, verify_location
    from winactions.api_async import AsyncDesktop
    from winactions.commands.base import GlobalOptions, Result
    from winactions.commands.results import (
        ActionResult,
        InspectResult,
        LocateCommandResult,
        MatchResult,
        ScreenshotResult,
        StateResult,
        ValueResult,
        VerifyResult,
        WaitResult,
        WindowResult,
        WindowsResult,
    )
    from winactions.model import Rect, Source, Target, UIState, WindowInfo

_EXPORTS = {
    **dict.fromkeys(("Desktop", "locate_in", "match", "verify_location"), "winactions.api"),
    "AsyncDesktop": "winactions.api_async",
    "GlobalOptions": "winactions.commands.base",
    "Result": "winactions.commands.base",
    **dict.fromkeys(
        (
            "ActionResult",
            "InspectResult",
            "LocateCommandResult",
            "MatchResult",
            "ScreenshotResult",
            "StateResult",
            "ValueResult",
            "VerifyResult",
            "WaitResult",
            "WindowResult",
            "WindowsResult",
        ),
        "winactions.commands.results",
    ),
    **dict.fromkeys(("Rect", "Source", "Target", "UIState", "WindowInfo"), "winactions.model"),
}

__all__ = [  # the literal list, for readers and linters; a test keeps it equal to _EXPORTS and the errors
    "ActionFailed",
    "ActionResult",
    "AppBusy",
    "AsyncDesktop",
    "BackendUnavailable",
    "Desktop",
    "GlobalOptions",
    "InspectResult",
    "InvalidInput",
    "LLMFailed",
    "LocateCommandResult",
    "MatchResult",
    "NoTree",
    "NotFound",
    "Rect",
    "Result",
    "ScreenshotResult",
    "Source",
    "StaleElement",
    "StateResult",
    "Target",
    "UIState",
    "Unsupported",
    "ValueResult",
    "VerifyResult",
    "WaitResult",
    "WaitTimeout",
    "WinctlError",
    "WindowClosed",
    "WindowInfo",
    "WindowResult",
    "WindowsResult",
    "__version__",
    "locate_in",
    "match",
    "verify_location",
]


def __getattr__(name: str) -> object:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'winactions' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value  # later look-ups skip this function
    return value
