"""`winctl mcp`: the command table served as MCP tools over stdio (official `mcp` SDK).

No tool is written here. Each registered command becomes a tool whose input schema is its
parameters' JSON Schema (plus the global `window` and, for actions, `return_state`), whose
description is its help, and whose call goes through the same `dispatch` as the CLI. One
DesktopSession lives as long as the server, so ids stay valid from call to call.

A result carries its content once: the text a person reads on the command line (and a
screenshot as an image), no `structuredContent`. Hosts give the model one or the other or both:
Claude Code passes `structuredContent` when there is one and drops the text (the JSON is 3-11x
the text), others pass both. An error's text names its code: `error (stale_element): ...`.
`structured=True` (`winctl mcp --structured`) adds the JSON for programs that read it.
"""

from __future__ import annotations

import base64
import functools
import threading
from collections.abc import Callable
from typing import Any, NamedTuple

import anyio
import anyio.lowlevel
import mcp_types as types
from mcp.server.lowlevel import Server
from mcp.shared.exceptions import MCPError
from pydantic import ValidationError

from winactions import progress, render
from winactions._version import __version__
from winactions.access import Flags
from winactions.api import Desktop
from winactions.backends.base import Backend
from winactions.commands.base import Command, GlobalOptions, Kind, Result, available, load_commands
from winactions.commands.displays import displays_of
from winactions.errors import InvalidInput, Unsupported, WinctlError, shown
from winactions.mcp.annotations import title, tool_annotations
from winactions.mcp.model_pixels import in_screen_pixels, model_pixels, shown_to_model, vision_scale
from winactions.mcp.profiles import Served
from winactions.mcp.schemas import bind_elements, flat, untitled
from winactions.mcp.stdio import stdio_transport
from winactions.mcp.translated import Translated
from winactions.mcp.words import in_mcp_words, mcp_words
from winactions.options import INFER_MODES, VISION_MODES, help_of
from winactions.outputs import Outputs
from winactions.render import hint_for

INSTRUCTIONS = (
    'Desktop UI automation. Call `state` to list the window\'s elements as [id] [Type] "Name"; '
    "act on ids with `click`, `input`, `select`, `keys`... Ids stay valid for the whole session "
    "and fail as stale when their element disappears: then call `state` again. Every tool takes "
    f"`window`: {help_of('window')}; every action takes `return_state`: {help_of('return_state')}, "
    "and `max_elements`: at most this many of those changes (said here once rather than on each tool). "
    "A tool acting on an element takes its id, an integer, as `id` (`element` in screenshot), or instead "
    'its name or a visual target, a string, as `name` (`element_name`): {"id": 7} or {"name": "7"}.'
)


def _global(name: str) -> dict[str, Any]:
    """A global option's JSON schema, from GlobalOptions itself (declared once)."""
    schema: dict[str, Any] = untitled(GLOBAL_SCHEMA["properties"][name])
    return schema


GLOBAL_SCHEMA = GlobalOptions.model_json_schema()
GLOBAL_WINDOW = _global("window")
SHORT_WINDOW = {"type": "string"}  # on every tool; described once, in INSTRUCTIONS
SHORT_RETURN_STATE = {"type": "boolean", "default": False}
SHORT_MAX_ELEMENTS = {"type": "integer"}  # from 1: GlobalOptions says so when not
GLOBAL_INFER = _global("infer")
GLOBAL_VISION = _global("vision")


def tool_schema(cmd: Command) -> dict[str, Any]:
    """The command's parameters, plus `window`, the tiers on perceiving tools only, and
    `return_state` on actions; without pydantic's titles, which repeat the names."""
    schema = flat(untitled(cmd.params.model_json_schema()))
    properties = schema.setdefault("properties", {})
    for name in [k for k, v in properties.items() if v.get("cli_only")]:
        del properties[name]  # a person's choice (`force`), not a model's
    if "window" not in properties:
        properties["window"] = GLOBAL_WINDOW if cmd.perceives else SHORT_WINDOW
    if cmd.perceives:
        properties["infer"] = GLOBAL_INFER
        properties["vision"] = GLOBAL_VISION
    if cmd.kind is Kind.ACTION:
        properties["return_state"] = SHORT_RETURN_STATE
        properties["max_elements"] = SHORT_MAX_ELEMENTS
    return in_mcp_words(schema)


def tool_list(commands: list[Command] | None = None) -> list[types.Tool]:
    """The tools for these commands (by default every command of the table)."""
    return [
        types.Tool(
            name=cmd.tool_name,
            title=title(cmd),
            description=mcp_words(cmd.help),
            input_schema=tool_schema(cmd),
            annotations=tool_annotations(cmd),
        )
        for cmd in (commands if commands is not None else list(load_commands().values()))
    ]


