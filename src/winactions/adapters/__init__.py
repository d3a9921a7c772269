"""Adapters: winactions as the computer of other agent frameworks.

`openai_agents` is a `Computer` and an `AsyncComputer` for the OpenAI Agents SDK's
`ComputerTool` (needs the `openai-agents` extra); `anthropic_computer` runs the `tool_use`
blocks of Anthropic's computer-use tool and gives its tool definition. Both act only through
commands of the table (`winactions.Desktop`), so every action gets the command's checks and
errors. docs/adapters.md shows each in an agent loop.
"""
