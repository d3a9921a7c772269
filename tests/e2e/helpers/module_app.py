"""One real app for an app module's tests: launched in a private home through a `Desktop`
session (which then acts on its window), stopped with everything it started."""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.conftest import environment
from tests.e2e.helpers.apps import stop_group
from tests.fixtures.toolkit_apps import isolated_env
from winactions.agent import TaskResult, TaskStatus
from winactions.api import Desktop
from winactions.model import UIState


class ModuleApp:
    """`argv` started by the session's `launch` in `folder/home`; ready once `ready(state)` holds."""

    def __init__(
        self, desk: Any, folder: Path, argv: list[str], ready: Callable[[UIState], bool], session: str = "module"
    ) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "rt").mkdir(mode=0o700, exist_ok=True)
        self.env = {**desk.env, **isolated_env(folder / "home"), "XDG_RUNTIME_DIR": str(folder / "rt")}
        self.argv, self.ready, self.session = argv, ready, session
        self.group = 0

    def __enter__(self) -> ModuleApp:
        self._env = environment(self.env)
        self._env.__enter__()
        self.desktop = Desktop(self.session)
        launched = self.desktop.call("launch", command=self.argv, timeout=90)
        self.group = int(re.search(r"pid (\d+)", launched.detail).group(1))  # type: ignore[union-attr]
        self.window = launched.window
        deadline = time.monotonic() + 60  # slow apps on a busy machine: generous, never asserted on
        state = self.desktop.state()
        while not self.ready(state):
            assert time.monotonic() < deadline, (
                f"{self.argv[0]} never got ready: {[(t.type, t.name) for t in state.targets]}"
            )
            time.sleep(0.5)
            state = self.desktop.state()
        return self

    def __exit__(self, *exc: object) -> None:
        stop_group(self.group)
        self.desktop.close()
        self._env.__exit__(None, None, None)


def template_succeeded(result: TaskResult, module: str, template: str) -> None:
    """The run was planned by `module`'s `template` with no model call, and ended `success`
    (its criteria checked in the app); a failure shows each step's error."""
    steps = [(s.step.description, s.error) for s in result.step_results]
    assert result.status is TaskStatus.SUCCESS, (result.error, steps)
    assert (result.plan_source, result.module, result.template) == ("template", module, template)
    assert result.model["calls"] == 0
