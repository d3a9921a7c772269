"""The computer-use tool set by its own names and arguments (`winctl mcp --tools computer-use`).

Thirty-eight tools — `left_click(coordinate=[x, y], text="shift")`, `scroll(coordinate,
scroll_direction, scroll_amount)`, `zoom(region=[x1, y1, x2, y2])`, `computer_batch(actions)`,
the bound-window, terminal and teach tools — each a translation onto one command of the table
(`translated.Translated`): an agent written for that set runs unchanged, and every call gets
the command's checks, errors and results. Coordinates are the whole-screen `screenshot`'s
pixels (shrunk as the model's API shrinks it, unless the server runs with `--screen-pixels`:
`model_pixels`). docs/computer-use-tools.md maps each tool to its command, and says where one
differs.
"""

from __future__ import annotations

import json
import shlex
from typing import Any, Literal

from pydantic import Field

from winactions.backends.base import Capability
from winactions.errors import InvalidInput, WinctlError
from winactions.mcp.translated import (
    Args,
    Call,
    Coordinate,
    Pixel,
    Region,
    Translated,
    bind,
    key_names,
    modifiers,
    rect_of,
)

BOUND = Capability.BOUND_WINDOW  # the tools of bound-window mode: served where input can be bound
POINT = "coordinate: [x, y] in the screenshot's pixels"


class NoArgs(Args):
    pass


# -- access, screen ---------------------------------------------------------------------------
class RequestAccessArgs(Args):
    apps: list[str] = Field(min_length=1, description="the applications to act on")
    reason: str | None = None
    clipboardRead: bool = False
    clipboardWrite: bool = False
    systemKeyCombos: bool = False


def _request_access(a: RequestAccessArgs) -> Call:
    flags = {"clipboard_read": a.clipboardRead, "clipboard_write": a.clipboardWrite, "system_keys": a.systemKeyCombos}
    return Call("request-access", (a.apps,), {"reason": a.reason, **{k: True for k, v in flags.items() if v}})


class ScreenshotArgs(Args):
    save_to_disk: bool = Field(False, description="the PNG is always saved, in the output folder")


class ZoomArgs(Args):
    region: Region = Field(description="[x1, y1, x2, y2] in the screenshot's pixels")


class DisplayArgs(Args):
    display: int | str = Field(description='a monitor number, or "all"')


# -- mouse --------------------------------------------------------------------------------------
class ClickArgs(Args):
    coordinate: Coordinate = Field(description="[x, y] in the screenshot's pixels")
    text: str | None = Field(None, description='modifier keys held: "shift", "ctrl", "alt", "ctrl+shift"')


def _click(button: str, count: int) -> Any:
    def translate(a: ClickArgs) -> Call:
        held = modifiers(a.text) if a.text else None
        return Call("click-at", a.coordinate, {"button": button, "count": count, "modifiers": held})

    return translate


class PointArgs(Args):
    coordinate: Coordinate = Field(description="[x, y] in the screenshot's pixels")


class DragArgs(Args):
    coordinate: Coordinate = Field(description="the end [x, y]")
    start_coordinate: Coordinate = Field(description="the start [x, y]")


# -- keyboard -----------------------------------------------------------------------------------
class TextArgs(Args):
    text: str


class KeyArgs(Args):
    text: str = Field(description='keys: "ctrl+s", "Return", "alt+Tab"')
    repeat: int | None = Field(None, ge=1, le=200, description="press them this many times")


def _key(a: KeyArgs) -> Call:
    keys = key_names(a.text)
    return Call("keys", (keys,)) if a.repeat in (None, 1) else Call("press", (keys, a.repeat))


class HoldKeyArgs(Args):
    text: str = Field(description='keys to hold: "shift", "ctrl+alt"')
    duration: float = Field(description="seconds")


class ScrollArgs(Args):
    coordinate: Coordinate = Field(description="[x, y] under the wheel")
    scroll_direction: Literal["up", "down", "left", "right"]
    scroll_amount: int = Field(description="wheel notches")
    text: str | None = Field(None, description="modifier keys held: not offered (refused)")


def _scroll(a: ScrollArgs) -> Call:
    if a.text:
        raise InvalidInput(
            "scroll with held keys (text) is not offered: nothing was done",
            hint="scroll without text; zoom in with key text=ctrl+plus",
        )
    return Call("scroll-at", (*a.coordinate, a.scroll_direction, a.scroll_amount))


class AppArgs(Args):
    app: str = Field(description='the program, with its arguments: "mousepad", "gedit --new-window"')


class WaitArgs(Args):
    duration: float = Field(description="seconds")


class BatchArgs(Args):
    actions: list[dict[str, Any]] = Field(
        min_length=1, description='steps run in order, each {"action": TOOL, ...its arguments}; stops at a failure'
    )


