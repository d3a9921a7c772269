"""The pcmanfm module's templates on the real PCManFM (GTK 2), checked on disk.

One PCManFM for the whole module, launched with `winctl launch` (which switches on GTK 2's
accessibility bridge) in a private home, so its trash is that home's
`.local/share/Trash`. Every template runs through `TaskRunner` with no model (0 calls), and
once through the `winctl run` CLI; each outcome is read from the folder on disk, never only
from the runner's result.
"""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import environment, run_in_process
from tests.fixtures.toolkit_apps import isolated_env
from winactions.agent import TaskRunner, TaskStatus
from winactions.agent.runner import TaskResult
from winactions.api import Desktop

pytestmark = pytest.mark.desktop


class Files:
    """One PCManFM window on `root`, driven through one Desktop session."""

    def __init__(self, desk, folder: Path) -> None:
        self.root = folder / "files"
        self.root.mkdir(parents=True)
        self.home = folder / "home"
        self.env = {**desk.env, **isolated_env(self.home), "XDG_RUNTIME_DIR": str(folder / "rt")}
        (folder / "rt").mkdir(mode=0o700)

    def __enter__(self) -> Files:
        self._env = environment(self.env)
        self._env.__enter__()
        self.desktop = Desktop("files")
        launched = self.desktop.call("launch", command=["pcmanfm", "--new-win", str(self.root)], title="files")
        self.group = int(launched.detail.split()[-1])
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:  # the tree comes a moment after the window
            if any(t.name == "Folder location bar" for t in self.desktop.state().targets):
                break
            time.sleep(0.2)
        return self

    def __exit__(self, *exc: object) -> None:
        for sig in (signal.SIGTERM, signal.SIGKILL):
            try:
                os.killpg(self.group, sig)
                time.sleep(0.3)
            except ProcessLookupError:
                break
        self.desktop.close()
        self._env.__exit__(None, None, None)

    def run(self, task: str) -> TaskResult:
        result = TaskRunner(self.desktop).run(task)
        assert result.model["calls"] == 0
        return result

    def folder(self, name: str, *files: str) -> Path:
        """A fresh folder under the root holding these small text files."""
        path = self.root / name
        path.mkdir()
        for each in files:
            (path / each).write_text(f"{each}\n")
        return path


def _wait_for(check, timeout: float = 10.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(0.1)
    return check()


@pytest.fixture(scope="module")
def files(desktop, tmp_path_factory) -> Iterator[Files]:
    with Files(desktop, tmp_path_factory.mktemp("pcmanfm")) as app:
        yield app


def _template(result: TaskResult, name: str) -> None:
    assert result.status is TaskStatus.SUCCESS, result.error
    assert (result.plan_source, result.module, result.template) == ("template", "pcmanfm", name)


def test_open_folder_shows_it(files):
    target = files.folder("reports", "q1.txt")
    result = files.run(f"open the folder {target} in the file manager")
    _template(result, "open_folder")
    location = [t for t in files.desktop.state().targets if t.name == "Folder location bar"]
    assert location and location[0].value == str(target)  # the app's own location bar
    assert any(t.name == "q1.txt" for t in files.desktop.state().targets)


def test_create_folder_makes_it_on_disk(files):
    parent = files.folder("work")
    result = files.run(f"create a new folder called Projects in {parent}")
    _template(result, "create_folder")
    assert _wait_for((parent / "Projects").is_dir)


def test_rename_file_renames_it_on_disk(files):
    where = files.folder("drafts", "draft.txt")
    result = files.run(f"rename {where}/draft.txt to final.txt")
    _template(result, "rename_file")
    assert _wait_for((where / "final.txt").is_file)
    assert not (where / "draft.txt").exists()
    assert (where / "final.txt").read_text() == "draft.txt\n"


def test_copy_and_move_file_into_a_folder(files):
    source = files.folder("inbox", "memo.txt", "plan.txt")
    archive = files.folder("archive")
    copied = files.run(f"copy {source}/memo.txt to the folder {archive}")
    _template(copied, "copy_file")
    assert _wait_for((archive / "memo.txt").is_file)
    assert (source / "memo.txt").read_text() == (archive / "memo.txt").read_text() == "memo.txt\n"
    moved = files.run(f"move {source}/plan.txt into {archive}")
    _template(moved, "move_file")
    assert _wait_for((archive / "plan.txt").is_file)
    assert _wait_for(lambda: not (source / "plan.txt").exists())


def test_delete_moves_the_file_to_the_private_trash(files):
    where = files.folder("old", "junk.txt", "keep.txt")
    result = files.run(f"delete {where}/junk.txt")
    _template(result, "trash_file")
    trashed = files.home / ".local/share/Trash"
    assert _wait_for((trashed / "files/junk.txt").is_file)
    assert f"Path={where}/junk.txt" in (trashed / "info/junk.txt.trashinfo").read_text()
    assert not (where / "junk.txt").exists() and (where / "keep.txt").exists()


def test_cli_run_moves_to_the_trash(files):
    where = files.folder("cli", "scratch.txt")
    done = run_in_process(["run", "--session", "files", f"move {where}/scratch.txt to the trash"], files.env)
    assert done.code == 0, done.err
    assert "pcmanfm/trash_file" in done.out + done.err or "trash_file" in done.out + done.err
    assert _wait_for((files.home / ".local/share/Trash/files/scratch.txt").is_file)
    assert not (where / "scratch.txt").exists()


def test_a_folder_that_does_not_exist_is_not_a_success(files):
    parent = files.root / "missing"
    result = files.run(f"create a folder named Projects in {parent}")
    assert result.status is not TaskStatus.SUCCESS
    assert not parent.exists()
    # PCManFM said so in its own dialog; close it for the next test
    if any(t.name == "Error" for t in files.desktop.state().targets):
        files.desktop.call("keys", keys="Escape")
