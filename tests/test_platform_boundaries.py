"""No platform import leaks into the core: only a backend talks to its platform, and on
Windows only win32.py talks to COM and Win32 (the layer the fake stands in for)."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "winactions"
PLATFORM_LIBRARIES = {
    "backends/linux": {"dbus_fast", "Xlib", "gi", "jeepney"},
    "backends/windows/win32.py": {"comtypes", "ctypes", "win32api", "win32gui", "pywinauto", "uiautomation"},
}


def imports(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
    return found


def test_platform_libraries_are_imported_only_by_their_backend_layer():
    offenders = []
    for path in PACKAGE.rglob("*.py"):
        relative = path.relative_to(PACKAGE).as_posix()
        for owner, libraries in PLATFORM_LIBRARIES.items():
            if relative.startswith(owner):
                continue
            used = {name for name in imports(path) if name.split(".")[0] in libraries}
            if used:
                offenders.append(f"{relative}: {sorted(used)}")
    assert not offenders, offenders


def test_the_core_never_imports_a_backend_directly():
    offenders = []
    for path in PACKAGE.rglob("*.py"):
        relative = path.relative_to(PACKAGE).as_posix()
        if relative.startswith("backends/"):
            continue
        used = {n for n in imports(path) if n.startswith(("winactions.backends.linux", "winactions.backends.windows"))}
        if used:
            offenders.append(f"{relative}: {sorted(used)}")
    assert not offenders, offenders
