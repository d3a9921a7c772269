"""Access rules and the gate, without a desktop: the policy file, where grants come from, what
`revoke` takes away, which chords are the system's, and the gate on a small fake backend.
The same gate on real X windows: tests/e2e/test_confined.py."""

from __future__ import annotations

import inspect

import pytest

from winactions.access.gate import ACTING, Gate, system_combo
from winactions.access.rules import Flags, Granted, Policy, allow, compose, read_policy, revoke
from winactions.backends.base import AppRef, Backend, Capability, MouseButton
from winactions.errors import NotGranted, Unsupported
from winactions.keys import parse_keys
from winactions.paste import send

# Backend methods that only read, wait, describe or release: the gate leaves them alone. A new
# Backend method must be put here or in `gate.ACTING`, so that no act slips past the gate.
NOT_ACTING = {
    "acts_in_call", "alive", "app_at", "app_of_element", "app_of_window", "bound_pointer", "bound_window",
    "capture", "choice_open", "chooses_silently", "close", "covering", "covers", "cursor_missed",
    "cursor_position", "density", "desktop_exists", "ensure_active", "field_selecting_keys", "focused_app",
    "holds_focus", "keeps_menu_open", "keys_settled", "lacks", "launch_stderr", "list_windows", "name_watch",
    "named_below", "obscuring", "option_names", "popups", "program_of", "read_text", "refresh", "run_of",
    "screens", "sets_value_silently", "snapshot", "space_clicks", "text_below", "unbind", "widget_windows",
    "monitors", "overlays", "read_screen", "terminal_command", "text_selection", "modifiers_down", "buttons_down",
    "without_tree",
}  # fmt: skip


def test_every_backend_method_is_either_gated_or_known_not_to_act():
    methods = {n for n, v in inspect.getmembers(Backend) if not n.startswith("_") and callable(v)}
    assert methods - set(ACTING) - NOT_ACTING == set(), "classify the new Backend method (gate.ACTING or NOT_ACTING)"


def test_a_policy_file_is_read_and_a_broken_one_confines(tmp_path):
    assert read_policy(str(tmp_path / "none.toml")) == Policy(path=str(tmp_path / "none.toml"))
    good = tmp_path / "good.toml"
    good.write_text('confine = true\ngrant = ["gedit", "Mousepad"]\nclipboard_read = true\n')
    policy = read_policy(str(good))
    assert policy.confine and policy.apps == ("gedit", "Mousepad") and policy.rights == ("clipboard_read",)
    for body, problem in [
        ("confine = yes\n", "Invalid value"),
        ('confine = true\ngrants = ["x"]\n', "unknown keys grants"),
        ('grant = "gedit"\n', "grant is a list"),
        ("system_keys = 1\n", "system_keys is true or false"),
    ]:
        bad = tmp_path / "bad.toml"
        bad.write_text(body)
        policy = read_policy(str(bad))
        assert policy.confine and problem in policy.problem, (body, policy)


def test_grants_say_their_source_and_revoke_only_takes_away():
    granted = Granted()
    policy = Policy(confine=True, apps=("gedit",), rights=("clipboard_read",))
    rules = compose(policy, Flags(apps=("Calc",)), granted)
    assert rules.confined and rules.apps == {"gedit": ("gedit", "policy"), "calc": ("Calc", "flag")}
    assert rules.allows(AppRef(names=("GEDIT",))) and not rules.allows(AppRef(names=("python3",)))
    allow(granted, ["mousepad"], ["system_keys"])
    rules = compose(policy, Flags(apps=("Calc",)), granted)
    assert rules.apps["mousepad"] == ("mousepad", "prompt") and rules.rights["system_keys"] == "prompt"
    assert revoke(granted, rules, ["GEDIT", "mousepad"]) == ["gedit", "mousepad"]
    rules = compose(policy, Flags(apps=("Calc",)), granted)
    assert set(rules.apps) == {"calc"}  # the policy's gedit is masked for the session
    revoke(granted, rules, None)
    rules = compose(policy, Flags(apps=("Calc",)), granted)
    assert rules.apps == {} and rules.rights == {} and rules.confined  # still confined: revoke never frees
    allow(granted, ["gedit"], [])  # a person's Allow lifts the mask
    assert "gedit" in compose(policy, Flags(), granted).apps


@pytest.mark.parametrize(
    ("keys", "system"),
    [
        ("alt+F4", True),
        ("alt+Tab", True),
        ("ctrl+alt+Delete", True),
        ("ctrl+alt+t", True),
        ("super+e", True),
        ("ctrl+s", False),
        ("alt+f", False),
        ("shift+Tab", False),
        ("Enter", False),
        ("Home", False),  # a line's start on a desktop: refused to a confined agent in the trial
        ("ctrl+Home", False),
    ],
)
def test_system_combos(keys, system):
    assert all(system_combo(c) == system for c in parse_keys(keys))


def test_home_is_the_systems_on_a_phone_only():
    assert system_combo(parse_keys("Home")[0], phone=True)
    assert not system_combo(parse_keys("Home")[0], phone=False)


