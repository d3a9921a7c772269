"""A Claude agent loop with Anthropic's computer-use tool, run by winactions on this desktop.

    pip install 'winactions[llm]'
    python examples/anthropic_computer_use.py --launch galculator "Work out 7 times 6"

Each turn sends the conversation with the `computer` tool (sized to the real screen); each
`tool_use` block the model returns is run by `ComputerUseExecutor` — one winctl command per
action — and answered with a `tool_result` (the command's text, a screenshot, or the error with
`is_error`). `--base-url` (or ANTHROPIC_BASE_URL) and ANTHROPIC_API_KEY name the model server.
`--launch "galculator"` starts an app first and acts on its window; `--window TITLE` acts on a
window already open. Exit status: 0 when the model ended its turn, 1 when the turns ran out.
"""

from __future__ import annotations

import argparse
import os
import shlex
import sys
from typing import Any

import anthropic

from winactions import Desktop
from winactions.adapters.anthropic_computer import BETAS, ComputerUseExecutor, tool_definition


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("task", help="what the agent should do, in words")
    parser.add_argument("--launch", help='an app to start first: "galculator"')
    parser.add_argument("--window", help="act on this window (title part, id or process)")
    parser.add_argument("--model", default=os.environ.get("ANTHROPIC_MODEL", "claude-sonnet-4-5"))
    parser.add_argument("--tool", default="computer_20250124", choices=sorted(BETAS))
    parser.add_argument("--base-url", default=os.environ.get("ANTHROPIC_BASE_URL"))
    parser.add_argument("--max-turns", type=int, default=20)
    args = parser.parse_args(argv)

    client = anthropic.Anthropic(base_url=args.base_url)
    with Desktop("anthropic-agent", window=args.window) as desktop:
        if args.launch:
            print(f"launched: {desktop.launch(shlex.split(args.launch)).window.title}", flush=True)
        computer = ComputerUseExecutor(desktop)
        tool = tool_definition(desktop, args.tool)
        messages: list[dict[str, Any]] = [{"role": "user", "content": args.task}]
        for _ in range(args.max_turns):
            reply = client.beta.messages.create(
                model=args.model, max_tokens=1024, messages=messages, tools=[tool], betas=[BETAS[args.tool]]
            )
            messages.append({"role": "assistant", "content": [b.model_dump(exclude_none=True) for b in reply.content]})
            uses = [b for b in reply.content if b.type == "tool_use"]
            if not uses:
                print("".join(b.text for b in reply.content if b.type == "text"))
                return 0
            results = [computer.tool_result(b) for b in uses]
            for result in results:
                shown = " ".join(c["text"] for c in result["content"] if c["type"] == "text")
                print(("failed: " if result.get("is_error") else "done: ") + shown.splitlines()[0], flush=True)
            messages.append({"role": "user", "content": results})
    print(f"error: the agent did not finish in {args.max_turns} turns")
    return 1


if __name__ == "__main__":
    sys.exit(main())
