"""The table command each plan step runs: `{"command": NAME, "args": {...}}`.

A plan's milliseconds become the table's seconds; a phone's words (tap, swipe, key codes)
become a desktop's where the session drives a desktop (click, a scroll the other way, the
desktop key for an Android key code). What a desktop has no key for (CALL, POWER) is an
`Unsupported` step, said before anything is done.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from winactions.agent.plan import Action, StepPlan
from winactions.agent.resolve import Resolved
from winactions.errors import NotFound, Unsupported
from winactions.keys import android_keycode
from winactions.model import Operation, UIState

FLIPPED = {"up": "down", "down": "up", "left": "right", "right": "left"}  # a swipe's way -> the content's
NO_TARGET = frozenset(
    {
        Action.PRESS_KEY,
        Action.WAIT,
        Action.GO_HOME,
        Action.LAUNCH_APP,
        Action.OPEN_URL,
        Action.CALL,
        Action.SWIPE,
        Action.SCROLL,
    }
)
BATCHABLE = frozenset(
    {Action.PRESS_KEY, Action.WAIT, Action.LAUNCH_APP, Action.OPEN_URL, Action.CALL, Action.INPUT_TEXT}
)
Call = dict[str, Any]


def untargeted(step: StepPlan) -> bool:
    """The step acts without looking anything up: no target_ref, and an action that needs none
    or a point of the plan's own (`x`, `y`)."""
    return not step.target_ref and (step.action in NO_TARGET or "x" in step.params)


def call_for(
    step: StepPlan,
    where: Resolved,
    *,
    touch: bool,
    launch: list[str] | None = None,
    scrollable: Callable[[], int] | None = None,
) -> Call:
    """The command `step` runs at `where`. `touch`: the session drives a phone (it has
    `go-home`); `launch`: the app module's launch command; `scrollable`: the element a scroll
    without a target scrolls (asked only then)."""
    a = step.action
    if a in (Action.TAP, Action.CLICK, Action.LONG_PRESS, Action.INPUT_TEXT):
        return _pointing(step, where)
    if a in (Action.SWIPE, Action.SCROLL):
        return _swiping(step, where, touch, scrollable)
    if a is Action.PRESS_KEY:
        return {"command": "keys", "args": {"keys": key_spec(step.params, touch)}}
    if a is Action.WAIT:
        p = step.params
        ms = p["duration"] if "duration" in p else float(p.get("seconds", 1)) * 1000
        return {"command": "wait", "args": {"seconds": float(ms) / 1000}}
    if a is Action.LAUNCH_APP:
        argv = step.params.get("command") or step.params.get("package") or launch
        if isinstance(argv, str):
            argv = argv.split()
        if not argv:
            raise Unsupported("launch_app needs params.command, or an app module that names its launch command")
        return {"command": "launch", "args": {"command": list(argv)}}
    if a is Action.OPEN_URL:
        return {"command": "open-url", "args": {"url": step.params["url"]}}
    if a is Action.CALL:  # the platform's tel: handler: a phone's dialer, the number filled in
        number = "".join(str(step.params["number"]).split())
        return {"command": "open-url", "args": {"url": f"tel:{number}"}}
    return {"command": "go_home", "args": {}}  # Action.GO_HOME: a loop, see the runner's _go_home


def _pointing(step: StepPlan, where: Resolved) -> Call:
    a, p, ref = step.action, step.params, where.ref
    point = where.point or ((int(p["x"]), int(p["y"])) if ref is None and "x" in p else None)
    if a is Action.LONG_PRESS:
        at = {"x": point[0], "y": point[1]} if point is not None else {"id": ref}
        return {"command": "long-press", "args": {**at, **_seconds(p, "duration")}}
    if point is not None and a is Action.INPUT_TEXT:
        x, y = point  # a point from pixels (an app image, the vision model): act there
        steps = [
            {"command": "click-at", "args": {"x": x, "y": y}},
            {"command": "keys", "args": {"keys": "ctrl+a"}},
            {"command": "type", "args": {"text": p["text"]}},
        ]
        return {"command": "batch", "args": {"steps": steps}}
    if point is not None:
        return {"command": "click-at", "args": {"x": point[0], "y": point[1]}}
    if a is Action.INPUT_TEXT:
        if ref is None:
            return {"command": "type", "args": {"text": p["text"]}}
        return {"command": "input", "args": {"id": ref, "text": p["text"], "enter": bool(p.get("enter", False))}}
    return {"command": "click", "args": {"id": ref}}


def _swiping(step: StepPlan, where: Resolved, touch: bool, scrollable: Callable[[], int] | None) -> Call:
    a, p, ref = step.action, step.params, where.ref
    if "x1" in p:  # between two points: a finger on a phone, a drag on a desktop
        points = {k: int(p[k]) for k in ("x1", "y1", "x2", "y2")}
        return {"command": "swipe", "args": {**points, **_seconds(p, "duration")}}
    direction = str(p.get("direction", "down"))
    if a is Action.SWIPE and ref is None and touch:
        return {"command": "swipe", "args": {"direction": direction, **_seconds(p, "duration")}}
    if a is Action.SWIPE and not touch:  # a finger moving up moves the content down: a desktop scrolls
        direction = FLIPPED.get(direction, direction)
    if ref is None:
        if scrollable is None:
            raise NotFound("nothing in the window scrolls", hint="give the scroll a target_ref")
        ref = scrollable()
    return {"command": "scroll", "args": {"id": ref, "direction": direction, "amount": int(p.get("amount", 5))}}


def key_spec(params: dict[str, Any], touch: bool) -> str:
    """The `keys` argument of a press_key step: params.keys or params.key as written, or an
    Android key code (params.keycode, or a key written `KEYCODE_...`) as the phone's own key
    or the desktop key that does its job (BACK is Escape). A code a desktop has no key for
    is `Unsupported`."""
    written = params.get("keys", params.get("key"))
    code = params.get("keycode")
    if code is None and isinstance(written, str) and written.strip().upper().startswith("KEYCODE_"):
        code = written
    if code is None:
        return str(written)
    key = android_keycode(code)
    if touch:
        return key.constant.lower()
    if key.desktop is None:
        raise Unsupported(
            f"a desktop has no {key.name} key (Android key code {key.code})",
            hint="nothing was done; plan this step with a key the desktop has, or drive a phone (--device)",
        )
    return key.desktop


def scrollable(state: UIState) -> int:
    """The element a scroll without a target scrolls: the largest that scrolls by itself,
    else the largest list, table, tree or document of the window."""
    pool = [t for t in state.targets if Operation.SCROLL in t.operations] or [
        t for t in state.targets if t.type in ("List", "Table", "Tree", "Document", "Edit", "Pane") and t.rect
    ]
    if not pool:
        raise NotFound("nothing in the window scrolls", hint="give the scroll a target_ref")
    return max(pool, key=lambda t: t.rect.width * t.rect.height if t.rect else 0).id


def _seconds(params: dict[str, Any], key: str) -> dict[str, Any]:
    """A plan's milliseconds (`duration`) as the table's seconds (`--duration`)."""
    return {"duration": float(params[key]) / 1000} if key in params else {}
