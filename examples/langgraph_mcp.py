"""A LangGraph agent whose tools are `winctl mcp`'s, loaded through `langchain-mcp-adapters`.

The agent is a StateGraph of two nodes: the model (any OpenAI-compatible chat model, through
`langchain-openai`) and a `ToolNode` holding the MCP tools; it loops until the model answers
without a tool call. One MCP session serves the whole run, so the element ids `state` gives
stay valid for the calls after it.

The agent side needs its own environment: `langchain-mcp-adapters` pins the MCP SDK below
2.0, which `winctl mcp` needs, so `winctl` is a program on PATH (or `--winctl PATH`), not an
import:

    python3 -m venv agent && agent/bin/pip install -r examples/requirements-langgraph.txt
    export OPENAI_API_KEY=... OPENAI_MODEL=gpt-4.1-mini     # OPENAI_BASE_URL for another server
    agent/bin/python examples/langgraph_mcp.py "Type 'hello' into the Mousepad window and save it"

Over streamable HTTP (a desktop elsewhere, `winctl mcp --http` there):

    export WINCTL_MCP_TOKEN=...                              # the token the server printed
    agent/bin/python examples/langgraph_mcp.py --url http://127.0.0.1:8765/mcp "..."

`--list-tools` prints the tools as LangChain holds them (name, description, argument schema,
metadata) as JSON, and runs no model. Exit status: 0 when the model finished, 1 when it ran out
of steps, 2 for bad arguments or a server that cannot be reached.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
from typing import Any

from langchain_core.messages import AIMessage, HumanMessage, SystemMessage, ToolMessage
from langchain_core.tools import BaseTool
from langchain_mcp_adapters.client import MultiServerMCPClient
from langchain_mcp_adapters.tools import load_mcp_tools
from langchain_openai import ChatOpenAI
from langgraph.errors import GraphRecursionError
from langgraph.graph import START, MessagesState, StateGraph
from langgraph.prebuilt import ToolNode, tools_condition

SERVER = "winactions"
# What decides which desktop `winctl` reaches. An MCP client starts a stdio server with only a
# few variables of its own (HOME, PATH, USER...) plus the `env` it is given, so these are
# passed on explicitly; API keys and the rest of this environment are not.
DESKTOP_VARS = (
    "DISPLAY",
    "WAYLAND_DISPLAY",
    "XAUTHORITY",
    "DBUS_SESSION_BUS_ADDRESS",
    "AT_SPI_BUS_ADDRESS",
    "XDG_RUNTIME_DIR",
    "WINACTIONS_BACKEND",
)
SYSTEM = (
    "You operate a desktop through tools. Call the state tool to see the focused window's "
    "elements with their ids, act on an element by its id, and check the result with the "
    "state tool before you say a task is done. Answer in one sentence when it is done."
)


def connection(args: argparse.Namespace) -> dict[str, Any]:
    """The adapters' connection for `--url` (streamable HTTP, bearer token from
    WINCTL_MCP_TOKEN) or else stdio (`winctl mcp --tools PROFILES` with the desktop's variables)."""
    if args.url:
        token = os.environ["WINCTL_MCP_TOKEN"]
        return {"transport": "streamable_http", "url": args.url, "headers": {"Authorization": f"Bearer {token}"}}
    env = {name: os.environ[name] for name in DESKTOP_VARS if name in os.environ}
    return {"transport": "stdio", "command": args.winctl, "args": ["mcp", "--tools", args.tools], "env": env}


def build_agent(model: Any, tools: list[BaseTool]) -> Any:
    """model -> tools -> model ... until the model answers without a tool call. One tool call per
    answer: a `ToolNode` runs an answer's calls at the same time, and on a desktop the order
    matters (focus, then state, then click)."""
    bound = model.bind_tools(tools, parallel_tool_calls=False)

    async def call_model(state: MessagesState) -> dict[str, list[Any]]:
        return {"messages": [await bound.ainvoke(state["messages"])]}

    graph = StateGraph(MessagesState)
    graph.add_node("model", call_model)
    graph.add_node("tools", ToolNode(tools, handle_tool_errors=True))
    graph.add_edge(START, "model")
    graph.add_conditional_edges("model", tools_condition)
    graph.add_edge("tools", "model")
    return graph.compile()


def describe(tools: list[BaseTool]) -> list[dict[str, Any]]:
    """The tools as LangChain holds them, for `--list-tools`."""
    return [
        {"name": t.name, "description": t.description, "args_schema": t.args_schema, "metadata": t.metadata}
        for t in tools
    ]


def transcript(messages: list[Any]) -> None:
    """Each tool call and its result's first line, on stderr."""
    for message in messages:
        if isinstance(message, AIMessage):
            for call in message.tool_calls:
                print(f"-> {call['name']} {json.dumps(call['args'], ensure_ascii=False)}", file=sys.stderr)
        elif isinstance(message, ToolMessage):
            text = message.text if isinstance(message.text, str) else str(message.content)
            first = text.strip().splitlines()[0] if text.strip() else ""
            print(f"<- {'error: ' if message.status == 'error' else ''}{first[:160]}", file=sys.stderr)


async def run(args: argparse.Namespace) -> int:
    client = MultiServerMCPClient({SERVER: connection(args)})  # type: ignore[dict-item]
    async with client.session(SERVER) as session:
        tools = await load_mcp_tools(session, server_name=SERVER)
        if args.list_tools:
            print(json.dumps(describe(tools), indent=1, default=str))
            return 0
        model = ChatOpenAI(model=args.model, temperature=0)
        agent = build_agent(model, tools)
        messages = [SystemMessage(SYSTEM), HumanMessage(args.task)]
        try:
            result = await agent.ainvoke({"messages": messages}, {"recursion_limit": 2 * args.max_steps + 1})
        except GraphRecursionError:
            print(f"error: no answer after {args.max_steps} tool steps", file=sys.stderr)
            return 1
    transcript(result["messages"])
    print(result["messages"][-1].text)
    return 0


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("task", nargs="?", default="", help="what to do, in words")
    parser.add_argument("--url", help="a `winctl mcp --http` server's URL (token in WINCTL_MCP_TOKEN)")
    parser.add_argument("--winctl", default="winctl", help="the winctl program for stdio (default: on PATH)")
    parser.add_argument("--tools", default="core", help="MCP tool profiles for stdio (default: core)")
    parser.add_argument("--model", default=os.environ.get("OPENAI_MODEL", "gpt-4.1-mini"), help="chat model name")
    parser.add_argument("--max-steps", type=int, default=20, help="tool steps before giving up (default: 20)")
    parser.add_argument("--list-tools", action="store_true", help="print the LangChain tools as JSON and stop")
    args = parser.parse_args(argv)
    if not args.task and not args.list_tools:
        parser.error("give a task, or --list-tools")
    if args.url and not os.environ.get("WINCTL_MCP_TOKEN"):
        parser.error("--url needs the server's token in WINCTL_MCP_TOKEN")
    if args.max_steps < 1:
        parser.error("--max-steps must be 1 or more")
    return args


def first_cause(exc: BaseException) -> BaseException:
    """The first leaf of an exception group (anyio wraps a transport's failure in groups)."""
    while getattr(exc, "exceptions", None):
        exc = exc.exceptions[0]  # type: ignore[attr-defined]
    return exc


def main(argv: list[str] | None = None) -> int:
    args = parse(argv)
    try:
        return asyncio.run(run(args))
    except Exception as exc:  # a missing program, a refused address, a bad token, a model error
        cause = first_cause(exc)
        print(f"error: {type(cause).__name__}: {cause}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
