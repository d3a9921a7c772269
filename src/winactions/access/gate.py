"""The access gate: every act a session asks of its backend is checked here, right before it
is sent, against the rules in force (`rules.Rules`).

It sits on the backend itself (`Gate.install` wraps the acting methods of the session's
backend instance), so every command, batch step and task-runner step passes it whatever
route it takes: a click by id, by name, at coordinates; keys; text; a semantic action through
the accessibility API; a window command; `launch`; the clipboard. Reads are not gated.

Always, confined or not: input never reaches winctl's own prompt or teach windows (WM_CLASS
class `Winctl`, any role but the click-through `status`). Confined: an act on an app no
person granted is refused naming the app; clipboard reads and writes and system key combos
need their rights. Where the platform cannot tell which app an act reaches, a confined
session refuses it.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from winactions.access.rules import RIGHT_FLAGS, Rules
from winactions.backends.base import AppRef, Backend, MouseButton
from winactions.errors import NotGranted, Unsupported, WinctlError
from winactions.keys import MODIFIERS, Chord

# chords the desktop or the window manager takes, not the app: they may close or switch windows
SYSTEM_KEYS = frozenset({"f4", "tab", "escape", "delete", "backspace"})  # with alt, or with ctrl+alt
SYSTEM_ALONE = frozenset({"super"})
PHONE_SYSTEM_ALONE = frozenset({"home", "app_switch", "power"})  # a phone's HOME, recents, power

# the Backend methods that act; the gate wraps each (tests/test_access_gate.py lists the rest)
ACTING = (
    "click",
    "mouse_move",
    "mouse_button",
    "drag",
    "scroll",
    "long_press",
    "swipe",
    "press_chords",
    "hold_keys",
    "key_state",
    "type_text",
    "perform",
    "focus_holder",
    "select_text",
    "place_caret",
    "scroll_into_view",
    "window_action",
    "launch",
    "open_url",
    "bind",
    "go_home",
    "get_clipboard",
    "set_clipboard",
)


def system_combo(chord: Chord, phone: bool = False) -> bool:
    """Whether the chord is one the system takes (alt+f4, alt+tab, ctrl+alt+..., super+...);
    on a phone (`phone`) also HOME, recents and power — on a desktop Home is a line's start."""
    mods, key = set(chord.modifiers), chord.key.lower()
    if "super" in mods or key in SYSTEM_ALONE or (phone and key in PHONE_SYSTEM_ALONE):
        return True
    if {"ctrl", "alt"} <= mods:
        return True
    return "alt" in mods and key in SYSTEM_KEYS


def how_to_grant(app: str) -> str:
    return (
        f"a person grants it: `winctl request-access {app}` shows them a prompt on the desktop, or they "
        "add it to `grant` in their policy file (`winctl grants` says where); nothing was sent"
    )


