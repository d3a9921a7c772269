"""Low-level computer-use primitives: mouse buttons, moves, wheel at a point, held
and repeated keys, the cursor position, and a zoomed look at part of the screen."""

from __future__ import annotations

import time
from typing import Literal

from pydantic import Field

from winactions import execution, screenshots
from winactions.backends.base import Capability, MouseButton
from winactions.commands.base import CLI_ONLY, Context, Kind, Params, command
from winactions.commands.results import ActionResult, ScreenshotResult, ValueResult
from winactions.errors import WinctlError
from winactions.keys import parse_keys
from winactions.model import Rect

X = Field(description="screen x (put -- before negative numbers)")
Y = Field(description="screen y")


class MouseButtonParams(Params):
    button: MouseButton = Field(MouseButton.LEFT, description="mouse button")
    x: int | None = Field(None, description="move here first (screen x)")
    y: int | None = Field(None, description="move here first (screen y)")


def _move_first(ctx: Context, p: MouseButtonParams) -> tuple[int, int] | None:
    if p.x is None or p.y is None:
        return None
    execution.check_on_screen(ctx.session.backend, p.x, p.y)
    ctx.session.backend.mouse_move(p.x, p.y)
    return p.x, p.y


@command(
    "mouse-down",
    MouseButtonParams,
    kind=Kind.ACTION,
    capability=Capability.POINTER,
    positional=("x", "y"),
    profiles=("vision",),
)
def mouse_down(ctx: Context, p: MouseButtonParams) -> ActionResult:
    """Press a mouse button and keep it down (end with `mouse-up`), for custom drags."""
    ctx.session.backend.ensure_active(ctx.window())
    point = _move_first(ctx, p)
    ctx.session.backend.mouse_button(p.button, True)
    held = ctx.session.data.held_buttons  # `session close` lets go of what is still down
    ctx.session.data.held_buttons = [*held, p.button.value] if p.button.value not in held else held
    ctx.session.data.pressed_at = list(point or ctx.session.backend.cursor_position())
    ctx.session.save()
    return ActionResult(action="mouse-down", method="mouse", point=point, detail=p.button.value)


@command(
    "mouse-up",
    MouseButtonParams,
    kind=Kind.ACTION,
    capability=Capability.POINTER,
    positional=("x", "y"),
    profiles=("vision",),
)
def mouse_up(ctx: Context, p: MouseButtonParams) -> ActionResult:
    """Release a mouse button (after `mouse-down`), optionally after moving to a point."""
    point = _move_first(ctx, p)
    ctx.session.backend.mouse_button(p.button, False)
    ctx.session.data.held_buttons = [b for b in ctx.session.data.held_buttons if b != p.button.value]
    ctx.session.save()
    return ActionResult(action="mouse-up", method="mouse", point=point, detail=p.button.value)


class MoveParams(Params):
    x: int = X
    y: int = Y


@command(
    "mouse-move",
    MoveParams,
    kind=Kind.ACTION,
    capability=Capability.POINTER,
    positional=("x", "y"),
    profiles=("vision",),
)
def mouse_move(ctx: Context, p: MoveParams) -> ActionResult:
    """Move the pointer to a screen point (hover menus, tooltips)."""
    execution.check_on_screen(ctx.session.backend, p.x, p.y)
    ctx.session.backend.mouse_move(p.x, p.y)
    return ActionResult(action="mouse-move", method="mouse", point=(p.x, p.y))


class CursorParams(Params):
    pass


@command("cursor", CursorParams, capability=Capability.POINTER, profiles=("vision",))
def cursor(ctx: Context, p: CursorParams) -> ValueResult:
    """Where the mouse pointer is: [x, y] in screen pixels."""
    x, y = ctx.session.backend.cursor_position()
    return ValueResult(what="cursor", target_id=0, value=[x, y])


class ScrollAtParams(Params):
    x: int = X
    y: int = Y
    direction: Literal["up", "down", "left", "right"] = Field(description="which way to scroll")
    amount: int = Field(3, ge=1, le=100, description="wheel notches")


@command(
    "scroll-at", ScrollAtParams, kind=Kind.ACTION, positional=("x", "y", "direction", "amount"), profiles=("vision",)
)
def scroll_at(ctx: Context, p: ScrollAtParams) -> ActionResult:
    """Turn the mouse wheel at a screen point."""
    backend = ctx.session.backend
    execution.check_on_screen(backend, p.x, p.y)
    backend.ensure_active(ctx.window())
    dx, dy = execution.wheel_notches(p.direction, p.amount)
    backend.scroll(p.x, p.y, dx, dy)
    return ActionResult(action="scroll-at", method="wheel", point=(p.x, p.y), detail=f"{p.direction} {p.amount}")


