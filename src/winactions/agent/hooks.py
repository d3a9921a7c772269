"""An app module's code: `apps/NAME/handler.py`, loaded by path, its hooks called by the runner.

    def plan(task: str, state: UIState) -> dict | None      # a plan in JSON shape, tried before templates
    def read_file(path: pathlib.Path) -> str                # a saved file's text, in the app's format
    def blocker(state: UIState) -> str | None               # a blocker the generic rules miss, in words

Every hook is optional. A handler is the user's code, run in the runner's process: it is
loaded only when a module that has one is routed to, and only by path (never put on
`sys.path`), so two modules' handlers never shadow each other. A handler that cannot be
imported, or that binds a hook's name to something that is not callable, is an
InvalidInput naming the file; a hook that raises is one naming the file and the hook.
"""

from __future__ import annotations

import importlib.util
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

from winactions.errors import InvalidInput

HOOKS = ("plan", "read_file", "blocker")
Hook = Callable[..., Any]


def load_hooks(path: Path, module_name: str) -> dict[str, Hook]:
    """The hooks `path` defines (none when it does not exist)."""
    if not path.is_file():
        return {}
    spec = importlib.util.spec_from_file_location(f"winactions_app_{module_name}_handler", path)
    if spec is None or spec.loader is None:
        raise InvalidInput(f"app module handler {path} cannot be loaded")
    code = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(code)
    except Exception as exc:  # the user's code: any error it raises is its own, reported as such
        raise InvalidInput(
            f"app module handler {path} failed to load: {_where(exc, path)}",
            hint="fix the handler, or remove it to use the module's templates only",
        ) from None
    hooks: dict[str, Hook] = {}
    for name in HOOKS:
        value = getattr(code, name, None)
        if value is None:
            continue
        if not callable(value):
            raise InvalidInput(f"app module handler {path}: {name} is a {type(value).__name__}, not a function")
        hooks[name] = value
    return hooks


def call_hook(hook: Hook, name: str, folder: Path, *args: Any) -> Any:
    """Run one hook; an exception inside it is an InvalidInput naming the handler and the hook."""
    try:
        return hook(*args)
    except Exception as exc:  # the user's code
        path = folder / "handler.py"
        raise InvalidInput(f"app module handler {path}: {name}() failed: {_where(exc, path)}") from None


def _where(exc: BaseException, path: Path) -> str:
    """The error and the handler's line it came from."""
    lines = [f for f in traceback.extract_tb(exc.__traceback__) if Path(f.filename) == path]
    if isinstance(exc, SyntaxError) and exc.lineno:
        return f"{type(exc).__name__} at line {exc.lineno}: {exc.msg}"
    at = f" at line {lines[-1].lineno}" if lines else ""
    return f"{type(exc).__name__}{at}: {exc}"
