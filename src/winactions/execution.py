"""Clicks decided in one place (`click`): act on a target the most reliable way, check that
the app took it, and say which way it was; with the parts `scroll`, `drag` and `select` use
(`try_semantic`, `pointer_point`, `wheel_moved`, `choose_by_keys`).

`click` tries a semantic operation (AT-SPI Action, UIA Invoke, ...) first when it means the
same as what was asked: it does not depend on focus, overlap or pixel positions. Otherwise,
or when it fails, synthesized input goes to the element's visible centre, once the element is
known to be where the agent last saw it, uncovered and named as it was. Everything here calls
down only, to the backend's primitives; text is decided in `text_entry`, which calls `click`
for a click to type.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from enum import Enum

from winactions.backends.base import IN_POPUP, Backend, Key, MouseButton, no_option, option_index
from winactions.errors import ActionFailed, AppBusy, InvalidInput, ModalInCall, StaleElement, WinctlError, shown
from winactions.keys import parse_keys
from winactions.model import Node, Operation, Rect, Source, Target, WindowInfo


class Via(str, Enum):
    AUTO = "auto"  # semantic when it fits, else the mouse/keyboard
    SEMANTIC = "semantic"  # semantic only; fail rather than move the mouse
    INPUT = "input"  # synthesized mouse/keyboard only


# What a plain left click means, in the order tried.
CLICK_OPERATIONS = (Operation.INVOKE, Operation.TOGGLE, Operation.SELECT)
CHOSEN_SETTLE = 0.6  # s: how long a chosen option may take to show in its combo box
OPEN_SETTLE = 1.0  # s: how long a combo box's list may take to open after a click
UNCOVER_SECONDS = 1.0  # s: how long a tooltip may take to go once the pointer left its widget
STILL_HANDLING = "the app is still handling it)"  # how `Backend.perform` ends when the handler has not returned
MOUSE_TAKEN = 0.02  # s: by when an app has taken a click queued with its other events (a frame's pause)
RESTORE_SETTLE = 1.0  # s: how long an app may take to place its elements again after its window is restored
MENU_LEFT_OPEN = "the app leaves its menu open after a semantic press: `winctl keys Escape` closes it"
POPUP_CONTENT = frozenset({"MenuItem", "Menu", "ListItem"})  # may be inside an open menu or drop-down ...
SEEN_ON_SCREEN = frozenset({Source.VISION, Source.OCR, Source.TEMPLATE, Source.FIXED})  # ... as may what was seen there


def click_point(target: Target, node: Node | None) -> tuple[int, int]:
    """Centre of the part of the element that is visible now.

    `target.rect` is what was visible at the last state; a fresh rect that no longer
    overlaps it means the element moved (scrolled, reflowed): clicking either place could
    hit something else, so refuse.
    """
    seen = target.rect
    if seen is None:
        raise ActionFailed(
            f"element {target.id} has no position on screen", hint="it may be hidden; run `winctl state`"
        )
    if node is None or node.rect is None:
        return seen.center
    overlap = node.rect.intersect(seen)
    if overlap is None:
        raise StaleElement(
            f"element {target.id} moved since the last state (was {seen}, now {node.rect})", hint="run `winctl state`"
        )
    return overlap.center


def pointer_point(backend: Backend, window: WindowInfo, target: Target, node: Node | None) -> tuple[int, int]:
    """Where the pointer goes on the element (`click_point`), its window made active first. A
    minimized window is brought back and the element read again there (`_back_in_place`): on
    its way back, its toolkit places its elements wherever the window is."""
    backend.ensure_active(window)
    if window.minimized and node is not None:
        node = _back_in_place(backend, target, node)
    return click_point(target, node)


def _back_in_place(backend: Backend, target: Target, node: Node) -> Node:
    """The element read again once its window is back from minimized: where it was seen, or
    wherever it still is after RESTORE_SETTLE (the window manager has the window in place
    before the app has caught up)."""
    deadline = time.monotonic() + RESTORE_SETTLE
    while True:
        now = backend.refresh(node.handle) or node
        seen_there = now.rect is not None and target.rect is not None and now.rect.intersect(target.rect) is not None
        if seen_there or time.monotonic() > deadline:
            return now
        time.sleep(0.05)


def wheel_notches(direction: str, amount: int) -> tuple[int, int]:
    """(dx, dy) wheel notches for "up" / "down" / "left" / "right"; down and right are positive."""
    return ({"left": -amount, "right": amount}.get(direction, 0), {"up": -amount, "down": amount}.get(direction, 0))


WHEEL_SETTLE = 0.6  # s a turn of the wheel may take to move what is under it
WHEEL_POLL = 0.05


def wheel_moved(backend: Backend, area: Rect | None, x: int, y: int, dx: int, dy: int) -> bool | None:
    """Turn the wheel (dx, dy notches at (x, y)) and say whether the pixels of `area` changed
    within WHEEL_SETTLE: what an app shows is the only sign every toolkit gives that a wheel
    scrolled it. None when the area cannot be read (none given, off every screen); the wheel
    is turned either way."""
    region = area if area is None or backend.bound_window() is not None else _on_a_screen(backend, area)
    before = backend.capture(region).tobytes() if region is not None else None
    backend.scroll(x, y, dx, dy)
    if region is None or before is None:
        return None
    deadline = time.monotonic() + WHEEL_SETTLE
    while True:
        time.sleep(WHEEL_POLL)
        if backend.capture(region).tobytes() != before:
            return True
        if time.monotonic() >= deadline:
            return False


def _on_a_screen(backend: Backend, area: Rect) -> Rect | None:
    """The largest part of `area` on one screen, or None."""
    parts = [part for screen in backend.screens() if (part := area.intersect(screen)) is not None]
    return max(parts, key=lambda part: part.area) if parts else None


def check_on_screen(backend: Backend, x: int, y: int) -> None:
    screens = backend.screens()
    if not any(s.contains(x, y) for s in screens):
        raise InvalidInput(f"({x}, {y}) is off every screen", hint="screens: " + ", ".join(str(s) for s in screens))


# where a second click soon after the first means something else: text and fields (a word is
# selected: nedit's search field, clicked by two `input`s in a row, had "find" selected, and the
# text appended replaced it) and a list's items (the row is opened); a button's second click is a
# second press, and is not delayed
DOUBLE_CLICK_TYPES = frozenset(
    {"Paragraph", "Text", "Heading", "Document", "DataItem", "ListItem", "TreeItem", "Edit", "ComboBox", "Spinner"}
)


def try_semantic(
    backend: Backend, node: Node | None, operations: tuple[Operation, ...], argument: str | float | None = None
) -> tuple[str | None, str]:
    """Run the first supported operation; returns (method, note about failures)."""
    if node is None:
        return None, ""
    notes = []
    for op in operations:
        if op in node.operations:
            try:
                return backend.perform(node.handle, op, argument), ""
            except ModalInCall:
                raise  # the app ran it and it was undone: no other operation is tried after it
            except ActionFailed as exc:
                notes.append(f"{op.value} failed ({exc.message})")
    return None, "; ".join(notes)


def click(
    backend: Backend,
    window: WindowInfo,
    target: Target,
    node: Node | None,
    *,
    button: MouseButton = MouseButton.LEFT,
    count: int = 1,
    via: Via = Via.AUTO,
    modifiers: Sequence[Key] = (),
) -> tuple[str, tuple[int, int] | None, str]:
    """Click a target, deciding how: a plain left click with `via` auto or semantic is the
    element's first semantic press (CLICK_OPERATIONS) — but a menu item that would stay open or
    run its command inside the call (`Backend.keeps_menu_open`, `Backend.acts_in_call`) is
    clicked with the mouse where it shows, under `via` auto; anything else, and what has no
    semantic press (never under `via` semantic: ActionFailed), is clicked with the mouse at
    its visible centre (`pointer_point`, `uncovered`). The element's name is checked before
    and after the press (`named_as_checked`, `pressed_as_checked`), and a sheet's cell clicked
    with the mouse must then hold the cell cursor (`cursor_landed`). A disabled element is
    refused (`refuse_disabled`). `modifiers` are held around a mouse click (an action holds no
    keys: with them, the mouse clicks). Returns (method, point clicked or None, note)."""
    refuse_disabled(target, node, via, "nothing was clicked", "clicks it anyway")
    semantic_fits = button is MouseButton.LEFT and count == 1 and not modifiers  # an action holds no keys
    note = ""
    if via is not Via.INPUT and semantic_fits:
        # a menu item whose press would leave its menu open (Qt, Java), or whose command would run
        # inside the accessibility call (GTK 3: a dialog it opens holds the app), is clicked, as a
        # user does, where it shows; pressed only when asked to be, or when it shows nowhere
        left_open = in_call = False
        if node is not None and node.role == "MenuItem":
            left_open, in_call = backend.keeps_menu_open(node.handle), backend.acts_in_call(node.handle)
        if not ((left_open or in_call) and via is Via.AUTO and target.rect is not None):
            watch = named_as_checked(backend, target, node, CLICK_OPERATIONS)
            try:
                method, note = try_semantic(backend, node, CLICK_OPERATIONS)
            except ModalInCall as undone:
                node = _still_shown(backend, target, node, undone, via)
                method, note = (
                    None,
                    f'its action opened "{undone.dialog}" inside the accessibility call, '
                    "holding the app: closed it again, and clicked with the mouse",
                )
            if method:
                pressed_as_checked(watch, target, node, f"via {method}")
                return method, None, MENU_LEFT_OPEN if left_open else ""
    if via is Via.SEMANTIC:
        raise ActionFailed(
            f"element {target.id} has no semantic click" + (f": {note}" if note else ""),
            hint="use --via auto or --via input to click with the mouse",
        )
    x, y = pointer_point(backend, window, target, node)
    uncovered(backend, window, target, node, x, y)
    if target.type in DOUBLE_CLICK_TYPES:  # two actions must not reach the app as one double-click
        backend.space_clicks(x, y)
    watch = named_as_checked(backend, target, node)
    backend.click(x, y, button, count, modifiers)
    pressed_as_checked(watch, target, node, f"with the mouse at ({x}, {y})", MOUSE_TAKEN)
    if node is not None and Operation.SELECT in node.operations and semantic_fits:
        cursor_landed(backend, target, node, x, y)
    return "mouse", (x, y), (f"semantic route failed: {note}" if note else "")


def cursor_landed(backend: Backend, target: Target, node: Node, x: int, y: int) -> None:
    """After a mouse click on a spreadsheet's cell: its cell cursor there, that cell alone
    selected (`Backend.cursor_missed`), else ActionFailed saying what the sheet shows."""
    missed = backend.cursor_missed(node.handle)
    if missed is not None:
        raise ActionFailed(
            f'element {target.id} ([{target.type}] "{target.name}") was clicked with the mouse at '
            f"({x}, {y}), but the sheet's cell cursor is not on it alone: {missed}",
            hint="run `winctl state` to see the focused cell before typing or formatting",
        )


def _still_shown(backend: Backend, target: Target, node: Node | None, undone: ModalInCall, via: Via) -> Node:
    """The element read again after its action was undone (`ModalInCall`), to be clicked with
    the mouse instead: only where it still shows where it was seen — a menu item's menu has
    closed, and a click at its place would hit what lies there now. Else the error stands."""
    fresh = backend.refresh(node.handle) if node is not None and via is Via.AUTO else None
    if (
        fresh is None
        or "showing" not in fresh.states
        or fresh.rect is None
        or target.rect is None
        or fresh.rect.intersect(target.rect) is None
    ):
        raise undone
    return fresh


# named by what they hold or show, which a press changes: a Java combo box opened by a click was
# named "first.txt (/tmp/...)", not "/tmp/.../first.txt", a GTK one is named by its choice
NAMED_BY_CONTENT = frozenset({"ComboBox", "Edit", "Spinner", "Slider", "Document"})
NameWatch = Callable[[], tuple[str | None, list[str]]]  # `Backend.name_watch`


def named_as_checked(
    backend: Backend, target: Target, node: Node | None, operations: tuple[Operation, ...] | None = None
) -> NameWatch | None:
    """The element's own name read again right before it is pressed (by one of `operations`
    it has, or by the mouse when None); the press is refused, nothing done, when the element
    is gone or carries another name than when its id was checked: an app may relabel it
    between that check and the press. Returns the watch for `pressed_as_checked`; None for
    what is not an element of the tree (a target located in the pixels), or when none of
    `operations` would press it."""
    if node is None or target.source is not Source.ACCESSIBILITY:
        return None
    if operations is not None and not any(op in node.operations for op in operations):
        return None
    watch = backend.name_watch(node.handle)
    now = _name_before_press(watch)
    if now is None:
        raise StaleElement(
            f'element {target.id} ([{target.type}] "{target.name}") is gone; nothing was done',
            hint="the UI changed — run `winctl state`",
        )
    if now != node.name:
        raise StaleElement(
            f'element {target.id} was [{target.type}] "{target.name}" and is now "{now}"; nothing was done',
            hint="the UI changed — run `winctl state`",
        )
    return watch


BUSY_BEFORE_PRESS = 3.0  # s an app still busy with the last act (a popup opening) is waited for


def _name_before_press(watch: NameWatch) -> str | None:
    """The element's name now; an app that does not answer at once (still in the handler of
    the act before, such as opening the popup an option is chosen from) is asked again for up
    to BUSY_BEFORE_PRESS seconds, then its AppBusy is raised, nothing pressed."""
    deadline = time.monotonic() + BUSY_BEFORE_PRESS
    while True:
        try:
            return watch()[0]
        except AppBusy:
            if time.monotonic() >= deadline:
                raise
            time.sleep(0.1)


def pressed_as_checked(
    watch: NameWatch | None, target: Target, node: Node | None, how: str, settle: float = 0.0
) -> None:
    """Right after a press: the element's name read again, with every rename the app announced
    since the read before it (`named_as_checked`); with `settle`, once more that long after,
    for a press the app takes in its own time (the mouse's, queued with the app's other
    events). Any other name means the app may have taken the press for one on the element of
    that name (two buttons that swap "Keep" and "Delete"), or the press renamed it: either way
    the press is not reported as done. An element gone after its press is no rename (a
    dialog's button that closed it), nor is a new name of one named by what it holds
    (NAMED_BY_CONTENT)."""
    if watch is None or node is None or how.endswith(STILL_HANDLING) or target.type in NAMED_BY_CONTENT:
        return  # a handler still running (a modal dialog's) answers nothing until it is done
    try:
        now, heard = watch()
        names = [*heard, now]
        if settle:
            time.sleep(settle)
            now, heard = watch()
            names += [*heard, now]
    except WinctlError:
        return  # the press went; the app does not answer about its name: no rename is known
    other = next((name for name in names if name is not None and name != node.name), None)
    if other is not None:
        raise ActionFailed(
            f'element {target.id} ([{target.type}] "{target.name}") was renamed "{other}" as it was '
            f'clicked {how}: the click may have reached "{other}" (or the click itself renamed it)',
            hint="run `winctl state` and check what the click did before acting again",
        )


def refuse_disabled(target: Target, node: Node | None, via: Via, outcome: str, forced: str) -> None:
    """Raise ActionFailed (saying `outcome`) for an element of the tree that says it is
    disabled (`state` shows "disabled"), unless `via` is input (`forced` says what that does):
    a click there does nothing, and keys meant for it go to whatever has the focus."""
    if (
        via is not Via.INPUT
        and node is not None
        and target.source is Source.ACCESSIBILITY
        and "enabled" not in node.states
    ):
        raise ActionFailed(
            f'element {target.id} ([{target.type}] "{target.name}") is disabled: {outcome}',
            hint=f"`winctl wait --enabled {target.id}` waits until it is (often it needs a field "
            f"filled in or a choice made first); `--via input` {forced}",
        )


def uncovered(backend: Backend, window: WindowInfo, target: Target, node: Node | None, x: int, y: int) -> None:
    """Return once a click at (x, y) reaches the window, not something on top of it (another
    window, a tooltip, an open menu: `Backend.covering`; the window's own overlay:
    `Backend.obscuring`). A tooltip goes once the pointer leaves its widget, so the pointer
    moves to the point first; what still covers it after UNCOVER_SECONDS is ActionFailed
    naming it, and nothing is clicked. Bound input reaches its window covered or not."""
    if backend.bound_window() == window.id:
        return  # bound input goes to the window itself, covered or not
    # a menu's item, or anything found in the pixels there (a menu item found by its text), may
    # be in an open menu: then the menu is not in its way; so is what its backend knows is in one
    in_popup = (
        target.type in POPUP_CONTENT or target.source in SEEN_ON_SCREEN or (node is not None and IN_POPUP in node.extra)
    )

    def cover() -> str | None:  # another window on top, else the window's own content over the element
        on_top = backend.covering(window.id, x, y, in_popup)
        return on_top if on_top is not None or target.handle is None else backend.obscuring(target.handle, x, y)

    if cover() is None:
        return
    backend.mouse_move(x, y)
    deadline = time.monotonic() + UNCOVER_SECONDS
    while (covered := cover()) is not None:
        if time.monotonic() > deadline:
            what = f"element {target.id}" if target.id else repr(target.name)  # a located target has no id
            raise ActionFailed(
                f"{what} is covered at ({x}, {y}) by {covered}: nothing was clicked",
                hint="close or move what covers it (`winctl keys Escape` closes most popups), "
                "or click with `--via semantic`; `winctl screenshot` shows it",
            )
        time.sleep(0.03)


def choose_by_keys(backend: Backend, window: WindowInfo, target: Target, node: Node, option: str) -> str:
    """Choose a combo box's option as a user does: click it open, go to the option from the
    nearer end of the list by arrow keys, Enter. The app sees one change, where a semantic
    choice would have changed the widget behind its back (`Backend.chooses_silently`). The
    options are read once the list is open (Java lists them only then); an unknown option
    closes the list again. Checked: the element must then read the option."""
    listed = backend.option_names(node.handle)
    if listed and option_index(listed, option) is None:  # known to be wrong before the app is touched
        raise no_option(option, listed)
    click(backend, window, target, node, via=Via.INPUT)
    deadline = time.monotonic() + OPEN_SETTLE  # keys sent before the list is open go to the closed box
    while not backend.choice_open(node.handle) and time.monotonic() < deadline:
        time.sleep(0.03)
    names = backend.option_names(node.handle)
    index = option_index(names, option)
    if index is None:
        backend.press_chords(parse_keys("Escape"))
        raise no_option(option, names)
    below = len(names) - 1 - index
    route = "Home" + " Down" * index if index <= below else "End" + " Up" * below
    backend.press_chords(parse_keys(route + " Enter"))
    wanted = names[index]
    deadline = time.monotonic() + CHOSEN_SETTLE
    while (now := backend.read_text(node.handle)) != wanted:
        if time.monotonic() > deadline:
            raise ActionFailed(
                f"the option {shown(wanted)} was chosen by keys, but the element reads {shown(now)}",
                hint="open it with `winctl click ID` and click the option",
            )
        time.sleep(0.03)
    first, steps = route.split()[0], len(route.split()) - 1
    arrows = f", {'Down' if first == 'Home' else 'Up'} x{steps}" if steps else ""
    return f"mouse to open it, keyboard to choose ({first}{arrows}, Enter)"