class Gate:
    """Checks each act of one backend against `rules()` (asked afresh for every act)."""

    def __init__(self, backend: Backend, rules: Callable[[], Rules]) -> None:
        self.backend = backend
        self.rules = rules
        self._held = False  # a mouse button the gate let down is still down
        self._written: str | None = None  # the text this session last put on the clipboard
        self._read_clipboard: Callable[[], str] | None = None

    def install(self) -> None:
        """Wrap the backend instance's acting methods (those it has) with their checks."""
        for name in ACTING:
            original = getattr(self.backend, name, None)
            if original is None:
                continue
            if name == "press_chords":
                setattr(self.backend, name, self._chord_by_chord(original))
                continue
            check: Callable[..., None] = getattr(self, f"_{name}")
            setattr(self.backend, name, _guarded(check, original))
        self._read_clipboard = getattr(self.backend, "get_clipboard", None)
        if self._read_clipboard is not None:
            self.backend.get_clipboard = self._clipboard_read  # type: ignore[method-assign]

    # -- what an act reaches -------------------------------------------------------------------
    def _lookup(self, rules: Rules, find: Callable[[], AppRef | None]) -> tuple[bool, AppRef | None]:
        """(known, the app) — unknown where the platform cannot tell or the lookup failed (a
        window gone), which refuses only when confined: unconfined, the act goes on as it would."""
        try:
            return True, find()
        except Unsupported as exc:
            if rules.confined:
                raise NotGranted(
                    f"confined: {exc.message}, so the act cannot be checked", hint="nothing was sent"
                ) from None
            return False, None
        except WinctlError:
            if rules.confined:
                raise
            return False, None

    def app(self, find: Callable[[], AppRef | None], doing: str) -> None:
        """Refuse `doing` unless the app `find` names may be acted on. Unconfined, a phone's
        screen is not asked (it shows no winctl window to keep input off)."""
        rules = self.rules()
        if not rules.confined and self.backend.one_screen:
            return
        known, app = self._lookup(rules, find)
        if not known:
            return
        if app is not None and app.overlay is not None and app.overlay != "status":
            raise NotGranted(
                f'{doing} would reach winctl\'s own {app.overlay} window "{app.title}", which only a person answers',
                hint="wait for the person at the desktop to answer it; nothing was sent",
            )
        if not rules.confined:
            return
        _policy_usable(rules)
        if app is None:
            raise NotGranted(
                f"confined: {doing} reaches no app's window (the desktop itself)",
                hint="act on a window of a granted app (`winctl grants`); nothing was sent",
            )
        if not rules.allows(app):
            aka = f" (also known as {', '.join(app.names[1:])})" if len(app.names) > 1 else ""
            where = f'the window "{app.title}" of ' if app.title else ""
            raise NotGranted(
                f"confined: {doing} reaches {where}{app.label}{aka}, an app this session is not granted",
                hint=how_to_grant(app.label),
            )

    def right(self, right: str, doing: str) -> None:
        rules = self.rules()
        if rules.confined:
            _policy_usable(rules)
        if rules.confined and not rules.has(right):
            raise NotGranted(
                f"confined: {doing} needs the right {RIGHT_FLAGS[right]}, not granted",
                hint=f"a person grants it: `winctl request-access APP {RIGHT_FLAGS[right]}` shows them a prompt, "
                f"or they set {right} = true in their policy file; nothing was sent",
            )

    def keys(self, chords: Iterable[Chord], doing: str) -> None:
        """Keys to the focused window: its app must be granted, and a chord that is the
        system's — with the modifiers already held down (`key-down alt`, then Tab) — needs
        --system-keys."""
        held = (self.backend.modifiers_down() or frozenset()) if self.rules().confined else frozenset()
        with_held = f" (with {'+'.join(sorted(held))} held down)" if held else ""
        for chord in chords:
            pressed = Chord((*sorted(held - set(chord.modifiers)), *chord.modifiers), chord.key)
            if system_combo(pressed, phone=self.backend.one_screen):
                self.right("system_keys", f"{doing} {chord}{with_held}")
        self.app(self.backend.focused_app, f"{doing} (to the window with the keyboard focus)")
        if self.rules().confined and self.backend.buttons_down():  # a drag: keys move and drop it
            x, y = self.backend.cursor_position()
            self.app(lambda: self.backend.app_at(x, y), f"{doing} during a drag (a key can drop it) at ({x}, {y})")

    def _chord_by_chord(self, original: Callable[..., Any]) -> Callable[..., Any]:
        """`press_chords` confined: each chord checked right before it is sent, so that a chord
        that moves the focus (a window switch, a window closed) cannot carry the next ones into
        an app not granted. Unconfined, the chords go in one call as before."""

        @functools.wraps(original)
        def press(chords: Sequence[Chord], *args: Any, **kw: Any) -> Any:
            if not self.rules().confined:
                self._press_chords(chords)
                return original(chords, *args, **kw)
            for sent, chord in enumerate(chords):
                try:
                    self._press_chords([chord])
                except NotGranted as refused:
                    if sent:
                        done = " ".join(map(str, chords[:sent]))
                        refused.message += f" (the chords before it were sent: {done})"
                        refused.hint = (refused.hint or "").replace("nothing was sent", f"{done} went to the window")
                    raise
                original([chord], *args, **kw)
            return None

        return press

    def point(self, x: int, y: int, doing: str) -> None:
        bound = self.backend.bound_window()
        if bound is not None:  # bound input reaches its window, wherever the point is
            self.app(lambda: self.backend.app_of_window(bound), doing)
        else:
            self.app(lambda: self.backend.app_at(x, y), f"{doing} at ({x}, {y})")

    def element(self, handle: str, doing: str) -> None:
        self.app(lambda: self.backend.app_of_element(handle), doing)

    # -- one check per acting method (named after it) --------------------------------------------
    def _click(
        self,
        x: int,
        y: int,
        button: MouseButton = MouseButton.LEFT,
        count: int = 1,
        modifiers: Sequence[Any] = (),
        *args: Any,
        **kw: Any,
    ) -> None:
        """A click at (x, y); held super (the window manager's modifier) needs --system-keys."""
        for mod in modifiers or ():
            if str(getattr(mod, "value", mod)).lower() in ("super", "meta", "win"):
                self.right("system_keys", "a click with super held")
        self.point(x, y, "a click")

    def _mouse_move(self, x: int, y: int, *args: Any, **kw: Any) -> None:
        """A move with a button down (pressed by this process, or by any other: another
        session, a one-shot call) is a drag: where the button comes up is where the drop lands."""
        if self._held or (self.rules().confined and self.backend.buttons_down()):
            self.point(x, y, "a drag")

    def _mouse_button(self, button: MouseButton, down: bool, *args: Any, **kw: Any) -> None:
        """A press, and a release (where a drag drops what it holds), at the pointer: refused
        over an app not granted; a refused release leaves the button down until it is let go
        over a granted app's window."""
        x, y = self.backend.cursor_position()
        name = MouseButton(button).value
        self.point(x, y, f"pressing the {name} button" if down else f"releasing the {name} button (a drop)")
        self._held = bool(down)

    def _drag(self, x1: int, y1: int, x2: int, y2: int, *args: Any, **kw: Any) -> None:
        self.point(x1, y1, "a drag's start")
        self.point(x2, y2, "a drag's end")

    def _scroll(self, x: int, y: int, *args: Any, **kw: Any) -> None:
        self.point(x, y, "scrolling")

    def _long_press(self, x: int, y: int, *args: Any, **kw: Any) -> None:
        self.point(x, y, "a long press")

    def _swipe(self, x1: int, y1: int, x2: int, y2: int, *args: Any, **kw: Any) -> None:
        self._drag(x1, y1, x2, y2)

    def _press_chords(self, chords: Sequence[Chord], *args: Any, **kw: Any) -> None:
        self.keys(chords, "keys")

    def _hold_keys(self, chords: Sequence[Chord], *args: Any, **kw: Any) -> None:
        self.held_keys(chords, "holding keys")
        self.keys(chords, "holding keys")

    def _key_state(self, chords: Sequence[Chord], down: bool = True, *args: Any, **kw: Any) -> None:
        if down:  # letting a key go is always allowed: a held key must never stay down
            self.held_keys(chords, "a key down")
            self.keys(chords, "a key down")

    def held_keys(self, chords: Sequence[Chord], doing: str) -> None:
        """Confined, only modifiers are held: a held key repeats, and its repeats go to whatever
        window takes the focus while it is down (one of an app not granted)."""
        if not self.rules().confined:
            return
        repeating = [str(c) for c in chords if c.key not in MODIFIERS]  # modifiers do not repeat while held
        if repeating:
            raise NotGranted(
                f"confined: {doing} {' '.join(repeating)}: a held key repeats into whatever window takes the "
                "focus, so a confined session holds only ctrl, shift, alt and super",
                hint=f"press it several times instead: `winctl press {repeating[0]} N`; nothing was sent",
            )

    def _type_text(self, text: str, *args: Any, **kw: Any) -> None:
        self.app(self.backend.focused_app, "typing (to the window with the keyboard focus)")

    def _perform(self, handle: str, operation: Any, *args: Any, **kw: Any) -> None:
        self.element(handle, f"{getattr(operation, 'value', operation)} on an element")

    def _focus_holder(self, handle: str, *args: Any, **kw: Any) -> None:
        self.element(handle, "focusing an element")

    def _select_text(self, handle: str, *args: Any, **kw: Any) -> None:
        self.element(handle, "selecting text")

    def _place_caret(self, handle: str, *args: Any, **kw: Any) -> None:
        self.element(handle, "moving a text cursor")

    def _scroll_into_view(self, handle: str, *args: Any, **kw: Any) -> None:
        self.element(handle, "scrolling an element into view")

    def _window_action(self, window_id: str, action: Any, *args: Any, **kw: Any) -> None:
        doing = f"{getattr(action, 'value', action)} a window"
        self.app(lambda: self.backend.app_of_window(window_id), doing)
        if self.rules().confined and self.backend.buttons_down():
            raise NotGranted(
                f"confined: {doing} while a mouse button is down: moving windows under a drag moves where it drops",
                hint="let the button go over the granted app first (`winctl mouse-up`); nothing was done",
            )

    def _bind(self, window_id: str, *args: Any, **kw: Any) -> None:
        self.app(lambda: self.backend.app_of_window(window_id), "binding to a window")

    def _launch(self, command: Sequence[str], *args: Any, **kw: Any) -> None:
        rules = self.rules()
        if not rules.confined:
            return
        _policy_usable(rules)
        program = self.backend.program_of(command)
        name = program.replace("\\", "/").rsplit("/", 1)[-1]
        if not rules.allows(AppRef(names=(name, name.removesuffix(".exe")))):
            raise NotGranted(f"confined: launching {name}, an app this session is not granted", hint=how_to_grant(name))

    def _open_url(self, url: str, *args: Any, **kw: Any) -> None:
        """Confined: refused. Which app opens a URL is the platform's choice, made after the
        gate has looked, so no grant can be checked; launching the granted browser can."""
        if self.rules().confined:
            raise NotGranted(
                "confined: opening a URL starts whatever app its scheme belongs to, which no grant covers",
                hint="launch a granted browser with the address instead: `winctl launch -- chromium URL`",
            )

    def _go_home(self, *args: Any, **kw: Any) -> None:
        self.right("system_keys", "going to the home screen")

    def _get_clipboard(self, *args: Any, **kw: Any) -> None:
        """(Replaced by `_clipboard_read`, which checks after reading.)"""

    def _clipboard_read(self) -> str:
        """The clipboard's text, when reading is granted or it is the text this session put
        there itself (`clipboard "text"` reads it back): that tells the agent nothing new."""
        assert self._read_clipboard is not None
        text = self._read_clipboard()
        if self._written is None or text != self._written:
            self.right("clipboard_read", "reading the clipboard")
        return text

    def _set_clipboard(self, text: str, *args: Any, **kw: Any) -> None:
        self.right("clipboard_write", "writing the clipboard")
        self._written = text


def _policy_usable(rules: Rules) -> None:
    if rules.policy.problem:
        raise NotGranted(
            f"the policy file {rules.policy.path} cannot be used: {rules.policy.problem}",
            hint="a person fixes or removes it; until then every action is refused",
        )


def _guarded(check: Callable[..., None], original: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(original)
    def guarded(*args: Any, **kwargs: Any) -> Any:
        check(*args, **kwargs)
        return original(*args, **kwargs)

    return guarded
