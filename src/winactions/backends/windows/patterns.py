"""Semantic operations through UIA control patterns, pattern-first.

A click is Invoke, else Toggle, else SelectionItem.Select, else ExpandCollapse — whichever
the element supports, in that order, and the result names the one used. (On a selectable
list, grid or tree item Invoke is the double click, so a click selects it.) Text goes through
Value.SetValue, numbers through RangeValue.SetValue, scrolling through ScrollPattern; the
core falls back to coordinates when these raise ActionFailed.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable

from winactions.backends.windows.native import ErrorKind, Native, NativeError, RawElement
from winactions.backends.windows.tree import invoke_means_click
from winactions.backends.windows.uia import (
    SCROLL_NO_AMOUNT,
    SCROLL_SMALL_DECREMENT,
    SCROLL_SMALL_INCREMENT,
)
from winactions.errors import ActionFailed, InvalidInput, NotFound, StaleElement
from winactions.model import Operation

CLICK_CHAIN = ("Invoke", "Toggle", "SelectionItem", "ExpandCollapse")


def _call(native: Native, hwnd: int, raw: RawElement, pattern: str, method: str, *args: object) -> object:
    try:
        return native.call_pattern(hwnd, raw.runtime_id, pattern, method, *args)
    except NativeError as exc:
        if exc.kind is ErrorKind.GONE:
            raise StaleElement("the element is gone", hint="run `winctl state`") from exc
        if exc.kind is ErrorKind.DISABLED:
            raise ActionFailed("the element is disabled", hint="check its state with `winctl inspect`") from exc
        raise ActionFailed(f"{pattern}.{method} failed: {exc.message}", hint="try --via input") from exc


def _expanded(raw: RawElement) -> bool:
    return int(raw.patterns.get("ExpandCollapse", {}).get("ExpandCollapseState", 0)) in (1, 2)


def click(native: Native, hwnd: int, raw: RawElement) -> str:
    for pattern in CLICK_CHAIN:
        if pattern not in raw.patterns or (pattern == "Invoke" and not invoke_means_click(raw)):
            continue
        if pattern == "Invoke":
            _call(native, hwnd, raw, "Invoke", "Invoke")
            return "Invoke.Invoke"
        if pattern == "Toggle":
            _call(native, hwnd, raw, "Toggle", "Toggle")
            return "Toggle.Toggle"
        if pattern == "SelectionItem":
            _call(native, hwnd, raw, "SelectionItem", "Select")
            return "SelectionItem.Select"
        method = "Collapse" if _expanded(raw) else "Expand"
        _call(native, hwnd, raw, "ExpandCollapse", method)
        return f"ExpandCollapse.{method}"
    raise ActionFailed("no Invoke, Toggle, SelectionItem or ExpandCollapse pattern", hint="try --via input")


def scroll(native: Native, hwnd: int, raw: RawElement, argument: str) -> str:
    """`argument` is "down:3": ScrollPattern.Scroll by small steps (a line each)."""
    direction, _, amount = argument.partition(":")
    steps = int(amount or 1)
    info = raw.patterns.get("Scroll", {})
    vertical = direction in ("up", "down")
    if not info.get("VerticallyScrollable" if vertical else "HorizontallyScrollable"):
        raise ActionFailed(f"the element cannot scroll {direction}", hint="the mouse wheel may still work")
    step = SCROLL_SMALL_INCREMENT if direction in ("down", "right") else SCROLL_SMALL_DECREMENT
    for _ in range(steps):
        args = (SCROLL_NO_AMOUNT, step) if vertical else (step, SCROLL_NO_AMOUNT)
        _call(native, hwnd, raw, "Scroll", "Scroll", *args)
    return "Scroll.Scroll"


Descendants = Callable[[], list[RawElement]]


def perform(  # noqa: C901  (one branch per UIA pattern)
    native: Native,
    hwnd: int,
    raw: RawElement,
    operation: Operation,
    argument: str | float | None,
    descendants: Descendants,
) -> str:
    p = raw.patterns
    if operation is Operation.INVOKE:
        return click(native, hwnd, raw)
    if operation is Operation.TOGGLE and "Toggle" in p:
        _call(native, hwnd, raw, "Toggle", "Toggle")
        return "Toggle.Toggle"
    if operation is Operation.SELECT and "SelectionItem" in p:
        _call(native, hwnd, raw, "SelectionItem", "Select")
        return "SelectionItem.Select"
    if operation in (Operation.EXPAND, Operation.COLLAPSE) and "ExpandCollapse" in p:
        method = "Expand" if operation is Operation.EXPAND else "Collapse"
        _call(native, hwnd, raw, "ExpandCollapse", method)
        return f"ExpandCollapse.{method}"
    if operation is Operation.SET_TEXT and "Value" in p:
        if p["Value"].get("IsReadOnly"):
            raise ActionFailed("the element is read-only", hint="it cannot take text")
        _call(native, hwnd, raw, "Value", "SetValue", str(argument or ""))
        return "Value.SetValue"
    if operation is Operation.SET_VALUE and "RangeValue" in p:
        info = p["RangeValue"]
        number = float(argument)  # type: ignore[arg-type]
        low, high = float(info.get("Minimum", number)), float(info.get("Maximum", number))
        if not low <= number <= high:
            raise InvalidInput(f"{number:g} is outside {low:g}..{high:g}", hint="pick a value in range")
        _call(native, hwnd, raw, "RangeValue", "SetValue", number)
        return "RangeValue.SetValue"
    if operation is Operation.SCROLL and "Scroll" in p:
        return scroll(native, hwnd, raw, str(argument))
    if operation is Operation.FOCUS:
        try:
            native.set_focus(hwnd, raw.runtime_id)
        except NativeError as exc:
            raise ActionFailed(f"the element did not take focus: {exc.message}", hint="click it instead") from exc
        return "SetFocus"
    if operation is Operation.CHOOSE:
        return choose(native, hwnd, raw, str(argument), descendants)
    raise ActionFailed(f"no pattern for {operation.value} on this {raw.control_type}", hint="use --via input")


def choose(native: Native, hwnd: int, raw: RawElement, wanted: str, descendants: Descendants) -> str:
    """Select the option named `wanted` among the element's items: open a combo box first
    (its list exists only while open), SelectionItem.Select the match, close it again."""
    opened = False
    if "ExpandCollapse" in raw.patterns and not _expanded(raw):
        _call(native, hwnd, raw, "ExpandCollapse", "Expand")
        opened = True
    items = [d for d in descendants() if "SelectionItem" in d.patterns]
    match = next((d for d in items if d.name == wanted), None) or next(
        (d for d in items if d.name.lower() == wanted.lower()), None
    )
    if match is None:
        if opened:
            _call(native, hwnd, raw, "ExpandCollapse", "Collapse")
        names = ", ".join(f'"{d.name}"' for d in items[:12]) or "none"
        raise NotFound(f'no option "{wanted}"', hint=f"options: {names}")
    _call(native, hwnd, match, "SelectionItem", "Select")
    if opened:
        with contextlib.suppress(ActionFailed):  # many combo boxes close themselves on selection
            _call(native, hwnd, raw, "ExpandCollapse", "Collapse")
    return "SelectionItem.Select"
