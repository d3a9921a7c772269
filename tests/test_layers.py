"""The layers, enforced by one allow-list: which part of the package may import which.

Front ends (cli, daemon, mcp, the Python API) sit on the command table; the table sits on
sessions, perception, the locator and the task runner (agent), which drives the table only
through an Actor it is handed and imports none of it; those sit on the backend interface
and the model. Nothing points back up, the core never imports a platform backend, and a
platform library is imported only inside its own backend (on Windows only by win32.py, the
layer the fake stands in for).
"""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src" / "winactions"

ALLOWED: dict[str, set[str]] = {
    "__init__": {"_version", "api", "api_async", "commands", "errors", "locate", "model"},  # the public facade
    "_version": set(),
    "options": {"settings"},  # standard library only: the thin client reads it
    "settings": {"errors"},  # every WINCTL_* variable, declared once; standard library only
    "progress": {
        "errors"
    },  # standard library (and errors: Cancelled) only: what long work is doing, for whoever watches
    "errors": set(),
    "files": set(),  # standard library only: files several processes share, written whole
    "outputs": {"errors", "settings"},  # where a command may write a file (a person's path, a model's name)
    "extras": {"errors"},  # which extra installs an optional part
    "skill": {"errors"},  # the agent's manual: a core page and topics read on demand
    "opencv": set(),  # cv2, imported without its loader's mark on the environment
    "keys": {"errors"},
    "prompts": set(),  # standard library only: a terminal's rows and the prompt on them
    "model": {"errors"},
    "candidates": {"errors", "model"},  # exactly one element by a name, else the candidates listed
    "backends": {"errors", "keys", "model", "settings"},
    "access": {"backends", "errors", "keys", "settings"},  # grants, confinement and the gate on a backend
    "execution": {"backends", "errors", "keys", "model"},  # keys: the chords that select and clear text
    # keys for an element reach it; a long text is pasted
    "text_entry": {"backends", "errors", "execution", "keys", "model", "paste", "settings"},
    "paste": {"backends", "errors", "keys", "settings"},  # a long text through the clipboard, the clipboard put back
    "file_dialogs": {"backends", "errors", "keys", "model"},  # a toolkit's Open/Save dialog, read and driven
    "marks": {"model"},  # label placement: geometry only
    "compact": {"model"},  # what of a state fits its budget: targets only
    "screenshots": {"backends", "errors", "marks", "model", "outputs"},
    "overlays": {"backends", "errors", "model"},  # the status label and teach mode, drawn by a process of their own
    "llm": {"errors", "model", "progress", "settings"},  # progress: a cancelled call stops waiting for the model
    "locate": {"backends", "errors", "files", "llm", "model", "opencv", "progress", "settings"},
    "perception": {
        "backends",
        "prompts",
        "errors",
        "extras",
        "llm",
        "locate",
        "model",
        "opencv",
        "options",
        "screenshots",
        "settings",
    },
    "session": {
        "access",
        "backends",
        "candidates",
        "errors",
        "extras",
        "files",
        "llm",
        "locate",
        "model",
        "perception",
        "progress",
    },
    # the table lists the task runner's `run`/`replay` (commands/tasks.py); the runner drives the
    # table back only through an Actor it is handed (Desktop, or the call being served)
    # (extras: a file-only call, `match` or `locate --in`, says which extra to install without a session)
    "commands": {
        "access",
        "agent",
        "backends",
        "candidates",
        "compact",
        "errors",
        "execution",
        "extras",
        "file_dialogs",
        "files",
        "keys",
        "llm",
        "locate",
        "marks",
        "model",
        "options",
        "outputs",
        "overlays",
        "paste",
        "perception",
        "progress",
        "prompts",
        "screenshots",
        "session",
        "text_entry",
    },
    "render": {"commands", "compact", "errors", "model"},
    "doctor": {"backends", "errors", "extras", "llm", "locate", "settings"},  # core checks; the platform's: backends
    "api": {"api_base", "api_commands", "backends", "commands", "errors", "model", "outputs", "render", "session"},
    "api_base": {"api", "commands"},  # what the generated typed API shares with api
    "api_commands": {"api_base", "commands"},  # generated: a typed method per command
    "api_async": {"api", "api_base", "commands", "model"},  # generated: Desktop's methods, awaited
    "api_source": {"commands"},  # writes the two above
    "agent": {"candidates", "errors", "keys", "llm", "locate", "model", "progress", "settings"},
    "daemon": {
        "_version",
        "api",
        "cli",
        "commands",
        "errors",
        "options",
        "outputs",
        "progress",
        "render",
        "session",
        "settings",
    },
    "cli": {
        "_version",
        "access",
        "api",
        "commands",
        "daemon",
        "doctor",
        "errors",
        "extras",
        "llm",
        "mcp",
        "options",
        "overlays",
        "progress",
        "render",
        "session",
        "settings",
        "skill",
    },
    "mcp": {
        "_version",
        "access",
        "api",
        "backends",
        "commands",
        "errors",
        "keys",
        "model",  # rectangles given back in a computer-use model's pixels (mcp.model_pixels)
        "options",
        "outputs",
        "progress",
        "render",
        "session",  # the digit rule: a name of digits is `name:7` (session.references)
    },
    # other frameworks' computers on the Python API; Anthropic's tool through the MCP tool's translation
    "adapters": {"api", "api_async", "commands", "errors", "keys", "mcp", "model", "render"},
}
# Platform libraries, and the only place each may be imported.
PLATFORM_LIBRARIES = {
    "backends/linux/": {"dbus_fast", "Xlib", "gi", "jeepney", "pyatspi"},
    "backends/windows/win32.py": {"comtypes", "ctypes", "win32api", "win32gui", "pywinauto", "uiautomation"},
    "backends/android/": {"adbutils", "uiautomator2"},
}
PLATFORM_BACKENDS = ("winactions.backends.linux", "winactions.backends.windows", "winactions.backends.android")


def imports(path: Path) -> set[str]:
    """Absolute module names a file imports (`from winactions import x` counts as winactions.x)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            if node.module == "winactions":
                found |= {f"winactions.{alias.name}" for alias in node.names}
    return found


def part(relative: Path) -> str:
    return relative.parts[0].removesuffix(".py")


def test_every_part_of_the_package_is_in_the_allow_list():
    parts = {part(p.relative_to(SRC)) for p in SRC.rglob("*.py")}
    assert parts <= set(ALLOWED), f"add these to ALLOWED: {sorted(parts - set(ALLOWED))}"


def test_each_part_imports_only_what_the_allow_list_says():
    offenders = []
    for path in SRC.rglob("*.py"):
        relative = path.relative_to(SRC)
        mine = part(relative)
        for module in imports(path):
            if not module.startswith("winactions."):
                continue
            target = module.split(".")[1]
            if target != mine and target not in ALLOWED[mine]:
                offenders.append(f"{relative.as_posix()} imports {module}")
    assert not offenders, offenders


def test_platform_code_stays_in_its_backend():
    offenders = []
    for path in SRC.rglob("*.py"):
        relative = path.relative_to(SRC).as_posix()
        for module in imports(path):
            root = module.split(".")[0]
            owners = [owner for owner, libraries in PLATFORM_LIBRARIES.items() if root in libraries]
            if owners and not any(relative.startswith(owner) for owner in owners):
                offenders.append(f"{relative} imports {module}")
            if module.startswith(PLATFORM_BACKENDS) and not relative.startswith("backends/"):
                offenders.append(f"{relative} imports the platform backend {module}")
    assert not offenders, offenders
