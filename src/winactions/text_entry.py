"""How text reaches an element, decided in one place: `input` calls `refuse_text`, then
`enter_text`, which picks the route, in order, and checks that the text arrived. It calls
down only: the backend's primitives (perform SET_VALUE / SET_TEXT / FOCUS, holds_focus,
read_text, select_text, place_caret, type_text, press_chords) and `execution.click` for a
click to type. No backend calls back into it.

The routes, in the order tried (`enter_text`):
1. a terminal's screen: typed at its prompt, nothing selected first (`type_at_prompt`);
2. semantic, unless `--via input`: Value.CurrentValue for a number (where it reaches the
   app), else EditableText; the backend reads the text back (`Backend.perform`); with
   Enter, the element is given the keyboard focus first (`take_focus`);
3. keys, unless `--via semantic`: the focus given through the element's focus operation
   (`--via auto`), else by a click on it (`click_to_type`), then confirmed
   (`confirm_focus`); then typed according to what the element is: a field of an app
   without a tree (`type_into_treeless`), a table's cell (`type_into_cell`), any other
   text (`type_replacing`), each reading the text back; then Enter (`press_enter`).

Keys for one element reach that element: the keyboard focus is confirmed in it before any
key is pressed for it (typed text, Enter, End), and what it shows after is said. A text set
through the accessibility API does not move the focus, and a click or a focus call may move
it a little after it returns: the focus is waited for, and a key is refused when it does not
come.

Over 600 lines on purpose: every route text takes to an element, and its check, is decided
here and nowhere else.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from winactions import execution, paste, settings
from winactions.backends.base import TERMINAL, Backend
from winactions.errors import ActionFailed, InvalidInput, WinctlError, shown
from winactions.execution import Via
from winactions.keys import parse_keys
from winactions.model import Node, Operation, Target, WindowInfo

FOCUS_SETTLE = 1.0  # s: how long an element may take to hold the keyboard focus after a click
GRAB_SETTLE = 0.3  # s: ... after its focus operation said yes (then it is clicked)
ENTER_SETTLE = 0.3  # s: how long the effect of Enter is watched for (the focus, the element's text, the window)
TYPED_SETTLE = 0.6  # s: how long typed text may take to show in an element's text once sent
CLICK_SETTLE = 0.15  # s: how long a part of a larger text is given to take a click before the tree is asked
SHOWN_SETTLE = 1.0  # s: how long a terminal's screen is watched for what the keys made it show
SHOWN_QUIET = 0.15  # s: ... it has shown it once it stayed the same this long
SHOWN_LINES = 3  # lines of a terminal's screen said after input
SHOWN_CHARS = 240  # characters of them at most
UNCHECKED = "its text could not be read back: not checked"  # the note of a typing whose outcome is unknown
# Characters one command types at most (WINCTL_TYPING_LIMIT overrides it): about 20 s of XTEST
# typing on our test machine (~500 a second), so the session is not held for minutes.
TYPING_LIMIT = settings.TYPING_LIMIT.default
TYPING_RATE = 500  # characters a second, as measured there: for the hint only

# Static text (a label): no backend's Text type takes text (an editable one is an Edit).
READ_ONLY_TYPES = frozenset({"Text"})
# Elements that take no typed text: keys sent at them go to whatever has the focus (a list's
# type-ahead search, a header's table) — `input` refuses them rather than type somewhere else.
TAKES_NO_TEXT = frozenset(
    {
        "Button",
        "CheckBox",
        "RadioButton",
        "HeaderItem",
        "Header",
        "Hyperlink",
        "Image",
        "Menu",
        "MenuBar",
        "MenuItem",
        "ProgressBar",
        "ScrollBar",
        "Separator",
        "SplitButton",
        "StatusBar",
        "Tab",
        "TabItem",
        "Thumb",
        "TitleBar",
        "ToolBar",
        "ToolTip",
        "ListItem",
        "TreeItem",
        "Row",
        "Heading",
    }
)
SEMANTIC_TEXT = frozenset({Operation.SET_TEXT, Operation.SET_VALUE})  # text set without keys
WHOLE_TEXT_TYPES = frozenset({"Edit", "Document", "DataItem", "ComboBox", "Spinner"})  # ctrl+a selects just theirs


def refuse_text(target: Target, node: Node | None, *, append: bool, via: Via) -> None:
    """Raise, before anything is touched, when the element cannot take the text as asked: it
    is read-only or takes no text (keys sent at it would go to whatever has the focus), it is
    disabled (`execution.refuse_disabled`), or it is a table's cell and `append` asks to add
    to it (typed, ctrl+End goes to the sheet's last cell: the text would land elsewhere)."""
    if node is not None and ("read_only" in node.states or node.role in READ_ONLY_TYPES):
        raise ActionFailed(
            f'element {target.id} ([{target.type}] "{target.name}") is read-only: it takes no text; nothing was typed',
            hint="input works on edits and documents; choose a combo box's option with `winctl select`",
        )
    if node is not None and node.role in TAKES_NO_TEXT and Operation.SET_TEXT not in node.operations:
        raise ActionFailed(
            f'element {target.id} ([{target.type}] "{target.name}") takes no text: keys sent at it '
            "would go to whatever has the focus; nothing was typed",
            hint="input writes into fields, documents and cells: take the field's id from `winctl "
            "state` (a field, its label and a column may share a name); `winctl type` types "
            "into the focus",
        )
    execution.refuse_disabled(target, node, via, "it takes no text; nothing was typed", "types anyway")
    if (
        append
        and via is not Via.SEMANTIC
        and node is not None
        and is_cell(node)
        and Operation.SET_TEXT not in node.operations
    ):
        raise InvalidInput(
            f"element {target.id} is a table's cell: --append cannot add to it; nothing was typed",
            hint="input the cell's whole new text (it replaces what it holds)",
        )


def enter_text(
    backend: Backend,
    window: WindowInfo,
    target: Target,
    node: Node | None,
    text: str,
    *,
    append: bool,
    enter: bool,
    via: Via,
) -> tuple[str, str]:
    """Put `text` in the element (after its own with `append`), then Enter if asked, by the
    first route that fits (see the module's docstring); returns (method, note). The method
    names the route ("EditableText.SetTextContents", "keyboard", "Component.GrabFocus,
    keyboard", ...); the note says what was checked and what was not (`UNCHECKED`). Raises
    ActionFailed when the text did not arrive as asked, saying what the element holds."""
    if node is not None and TERMINAL in node.extra:
        check_typing_budget(text, backend)
        return type_at_prompt(backend, window, target, node, text, enter=enter, via=via)
    method: str | None = None
    note = ""
    if via is not Via.INPUT and node is not None and node.operations & SEMANTIC_TEXT:
        method, note = _set_semantically(backend, window, target, node, text, append=append, enter=enter, via=via)
    if method is not None:
        return method, note
    if via is Via.SEMANTIC:
        what = target.id or repr(target.name)
        raise ActionFailed(
            f"element {what} has no editable-text interface" + (f" ({note})" if note else ""),
            hint="use --via auto to type into it instead",
        )
    return _typed(backend, window, target, node, text, append=append, enter=enter, via=via)


def _set_semantically(
    backend: Backend, window: WindowInfo, target: Target, node: Node, text: str, *, append: bool, enter: bool, via: Via
) -> tuple[str | None, str]:
    """The semantic route: the number as the element's value where that reaches the app (a
    spin button commits its text only on Enter or focus-out, its value at once), else the
    text through EditableText; (None, why) when neither took it. With `enter`, the focus is
    given first and Enter pressed after."""
    focused_by = (
        take_focus(backend, window, target, node, via, "nothing was typed and Enter was not pressed") if enter else ""
    )
    whole = (backend.read_text(node.handle) + text) if append else text
    number = _number(whole)
    method: str | None = None
    note = ""
    if number is not None and Operation.SET_VALUE in node.operations and not backend.sets_value_silently(node.handle):
        method, note = execution.try_semantic(backend, node, (Operation.SET_VALUE,), number)
    if method is None:
        method, note = execution.try_semantic(backend, node, (Operation.SET_TEXT,), whole)
    if method and enter:
        return f"{focused_by}, {method}", press_enter(backend, window, target, node)
    return method, note


def _typed(
    backend: Backend,
    window: WindowInfo,
    target: Target,
    node: Node | None,
    text: str,
    *,
    append: bool,
    enter: bool,
    via: Via,
) -> tuple[str, str]:
    """The keyboard route: the focus given (its focus operation with `--via auto`, else a
    click) and confirmed, the text typed by what the element is and read back, then Enter.
    What a failed semantic route said is left out: the text typed is read back instead."""
    check_typing_budget(text, None if is_cell(node) else backend)  # a cell's text is typed, however long
    focused = via is Via.AUTO and focus(backend, window, node)
    cell = is_cell(node)
    if node is None and backend.without_tree(window):  # Tk, Motif: ctrl+a goes to the line's start there
        note = type_into_treeless(backend, window, target, text, append=append)
    else:
        if not focused:  # the mouse, at where the element was seen
            click_to_type(backend, window, target, node)
        confirm_focus(backend, target, node, "nothing was typed")
        note = (
            type_into_cell(backend, node, text)
            if cell and node is not None
            else type_replacing(backend, node, text, append=append)
        )
    if enter:  # a cell's text is committed by Enter already
        pressed = "Enter pressed once: it committed the cell" if cell else press_enter(backend, window, target, node)
        note = "; ".join(part for part in (note, pressed) if part)
    return ("Component.GrabFocus, keyboard" if focused else "keyboard"), note


def _number(text: str) -> float | None:
    try:
        return float(text)
    except ValueError:
        return None


def typing_limit() -> int:
    """How many characters one command may type (WINCTL_TYPING_LIMIT, else TYPING_LIMIT)."""
    return settings.TYPING_LIMIT.read()


def check_typing_budget(text: str, backend: Backend | None = None) -> None:
    """Refuse, before any key is pressed, a text longer than one command types
    (`typing_limit`): typing it would hold the session for minutes. A text `backend` pastes
    (`paste.pastes`; None: it is typed) is not typed, and never refused."""
    limit = typing_limit()
    if len(text) <= limit or (backend is not None and paste.pastes(backend, text)):
        return
    raise InvalidInput(
        f"{len(text):,} characters is more than one command types ({limit:,}, about "
        f"{limit / TYPING_RATE:.0f} s of keys); nothing was typed",
        hint="put the text on the clipboard (`winctl clipboard TEXT`) and paste it "
        "(`winctl keys ctrl+v`), or type it in parts (`winctl input ID PART --append`), or "
        f"raise WINCTL_TYPING_LIMIT (about {TYPING_RATE} characters a second); winctl pastes "
        "such a text itself unless WINCTL_PASTE_OVER is 0",
    )


def await_focus(backend: Backend, node: Node | None, seconds: float = FOCUS_SETTLE) -> bool:
    """True once the element holds the keyboard focus (`Backend.holds_focus`), or where that
    cannot be told (no tree, a platform that does not say); False when it does not within
    `seconds`."""
    if node is None:
        return True
    deadline = time.monotonic() + seconds
    while backend.holds_focus(node.handle) is False:
        if time.monotonic() > deadline:
            return False
        time.sleep(0.03)
    return True


def confirm_focus(backend: Backend, target: Target, node: Node | None, undone: str) -> None:
    """Raise ActionFailed (saying `undone`: what was not done) unless the element holds the
    keyboard focus within FOCUS_SETTLE."""
    if not await_focus(backend, node):
        raise ActionFailed(
            f"{_named(target)} did not take the keyboard focus: {undone}",
            hint=f"click it (`winctl click {target.id} --via input`), check that `winctl state` "
            "marks it focused, then `winctl type TEXT` or `winctl keys Enter`",
        )


def take_focus(backend: Backend, window: WindowInfo, target: Target, node: Node, via: Via, undone: str) -> str:
    """Give the element the keyboard focus before keys are pressed for it: through its focus
    operation (unless `via` is input), else (unless `via` is semantic) by a click on it; then
    confirm it holds it (`confirm_focus`). Returns how: "Component.GrabFocus" or "mouse click"."""
    if via is not Via.INPUT and (
        focus(backend, window, node) or (Operation.FOCUS in node.operations and await_focus(backend, node, GRAB_SETTLE))
    ):
        return "Component.GrabFocus"  # GTK's entries take it a few ms after answering
    if via is Via.SEMANTIC:
        raise ActionFailed(
            f"{_named(target)} does not take the keyboard focus through the accessibility API: {undone}",
            hint="use --via auto to click it first",
        )
    click_to_type(backend, window, target, node)
    confirm_focus(backend, target, node, undone)
    return "mouse click"


def press_enter(backend: Backend, window: WindowInfo, target: Target, node: Node | None) -> str:
    """Press Enter in the element, which must still hold the keyboard focus (else nothing is
    pressed and ActionFailed says so; an element not in the tree cannot be checked). Returns
    what it did, said for the result: "Enter pressed in it" and what changed within
    ENTER_SETTLE (the active window, the focus, the element's text), or that none of these did."""
    if not await_focus(backend, node):
        raise ActionFailed(
            f"the text is in {_named(target)}, but the keyboard focus left it before Enter: Enter was not pressed",
            hint=f"`winctl state` shows where the focus is; `winctl click {target.id} --via input`, "
            "then `winctl keys Enter`",
        )
    before = _looks(backend, window, node)
    backend.press_chords(parse_keys("Enter"))
    deadline = time.monotonic() + ENTER_SETTLE
    while (after := _looks(backend, window, node)) == before and time.monotonic() < deadline:
        time.sleep(0.05)
    pressed = (
        "Enter pressed in it"
        if node is not None
        else "Enter pressed (not in the tree: that the element had the focus cannot be checked)"
    )
    return f"{pressed}; {_changes(before, after)}"


Looks = tuple[str | None, bool | None, str | None]  # (active window's title, focus held, the element's text)


def _looks(backend: Backend, window: WindowInfo, node: Node | None) -> Looks:
    active = next((w for w in backend.list_windows() if w.active), None)
    if node is None:
        return (active.title if active else None), None, None
    held = backend.holds_focus(node.handle)
    try:
        text = backend.read_text(node.handle) if "protected" not in node.states else None
    except WinctlError:  # gone with its window (a dialog that Enter closed)
        text = None
    return (active.title if active else None), held, text


def _changes(before: Looks, after: Looks) -> str:
    said = []
    if after[0] != before[0]:
        said.append(f"the active window is now {after[0]!r}" if after[0] is not None else "no window is active now")
    if after[1] is False and before[1]:
        said.append("the focus left it")
    elif after[1] is None and before[1] is not None:
        said.append("it is gone")
    if after[2] != before[2] and after[2] is not None:
        said.append(f"it reads {_clip(after[2])!r}")
    return (
        ", ".join(said)
        if said
        else f"the focus, its text and the active window stayed as they were (watched {ENTER_SETTLE:g} s)"
    )


def type_at_prompt(
    backend: Backend, window: WindowInfo, target: Target, node: Node, text: str, *, enter: bool, via: Via
) -> tuple[str, str]:
    """Type `text` into a terminal, at its prompt: nothing is selected or cleared first (a
    terminal has no text of its own to select: ctrl+a reached the program as a character),
    then Enter if asked. The keyboard focus is confirmed before each. Returns (method, note);
    the note says what the terminal shows after, its last lines."""
    if via is Via.SEMANTIC:
        raise ActionFailed(
            f"{_named(target)} is a terminal: it takes keys, not text; nothing was typed",
            hint="use --via auto to type at its prompt",
        )
    how = take_focus(backend, window, target, node, via, "nothing was typed")
    before = _screen(backend, node)
    pasted = paste.send(backend, text, terminal=True)
    done = (
        ("pasted" if pasted else "typed")
        + " at its prompt (a terminal's line is not selected or cleared first: `winctl keys ctrl+e ctrl+u` "
        "clears a shell's line)" + (f"; {pasted}" if pasted else "")
    )
    if enter:
        if not await_focus(backend, node):
            raise ActionFailed(
                f"{shown(text)} was typed into {_named(target)}, but the keyboard focus left it before "
                "Enter: Enter was not pressed",
                hint="`winctl state` shows where the focus is",
            )
        backend.press_chords(parse_keys("Enter"))
        done += "; Enter pressed"
    now = _shown_after(backend, node, before)
    return f"{how}, keyboard", f"{done}; it shows {now}"


def _screen(backend: Backend, node: Node) -> str | None:
    try:
        return backend.read_text(node.handle)
    except WinctlError:
        return None


def _shown_after(backend: Backend, node: Node, before: str | None) -> str:
    """The terminal's last lines once the keys have shown (its text changed and then stayed
    the same for SHOWN_QUIET), or as they are after SHOWN_SETTLE."""
    deadline = time.monotonic() + SHOWN_SETTLE
    now, since = before, time.monotonic()
    while time.monotonic() < deadline:
        time.sleep(0.05)
        read = _screen(backend, node)
        if read != now:
            now, since = read, time.monotonic()
        elif now != before and time.monotonic() - since >= SHOWN_QUIET:
            break
    if now is None:
        return "nothing that can be read"
    lines = [line.rstrip() for line in now.splitlines() if line.strip()][-SHOWN_LINES:]
    return " / ".join(repr(_clip(line)) for line in lines) if lines else "an empty screen"


def _clip(text: str) -> str:
    return text if len(text) <= SHOWN_CHARS else text[:SHOWN_CHARS] + "…"


def _named(target: Target) -> str:
    return f'element {target.id} ([{target.type}] "{target.name}")' if target.id else repr(target.name)


# -- giving the focus, and typing into what has it ------------------------------------------
def focus(backend: Backend, window: WindowInfo, node: Node | None) -> bool:
    """Give the element the keyboard focus without the mouse, and check that it took it: its
    own focus operation (the cursor is then exactly there, wherever the toolkit says it is
    drawn), or, for a part of a larger text that takes no focus itself (a web page's
    paragraph), the editable holding it (`Backend.focus_holder`). False when it has none,
    refuses, or the focus did not move: then the mouse is used."""
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
    """Click where the element is, with the mouse (`execution.click`), to type into it. A part
    of a larger text is then given CLICK_SETTLE to take the click before the tree is asked
    anything: Chromium acts on a click after answering the calls made next."""
    execution.click(backend, window, target, node, via=Via.INPUT)
    if is_piece_of_text(node):
        time.sleep(CLICK_SETTLE)


def is_piece_of_text(node: Node | None) -> bool:
    """An editable part of a larger text (a paragraph of a document or of a web page's editable
    section): ctrl+a there selects the whole, and typing replaces every other part with it."""
    return node is not None and "editable" in node.states and node.role not in WHOLE_TEXT_TYPES


def type_replacing(backend: Backend, node: Node | None, text: str, *, append: bool) -> str:
    """Type `text` into the focused element over all its text (after it, with `append`);
    returns a note for the result.

    A select-all that did not happen leaves the new text inside the old. Where the element's
    text can be read, that is recognised and mended once: the new text at the start of the
    old (ctrl+a moved to the start, as with Emacs key bindings) — the old text after it
    deleted; anywhere else — all selected and typed again. When the element then does not
    read the text, ActionFailed says what it holds (`_reads_otherwise`); when it cannot be
    read, the note says UNCHECKED."""
    before = _editable_text(backend, node)
    if append:
        return _type_appending(backend, node, before, text)
    if is_piece_of_text(node):  # ctrl+a would select all the text it is part of: its own is selected exactly
        assert node is not None
        if before is not None and backend.select_text(node.handle, 0, len(before)):
            pasted = paste.send(backend, text, node.handle)
            return _joined(
                pasted, _reads_otherwise(backend, node, _settled_text(backend, node, lambda now: now == text), text)
            )
        raise ActionFailed(
            "this element is part of a larger text, and its own text could not be selected: "
            "ctrl+a would select all of the text it is part of, and typing would replace that; "
            "nothing was typed",
            hint="select it yourself (click, shift+End), then `winctl type`",
        )
    backend.press_chords(parse_keys("ctrl+a"))
    pasted = paste.send(backend, text, node.handle if node is not None and before is not None else None)
    if before is None or node is None:
        return pasted
    # an empty field cannot keep old text: only whether it reads the text typed is asked
    now = _settled_text(backend, node, lambda now: now == text or _typed_into(now, before, text) is not None)
    at = _typed_into(now, before, text) if before else None
    if at == 0:
        note = "ctrl+a moved to the start: deleted the old text after the new"
        backend.press_chords(parse_keys("ctrl+shift+End Delete"))
    elif at is not None:
        note = "ctrl+a selected nothing: selected all and typed again"
        backend.press_chords(parse_keys("ctrl+a"))
        paste.send(backend, text, node.handle)
    else:
        return _joined(pasted, _reads_otherwise(backend, node, now, text))
    note = _joined(pasted, note)
    now = _settled_text(backend, node, lambda now: now == text)
    if now == text:
        return note
    if now is None:
        return note + "; its text could not be read back"
    raise ActionFailed(
        f"the element's old text stayed: it reads {shown(now)} (ctrl+a did not select all, twice)",
        hint="clear it another way (e.g. `winctl keys ctrl+shift+Home Delete`), then `winctl input ID TEXT --append`",
    )


def type_into_treeless(backend: Backend, window: WindowInfo, target: Target, text: str, *, append: bool) -> str:
    """Type `text` into a field seen in the pixels of an app whose toolkit has no tree (Tk,
    Motif, Xt); returns a note for the result. ctrl+a selects nothing there: Tk's fields take
    it as Emacs's start of line (IDLE's Save As name "abc" became "Xabc"), Motif's insert it
    (nedit's Save As name read "m.txt\x01/tmp/tp/out.txt", and its search for "\x01motif"
    found nothing). The field is clicked, and its text selected by the keys its toolkit takes
    (`Backend.field_selecting_keys`: Home then shift+End in most): the text typed replaces it
    (with `append`: End, then the text). Nothing reads such a field's text back, and the note
    says so."""
    execution.click(backend, window, target, None, via=Via.INPUT)
    keys = "End" if append else backend.field_selecting_keys(window)
    backend.press_chords(parse_keys(keys))
    pasted = paste.send(backend, text)
    done = "its end reached by" if append else "its text selected by"
    return _joined(
        pasted, f"{done} {keys} (no tree: ctrl+a selects nothing in its toolkit); its text could not be read back"
    )


def _type_appending(backend: Backend, node: Node | None, before: str | None, text: str) -> str:
    """Type `text` after the element's own text: the cursor put at its end through the
    accessibility API where it can be (ctrl+End goes to the end of a whole document, and
    LibreOffice got there only after the first letters had gone in: " thrice" appended to a
    paragraph split as " th" there and "rice" in the last one), else by ctrl+End. Where the
    text can be read back, the caller is told what it holds when that is not the two joined."""
    placed = node is not None and before is not None and backend.place_caret(node.handle, len(before))
    if not placed:
        backend.press_chords(parse_keys("ctrl+End"))
    pasted = paste.send(backend, text, node.handle if node is not None and before is not None else None)
    if before is None or node is None:
        return pasted
    return _joined(
        pasted,
        _reads_otherwise(backend, node, _settled_text(backend, node, lambda now: now == before + text), before + text),
    )


def _joined(*notes: str) -> str:
    return "; ".join(note for note in notes if note)


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
    raise ActionFailed(
        f"typed {shown(text)} and Enter into the cell, but it reads {shown(now)}" + _focus_now(backend, node),
        hint=FORMATTED_OR_ASTRAY,
    )


def _same_number(text: str, now: str) -> bool:
    """A number the cell shows in its own format (1000 as "1,000", 0.50 as "0.5")."""
    try:
        return float(text.replace(",", "")) == float(now.replace(",", ""))
    except ValueError:
        return False


def _reads_otherwise(backend: Backend, node: Node, now: str | None, text: str) -> str:
    """ "" when the field, once settled, reads the text typed; UNCHECKED when it cannot be read; else
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
    raise ActionFailed(
        f"typed {shown(text)}, but the field reads {shown(again)}" + _focus_now(backend, node), hint=FORMATTED_OR_ASTRAY
    )


FORMATTED_OR_ASTRAY = (
    "nothing more was typed. If the element formats what it is given (upper case, a mask, a "
    "date), what it reads is its form of your text and nothing needs redoing; if not, keys went "
    "elsewhere: `winctl state` shows which element holds the focus and what each reads"
)


def _focus_now(backend: Backend, node: Node) -> str:
    """ ", and the keyboard focus is not in it now" where the element says so."""
    return ", and the keyboard focus is not in it now" if backend.holds_focus(node.handle) is False else ""


def _typed_into(now: str | None, before: str, text: str) -> int | None:
    """Where `text` was typed into `before` to give `now`, or None when `now` is not that."""
    if now is None or len(now) != len(before) + len(text):
        return None
    at = now.find(text)
    while at != -1:
        if now[:at] == before[:at] and now[at + len(text) :] == before[at:]:
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
