"""`winctl mcp`'s stdio transport: the SDK's writer, and a reader that answers every line.

The SDK's own reader (`mcp.server.stdio`) parses each line with pydantic's JSON parser and
hands a line that fails to the dispatcher as an exception, which logs it at debug level and
drops it: `{not json`, `[]`, bytes that are not UTF-8, a nest too deep for the parser and a
request without a method get no answer, and neither does a request holding a lone surrogate
(`"\\ud800"`), which that parser refuses. This reader parses with Python's `json`, answers what
is not a JSON-RPC message with the JSON-RPC 2.0 error for it (-32700 parse error, -32600
invalid request, -32602 invalid params; the request's id when it has a usable one, else null)
and hands every message to the SDK's dispatcher as the SDK's reader would. A lone surrogate
is let through only inside a tool call's arguments, where the command table refuses it with
a tool error; anywhere else the reader refuses the message, so no reply can hold one (the
SDK's writer cannot encode it).
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any, BinaryIO, cast

import anyio
import mcp_types as types
from anyio.streams.memory import MemoryObjectReceiveStream, MemoryObjectSendStream
from mcp.server.stdio import stdio_server
from mcp.shared.message import SessionMessage
from pydantic import ValidationError

MAX_DEPTH = 64  # levels of nesting a message may have (a tool's arguments need a handful)
MAX_LINE = 8 * 1024 * 1024  # bytes in one message


def _error(request_id: Any, code: int, message: str) -> types.JSONRPCError:
    return types.JSONRPCError(jsonrpc="2.0", id=request_id, error=types.ErrorData(code=code, message=message))


def _walk(value: Any) -> tuple[int, bool]:
    """(how deep `value` nests, whether a string or key in it holds a lone surrogate), without
    recursion: a message may nest deeper than Python's stack."""
    depth, surrogate = 0, False
    todo = [(value, 1)]
    while todo:
        item, level = todo.pop()
        if isinstance(item, str):
            surrogate = surrogate or any("\ud800" <= ch <= "\udfff" for ch in item)
            continue
        if not isinstance(item, (dict, list)):
            continue
        depth = max(depth, level)
        if depth > MAX_DEPTH:
            return depth, surrogate
        if isinstance(item, dict):
            todo.extend((k, level) for k in item)
        todo.extend((v, level + 1) for v in (item.values() if isinstance(item, dict) else item))
    return depth, surrogate


def _usable_id(data: dict[str, Any]) -> Any:
    """The message's id when it is one a reply can carry (a string or an integer), else None."""
    request_id = data.get("id")
    if isinstance(request_id, bool) or not isinstance(request_id, (int, str)):
        return None
    return None if isinstance(request_id, str) and _walk(request_id)[1] else request_id


def _without_arguments(data: dict[str, Any]) -> dict[str, Any]:
    params = data.get("params")
    if not isinstance(params, dict) or not isinstance(params.get("arguments"), dict):
        return data
    arguments = params["arguments"]
    keys = list(arguments)  # their keys stay: an error names a key as it is
    return {**data, "params": {**{k: v for k, v in params.items() if k != "arguments"}, "arguments": keys}}


def parse_line(line: bytes) -> SessionMessage | types.JSONRPCError | None:
    """The JSON-RPC message on one line of stdin, or the error that answers it (None for a
    blank line)."""
    if not line.strip():
        return None
    try:
        data = json.loads(line.decode("utf-8"))
    except UnicodeDecodeError as exc:
        return _error(None, types.PARSE_ERROR, f"Parse error: the line is not UTF-8 (byte {exc.start})")
    except RecursionError:
        return _error(None, types.PARSE_ERROR, "Parse error: nested too deep to read")
    except ValueError as exc:
        return _error(None, types.PARSE_ERROR, f"Parse error: {str(exc)[:200]}")
    if not isinstance(data, dict):
        return _error(
            None, types.INVALID_REQUEST, "Invalid Request: a message is one JSON object (batches are not supported)"
        )
    request_id = _usable_id(data)
    if "method" in data and "id" in data and request_id is None:  # else it would pass for a notification
        return _error(None, types.INVALID_REQUEST, "Invalid Request: an id is a string or an integer")
    depth, surrogate = _walk(data)
    if depth > MAX_DEPTH:
        return _error(request_id, types.INVALID_REQUEST, f"Invalid Request: nested deeper than {MAX_DEPTH} levels")
    if surrogate and _walk(_without_arguments(data))[1]:
        return _error(
            request_id,
            types.INVALID_REQUEST,
            "Invalid Request: a string holds a lone surrogate (U+D800..U+DFFF), which is not text",
        )
    try:
        return SessionMessage(types.jsonrpc_message_adapter.validate_python(data, by_name=False))
    except ValidationError:
        return _error(request_id, *_what_is_wrong(data))