def translated_tool(tool: Translated) -> types.Tool:
    """A tool of another tool set (`--tools computer-use`): its own name, description and arguments."""
    return types.Tool(
        name=tool.name, description=tool.description, input_schema=flat(untitled(tool.args.model_json_schema()))
    )


class ToolRunner:
    """Runs tool calls one at a time against one long-lived Desktop."""

    def __init__(
        self,
        session_name: str = "mcp",
        backend: Backend | None = None,
        device: str | None = None,
        profile: frozenset[str] | None = None,
        outputs: Outputs | None = None,
        structured: bool = False,
        access: Flags | None = None,
        translated: dict[str, Translated] | None = None,
        excluded: frozenset[str] = frozenset(),
        screen_pixels: bool = False,
    ) -> None:
        self.session_name = session_name
        # the translated tools take and show the screen's own pixels, not a model's (`model_pixels`)
        self.screen_pixels = screen_pixels
        self.excluded = excluded  # tool names left out (`winctl mcp --exclude-tools a,b`)
        self.access = access or Flags()  # `winctl mcp --confine --grant APP ...`
        self.translated = translated or {}  # tools of another tool set, each becoming a command
        self.structured = structured  # also send each result as JSON (`structuredContent`), for programs
        self.outputs = outputs or Outputs()  # the model names files only inside this folder
        self.profile = profile  # the command names served; None: all
        self._backend = backend
        self._device = device  # a phone's serial: the tools drive it (and offer only what it can do)
        self._desktop: Desktop | None = None
        self._lock = threading.Lock()

    def desktop(self) -> Desktop:
        """The server's one Desktop, opened on first use and kept: ids stay valid across calls."""
        if self._desktop is None:
            self._desktop = Desktop(self.session_name, backend=self._backend, live=True, device=self._device)
            self._desktop.session.access.flags = self.access
        return self._desktop

    def tools(self) -> list[types.Tool]:
        """Only what this session's backend can do: a phone's session lists no window moves."""
        backend = self.desktop().session.backend
        return tool_list(self._served()) + [
            translated_tool(t) for t in self.translated.values() if t.served_on(backend) and t.name not in self.excluded
        ]

    def _served(self) -> list[Command]:
        """The commands the backend can run that the profile serves (all of them for no profile),
        less the excluded tools."""
        return [
            c
            for c in available(self.desktop().session.backend)
            if (self.profile is None or c.name in self.profile) and c.tool_name not in self.excluded
        ]

    def refusal(self, tool: str) -> str | None:
        """Why `tool` is none of this server's tools (its profile less the excluded ones, and the
        translated tools), or None when it is one; a call of any other is a protocol error."""
        if tool in self.excluded:
            return f"Unknown tool: {shown(tool, 80)} (left out by the server's --exclude-tools)"
        if tool in self.translated:
            return None
        cmd = next((c for c in load_commands().values() if c.tool_name == tool), None)
        if cmd is None:
            return f"Unknown tool: {shown(tool, 80)} (this server's tools are in tools/list)"
        if self.profile is not None and cmd.name not in self.profile:
            having = ", ".join(sorted(cmd.profiles)) or "none does; only all"
            return (
                f"Unknown tool: {shown(tool, 80)} is not served by this server's profile; the server's user "
                f"can start it with: winctl mcp --tools all (or add the profile that has it: {having})"
            )
        return None

    def call(
        self,
        tool: str,
        arguments: dict[str, Any] | None,
        sink: progress.Sink | None = None,
        cancel: Callable[[], bool] | None = None,
    ) -> types.CallToolResult:
        """Run one tool call; `sink` gets its progress (when the client asked for it); `cancel`
        says whether the client has cancelled it: the call stops at its next safe point
        (`progress.pause`, the task runner between steps)."""
        with self._lock:
            try:
                with progress.watching(sink, cancel=cancel):
                    result = self._run(tool, dict(arguments or {}))
            except WinctlError as exc:
                exc.hint = hint_for(exc.hint, "mcp")
                return self._error(exc)
            except Exception as exc:  # a bug must still come back as a tool error, not kill the server
                return self._error(WinctlError(f"internal error: {type(exc).__name__}: {exc}", hint="report it"))
        content: list[Any] = [types.TextContent(type="text", text=render.to_text(result))]
        content.extend(_images(result))
        failed = result.failure()  # a task that failed: its steps are the content, and it is an error
        data = {"ok": failed is None, "result": render.to_data(result)} if self.structured else None
        return types.CallToolResult(content=content, structured_content=data, is_error=failed is not None)

    def _error(self, error: WinctlError) -> types.CallToolResult:
        """A tool error: its text names the code (`error (not_found): ...`, then the hint)."""
        text = render.error_text(error).replace("error: ", f"error ({error.code}): ", 1)
        data = {"ok": False, "error": error.to_dict()} if self.structured else None
        return types.CallToolResult(
            content=[types.TextContent(type="text", text=text)], structured_content=data, is_error=True
        )

    def _run(self, tool: str, args: dict[str, Any]) -> Result:
        """Run one tool: refuse a tool unknown or outside the profile, take the call's global
        options out of the arguments (`window`; an action's `return_state` and `max_elements`;
        a perceiving tool's tiers), and dispatch the rest as the command's parameters. A
        translated tool becomes its command's call first (`Translated.call`)."""
        if tool in self.translated:
            return self._run_translated(self.translated[tool], args)
        cmd = next((c for c in load_commands().values() if c.tool_name == tool), None)
        if cmd is None:
            raise InvalidInput(f"unknown tool {shown(tool)}", hint="list the tools to see what there is")
        if self.profile is not None and cmd.name not in self.profile:
            having = ", ".join(sorted(cmd.profiles)) or "none does; only all"
            raise InvalidInput(
                f"the tool {shown(tool)} is not served by this server's profile",
                hint="the server's user can start it with: winctl mcp --tools all "
                f"(or add the profile that has it: {having})",
            )
        window = args.pop("window", None) if "window" not in cmd.params.model_fields else None
        return_state = args.pop("return_state", False) if cmd.kind is Kind.ACTION else False
        if not isinstance(return_state, bool):
            raise InvalidInput(
                f"return_state is true or false, not {shown(return_state, 40)}", hint="return_state: true"
            )
        cap = args.pop("max_elements", None) if cmd.kind is Kind.ACTION else None
        if window is not None and (not isinstance(window, str) or any("\ud800" <= ch <= "\udfff" for ch in window)):
            raise InvalidInput(
                "window must be a string of text (a lone surrogate is not text)",
                hint="a window id, title part or process name",
            )
        tiers = {k: args.pop(k) for k in ("infer", "vision") if k in args} if cmd.perceives else {}
        try:
            options = GlobalOptions(
                json_output=True,
                window=window,
                return_state=return_state,
                max_elements=cap,
                session=self.session_name,
                device=self.desktop().device,
                **tiers,
            )
        except ValidationError as exc:
            if any(e["loc"] == ("max_elements",) for e in exc.errors()):
                raise InvalidInput(
                    f"max_elements must be a whole number from 1, not {shown(cap, 40)}", hint="e.g. max_elements: 15"
                ) from None
            raise InvalidInput(
                f"bad tier choice {tiers}", hint=f"infer: {'|'.join(INFER_MODES)}, vision: {'|'.join(VISION_MODES)}"
            ) from None
        args = bind_elements(untitled(cmd.params.model_json_schema()), args)  # `{"id": 7}` or `{"name": "7"}`
        return self.desktop().run(cmd.name, args, options, outputs=self.outputs)

    def _run_translated(self, tool: Translated, args: dict[str, Any]) -> Result:
        if not tool.served_on(self.desktop().session.backend):
            raise Unsupported(
                f"{tool.name} is not available on this desktop", hint="list the tools to see what there is"
            )
        factor = self._model_factor()
        with model_pixels(factor):
            name, params = tool.call(args)
        options = GlobalOptions(json_output=True, session=self.session_name, device=self.desktop().device)
        try:
            result = self.desktop().run(name, params, options, outputs=self.outputs)
        except WinctlError as exc:
            in_screen_pixels(exc, factor)
            raise
        return shown_to_model(result, factor, name)

    def _model_factor(self) -> float:
        """The model's pixels per screen pixel for a translated tool: `vision_scale` of the
        screen the session's coordinates refer to, or 1.0 with `screen_pixels`."""
        if self.screen_pixels:
            return 1.0
        screen = displays_of(self.desktop().session).screen()
        return vision_scale(screen.width, screen.height)

    def close(self) -> None:
        """End the server's session: a person's grants at its prompts end with it."""
        if self._desktop is not None:
            session = self._desktop.session
            with session.turn():
                session.data.access.apps.clear()
                session.data.access.rights.clear()
                session.save()
            self._desktop.close()


