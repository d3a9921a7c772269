"""An OpenAI Agents SDK agent that uses this desktop through winactions.

    pip install 'winactions[openai-agents]'
    python examples/openai_agents_computer.py --launch mousepad "Write a haiku in the editor"

The Runner's `ComputerTool` drives a `WinactionsComputer`: each action the model asks for (a
click, typed text, keys, a drag) is a winctl command on the real screen, and the Runner sends
the model a screenshot after each. `--base-url` (or OPENAI_BASE_URL) and OPENAI_API_KEY name
the model server: any that speaks the OpenAI Responses API with the computer tool.
`--launch "mousepad notes.txt"` starts an app first and acts on its window; `--window TITLE`
acts on a window already open. Exit status: 0 when the agent finished, 1 when an action failed
(its error is printed: nothing was done of that action) or the turns ran out.
"""

from __future__ import annotations

import argparse
import os
import shlex
import sys

from agents import Agent, ComputerTool, ModelSettings, Runner, set_tracing_disabled
from agents.exceptions import MaxTurnsExceeded
from agents.models.openai_responses import OpenAIResponsesModel
from openai import AsyncOpenAI

from winactions import Desktop, WinctlError
from winactions.adapters.openai_agents import WinactionsComputer

INSTRUCTIONS = (
    "You operate a desktop computer through the computer tool. Look at the screenshot, act, "
    "and when the task is done say so in one sentence."
)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("task", help="what the agent should do, in words")
    parser.add_argument("--launch", help='an app to start first: "mousepad notes.txt"')
    parser.add_argument("--window", help="act on this window (title part, id or process)")
    parser.add_argument("--model", default=os.environ.get("OPENAI_MODEL", "computer-use-preview"))
    parser.add_argument("--base-url", default=os.environ.get("OPENAI_BASE_URL"))
    parser.add_argument("--max-turns", type=int, default=20)
    args = parser.parse_args(argv)

    set_tracing_disabled(True)  # traces go to OpenAI's platform; this agent may talk to any server
    client = AsyncOpenAI(base_url=args.base_url)
    with Desktop("openai-agent", window=args.window) as desktop:
        if args.launch:
            opened = desktop.launch(shlex.split(args.launch))
            print(f"launched: {opened.window.title}", flush=True)
        agent = Agent(
            name="desktop",
            instructions=INSTRUCTIONS,
            model=OpenAIResponsesModel(model=args.model, openai_client=client),
            model_settings=ModelSettings(truncation="auto"),
            tools=[ComputerTool(WinactionsComputer(desktop))],
        )
        try:
            result = Runner.run_sync(agent, args.task, max_turns=args.max_turns)
        except WinctlError as error:
            print(f"error ({error.code}): {error.message}" + (f"\nhint: {error.hint}" if error.hint else ""))
            return 1
        except MaxTurnsExceeded:
            print(f"error: the agent did not finish in {args.max_turns} turns")
            return 1
    print(result.final_output)
    return 0


if __name__ == "__main__":
    sys.exit(main())
