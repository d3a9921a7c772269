"""Action commands: act on an element by id, or on the screen by coordinates."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BeforeValidator, Field, field_validator

from winactions import execution, paste, text_entry
from winactions.backends.base import TERMINAL, MouseButton
from winactions.commands.base import CLI_ONLY, Context, Kind, Params, Ref, command
from winactions.commands.results import ActionResult
from winactions.errors import ActionFailed, InvalidInput, shown
from winactions.execution import Via
from winactions.keys import MODIFIERS, parse_keys
from winactions.model import Operation

REF = Field(description="id from `winctl state`, or text:Save, image:ASSET, dynamic:DESCRIPTION, fixed:NAME")
VIA = Field(
    Via.AUTO,
    description="auto: semantic if it fits, else the mouse; semantic: never the mouse; input: the mouse",
)


def _modifier_names(value: Any) -> Any:
    """ "shift,ctrl", ["shift", "ctrl"] or ("shift,ctrl",) (a repeated CLI option) → the
    modifiers' canonical names, in order, each once; a word that is no modifier fails here."""
    if value is None:
        return []
    words = [value] if isinstance(value, str) else list(value) if isinstance(value, list | tuple) else value
    if not isinstance(words, list) or not all(isinstance(w, str) for w in words):
        return value  # pydantic says what is wrong with it
    names: list[str] = []
    for word in (w.strip() for item in words for w in item.replace("+", ",").split(",")):
        if not word:
            continue
        chord = parse_keys(word)[0]
        if chord.modifiers or chord.key not in MODIFIERS:
            raise ValueError(f"{word!r} is not a modifier: give shift, ctrl, alt or super")
        names += [] if chord.key in names else [chord.key]
    return names


Modifiers = Annotated[list[str], BeforeValidator(_modifier_names)]
MODIFIERS_FIELD: Any = Field(default_factory=list, description="keys held: shift,ctrl,alt,super")


def _with_keys(detail: str, modifiers: list[str]) -> str:
    """A click's detail, with the modifiers it held said first."""
    held = f"with {'+'.join(modifiers)} held" if modifiers else ""
    return "; ".join(part for part in (held, detail) if part)


class ClickParams(Params):
    id: Ref = REF
    via: Via = VIA
    modifiers: Modifiers = MODIFIERS_FIELD


@command("click", ClickParams, kind=Kind.ACTION, positional=("id",), profiles=("core",))
def click(ctx: Context, p: ClickParams) -> ActionResult:
    """Click an element: its semantic action (press, toggle, select) if it has one, else a
    left click at its visible centre. A disabled one is refused; one out of view is scrolled
    to first."""
    if p.modifiers and p.via is Via.SEMANTIC:
        raise InvalidInput(
            "--modifiers needs a mouse click, and --via semantic never uses the mouse; nothing was clicked",
            hint="drop --via semantic (an accessibility action holds no keys)",
        )
    held = ctx.session.data.held_keys  # keys `key-down` holds reach a mouse click only
    via = Via.INPUT if held and p.via is Via.AUTO else p.via
    target, node = ctx.session.resolve_ref(p.id, ctx.window(), wheel=p.via is not Via.SEMANTIC)
    method, point, note = execution.click(
        ctx.session.backend, ctx.window(), target, node, via=via, modifiers=p.modifiers
    )
    note = _with_keys(note, p.modifiers) + (f"; with {' '.join(held)} down (`key-down`)" if held else "")
    return ActionResult(action="click", method=method, target=target, point=point, detail=_with_keys(note, p.modifiers))


class PointerParams(Params):
    id: Ref = REF
    # not in the MCP schema (the core profile's budget): `click_at` with count 2 or the right button takes them
    modifiers: Modifiers = Field(
        default_factory=list, description="keys held: shift,ctrl,alt,super", json_schema_extra=CLI_ONLY
    )


