"""What winctl leaves behind: zombies of the daemon, temporary files, daemons nobody lists.

Review (issue 34, item 7): apps started by `launch` that exited stayed zombies of the session
daemon, with their stderr keeper (one `[sh]` for six minutes); every `launch` of a missing
program left an empty `/tmp/winctl-stderr-*.log`; a daemon whose session file was gone
(item 2 made such orphans) was never listed by `winctl sessions`, nor stopped by
`session close --all`.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.desktop
WINCTL = str(Path(sys.executable).with_name("winctl"))
REAPED_WITHIN = 15.0  # seconds: the reaper polls every 0.5 s, but a loaded machine may delay it


class Shell:
    """`winctl` as separate processes, with a private runtime folder and temp folder."""

    def __init__(self, desktop, tmp_path: Path) -> None:
        self.runtime, self.tmp = tmp_path / "runtime", tmp_path / "tmp"
        self.runtime.mkdir(mode=0o700)
        self.tmp.mkdir()
        self.env = {**desktop.env, "XDG_RUNTIME_DIR": str(self.runtime), "TMPDIR": str(self.tmp)}

    def __call__(self, *args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([WINCTL, *args], env=self.env, capture_output=True, text=True, timeout=120)

    def daemon_pid(self, name: str) -> int:
        return int(json.loads((self.runtime / "winactions" / "daemons" / f"{name}.json").read_text())["pid"])


@pytest.fixture
def shell(desktop, tmp_path):
    sh = Shell(desktop, tmp_path)
    yield sh
    sh("session", "close", "--all")


def children(pid: int) -> dict[int, tuple[str, str]]:
    """The children of `pid` now: {pid: (state, command name)}, read from /proc."""
    found = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        name, _, rest = stat.partition("(")[2].rpartition(")")
        fields = rest.split()
        if int(fields[1]) == pid:
            found[int(entry)] = (fields[0], name)
    return found


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0]
    except OSError:
        return False
    return state not in ("Z", "X")


def test_an_app_that_exits_at_once_leaves_no_zombie_in_the_daemon(shell):
    done = shell("--session", "reap", "launch", "--timeout", "5", "--", "sh", "-c", "echo gone >&2; exit 3")
    assert done.returncode != 0 and "gone" in done.stderr, done.stderr  # its last words are still quoted
    daemon = shell.daemon_pid("reap")
    deadline = time.monotonic() + REAPED_WITHIN
    while (zombies := {p: c for p, c in children(daemon).items() if c[0] == "Z"}) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert zombies == {}, f"zombie children of the daemon: {zombies}"


def test_launching_a_missing_program_leaves_no_file(shell):
    done = shell("--session", "missing", "launch", "no-such-program-i34")
    assert done.returncode != 0 and "no program 'no-such-program-i34'" in done.stderr, done.stderr
    assert list(shell.tmp.iterdir()) == [], "a temporary file was left in the temp folder"
    daemon = shell.daemon_pid("missing")
    deadline = time.monotonic() + REAPED_WITHIN
    while any(c[0] == "Z" for c in children(daemon).values()) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert all(c[0] != "Z" for c in children(daemon).values()), f"zombies: {children(daemon)}"
    closed = shell("session", "close", "missing")
    assert closed.returncode == 0, closed.stderr
    left = [p for p in shell.runtime.rglob("*") if "stderr" in p.name]
    assert left == [] and list(shell.tmp.iterdir()) == [], (left, list(shell.tmp.iterdir()))


def test_an_orphaned_daemon_is_listed_and_closed(shell):
    """A daemon whose session file is gone is listed as orphaned, and `session close --all`
    stops it; a daemon of another runtime folder (another desktop, another test run) is left."""
    assert shell("--session", "orphan", "windows").returncode == 0
    assert shell("--session", "kept", "windows").returncode == 0
    orphan, kept = shell.daemon_pid("orphan"), shell.daemon_pid("kept")
    (shell.runtime / "winactions" / "daemons" / "orphan.json").unlink()

    listed = shell("sessions")
    assert f"orphan  pid {orphan}  orphaned" in listed.stdout, listed.stdout
    assert f"kept  pid {kept}" in listed.stdout and f"kept  pid {kept}  orphaned" not in listed.stdout
    data = json.loads(shell("--json", "sessions").stdout)["result"]["sessions"]
    assert {"session": "orphan", "pid": orphan, "orphaned": True} in data

    other = Shell.__new__(Shell)  # the same user, another runtime folder: sees none of these
    other.env = {**shell.env, "XDG_RUNTIME_DIR": str(shell.tmp)}
    assert "orphan" not in other("sessions").stdout
    assert other("session", "close", "--all").returncode == 0 and alive(orphan)

    closed = shell("session", "close", "--all")
    assert closed.returncode == 0 and f"orphan (orphaned pid {orphan})" in closed.stdout, closed.stdout
    assert not alive(orphan) and not alive(kept)
    assert "(no session daemons)" in shell("sessions").stdout