def _batch(a: BatchArgs) -> Call:
    steps = []
    for index, action in enumerate(a.actions, 1):
        name = action.get("action")
        tool = COMPUTER_USE.get(name) if isinstance(name, str) and name != "computer_batch" else None
        if tool is None:
            raise InvalidInput(
                f"actions[{index}]: no action {json.dumps(name)}; nothing was done",
                hint=f"an action is one of: {', '.join(n for n in COMPUTER_USE if n != 'computer_batch')}",
            )
        try:
            command, args = tool.call({k: v for k, v in action.items() if k != "action"})
        except WinctlError as exc:
            exc.message = f"actions[{index}] ({name}): {exc.message}"
            raise
        steps.append({"command": command, "args": args})
    return Call("batch", (steps,))


# -- bound windows ------------------------------------------------------------------------------
class BindArgs(Args):
    action: Literal["list", "bind", "unbind", "status"]
    title: str | None = None
    hwnd: int | None = None
    pid: int | None = None


def _bind(a: BindArgs) -> Call:
    given = [k for k in ("title", "hwnd", "pid") if getattr(a, k) is not None]
    if len(given) > 1 or (given and a.action != "bind"):
        raise InvalidInput(
            f"bind_window {a.action} takes {'one of title, hwnd, pid' if a.action == 'bind' else 'no window'}, "
            f"not {', '.join(given)}; nothing was done",
            hint='bind_window(action="bind", title="Notepad")',
        )
    window = a.title if a.title is not None else (str(a.hwnd) if a.hwnd is not None else None)
    return Call("bind-window", (a.action, window), {"pid": a.pid})


class WindowArgs(Args):
    action: Literal["minimize", "maximize", "restore", "close", "focus", "move_offscreen", "move_resize", "get_rect"]
    x: Pixel | None = None
    y: Pixel | None = None
    width: Pixel | None = None
    height: Pixel | None = None


WINDOW_ACTIONS = {"focus": "activate", "move_offscreen": "offscreen", "move_resize": "move"}


def _window(a: WindowArgs) -> Call:
    place = (a.x, a.y, a.width, a.height)
    if a.action != "move_resize" and place != (None,) * 4:
        raise InvalidInput(
            f"x, y, width and height are for move_resize, not {a.action}; nothing was done",
            hint='window_management(action="move_resize", x=0, y=0, width=800, height=600)',
        )
    if a.action == "close":
        return Call("close")
    if a.action == "get_rect":
        return Call("windows")  # every window with its rect: the session's is among them
    if a.action == "move_resize" and None in (a.x, a.y):
        raise InvalidInput("move_resize needs x and y (width and height: as it is)", hint="x=0, y=0, width=800")
    return Call("window", (WINDOW_ACTIONS.get(a.action, a.action), *place))


class VirtualMouseArgs(Args):
    action: Literal["click", "double_click", "right_click", "move", "drag", "down", "up"]
    coordinate: Coordinate | None = Field(None, description="[x, y]; down and up: move there first")
    start_coordinate: Coordinate | None = Field(None, description="drag: the start")


def _virtual_mouse(a: VirtualMouseArgs) -> Call:
    if a.action in ("down", "up"):
        return Call("mouse-down" if a.action == "down" else "mouse-up", a.coordinate or ())
    if a.coordinate is None:
        raise InvalidInput(f"virtual_mouse {a.action} needs coordinate [x, y]; nothing was done", hint=POINT)
    if a.action == "move":
        return Call("mouse-move", a.coordinate)
    if a.action == "drag":
        if a.start_coordinate is None:
            raise InvalidInput("virtual_mouse drag needs start_coordinate [x, y]; nothing was done", hint=POINT)
        return Call("drag-at", (*a.start_coordinate, *a.coordinate))
    button, count = {"click": ("left", 1), "double_click": ("left", 2), "right_click": ("right", 1)}[a.action]
    return Call("click-at", a.coordinate, {"button": button, "count": count})


class VirtualKeyboardArgs(Args):
    action: Literal["type", "combo", "press", "release", "hold"]
    text: str
    duration: float | None = Field(None, description="hold: seconds")
    repeat: int | None = Field(None, ge=1, le=200, description="combo: times")


def _virtual_keyboard(a: VirtualKeyboardArgs) -> Call:
    if a.action == "type":
        return Call("type", (a.text,))
    if a.action == "combo":
        return _key(KeyArgs(text=a.text, repeat=a.repeat))
    if a.action == "hold":
        return Call("hold-key", (key_names(a.text), a.duration))
    return Call("key-down" if a.action == "press" else "key-up", (key_names(a.text),))


class WheelArgs(Args):
    coordinate: Coordinate
    delta: int = Field(description="notches: up (right) if positive, down (left) if negative")
    direction: Literal["vertical", "horizontal"] = "vertical"


