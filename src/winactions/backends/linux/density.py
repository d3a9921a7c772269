"""The pixel density an X11 app was told to draw at, read from its own process.

X11 has no per-window scale: each toolkit takes it from its environment or command line —
GTK's GDK_SCALE (whole numbers), Qt's QT_SCALE_FACTOR, Java's `-Dsun.java2d.uiScale=`,
Chromium's and Electron's `--force-device-scale-factor=`. The process says what it was told
in /proc/PID/environ and /proc/PID/cmdline (readable for the user's own processes). A
desktop that scales GTK through XSETTINGS instead leaves no trace there; the backend then
tells the scale from the app's tree (`Placement`).
"""

from __future__ import annotations

from pathlib import Path

ENVIRONMENT = ("GDK_SCALE", "QT_SCALE_FACTOR")  # the first one set wins: an app has one toolkit
ARGUMENTS = ("-Dsun.java2d.uiScale=", "--force-device-scale-factor=")
JAVA_OPTIONS = ("JAVA_TOOL_OPTIONS", "_JAVA_OPTIONS", "JDK_JAVA_OPTIONS")  # where Java also takes its -D


def told(pid: int | None, proc: Path = Path("/proc")) -> float | None:
    """The scale process `pid` was started with, or None when it was told none (or cannot be read)."""
    if not pid:
        return None
    try:
        environ = (proc / str(pid) / "environ").read_bytes().split(b"\0")
        argv = (proc / str(pid) / "cmdline").read_bytes().split(b"\0")
    except OSError:
        return None
    variables = dict(entry.split(b"=", 1) for entry in environ if b"=" in entry)
    for name in ENVIRONMENT:
        value = _number(variables.get(name.encode(), b"").decode(errors="replace"))
        if value is not None:
            return value
    arguments = [a.decode(errors="replace") for a in argv]
    arguments += [
        word for name in JAVA_OPTIONS for word in variables.get(name.encode(), b"").decode(errors="replace").split()
    ]
    for argument in arguments:
        for prefix in ARGUMENTS:
            if argument.startswith(prefix):
                return _number(argument[len(prefix) :].removesuffix("x"))  # Java also takes "2x"
    return None


def _number(text: str) -> float | None:
    try:
        value = float(text)
    except ValueError:
        return None
    return value if value > 0 else None
