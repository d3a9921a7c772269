"""Anthropic's computer-use tool run by winactions: its tool definition and an executor.

    from winactions import Desktop
    from winactions.adapters.anthropic_computer import BETAS, ComputerUseExecutor, tool_definition

    with Desktop("agent") as desktop:
        computer = ComputerUseExecutor(desktop)
        tool = tool_definition(desktop)                     # display size from the real screen
        reply = client.beta.messages.create(..., tools=[tool], betas=[BETAS[tool["type"]]])
        results = [computer.tool_result(b) for b in reply.content if b.type == "tool_use"]

An action's `input` (`{"action": "left_click", "coordinate": [x, y]}`) is translated exactly
as the MCP `computer` tool translates it (`winactions.mcp.computer.COMPUTER`: one command of
the table per action, an argument the action does not take refused by name) and runs on the
`Desktop`. Its `tool_result` content is the command's text, its pictures as base64 PNG image
blocks, and — for an action that changes the screen, when `screenshot_after` is on — a
screenshot taken after it, as Anthropic's reference loop returns. A refused or failed action
is a `tool_result` with `is_error: true` whose text is the error and its hint, with nothing done.

Coordinates are the model's (`winactions.mcp.model_pixels`): with `scaled` (the default) the
tool declares the screen at `vision_scale` of its size, as the API shrinks the screenshots the
model sees, screenshots are sent at that size, and every coordinate and region the model gives
is taken back to screen pixels (the positions results give the other way): a 1920×1080 screen is
1430×804 to the model, and its click at (715, 402) lands at (960, 540). A zoom's picture is
the region at the screen's own resolution, as the tool means it.
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

from winactions import render
from winactions.adapters.actions import pictures_base64, screen_of
from winactions.api import Desktop
from winactions.commands.base import Result
from winactions.commands.results import ValueResult
from winactions.errors import InvalidInput, WinctlError
from winactions.mcp.computer import COMPUTER
from winactions.mcp.model_pixels import in_screen_pixels, model_pixels, shown_to_model, vision_scale

# each tool version and the beta header that enables it
BETAS = {"computer_20250124": "computer-use-2025-01-24", "computer_20251124": "computer-use-2025-11-24"}
# actions after which the screen is as it was: no screenshot is added
LOOKS = frozenset({"screenshot", "zoom", "cursor_position", "wait"})


def tool_definition(
    desktop: Desktop, version: str = "computer_20250124", name: str = "computer", *, scaled: bool = True
) -> dict[str, Any]:
    """The `tools` entry for Anthropic's computer-use tool of this version, sized to the screen
    the desktop's coordinates refer to — at `vision_scale`, unless `scaled` is off (give the
    executor the same) — and `computer_20251124` with zoom enabled."""
    if version not in BETAS:
        raise InvalidInput(f"no computer tool version {version!r}", hint=f"versions: {', '.join(BETAS)}")
    screen = screen_of(desktop.call("displays"))
    factor = vision_scale(screen.width, screen.height) if scaled else 1.0
    tool: dict[str, Any] = {
        "type": version,
        "name": name,
        "display_width_px": round(screen.width * factor),
        "display_height_px": round(screen.height * factor),
    }
    if version == "computer_20251124":
        tool["enable_zoom"] = True
    return tool


class ComputerUseExecutor:
    """Runs the computer tool's `tool_use` inputs on `desktop` (see the module's doc)."""

    def __init__(self, desktop: Desktop, *, screenshot_after: bool = True, scaled: bool = True) -> None:
        self.desktop = desktop
        self.screenshot_after = screenshot_after
        screen = screen_of(desktop.call("displays"))
        self.factor = vision_scale(screen.width, screen.height) if scaled else 1.0  # model pixels per screen pixel
        self.size = (round(screen.width * self.factor), round(screen.height * self.factor))  # the model's screen
        self._folder = tempfile.TemporaryDirectory(prefix="winactions-computer-")
        self._after = str(Path(self._folder.name) / "after.png")  # replaced by each screenshot after an action

    def run(self, tool_input: dict[str, Any]) -> list[dict[str, Any]]:
        """Run one action; its `tool_result` content blocks. A bad input or a failed command
        raises the `WinctlError`, with nothing done."""
        if not isinstance(tool_input, dict):
            raise InvalidInput(f"the computer tool's input is an object, not {type(tool_input).__name__}")
        action = tool_input.get("action")
        with model_pixels(self.factor):
            command, params = COMPUTER.call(tool_input)
        try:
            done = self.desktop.call(command, **params)
        except WinctlError as exc:
            in_screen_pixels(exc, self.factor)
            raise
        result = shown_to_model(done, self.factor, command)
        if action == "cursor_position" and isinstance(result, ValueResult):
            x, y = result.value
            return [{"type": "text", "text": f"X={x},Y={y}"}]
        blocks = [{"type": "text", "text": render.to_text(result)}, *_image_blocks(result)]
        if self.screenshot_after and action not in LOOKS:
            after = self.desktop.call("screenshot", path=self._after, screen=True)
            blocks += _image_blocks(shown_to_model(after, self.factor, "screenshot"))
        return blocks

    def tool_result(self, block: Any) -> dict[str, Any]:
        """The `tool_result` block answering a `tool_use` block (the SDK's object or a dict):
        the action's content, or its error's text with `is_error: true`."""
        block_id, tool_input = _field(block, "id"), _field(block, "input")
        try:
            content = self.run(tool_input)
        except WinctlError as error:
            error.hint = render.hint_for(error.hint, "mcp")
            text = render.error_text(error).replace("error: ", f"error ({error.code}): ", 1)
            return {
                "type": "tool_result",
                "tool_use_id": block_id,
                "content": [{"type": "text", "text": text}],
                "is_error": True,
            }
        return {"type": "tool_result", "tool_use_id": block_id, "content": content}


def _field(block: Any, name: str) -> Any:
    return block.get(name) if isinstance(block, dict) else getattr(block, name, None)


def _image_blocks(result: Result) -> list[dict[str, Any]]:
    """The result's pictures as base64 PNG image blocks."""
    return [
        {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": data}}
        for data in pictures_base64(result)
    ]


__all__ = ["BETAS", "ComputerUseExecutor", "tool_definition", "vision_scale"]
