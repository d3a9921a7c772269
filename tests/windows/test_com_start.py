"""UI Automation's COM thread failing to start reaches the user as what failed and what to do.

Issue 40 item 16: a COM thread whose start failed (CoCreateInstance of CUIAutomation where
UIAutomationCore is not registered, say) left the thread pool broken, and every command
ended in `internal error: BrokenThreadPool: A thread initializer failed, the thread pool is
not usable anymore` — nothing about UI Automation, nothing to do about it. The fake Native
layer fails its `init_com_thread` the same way, in-process and in a daemon of its own.
"""

from __future__ import annotations

import subprocess

from tests.windows.conftest import WinWinctl
from tests.windows.helpers import WINCTL, windows_env

NOT_REGISTERED = "[WinError -2147221164] Class not registered"


def _says_what_failed(err: str) -> None:
    assert "internal error" not in err and "BrokenThreadPool" not in err, err
    assert "UI Automation" in err and "Class not registered" in err, err
    assert "hint:" in err and "winctl doctor" in err, err


def test_a_com_thread_that_cannot_start_says_so_in_process(fake, winctl: WinWinctl):
    fake.com_error = NOT_REGISTERED
    for args in (("state",), ("windows",), ("click", "1")):
        run = winctl(*args, expect=None)
        assert run.code == 5, (args, run.code, run.err)
        _says_what_failed(run.err)


def test_a_com_thread_that_cannot_start_says_so_through_the_daemon(tmp_path):
    env = {**windows_env(tmp_path), "WINACTIONS_FAKE_COM_ERROR": NOT_REGISTERED}
    try:
        done = subprocess.run(
            [WINCTL, "--session", "nocom", "state"], env=env, capture_output=True, text=True, timeout=60
        )
        assert done.returncode == 5, (done.returncode, done.stderr)
        _says_what_failed(done.stderr)
    finally:
        subprocess.run([WINCTL, "session", "close", "nocom"], env=env, capture_output=True, timeout=30)
