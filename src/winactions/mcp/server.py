"""`winctl mcp`: the command table served as MCP tools over stdio (official `mcp` SDK).

No tool is written here. Each registered command becomes a tool whose input schema is its
parameters' JSON Schema (plus the global `window` and, for actions, `return_state`), whose
description is its help, and whose call goes through the same `dispatch` as the CLI. One
DesktopSession lives as long as the server, so ids stay valid from call to call.
"""

from __future__ import annotations

import base64
import threading
from typing import Any

import anyio
import mcp_types as types
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server
from pydantic import ValidationError

from winactions import render
from winactions._version import __version__
from winactions.backends import get_backend
from winactions.commands.base import Command, Context, GlobalOptions, Kind, Result, dispatch, load_commands
from winactions.commands.results import ScreenshotResult, StateResult
from winactions.errors import InvalidInput, WinctlError
from winactions.options import INFER_MODES, VISION_MODES
from winactions.session.desktop import DesktopSession
from winactions.session.store import SessionStore

INSTRUCTIONS = (
    "Desktop UI automation. Call `state` to list the window's elements as [id] [Type] \"Name\"; "
    "act on ids with `click`, `input`, `select`, `keys`... Ids stay valid for the whole session "
    "and fail as stale when their element disappears: then call `state` again."
)
GLOBAL_WINDOW = {"type": "string", "description": "act on this window (id, title part or process) and remember it"}
GLOBAL_INFER = {"type": ["string", "boolean"], "enum": [*INFER_MODES, True, False], "default": "off",
                "description": "also list hidden handles inferred from the tree (column borders, splitters): "
                               "rules, or llm (rules and a text model)"}
GLOBAL_VISION = {"type": ["string", "boolean"], "enum": [*VISION_MODES, True, False],
                 "default": "off",
                 "description": "also list elements a screenshot shows and the tree lacks: local (OCR and shapes, "
                                "offline) or llm (a vision model configured by WINCTL_VISION_* variables)"}
GLOBAL_RETURN_STATE = {"type": "boolean", "default": False, "description": "also return the state after the action"}


def tool_schema(cmd: Command) -> dict[str, Any]:
    schema = cmd.params.model_json_schema()
    properties = schema.setdefault("properties", {})
    if "window" not in properties:
        properties["window"] = GLOBAL_WINDOW
    properties["infer"] = GLOBAL_INFER
    properties["vision"] = GLOBAL_VISION
    if cmd.kind is Kind.ACTION:
        properties["return_state"] = GLOBAL_RETURN_STATE
    return schema


def tool_list() -> list[types.Tool]:
    return [
        types.Tool(
            name=cmd.tool_name,
            title=cmd.summary,
            description=cmd.help,
            input_schema=tool_schema(cmd),
            annotations=types.ToolAnnotations(
                title=cmd.summary,
                read_only_hint=cmd.kind is Kind.READ,
                destructive_hint=cmd.name == "close",
                open_world_hint=False,
            ),
        )
        for cmd in load_commands().values()
    ]


class ToolRunner:
    """Runs tool calls one at a time against one long-lived session."""

    def __init__(self, session_name: str = "mcp") -> None:
        self.session_name = session_name
        self._session: DesktopSession | None = None
        self._lock = threading.Lock()
        self._by_tool = {cmd.tool_name: cmd for cmd in load_commands().values()}

    def session(self) -> DesktopSession:
        if self._session is None:
            self._session = DesktopSession(get_backend(live=True), SessionStore(self.session_name))
        return self._session

    def call(self, tool: str, arguments: dict[str, Any] | None) -> types.CallToolResult:
        with self._lock:
            try:
                result = self._run(tool, dict(arguments or {}))
            except WinctlError as exc:
                return types.CallToolResult(
                    content=[types.TextContent(type="text", text=render.error_text(exc))],
                    structured_content={"ok": False, "error": exc.to_dict()}, is_error=True)
            except Exception as exc:  # a bug must still come back as a tool error, not kill the server
                error = WinctlError(f"internal error: {type(exc).__name__}: {exc}", hint="report it")
                return types.CallToolResult(
                    content=[types.TextContent(type="text", text=render.error_text(error))],
                    structured_content={"ok": False, "error": error.to_dict()}, is_error=True)
        content: list[Any] = [types.TextContent(type="text", text=render.to_text(result))]
        content.extend(_images(result))
        return types.CallToolResult(content=content, structured_content={"ok": True, "result": render.to_data(result)})

    def _run(self, tool: str, args: dict[str, Any]) -> Result:
        cmd = self._by_tool.get(tool)
        if cmd is None:
            raise InvalidInput(f"unknown tool {tool!r}", hint="list the tools to see what there is")
        window = args.pop("window", None) if "window" not in cmd.params.model_fields else None
        return_state = bool(args.pop("return_state", False)) if cmd.kind is Kind.ACTION else False
        if window is not None and not isinstance(window, str):
            raise InvalidInput("window must be a string", hint="a window id, title part or process name")
        tiers = {k: args.pop(k) for k in ("infer", "vision") if k in args}
        try:
            options = GlobalOptions(json_output=True, window=window, return_state=return_state,
                                    session=self.session_name, **tiers)
        except ValidationError:
            raise InvalidInput(f"bad tier choice {tiers}",
                               hint=f"infer: {'|'.join(INFER_MODES)}, vision: {'|'.join(VISION_MODES)}") from None
        with self.session().turn() as session:
            return dispatch(cmd.name, args, Context(session, options))

    def close(self) -> None:
        if self._session is not None:
            self._session.backend.close()


def _images(result: Result) -> list[types.ImageContent]:
    """Screenshots go back as images, so the model sees them without reading files."""
    paths: list[str] = []
    if isinstance(result, ScreenshotResult):
        paths.append(result.path)
    elif isinstance(result, StateResult) and result.state is not None:
        paths.extend(p for p in (result.state.annotated_screenshot or result.state.screenshot,) if p)
    images = []
    for path in paths:
        with open(path, "rb") as f:
            data = f.read()
        images.append(types.ImageContent(type="image", data=base64.b64encode(data).decode(), mime_type="image/png"))
    return images


def build_server(runner: ToolRunner) -> Server[Any]:
    async def list_tools(_ctx: Any, _params: Any) -> types.ListToolsResult:
        return types.ListToolsResult(tools=tool_list())

    async def call_tool(_ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        # the backend is synchronous (and keeps its own event loop thread): run it off the loop
        return await anyio.to_thread.run_sync(runner.call, params.name, params.arguments)

    return Server("winactions", version=__version__, instructions=INSTRUCTIONS,
                  on_list_tools=list_tools, on_call_tool=call_tool)


def serve(session_name: str = "mcp") -> None:
    """Serve until the client closes stdin."""
    runner = ToolRunner(session_name)
    server = build_server(runner)

    async def main() -> None:
        async with stdio_server() as (read, write):
            await server.run(read, write, server.create_initialization_options())

    try:
        anyio.run(main)
    finally:
        runner.close()


__all__ = ["serve", "tool_list", "ToolRunner"]
