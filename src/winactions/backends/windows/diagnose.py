"""`winctl doctor` on Windows: whether UI Automation can be reached (its COM type library)."""

from __future__ import annotations

import importlib.util
import sys

from winactions.backends.base import Check


def diagnose() -> list[Check]:
    if sys.platform != "win32":
        return [
            Check(
                "platform",
                "fail",
                f"the Windows backend runs on Windows, not {sys.platform}",
                "unset WINACTIONS_BACKEND to use this platform's backend",
            )
        ]
    if importlib.util.find_spec("comtypes") is None:
        return [Check("UI Automation", "fail", "comtypes is not installed", "pip install --force-reinstall winactions")]
    return [Check("UI Automation", "ok", "comtypes is installed; UIAutomationCore is part of Windows")]
