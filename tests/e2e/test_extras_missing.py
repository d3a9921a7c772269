"""A base install (no `vision` extra) asked for pixels names the extra to install.

Issue 40 item 16: on `pip install winactions` without extras, `winctl locate --in shot.png
text:File` ended in `internal error: ModuleNotFoundError: No module named 'numpy'`: the
handler imported the locator (which imports numpy) before it checked the extra. Here the
extra's modules are blocked in the winctl process and in the daemon it starts (a
`sitecustomize` on PYTHONPATH puts None in `sys.modules` for them, as if not installed).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image

from tests.conftest import start_app, stop_app

pytestmark = pytest.mark.desktop
WINCTL = str(Path(sys.executable).with_name("winctl"))
BLOCKED = ("numpy", "cv2", "rapidocr", "onnxruntime")
CUSTOMIZE = f"import sys\nsys.modules.update(dict.fromkeys({BLOCKED!r}))\n"


@pytest.fixture
def base_env(desktop, tmp_path) -> dict[str, str]:
    """The desktop's environment with the vision extra's modules unimportable."""
    (tmp_path / "site").mkdir()
    (tmp_path / "site" / "sitecustomize.py").write_text(CUSTOMIZE)
    runtime = tmp_path / "runtime"
    runtime.mkdir(mode=0o700)
    path = os.pathsep.join(p for p in (str(tmp_path / "site"), os.environ.get("PYTHONPATH", "")) if p)
    return {**desktop.env, "XDG_RUNTIME_DIR": str(runtime), "PYTHONPATH": path}


def winctl(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([WINCTL, *args], env=env, capture_output=True, text=True, timeout=120)


def _names_the_extra(done: subprocess.CompletedProcess[str]) -> None:
    assert done.returncode == 5, (done.returncode, done.stderr)
    assert "internal error" not in done.stderr and "ModuleNotFoundError" not in done.stderr, done.stderr
    assert "pip install 'winactions[vision]'" in done.stderr, done.stderr


def test_the_block_holds(base_env):
    done = subprocess.run([sys.executable, "-c", "import numpy"], env=base_env, capture_output=True, text=True)
    assert done.returncode == 1 and "numpy" in done.stderr


def test_file_commands_without_the_vision_extra_name_it(base_env, tmp_path):
    shot = tmp_path / "shot.png"
    Image.new("RGB", (200, 80), "white").save(shot)
    for args in (
        ("locate", "--in", str(shot), "text:File"),
        ("verify-location", "--in", str(shot), "text:File", "--at", "0,0,20,10"),
    ):
        _names_the_extra(winctl({**base_env, "WINCTL_NO_DAEMON": "1"}, *args))


def test_screen_commands_without_the_vision_extra_name_it_in_one_shot_and_daemon(desktop, base_env):
    proc = start_app(desktop, ["xmessage", "-geometry", "+80+80", "File Edit"], "xmessage")
    try:
        _names_the_extra(winctl({**base_env, "WINCTL_NO_DAEMON": "1"}, "--window", "xmessage", "locate", "text:File"))
        try:
            _names_the_extra(winctl(base_env, "--session", "base", "--window", "xmessage", "locate", "text:File"))
        finally:
            winctl(base_env, "session", "close", "base")
    finally:
        stop_app(proc)
