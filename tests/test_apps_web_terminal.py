"""The chromium and terminal app modules: each template's phrasings route to it, fill every
placeholder its steps and `success:` block use, and steal no other module's tasks.

Run on the real apps by tests/e2e/test_module_chromium.py and test_module_terminal.py.
"""

from __future__ import annotations

import re

import pytest
import yaml

from winactions.agent.apps import BUILTIN, ModuleRegistry

PHRASES = {
    ("chromium", "open_url"): [
        ("open http://127.0.0.1:8000/contact.html in chromium", {"address": "127.0.0.1:8000/contact.html"}),
        ("go to https://www.example.org/docs/", {"url": "https://www.example.org/docs", "address": "example.org/docs"}),
        ("visit example.com", {"url": "example.com", "address": "example.com"}),
        ("browse to wiki.debian.org/Chromium in the browser", {"address": "wiki.debian.org/Chromium"}),
        ("navigate to localhost:8080/admin in chromium", {"url": "localhost:8080/admin"}),
    ],
    ("chromium", "fill_field_and_submit"): [
        ("fill in the City field with Paris and submit", {"field": "City", "value": "Paris"}),
        ("type 'ada@example.com' into the Email box and press enter", {"field": "Email", "value": "ada@example.com"}),
    ],
    ("chromium", "fill_field"): [
        ("type Ada Lovelace into the Name field", {"field": "Name", "value": "Ada Lovelace"}),
        ("fill the Search box with winactions", {"field": "Search", "value": "winactions"}),
        ('enter "12" in the Quantity field on the page', {"field": "Quantity", "value": "12"}),
    ],
    ("chromium", "find_in_page"): [
        ("find 'accessibility trees' on the page", {"text": "accessibility trees"}),
        ("search the page for Postcode", {"text": "Postcode"}),
        ("look for the word checkout in this page", {"text": "checkout"}),
        ('find "Billing" in chromium', {"text": "Billing"}),
    ],
    ("chromium", "go_back"): [
        ("go back to the previous page", {}),
        ("go back in the browser", {}),
        ("navigate back a page in chromium", {}),
    ],
    ("chromium", "reload"): [("reload the page", {}), ("refresh this page", {}), ("reload the browser", {})],
    ("terminal", "run_and_wait_for"): [
        ('run "make" and wait for "Build finished"', {"command": "make", "output": "Build finished"}),
        ("start ./serve.sh in the terminal and wait until it says Listening", {"output": "Listening"}),
    ],
    ("terminal", "cd"): [
        ("cd /tmp", {"folder": "/tmp"}),
        ("change directory to ~/src", {"folder": "~/src"}),
        ("go to the folder /var/log in the terminal", {"folder": "/var/log"}),
    ],
    ("terminal", "run_command"): [
        ("run `ls -l` in the terminal", {"command": "ls -l"}),
        ('execute "git status"', {"command": "git status"}),
        ("run python3 build.py in the shell", {"command": "python3 build.py"}),
        ("type make test in the terminal and press enter", {"command": "make test"}),
    ],
    ("terminal", "answer_yes"): [("answer yes to the prompt", {}), ("say y", {}), ("confirm the prompt", {})],
    ("terminal", "answer_prompt"): [
        ("answer the prompt with Ada Lovelace", {"answer": "Ada Lovelace"}),
        ("reply 'blue' to the question", {"answer": "blue"}),
        ("type hunter2 at the prompt", {"answer": "hunter2"}),
    ],
}
# Tasks of other apps that these modules must leave alone.
OTHERS = [
    "write hello in mousepad and save",
    "open report.odt in writer",
    "go to the folder /tmp",
    "go back",
    "open the Documents folder",
    "type 42 into cell B2",
]
PLACEHOLDER = re.compile(r"\{(\w+)\}")


@pytest.fixture(scope="module")
def registry() -> ModuleRegistry:
    return ModuleRegistry.load()


@pytest.mark.parametrize(("module", "template"), sorted(PHRASES))
def test_each_phrasing_routes_to_its_template(registry, module, template):
    for task, expected in PHRASES[(module, template)]:
        found, score = registry.route(task)
        assert found is not None and found.name == module, (task, found and found.name, score)
        plan = found.template_plan(task)
        assert plan is not None and plan[1] == template, (task, plan and plan[1])
        parameters = plan[0].analysis["parameters"]
        assert expected.items() <= parameters.items(), (task, parameters)


def test_every_template_has_phrasings_here(registry):
    shipped = {(m.name, t.name) for m in registry.modules if m.name in ("chromium", "terminal") for t in m.tasks}
    assert shipped == set(PHRASES)


@pytest.mark.parametrize("task", OTHERS)
def test_other_apps_tasks_are_not_taken(registry, task):
    found, _ = registry.route(task)
    assert found is None or found.name not in ("chromium", "terminal"), (task, found.name)


@pytest.mark.parametrize("module", ["chromium", "terminal"])
def test_every_placeholder_is_a_group_of_every_pattern(module):
    """A `{name}` a pattern does not capture would reach the app (or the check) as is."""
    for task in yaml.safe_load((BUILTIN / module / "tasks.yaml").read_text())["tasks"]:
        used = set(PLACEHOLDER.findall(yaml.safe_dump([task["steps"], task.get("success", {})])))
        assert task.get("success"), f"{module}/{task['name']} has no success: block"
        for pattern in task["patterns"]:
            groups = set(re.compile(pattern).groupindex)
            assert used <= groups, f"{module}/{task['name']}: {pattern} lacks {used - groups}"


def test_module_configs_name_their_processes_and_launch(registry):
    chromium, terminal = registry.get("chromium"), registry.get("terminal")
    assert chromium is not None and chromium.processes == ["chromium"] and chromium.launch == ["chromium"]
    assert terminal is not None and terminal.processes == ["lxterminal"]
    assert terminal.launch == ["lxterminal", "--no-remote"]  # a second one would hand itself to the first
    assert "Address and search bar" in chromium.prompt and "ctrl+shift+c" in terminal.prompt
