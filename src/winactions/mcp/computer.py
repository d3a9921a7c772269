"""Anthropic's `computer` tool: one tool whose `action` names what to do (`winctl mcp --tools computer`).

An agent written for Anthropic's computer-use tool (`computer_20250124`, and
`computer_20251124`'s `zoom`) calls `computer(action="left_click", coordinate=[x, y])`. Each
action is the computer-use set's tool of the same name with the same arguments (`computer_use.COMPUTER_USE`),
so it becomes the same one command; an argument the action does not take is refused by name.
Coordinates are the `screenshot` action's pixels: the whole screen, shrunk as the model's API
shrinks it unless the server runs with `--screen-pixels` (`model_pixels`), so the tool's
display_width_px and display_height_px are the picture's size. The arguments are passed on as
given; the action's own tool reads its pixels.
"""

from __future__ import annotations

from typing import Literal, get_args

from pydantic import Field

from winactions.mcp.computer_use import COMPUTER_USE
from winactions.mcp.translated import Args, Call, Number, Translated

Action = Literal[
    "screenshot",
    "left_click",
    "double_click",
    "triple_click",
    "right_click",
    "middle_click",
    "mouse_move",
    "left_click_drag",
    "left_mouse_down",
    "left_mouse_up",
    "cursor_position",
    "type",
    "key",
    "hold_key",
    "scroll",
    "wait",
    "zoom",
]
ACTIONS: tuple[str, ...] = get_args(Action)
# passed on as given: the action's own tool reads them as pixels (`translated.Pixel`), once
Point = tuple[Number, Number]
Corners = tuple[Number, Number, Number, Number]


class ComputerArgs(Args):
    action: Action
    coordinate: Point | None = Field(None, description="[x, y] in the screenshot's pixels")
    start_coordinate: Point | None = Field(None, description="left_click_drag: the start [x, y]")
    text: str | None = Field(None, description="type: the text; key, hold_key: the keys; clicks: modifiers held")
    duration: float | None = Field(None, description="hold_key, wait: seconds")
    scroll_direction: Literal["up", "down", "left", "right"] | None = None
    scroll_amount: int | None = None
    region: Corners | None = Field(None, description="zoom: [x1, y1, x2, y2]")


def _computer(a: ComputerArgs) -> Call:
    """The action's own tool, with the arguments given (those left out or null dropped)."""
    tool = COMPUTER_USE[a.action]
    return tool.translate(tool.parse(a.model_dump(exclude_none=True, exclude={"action"})))


COMPUTER = Translated(
    "computer",
    ComputerArgs,
    _computer,
    ("screenshot", "click-at", "mouse-move", "drag-at", "mouse-down", "mouse-up", "cursor", "type", "keys"),
    "Use the mouse and keyboard and see the screen: action plus its arguments (Anthropic's computer tool).",
)

__all__ = ["ACTIONS", "COMPUTER"]