@command("dblclick", PointerParams, kind=Kind.ACTION, positional=("id",), profiles=("core",))
def dblclick(ctx: Context, p: PointerParams) -> ActionResult:
    """Double-click an element at its visible centre (opens rows, selects words)."""
    target, node = ctx.session.resolve_ref(p.id, ctx.window())
    method, point, _ = execution.click(
        ctx.session.backend, ctx.window(), target, node, count=2, via=Via.INPUT, modifiers=p.modifiers
    )
    return ActionResult(
        action="dblclick", method=method, target=target, point=point, detail=_with_keys("", p.modifiers)
    )


@command("rightclick", PointerParams, kind=Kind.ACTION, positional=("id",), profiles=("core",))
def rightclick(ctx: Context, p: PointerParams) -> ActionResult:
    """Right-click an element at its visible centre (context menus)."""
    target, node = ctx.session.resolve_ref(p.id, ctx.window())
    method, point, _ = execution.click(
        ctx.session.backend, ctx.window(), target, node, button=MouseButton.RIGHT, via=Via.INPUT, modifiers=p.modifiers
    )
    return ActionResult(
        action="rightclick", method=method, target=target, point=point, detail=_with_keys("", p.modifiers)
    )


class InputParams(Params):
    id: Ref = REF
    text: str = Field(description="the text to put in the element")
    append: bool = Field(False, description="add to the existing text instead of replacing it")
    enter: bool = Field(False, description="press Enter afterwards")
    via: Via = VIA


@command("input", InputParams, kind=Kind.ACTION, positional=("id", "text"), profiles=("core",))
def input_(ctx: Context, p: InputParams) -> ActionResult:
    """Set an element's text (or append): through its editable-text interface, else focused
    and typed (a long text pasted), then read back. A terminal is typed into at its prompt; a
    sheet's cell (by address, Z200) is committed. Refused: an element that takes no text, a
    disabled field, a text longer than the field holds."""
    return set_text(ctx, p)


def set_text(ctx: Context, p: InputParams) -> ActionResult:
    """The body of `input`, shared with `type-into-element`: the element resolved, the text
    refused or entered by `text_entry` (which decides the route and checks the text arrived),
    and the session told what the element is named by now (`Session.wrote`)."""
    target, node = ctx.session.resolve_ref(p.id, ctx.window(), takes_text=True, wheel=p.via is not Via.SEMANTIC)
    text_entry.refuse_text(target, node, append=p.append, via=p.via)
    naming = ctx.session.text_naming(target, node)  # the element is named by this text: see Session.wrote
    method, note = text_entry.enter_text(
        ctx.session.backend, ctx.window(), target, node, p.text, append=p.append, enter=p.enter, via=p.via
    )
    if naming is not None and node is not None and TERMINAL not in node.extra:  # a prompt's keys rename nothing
        ctx.session.wrote(target, naming + p.text if p.append else p.text)
    return ActionResult(action="input", method=method, target=target, detail=note)


class TypeParams(Params):
    text: str = Field(description="text typed into whatever has keyboard focus")


@command("type", TypeParams, kind=Kind.ACTION, positional=("text",), profiles=("core",))
def type_(ctx: Context, p: TypeParams) -> ActionResult:
    """Type text into the focused element of the window (any Unicode); a long text is pasted
    (WINCTL_PASTE_OVER)."""
    backend = ctx.session.backend
    text_entry.check_typing_budget(p.text, backend)
    window = ctx.window()
    backend.ensure_active(window)
    pasted = paste.send(backend, p.text, terminal=paste.in_terminal(window.process))
    method = "clipboard" if pasted else "keyboard"
    return ActionResult(action="type", method=method, detail=pasted or f"{len(p.text)} characters")


class KeysParams(Params):
    keys: str = Field(description='key chords like "ctrl+s", "Enter", "alt+f4", "ctrl+a Delete"')

    @field_validator("keys", mode="before")
    @classmethod
    def _chords_given_as_words(cls, value: Any) -> Any:
        """`winctl keys Home shift+End`, unquoted, is the chords "Home shift+End": the shell
        splits them into words, and a second word was refused as an unexpected argument."""
        return " ".join(value) if isinstance(value, list) and all(isinstance(v, str) for v in value) else value


