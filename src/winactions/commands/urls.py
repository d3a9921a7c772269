"""Opening a URL with the platform's own opener: the app the user chose for its scheme (a
browser for https:, a mail client for mailto:, a phone's dialer for tel:)."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import unquote, urlsplit

from pydantic import Field

from winactions.commands.base import Context, Kind, Params, command
from winactions.commands.results import ActionResult
from winactions.errors import InvalidInput, NotFound, shown

SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]+:")  # two letters at least: C:\ is a path
MAX_URL = 8192


class OpenUrlParams(Params):
    url: str = Field(description="the URL, with its scheme: https://example.org, mailto:a@b.org, tel:+15551234567")


@command("open-url", OpenUrlParams, kind=Kind.ACTION, positional=("url",), profiles=("windows", "phone"))
def open_url(ctx: Context, p: OpenUrlParams) -> ActionResult:
    """Open a URL with the platform's opener: the app chosen for its scheme (xdg-open on Linux,
    ShellExecute on Windows, an Android VIEW intent on a phone). The URL needs its scheme;
    a file: URL must name a file that exists. A scheme no app here handles is refused,
    nothing opened. The app opens on its own: run `winctl windows` to find its window."""
    backend = ctx.session.backend
    url = check_url(p.url, local=not backend.one_screen)
    how = backend.open_url(url)
    return ActionResult(action="open-url", method=how, detail=url)


def check_url(url: str, *, local: bool) -> str:
    """`url` stripped, or `InvalidInput`: no scheme, spaces or control characters in it, or
    (`local`: files are this machine's) a file: URL of a file that does not exist."""
    url = url.strip()
    if not url or len(url) > MAX_URL:
        raise InvalidInput(f"a URL of 1 to {MAX_URL} characters is needed", hint="winctl open-url https://example.org")
    if not SCHEME.match(url):
        raise InvalidInput(
            f"{shown(url)} has no scheme",
            hint=f"write it whole: https://{url}" if "." in url.split("/")[0] else "e.g. https://example.org, tel:123",
        )
    if any(c.isspace() or ord(c) < 32 or ord(c) == 127 for c in url):
        raise InvalidInput(f"{shown(url)} holds spaces or control characters", hint="percent-encode them: %20")
    parts = urlsplit(url)
    if parts.scheme.lower() == "file" and local:
        if parts.netloc not in ("", "localhost"):
            raise InvalidInput(f"{shown(url)} names another host's file", hint="file:///path/on/this/machine")
        path = Path(unquote(parts.path))
        if not path.exists():
            raise NotFound(f"no file {shown(str(path))} to open", hint="check the path; file: URLs are absolute")
    return url
