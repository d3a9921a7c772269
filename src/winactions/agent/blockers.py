"""Blockers: what stands between the task and its target, found in the tree and cleared.

Looked for only when a step cannot go on (its target is missing, or its outcome failed),
or when the phone's soft keyboard covers the target it is about to act on: a dialog the
plan itself opened and acts in is not in the way. The kinds, first match wins:

    keyboard    the phone's soft keyboard (elements of an input method's package) covers the
                target or hides it: Back
    loading     a busy element, a progress bar, or "Loading…" / "Please wait" text: waited
                out (never dismissed), up to LOADING_LIMIT seconds
    ad          an overlay with ad words ("Advertisement", "Sponsored") and a close/skip
                button: that button
    dialog / permission / error
                another window of the app in front, or a dialog element in the window: the
                rule table's button, the model's advice, then Escape
    popup       a menu or popup left open in the window (not one the step's own act opened:
                that is its outcome): Escape (Back on a phone)
    app         what the app module's `blocker(state)` hook names (asked first: the module
                knows its app): a backing-out button (the module's list first), the
                model's advice, Escape

A dismissal never loses work: a button whose name commits a loss ("Don't Save",
"Discard", "Delete", …) is never pressed by a rule, from the module's list or on the
model's advice; and in a dialog whose text speaks of a loss, only a button that backs out
("Cancel", "Close", "No") is pressed by rule.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from winactions.agent.actor import Actor, read_state
from winactions.agent.apps import AppModule
from winactions.agent.hooks import call_hook
from winactions.agent.model import Model
from winactions.agent.planner import compact_state
from winactions.agent.verify import Blocker
from winactions.errors import NotFound, WinctlError, WindowClosed
from winactions.model import Rect, Target, UIState, WindowInfo

# Buttons that dismiss without committing come first; the app module's list goes before these.
BACK_OUT = (
    "Close",
    "Cancel",
    "Not now",
    "Not Now",
    "No thanks",
    "Dismiss",
    "Skip",
    "Later",
    "Don't allow",
    "Deny",
    "No",
)
AFFIRM = ("OK", "Got it", "Allow", "Continue")
DISMISS_BUTTONS = BACK_OUT + AFFIRM
KINDS = (("permission", ("allow", "permission", "access")), ("error", ("error", "failed", "warning")))
# A button whose name says it throws something away: never pressed to clear the way.
LOSS = re.compile(
    r"don'?t\s*save|do\s*not\s*save|without\s*saving|discard|delete|remove|erase|lose|overwrite|replace|"
    r"reset|uninstall|format|clear\s*all|sign\s*out|log\s*out|不保存|删除|放弃|丢弃|清除",
    re.IGNORECASE,
)
AD_WORDS = re.compile(r"\b(advertisement|sponsored|ad)\b|广告|赞助", re.IGNORECASE)
AD_CLOSE = re.compile(r"^(close|skip|×|x|✕|close ad|skip ad|skip ads?|关闭|跳过)\b", re.IGNORECASE)
LOADING_WORDS = re.compile(r"^\s*(loading|please wait|waiting|加载中|正在加载|请稍候)\b", re.IGNORECASE)
KEYBOARD_PACKAGES = re.compile(r"inputmethod|honeyboard|swiftkey|\.input(\.|$)|keyboard", re.IGNORECASE)
POPUP_TYPES = frozenset({"PopupMenu", "Popup", "ToolTip"})
MENU_ITEMS = frozenset({"MenuItem", "CheckMenuItem", "RadioMenuItem"})
LOADING_LIMIT = 20.0  # seconds a loading indicator is waited out before the step goes on failing


def loses_work(button: str) -> bool:
    """Does pressing a button of this name throw something away?"""
    return LOSS.search(button) is not None


@dataclass
class Dismissal:
    blocker: Blocker
    method: str  # "rule: Cancel", "model: ...", "keys: Escape", "waited 2.1s", "keys: back"
    cleared: bool

    def as_dict(self) -> dict[str, object]:
        return {"blocker": self.blocker.model_dump(), "method": self.method, "cleared": self.cleared}


def detect(
    state: UIState,
    home: WindowInfo | None,
    extra_buttons: Sequence[str] = (),
    *,
    phone: bool = False,
    hook_says: str | None = None,
) -> Blocker | None:
    """A blocker in the state (see the module's docstring for the kinds); None when the way is
    clear. `phone`: the soft keyboard counts; `hook_says`: the app module's `blocker` hook's answer."""
    if hook_says:  # the app module knows its app: its answer comes first
        buttons = [t.name for t in state.targets if t.type == "Button" and t.name]
        return Blocker(type="app", description=hook_says, dismiss=_rule(buttons, extra_buttons, risky=True))
    if phone and keyboard_rect(state) is not None:
        return Blocker(type="keyboard", description="the soft keyboard is up", dismiss="back", how="key")
    loading = _loading(state)
    if loading is not None:
        return Blocker(type="loading", description=loading, how="wait")
    ad = _ad(state)
    if ad is not None:
        return ad
    dialog = any(t.type in ("Dialog", "Alert") for t in state.targets)
    other_window = home is not None and state.window.id != home.id
    if dialog or other_window:
        buttons = [t.name for t in state.targets if t.type == "Button" and t.name]
        text = " ".join([state.window.title, *(t.name for t in state.targets if t.type in ("Text", "Label"))])
        kind = next((k for k, words in KINDS if any(w in text.casefold() for w in words)), "dialog")
        return Blocker(
            type=kind,
            description=f'"{state.window.title}" with buttons {", ".join(buttons[:8]) or "none"}',
            dismiss=_rule(buttons, extra_buttons, risky=loses_work(text)),
        )
    popup = _popup(state)
    if popup is not None:
        return Blocker(
            type="popup",
            description=f"a {popup.type.lower()} left open{': ' + repr(popup.name) if popup.name else ''}",
            dismiss="back" if phone else "Escape",
            how="key",
        )
    return None


def _popup(state: UIState) -> Target | None:
    """An open popup: a popup-typed element, or menu items showing in a menu (a menu bar's own
    entries are menus too, always there: only their items showing means one is open)."""
    by_id = {t.id: t for t in state.targets}
    for t in state.targets:
        if t.type in POPUP_TYPES:
            return t
        parent = by_id.get(t.parent_id) if t.parent_id is not None else None
        if t.type in MENU_ITEMS and parent is not None and parent.type in ("Menu", "PopupMenu"):
            return parent
    return None


def _rule(buttons: list[str], extra: Sequence[str], *, risky: bool) -> str | None:
    """The first button the rule table (the module's list first) would press: never one that
    loses work, and in a dialog that speaks of a loss only one that backs out."""
    allowed = [b for b in (*extra, *DISMISS_BUTTONS) if not loses_work(b) and not (risky and b in AFFIRM)]
    return next((b for b in allowed if b in buttons), None)


def _loading(state: UIState) -> str | None:
    for t in state.targets:
        if "busy" in t.states:
            return f'{t.type} "{t.name}" is busy'
        if t.type == "ProgressBar":
            return f"a progress bar{' ' + repr(t.name) if t.name else ''} is showing"
        if t.type in ("Text", "Label", "Static") and LOADING_WORDS.match(t.name or ""):
            return f"{t.name!r} is showing"
    return None


def _ad(state: UIState) -> Blocker | None:
    words = [t for t in state.targets if t.name and AD_WORDS.search(t.name)]
    close = [t for t in state.targets if t.type == "Button" and t.name and AD_CLOSE.match(t.name.strip())]
    if not words or not close:
        return None
    return Blocker(type="ad", description=f"an ad ({words[0].name!r}) with {close[0].name!r}", dismiss=close[0].name)


def keyboard_rect(state: UIState) -> Rect | None:
    """Where the phone's soft keyboard is (the union of its elements' rectangles), or None:
    its elements carry the input method's package in their resource ids."""
    keys = [t.rect for t in state.targets if t.rect and KEYBOARD_PACKAGES.search((t.automation_id or "").split(":")[0])]
    if not keys:
        return None
    left, top = min(r.left for r in keys), min(r.top for r in keys)
    right, bottom = max(r.right for r in keys), max(r.bottom for r in keys)
    return Rect(left=left, top=top, right=right, bottom=bottom)


def covers(state: UIState, target: Target | None) -> bool:
    """Does the soft keyboard cover (part of) the target?"""
    board = keyboard_rect(state)
    if board is None or target is None or target.rect is None:
        return False
    r = target.rect
    return r.left < board.right and board.left < r.right and r.top < board.bottom and board.top < r.bottom


class Way:
    """Blocker handling for one run: the actor, the model for advice, the task's window and the
    app module (its button list and `blocker` hook)."""

    def __init__(self, actor: Actor, model: Model, home: WindowInfo | None, module: AppModule | None) -> None:
        self.actor, self.model, self.home, self.module = actor, model, home, module
        self.phone = "go-home" in actor.commands()

    @property
    def buttons(self) -> list[str]:
        return list(self.module.blockers) if self.module is not None else []

    def detect(self, state: UIState, before: UIState | None = None) -> Blocker | None:
        """The blocker in `state`; given the state `before` the step acted, a popup the act
        itself opened is its outcome (for the verifier and a replan), not a blocker."""
        found = self._detect(state)
        if found is not None and found.type == "popup" and before is not None and _popup(before) is None:
            return None
        return found

    def _detect(self, state: UIState) -> Blocker | None:
        said = None
        if self.module is not None and (hook := self.module.hook("blocker")) is not None:
            said = call_hook(hook, "blocker", self.module.folder, state)
        return detect(state, self.home, self.buttons, phone=self.phone, hook_says=str(said) if said else None)

    def covering(self, state: UIState, target: Target | None) -> Blocker | None:
        """The soft keyboard, when it covers the target a step is about to act on (phones only)."""
        if not self.phone or not covers(state, target):
            return None
        return Blocker(type="keyboard", description="the soft keyboard covers the target", dismiss="back", how="key")

    def dismiss(self, blocker: Blocker) -> Dismissal:
        if blocker.how == "wait":
            return self._wait_out(blocker)
        if blocker.how == "key":
            try:
                self.actor.call("keys", keys=blocker.dismiss or "Escape")
            except WinctlError as exc:
                return Dismissal(blocker, f"keys: {blocker.dismiss} ({exc.message})", False)
            return Dismissal(blocker, f"keys: {blocker.dismiss}", self._gone(blocker))
        return dismiss(self.actor, blocker, self.model, self.home, self.buttons, check=self._gone)

    def _gone(self, blocker: Blocker, timeout: float = 2.0) -> bool:
        """Whether no blocker of this kind is left within `timeout` (a dialog takes a moment to unmap)."""
        deadline = time.monotonic() + timeout
        while True:
            now = self._detect(settled(self.actor, self.home))
            if now is None or now.type != blocker.type:
                return True
            if time.monotonic() >= deadline:
                return False
            time.sleep(0.2)

    def _wait_out(self, blocker: Blocker) -> Dismissal:
        """A loading indicator is waited for, never dismissed: polled until it goes."""
        started = time.monotonic()
        cleared = self._gone(blocker, LOADING_LIMIT)
        return Dismissal(blocker, f"waited {time.monotonic() - started:.1f}s", cleared)


def dismiss(
    actor: Actor,
    blocker: Blocker,
    model: Model,
    home: WindowInfo | None,
    extra_buttons: Sequence[str] = (),
    check: Callable[[Blocker], bool] | None = None,
) -> Dismissal:
    """Rule table → model's advice (never a button that loses work) → Escape; each checked by
    reading the state again."""
    attempts: list[tuple[str, dict[str, object]]] = []
    if blocker.dismiss:
        attempts.append((f"rule: {blocker.dismiss}", {"command": "click", "id": blocker.dismiss}))
    if model.ready and model.left:
        attempts.append(("model", {}))
    attempts.append(("keys: Escape", {"command": "keys", "keys": "Escape"}))
    for method, call in attempts:
        try:
            if method == "model":
                name = _advice(actor, model)
                if not name:
                    continue
                method = f"model: {name}"
                actor.call("click", id=name)
            else:
                args = dict(call)
                actor.call(str(args.pop("command")), **args)
        except WinctlError:
            continue
        cleared = check(blocker) if check is not None else _clears(actor, home, extra_buttons)
        if cleared:
            return Dismissal(blocker, method, True)
    return Dismissal(blocker, attempts[-1][0], False)


def _advice(actor: Actor, model: Model) -> str:
    """The button the model would press, unless pressing it loses work."""
    advice = model.ask(
        "A dialog blocks a desktop task. Reply with JSON "
        '{"button": "NAME of the button to press to dismiss it without harm"}',
        compact_state(read_state(actor)),
    )
    name = str(advice.get("button") or "")
    return "" if loses_work(name) else name


def _clears(actor: Actor, home: WindowInfo | None, extra_buttons: Sequence[str], timeout: float = 2.0) -> bool:
    """Whether the blocker goes within `timeout` (a dialog takes a moment to unmap)."""
    deadline = time.monotonic() + timeout
    while True:
        if detect(settled(actor, home), home, extra_buttons) is None:
            return True
        if time.monotonic() >= deadline:
            return False
        time.sleep(0.2)


def settled(actor: Actor, home: WindowInfo | None) -> UIState:
    """The state now, back on the task's window when the window in front has gone
    (a dismissed dialog) — the session must not stay on a closed window. `WindowClosed`
    when the task's window itself is gone."""
    try:
        return read_state(actor)
    except WindowClosed:
        if home is None:
            raise
    try:
        actor.call("focus", window=home.id)
    except NotFound:
        raise WindowClosed(f'the task\'s window "{home.title}" has closed') from None
    return read_state(actor)