def _images(result: Result) -> list[types.ImageContent]:
    """The result's pictures (`Result.images`) as image content, so the model sees them
    without reading files."""
    images = []
    for path in result.images():
        with open(path, "rb") as f:
            data = f.read()
        images.append(types.ImageContent(type="image", data=base64.b64encode(data).decode(), mime_type="image/png"))
    return images


def _progress_sink(ctx: Any) -> progress.Sink:
    """Progress notifications for the client's token: elapsed seconds as the progress (it
    only grows) and the step as the message, sent on the server's event loop."""
    token = anyio.lowlevel.current_token()

    def sink(message: str, elapsed: float) -> None:
        anyio.from_thread.run(ctx.session.report_progress, round(elapsed, 1), None, message, token=token)

    return sink


async def _cancellable(call: Callable[..., types.CallToolResult], *args: Any) -> types.CallToolResult:
    """`call(*args, cancel)` on a worker thread, where `cancel()` turns true once the client
    cancels the request (notifications/cancelled cancels this handler's scope). The thread
    cannot be interrupted: it reads the flag at its safe points and returns soon, and the
    cancellation is then delivered; a thread that ended by itself leaves the flag unread."""
    cancel = threading.Event()

    async def watch() -> None:
        try:
            await anyio.sleep_forever()
        finally:  # cancelled: by the client, or because the call is over
            cancel.set()

    results: list[types.CallToolResult] = []
    async with anyio.create_task_group() as group:
        group.start_soon(watch)
        try:
            results.append(await anyio.to_thread.run_sync(functools.partial(call, *args, cancel.is_set)))
        finally:
            group.cancel_scope.cancel()
    return results[0]


