"""What a phone has and a desktop lacks, as commands of the table: the devices attached,
the home screen, a long press and a swipe. Long press and swipe work on desktops too (the
mouse held down, a drag), so a task runner drives both the same way."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from winactions import execution
from winactions.backends import phone_devices
from winactions.backends.base import Capability
from winactions.commands.base import Context, Kind, OptionalRef, Params, command
from winactions.commands.results import ActionResult, DeviceEntry, DevicesResult
from winactions.errors import InvalidInput
from winactions.model import Rect


class DevicesParams(Params):
    pass


@command("devices", DevicesParams, profiles=("phone",))
def devices(ctx: Context, p: DevicesParams) -> DevicesResult:
    """List the Android devices the adb server knows: serial, state (device, offline,
    unauthorized) and model. Drive one with `winctl --device SERIAL ...`."""
    found, note = phone_devices()
    return DevicesResult(devices=[DeviceEntry(**d) for d in found], note=note)


class GoHomeParams(Params):
    pass


@command("go-home", GoHomeParams, kind=Kind.ACTION, capability=Capability.DEVICE, profiles=("phone",))
def go_home(ctx: Context, p: GoHomeParams) -> ActionResult:
    """Go to the phone's home screen (HOME twice with a pause: the first press may only
    reach the app's own home)."""
    method = ctx.session.backend.go_home()
    return ActionResult(action="go-home", method=method)


class LongPressParams(Params):
    id: OptionalRef = Field(
        None,
        description="element id from `winctl state`, or a visual target (text:..., image:...); or give --x and --y",
    )
    x: int | None = Field(None, description="screen x, instead of an element")
    y: int | None = Field(None, description="screen y, instead of an element")
    duration: float = Field(0.8, gt=0, le=10, description="seconds the press is held")


@command("long-press", LongPressParams, kind=Kind.ACTION, positional=("id",), profiles=("phone",))
def long_press(ctx: Context, p: LongPressParams) -> ActionResult:
    """Press and hold an element or a point: a phone's long press (context menus, drag
    handles), the left button held down on a desktop."""
    backend = ctx.session.backend
    target = None
    if p.id is not None:
        if p.x is not None or p.y is not None:
            raise InvalidInput("give an element or --x/--y, not both", hint="winctl long-press 7")
        target, node = ctx.session.resolve_ref(p.id, ctx.window())
        x, y = execution.pointer_point(backend, ctx.window(), target, node)
    elif p.x is not None and p.y is not None:
        x, y = p.x, p.y
        execution.check_on_screen(backend, x, y)
        backend.ensure_active(ctx.window())
    else:
        raise InvalidInput("long-press needs an element id or --x and --y", hint="winctl long-press 7")
    backend.long_press(x, y, p.duration)
    return ActionResult(
        action="long-press",
        method="touch held" if backend.one_screen else "mouse held",
        target=target,
        point=(x, y),
        detail=f"{p.duration:g}s",
    )


class SwipeParams(Params):
    direction: Literal["up", "down", "left", "right"] | None = Field(
        None, description="the finger's direction (up shows what is below), across the element or the screen"
    )
    id: OptionalRef = Field(None, description="swipe inside this element (else across the screen)")
    distance: float = Field(0.6, gt=0, le=1, description="fraction of the element or screen swiped over")
    x1: int | None = Field(None, description="start x, for a swipe between two points")
    y1: int | None = Field(None, description="start y")
    x2: int | None = Field(None, description="end x")
    y2: int | None = Field(None, description="end y")
    duration: float = Field(0.3, gt=0, le=10, description="seconds the swipe takes")


@command("swipe", SwipeParams, kind=Kind.ACTION, positional=("direction",), profiles=("phone",))
def swipe(ctx: Context, p: SwipeParams) -> ActionResult:
    """Swipe a finger: in a direction across an element or the screen (`winctl swipe up`,
    `winctl swipe left --id 5`), or between two points (--x1 --y1 --x2 --y2). A drag on a
    desktop."""
    backend = ctx.session.backend
    points = (p.x1, p.y1, p.x2, p.y2)
    target = None
    if all(v is not None for v in points):
        if p.direction is not None or p.id is not None:
            raise InvalidInput("give a direction or four points, not both", hint="winctl swipe up")
        x1, y1, x2, y2 = (int(v) for v in points)  # type: ignore[arg-type]
    elif any(v is not None for v in points):
        raise InvalidInput("a swipe between points needs --x1 --y1 --x2 --y2", hint="or a direction: winctl swipe up")
    elif p.direction is None:
        raise InvalidInput("swipe needs a direction (up, down, left, right) or four points", hint="winctl swipe up")
    else:
        area = _area(ctx, p)
        if p.id is not None:
            target, _ = ctx.session.resolve_ref(p.id, ctx.window())
            if target.rect is None:
                raise InvalidInput(f"element {target.id} has no place on the screen", hint="run `winctl state`")
            area = target.rect
        cx, cy = area.center
        half_w, half_h = int(area.width * p.distance / 2), int(area.height * p.distance / 2)
        dx = {"left": -half_w, "right": half_w}.get(p.direction, 0)
        dy = {"up": -half_h, "down": half_h}.get(p.direction, 0)
        x1, y1, x2, y2 = cx - dx, cy - dy, cx + dx, cy + dy
    for x, y in ((x1, y1), (x2, y2)):
        execution.check_on_screen(backend, x, y)
    backend.ensure_active(ctx.window())
    backend.swipe(x1, y1, x2, y2, p.duration)
    return ActionResult(
        action="swipe",
        method="input swipe" if backend.one_screen else "drag",
        target=target,
        point=(x1, y1),
        detail=f"to ({x2}, {y2}) in {p.duration:g}s",
    )


def _area(ctx: Context, p: SwipeParams) -> Rect:
    window = ctx.window()
    screens = ctx.session.backend.screens()
    return window.rect or screens[0]
