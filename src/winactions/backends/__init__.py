"""Backends: one per platform, chosen at run time. The core imports none of them directly.

`WINACTIONS_BACKEND` overrides the choice (e.g. for a fake in tests); a device named by
`--device` / `WINCTL_DEVICE` chooses the Android backend.
"""

from __future__ import annotations

import importlib
import os
import sys

from winactions import settings
from winactions.backends.base import Backend, Check
from winactions.errors import BackendUnavailable

_BACKENDS = {
    "linux": "winactions.backends.linux.backend:LinuxBackend",
    "windows": "winactions.backends.windows.backend:WindowsBackend",
    "android": "winactions.backends.android.backend:AndroidBackend",
}


def default_backend_name() -> str:
    if sys.platform.startswith("linux"):
        return "linux"
    if sys.platform == "win32":
        return "windows"
    return sys.platform


def get_backend(name: str | None = None, *, live: bool = False, device: str | None = None) -> Backend:
    """Create the backend for this platform (or the named one, or the phone `device`).

    `live` is for long-lived processes (the daemon): the backend may keep the tree cached
    and must then keep it as fresh as the app, through the platform's change events.
    """
    device = device or settings.DEVICE.read()
    name = name or os.environ.get("WINACTIONS_BACKEND") or ("android" if device else default_backend_name())
    spec = _BACKENDS.get(name)
    if spec is None:
        raise BackendUnavailable(f"no backend for platform {name!r}", hint=f"available: {', '.join(sorted(_BACKENDS))}")
    module_name, _, class_name = spec.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name and exc.name.startswith("winactions"):
            raise
        extra = {"android": " (pip install 'winactions[android]')"}.get(name, "")
        raise BackendUnavailable(
            f"the {name} backend needs the {exc.name} package, which is not installed", hint=f"install it{extra}"
        ) from None
    backend: Backend = getattr(module, class_name)(live=live, **({"serial": device} if name == "android" else {}))
    return backend


def phone_devices() -> tuple[list[dict[str, str]], str]:
    """The phones the adb server knows (serial, state, model, product), whatever backend the
    session uses, and a note when no adb server runs (listing does not start one: a desktop
    session that asks should not leave an adb daemon behind)."""
    try:
        adb = importlib.import_module("winactions.backends.android.adb")
    except ModuleNotFoundError as exc:
        raise BackendUnavailable(
            f"listing phones needs the {exc.name} package, which is not installed",
            hint="pip install 'winactions[android]'",
        ) from None
    if not adb.server_running():
        return [], (
            f"no adb server runs at {adb.server_address()}: start it with `adb start-server` "
            "(or plug a phone in and use --device)"
        )
    return [
        {"serial": d.serial, "state": d.state, "model": d.model, "product": d.product} for d in adb.list_devices()
    ], ""


_DIAGNOSE = {
    "linux": "winactions.backends.linux.diagnose",
    "windows": "winactions.backends.windows.diagnose",
}


def diagnose(name: str | None = None) -> list[Check]:
    """The platform's own checks for `winctl doctor` (display, buses, accessibility)."""
    name = name or os.environ.get("WINACTIONS_BACKEND") or default_backend_name()
    module_name = _DIAGNOSE.get(name)
    if module_name is None:
        return [
            Check(
                "platform",
                "fail",
                f"no backend for platform {name!r}",
                f"winactions runs on: {', '.join(sorted(_BACKENDS))}",
            )
        ]
    checks: list[Check] = importlib.import_module(module_name).diagnose()
    return checks
