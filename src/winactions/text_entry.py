"""Keys for one element reach that element: the keyboard focus is confirmed in it before any
key is pressed for it (typed text, Enter, End), and what it shows after is said.

A text set through the accessibility API does not move the focus: a key pressed after it goes
wherever the focus is. A click or a focus call may move the focus a little later than it
returns: a key sent at once goes to the element that had it. So the focus is waited for, and a
key is refused when it does not come. A terminal is not a text field: it has no text of its own
to select or replace, and its keys reach the program running in it.
"""

from __future__ import annotations

import time

from winactions import settings
from winactions.backends.base import Backend
from winactions.errors import ActionFailed, InvalidInput, WinctlError, shown
from winactions.execution import Via, click_to_type, focus
from winactions.keys import parse_keys
from winactions.model import Node, Operation, Target, WindowInfo

FOCUS_SETTLE = 1.0  # s: how long an element may take to hold the keyboard focus after a click
GRAB_SETTLE = 0.3  # s: ... after its focus operation said yes (then it is clicked)
ENTER_SETTLE = 0.3  # s: how long the effect of Enter is watched for (the focus, the element's text, the window)
SHOWN_SETTLE = 1.0  # s: how long a terminal's screen is watched for what the keys made it show
SHOWN_QUIET = 0.15  # s: ... it has shown it once it stayed the same this long
SHOWN_LINES = 3  # lines of a terminal's screen said after input
SHOWN_CHARS = 240  # characters of them at most
# Characters one command types at most (WINCTL_TYPING_LIMIT overrides it): about 20 s of XTEST
# typing on our test machine (~500 a second), so the session is not held for minutes.
TYPING_LIMIT = settings.TYPING_LIMIT.default
TYPING_RATE = 500  # characters a second, as measured there: for the hint only


def typing_limit() -> int:
    """How many characters one command may type (WINCTL_TYPING_LIMIT, else TYPING_LIMIT)."""
    return settings.TYPING_LIMIT.read()


def check_typing_budget(text: str) -> None:
    """Refuse, before any key is pressed, a text longer than one command types
    (`typing_limit`): typing it would hold the session for minutes."""
    limit = typing_limit()
    if len(text) <= limit:
        return
    raise InvalidInput(f"{len(text):,} characters is more than one command types ({limit:,}, about "
                       f"{limit / TYPING_RATE:.0f} s of keys); nothing was typed",
                       hint="put the text on the clipboard (`winctl clipboard TEXT`) and paste it "
                            "(`winctl keys ctrl+v`), or type it in parts (`winctl input ID PART --append`), or "
                            f"raise WINCTL_TYPING_LIMIT (about {TYPING_RATE} characters a second)")


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
        raise ActionFailed(f"{_named(target)} did not take the keyboard focus: {undone}",
                           hint=f"click it (`winctl click {target.id} --via input`), check that `winctl state` "
                                "marks it focused, then `winctl type TEXT` or `winctl keys Enter`")


def take_focus(backend: Backend, window: WindowInfo, target: Target, node: Node, via: Via, undone: str) -> str:
    """Give the element the keyboard focus before keys are pressed for it: through its focus
    operation (unless `via` is input), else (unless `via` is semantic) by a click on it; then
    confirm it holds it (`confirm_focus`). Returns how: "Component.GrabFocus" or "mouse click"."""
    if via is not Via.INPUT and (focus(backend, window, node) or (
            Operation.FOCUS in node.operations and await_focus(backend, node, GRAB_SETTLE))):
        return "Component.GrabFocus"  # GTK's entries take it a few ms after answering
    if via is Via.SEMANTIC:
        raise ActionFailed(f"{_named(target)} does not take the keyboard focus through the accessibility API: "
                           f"{undone}", hint="use --via auto to click it first")
    click_to_type(backend, window, target, node)
    confirm_focus(backend, target, node, undone)
    return "mouse click"


def press_enter(backend: Backend, window: WindowInfo, target: Target, node: Node | None) -> str:
    """Press Enter in the element, which must still hold the keyboard focus (else nothing is
    pressed and ActionFailed says so; an element not in the tree cannot be checked). Returns
    what it did, said for the result: "Enter pressed in it" and what changed within
    ENTER_SETTLE (the active window, the focus, the element's text), or that none of these did."""
    if not await_focus(backend, node):
        raise ActionFailed(f"the text is in {_named(target)}, but the keyboard focus left it before Enter: "
                           "Enter was not pressed",
                           hint=f"`winctl state` shows where the focus is; `winctl click {target.id} --via input`, "
                                "then `winctl keys Enter`")
    before = _looks(backend, window, node)
    backend.press_chords(parse_keys("Enter"))
    deadline = time.monotonic() + ENTER_SETTLE
    while (after := _looks(backend, window, node)) == before and time.monotonic() < deadline:
        time.sleep(0.05)
    pressed = "Enter pressed in it" if node is not None else \
        "Enter pressed (not in the tree: that the element had the focus cannot be checked)"
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
    return ", ".join(said) if said else \
        f"the focus, its text and the active window stayed as they were (watched {ENTER_SETTLE:g} s)"


def type_at_prompt(backend: Backend, window: WindowInfo, target: Target, node: Node, text: str, *,
                   enter: bool, via: Via) -> tuple[str, str]:
    """Type `text` into a terminal, at its prompt: nothing is selected or cleared first (a
    terminal has no text of its own to select: ctrl+a reached the program as a character),
    then Enter if asked. The keyboard focus is confirmed before each. Returns (method, note);
    the note says what the terminal shows after, its last lines."""
    if via is Via.SEMANTIC:
        raise ActionFailed(f"{_named(target)} is a terminal: it takes keys, not text; nothing was typed",
                           hint="use --via auto to type at its prompt")
    how = take_focus(backend, window, target, node, via, "nothing was typed")
    before = _screen(backend, node)
    backend.type_text(text)
    done = "typed at its prompt (a terminal's line is not selected or cleared first: `winctl keys ctrl+e ctrl+u` " \
           "clears a shell's line)"
    if enter:
        if not await_focus(backend, node):
            raise ActionFailed(f"{shown(text)} was typed into {_named(target)}, but the keyboard focus left it before "
                               "Enter: Enter was not pressed", hint="`winctl state` shows where the focus is")
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