def build_server(runner: ToolRunner) -> Server[Any]:
    """An MCP server whose tools are the runner's, each call run off the event loop."""

    async def list_tools(_ctx: Any, _params: Any) -> types.ListToolsResult:
        return types.ListToolsResult(tools=await anyio.to_thread.run_sync(runner.tools))

    async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        refused = runner.refusal(params.name)
        if refused:  # a protocol error, as the spec says for an unknown tool
            raise MCPError(types.INVALID_PARAMS, refused)
        # the backend is synchronous (and keeps its own event loop thread): run it off the loop
        sink = _progress_sink(ctx) if (params.meta or {}).get("progress_token") is not None else None
        return await _cancellable(runner.call, params.name, params.arguments, sink)

    return Server(
        "winactions", version=__version__, instructions=INSTRUCTIONS, on_list_tools=list_tools, on_call_tool=call_tool
    )


class HTTPOptions(NamedTuple):
    """`winctl mcp --http [--host H] [--port N] [--token-file F]` (`winactions.mcp.http`)."""

    host: str | None = None  # None: loopback only
    port: int = 8765
    token_file: str | None = None  # None: a token made at start, printed once
    allowed_hosts: tuple[str, ...] = ()  # more names a request's Host may give (a proxy's, a port mapping's)


def serve(
    session_name: str = "mcp",
    profile: Served | None = None,
    device: str | None = None,
    output_dir: str | None = None,
    structured: bool = False,
    access: Flags | None = None,
    excluded: frozenset[str] = frozenset(),
    http: HTTPOptions | None = None,
    screen_pixels: bool = False,
) -> None:
    """Serve until the client closes stdin (the tools of `profile`, every command for None,
    less the `excluded` tool names); the files tools write go into `output_dir` (else
    $WINCTL_OUTPUT_DIR, else the session's folder); `structured`: results carry their JSON as
    `structuredContent` too; `access`: the server's confinement and grants (`winctl mcp
    --confine --grant APP`); `http`: serve streamable HTTP instead of stdio, until interrupted;
    `screen_pixels`: the translated tools send screenshots whole and take screen pixels, not a
    model's (`winactions.mcp.model_pixels`)."""
    runner = ToolRunner(
        session_name,
        device=device,
        profile=profile.commands if profile else None,
        outputs=Outputs.from_env(output_dir),
        structured=structured,
        access=access,
        translated=profile.translated if profile else None,
        excluded=excluded,
        screen_pixels=screen_pixels,
    )
    server = build_server(runner)
    if http is not None:
        from winactions.mcp.http import serve_http

        try:
            serve_http(server, http.host, http.port, http.token_file, http.allowed_hosts)
        finally:
            runner.close()
        return

    async def main() -> None:
        async with stdio_transport() as (read, write):
            await server.run(read, write, server.create_initialization_options())

    try:
        anyio.run(main)
    finally:
        runner.close()


__all__ = ["HTTPOptions", "ToolRunner", "serve", "tool_list"]
