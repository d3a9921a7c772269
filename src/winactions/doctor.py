"""`winctl doctor`: what winactions needs on this machine, each check with its fix.

The platform's checks come from its backend (`backends.diagnose`: display, buses,
accessibility switches, toolkit bridges); the checks here are the core's own: the settings
set (`winactions.settings`), the extras installed, the OCR models loadable, the model
configuration and whether its server answers. None of them opens the backend, so doctor
works exactly where `state` does not.
"""

from __future__ import annotations

import os
import socket
import time
from collections.abc import Mapping
from urllib.parse import urlsplit

from winactions import settings
from winactions.backends import diagnose
from winactions.backends.base import Check
from winactions.errors import WinctlError
from winactions.extras import EXTRAS, _importable
from winactions.llm.config import LLMFlags

PURPOSE = {
    "vision": "the visual locator, OCR and --vision local",
    "llm": "--infer llm, --vision llm, dynamic:",
    "mcp": "winctl mcp",
}


def run_checks(llm: LLMFlags | None = None) -> list[Check]:
    return [*diagnose(), *settings_checks(), *extras_checks(), ocr_check(), model_check(llm or LLMFlags())]


def settings_checks(env: Mapping[str, str] | None = None) -> list[Check]:
    """One check per WINCTL_* variable set in `env` (default: this process's environment):
    ok with its effective value, fail when a bad value is refused where it is read, warn when
    a bad value is ignored (its default applies) or the variable is no setting at all."""
    env = os.environ if env is None else env
    names = sorted(n for n in env if n.startswith(settings.PREFIX) and env[n].strip())
    checks = [_setting_check(n, env) for n in names]
    return checks or [Check("settings", "ok", "no WINCTL_* variable set: every default applies")]


def _setting_check(name: str, env: Mapping[str, str]) -> Check:
    setting = settings.BY_NAME.get(name)
    if setting is None:
        return Check(
            f"setting {name}",
            "warn",
            "is not a winctl setting: nothing reads it",
            "check its spelling against `winctl --help` or docs/settings.md, or unset it",
        )
    try:
        value = setting.parse(env[name])
    except WinctlError as exc:
        if setting.falls_back:
            return Check(
                f"setting {name}",
                "warn",
                f"{exc.message}: ignored, the default ({setting.default_text()}) applies",
                exc.hint or "",
            )
        return Check(
            f"setting {name}", "fail", f"{exc.message}; refused where it is read: {setting.reader}", exc.hint or ""
        )
    where = "" if setting.where == settings.EVERYWHERE else f"; honoured on {setting.where} only"
    return Check(
        f"setting {name}",
        "ok",
        f"{setting.show(value)} (default {setting.default_text() or 'none'}): {setting.help}{where}",
    )


def extras_checks() -> list[Check]:
    checks = []
    for extra, modules in EXTRAS.items():
        missing = [m for m in modules if not _importable(m)]
        checks.append(
            Check(
                f"extra {extra}",
                "warn",
                f"not installed ({', '.join(missing)}): no {PURPOSE[extra]}",
                f"pip install 'winactions[{extra}]'",
            )
            if missing
            else Check(f"extra {extra}", "ok", f"installed: {PURPOSE[extra]}")
        )
    return checks


def ocr_check() -> Check:
    """Load the OCR engine and read a blank image: the models ship in the wheel, but a broken
    onnxruntime or a truncated download shows only here."""
    if not all(_importable(m) for m in EXTRAS["vision"]):
        return Check("OCR models", "warn", "the vision extra is missing", "pip install 'winactions[vision]'")
    start = time.monotonic()
    try:
        import numpy as np

        from winactions.locate.ocr import shared_engine

        shared_engine().read(np.full((32, 96, 3), 255, dtype=np.uint8))
    except Exception as exc:
        return Check(
            "OCR models",
            "fail",
            f"cannot load or run rapidocr: {type(exc).__name__}: {exc}",
            "pip install --force-reinstall rapidocr onnxruntime",
        )
    return Check("OCR models", "ok", f"rapidocr loaded and ran in {time.monotonic() - start:.1f}s")


def model_check(flags: LLMFlags, timeout: float = 3.0) -> Check:
    """Whether a model is configured, and whether its server accepts a connection (nothing
    is sent: no key leaves the machine and no tokens are spent)."""
    if not flags.configured:
        return Check(
            "model",
            "warn",
            "no model configured: --infer llm, --vision llm and dynamic: targets "
            "are off (everything else works offline)",
            "set WINCTL_VISION_API_KEY (or ANTHROPIC_API_KEY / OPENAI_API_KEY), or WINCTL_VISION_BASE_URL "
            "for a local OpenAI-compatible server",
        )
    try:
        config = flags.resolve()
    except WinctlError as exc:
        return Check("model", "fail", exc.message, exc.hint or "")
    url = config.base_url or (
        "https://api.anthropic.com" if config.provider == "anthropic" else "https://api.openai.com/v1"
    )
    parts = urlsplit(url)
    port = parts.port or (443 if parts.scheme == "https" else 80)
    try:
        with socket.create_connection((parts.hostname or "", port), timeout=timeout):
            pass
    except OSError as exc:
        return Check(
            "model",
            "fail",
            f"{config.provider} model {config.model} at {url}: cannot connect ({exc})",
            "check the network or WINCTL_VISION_BASE_URL (is the local server running?)",
        )
    return Check("model", "ok", f"{config.provider} model {config.model} at {url} accepts connections")


__all__ = ["Check", "run_checks"]
