"""Per-app modules: what we know about an app, so common tasks cost no model call.

    apps/NAME/config.yaml   name, processes (desktop) / packages (Android), keywords,
                            home: {marker, keys, limit}, blockers: [button names], launch: [argv],
                            window: a regex of the main window's title (not its dialogs')
    apps/NAME/tasks.yaml    tasks: [{name, patterns: [regex with (?P<param>…)], steps: [StepPlan…],
                            success: {criteria checked by code, `agent.success`}}]
    apps/NAME/images/       reference images; aliases.yaml maps other names onto them
    apps/NAME/prompts/planner.txt   extra instructions for the model planner (optional)
    apps/NAME/handler.py    code hooks (optional): plan(task, state), read_file(path), blocker(state)

Routing scores a module: a task pattern matches 0.5, a keyword 0.4, the process or
package named in the task (or in front) 0.1. Modules ship in `winactions/agent/apps/`;
`WINCTL_APPS` (os.pathsep-separated folders) and `apps=` add the user's, which win by name.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from winactions import settings
from winactions.agent.hooks import HOOKS, Hook, load_hooks
from winactions.agent.plan import TaskPlan, parse_plan
from winactions.agent.success import parse_success
from winactions.errors import InvalidInput

BUILTIN = Path(__file__).resolve().parent / "apps"
TEMPLATE_WEIGHT, KEYWORD_WEIGHT, PROCESS_WEIGHT = 0.5, 0.4, 0.1
_PLACEHOLDER = re.compile(r"\{(\w+)\}")
_ALTERNATE = re.compile(r"_\d+$")  # `text_2`: another spelling of the group `text`


@dataclass
class TaskTemplate:
    name: str
    patterns: list[re.Pattern[str]]
    steps: list[dict[str, Any]]
    success_criteria: str = ""
    success: dict[str, Any] | None = None  # checked by code after the last step, {param}s filled

    def match(self, task: str) -> dict[str, str] | None:
        """The task's parameters when a pattern matches the whole task. A group named
        `NAME_2`, `NAME_3`… is another spelling of `NAME` (a regex cannot name two groups
        alike): `"(?P<text>[^"]+)"|'(?P<text_2>[^']+)'` reads quoted text either way."""
        for pattern in self.patterns:
            found = pattern.fullmatch(task.strip())
            if found:
                return {_ALTERNATE.sub("", k): v.strip() for k, v in found.groupdict().items() if v is not None}
        return None


@dataclass
class AppModule:
    name: str
    folder: Path
    processes: list[str] = field(default_factory=list)
    packages: list[str] = field(default_factory=list)
    keywords: list[str] = field(default_factory=list)
    home: dict[str, Any] = field(default_factory=dict)
    blockers: list[str] = field(default_factory=list)
    launch: list[str] = field(default_factory=list)
    window: str | None = None  # a regex of the main window's title: the runner acts there
    tasks: list[TaskTemplate] = field(default_factory=list)
    prompt: str = ""
    _hooks: dict[str, Hook] | None = field(default=None, repr=False)

    @property
    def images(self) -> Path:
        return self.folder / "images"

    def hook(self, name: str) -> Hook | None:
        """The function `name` of the module's `handler.py` (one of `HOOKS`), or None when the
        module has no handler or the handler does not define it. The handler is loaded by path
        on first use; a handler that does not import, or defines a hook that is not a
        function, is an InvalidInput naming the file."""
        if name not in HOOKS:
            raise InvalidInput(f"{name!r} is not an app module hook", hint=f"hooks: {', '.join(HOOKS)}")
        if self._hooks is None:
            self._hooks = load_hooks(self.folder / "handler.py", self.name)
        return self._hooks.get(name)

    def score(self, task: str, foreground: str = "", title: str = "") -> float:
        """The routing score for this task (and the process in front, if known: it counts only
        when its window `title` fits the module's `window` pattern, so Calc and Writer — one
        process — are told apart by the window in front)."""
        text = task.casefold()
        score = TEMPLATE_WEIGHT if any(t.match(task) is not None for t in self.tasks) else 0.0
        if any(_word_in(k.casefold(), text) for k in self.keywords):
            score += KEYWORD_WEIGHT
        names = [n.casefold() for n in (*self.processes, *self.packages)]
        in_front = bool(foreground) and foreground.casefold() in names and self.fits(title)
        if any(_word_in(n, text) for n in names) or in_front:
            score += PROCESS_WEIGHT
        return round(score, 3)

    def fits(self, title: str) -> bool:
        """Whether a window of this title may be this module's (no `window` pattern, or no title: yes)."""
        if not self.window or not title:
            return True
        try:
            return re.search(self.window, title) is not None
        except re.error:
            return False  # the runner says so when it selects the window (agent.apptarget)

    def template_plan(self, task: str) -> tuple[TaskPlan, str] | None:
        """The plan of the first task template matching `task`, its parameters filled in."""
        for template in self.tasks:
            values = template.match(task)
            if values is None:
                continue
            steps = [_fill(step, values) for step in template.steps]
            plan = parse_plan(
                {
                    "analysis": {"template": f"{self.name}/{template.name}", "parameters": values},
                    "steps": steps,
                    "success_criteria": template.success_criteria,
                    "success": _fill(template.success, values),
                },
                where=f"template {self.name}/{template.name}",
            )
            return plan, template.name
        return None


