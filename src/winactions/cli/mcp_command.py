"""`winctl mcp`: the MCP server's command line (its transport, profile, access and HTTP options)."""

from __future__ import annotations

from typing import Any

import click

from winactions import settings
from winactions.cli.app import _fail, mcp_session
from winactions.errors import InvalidInput, WinctlError
from winactions.mcp import profiles


def add_mcp_command(cli: click.Group) -> None:
    """Add `mcp` to the CLI."""

    @cli.command("mcp")
    @click.option("--tools", "profile", default=profiles.DEFAULT, show_default=True, help=profiles.tools_help())
    @click.option(
        "--output-dir",
        type=click.Path(file_okay=False),
        envvar=settings.OUTPUT_DIR.name,
        show_envvar=True,
        help="the folder files the tools write go into (a tool's path is a name in it; nothing there "
        "is replaced)  [default: the session's folder in the runtime folder]",
    )
    @click.option(
        "--structured",
        is_flag=True,
        help="also send each result as JSON (structuredContent), for programs that read it; a model "
        "host then shows the model the JSON, or both",
    )
    @click.option(
        "--confine", is_flag=True, help="act only on granted apps (--grant, the policy file, a person's Allow)"
    )
    @click.option("--grant", "grant", multiple=True, metavar="APP", help="grant this app (repeat for more)")
    @click.option("--clipboard-read", is_flag=True, help="confined: grant reading the clipboard")
    @click.option("--clipboard-write", is_flag=True, help="confined: grant writing the clipboard")
    @click.option("--system-keys", is_flag=True, help="confined: grant system key combos (alt+f4, alt+tab, super...)")
    @click.option(
        "--exclude-tools", metavar="A,B", default="", help="leave out these tools (names as listed: get_text)"
    )
    @click.option(
        "--screen-pixels",
        is_flag=True,
        help="with --tools computer or computer-use: send screenshots at the screen's size and take screen "
        "pixels (by default they are shrunk as Anthropic's API shrinks them, over 1568 px a side or about "
        "1.15 megapixels, and coordinates are the picture's pixels)",
    )
    @click.option("--http", is_flag=True, help="serve streamable HTTP with a bearer token instead of stdio")
    @click.option("--host", default=None, help="with --http: the address to listen on  [default: 127.0.0.1]")
    @click.option(
        "--port", type=click.IntRange(0, 65535), default=8765, show_default=True, help="with --http (0: any free port)"
    )
    @click.option(
        "--token-file",
        type=click.Path(dir_okay=False),
        help="with --http: the bearer token clients send  [default: made at start, printed once]",
    )
    @click.option(
        "--allow-host",
        multiple=True,
        metavar="NAME",
        help="with --http: another name clients reach this server by (a proxy's, a port mapping's); repeat for more",
    )
    @click.pass_context
    def mcp_command(ctx: click.Context, profile: str, output_dir: str | None, structured: bool, **access: Any) -> None:
        """Serve the commands this platform can run as MCP tools over stdio, or streamable HTTP
        with --http (for MCP clients such as Claude)."""
        from winactions.extras import require
        from winactions.mcp.server import HTTPOptions

        http = HTTPOptions(
            access.pop("host"), access.pop("port"), access.pop("token_file"), tuple(access.pop("allow_host"))
        )
        serve_http = access.pop("http")
        screen_pixels = access.pop("screen_pixels")
        try:
            served = profiles.resolve(profile)
            excluded = profiles.excluded(access.pop("exclude_tools"), served)
            if screen_pixels and not served.translated:
                raise InvalidInput(
                    "--screen-pixels goes with --tools computer or computer-use: the other tools take screen pixels",
                    hint="winctl mcp --tools computer --screen-pixels",
                )
            require("mcp", feature="`winctl mcp`")
            if not serve_http and (http.host or http.token_file or http.allowed_hosts):
                raise InvalidInput(
                    "--host, --token-file and --allow-host go with --http", hint="winctl mcp --http --host 0.0.0.0"
                )
        except WinctlError as exc:
            _fail(exc, ctx.obj)
        from winactions.access.rules import RIGHTS, Flags
        from winactions.mcp.server import serve

        grant = tuple(a.strip() for a in access.pop("grant") if a.strip())
        rights = tuple(r for r in RIGHTS if access[r])
        flags = Flags(confine=access["confine"], apps=grant, rights=rights)
        try:
            serve(
                mcp_session(ctx),
                served,
                device=ctx.obj.device,
                output_dir=output_dir,
                structured=structured,
                access=flags,
                excluded=excluded,
                http=http if serve_http else None,
                screen_pixels=screen_pixels,
            )
        except WinctlError as exc:
            _fail(exc, ctx.obj)
