"""Text and the keyboard focus: an element's whole text, its caret and selection, who holds
the focus, and the check that text set through the tree arrived.

Every function takes an element already resolved (`grid.resolve`).
"""

from __future__ import annotations

import asyncio
import time
from typing import TYPE_CHECKING

from winactions.backends.linux.atspi import element, tree
from winactions.backends.linux.atspi.refs import ACCESSIBLE, PROPERTIES, Ref
from winactions.backends.linux.atspi_roles import IFACE, role_of, states_of
from winactions.errors import ActionFailed, InvalidInput, NotFound

if TYPE_CHECKING:
    from winactions.backends.linux.atspi.bus import Bus

FOCUS_SETTLE = 0.5  # s an editable given the focus through the tree may take to say it has it
HOLDER_DEPTH = 4  # ancestors looked at for the editable that holds an element (a section holds paragraphs)
FOCUS_CHILDREN = 8  # children looked at for the keyboard focus (a combo box's entry); more: a container


async def read_text(bus: Bus, ref: Ref) -> str:
    """What the element says: a combo box's chosen option, else its whole text (an empty field
    or cell is ""), else its value, else its name; NotFound when it is gone."""
    dest, path = ref
    role = await bus.maybe(dest, path, ACCESSIBLE, "GetRole")
    ctype = role_of(int(role[0]))[1] if role else ""
    if ctype == "ComboBox":
        chosen = await element.chosen(bus, ref)
        if chosen is not None:
            return chosen
    text = await element.whole_text(bus, ref)
    if text is not None and (text.strip("\ufffc") or ctype in ("DataItem", "Edit")):
        return text  # an empty cell or field is empty, not its Value (0) or its name
        # (gnome-calculator's empty display is named after its class, "GtkSourceView")
    value = await bus.maybe(dest, path, PROPERTIES, "Get", "ss", [IFACE + "Value", "CurrentValue"])
    if value is not None:
        number = float(value[0].value)
        return str(int(number)) if number.is_integer() else f"{number:g}"
    name = await bus.maybe(dest, path, PROPERTIES, "Get", "ss", [ACCESSIBLE, "Name"])
    if name is None:
        raise NotFound("the element is gone", hint="run `winctl state`")
    return str(name[0].value)


async def screen(bus: Bus, ref: Ref) -> tuple[str, int | None] | None:
    """A terminal's whole text (VTE gives its visible screen) and its caret offset, read
    together; None when it has no Text interface or is gone."""
    got, caret = await asyncio.gather(
        bus.maybe(ref[0], ref[1], IFACE + "Text", "GetText", "ii", [0, -1]),
        bus.maybe(ref[0], ref[1], PROPERTIES, "Get", "ss", [IFACE + "Text", "CaretOffset"]),
    )
    if got is None:
        return None
    offset = int(caret[0].value) if caret else -1
    return str(got[0]), (offset if offset >= 0 else None)


async def select_text(bus: Bus, ref: Ref, start: int, end: int) -> bool:
    """Text.SetSelection of the first selection, else AddSelection; False where refused."""
    dest, path = ref
    count = await bus.maybe(dest, path, IFACE + "Text", "GetNSelections")
    if count and count[0] > 0:
        done = await bus.maybe(dest, path, IFACE + "Text", "SetSelection", "iii", [0, start, end])
    else:
        done = await bus.maybe(dest, path, IFACE + "Text", "AddSelection", "ii", [start, end])
    return bool(done and done[0])


async def selection(bus: Bus, ref: Ref) -> tuple[int, int] | None:
    """The element's first selected range of its own text (Text.GetSelection 0); None where
    nothing is selected or it has no text interface."""
    dest, path = ref
    count = await bus.maybe(dest, path, IFACE + "Text", "GetNSelections")
    if not count or count[0] < 1:
        return None
    got = await bus.maybe(dest, path, IFACE + "Text", "GetSelection", "i", [0])
    if not got or got[0] >= got[1]:
        return None
    return int(got[0]), int(got[1])


async def set_caret(bus: Bus, ref: Ref, offset: int) -> bool:
    """Text.SetCaretOffset; False where the element has no text interface or refuses."""
    done = await bus.maybe(ref[0], ref[1], IFACE + "Text", "SetCaretOffset", "i", [offset])
    return bool(done and done[0])