def _wheel(a: WheelArgs) -> Call:
    if a.delta == 0:
        raise InvalidInput("mouse_wheel delta 0 turns nothing; nothing was done", hint="delta=-5 scrolls down")
    ways = ("up", "down") if a.direction == "vertical" else ("right", "left")
    return Call("scroll-at", (*a.coordinate, ways[a.delta < 0], abs(a.delta)))


# -- elements, terminals, people ---------------------------------------------------------------
class ElementArgs(Args):
    name: str | None = None
    role: str | None = Field(None, description="control type: Button, Edit, CheckBox")
    automationId: str | None = None


class TypeIntoArgs(ElementArgs):
    text: str


def _selector(a: ElementArgs) -> dict[str, Any]:
    return {"name": a.name, "type": a.role, "automation_id": a.automationId}


class TerminalArgs(Args):
    agent: Literal["claude", "codex", "gemini", "custom"]
    command: str | None = Field(None, description="custom: the command to run")


class ActivateArgs(Args):
    click_x: Pixel | None = None
    click_y: Pixel | None = None


def _activate(a: ActivateArgs) -> Call:
    if (a.click_x is None) != (a.click_y is None):
        raise InvalidInput(
            "activate_window takes click_x and click_y together, or neither; nothing was done",
            hint="activate_window(click_x=400, click_y=300) clicks into the window too",
        )
    if a.click_x is not None:
        return Call("click-at", (a.click_x, a.click_y))  # activates the window, then clicks into it
    return Call("window", ("activate",))


class PromptArgs(Args):
    response_type: Literal["yes", "no", "enter", "escape", "select", "type"]
    arrow_direction: Literal["up", "down"] | None = None
    arrow_count: int | None = None
    text: str | None = None


class IndicatorArgs(Args):
    action: Literal["show", "hide", "status"]
    message: str | None = None


class TeachPointArgs(Args):
    text: str = Field(description="what the person is shown")
    element: int | str | None = Field(None, description="the element to point at: an id, or a name")
    region: Region | None = Field(None, description="or the [x1, y1, x2, y2] to point at")


class TeachStepArgs(TeachPointArgs):
    timeout: float | None = Field(None, description="seconds to wait for Next")


def _teach_step(a: TeachPointArgs) -> Call:
    if (a.element is None) == (a.region is None):
        raise InvalidInput(
            "teach_step points at an element or a region: give one; nothing was done",
            hint='teach_step(text="Press Save", element=7) or region=[x1, y1, x2, y2]',
        )
    rect = list(rect_of(a.region)) if a.region is not None else None
    return Call("teach-step", (a.element,), {"text": a.text, "rect": rect, "timeout": getattr(a, "timeout", None)})


class TeachBatchArgs(Args):
    steps: list[TeachPointArgs] = Field(min_length=1, description="each {text, element or region}")
    timeout: float | None = Field(None, description="seconds each step waits for Next")


def _teach_batch(a: TeachBatchArgs) -> Call:
    steps = [bind(_teach_step(step))[1] for step in a.steps]  # each step as teach-step takes it
    return Call("teach-batch", (json.dumps(steps),), {"timeout": a.timeout})


def _tool(name: str, args: type[Args], translate: Any, commands: str, description: str, **more: Any) -> Translated:
    return Translated(name, args, translate, tuple(commands.split()), description, **more)