class Fake:
    """A backend's acting methods and app lookups, recording what was sent."""

    one_screen = False
    capabilities = frozenset({Capability.CLIPBOARD})

    def __init__(self) -> None:
        self.sent: list[str] = []
        self.at: AppRef | None = AppRef(names=("gedit",), title="notes")
        self.focused: AppRef | None = AppRef(names=("gedit",))
        self.clip = ""
        self.unsupported = False
        self.held: frozenset[str] = frozenset()
        self.buttons: frozenset[MouseButton] = frozenset()
        self.after_keys: list[AppRef] = []  # the focus moves to each in turn after a press_chords call

    def bound_window(self) -> None:
        return None

    def app_at(self, x: int, y: int) -> AppRef | None:
        if self.unsupported:
            raise Unsupported("the fake backend cannot tell which app is at a point")
        return self.at

    def focused_app(self) -> AppRef | None:
        return self.focused

    def program_of(self, command: list[str]) -> str:
        return command[0]

    def click(self, x: int, y: int, button: MouseButton = MouseButton.LEFT, count: int = 1, modifiers=()) -> None:
        self.sent.append(f"click {x},{y}")

    def press_chords(self, chords: list[object]) -> None:
        self.sent.append("keys " + " ".join(map(str, chords)))
        if self.after_keys:
            self.focused = self.after_keys.pop(0)

    def modifiers_down(self) -> frozenset[str]:
        return self.held

    def buttons_down(self) -> frozenset[MouseButton]:
        return self.buttons

    def mouse_move(self, x: int, y: int) -> None:
        self.sent.append(f"move {x},{y}")

    def cursor_position(self) -> tuple[int, int]:
        return (150, 700)

    def window_action(self, window_id: str, action: str, rect: object = None) -> None:
        self.sent.append(f"{action} {window_id}")

    def app_of_window(self, window_id: str) -> AppRef:
        return AppRef(names=("gedit",))

    def key_state(self, chords: list[object], down: bool) -> None:
        self.sent.append(f"{'down' if down else 'up'} " + " ".join(map(str, chords)))

    def type_text(self, text: str) -> None:
        self.sent.append(f"type {len(text)}")

    def launch(self, command: list[str]) -> int:
        self.sent.append(f"launch {command[0]}")
        return 1

    def get_clipboard(self) -> str:
        return self.clip

    def set_clipboard(self, text: str) -> None:
        self.clip = text


def gated(policy: Policy) -> Fake:
    fake = Fake()
    Gate(fake, lambda: compose(policy, Flags(), Granted())).install()  # type: ignore[arg-type]
    return fake


def test_the_gate_refuses_what_is_not_granted_and_sends_what_is():
    fake = gated(Policy(confine=True, apps=("gedit",)))
    fake.click(5, 5)
    with pytest.raises(NotGranted, match="super held"):  # the contract's `modifiers`, by position or name
        fake.click(5, 5, MouseButton.LEFT, 1, ("ctrl", "super"))
    fake.press_chords(parse_keys("ctrl+s"))
    fake.at = AppRef(names=("firefox", "python3"), title="Bank")
    with pytest.raises(NotGranted, match=r'the window "Bank" of firefox \(also known as python3\)'):
        fake.click(10, 10)
    fake.at = None
    with pytest.raises(NotGranted, match="reaches no app's window"):
        fake.click(1, 1)
    with pytest.raises(NotGranted, match="system-keys"):
        fake.press_chords(parse_keys("alt+F4"))
    fake.focused = AppRef(names=("xterm",))
    with pytest.raises(NotGranted, match="xterm"):
        fake.press_chords(parse_keys("x"))
    with pytest.raises(NotGranted, match="launching xmessage"):
        fake.launch(["/usr/bin/xmessage", "hi"])
    fake.launch(["/usr/bin/gedit"])
    assert fake.sent == ["click 5,5", "keys ctrl+s", "launch /usr/bin/gedit"]


def test_a_key_pressed_while_a_modifier_is_held_down_counts_with_it():
    fake = gated(Policy(confine=True, apps=("gedit",)))
    fake.held = frozenset({"alt"})  # `key-down alt` earlier: Tab now is alt+Tab, the window switch
    with pytest.raises(NotGranted, match=r"system-keys.*alt held down|alt held down.*system-keys"):
        fake.press_chords(parse_keys("Tab"))
    fake.held = frozenset({"shift"})
    fake.press_chords(parse_keys("Tab"))
    assert fake.sent == ["keys Tab"]


def test_a_move_with_a_button_down_is_a_drag_whoever_pressed_it():
    fake = gated(Policy(confine=True, apps=("gedit",)))
    fake.at = AppRef(names=("featherpad",))
    fake.mouse_move(150, 700)  # no button down: a move reaches nothing
    fake.buttons = frozenset({MouseButton.LEFT})  # pressed by another session, or a one-shot call
    with pytest.raises(NotGranted, match="a drag at"):
        fake.mouse_move(150, 700)
    assert fake.sent == ["move 150,700"]