async def focus_holder(bus: Bus, ref: Ref) -> bool:
    """GrabFocus on the nearest of the element's ancestors (up to HOLDER_DEPTH) that is
    focusable and editable (Chromium's editable section, which holds its paragraphs); True
    once it says it is focused, within FOCUS_SETTLE."""
    for _ in range(HOLDER_DEPTH):
        parent = await bus.maybe(ref[0], ref[1], PROPERTIES, "Get", "ss", [ACCESSIBLE, "Parent"])
        if not parent:
            return False
        ref = tuple(parent[0].value)
        words = await bus.maybe(ref[0], ref[1], ACCESSIBLE, "GetState")
        states = states_of(list(words[0])) if words else frozenset()
        if {"focusable", "editable"} <= states:
            done = await bus.maybe(ref[0], ref[1], IFACE + "Component", "GrabFocus")
            if not (done and done[0]):
                return False
            deadline = time.monotonic() + FOCUS_SETTLE  # Chromium moves the focus after answering
            while "focused" not in states and time.monotonic() < deadline:
                await asyncio.sleep(0.02)
                words = await bus.maybe(ref[0], ref[1], ACCESSIBLE, "GetState")
                states = states_of(list(words[0])) if words else frozenset()
            return "focused" in states
    return False


async def holds_focus(bus: Bus, ref: Ref) -> bool | None:
    """See `Backend.holds_focus`: the element's own "focused" state, its children's (where
    it has at most FOCUS_CHILDREN: a sheet has two billion) and, for a cell or an element
    that takes no focus itself, its ancestors' up to HOLDER_DEPTH. None when it is gone."""
    states = await tree.states(bus, ref)
    if states is None:
        return None
    if "focused" in states:
        return True
    count = await bus.maybe(ref[0], ref[1], PROPERTIES, "Get", "ss", [ACCESSIBLE, "ChildCount"])
    if count and 0 < int(count[0].value) <= FOCUS_CHILDREN:
        kids = await asyncio.gather(*(tree.states(bus, kid) for kid in await tree.children(bus, ref)))
        if any(kid is not None and "focused" in kid for kid in kids):
            return True
    if "focusable" in states and (await tree.role(bus, ref))[0] != "table-cell":
        return False
    for _ in range(HOLDER_DEPTH):
        holder = await tree.parent(bus, ref)
        if holder is None:
            return False
        if "focused" in (await tree.states(bus, holder) or ()):
            return True
        ref = holder
    return False


async def check_text(bus: Bus, ref: Ref, wanted: str, *, protected: bool, before: str | None = None) -> None:
    """Return once the element's text is `wanted` (or it has no text to read); ActionFailed when
    SetTextContents said yes but the text did not change (Firefox's web fields). A password
    field (`protected`) reads as one bullet a character: as many as wanted is the text set. A
    field that kept only the start of the text (`before` was its text) holds no more:
    InvalidInput, saying how much it holds, with `before` put back."""
    got = None
    for _ in range(5):
        got = await element.whole_text(bus, ref)
        if got is None or got == wanted or (protected and len(got) == len(wanted) and len(set(got)) <= 1):
            return
        await asyncio.sleep(0.05)
    if got and before is not None and got != before and len(got) < len(wanted) and wanted.startswith(got):
        await _put_back(bus, ref, before, len(got), len(wanted))
    raise ActionFailed("the element accepted the text but did not change", hint="type it with --via input")


async def _put_back(bus: Bus, ref: Ref, before: str, holds: int, wanted: int) -> None:
    """Raise InvalidInput for a text of `wanted` characters in a field that holds `holds`,
    once its text `before` is back."""
    back = await bus.maybe(ref[0], ref[1], IFACE + "EditableText", "SetTextContents", "s", [before])
    now = await element.whole_text(bus, ref)
    kept = (
        "its text is as it was"
        if back and back[0] and now == before
        else f"it now holds the text's first {holds:,} characters (its old text could not be put back)"
    )
    raise InvalidInput(
        f"the field holds at most {holds:,} characters and the text has {wanted:,}: {kept}; nothing was typed",
        hint=f"input at most {holds:,} characters there (split a longer text over several fields or files)",
    )