def _what_is_wrong(data: dict[str, Any]) -> tuple[int, str]:
    if data.get("jsonrpc") != "2.0":
        return types.INVALID_REQUEST, 'Invalid Request: "jsonrpc" must be "2.0"'
    if not any(k in data for k in ("method", "result", "error")):
        return types.INVALID_REQUEST, "Invalid Request: no method"
    if not isinstance(data.get("method", ""), str):
        return types.INVALID_REQUEST, "Invalid Request: the method must be a string"
    if "method" in data and "params" in data and not isinstance(data["params"], dict):
        return types.INVALID_PARAMS, "Invalid params: params must be an object"
    return types.INVALID_REQUEST, "Invalid Request: not a request, notification or response of JSON-RPC 2.0"


class _NoLines:
    """Stands for stdin in the SDK's transport, whose reader this module replaces."""

    def __aiter__(self) -> _NoLines:
        return self

    async def __anext__(self) -> str:
        raise StopAsyncIteration


def _claim_stdin() -> tuple[BinaryIO, int | None]:
    """The wire's end of stdin as a private file, with fd 0 pointed at the null device, as the
    SDK's transport does: a handler or a child reads EOF, never the client's messages."""
    try:
        private = os.dup(0)
    except OSError:
        return sys.stdin.buffer, None
    try:
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        os.close(null)
    except OSError:
        pass
    return os.fdopen(private, "rb", closefd=False), private


def _release_stdin(private: int | None) -> None:
    if private is not None:
        try:
            os.dup2(private, 0)
        finally:
            os.close(private)


async def _read(wire: BinaryIO, messages: MemoryObjectSendStream[SessionMessage | Exception], replies: Any) -> None:
    """Every line of the wire: messages to the dispatcher, errors straight back to the client."""
    async with messages:
        while line := await anyio.to_thread.run_sync(wire.readline, MAX_LINE + 1):
            parsed: SessionMessage | types.JSONRPCError | None
            if len(line) > MAX_LINE and not line.endswith(b"\n"):
                while (rest := await anyio.to_thread.run_sync(wire.readline, MAX_LINE)) and not rest.endswith(b"\n"):
                    pass  # the rest of the line is dropped with it
                parsed = _error(None, types.INVALID_REQUEST, f"Invalid Request: longer than {MAX_LINE:,} bytes")
            else:
                parsed = parse_line(line)
            try:
                if isinstance(parsed, SessionMessage):
                    await messages.send(parsed)
                elif parsed is not None:
                    await replies.send(SessionMessage(parsed))
            except (anyio.BrokenResourceError, anyio.ClosedResourceError):
                return  # the server stopped serving


@asynccontextmanager
async def stdio_transport() -> AsyncIterator[tuple[MemoryObjectReceiveStream[SessionMessage | Exception], Any]]:
    """(read stream, write stream) over this process's stdin and stdout, for `Server.run`."""
    wire, private = _claim_stdin()
    try:
        async with stdio_server(stdin=cast(Any, _NoLines())) as (_unused, write):
            send, receive = anyio.create_memory_object_stream[SessionMessage | Exception](0)
            async with anyio.create_task_group() as tasks:
                tasks.start_soon(_read, wire, send, write)
                yield receive, write
    finally:
        _release_stdin(private)


__all__ = ["parse_line", "stdio_transport"]