class HoldKeyParams(Params):
    keys: str = Field(description='the chord to hold, e.g. "shift" or "ctrl+alt"')
    seconds: float = Field(1.0, gt=0, le=30, description="how long to hold it")


@command(
    "hold-key",
    HoldKeyParams,
    kind=Kind.ACTION,
    capability=Capability.HOLD_KEY,
    positional=("keys", "seconds"),
    profiles=("vision",),
)
def hold_key(ctx: Context, p: HoldKeyParams) -> ActionResult:
    """Hold keys down for some seconds, then release them (games, key-repeat, shift-select)."""
    chords = parse_keys(p.keys, ctx.session.backend.key_names)
    backend = ctx.session.backend
    backend.ensure_active(ctx.window())
    backend.hold_keys(chords, p.seconds)
    return ActionResult(action="hold-key", method="keyboard", detail=f"{p.keys} for {p.seconds:g}s")


class PressParams(Params):
    keys: str = Field(description='key chords, e.g. "Down" or "ctrl+z"')
    times: int = Field(1, ge=1, le=200, description="how many times to press them")
    interval: float = Field(0.05, ge=0, le=5, description="seconds between presses")


@command("press", PressParams, kind=Kind.ACTION, positional=("keys", "times"), profiles=("core",))
def press(ctx: Context, p: PressParams) -> ActionResult:
    """Press keys several times with a pause between: `winctl press Down 5`."""
    chords = parse_keys(p.keys, ctx.session.backend.key_names)
    backend = ctx.session.backend
    backend.ensure_active(ctx.window())
    for i in range(p.times):
        if i:
            time.sleep(p.interval)
        try:
            backend.press_chords(chords)
        except WinctlError as exc:
            if i:  # what went before was sent: say so, whatever the error's own words
                exc.message += f" (on press {i + 1} of {p.times}; the {i} before it were sent)"
                exc.hint = (exc.hint or "").replace("nothing was sent", f"{i} presses went to the window")
            raise
    return ActionResult(action="press", method="keyboard", detail=f"{p.keys} x{p.times}")


class ZoomParams(Params):
    x: int = Field(description="left of the area (screen pixels)")
    y: int = Field(description="top of the area")
    width: int = Field(gt=0, le=4000, description="width of the area")
    height: int = Field(gt=0, le=4000, description="height of the area")
    scale: float = Field(2.0, ge=1, le=8, description="enlargement")
    path: str | None = Field(None, description="where to save the PNG")
    force: bool = Field(False, description="replace an existing file that is not a PNG", json_schema_extra=CLI_ONLY)


@command("zoom", ZoomParams, positional=("x", "y", "width", "height"), profiles=("vision",))
def zoom(ctx: Context, p: ZoomParams) -> ScreenshotResult:
    """A close-up of part of the screen, enlarged (small icons, dense text)."""
    from PIL import Image

    from winactions.commands.saving import png_path

    rect = Rect.from_xywh(p.x, p.y, p.width, p.height)
    path, replace = png_path(ctx, p.path, "zoom", p.force)
    image = screenshots.capture(ctx.session.backend, rect)
    image = image.resize((round(image.width * p.scale), round(image.height * p.scale)), Image.Resampling.LANCZOS)
    path = screenshots.save_png(image, path, replace=replace)
    return ScreenshotResult(path=str(path.resolve()), rect=rect, width=image.width, height=image.height)


class ClipboardParams(Params):
    text: str | None = Field(None, description="put this text on the clipboard; without it, read the clipboard")


@command(
    "clipboard",
    ClipboardParams,
    kind=Kind.ACTION,
    capability=Capability.CLIPBOARD,
    positional=("text",),
    profiles=("windows",),
)
def clipboard(ctx: Context, p: ClipboardParams) -> ValueResult:
    """Read the clipboard's text, or set it: `winctl clipboard`, `winctl clipboard "text"`."""
    backend = ctx.session.backend
    if p.text is not None:
        backend.set_clipboard(p.text)
    return ValueResult(what="clipboard", target_id=0, value=backend.get_clipboard())
