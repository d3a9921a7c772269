"""Backends: one per platform, chosen at run time. The core imports none of them directly.

`WINACTIONS_BACKEND` overrides the choice (e.g. for a fake in tests).
"""

from __future__ import annotations

import importlib
import os
import sys

from winactions.backends.base import Backend, Check
from winactions.errors import BackendUnavailable

_BACKENDS = {
    "linux": "winactions.backends.linux.backend:LinuxBackend",
    "windows": "winactions.backends.windows.backend:WindowsBackend",
}


def default_backend_name() -> str:
    if sys.platform.startswith("linux"):
        return "linux"
    if sys.platform == "win32":
        return "windows"
    return sys.platform


def get_backend(name: str | None = None, *, live: bool = False) -> Backend:
    """Create the backend for this platform (or the named one).

    `live` is for long-lived processes (the daemon): the backend may keep the tree cached
    and must then keep it as fresh as the app, through the platform's change events.
    """
    name = name or os.environ.get("WINACTIONS_BACKEND") or default_backend_name()
    spec = _BACKENDS.get(name)
    if spec is None:
        raise BackendUnavailable(f"no backend for platform {name!r}",
                                 hint=f"available: {', '.join(sorted(_BACKENDS))}")
    module_name, _, class_name = spec.partition(":")
    module = importlib.import_module(module_name)
    backend: Backend = getattr(module, class_name)(live=live)
    return backend


_DIAGNOSE = {
    "linux": "winactions.backends.linux.diagnose",
    "windows": "winactions.backends.windows.diagnose",
}


def diagnose(name: str | None = None) -> list[Check]:
    """The platform's own checks for `winctl doctor` (display, buses, accessibility)."""
    name = name or os.environ.get("WINACTIONS_BACKEND") or default_backend_name()
    module_name = _DIAGNOSE.get(name)
    if module_name is None:
        return [Check("platform", "fail", f"no backend for platform {name!r}",
                      f"winactions runs on: {', '.join(sorted(_BACKENDS))}")]
    checks: list[Check] = importlib.import_module(module_name).diagnose()
    return checks