@command("keys", KeysParams, kind=Kind.ACTION, variadic="keys", profiles=("core",))
def keys(ctx: Context, p: KeysParams) -> ActionResult:
    """Press keys: chords joined by + and separated by spaces ("ctrl+shift+s", "Down Down Enter")."""
    chords = parse_keys(p.keys, ctx.session.backend.key_names)  # a bad key name fails before anything is pressed
    backend = ctx.session.backend
    backend.ensure_active(ctx.window())
    backend.press_chords(chords)
    backend.keys_settled(ctx.window())
    return ActionResult(action="keys", method="keyboard", detail=" ".join(str(c) for c in chords))


class ScrollParams(Params):
    id: Ref = REF
    direction: Literal["up", "down", "left", "right"] = Field(description="which way to scroll")
    amount: int = Field(3, ge=1, le=100, description="wheel notches")


@command("scroll", ScrollParams, kind=Kind.ACTION, positional=("id", "direction", "amount"), profiles=("core",))
def scroll(ctx: Context, p: ScrollParams) -> ActionResult:
    """Scroll inside an element (its scroll pattern, else the mouse wheel at its centre); fails
    when nothing under the wheel moved."""
    backend = ctx.session.backend
    target, node = ctx.session.resolve_ref(p.id, ctx.window())
    method, note = execution.try_semantic(backend, node, (Operation.SCROLL,), f"{p.direction}:{p.amount}")
    if method:
        return ActionResult(action="scroll", method=method, target=target, detail=f"{p.direction} {p.amount}")
    x, y = execution.pointer_point(backend, ctx.window(), target, node)
    dx, dy = execution.wheel_notches(p.direction, p.amount)
    moved = execution.wheel_moved(backend, target.rect or ctx.window().rect, x, y, dx, dy)
    if moved is False:
        raise ActionFailed(
            f"the wheel turned {p.direction} {p.amount} at ({x}, {y}) and nothing in element {p.id} "
            f"([{target.type}] {shown(target.name, 60)}) moved",
            hint="it may be at its end, or the app takes no wheel there: try keys (Page_Down, "
            "ctrl+End), its scroll bar, or another element that holds the content",
        )
    return ActionResult(
        action="scroll",
        method="wheel",
        target=target,
        point=(x, y),
        detail=f"{p.direction} {p.amount}" + (f" (semantic route failed: {note})" if note else ""),
    )


class SelectParams(Params):
    id: Ref = REF
    value: str = Field(description="the option to choose (its visible name)")


@command("select", SelectParams, kind=Kind.ACTION, positional=("id", "value"), profiles=("core",))
def select(ctx: Context, p: SelectParams) -> ActionResult:
    """Choose an option by name in a combo box, list or tab list (the box by id or by its name);
    the box must then read the option."""
    backend = ctx.session.backend
    target, node = ctx.session.resolve_ref(p.id, ctx.window())
    if node is None or Operation.CHOOSE not in node.operations:
        raise ActionFailed(
            f'element {p.id} ([{target.type}] "{target.name}") has no options to choose from',
            hint="select works on combo boxes, lists and tab lists; for other elements click the option itself",
        )
    if backend.chooses_silently(node.handle):  # the semantic route would not tell the app: choose as a user does
        method = execution.choose_by_keys(backend, ctx.window(), target, node, p.value)
    else:
        try:
            method = backend.perform(node.handle, Operation.CHOOSE, p.value)
        except ActionFailed:
            # a combo box that refused the choice, whose options can be read: choose as a user does
            # (where they cannot, keys could only be counted blind: the refusal stands)
            if target.type != "ComboBox" or not backend.option_names(node.handle):
                raise
            method = execution.choose_by_keys(backend, ctx.window(), target, node, p.value)
    return ActionResult(action="select", method=method, target=target, detail=p.value)


