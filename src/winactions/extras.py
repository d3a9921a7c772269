"""Optional parts of winactions and the extra that installs each.

`pip install winactions` gives the tree, the actions, the daemon and the CLI; pixels (the
locator, OCR, `--vision local`), language models and the MCP server come with extras. A
feature whose extra is missing must say which one to install — never fail deep inside with
`ModuleNotFoundError: No module named 'numpy'`.
"""

from __future__ import annotations

import importlib.util

from winactions.errors import BackendUnavailable

EXTRAS = {
    "vision": ("numpy", "cv2", "rapidocr", "onnxruntime"),
    "llm": ("anthropic", "openai"),
    "mcp": ("mcp",),
}


def require(extra: str, *modules: str, feature: str = "") -> None:
    """Raise a clear error unless every module (default: all of the extra's) can be imported."""
    missing = [m for m in (modules or EXTRAS[extra]) if not _importable(m)]
    if missing:
        what = feature or f"this needs the {extra!r} extra"
        verb = "is" if len(missing) == 1 else "are"
        raise BackendUnavailable(
            f"{what}: {', '.join(missing)} {verb} not installed",
            hint=f"pip install 'winactions[{extra}]' (or 'winactions[all]')",
        )


def missing_extra(exc: ImportError, feature: str) -> BackendUnavailable | None:
    """The error to show for `exc`, an import of one of an extra's modules that failed
    (`feature` is what needed it); None when the module belongs to no extra (a bug)."""
    root = (exc.name or "").split(".")[0]
    extra = next((name for name, modules in EXTRAS.items() if root in modules), None)
    if extra is None:
        return None
    return BackendUnavailable(
        f"{feature} needs the {extra!r} extra: {root} is not installed",
        hint=f"pip install 'winactions[{extra}]' (or 'winactions[all]')",
    )


def _importable(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):  # a parent package missing, or a broken install
        return False
