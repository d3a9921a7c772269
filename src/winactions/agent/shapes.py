"""What each plan action takes in `params`, checked when a plan is read.

Plans come in the shapes phone agents write them as well as ours: a key as an Android key
code (`{"keycode": 4}`, `"KEYCODE_BACK"`), a tap or long press at a point (`x`, `y`), a swipe
between two points (`x1`..`y2`), durations in milliseconds. Each check raises `ValueError`
with the field at fault, which `parse_plan` turns into one `InvalidInput` naming the step.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from winactions.errors import InvalidInput
from winactions.keys import android_keycode

DIRECTIONS = ("up", "down", "left", "right")
PHONE_NUMBER = re.compile(r"\+?[0-9*#][0-9*#\- ]*")
POINT = ("x", "y")
SPAN = ("x1", "y1", "x2", "y2")


def check_params(action: str, params: dict[str, Any], has_target: bool) -> None:
    """Raise `ValueError` when `params` do not fit `action` (a `plan.Action` value)."""
    checker = CHECKS.get(action)
    if checker is not None:
        checker(action, params, has_target)


def _int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _ms(params: dict[str, Any], key: str, action: str) -> None:
    value = params.get(key)
    if value is not None and (not isinstance(value, (int, float)) or isinstance(value, bool) or value < 0):
        raise ValueError(f"{action} params.{key} is milliseconds, a number >= 0")


def _point(params: dict[str, Any], action: str, has_target: bool) -> None:
    given = [k for k in POINT if k in params]
    if given and (len(given) < 2 or not all(_int(params[k]) for k in POINT)):
        raise ValueError(f"{action} at a point needs params.x and params.y, whole screen pixels")
    if given and has_target:
        raise ValueError(f"{action} takes a target_ref or params.x/y, not both")
    if not given and not has_target:
        raise ValueError(f"{action} needs a target_ref (or params.x and params.y)")


def _tap(action: str, params: dict[str, Any], has_target: bool) -> None:
    _point(params, action, has_target)


def _long_press(action: str, params: dict[str, Any], has_target: bool) -> None:
    _point(params, "long_press", has_target)
    _ms(params, "duration", "long_press")


def _swipe(action: str, params: dict[str, Any], has_target: bool) -> None:
    if params.get("direction", "down") not in DIRECTIONS:
        raise ValueError(f"{action} direction must be one of {', '.join(DIRECTIONS)}")
    amount = params.get("amount", 5)
    if not _int(amount) or not 1 <= amount <= 100:
        raise ValueError(f"{action} amount is a whole number of wheel notches, 1 to 100")
    span = [k for k in SPAN if k in params]
    if span and (len(span) < 4 or not all(_int(params[k]) for k in SPAN)):
        raise ValueError(f"{action} between points needs params.x1, y1, x2 and y2, whole screen pixels")
    if span and ("direction" in params or has_target):
        raise ValueError(f"{action} takes points or a direction (and target), not both")
    _ms(params, "duration", action)


def _input_text(action: str, params: dict[str, Any], has_target: bool) -> None:
    if not isinstance(params.get("text"), str):
        raise ValueError("input_text needs params.text (a string)")


def _press_key(action: str, params: dict[str, Any], has_target: bool) -> None:
    if "keycode" in params:
        try:
            android_keycode(params["keycode"])
        except InvalidInput as exc:
            raise ValueError(f"press_key params.keycode: {exc.message} ({exc.hint})") from None
        return
    key = params.get("keys", params.get("key"))
    if not isinstance(key, str) or not key.strip():
        raise ValueError('press_key needs params.keys ("ctrl+s Enter"), params.key, or params.keycode (4, "BACK")')


def _wait(action: str, params: dict[str, Any], has_target: bool) -> None:
    waited = params.get("duration", params.get("seconds", 1))
    if not isinstance(waited, (int, float)) or isinstance(waited, bool) or waited < 0:
        raise ValueError("wait takes params.duration in ms (or params.seconds)")


def _launch_app(action: str, params: dict[str, Any], has_target: bool) -> None:
    command = params.get("command", params.get("package"))
    if command is not None and not (
        isinstance(command, str) or (isinstance(command, list) and all(isinstance(c, str) for c in command))
    ):
        raise ValueError("launch_app params.command is a program and its arguments (a list of strings)")


def _open_url(action: str, params: dict[str, Any], has_target: bool) -> None:
    url = params.get("url")
    if not isinstance(url, str) or ":" not in url:
        raise ValueError('open_url needs params.url with its scheme, e.g. "https://example.org"')


def _call(action: str, params: dict[str, Any], has_target: bool) -> None:
    number = params.get("number")
    if _int(number):
        number = str(number)
    if not isinstance(number, str) or not PHONE_NUMBER.fullmatch(number.strip()):
        raise ValueError('call needs params.number, a phone number such as "+15551234567"')


CHECKS: dict[str, Callable[[str, dict[str, Any], bool], None]] = {
    "tap": _tap,
    "click": _tap,
    "long_press": _long_press,
    "swipe": _swipe,
    "scroll": _swipe,
    "input_text": _input_text,
    "press_key": _press_key,
    "wait": _wait,
    "launch_app": _launch_app,
    "open_url": _open_url,
    "call": _call,
}