COMPUTER_USE_TOOLS: tuple[Translated, ...] = (
    _tool(
        "request_access",
        RequestAccessArgs,
        _request_access,
        "request-access",
        "Ask the person for access to these applications (and the clipboard, system keys).",
    ),
    _tool("list_granted_applications", NoArgs, lambda a: Call("grants"), "grants", "The applications granted."),
    _tool(
        "screenshot",
        ScreenshotArgs,
        lambda a: Call("screenshot", options={"screen": True}),
        "screenshot",
        "A picture of the whole screen (its pixels are the coordinates).",
    ),
    _tool("zoom", ZoomArgs, lambda a: Call("zoom", rect_of(a.region)), "zoom", "A close-up of a region, enlarged."),
    _tool(
        "switch_display",
        DisplayArgs,
        lambda a: Call("switch-display", (str(a.display),)),
        "switch-display",
        "Which monitor screenshots and coordinates refer to.",
    ),
    _tool("left_click", ClickArgs, _click("left", 1), "click-at", "Left-click at [x, y]."),
    _tool("double_click", ClickArgs, _click("left", 2), "click-at", "Double-click at [x, y]."),
    _tool("triple_click", ClickArgs, _click("left", 3), "click-at", "Triple-click at [x, y] (a line)."),
    _tool("right_click", ClickArgs, _click("right", 1), "click-at", "Right-click at [x, y]."),
    _tool("middle_click", ClickArgs, _click("middle", 1), "click-at", "Middle-click at [x, y]."),
    _tool("mouse_move", PointArgs, lambda a: Call("mouse-move", a.coordinate), "mouse-move", "Move the pointer."),
    _tool(
        "left_click_drag",
        DragArgs,
        lambda a: Call("drag-at", (*a.start_coordinate, *a.coordinate)),
        "drag-at",
        "Drag with the left button from start_coordinate to coordinate.",
    ),
    _tool("left_mouse_down", NoArgs, lambda a: Call("mouse-down"), "mouse-down", "Press the left button."),
    _tool("left_mouse_up", NoArgs, lambda a: Call("mouse-up"), "mouse-up", "Release the left button."),
    _tool("cursor_position", NoArgs, lambda a: Call("cursor"), "cursor", "Where the pointer is: [x, y]."),
    _tool("type", TextArgs, lambda a: Call("type", (a.text,)), "type", "Type text where the focus is."),
    _tool("key", KeyArgs, _key, "keys press", "Press a key or chord (xdotool names)."),
    _tool(
        "hold_key",
        HoldKeyArgs,
        lambda a: Call("hold-key", (key_names(a.text), a.duration)),
        "hold-key",
        "Hold keys down for duration seconds.",
    ),
    _tool("scroll", ScrollArgs, _scroll, "scroll-at", "Turn the wheel at [x, y]."),
    _tool(
        "open_application",
        AppArgs,
        lambda a: Call("launch", (shlex.split(a.app),)),
        "launch",
        "Start an application and wait for its window.",
    ),
    _tool("read_clipboard", NoArgs, lambda a: Call("clipboard"), "clipboard", "The clipboard's text."),
    _tool("write_clipboard", TextArgs, lambda a: Call("clipboard", (a.text,)), "clipboard", "Set the clipboard."),
    _tool("wait", WaitArgs, lambda a: Call("wait", (a.duration,)), "wait", "Wait duration seconds."),
    _tool("computer_batch", BatchArgs, _batch, "batch", "Run several actions in one call."),
    _tool("bind_window", BindArgs, _bind, "bind-window", "List, bind, unbind or check the bound window."),
    _tool(
        "window_management",
        WindowArgs,
        _window,
        "window close windows",
        "Minimize, maximize, restore, close, focus, move or measure the window.",
    ),
    _tool(
        "virtual_mouse",
        VirtualMouseArgs,
        _virtual_mouse,
        "click-at mouse-move drag-at mouse-down mouse-up",
        "The mouse in the bound window (the real one stays).",
        needs=BOUND,
    ),
    _tool(
        "virtual_keyboard",
        VirtualKeyboardArgs,
        _virtual_keyboard,
        "type keys press key-down key-up hold-key",
        "The keyboard in the bound window.",
        needs=BOUND,
    ),
    _tool("mouse_wheel", WheelArgs, _wheel, "scroll-at", "Turn the wheel at [x, y] in the bound window.", needs=BOUND),
    _tool(
        "click_element",
        ElementArgs,
        lambda a: Call("click-element", options=_selector(a)),
        "click-element",
        "Click the element with this name, role or automation id.",
    ),
    _tool(
        "type_into_element",
        TypeIntoArgs,
        lambda a: Call("type-into-element", (a.text,), _selector(a)),
        "type-into-element",
        "Set the text of the element with this name, role or automation id.",
    ),
    _tool(
        "open_terminal",
        TerminalArgs,
        lambda a: Call("open-terminal", (a.agent,), {"command": a.command}),
        "open-terminal",
        "Open a terminal running an agent or a command.",
    ),
    _tool("activate_window", ActivateArgs, _activate, "window click-at", "Bring the window forward (and click in it)."),
    _tool(
        "prompt_respond",
        PromptArgs,
        lambda a: Call(
            "prompt-respond",
            (a.response_type,),
            {"arrow": a.arrow_direction, "count": a.arrow_count, "text": a.text},
        ),
        "prompt-respond",
        "Answer the terminal's prompt.",
    ),
    _tool(
        "status_indicator",
        IndicatorArgs,
        lambda a: Call("status-indicator", (a.action, a.message)),
        "status-indicator",
        "Show, hide or read the label saying what the agent does.",
    ),
    _tool(
        "request_teach_access",
        NoArgs,
        lambda a: Call("request-teach-access"),
        "request-teach-access",
        "Ask the person to be guided step by step.",
    ),
    _tool("teach_step", TeachStepArgs, _teach_step, "teach-step", "Show one step and wait for the person's Next."),
    _tool("teach_batch", TeachBatchArgs, _teach_batch, "teach-batch", "Show several steps, one after another."),
)
COMPUTER_USE: dict[str, Translated] = {t.name: t for t in COMPUTER_USE_TOOLS}

__all__ = ["COMPUTER_USE", "COMPUTER_USE_TOOLS"]
