"""Opening a URL on Linux through xdg-open, the user's opener: the app xdg-mime names for the
URL's scheme (`x-scheme-handler/SCHEME`), a web browser for http(s) and files.

xdg-open outside a full desktop runs the handler in its own process and, for a scheme nobody
handles, falls back to a web browser (a browser asked to open tel:123): so a scheme other than
http(s) and file: is opened only when an app is registered for it, and refused otherwise.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from urllib.parse import urlsplit

from winactions.backends.linux.children import reap
from winactions.backends.linux.stderr_keeper import keep_stderr, last_words
from winactions.errors import ActionFailed, Unsupported, shown

WEB = ("http", "https", "file")
OPEN_WAIT = 3.0  # seconds xdg-open is given to fail; still running, the handler it runs is up
NO_METHOD = 3  # xdg-open's exit status: no method available for opening the URL


def open_url(url: str) -> str:
    """Hand `url` to xdg-open; returns how ("xdg-open → firefox.desktop")."""
    opener = shutil.which("xdg-open")
    if opener is None:
        raise Unsupported("xdg-open is not installed here", hint="install xdg-utils; nothing was done")
    scheme = urlsplit(url).scheme.lower()
    handler = _handler(f"x-scheme-handler/{scheme}")
    if not handler and scheme not in WEB:
        raise Unsupported(
            f"no app here opens {scheme}: URLs",
            hint=f"register one: xdg-mime default APP.desktop x-scheme-handler/{scheme}; nothing was done",
        )
    stderr, kept = keep_stderr()
    try:
        proc = subprocess.Popen(
            [opener, url], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=stderr, start_new_session=True
        )
    finally:
        os.close(stderr)
    deadline = time.monotonic() + OPEN_WAIT
    while proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    how = f"xdg-open → {handler or 'the web browser'}"
    if proc.returncode is None:
        reap(proc)  # the handler runs in it: collected when it ends
        kept.discard()
        return how
    said = last_words(kept, settle=True)
    if proc.returncode == 0:
        return how
    if proc.returncode == NO_METHOD:
        raise Unsupported(
            f"nothing here can open {shown(url)}" + (f": {said}" if said else ""), hint="nothing was done"
        )
    raise ActionFailed(
        f"xdg-open could not open {shown(url)} (exit {proc.returncode})" + (f": {said}" if said else ""),
        hint="check the app registered for it: xdg-mime query default x-scheme-handler/" + scheme,
    )


def _handler(mime: str) -> str:
    """The desktop file xdg-mime names for `mime`, or ""."""
    try:
        out = subprocess.run(
            ["xdg-mime", "query", "default", mime], capture_output=True, text=True, timeout=10, check=False
        )
    except (OSError, subprocess.TimeoutExpired):
        return ""
    return out.stdout.strip()
