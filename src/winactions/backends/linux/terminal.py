"""The terminal emulator `open-terminal` starts on Linux: lxterminal.

lxterminal is a VTE terminal (GTK 3): VTE exposes its screen through AT-SPI as a `terminal`
element with the Text interface (the visible rows, and the caret at the cursor), so an agent
reads what the screen shows without pixels. xterm and urxvt expose no accessibility at all,
and a tmux pane lives inside some other terminal. `--no-remote` gives each window a process
of its own: lxterminal otherwise hands a second window to the first one's process, and the
command's process could not be told apart.
"""

from __future__ import annotations

import shutil
from collections.abc import Sequence

from winactions.errors import Unsupported

EMULATOR = "lxterminal"


def command_line(command: Sequence[str], title: str) -> list[str]:
    """lxterminal's command line for one window titled `title` running `command`; Unsupported
    when lxterminal is not installed."""
    if shutil.which(EMULATOR) is None:
        raise Unsupported(
            "lxterminal is not installed: it is the terminal whose screen winctl can read (VTE)",
            hint="apt-get install lxterminal; nothing was opened",
        )
    return [EMULATOR, "--no-remote", f"--title={title}", "-e", *command]
