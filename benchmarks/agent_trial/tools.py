"""The tools each arm's agent gets, and the log of every call it makes.

Arms:
- `winctl`: the real `winctl`, everything it offers (pictures included when the agent asks).
- `text`: the real `winctl`, but commands that make a picture are refused: a text-only model.
- `screenshots`: `shot` (the whole screen as a PNG), `zoom X Y W H` (a region at full
  resolution) and `xdo` (xdotool's pointer and keyboard subcommands only).

Each tool is a script in the task folder's `bin/`; it runs the real program, prints what it
printed, and appends one JSON line to `calls.jsonl`: the argv, exit code, bytes of text
printed, pictures made (with their size), seconds. The report reads only that log.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ARMS = {
    "winctl": ("winctl",),
    "text": ("winctl",),
    "screenshots": ("shot", "zoom", "xdo"),
    "runner": ("winctl",),  # `winctl run` as the agent (runner_arm.py)
}
XDO_ALLOWED = {
    "mousemove",
    "mousemove_relative",
    "click",
    "mousedown",
    "mouseup",
    "key",
    "keydown",
    "keyup",
    "type",
    "getmouselocation",
}
PICTURE_COMMANDS = {"screenshot", "zoom"}
VALUE_OPTIONS = {
    "--session",
    "--window",
    "--device",
    "--vision",
    "--infer",
    "--vision-api-key",
    "--vision-base-url",
    "--vision-model",
    "--llm-provider",
    "--infer-min-confidence",
    "--vision-iou",
    "--scope",
}
PICTURE_OPTIONS = {"--screenshot", "--annotated", "--image"}
PNG_PATH = re.compile(r"([^\s'\"=]+\.png)\b")


def install(folder: Path, arm: str, env: dict[str, str]) -> None:
    """Write bin/ and env.sh for `arm` into the task folder."""
    if arm not in ARMS:
        raise SystemExit(f"unknown arm {arm!r}; arms: {', '.join(ARMS)}")
    bindir = folder / "bin"
    bindir.mkdir(exist_ok=True)
    for tool in ARMS[arm]:
        script = bindir / tool
        script.write_text(
            f'#!/bin/sh\nPYTHONPATH="{ROOT}" exec "{sys.executable}" -m benchmarks.agent_trial.tools '
            f'"{folder}" {arm} {tool} "$@"\n'
        )
        script.chmod(0o755)
    keep = (
        "DISPLAY",
        "DBUS_SESSION_BUS_ADDRESS",
        "XDG_RUNTIME_DIR",
        "HOME",
        "XDG_CONFIG_HOME",
        "XDG_CACHE_HOME",
        "XDG_DATA_HOME",
        "XDG_STATE_HOME",
        "LANG",
    )
    lines = [f"export {k}='{env[k]}'" for k in keep if k in env]
    lines.append(f"export PATH='{bindir}:/usr/bin:/bin'")
    lines.append(f"cd '{folder / 'work'}'")
    (folder / "env.sh").write_text("\n".join(lines) + "\n")


def _png_size(path: Path) -> tuple[int, int] | None:
    try:
        head = path.read_bytes()[:24]
    except OSError:
        return None
    if head[:8] != b"\x89PNG\r\n\x1a\n":
        return None
    return int.from_bytes(head[16:20], "big"), int.from_bytes(head[20:24], "big")


def _pictures(text: str, since: float) -> list[dict[str, object]]:
    """PNG files named in a tool's output and written during the call."""
    found = []
    for match in dict.fromkeys(PNG_PATH.findall(text)):
        path = Path(os.getcwd(), match)  # an absolute match stays as it is
        size = _png_size(path)
        if size and path.stat().st_mtime >= since - 1:
            found.append({"path": str(path), "width": size[0], "height": size[1]})
    return found


def _command_word(args: list[str]) -> str | None:
    """The winctl command in `args`, past the global options and their values."""
    skip = False
    for arg in args:
        if skip:
            skip = False
        elif arg.startswith("-"):
            skip = "=" not in arg and arg in VALUE_OPTIONS
        else:
            return arg
    return None


def _refusal(arm: str, tool: str, args: list[str]) -> str | None:
    if tool == "xdo" and (not args or args[0] not in XDO_ALLOWED):
        return f"xdo takes one of {', '.join(sorted(XDO_ALLOWED))}"
    if arm == "text" and (_command_word(args) in PICTURE_COMMANDS or PICTURE_OPTIONS & set(args)):
        return "this arm reads no pictures: screenshot, zoom, --screenshot and --annotated are not available"
    return None


def _command(folder: Path, tool: str, args: list[str]) -> list[str]:
    if tool == "winctl":
        winctl = shutil.which("winctl", path=str(Path(sys.executable).parent)) or "winctl"
        return [winctl, *args]
    if tool == "xdo":
        return ["xdotool", *args]
    shots = folder / "shots"
    shots.mkdir(exist_ok=True)
    out = shots / f"{len(list(shots.iterdir())) + 1:03d}.png"
    code = (
        "import mss, mss.tools, sys\n"
        "with mss.mss() as s:\n"
        "    m = s.monitors[0]\n"
        "    box = {'left': int(sys.argv[2]), 'top': int(sys.argv[3]), 'width': int(sys.argv[4]),"
        " 'height': int(sys.argv[5])} if len(sys.argv) > 2 else m\n"
        "    shot = s.grab(box)\n"
        "    mss.tools.to_png(shot.rgb, shot.size, output=sys.argv[1])\n"
        "print(sys.argv[1], f'{shot.width}x{shot.height}')\n"
    )
    return [sys.executable, "-c", code, str(out), *(args if tool == "zoom" else [])]


def run(folder: Path, arm: str, tool: str, args: list[str]) -> int:
    started = time.time()
    problem = _refusal(arm, tool, args)
    if problem:
        out, err, code = "", f"error: {problem}\n", 2
    else:
        done = subprocess.run(_command(folder, tool, args), capture_output=True, text=True, env=os.environ)
        out, err, code = done.stdout, done.stderr, done.returncode
    sys.stdout.write(out)
    sys.stderr.write(err)
    entry = {
        "t": round(started, 3),
        "seconds": round(time.time() - started, 3),
        "tool": tool,
        "args": args,
        "exit": code,
        "stdout_bytes": len(out.encode()),
        "stderr_bytes": len(err.encode()),
        "pictures": _pictures(out + err, started),
    }
    with (folder / "calls.jsonl").open("a") as f:
        f.write(json.dumps(entry) + "\n")
    return code


if __name__ == "__main__":
    sys.exit(run(Path(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4:]))
