"""The package as PyPI would hand it out: the sdist and the wheel `python -m build` makes,
each installed into a clean virtual environment, run with nothing of the checkout.

- the sdist holds every file the repository tracks in the folders its tests read, installs,
  and its own tests pass from the unpacked folder (a subset: see SDIST_TESTS);
- the wheel alone runs the README's quick start on Mousepad on the test desktop;
- the wheel with `[mcp]` serves `winctl mcp` to the official MCP SDK's client over stdio, and
  so does `uvx --from 'WHEEL[mcp]' winctl mcp`: a handshake, then `launch` of Mousepad, whose
  window the window manager must then list.

Both files are built once per test session (the `built` fixture), or taken from `DIST_DIR`
when scripts/check_dist.sh has built the ones a release uploads. Clean environments are made
with uv (`uv venv`, `uv pip install`): pip does the same install in 30 s instead of 3 s;
scripts/check_dist.sh installs the wheel with pip itself.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tarfile
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.conftest import ROOT, wait_for_window
from tests.e2e.helpers.apps import stop_windows
from tests.e2e.helpers.mcp_client import run_client
from tests.fixtures.readme import run_quickstart
from tests.fixtures.toolkit_apps import isolated_env

pytestmark = pytest.mark.desktop
BIN = Path(sys.executable).parent
UV = str(BIN / "uv")
UVX = str(BIN / "uvx")
# What the sdist's own run checks: the tests that read the most files of the source tree
# (README.md, docs/, scripts/, the skills, the command table, the suite's own layout) and need
# no desktop, so a file MANIFEST.in leaves out fails them; about 20 s. The desktop suite needs
# apps and a display and runs from the checkout, where the sdist's files are the same.
SDIST_TESTS = (
    "tests/test_declared.py",
    "tests/test_docs.py",
    "tests/test_settings.py",
    "tests/test_layers.py",
    "tests/test_suite_layout.py",
    "tests/test_skill.py",
    "tests/test_command_table.py",
    "tests/test_dist_files.py",
)


@dataclass
class Built:
    sdist: Path
    wheel: Path


def run(argv: list[str], timeout: float = 300, **kwargs) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(argv, capture_output=True, text=True, timeout=timeout, **kwargs)
    assert done.returncode == 0, f"{argv} -> {done.returncode}\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return done


def clean_venv(folder: Path, *requirements: str) -> Path:
    """A virtual environment with no site packages but `requirements`; its bin folder."""
    run([UV, "venv", "-q", "--python", sys.executable, str(folder)])
    run([UV, "pip", "install", "-q", "--python", str(folder / "bin" / "python"), *requirements])
    return folder / "bin"


@pytest.fixture(scope="session")
def built(tmp_path_factory) -> Built:
    """The sdist and the wheel, built once (`python -m build`: the wheel from the sdist)."""
    given = os.environ.get("DIST_DIR")
    out = Path(given) if given else tmp_path_factory.mktemp("dist")
    if not given:
        run([sys.executable, "-m", "build", "--installer", "uv", "--outdir", str(out), str(ROOT)])
    sdists, wheels = sorted(out.glob("winactions-*.tar.gz")), sorted(out.glob("winactions-*.whl"))
    assert len(sdists) == 1 and len(wheels) == 1, sorted(p.name for p in out.iterdir())
    return Built(sdists[0], wheels[0])


@pytest.fixture
def on_desktop(desktop, tmp_path) -> dict[str, str]:
    """The desktop's environment with a fresh home and runtime folder; Mousepad stopped after."""
    runtime = tmp_path / "runtime"
    runtime.mkdir(mode=0o700)
    env = {**desktop.env, **isolated_env(tmp_path / "home"), "XDG_RUNTIME_DIR": str(runtime)}
    yield env
    stop_windows(env, "- Mousepad")


def test_the_sdist_holds_the_tracked_source(built):
    listed = run(["git", "ls-files", "-z"], cwd=ROOT).stdout.split("\0")  # every tracked file
    with tarfile.open(built.sdist) as sdist:
        top = sdist.getnames()[0].split("/")[0]
        inside = {name.removeprefix(top + "/") for name in sdist.getnames()}
    tracked = {name for name in listed if name and (ROOT / name).exists()}  # a file deleted, not committed yet
    assert tracked - inside == set(), f"MANIFEST.in leaves out {sorted(tracked - inside)[:20]}"
    assert {"README.md", "LICENSE", "pyproject.toml", "MANIFEST.in", "CHANGELOG.md"} <= inside


