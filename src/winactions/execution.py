"""The execution layer: act on a target the most reliable way, and say which way it was.

A semantic operation (AT-SPI Action, UIA Invoke, ...) does not depend on focus, overlap or
pixel positions, so it is tried first when it means the same as what was asked. Otherwise,
or when it fails, synthesized input goes to the element's visible centre — after checking
that the element is still where the agent last saw it.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from enum import Enum

from winactions.backends.base import IN_POPUP, Backend, MouseButton, no_option, option_index
from winactions.errors import ActionFailed, InvalidInput, ModalInCall, StaleElement, WinctlError, shown
from winactions.keys import parse_keys
from winactions.model import Node, Operation, Rect, Source, Target, WindowInfo


class Via(str, Enum):
    AUTO = "auto"  # semantic when it fits, else the mouse/keyboard
    SEMANTIC = "semantic"  # semantic only; fail rather than move the mouse
    INPUT = "input"  # synthesized mouse/keyboard only


# What a plain left click means, in the order tried.
CLICK_OPERATIONS = (Operation.INVOKE, Operation.TOGGLE, Operation.SELECT)
TYPED_SETTLE = 0.6  # s: how long typed text may take to show in an element's text once sent
UNCHECKED = "its text could not be read back: not checked"  # the note of a typing whose outcome is unknown
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
        raise ActionFailed(f"element {target.id} has no position on screen",
                           hint="it may be hidden; run `winctl state`")
    if node is None or node.rect is None:
        return seen.center
    overlap = node.rect.intersect(seen)
    if overlap is None:
        raise StaleElement(f"element {target.id} moved since the last state "
                           f"(was {seen}, now {node.rect})", hint="run `winctl state`")
    return overlap.center


def pointer_point(backend: Backend, window: WindowInfo, target: Target, node: Node | None) -> tuple[int, int]:
    """Where the pointer goes on the element, its window made active first. A minimized window
    is brought back and the element read again there: while it is minimized, or on its way
    back (openbox slides it in), its toolkit places its elements wherever the window is on
    that way, and a click sent meanwhile went to whatever lay under the point."""
    backend.ensure_active(window)
    if window.minimized and node is not None:
        node = _back_in_place(backend, target, node)
    return click_point(target, node)


def _back_in_place(backend: Backend, target: Target, node: Node) -> Node:
    """The element read again once its window is back from minimized: where it was seen, or
    wherever it still is after RESTORE_SETTLE. The window manager has the window in place
    before the app has caught up: a loaded galculator still reported its 7 key where it had
    been on the way back (43 px right and 341 px down), and the click was refused as moved."""
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


def wheel_moved(backend: Backend, area: Rect | None, turn: Callable[[], None]) -> bool | None:
    """Run `turn` (the wheel) and say whether the pixels of `area` changed within WHEEL_SETTLE:
    what an app shows is the only sign every toolkit gives that a wheel scrolled it. None when
    the area cannot be read (none given, off every screen); the wheel is turned either way."""
    region = area if area is None or backend.bound_window() is not None else _on_a_screen(backend, area)
    before = backend.capture(region).tobytes() if region is not None else None
    turn()
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
        raise InvalidInput(f"({x}, {y}) is off every screen",
                           hint="screens: " + ", ".join(str(s) for s in screens))


def focus(backend: Backend, window: WindowInfo, node: Node | None) -> bool:
    """Give the element the keyboard focus without the mouse, and check that it took it.

    Where an element takes text only by typing (a spreadsheet cell, a web input), its own
    focus operation puts the cursor exactly there, wherever the toolkit says it is drawn
    (LibreOffice reported positions off by a menu bar's height until its window was clicked).
    A part of a larger text that takes no focus itself (a web page's paragraph) has the
    editable holding it focused (`Backend.focus_holder`). False when it has none, refuses, or
    the focus did not move: then the mouse is used."""
    if node is None:
        return False
    if Operation.FOCUS not in node.operations:  # a web page's paragraph: its editable section takes the keys
        if not is_piece_of_text(node):
            return False
        backend.ensure_active(window)
        return backend.focus_holder(node.handle)
    backend.ensure_active(window)
    try:
        backend.perform(node.handle, Operation.FOCUS)
    except ActionFailed:
        return False
    fresh = backend.refresh(node.handle)
    return fresh is not None and "focused" in fresh.states


def click_to_type(backend: Backend, window: WindowInfo, target: Target, node: Node | None) -> None:
    """Click where the element is, to type into it. A browser acts on the click after it has
    answered the tree's calls made next: the cursor put at a paragraph's end through the tree
    was moved back by the click, and " typed" went in as "typed " (Chromium); a part of a larger
    text is given CLICK_SETTLE to take the click first."""
    click(backend, window, target, node, via=Via.INPUT)
    if is_piece_of_text(node):
        time.sleep(CLICK_SETTLE)


CLICK_SETTLE = 0.15  # s
# where a second click soon after the first means something else: text and fields (a word is
# selected: nedit's search field, clicked by two `input`s in a row, had "find" selected, and the
# text appended replaced it) and a list's items (the row is opened); a button's second click is a
# second press, and is not delayed
DOUBLE_CLICK_TYPES = frozenset({"Paragraph", "Text", "Heading", "Document", "DataItem", "ListItem", "TreeItem",
                                "Edit", "ComboBox", "Spinner"})


def is_piece_of_text(node: Node | None) -> bool:
    """An editable part of a larger text (a paragraph of a document or of a web page's editable
    section): ctrl+a there selects the whole, and typing replaces every other part with it."""
    return node is not None and "editable" in node.states and node.role not in WHOLE_TEXT_TYPES


WHOLE_TEXT_TYPES = frozenset({"Edit", "Document", "DataItem", "ComboBox", "Spinner"})  # ctrl+a selects just theirs


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
            except ModalInCall:
                raise  # the app ran it and it was undone: no other operation is tried after it
            except ActionFailed as exc:
                notes.append(f"{op.value} failed ({exc.message})")
    return None, "; ".join(notes)


def click(backend: Backend, window: WindowInfo, target: Target, node: Node | None, *,
          button: MouseButton = MouseButton.LEFT, count: int = 1,
          via: Via = Via.AUTO) -> tuple[str, tuple[int, int] | None, str]:
    """Click a target. Returns (method, point or None, note)."""
    refuse_disabled(target, node, via, "nothing was clicked", "clicks it anyway")
    semantic_fits = button is MouseButton.LEFT and count == 1
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
                method, note = None, f'its action opened "{undone.dialog}" inside the accessibility call, ' \
                                     "holding the app: closed it again, and clicked with the mouse"
            if method:
                pressed_as_checked(watch, target, node, f"via {method}")
                return method, None, MENU_LEFT_OPEN if left_open else ""
    if via is Via.SEMANTIC:
        raise ActionFailed(f"element {target.id} has no semantic click" + (f": {note}" if note else ""),
                           hint="use --via auto or --via input to click with the mouse")
    x, y = pointer_point(backend, window, target, node)
    uncovered(backend, window, target, node, x, y)
    if target.type in DOUBLE_CLICK_TYPES:  # two actions must not reach the app as one double-click
        backend.space_clicks(x, y)
    watch = named_as_checked(backend, target, node)
    backend.click(x, y, button, count)
    pressed_as_checked(watch, target, node, f"with the mouse at ({x}, {y})", MOUSE_TAKEN)
    if node is not None and Operation.SELECT in node.operations and button is MouseButton.LEFT and count == 1:
        cursor_landed(backend, target, node, x, y)
    return "mouse", (x, y), (f"semantic route failed: {note}" if note else "")


def cursor_landed(backend: Backend, target: Target, node: Node, x: int, y: int) -> None:
    """After a mouse click on a spreadsheet's cell: its cell cursor there, that cell alone
    selected (`Backend.cursor_missed`), else ActionFailed saying what the sheet shows."""
    missed = backend.cursor_missed(node.handle)
    if missed is not None:
        raise ActionFailed(f'element {target.id} ([{target.type}] "{target.name}") was clicked with the mouse at '
                           f"({x}, {y}), but the sheet's cell cursor is not on it alone: {missed}",
                           hint="run `winctl state` to see the focused cell before typing or formatting")


def _still_shown(backend: Backend, target: Target, node: Node | None, undone: ModalInCall, via: Via) -> Node:
    """The element read again after its action was undone (`ModalInCall`), to be clicked with
    the mouse instead: only where it still shows where it was seen — a menu item's menu has
    closed, and a click at its place would hit what lies there now. Else the error stands."""
    fresh = backend.refresh(node.handle) if node is not None and via is Via.AUTO else None
    if fresh is None or "showing" not in fresh.states or fresh.rect is None or target.rect is None \
            or fresh.rect.intersect(target.rect) is None:
        raise undone
    return fresh


# named by what they hold or show, which a press changes: a Java combo box opened by a click was
# named "first.txt (/tmp/...)", not "/tmp/.../first.txt", a GTK one is named by its choice
NAMED_BY_CONTENT = frozenset({"ComboBox", "Edit", "Spinner", "Slider", "Document"})
NameWatch = Callable[[], tuple[str | None, list[str]]]  # `Backend.name_watch`


def named_as_checked(backend: Backend, target: Target, node: Node | None,
                     operations: tuple[Operation, ...] | None = None) -> NameWatch | None:
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
    now, _ = watch()
    if now is None:
        raise StaleElement(f'element {target.id} ([{target.type}] "{target.name}") is gone; nothing was done',
                           hint="the UI changed — run `winctl state`")
    if now != node.name:
        raise StaleElement(f'element {target.id} was [{target.type}] "{target.name}" and is now "{now}"; '
                           "nothing was done", hint="the UI changed — run `winctl state`")
    return watch


def pressed_as_checked(watch: NameWatch | None, target: Target, node: Node | None, how: str,
                       settle: float = 0.0) -> None:
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
        raise ActionFailed(f'element {target.id} ([{target.type}] "{target.name}") was renamed "{other}" as it was '
                           f'clicked {how}: the click may have reached "{other}" (or the click itself renamed it)',
                           hint="run `winctl state` and check what the click did before acting again")


def refuse_disabled(target: Target, node: Node | None, via: Via, outcome: str, forced: str) -> None:
    """Refuse to act on an element that says it is disabled (`state` shows "disabled"), unless
    `--via input` insists. A click there does nothing (a form's Send before its field is filled
    in), and keys meant for a disabled field go to whatever has the focus; yet the mouse and
    keyboard routes reported success, and the agent went on as if it had sent."""
    if via is not Via.INPUT and node is not None and target.source is Source.ACCESSIBILITY \
            and "enabled" not in node.states:
        raise ActionFailed(f'element {target.id} ([{target.type}] "{target.name}") is disabled: {outcome}',
                           hint=f"`winctl wait --enabled {target.id}` waits until it is (often it needs a field "
                                f"filled in or a choice made first); `--via input` {forced}")


def uncovered(backend: Backend, window: WindowInfo, target: Target, node: Node | None, x: int, y: int) -> None:
    """Make sure a click at (x, y) reaches the window, not something on top of it.

    A tooltip left by the pointer's last stop covers the keys below it (galculator's "Eight"
    covers its 5 key): a click there reached the tooltip, nothing was pressed, and winctl
    said it had clicked. An open menu took a click meant for the button under it (and opened
    a dialog), or swallowed one anywhere else. A tooltip goes once the pointer leaves its
    widget, so the pointer moves to the point first; what still covers it after
    UNCOVER_SECONDS is an error that names it, and nothing is clicked."""
    if backend.bound_window() == window.id:
        return  # bound input goes to the window itself, covered or not
    # a menu's item, or anything found in the pixels there (a menu item found by its text), may
    # be in an open menu: then the menu is not in its way; so is what its backend knows is in one
    in_popup = target.type in POPUP_CONTENT or target.source in SEEN_ON_SCREEN or (
        node is not None and IN_POPUP in node.extra)

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
            raise ActionFailed(f"{what} is covered at ({x}, {y}) by {covered}: nothing was clicked",
                               hint="close or move what covers it (`winctl keys Escape` closes most popups), "
                                    "or click with `--via semantic`; `winctl screenshot` shows it")
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
    deadline = time.monotonic() + TYPED_SETTLE
    while (now := backend.read_text(node.handle)) != wanted:
        if time.monotonic() > deadline:
            raise ActionFailed(f"the option {shown(wanted)} was chosen by keys, but the element reads {shown(now)}",
                               hint="open it with `winctl click ID` and click the option")
        time.sleep(0.03)
    first, steps = route.split()[0], len(route.split()) - 1
    arrows = f", {'Down' if first == 'Home' else 'Up'} x{steps}" if steps else ""
    return f"mouse to open it, keyboard to choose ({first}{arrows}, Enter)"


def type_replacing(backend: Backend, node: Node | None, text: str, *, append: bool) -> str:
    """Type `text` into the focused element after selecting all its text (or after its end,
    with `append`); returns a note for the result.

    A select-all that did not happen does not fail loudly: the new text lands inside the old,
    where the click put the cursor. Where the element's text can be read, that is recognised
    and mended once: the new text at the start of the old (ctrl+a moved to the start, as with
    Emacs key bindings) — the old text after it deleted; anywhere else (ctrl+a lost on its way:
    our CI caught a GTK entry doing this once) — selected all and typed again. If that does not
    give the new text, the caller is told what the element holds, not told it worked."""
    before = _editable_text(backend, node)
    if append:
        return _type_appending(backend, node, before, text)
    if is_piece_of_text(node):  # ctrl+a would select all the text it is part of: its own is selected exactly
        assert node is not None
        if before is not None and backend.select_text(node.handle, 0, len(before)):
            backend.type_text(text)
            return _reads_otherwise(backend, node, _settled_text(backend, node, lambda now: now == text), text)
        raise ActionFailed("this element is part of a larger text, and its own text could not be selected: "
                           "ctrl+a would select all of the text it is part of, and typing would replace that; "
                           "nothing was typed", hint="select it yourself (click, shift+End), then `winctl type`")
    backend.press_chords(parse_keys("ctrl+a"))
    backend.type_text(text)
    if before is None or node is None:
        return ""
    # an empty field cannot keep old text: only whether it reads the text typed is asked
    now = _settled_text(backend, node, lambda now: now == text or _typed_into(now, before, text) is not None)
    at = _typed_into(now, before, text) if before else None
    if at == 0:
        note = "ctrl+a moved to the start: deleted the old text after the new"
        backend.press_chords(parse_keys("ctrl+shift+End Delete"))
    elif at is not None:
        note = "ctrl+a selected nothing: selected all and typed again"
        backend.press_chords(parse_keys("ctrl+a"))
        backend.type_text(text)
    else:
        return _reads_otherwise(backend, node, now, text)
    now = _settled_text(backend, node, lambda now: now == text)
    if now == text:
        return note
    if now is None:
        return note + "; its text could not be read back"
    raise ActionFailed(f"the element's old text stayed: it reads {shown(now)} (ctrl+a did not select all, twice)",
                       hint="clear it another way (e.g. `winctl keys ctrl+shift+Home Delete`), "
                            "then `winctl input ID TEXT --append`")


def type_into_treeless(backend: Backend, window: WindowInfo, target: Target, text: str, *, append: bool) -> str:
    """Type `text` into a field seen in the pixels of an app whose toolkit has no tree (Tk,
    Motif, Xt); returns a note for the result. ctrl+a selects nothing there: Tk's fields take
    it as Emacs's start of line (IDLE's Save As name "abc" became "Xabc"), Motif's insert it
    (nedit's Save As name read "m.txt\x01/tmp/tp/out.txt", and its search for "\x01motif"
    found nothing). The field is clicked, and its text selected by the keys its toolkit takes
    (`Backend.field_selecting_keys`: Home then shift+End in most): the text typed replaces it
    (with `append`: End, then the text). Nothing reads such a field's text back, and the note
    says so."""
    click(backend, window, target, None, via=Via.INPUT)
    keys = "End" if append else backend.field_selecting_keys(window)
    backend.press_chords(parse_keys(keys))
    backend.type_text(text)
    done = "its end reached by" if append else "its text selected by"
    return f"{done} {keys} (no tree: ctrl+a selects nothing in its toolkit); its text could not be read back"


def _type_appending(backend: Backend, node: Node | None, before: str | None, text: str) -> str:
    """Type `text` after the element's own text: the cursor put at its end through the
    accessibility API where it can be (ctrl+End goes to the end of a whole document, and
    LibreOffice got there only after the first letters had gone in: " thrice" appended to a
    paragraph split as " th" there and "rice" in the last one), else by ctrl+End. Where the
    text can be read back, the caller is told what it holds when that is not the two joined."""
    placed = node is not None and before is not None and backend.place_caret(node.handle, len(before))
    if not placed:
        backend.press_chords(parse_keys("ctrl+End"))
    backend.type_text(text)
    if before is None or node is None:
        return ""
    return _reads_otherwise(backend, node, _settled_text(backend, node, lambda now: now == before + text),
                            before + text)


def is_cell(node: Node | None) -> bool:
    """An editable cell of a table (a spreadsheet's, a Swing table's): typed text reaches it
    only through its editor, and only once committed (`type_into_cell`)."""
    return node is not None and node.role == "DataItem" and "editable" in node.states


def type_into_cell(backend: Backend, node: Node, text: str) -> str:
    """Type `text` into a table's cell and commit it; returns a note for the result.

    A cell takes typed text when it is committed: typing opens its editor, Enter puts the text
    in the cell (and moves on a row, as it does for a user). Left open, the editor held the
    text out of the cell, and LibreOffice then said every cell was disabled, listing a column
    it does not show, until something committed it. Text typed on a cell replaces what it
    holds: ctrl+a, which selects a field's text first, selects the whole sheet there (and
    Enter then moves within that selection). The cell must then read the text: a formula
    shows its result (said in the note), a number may show in the cell's format; anything
    else is ActionFailed with what it reads; a cell that cannot be read says UNCHECKED."""
    backend.type_text(text)
    backend.press_chords(parse_keys("Enter"))
    now = _settled_text(backend, node, lambda now: now == text)
    if now is None:
        return UNCHECKED
    if now == text or _same_number(text, now):
        return ""
    if text.startswith("="):
        return f"a formula: the cell reads {now!r}"
    raise ActionFailed(f"typed {shown(text)} and Enter into the cell, but it reads {shown(now)}"
                       + _focus_now(backend, node),
                       hint=FORMATTED_OR_ASTRAY)


def _same_number(text: str, now: str) -> bool:
    """A number the cell shows in its own format (1000 as "1,000", 0.50 as "0.5")."""
    try:
        return float(text.replace(",", "")) == float(now.replace(",", ""))
    except ValueError:
        return False


def _reads_otherwise(backend: Backend, node: Node, now: str | None, text: str) -> str:
    """"" when the field, once settled, reads the text typed; UNCHECKED when it cannot be read; else
    ActionFailed saying what it reads. A field may format what it is given (a mask, upper
    case), or keys may have gone astray (to another field that held the focus): winctl cannot
    tell which, so it claims nothing, says what the field holds and types nothing more (a
    formatting field would only format it again)."""
    if now is None:
        return UNCHECKED
    if now == text:
        return ""
    time.sleep(TYPED_SETTLE / 3)  # still arriving? then it is not settled yet: look once more
    again = _settled_text(backend, node, lambda now: now == text)
    if again is None:
        return UNCHECKED
    if again == text:
        return ""
    raise ActionFailed(f"typed {shown(text)}, but the field reads {shown(again)}" + _focus_now(backend, node),
                       hint=FORMATTED_OR_ASTRAY)


FORMATTED_OR_ASTRAY = ("nothing more was typed. If the element formats what it is given (upper case, a mask, a "
                       "date), what it reads is its form of your text and nothing needs redoing; if not, keys went "
                       "elsewhere: `winctl state` shows which element holds the focus and what each reads")


def _focus_now(backend: Backend, node: Node) -> str:
    """", and the keyboard focus is not in it now" where the element says so."""
    return ", and the keyboard focus is not in it now" if backend.holds_focus(node.handle) is False else ""


def _typed_into(now: str | None, before: str, text: str) -> int | None:
    """Where `text` was typed into `before` to give `now`, or None when `now` is not that."""
    if now is None or len(now) != len(before) + len(text):
        return None
    at = now.find(text)
    while at != -1:
        if now[:at] == before[:at] and now[at + len(text):] == before[at:]:
            return at
        at = now.find(text, at + 1)
    return None


def _editable_text(backend: Backend, node: Node | None) -> str | None:
    """The text of an element that holds typed text, or None when there is none to read."""
    if node is None or "protected" in node.states:  # a password's text is never read
        return None
    if not (Operation.SET_TEXT in node.operations or node.role == "Edit" or "editable" in node.states):
        return None
    try:
        return backend.read_text(node.handle)
    except WinctlError:
        return None


def _settled_text(backend: Backend, node: Node, done: Callable[[str], bool]) -> str | None:
    """The element's text once `done` says so, or as it reads after TYPED_SETTLE: keys reach
    the app through the display server, after we return from sending them."""
    deadline = time.monotonic() + TYPED_SETTLE
    while True:
        try:
            now = backend.read_text(node.handle)
        except WinctlError:
            return None
        if done(now) or time.monotonic() > deadline:
            return now
        time.sleep(0.02)