def _word_in(word: str, text: str) -> bool:
    return bool(word) and re.search(rf"(?<!\w){re.escape(word)}(?!\w)", text) is not None


def _fill(value: Any, values: dict[str, str]) -> Any:
    """`{param}` in every string of a template step replaced by the task's words."""
    if isinstance(value, str):
        return _PLACEHOLDER.sub(lambda m: values.get(m.group(1), m.group(0)), value)
    if isinstance(value, list):
        return [_fill(v, values) for v in value]
    if isinstance(value, dict):
        return {k: _fill(v, values) for k, v in value.items()}
    return value


def _yaml(path: Path) -> Any:
    try:
        return yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    except (OSError, yaml.YAMLError) as exc:
        raise InvalidInput(
            f"app module file {path} cannot be read: {exc}".splitlines()[0],
            hint="fix the YAML (see winactions/agent/apps/mousepad for an example)",
        ) from None


def load_module(folder: Path) -> AppModule:
    """One module from its folder; a broken file is an error naming it."""
    config = _yaml(folder / "config.yaml") if (folder / "config.yaml").exists() else {}
    if not isinstance(config, dict):
        raise InvalidInput(f"{folder / 'config.yaml'} must be a mapping")
    module = AppModule(
        name=str(config.get("name") or folder.name),
        folder=folder,
        processes=_strings(config, "processes"),
        packages=_strings(config, "packages"),
        keywords=_strings(config, "keywords"),
        home=dict(config.get("home") or {}),
        blockers=_strings(config, "blockers"),
        launch=_strings(config, "launch"),
        window=str(config["window"]) if config.get("window") else None,
    )
    tasks_file = folder / "tasks.yaml"
    raw_tasks = (_yaml(tasks_file) or {}).get("tasks", []) if tasks_file.exists() else []
    for index, raw in enumerate(raw_tasks, 1):
        where = f"{tasks_file} task {index}"
        if not isinstance(raw, dict) or not isinstance(raw.get("steps"), list):
            raise InvalidInput(f"{where} needs steps (a list)")
        try:
            patterns = [re.compile(p, re.IGNORECASE) for p in raw.get("patterns") or []]
        except re.error as exc:
            raise InvalidInput(f"{where}: a pattern is not a regular expression: {exc}") from None
        template = TaskTemplate(
            str(raw.get("name") or f"task{index}"),
            patterns,
            raw["steps"],
            str(raw.get("success_criteria") or ""),
            raw.get("success"),
        )
        parse_plan({"steps": [_fill(s, {}) for s in template.steps]}, where=where)  # shape checked on load
        if template.success is not None:
            parse_success(template.success, where=f"{tasks_file} task {template.name}")
        module.tasks.append(template)
    prompt = folder / "prompts" / "planner.txt"
    module.prompt = prompt.read_text(encoding="utf-8") if prompt.exists() else ""
    return module


def _strings(config: dict[str, Any], key: str) -> list[str]:
    value = config.get(key) or []
    if isinstance(value, str):
        return [value]
    return [str(v) for v in value]


class ModuleRegistry:
    """Every known app module, and routing of a task to one of them."""

    def __init__(self, modules: list[AppModule]) -> None:
        self.modules = modules

    @classmethod
    def load(cls, extra: Sequence[str | Path] | None = None) -> ModuleRegistry:
        folders = [BUILTIN, *(Path(p) for p in settings.APPS.read()), *(Path(p) for p in extra or [])]
        found: dict[str, AppModule] = {}
        for root in folders:
            if not root.is_dir():
                if root != BUILTIN:
                    raise InvalidInput(f"app modules folder {root} does not exist", hint="check WINCTL_APPS or --apps")
                continue
            for folder in sorted(p for p in root.iterdir() if p.is_dir() and not p.name.startswith(("_", "."))):
                module = load_module(folder)
                found[module.name] = module  # later folders (the user's) win
        return cls(list(found.values()))

    def route(self, task: str, foreground: str = "", title: str = "") -> tuple[AppModule | None, float]:
        """The best-scoring module for the task (None when nothing scores); `foreground` and
        `title` are the process and title of the window in front."""
        best: tuple[AppModule | None, float] = (None, 0.0)
        for module in self.modules:
            score = module.score(task, foreground, title)
            if score > best[1]:
                best = (module, score)
        return best

    def get(self, name: str) -> AppModule | None:
        return next((m for m in self.modules if m.name == name), None)
