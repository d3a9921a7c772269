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
from winactions.api import Desktop
from winactions.backends.base import Backend
from winactions.commands.base import Command, GlobalOptions, Kind, Result, available, load_commands
from winactions.commands.results import ScreenshotResult, StateResult
from winactions.errors import InvalidInput, WinctlError
from winactions.options import INFER_MODES, VISION_MODES
from winactions.render import hint_for

INSTRUCTIONS = (
    "Desktop UI automation. Call `state` to list the window's elements as [id] [Type] \"Name\"; "
    "act on ids with `click`, `input`, `select`, `keys`... Ids stay valid for the whole session "
    "and fail as stale when their element disappears: then call `state` again."
)
def _global(name: str) -> dict[str, Any]:
    """A global option's JSON schema, from GlobalOptions itself (declared once)."""
    schema = dict(GLOBAL_SCHEMA["properties"][name])
    schema.pop("title", None)
    return schema


GLOBAL_SCHEMA = GlobalOptions.model_json_schema()
GLOBAL_WINDOW = _global("window")
GLOBAL_INFER = _global("infer")
GLOBAL_VISION = _global("vision")
GLOBAL_RETURN_STATE = _global("return_state")


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


def tool_list(commands: list[Command] | None = None) -> list[types.Tool]:
    """The tools for these commands (by default every command of the table)."""
    return [
        types.Tool(
            name=cmd.tool_name,
            title=cmd.summary,
            description=cmd.help,
            input_schema=tool_schema(cmd),
            annotations=types.ToolAnnotations(
                title=cmd.summary,
                read_only_hint=cmd.kind is Kind.READ,
                destructive_hint=cmd.destructive,
                open_world_hint=False,
            ),
        )
        for cmd in (commands if commands is not None else list(load_commands().values()))
    ]


class ToolRunner:
    """Runs tool calls one at a time against one long-lived Desktop."""

    def __init__(self, session_name: str = "mcp", backend: Backend | None = None) -> None:
        self.session_name = session_name
        self._backend = backend
        self._desktop: Desktop | None = None
        self._lock = threading.Lock()

    def desktop(self) -> Desktop:
        if self._desktop is None:
            self._desktop = Desktop(self.session_name, backend=self._backend, live=True)
        return self._desktop

    def tools(self) -> list[types.Tool]:
        """Only what this session's backend can do: a phone's session lists no window moves."""
        return tool_list(available(self.desktop().session.backend))

    def call(self, tool: str, arguments: dict[str, Any] | None) -> types.CallToolResult:
        with self._lock:
            try:
                result = self._run(tool, dict(arguments or {}))
            except WinctlError as exc:
                exc.hint = hint_for(exc.hint, "mcp")
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
        failed = result.failure()  # a task that failed: its steps are the content, and it is an error
        return types.CallToolResult(content=content, structured_content={"ok": failed is None,
                                                                         "result": render.to_data(result)},
                                    is_error=failed is not None)

    def _run(self, tool: str, args: dict[str, Any]) -> Result:
        cmd = next((c for c in load_commands().values() if c.tool_name == tool), None)
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
        return self.desktop().run(cmd.name, args, options)

    def close(self) -> None:
        if self._desktop is not None:
            self._desktop.close()


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
        return types.ListToolsResult(tools=await anyio.to_thread.run_sync(runner.tools))

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