def test_the_sdist_installs_and_its_own_tests_pass(built, tmp_path):
    with tarfile.open(built.sdist) as sdist:
        sdist.extractall(tmp_path, filter="data")
    source = next(tmp_path.glob("winactions-*"))
    bin_ = clean_venv(tmp_path / "venv", f"{source}[mcp]", "pytest>=8", "pytest-timeout>=2.2")
    where = run([str(bin_ / "python"), "-c", "import winactions; print(winactions.__file__)"]).stdout
    assert str(tmp_path / "venv") in where, f"the tests would not run against the installed sdist: {where}"
    done = subprocess.run(
        [str(bin_ / "python"), "-m", "pytest", "-q", "-p", "no:cacheprovider", *SDIST_TESTS],
        cwd=source,
        capture_output=True,
        text=True,
        timeout=300,
        env={k: v for k, v in os.environ.items() if k != "PYTHONPATH"},
    )
    assert done.returncode == 0, done.stdout[-5000:] + done.stderr[-2000:]
    assert re.search(r"\d+ passed", done.stdout) and " failed" not in done.stdout, done.stdout[-2000:]


@pytest.fixture(scope="session")
def wheel_alone(built, tmp_path_factory) -> Path:
    """The wheel with no extra in a clean environment: its bin folder."""
    return clean_venv(tmp_path_factory.mktemp("wheel") / "venv", str(built.wheel))


def test_the_installed_wheel_runs_the_quick_start(wheel_alone, on_desktop, desktop):
    absent = subprocess.run([str(wheel_alone / "python"), "-c", "import mcp"], capture_output=True, text=True)
    assert absent.returncode != 0, "the plain wheel pulled in the [mcp] extra"

    def winctl(args: list[str]) -> str:
        return run([str(wheel_alone / "winctl"), *args], env=on_desktop, timeout=120).stdout

    try:
        run_quickstart(winctl, lambda out: wait_for_window(desktop, "Mousepad"))
    finally:
        subprocess.run([str(wheel_alone / "winctl"), "session", "close", "--all"], env=on_desktop, timeout=60)


async def launch_mousepad(session) -> tuple[list[str], str]:
    """The tools offered, and what `launch mousepad` answered."""
    tools = [tool.name for tool in (await session.list_tools()).tools]
    result = await session.call_tool("launch", {"command": ["mousepad"]})
    assert not result.is_error, result.content
    return tools, " ".join(getattr(part, "text", "") for part in result.content)


def check_mcp_launch(desktop, tmp_path, env: dict[str, str], command: str, args: tuple[str, ...]) -> None:
    tools, said = run_client(desktop, tmp_path, launch_mousepad, args=args, command=command, env=env)
    assert {"launch", "state", "click"} <= set(tools), tools
    assert "Mousepad" in said, said
    wait_for_window(desktop, "Mousepad")  # the window manager lists what the server launched


def test_the_wheel_with_mcp_serves_the_sdk_client(built, tmp_path_factory, on_desktop, desktop, tmp_path):
    bin_ = clean_venv(tmp_path_factory.mktemp("wheel-mcp") / "venv", f"{built.wheel}[mcp]")
    check_mcp_launch(desktop, tmp_path, on_desktop, str(bin_ / "winctl"), ("mcp", "--tools", "core,windows"))


def test_uvx_from_the_wheel_serves_the_sdk_client(built, on_desktop, desktop, tmp_path):
    if shutil.which(UVX) is None:
        pytest.fail("uvx is not installed: run scripts/setup.sh test (the dev group installs uv)")
    args = ("--from", f"{built.wheel}[mcp]", "winctl", "mcp", "--tools", "core,windows")
    cache = run([UV, "cache", "dir"]).stdout.strip()  # the fresh home would start uv's cache empty
    check_mcp_launch(desktop, tmp_path, {**on_desktop, "UV_CACHE_DIR": cache}, UVX, args)
