"""The Python API (issue 12) on the Windows backend's fake: typed results, the CLI's errors
with hints for Python, every command reachable, commands a backend cannot do refused, and a
missing extra named. The same API on the real Linux desktop: tests/e2e/test_api.py."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import winactions
from tests.fixtures.windows.fake_native import FakeNative, load_app
from winactions import ActionResult, Desktop, InvalidInput, NotFound, UIState, Unsupported
from winactions.backends.base import Capability
from winactions.backends.windows.backend import WindowsBackend
from winactions.commands.base import load_commands


@pytest.fixture
def desktop(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(tmp_path))
    fake = FakeNative([load_app("calculator"), load_app("settings")])
    with Desktop("api", window="Calculator", backend=WindowsBackend(native=fake)) as d:
        yield d, fake


def test_the_package_exports_its_api_lazily():
    code = "import sys, winactions; print(sorted(m for m in sys.modules if m.split('.')[0] in ('pydantic', 'click')))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]", "import winactions must stay cheap: the thin winctl client lives in it"
    assert winactions.__version__ and "Desktop" in winactions.__all__
    for name in winactions.__all__:
        assert getattr(winactions, name) is not None, name
    with pytest.raises(AttributeError):
        winactions.Dekstop  # noqa: B018 - a typo is an error, not a search


def test_state_click_and_text_are_typed_and_act(desktop):
    d, _fake = desktop
    state = d.state()
    assert isinstance(state, UIState) and state.window.title == "Calculator"
    ids = {t.automation_id: t.id for t in state.targets if t.automation_id}
    for key in ("num6Button", "multiplyButton", "num7Button", "equalButton"):
        result = d.click(ids[key])
        assert isinstance(result, ActionResult) and result.method == "Invoke.Invoke"
    display = next(t for t in d.state().targets if t.automation_id == "CalculatorResults")
    assert display.name == "Display is 42"
    assert d.get_text(display.id) == "Display is 42"
    assert d.call("get value", id=display.id).value == "Display is 42"


def test_errors_are_the_clis_with_hints_for_python(desktop):
    d, _ = desktop
    d.state()
    with pytest.raises(NotFound) as caught:
        d.click(99999)
    assert caught.value.code == "not_found" and "Desktop.call('state')" in caught.value.hint
    assert "winctl" not in caught.value.hint
    with pytest.raises(winactions.InvalidInput, match="unknown command"):
        d.call("frobnicate")
    with pytest.raises(winactions.InvalidInput, match="bogus"):
        d.call("click", id=1, bogus=True)


def test_every_command_of_the_table_is_reachable_by_its_name(desktop):
    d, _ = desktop
    for cmd in load_commands().values():
        for spelling in {cmd.name, cmd.tool_name}:
            assert d._command(spelling) is load_commands()[cmd.name]
    # the Windows backend can do all a desktop can, but draw winctl's overlays and read a
    # terminal's screen (both X11 only)
    not_here = (Capability.DEVICE, Capability.OVERLAYS, Capability.TERMINAL)
    phone_only = {c.name for c in load_commands().values() if c.capability in not_here}
    assert set(d.commands()) == set(load_commands()) - phone_only
    d.state()
    for name in load_commands():  # called bare: each runs, or says what it needs — never a Python error
        try:
            result = d.call(name)
        except winactions.WinctlError as error:
            allowed = ("unsupported",) if name in phone_only else ("invalid_input", "not_found", "action_failed")
            allowed += ("invalid_input",) if load_commands()[name].capability in not_here else ()
            assert error.code in allowed, (name, error.code, error.message)
        else:
            assert isinstance(result, winactions.Result), name


def test_a_command_the_backend_cannot_do_is_refused_and_not_listed(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(tmp_path))
    monkeypatch.setattr(WindowsBackend, "capabilities", frozenset(Capability) - {Capability.HOLD_KEY})
    from winactions.mcp.server import ToolRunner

    fake = FakeNative([load_app("notepad")])
    with Desktop("caps", window="Notepad", backend=WindowsBackend(native=fake)) as d:
        with pytest.raises(Unsupported, match="hold-key is not available on the windows backend"):
            d.call("hold-key", keys="shift", seconds=0.1)
        assert "hold-key" not in d.commands()
    runner = ToolRunner("caps-mcp", backend=WindowsBackend(native=fake), structured=True)
    try:
        assert "hold_key" not in {t.name for t in runner.tools()}
        refused = runner.call("hold_key", {"keys": "shift", "seconds": 0.1})
        assert refused.is_error and refused.structured_content["error"]["code"] == "unsupported"
    finally:
        runner.close()


def test_paths_are_used_as_given_or_confined_to_the_output_dir(tmp_path, monkeypatch):
    """A program's path is used as given, but never over a file that is not a PNG (unless
    `force`) nor in a folder that does not exist; with `output_dir` (paths a model chose) it is
    a name inside that folder and replaces nothing (issue 34, item 4)."""
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(tmp_path))
    notes = tmp_path / "notes.txt"
    notes.write_text("mine")
    fake = FakeNative([load_app("calculator")])
    with Desktop("paths", window="Calculator", backend=WindowsBackend(native=fake)) as d:
        with pytest.raises(InvalidInput, match="not a PNG"):
            d.screenshot(str(notes))
        with pytest.raises(InvalidInput, match="does not exist"):
            d.screenshot(str(tmp_path / "no" / "x.png"))
        assert notes.read_text() == "mine" and not (tmp_path / "no").exists()
        assert d.call("screenshot", path=str(notes), force=True).path == str(notes)
    out = tmp_path / "out"
    with Desktop("paths", window="Calculator", backend=WindowsBackend(native=fake), output_dir=out) as d:
        first, second = d.screenshot("../../x.png"), d.screenshot("/elsewhere/x.png")
    assert (first.path, second.path) == (str(out.resolve() / "x.png"), str(out.resolve() / "x-2.png"))
    assert not (tmp_path / "x.png").exists() and not Path("/elsewhere").exists()


BLOCK_NUMPY = """
import sys, importlib.abc
class Missing(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split('.')[0] in ('numpy', 'cv2'):
            raise ModuleNotFoundError(f"No module named {name!r}")
sys.meta_path.insert(0, Missing())
from winactions.cli.app import main
main(sys.argv[1:])
"""


def test_a_missing_extra_is_named_not_a_module_not_found(tmp_path):
    """`pip install winactions` without [vision]: `click text:7` says which extra to install."""
    env = {
        "XDG_RUNTIME_DIR": str(tmp_path),
        "WINACTIONS_BACKEND": "windows",
        "PATH": "/usr/bin:/bin",
        "WINACTIONS_WINDOWS_NATIVE": "tests.fixtures.windows.fake_native:create",
        "WINACTIONS_FAKE_APPS": "calculator",
        "PYTHONPATH": ":".join(sys.path),
    }
    done = subprocess.run(
        [sys.executable, "-c", BLOCK_NUMPY, "--window", "Calculator", "click", "text:7"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 5, done.stderr
    assert "numpy, cv2 are not installed" in done.stderr and "pip install 'winactions[vision]'" in done.stderr
    assert "internal error" not in done.stderr and "ModuleNotFoundError" not in done.stderr
