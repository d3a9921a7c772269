"""Where `screenshot` (and every command that writes a file) may write, through each front end.

Review (issue 34, item 4): `winctl screenshot notes.txt` replaced a text file with a PNG,
`screenshot /etc/winctl-test-dir/x.png` created that folder on the way, `/proc/self/mem` ended
in `internal error: PermissionError` (the clean-up after a failed save tried to delete it), and
over MCP the model picked any path (`/nonexistent/dir/x.png` created a folder at the root).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import uuid
from pathlib import Path

import anyio
import pytest
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

from tests.conftest import environment, start_app, stop_app
from tests.fixtures.launch import gtk_fixture_command

pytestmark = pytest.mark.desktop
TITLE = "Outputs Fixture"
WINCTL = str(Path(sys.executable).with_name("winctl"))
PNG = b"\x89PNG\r\n\x1a\n"
TEXT = "my notes, not a picture\n"


@pytest.fixture
def app(desktop, tmp_path):
    proc = start_app(desktop, gtk_fixture_command(str(tmp_path / "events.jsonl"), rows=5, title=TITLE), TITLE)
    yield
    stop_app(proc)


@pytest.fixture
def env(desktop, tmp_path):
    runtime = tmp_path / "runtime"
    runtime.mkdir(mode=0o700)
    yield {**desktop.env, "XDG_RUNTIME_DIR": str(runtime)}
    subprocess.run(
        [WINCTL, "session", "close", "--all"],
        env={**desktop.env, "XDG_RUNTIME_DIR": str(runtime)},
        capture_output=True,
        timeout=60,
    )


def winctl(env: dict[str, str], *args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [WINCTL, "--window", TITLE, *args], env=env, capture_output=True, text=True, timeout=120, cwd=cwd
    )


@pytest.mark.parametrize("via", [("--no-daemon",), ("--session", "shots")], ids=["one-shot", "daemon"])
def test_cli_keeps_a_file_that_is_not_a_png_and_creates_no_folder(env, app, tmp_path, via):
    notes = tmp_path / "notes.txt"
    notes.write_text(TEXT)
    refused = winctl(env, *via, "screenshot", str(notes))
    assert refused.returncode != 0 and "not a PNG" in refused.stderr and "--force" in refused.stderr
    assert notes.read_text() == TEXT, "the text file was overwritten"

    missing = tmp_path / "missing" / "dir"
    no_folder = winctl(env, *via, "screenshot", str(missing / "x.png"))
    assert no_folder.returncode != 0 and "does not exist" in no_folder.stderr
    assert not (tmp_path / "missing").exists(), "a folder was created on the way"

    mem = winctl(env, *via, "screenshot", "/proc/self/mem")
    forced_mem = winctl(env, *via, "screenshot", "--force", "/proc/self/mem")
    for done in (mem, forced_mem):
        assert done.returncode != 0 and "internal error" not in done.stderr
        assert done.stderr.startswith("error: ") and "/proc/self/mem" in done.stderr

    again = tmp_path / "shot.png"  # a PNG is replaced, as before: the same command twice works
    assert winctl(env, *via, "screenshot", str(again)).returncode == 0
    assert winctl(env, *via, "screenshot", str(again)).returncode == 0
    assert again.read_bytes().startswith(PNG)

    forced = winctl(env, *via, "screenshot", "--force", str(notes))
    assert forced.returncode == 0, forced.stderr
    assert notes.read_bytes().startswith(PNG)
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".")) == [], "a temporary file was left"


def run_mcp(env: dict[str, str], cwd: Path, out: Path, script):
    params = StdioServerParameters(
        command=WINCTL, args=["mcp", "--tools", "all", "--structured", "--output-dir", str(out)], env=env, cwd=str(cwd)
    )

    async def main():
        async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            await session.call_tool("focus", {"window": TITLE})
            return await script(session)

    return anyio.run(main)


def test_mcp_paths_are_names_inside_the_output_folder(env, app, tmp_path):
    """A model's path is a name in the configured folder: an absolute path, `..`, a symlink
    out of the folder all land inside it; an existing file (or symlink) there is never replaced."""
    work = tmp_path / "a" / "b"
    work.mkdir(parents=True)
    out, outside = tmp_path / "out", tmp_path / "outside"
    out.mkdir()
    outside.mkdir()
    (out / "notes.png").write_text(TEXT)  # the user's, though it is named like ours
    victim = tmp_path / "victim.txt"
    victim.write_text(TEXT)
    (out / "z.png").symlink_to(victim)
    (out / "escape").symlink_to(outside)
    (out / "sub").mkdir()
    root = Path(f"/nonexistent-{uuid.uuid4().hex[:8]}")
    asked = [
        str(root / "dir" / "x.png"),
        "../../y.png",
        "notes.png",
        "z.png",
        "escape/w.png",
        "sub/v.png",
        "/proc/self/mem",
        "zoom",
    ]

    async def script(session):
        got = [await session.call_tool("screenshot", {"path": p}) for p in asked[:-1]]
        got.append(await session.call_tool("zoom", {"x": 0, "y": 0, "width": 20, "height": 20, "path": asked[-1]}))
        return got

    try:
        results = run_mcp(env, work, out, script)
        assert not root.exists(), "a folder was created where the model said"
    finally:
        shutil.rmtree(root, ignore_errors=True)
    paths = []
    for asked_path, result in zip(asked, results, strict=True):
        assert not result.is_error, f"{asked_path}: {result.content[0].text}"
        paths.append(Path(result.structured_content["result"]["path"]))
    real_out = out.resolve()
    assert [p.relative_to(real_out).as_posix() for p in paths] == [
        "x.png",
        "y.png",
        "notes-2.png",
        "z-2.png",
        "w.png",
        "sub/v.png",
        "mem.png",
        "zoom.png",
    ]
    assert all(p.read_bytes().startswith(PNG) for p in paths)
    assert (out / "notes.png").read_text() == TEXT and victim.read_text() == TEXT
    assert not (tmp_path / "y.png").exists() and not list(outside.iterdir())


def test_daemon_structured_call_writes_inside_the_output_folder(env, app, tmp_path, monkeypatch):
    """The daemon's `call` (a program's or a model's) follows the MCP rule, with the folder
    from WINCTL_OUTPUT_DIR; its command lines (`run`) keep the CLI's."""
    from winactions.daemon import client

    out = tmp_path / "out"
    work = tmp_path / "a" / "b"
    work.mkdir(parents=True)
    monkeypatch.chdir(work)
    with environment({**env, "WINCTL_OUTPUT_DIR": str(out)}):
        shot = client.call("calls", "screenshot", {"path": "../../x.png"}, {"window": TITLE})
        default = client.call("calls", "screenshot", {}, {"window": TITLE})
        client.stop("calls")
    assert shot["ok"], shot
    assert Path(shot["result"]["path"]) == out.resolve() / "x.png" and not (tmp_path / "x.png").exists()
    assert default["ok"] and Path(default["result"]["path"]).parent == out.resolve()
    assert os.stat(out).st_mode & 0o777 == 0o700


def test_mcp_run_records_inside_the_output_folder(env, app, tmp_path):
    """`run --record DIR` from a model: the record folder is a name in the output folder, and
    the record's screenshots (the runner's own `screenshot` calls) stay in it."""
    work = tmp_path / "a" / "b"
    work.mkdir(parents=True)
    out = tmp_path / "out"
    # with a criterion: a plan with none ends unverified, an error to an MCP client
    plan = json.dumps({"steps": [{"action": "wait", "params": {"seconds": 0.1}}], "success": {"title_has": TITLE}})

    async def script(session):
        return await session.call_tool("run", {"task": "wait a moment", "plan": plan, "record": "../../rec"})

    result = run_mcp(env, work, out, script)
    assert not result.is_error, result.content[0].text
    record = out.resolve() / "rec"
    assert result.structured_content["result"]["run"]["record"] == str(record)
    assert (record / "run.jsonl").exists() and list(record.glob("step-1-*.png"))
    assert not (tmp_path / "rec").exists()
