"""The execution layer: act on a target the most reliable way, and say which way it was.

A semantic operation (AT-SPI Action, UIA Invoke, ...) does not depend on focus, overlap or
pixel positions, so it is tried first when it means the same as what was asked. Otherwise,
or when it fails, synthesized input goes to the element's visible centre — after checking
that the element is still where the agent last saw it.
"""

from __future__ import annotations

from enum import Enum

from winactions.backends.base import Backend, MouseButton, WindowAction
from winactions.errors import ActionFailed, InvalidInput, StaleElement
from winactions.model import Node, Operation, Target, WindowInfo


class Via(str, Enum):
    AUTO = "auto"  # semantic when it fits, else the mouse/keyboard
    SEMANTIC = "semantic"  # semantic only; fail rather than move the mouse
    INPUT = "input"  # synthesized mouse/keyboard only


# What a plain left click means, in the order tried.
CLICK_OPERATIONS = (Operation.INVOKE, Operation.TOGGLE, Operation.SELECT)


def click_point(target: Target, node: Node | None) -> tuple[int, int]:
    """Centre of the part of the element that is visible now.

    `target.rect` is what was visible at the last state; a fresh rect that no longer
    overlaps it means the element moved (scrolled, reflowed): clicking either place could
    hit something else, so refuse.
    """
    seen = target.rect
    if seen is None:
        raise ActionFailed(f"element {target.id} has no position on screen",
                           hint="it may be hidden; run `winctl state`")
    if node is None or node.rect is None:
        return seen.center
    overlap = node.rect.intersect(seen)
    if overlap is None:
        raise StaleElement(f"element {target.id} moved since the last state "
                           f"(was {seen}, now {node.rect})", hint="run `winctl state`")
    return overlap.center


def wheel_notches(direction: str, amount: int) -> tuple[int, int]:
    """(dx, dy) wheel notches for "up" / "down" / "left" / "right"; down and right are positive."""
    return ({"left": -amount, "right": amount}.get(direction, 0), {"up": -amount, "down": amount}.get(direction, 0))


def check_on_screen(backend: Backend, x: int, y: int) -> None:
    screens = backend.screens()
    if not any(s.contains(x, y) for s in screens):
        raise InvalidInput(f"({x}, {y}) is off every screen",
                           hint="screens: " + ", ".join(str(s) for s in screens))


def ensure_active(backend: Backend, window: WindowInfo) -> None:
    """Synthesized input goes to the focused window: make it the session's window.

    Seed 001's agents lost keystrokes to the terminal that ran winctl; activating first
    removes that whole class of bug.
    """
    if window.active or backend.bound_window() == window.id:
        return  # bound input reaches the window in the background: taking focus would defeat it
    backend.window_action(window.id, WindowAction.ACTIVATE)


def focus(backend: Backend, window: WindowInfo, node: Node | None) -> bool:
    """Give the element the keyboard focus without the mouse, and check that it took it.

    Where an element takes text only by typing (a spreadsheet cell, a web input), its own
    focus operation puts the cursor exactly there, wherever the toolkit says it is drawn
    (LibreOffice reports positions off by a menu bar's height until its window is clicked).
    False when it has none, refuses, or the focus did not move: then the mouse is used."""
    if node is None or Operation.FOCUS not in node.operations:
        return False
    ensure_active(backend, window)
    try:
        backend.perform(node.handle, Operation.FOCUS)
    except ActionFailed:
        return False
    fresh = backend.refresh(node.handle)
    return fresh is not None and "focused" in fresh.states


def try_semantic(backend: Backend, node: Node | None, operations: tuple[Operation, ...],
                 argument: str | float | None = None) -> tuple[str | None, str]:
    """Run the first supported operation; returns (method, note about failures)."""
    if node is None:
        return None, ""
    notes = []
    for op in operations:
        if op in node.operations:
            try:
                return backend.perform(node.handle, op, argument), ""
            except ActionFailed as exc:
                notes.append(f"{op.value} failed ({exc.message})")
    return None, "; ".join(notes)


def click(backend: Backend, window: WindowInfo, target: Target, node: Node | None, *,
          button: MouseButton = MouseButton.LEFT, count: int = 1,
          via: Via = Via.AUTO) -> tuple[str, tuple[int, int] | None, str]:
    """Click a target. Returns (method, point or None, note)."""
    semantic_fits = button is MouseButton.LEFT and count == 1
    note = ""
    if via is not Via.INPUT and semantic_fits:
        method, note = try_semantic(backend, node, CLICK_OPERATIONS)
        if method:
            return method, None, ""
    if via is Via.SEMANTIC:
        raise ActionFailed(f"element {target.id} has no semantic click" + (f": {note}" if note else ""),
                           hint="use --via auto or --via input to click with the mouse")
    x, y = click_point(target, node)
    ensure_active(backend, window)
    backend.click(x, y, button, count)
    return "mouse", (x, y), (f"semantic route failed: {note}" if note else "")