class DragParams(Params):
    id: Ref = REF
    x2: int = Field(description="drop point x (screen pixels)")
    y2: int = Field(description="drop point y (screen pixels)")
    duration: float = Field(0.3, ge=0, le=10, description="seconds the drag takes")
    button: MouseButton = Field(MouseButton.LEFT, description="button held")


@command("drag", DragParams, kind=Kind.ACTION, positional=("id", "x2", "y2"), profiles=("core",))
def drag(ctx: Context, p: DragParams) -> ActionResult:
    """Drag an element from its centre to a screen point."""
    backend = ctx.session.backend
    target, node = ctx.session.resolve_ref(p.id, ctx.window())
    execution.check_on_screen(backend, p.x2, p.y2)
    x1, y1 = execution.pointer_point(backend, ctx.window(), target, node)
    backend.drag(x1, y1, p.x2, p.y2, button=p.button, duration=p.duration)
    return ActionResult(
        action="drag", method="mouse", target=target, point=(x1, y1), detail=_drag_detail(p.x2, p.y2, p.button)
    )


def _drag_detail(x: int, y: int, button: MouseButton) -> str:
    return f"to ({x}, {y})" + ("" if button is MouseButton.LEFT else f" with the {button.value} button")


class ClickAtParams(Params):
    x: int = Field(description="screen x (negative on a monitor left of the primary; put -- first)")
    y: int = Field(description="screen y")
    button: MouseButton = Field(MouseButton.LEFT, description="mouse button")
    count: int = Field(1, ge=1, le=3, description="1 click, 2 double, 3 triple")
    modifiers: Modifiers = MODIFIERS_FIELD


@command("click-at", ClickAtParams, kind=Kind.ACTION, positional=("x", "y"), profiles=("vision",))
def click_at(ctx: Context, p: ClickAtParams) -> ActionResult:
    """Click at screen coordinates (for targets no tier can name)."""
    backend = ctx.session.backend
    execution.check_on_screen(backend, p.x, p.y)
    if p.count > 1:  # a double or triple click is counted from its own first press, not an earlier click's
        backend.space_clicks(p.x, p.y)
    backend.ensure_active(ctx.window())
    backend.click(p.x, p.y, p.button, p.count, p.modifiers)
    return ActionResult(
        action="click-at",
        method="mouse",
        point=(p.x, p.y),
        detail=_with_keys(
            f"{p.button.value} x{p.count}" if (p.count, p.button) != (1, MouseButton.LEFT) else "", p.modifiers
        ),
    )


class DragAtParams(Params):
    x1: int = Field(description="start x (screen pixels; put -- before negative numbers)")
    y1: int = Field(description="start y")
    x2: int = Field(description="end x")
    y2: int = Field(description="end y")
    duration: float = Field(0.3, ge=0, le=10, description="seconds the drag takes")
    button: MouseButton = Field(MouseButton.LEFT, description="mouse button held")


@command("drag-at", DragAtParams, kind=Kind.ACTION, positional=("x1", "y1", "x2", "y2"), profiles=("vision",))
def drag_at(ctx: Context, p: DragAtParams) -> ActionResult:
    """Drag between two screen points (column borders, splitters, resize handles)."""
    backend = ctx.session.backend
    for x, y in ((p.x1, p.y1), (p.x2, p.y2)):
        execution.check_on_screen(backend, x, y)
    if (p.x1, p.y1) == (p.x2, p.y2):
        raise InvalidInput("drag-at start and end are the same point", hint="give two different points")
    backend.ensure_active(ctx.window())
    backend.drag(p.x1, p.y1, p.x2, p.y2, button=p.button, duration=p.duration)
    return ActionResult(action="drag-at", method="mouse", point=(p.x1, p.y1), detail=_drag_detail(p.x2, p.y2, p.button))