def test_during_a_drag_keys_are_checked_where_they_would_drop_and_windows_stay_put():
    """A drag left under way (its release refused) is moved and dropped by keys in GTK (arrows
    move the pointer, Return drops): keys then count as acting where the pointer is; and moving
    the granted window would move the drop's target under the pointer."""
    fake = gated(Policy(confine=True, apps=("gedit",)))
    fake.buttons = frozenset({MouseButton.LEFT})
    fake.at = AppRef(names=("featherpad",))  # under the pointer, while gedit has the focus
    with pytest.raises(NotGranted, match=r"during a drag .* featherpad"):
        fake.press_chords(parse_keys("Return"))
    with pytest.raises(NotGranted, match="while a mouse button is down"):
        fake.window_action("0x1", "move")
    fake.buttons = frozenset()
    fake.press_chords(parse_keys("Return"))
    fake.window_action("0x1", "move")
    assert fake.sent == ["keys Enter", "move 0x1"]


def test_a_confined_session_holds_only_modifiers_down():
    fake = gated(Policy(confine=True, apps=("gedit",)))
    fake.key_state(parse_keys("shift ctrl"), True)
    for keys in ("BackSpace", "ctrl+s"):  # a held key repeats into whatever takes the focus
        with pytest.raises(NotGranted, match=r"holds only ctrl, shift, alt and super") as refused:
            fake.key_state(parse_keys(keys), True)
        assert "winctl press" in refused.value.hint
    fake.key_state(parse_keys("BackSpace"), False)  # letting go is always allowed
    unconfined = gated(Policy())
    unconfined.key_state(parse_keys("BackSpace"), True)
    assert fake.sent == ["down shift ctrl", "up Backspace"] and unconfined.sent == ["down Backspace"]


def test_each_chord_is_checked_where_the_focus_is_when_it_is_sent():
    fake = gated(Policy(confine=True, apps=("gedit",)))
    fake.after_keys = [AppRef(names=("featherpad",))]  # the first chord moves the focus away
    with pytest.raises(NotGranted, match="featherpad") as refused:
        fake.press_chords(parse_keys("End x y"))
    assert fake.sent == ["keys End"]  # x and y never went to FeatherPad
    assert "the chords before it were sent: End" in refused.value.message  # not "nothing was sent"
    assert "nothing was sent" not in (refused.value.hint or "")
    unconfined = gated(Policy())
    unconfined.after_keys = [AppRef(names=("featherpad",))]
    unconfined.press_chords(parse_keys("End x y"))
    assert unconfined.sent == ["keys End x y"]  # one call, as before


def test_the_clipboard_needs_its_rights_but_what_the_session_wrote_may_be_read_back():
    fake = gated(Policy(confine=True, apps=("gedit",), rights=("clipboard_write",)))
    fake.set_clipboard("mine")
    assert fake.get_clipboard() == "mine"
    fake.clip = "someone else's"
    with pytest.raises(NotGranted, match="clipboard-read"):
        fake.get_clipboard()
    reader = gated(Policy(confine=True))
    with pytest.raises(NotGranted, match="clipboard-write"):
        reader.set_clipboard("x")


def test_text_too_long_to_type_is_typed_where_the_clipboard_is_not_granted(monkeypatch):
    monkeypatch.setenv("WINCTL_PASTE_OVER", "10")
    fake = gated(Policy(confine=True, apps=("gedit",)))
    fake.clip = "the user's"
    note = send(fake, "x" * 50)  # type: ignore[arg-type]
    assert note.startswith("typed, not pasted") and fake.sent == ["type 50"] and fake.clip == "the user's"
    fake.focused = AppRef(names=("xterm",))
    with pytest.raises(NotGranted, match="xterm"):  # typing into an ungranted app stays refused
        send(fake, "x" * 50)  # type: ignore[arg-type]
    assert fake.sent == ["type 50"]


def test_a_prompt_is_refused_even_unconfined_and_an_unknown_app_only_when_confined():
    fake = gated(Policy())
    fake.at = AppRef(names=("prompt", "Winctl", "zenity"), title="winctl: allow access?", overlay="prompt")
    with pytest.raises(NotGranted, match="only a person answers"):
        fake.click(1, 1)
    fake.at = AppRef(names=("status", "Winctl"), overlay="status")  # looked through by the backend
    fake.click(2, 2)
    fake.unsupported = True
    fake.click(3, 3)  # unconfined: nothing to check against
    confined = gated(Policy(confine=True, apps=("gedit",)))
    confined.unsupported = True
    with pytest.raises(NotGranted, match="cannot be checked"):
        confined.click(4, 4)
    assert fake.sent == ["click 2,2", "click 3,3"] and confined.sent == []


def test_a_broken_policy_refuses_every_act():
    fake = gated(Policy(confine=True, apps=("gedit",), problem="Invalid value", path="/p.toml"))
    with pytest.raises(NotGranted, match=r"policy file /p\.toml cannot be used"):
        fake.click(5, 5)
