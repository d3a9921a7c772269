"""The pcmanfm module routes the tasks people phrase for a file manager, and no one else's."""

from __future__ import annotations

import pytest
from benchmarks.agent_trial.tasks import TASKS

from winactions.agent.apps import ModuleRegistry

EXAMPLES = {
    "open the folder /srv/reports in the file manager": ("open_folder", {"path": "/srv/reports", "base": "reports"}),
    "in pcmanfm, go to the directory '/home/ada/My Files/'": (
        "open_folder",
        {"path": "/home/ada/My Files", "base": "My Files"},
    ),
    "create a new folder called Projects in /home/ada": (
        "create_folder",
        {"folder": "Projects", "path": "/home/ada", "base": "ada"},
    ),
    "rename /home/ada/draft.txt to final.txt": (
        "rename_file",
        {"dir": "/home/ada/", "name": "draft.txt", "new": "final.txt"},
    ),
    "make a copy of /home/ada/memo.txt in /home/ada/archive": (
        "copy_file",
        {"dir": "/home/ada/", "name": "memo.txt", "dest": "/home/ada/archive", "base": "archive"},
    ),
    "move the file /tmp/in/plan.txt into the folder /tmp/done/": (
        "move_file",
        {"dir": "/tmp/in/", "name": "plan.txt", "dest": "/tmp/done", "base": "done"},
    ),
    "delete /tmp/old/junk.txt": ("trash_file", {"dir": "/tmp/old/", "name": "junk.txt"}),
    "put /tmp/old/junk.txt in the trash": ("trash_file", {"dir": "/tmp/old/", "name": "junk.txt"}),
}


@pytest.mark.parametrize("task", EXAMPLES)
def test_each_template_routes_its_phrasing(task):
    module, score = ModuleRegistry.load().route(task)
    assert module is not None and module.name == "pcmanfm" and score >= 0.5
    plan, template = module.template_plan(task)
    assert (template, plan.analysis["parameters"]) == EXAMPLES[task]


@pytest.mark.parametrize(
    "task",
    [
        'write "x" in mousepad and save',
        "add line 'checked' in mousepad and save it",
        *(t.instructions.format(work="/tmp/w") for t in TASKS.values()),
    ],
)
def test_other_apps_tasks_are_not_taken(task):
    module, _ = ModuleRegistry.load().route(task)
    assert module is None or module.name != "pcmanfm"
