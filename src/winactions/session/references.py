"""Reference resolution: what a command's element reference (`ref`) means, now.

A reference is an id of the state (an `int`: `15`), a plain name (a `str`, always: `Save`, and
`"7"` the element named "7", looked for in the tree only, as `name:7` is; the command line reads
a bare `7` as the id), or a visual target (`text:Save`, `image:NAME`, `dynamic:…`, `fixed:…`)
located in pixels.
A plain name is looked for in the window's tree first — exact and cheap — and must name one
element (`winactions.candidates`); a name the tree holds out of view is scrolled into view
(`offview`); a name the tree does not hold at all is looked for in pixels, as a visual target.
Whatever resolves is checked to be what the agent was shown (`identity`) before an action.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from winactions import progress
from winactions.candidates import named, only_one
from winactions.errors import NoAccessibility, NotFound, NoTree, shown
from winactions.model import Node, Operation, Source, Target, WindowInfo
from winactions.perception.accessibility import TEXT_TYPES, display_name
from winactions.session import identity, offview

if TYPE_CHECKING:
    from collections.abc import Callable

    from winactions.session.desktop import DesktopSession

# What makes a target visual rather than a name (the locator's prefixes, kept here so that
# acting on a plain name never imports the locator's numpy and OpenCV).
VISUAL_PREFIXES = frozenset({"text", "image", "dynamic", "fixed"})
NAME_PREFIX = "name:"  # a plain name said to be one: `name:7` is the element named "7", never the id 7
WRITABLE_TYPES = frozenset({"Edit", "Document"})  # take typed text even without an editable-text interface (web)
REPAINT_QUIET = 0.08  # s a window brought forward must hold its pixels still before they are read ...
REPAINT_LIMIT = 1.0  # ... waited for at most this long (a clock or a spinner never holds still)


def is_id(ref: str) -> bool:
    """Text that reads as an id (`15`): the command line gives such a word as the int; here a
    `str` is always a name, and this only says that a caller may have meant an id."""
    return ref.strip().lstrip("-").isdigit()


def plain_name(ref: str) -> str:
    """A plain name as given, or after NAME_PREFIX (`name:7`: a calculator's key "7", where a
    bare `7` is the id 7)."""
    return ref.removeprefix(NAME_PREFIX).strip()


def is_control(target: Target) -> bool:
    """Not static text: a radio button and its label's text share a name, and the label names
    the control."""
    return target.type not in TEXT_TYPES


def takes_text(target: Target) -> bool:
    """An element `input` can write in: an edit, a document, or anything with editable text,
    not read-only."""
    return (
        target.type in WRITABLE_TYPES or Operation.SET_TEXT in target.operations
    ) and "read_only" not in target.states


def resolve_to_read(session: DesktopSession, ref: int | str, window: WindowInfo) -> tuple[Target, Node | None]:
    """An id, or the one element of the window with this name (`get value Name`), and its fresh
    read (`DesktopSession.resolve`). For a name a fresh state is read and nothing is scrolled,
    as reading changes nothing: of several so named, one that takes text, else the only
    control, else InvalidInput listing them. A name out of view (a sheet's cell by its address,
    as `input` reaches it) is read where it is, as an element with no id (0); NotFound when the
    window has no element so named, or several out of view."""
    if isinstance(ref, int):
        return session.resolve(ref)
    name = plain_name(ref)
    state = session.refresh_state(window)
    found = only_one(
        named([t for t in state.targets if t.source is Source.ACCESSIBILITY], name),
        f"named {shown(name)}",
        prefer=(takes_text, is_control),
    )
    if found is not None:
        return session.resolve(found.id)
    hidden = offview.named_out_of_view(session, name, state)
    node = session.backend.refresh(hidden.pop()) if len(hidden) == 1 else None
    if node is None:
        if not hidden:
            offview.check_address(name, state)
        several = f" (but {len(hidden)} elements out of view are)" if len(hidden) > 1 else ""
        raise NotFound(
            f"no element of the window is named {shown(name)}{several}",
            hint="run `winctl state` for names and ids; a sheet's cell is reached by its address (B12)",
        )
    return _unlisted(node), node


def resolve_ref(
    session: DesktopSession, ref: int | str, window: WindowInfo, *, text: bool = False, wheel: bool = True
) -> tuple[Target, Node | None]:
    """What an action acts on, checked to be what the agent was shown (`identity`): an id of the
    state (found out of view by `find`: scrolled into view first), the one element of the tree
    with a plain name, else a visual target located now.

    Of several elements sharing a plain name, the control is meant, and with `text` (`input`)
    the one that takes text (GTK's Save As has an Edit and a column header named "Name");
    else InvalidInput listing them. A name out of view is scrolled into view (by the mouse
    wheel unless not `wheel`: `--via semantic`). A located target has no handle and no node,
    so actions use its coordinates; its `derived_from` says how it was found. NotFound when
    nothing is found, listing the locator's closest candidates; `name:` names are never
    looked for in pixels."""
    if isinstance(ref, str) and is_id(ref):  # digits as a str name an element, as `name:7` does: never pixels
        ref = NAME_PREFIX + ref.strip()
    if isinstance(ref, int):
        target_id = ref
        if offview.is_out_of_view(session.target(target_id)):
            target_id = offview.brought_into_view(session, target_id, window, wheel)
        target, node = session.resolve(target_id, acting=True)
        identity.check_lent_name(target, lambda: session.refresh_state(window), session.data.written.get(target.id))
        return target, node
    if ref.partition(":")[0] not in VISUAL_PREFIXES:  # a plain name: the tree knows it exactly
        progress.step(f"looking for {ref!r} in the window's tree")
        in_tree = _named_in_tree(session, plain_name(ref), window, text, wheel)
        if in_tree is not None:
            return session.resolve(in_tree.id, acting=True)
        offview.check_address(plain_name(ref), session.data.state)
        if ref.startswith(NAME_PREFIX):  # the tree's element, said so: never pixels
            raise NotFound(
                f"no element of the window is named {shown(plain_name(ref))}",
                hint="run `winctl state` for names and ids",
            )
    return _located(session, ref, window), None


def _named_in_tree(
    session: DesktopSession, name: str, window: WindowInfo, text: bool = False, wheel: bool = True
) -> Target | None:
    """The one element of the window's tree with this name (`candidates.named`): reading the tree
    costs milliseconds and is exact, reading pixels costs seconds. One out of view is scrolled
    into view and read again. Several are an error that lists them; none is None (then pixels
    are searched), as is a window with no tree at all (xmessage; an app whose bridge is off)."""
    try:
        state = session.refresh_state(window)
    except (NoTree, NoAccessibility):
        return None
    what = f"named {shown(name)}"
    prefer: tuple[Callable[[Target], bool], ...] = (takes_text, is_control) if text else (is_control,)
    found = only_one(named([t for t in state.targets if t.source is Source.ACCESSIBILITY], name), what, prefer=prefer)
    if found is None and (scrolled := offview.scrolled_into_view(session, name, state, wheel)) is not None:
        deadline = time.monotonic() + offview.SCROLL_SETTLE  # a page lays itself out again after it scrolls
        while found is None and time.monotonic() < deadline:
            listed = [t for t in session.refresh_state(window).targets if t.source is Source.ACCESSIBILITY]
            # Qt makes new objects for the items a scroll brings into view: then its name and type
            found = only_one(
                named([t for t in listed if t.handle == scrolled.handle], name), what, prefer=(is_control,)
            ) or only_one(named([t for t in listed if t.type == scrolled.role], name), what, prefer=prefer)
            time.sleep(0 if found else 0.05)
    return found


def _located(session: DesktopSession, ref: str, window: WindowInfo) -> Target:
    """A visual target (or a plain name the tree does not hold) located in the window's pixels
    now, brought forward first; NotFound when it is not found (listing the closest candidates),
    or found where it cannot be clicked."""
    forward = _bring_forward(session, window)
    result = session.locator().locate(ref, window=window)
    if forward and result.success:
        # pixels read while the window still repainted what had covered it: the cached box
        # is checked against the screen again, and looked for anew if it changed
        time.sleep(REPAINT_QUIET)
        result = session.locator().locate(ref, window=window)
    if not result.success or result.element is None:
        options = "; ".join(
            f"{c.label or '?'} {c.bbox} {c.confidence:.2f} by {c.method}" for c in result.candidates[:3]
        )
        plain = ref.partition(":")[0] not in VISUAL_PREFIXES
        raise NotFound(
            (f"no element of the window is named {shown(ref)}, and " if plain else "")
            + (result.error or f"{shown(ref)} was not found"),
            hint=(f"closest: {options} — " if options else "")
            + "try `winctl locate` with --strategy, or `winctl state`",
        )
    found = result.element
    if not found.valid or not found.can_interact or found.safe_region is None:
        raise NotFound(
            f"{shown(ref)} was found at {found.bbox} but cannot be clicked there: "
            f"{found.error or 'too little of it is visible'}",
            hint="scroll it into view",
        )
    rect = found.bbox if found.safe_region.contains(*found.bbox.center) else found.safe_region
    source = {"ocr": Source.OCR, "vision": Source.VISION, "fixed": Source.FIXED}.get(
        found.method.split(":")[0], Source.TEMPLATE
    )
    how = (
        f"located by {found.method}"
        + (" (cached)" if result.cache_hit else "")
        + f", confidence {found.confidence:.2f}"
    )
    return Target(
        id=0,
        type="Located",
        name=found.label or ref,
        rect=rect,
        source=source,
        confidence=found.confidence,
        derived_from=how,
        states=["enabled"],
    )


def _bring_forward(session: DesktopSession, window: WindowInfo) -> bool:
    """Bring the window forward before its pixels are read, as the action would: read behind
    another window, they are partly that window's. Then wait until its pixels hold still for
    REPAINT_QUIET (at most REPAINT_LIMIT), as it repaints what was covered. True when it was
    brought (it was not active, or minimized, and is not the bound window)."""
    backend = session.backend
    if (window.active and not window.minimized) or backend.bound_window() == window.id:
        return False
    backend.ensure_active(window)
    now = next((w for w in backend.list_windows() if w.id == window.id), window)
    on_screen = [
        part
        for screen in backend.screens()
        if now.rect is not None and (part := now.rect.intersect(screen)) is not None
    ]
    if not on_screen:
        return True  # nothing of it on a screen to wait for (the locate says so)
    area = max(on_screen, key=lambda part: part.area)
    deadline = time.monotonic() + REPAINT_LIMIT
    last = backend.capture(area).tobytes()
    while time.monotonic() < deadline:
        time.sleep(REPAINT_QUIET)
        pixels = backend.capture(area).tobytes()
        if pixels == last:
            break
        last = pixels
    return True


def _unlisted(node: Node) -> Target:
    """An element read by its name out of view (`resolve_to_read`): it has no id (0) and no
    place on the screen, as it is in no state."""
    return Target(
        id=0,
        type=node.role,
        name=display_name(node),
        value=node.value,
        states=sorted(node.states),
        automation_id=node.automation_id,
        derived_from="out of view: read by its name, not in the state",
        handle=node.handle,
    )
