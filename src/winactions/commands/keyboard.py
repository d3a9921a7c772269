"""Keys held down across commands: `key-down` presses and leaves them down, `key-up` lets
them go. The session remembers what it holds, so a later process (a one-shot `winctl`, the
daemon, an MCP server) can release it, and `winctl session close` releases what is still
held (`release_held`)."""

from __future__ import annotations

from typing import Any

from pydantic import Field, field_validator

from winactions.backends.base import Capability, MouseButton
from winactions.commands.base import Context, Kind, Params, command
from winactions.commands.results import ActionResult
from winactions.errors import ActionFailed, NotGranted, WinctlError
from winactions.keys import MODIFIERS, Chord, parse_keys
from winactions.session.desktop import DesktopSession

ALL = "all"  # `key-up all`: every key the session holds


class KeyStateParams(Params):
    keys: str = Field(description='the chords, e.g. "shift" or "ctrl+alt" ("all" for key-up: every key held)')

    @field_validator("keys", mode="before")
    @classmethod
    def _words(cls, value: Any) -> Any:
        """`winctl key-down shift ctrl`, unquoted, is the chords "shift ctrl"."""
        return " ".join(value) if isinstance(value, list) and all(isinstance(v, str) for v in value) else value


@command(
    "key-down",
    KeyStateParams,
    kind=Kind.ACTION,
    capability=Capability.HOLD_KEY,
    variadic="keys",
    profiles=("vision",),
)
def key_down(ctx: Context, p: KeyStateParams) -> ActionResult:
    """Hold keys down until `key-up` (shift while clicking rows, a game's key); the session
    remembers them, and `session close` lets go of any still down."""
    backend = ctx.session.backend
    chords = parse_keys(p.keys, backend.key_names)  # a bad name fails before any key goes down
    held = held_now(ctx.session)
    new = [c for c in chords if str(c) not in held]
    backend.ensure_active(ctx.window())
    backend.key_state(new, True)
    ctx.session.data.held_keys = [*held, *(str(c) for c in new)]
    ctx.session.save()
    down = backend.modifiers_down()
    missing = (
        sorted({name for c in new for name in _modifiers_of(str(c))} - (down or set())) if down is not None else []
    )
    if missing:
        raise ActionFailed(
            f"pressed {' '.join(str(c) for c in new)}, but the keyboard does not hold {', '.join(missing)} down",
            hint="`winctl key-up all` lets go of what the session holds; then try again",
        )
    again = [str(c) for c in chords if c not in new]
    note = f"; {', '.join(again)} already down" if again else ""
    return ActionResult(
        action="key-down", method="keyboard", detail=f"down now: {' '.join(ctx.session.data.held_keys)}{note}"
    )


@command(
    "key-up", KeyStateParams, kind=Kind.ACTION, capability=Capability.HOLD_KEY, variadic="keys", profiles=("vision",)
)
def key_up(ctx: Context, p: KeyStateParams) -> ActionResult:
    """Release keys `key-down` pressed (`all`: every key this session holds)."""
    backend = ctx.session.backend
    held = held_now(ctx.session)
    if p.keys.strip().lower() == ALL:
        chords = _chords(held, backend.key_names)
    else:
        chords = parse_keys(p.keys, backend.key_names)
    backend.key_state(chords, False)
    down = backend.modifiers_down()
    stuck = sorted({m for c in chords for m in _modifiers_of(str(c))} & down) if down is not None else []
    if stuck:
        raise ActionFailed(
            f"released {' '.join(str(c) for c in chords)}, but the keyboard still holds {', '.join(stuck)} down",
            hint="another program or a person holds it; `winctl key-up` it again once they let go",
        )
    names = {str(c) for c in chords}
    ctx.session.data.held_keys = [h for h in held if h not in names]
    ctx.session.save()
    strays = [str(c) for c in chords if str(c) not in held]
    note = f"; {', '.join(strays)} not held by this session (released anyway)" if strays else ""
    left = " ".join(ctx.session.data.held_keys) or "none"
    released = " ".join(str(c) for c in chords) or "nothing"
    return ActionResult(action="key-up", method="keyboard", detail=f"released {released}{note}; still down: {left}")


def _modifiers_of(name: str) -> set[str]:
    """The modifier keys a held chord's name ("alt", "ctrl+shift") holds; empty when it holds
    another key too ("shift+a"), whose state the modifiers alone do not tell."""
    parts = set(name.lower().split("+"))
    return parts if parts <= set(MODIFIERS) else set()


def held_now(session: DesktopSession) -> list[str]:
    """What the session holds down, as recorded, less the modifier chords the keyboard no
    longer holds (a later `keys alt` pressed and let go of a held alt); the record is updated."""
    down = session.backend.modifiers_down()
    held = session.data.held_keys
    if down is not None:
        held = [h for h in held if not (mods := _modifiers_of(h)) or mods <= down]
        session.data.held_keys = held
    return held


def _chords(names: list[str], key_names: Any) -> list[Chord]:
    """The chords the session holds, in the order pressed (`Backend.key_state` releases them in reverse)."""
    return [chord for name in names for chord in parse_keys(name, key_names)]


def release_held(session: DesktopSession) -> list[str]:
    """Release every key and mouse button the session holds (`key-down`, `mouse-down`) and
    forget them; what was released: the chords, and "the left mouse button"."""
    keys, buttons = session.data.held_keys, session.data.held_buttons
    if not keys and not buttons:
        return []
    if keys:
        session.backend.key_state(_chords(keys, session.backend.key_names), False)
    released = [*keys, *(_release_button(session, MouseButton(button)) for button in buttons)]
    session.data.held_keys, session.data.held_buttons = [], []
    session.save()
    return released


def _release_button(session: DesktopSession, button: MouseButton) -> str:
    """Let a held button go where the pointer is; where that is refused (a confined session:
    the release would drop what it drags on an app not granted), where it went down."""
    try:
        session.backend.mouse_button(button, False)
    except NotGranted as refused:
        if len(session.data.pressed_at) != 2:
            raise
        x, y = session.data.pressed_at
        session.backend.mouse_move(x, y)
        session.backend.mouse_button(button, False)
        return f"the {button.value} mouse button, back where it went down ({x}, {y}): {refused.message}"
    return f"the {button.value} mouse button"


def release_stored(name: str | None) -> list[str]:
    """For `session close`: release the keys and buttons held by session `name` (every session when
    None), as its store remembers them, once its daemon is gone; what was released, as
    "shift (session work1)", or why nothing was ("nothing of session work1: ..."). A session
    holding nothing opens no backend."""
    from winactions.session.store import SessionStore

    folder = SessionStore().directory
    names = [name] if name else sorted(p.stem for p in folder.glob("*.json") if "." not in p.stem)
    released: list[str] = []
    for each in names:
        data = SessionStore(each).load()
        if not data.held_keys and not data.held_buttons:
            continue
        try:
            session = DesktopSession.open(each)
        except WinctlError as exc:  # no display here: say so, the daemon is closed all the same
            released.append(f"nothing of session {each}: {exc.message}")
            continue
        try:
            released += [f"{chord} (session {each})" for chord in release_held(session)]
        except WinctlError as exc:
            released.append(f"nothing of session {each}: {exc.message}")
        finally:
            session.backend.close()
    return released
