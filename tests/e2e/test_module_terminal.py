"""The terminal app module's templates on a real LXTerminal running bash, with no model.

What a template did is read from the shell's side: the files the commands wrote, the shell's
working folder (/proc/PID/cwd) and the screen the terminal shows, never only from the
runner's result.
"""

from __future__ import annotations

import shutil
import time
from collections.abc import Iterator
from pathlib import Path

import psutil
import pytest

from tests.e2e.helpers.apps import wait_for_file
from tests.e2e.helpers.module_app import ModuleApp, template_succeeded
from winactions.agent import TaskRunner, TaskStatus
from winactions.agent.runner import TaskResult

pytestmark = pytest.mark.desktop


@pytest.fixture(scope="module")
def terminal(desktop, tmp_path_factory) -> Iterator[ModuleApp]:
    if shutil.which("lxterminal") is None:
        pytest.fail("lxterminal is not installed: run scripts/setup.sh test (scripts/packages/demo.txt)")
    folder = tmp_path_factory.mktemp("terminal")
    work = folder / "work"
    work.mkdir()
    argv = ["lxterminal", "--no-remote", f"--working-directory={work}", "-e", "bash --norc --noprofile"]

    def ready(state) -> bool:
        return any(t.name == "Terminal" and t.screen for t in state.targets)

    with ModuleApp(desktop, folder, argv, ready, session="terminal-module") as app:
        app.work = work  # type: ignore[attr-defined]
        yield app


def run(app: ModuleApp, task: str) -> TaskResult:
    return TaskRunner(app.desktop, max_model_calls=0).run(task)


def succeeded(result: TaskResult, template: str) -> None:
    template_succeeded(result, "terminal", template)


def shell_of(app: ModuleApp) -> psutil.Process:
    """The bash the terminal runs (a child of the launched lxterminal)."""
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        shells = [p for p in psutil.Process(app.group).children(recursive=True) if p.name() == "bash"]
        if shells:
            return shells[0]
        time.sleep(0.2)
    raise AssertionError("the terminal runs no bash")


def screen(app: ModuleApp) -> list[str]:
    return next(t.screen for t in app.desktop.state().targets if t.name == "Terminal")


def test_run_a_command_waits_for_its_end(terminal):
    work: Path = terminal.work  # type: ignore[attr-defined]
    succeeded(run(terminal, "run `printf 'made by %s\\n' bash > made.txt` in the terminal"), "run_command")
    assert (work / "made.txt").read_text() == "made by bash\n"  # written before the run said done
    assert "[exit: 0]" in screen(terminal)  # what its success: block checks


def test_cd_changes_the_shells_folder(terminal, tmp_path):
    target = tmp_path / "elsewhere"
    target.mkdir()
    succeeded(run(terminal, f"cd {target}"), "cd")
    assert Path(shell_of(terminal).cwd()) == target
    assert str(target) in screen(terminal)  # pwd printed it


def test_run_and_wait_for_a_line_of_output(terminal, tmp_path):
    """A script that counts slowly: the run waits for its last line, which it prints after
    writing its file."""
    script = tmp_path / "count.sh"
    script.write_text(f"for i in 1 2 3; do sleep 0.5; echo counted $i; done > /dev/tty; touch {tmp_path}/counted\n")
    succeeded(run(terminal, f'run "bash {script}" and wait for "counted 3"'), "run_and_wait_for")
    assert any(row == "counted 3" for row in screen(terminal))


def test_answer_a_programs_prompts(terminal, tmp_path, winctl):
    """bash's read -p: the answer reaches the program (it writes what it read); the yes/no
    question is answered through the `winctl run` CLI."""
    name, yes = tmp_path / "name.txt", tmp_path / "yes.txt"
    terminal.desktop.call("type", text=f'read -p "Name: " n; printf %s "$n" > {name}')
    terminal.desktop.call("keys", keys="Enter")
    succeeded(run(terminal, "answer the prompt with Ada Lovelace"), "answer_prompt")
    assert wait_for_file(name, "Ada Lovelace") == "Ada Lovelace"

    terminal.desktop.call("type", text=f'read -p "Continue? [y/N] " a; printf %s "$a" > {yes}')
    terminal.desktop.call("keys", keys="Enter")
    # nothing on the screen shows that the program took a "y": the run says so (exit 10)
    out = winctl("--window", "lxterminal", "run", "answer yes to the prompt", expect=10).out
    assert out.startswith("unverified:") and "0 model calls" in out and "the program took the answer y" in out, out
    assert wait_for_file(yes, "y") == "y"


def test_a_failing_command_is_not_a_success(terminal):
    """ls of a missing folder exits 2: the screen shows "[exit: 2]", and the run fails."""
    result = run(terminal, "run `ls /no/such/folder` in the terminal")
    assert result.status is not TaskStatus.SUCCESS
    assert "[exit: 0]" in result.error, result.error
    assert any("[exit: 2]" in row for row in screen(terminal))
    assert result.model["calls"] == 0
