"""A private Linux desktop for demos, tests and benchmarks: Xvfb + session bus + openbox.

One AT-SPI tree exists per session bus, not per display, so every virtual desktop gets its
own `dbus-daemon`; the accessibility bus is activated on it on demand. Without a window
manager activation and focus fail, so openbox runs inside.

    with VirtualDesktop() as desk:
        subprocess.run(["winctl", "windows"], env=desk.env)

or from a shell: `python -m winactions.backends.linux.virtual_desktop -- winctl windows`.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

REQUIRED_PROGRAMS = ("Xvfb", "dbus-daemon", "openbox")


class VirtualDesktop:
    """Start a display, a session bus and a window manager; stop them on exit."""

    def __init__(
        self, width: int = 1920, height: int = 1080, window_manager: bool = True, display: int | None = None
    ) -> None:
        """`display`: this display number (a desktop started again where one was), else the
        first free one."""
        self.width, self.height = width, height
        self.display = display
        self.window_manager = window_manager
        self.env: dict[str, str] = {}
        self._procs: list[subprocess.Popen[bytes]] = []
        self._tmp = tempfile.mkdtemp(prefix="winactions-desktop-")

    # -- lifecycle ---------------------------------------------------------------------
    def start(self) -> VirtualDesktop:
        missing = [p for p in REQUIRED_PROGRAMS if shutil.which(p) is None]
        if missing:
            raise RuntimeError(f"missing programs {missing}: run scripts/setup.sh (apt-get install)")
        env = {k: v for k, v in os.environ.items() if k not in ("NO_AT_BRIDGE", "GTK_MODULES")}
        env["DISPLAY"] = self._start_xvfb()
        env["XDG_RUNTIME_DIR"] = self._tmp
        env["ACCESSIBILITY_ENABLED"] = "1"
        env["DBUS_SESSION_BUS_ADDRESS"] = self._start_session_bus(env)
        self.env = env
        self._enable_accessibility()
        if self.window_manager:
            self._spawn(["openbox", "--sm-disable"], env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            self._wait_for_window_manager()
        return self

    def stop(self) -> None:
        for proc in reversed(self._procs):
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
        for proc in reversed(self._procs):
            try:
                proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                proc.kill()
        self._procs.clear()
        shutil.rmtree(self._tmp, ignore_errors=True)

    def __enter__(self) -> VirtualDesktop:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # -- pieces --------------------------------------------------------------------------
    def _spawn(self, argv: list[str], env: dict[str, str], **kw: object) -> subprocess.Popen[bytes]:
        proc = subprocess.Popen(argv, env=env, stdin=subprocess.DEVNULL, start_new_session=True, **kw)  # type: ignore[call-overload]
        self._procs.append(proc)
        return proc

    def _start_xvfb(self) -> str:
        read_fd, write_fd = os.pipe()
        name = [f":{self.display}"] if self.display is not None else []
        self._spawn(
            [
                "Xvfb",
                *name,
                "-displayfd",
                str(write_fd),
                "-screen",
                "0",
                f"{self.width}x{self.height}x24",
                "-nolisten",
                "tcp",
                "-noreset",
            ],
            dict(os.environ),
            pass_fds=(write_fd,),
            stderr=subprocess.DEVNULL,
        )
        os.close(write_fd)
        with os.fdopen(read_fd) as pipe:
            number = pipe.readline().strip()
        if not number:
            raise RuntimeError("Xvfb did not start")
        return f":{number}"

    def _start_session_bus(self, env: dict[str, str]) -> str:
        proc = self._spawn(
            ["dbus-daemon", "--session", "--nofork", "--print-address=1"],
            env,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
        assert proc.stdout is not None
        address = proc.stdout.readline().decode().strip()
        if not address:
            raise RuntimeError("dbus-daemon did not start")
        return address

    def _enable_accessibility(self) -> None:
        """Toolkits such as Chromium only export their tree when a11y is switched on."""
        subprocess.run(
            [
                "dbus-send",
                "--session",
                "--dest=org.a11y.Bus",
                "--print-reply",
                "/org/a11y/bus",
                "org.freedesktop.DBus.Properties.Set",
                "string:org.a11y.Status",
                "string:IsEnabled",
                "variant:boolean:true",
            ],
            env=self.env,
            check=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            timeout=20,
        )

    def _wait_for_window_manager(self, timeout: float = 10.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            out = subprocess.run(
                ["xprop", "-root", "_NET_SUPPORTING_WM_CHECK"], env=self.env, capture_output=True, text=True
            )
            if "window id" in out.stdout:
                return
            time.sleep(0.05)
        raise RuntimeError("openbox did not start")


def main(argv: list[str]) -> int:
    """Run one command inside a fresh virtual desktop and return its exit code."""
    if "--" in argv:
        argv = argv[argv.index("--") + 1 :]
    if not argv:
        print("usage: python -m winactions.backends.linux.virtual_desktop -- COMMAND...", file=sys.stderr)
        return 2
    with VirtualDesktop() as desk:
        return subprocess.call(argv, env=desk.env)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
