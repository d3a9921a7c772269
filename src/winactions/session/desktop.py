"""DesktopSession: the state that lives between commands, and its one owner.

A session holds a backend, the window the agent works in, the ids given to what perception
found (`ids`), the latest state and what `find` found out of view; it is saved to its store
after each change, so one-shot `winctl` processes, the daemon and an MCP server of one session
share it. It perceives (`refresh_state`) and numbers; the rest it delegates, each to the module
beside it that does that one job:

- `windows`: which window a command acts on (`current_window`, `find_window`);
- `references`: what an element reference (an id, a name, a visual target) means now
  (`resolve_ref`, `resolve_to_read`), with `winactions.candidates` for "exactly one by this name";
- `identity`: that an id still names the element the agent was shown (`target`, `resolve`);
- `offview`: elements out of view, found by their text and scrolled into view (`found_out_of_view`).
"""

from __future__ import annotations

import contextlib
import re
import time
from collections.abc import Iterator
from datetime import datetime, timezone
from typing import Any

from winactions import progress
from winactions.access import Access
from winactions.backends.base import Backend
from winactions.errors import AppBusy, NoAccessibility, NoTree, WinctlError
from winactions.llm.config import LLMFlags
from winactions.model import Node, Source, Target, UIState, WindowInfo
from winactions.perception import document
from winactions.perception.provider import AccessibilityProvider, Detection, Provider
from winactions.perception.tiers import Thresholds, compose
from winactions.session import displays, identity, offview, references, windows
from winactions.session.ids import IdRegistry
from winactions.session.references import NAME_PREFIX, VISUAL_PREFIXES, is_id
from winactions.session.store import SessionData, SessionStore

__all__ = ["NAME_PREFIX", "VISUAL_PREFIXES", "DesktopSession", "is_id"]  # the names importers use from here


class DesktopSession:
    """One agent's view of the desktop: a backend, a selected window and its ids. Its methods
    run inside one command's `turn`; each change it makes is saved before it returns."""

    def __init__(self, backend: Backend, store: SessionStore, providers: list[Provider] | None = None) -> None:
        self.backend = backend
        self.store = store
        self.data: SessionData = store.load()
        self.registry = IdRegistry.from_data(self.data.registry)
        self.providers: list[Provider] = providers or [AccessibilityProvider()]
        self.notes: list[str] = []  # things the agent should know about this call
        self._tiers_key: tuple[str, str, LLMFlags, Thresholds] = ("off", "off", LLMFlags(), Thresholds())
        self._locator: Any = None
        self._numbered_for: object = None  # the tree's targets that the latest state numbered
        self.nodes: list[Node] = []  # the raw tree the latest state was made from
        self.done_on_the_way: list[str] = []  # what finding a target did (scrolled it into view): the result says it
        self.access = Access(backend, lambda: self.data.access)  # the gate on every act (winactions.access)
        if self.data.bound_window_id and backend.bound_window() != self.data.bound_window_id:
            self._rebind(self.data.bound_window_id)

    @classmethod
    def open(
        cls, name: str = "default", *, backend: Backend | None = None, live: bool = False, device: str | None = None
    ) -> DesktopSession:
        """The one way to open a session, for every front end (one-shot CLI, daemon, MCP
        server, Python API). The name is checked before anything is written or connected;
        `live` keeps the tree cached and fresh through change events (long-lived processes);
        `device` (else `WINCTL_DEVICE`) drives that phone instead of this desktop."""
        store = SessionStore(name)
        if backend is None:
            from winactions.backends import get_backend

            backend = get_backend(live=live, device=device)
        try:
            return cls(backend, store)
        except BaseException:
            backend.close()
            raise

    @contextlib.contextmanager
    def turn(self) -> Iterator[DesktopSession]:
        """One command's exclusive turn at the session: under the session's lock, with the
        ids and state another process (a one-shot `winctl`, the daemon) may have written
        since. Notes are said once: those of opening the session (a lost binding) go with
        the first command, and each command's go with it."""
        with self.store.lock():
            if self.store.changed():
                self.data = self.store.load()
                self.registry = IdRegistry.from_data(self.data.registry)
                self._numbered_for = None
            try:
                yield self
            finally:
                self.notes.clear()

    # -- bound-window mode ------------------------------------------------------------------
    def _rebind(self, window_id: str) -> None:
        """A new process (one-shot CLI, restarted daemon) binds again to the session's
        window; when that window is gone or refuses, the session says so and goes global."""
        try:
            self.backend.bind(window_id, self.data.bound_pointer)
        except WinctlError as exc:
            self.notes.append(f"no longer bound to {window_id} ({exc.message}); input is global")
            self.data.bound_window_id = None
            self.save()

    def bind(self, window: WindowInfo) -> str:
        """Bind input to `window` (background input, a virtual pointer of its own) and select it;
        the backend's note on what binding can do there."""
        note = self.backend.bind(window.id)
        self.data.bound_window_id, self.data.bound_pointer = window.id, None
        self.select_window(window)
        return note

    def unbind(self) -> None:
        """Input is global again; the session forgets the binding."""
        self.backend.unbind()
        self.data.bound_window_id = self.data.bound_pointer = None
        self.save()

    # -- windows (`windows`) ----------------------------------------------------------------
    def find_window(self, selector: str) -> WindowInfo:
        """The open window `selector` names (`windows.find_window`)."""
        return windows.find_window(self.backend.list_windows, selector)

    def select_window(self, window: WindowInfo) -> None:
        """Remember `window` as the one commands act on, and save the session."""
        self.data.window_id = window.id
        self.save()

    def current_window(self, selector: str | None = None) -> WindowInfo:
        """The window commands act on, remembered from now on: the one `selector` (`--window`)
        names, else the remembered one, or the window the session follows from it, said in a
        note (`windows.choose_window`: a dialog its app opened, the window that replaced it)."""
        if selector is not None:
            window = self.find_window(selector)
        else:
            state = self.data.state
            listed = self.backend.list_windows()
            display = None if self.backend.one_screen else self.display()
            if display is not None:  # the window there (`displays.window_on`), when not the session's
                there, note = displays.window_on(display, listed, self.data.window_id)
                if there is not None:
                    self.notes.append(note or "")
                    self.select_window(there)
                listed = [w for w in listed if displays.on(display, w)]
            window, note = windows.choose_window(
                listed,
                self.data.window_id,
                state.window.pid if state else None,
                self.backend.one_screen,
            )
            if note:
                self.notes.append(note)
        if window.id != self.data.window_id:
            self.select_window(window)
        return window

    def display(self) -> displays.Display | None:
        """The monitor `switch-display` chose (`displays.chosen`), or None for the whole screen."""
        return displays.chosen(self.backend, self.data.display)

    # -- perception -------------------------------------------------------------------
    def refresh_state(self, window: WindowInfo) -> UIState:
        """Perceive the window through the session's providers, give the targets their ids, and
        remember (and save) and return the state; the session's notes go first in its warnings.

        The first provider's failure is raised (AppBusy explained: `_explain_busy`), except a
        window with no tree when a vision tier reads its pixels; a later tier's failure is a
        warning. Ids given for another run of the window's app are retired, and what `find`
        found is dropped when the window or its run changed."""
        detection: Detection | None = None
        warnings: list[str] = []
        progress.step(f'reading the elements of "{window.title}"')
        for provider in self.providers:
            try:
                detection = provider.detect(self.backend, window, detection)
            except AppBusy as exc:
                raise self._explain_busy(window, exc) from None
            except (NoTree, NoAccessibility) as exc:  # an app not on the bus (xmessage), or no bus: pixels still
                if detection is not None or not any(p.name.startswith("vision") for p in self.providers):
                    raise
                # its open menus are read from pixels too, item by item (Tk's are X windows of their own)
                detection = Detection(
                    [],
                    warnings=[f"{exc.message}: what is listed was seen in its pixels"],
                    popups=self.backend.popups(window),
                )
            except Exception as exc:  # a failing extra tier must not hide the others
                if detection is None:
                    raise
                hint = f" ({exc.hint})" if isinstance(exc, WinctlError) and exc.hint else ""
                warnings.append(f"{provider.name} failed: {exc}{hint}")
        assert detection is not None
        previous = self.data.state
        run = self.backend.run_of(window)
        if self.registry.retire(window.id, run):
            self.notes.append(
                "this window's app is not the one its ids were given for (the app or the desktop "
                "restarted): its elements have new ids, the old ones are retired"
            )
        same_run = previous is not None and previous.window.id == window.id and self.data.run == run
        unchanged = (
            self._numbered_for is detection.targets
            and same_run
            and previous is not None
            and previous.window == window
            and len(self.providers) == 1
        )
        before = previous.targets if same_run and previous is not None else []
        numbered = (
            previous.targets if unchanged and previous is not None else self._number(detection.targets, before, run)
        )
        self._numbered_for = detection.targets
        self.nodes = detection.nodes
        state = UIState(
            window=window,
            targets=numbered,
            timestamp=datetime.now(timezone.utc).isoformat(timespec="milliseconds"),
            truncated=detection.truncated,
            warnings=[*self.notes, *detection.warnings, *warnings],
            tiers=detection.reports,
            node_count=detection.node_count,
            modified=document.unsaved(window, detection.nodes, self.backend.refresh, self.backend.list_windows),
        )
        if not same_run:
            self.data.found = []  # found in another window, or another run of its app
        self.data.state, self.data.run = state, run
        self.data.written = {}  # the names read now are the ones shown
        if not (
            unchanged
            and previous is not None
            and previous.warnings == state.warnings
            and previous.modified == state.modified
        ):
            self.save()  # an unchanged window (a live tree handed back as it was) changes nothing on disk
        return state

    def set_tiers(
        self,
        infer: str = "off",
        vision: str = "off",
        llm: LLMFlags | None = None,
        min_confidence: float | None = None,
        iou: float | None = None,
    ) -> None:
        """Choose the perception tiers for the next states (`perception.tiers.compose`); a bad
        threshold is an error only when a tier that uses it is on.

        Providers are kept between calls with the same choice, so a daemon reuses its LLM
        client (and its token accounting) and its OCR engine."""
        llm = llm or LLMFlags()
        tiers_on = (infer, vision) != ("off", "off")  # a bad threshold troubles only the tiers that use it
        thresholds = Thresholds.resolve(min_confidence, iou) if tiers_on else Thresholds()
        key = (infer, vision, llm, thresholds)
        if key != self._tiers_key:
            self.providers = compose(self.providers[0], infer, vision, llm, thresholds)
            self._tiers_key = key

    def _number(self, targets: list[Target], before: list[Target], run: str | None) -> list[Target]:
        """Ids for the tree's targets first, then for derived ones, whose `derived_from`
        names their anchors by index ([#i]) until the anchors have ids; a derived one seen
        again where it was in `before` (the window's last state) keeps its id. `run`: the
        run of the window's app (`Backend.run_of`) the ids are given for."""
        tree = self.registry.assign([t for t in targets if t.source is Source.ACCESSIBILITY], run=run)
        position_to_id = {}
        k = 0
        for i, t in enumerate(targets):
            if t.source is Source.ACCESSIBILITY:
                position_to_id[i] = tree[k].id
                k += 1
        derived = [
            t.model_copy(
                update={
                    "derived_from": _PLACEHOLDER.sub(
                        lambda m: f"[{position_to_id.get(int(m.group(1)), '?')}]", t.derived_from or ""
                    )
                    or None
                }
            )
            for t in targets
            if t.source is not Source.ACCESSIBILITY
        ]
        numbered = [*tree, *self.registry.assign(derived, before, run)]
        return [
            t.model_copy(update={"parent_id": position_to_id.get(t.parent_id) if t.parent_id is not None else None})
            for t in numbered
        ]

    def _explain_busy(self, window: WindowInfo, exc: AppBusy) -> AppBusy:
        """Say why the app does not answer — naming a dialog only when one is really open
        (another window of the same process), since a busy app is not a modal dialog. The
        dialog is the app's active window (the window read may be the dialog itself), else
        another of its windows than the one read."""
        try:
            own = [w for w in self.backend.list_windows() if w.pid == window.pid and window.pid is not None]
        except WinctlError:
            own = []
        app = f"{window.process or 'the app'} (pid {window.pid})"
        if len(own) > 1:
            dialog = next((w for w in own if w.active), next(w for w in own if w.id != window.id))
            main = next(w for w in own if w.id != dialog.id)
            return AppBusy(
                f'{app} is not answering accessibility requests while its window "{dialog.title}" is open '
                "(a modal dialog, most likely)",
                hint=f'close it without keys — `winctl focus "{dialog.title}"`, then `winctl close` (its '
                "close button), or click its Cancel with the mouse (`winctl click text:Cancel`) — "
                f'then `winctl focus "{main.title}"`; an app waiting inside an accessibility call '
                "(GTK 3) freezes for good at the first key it is sent",
            )
        return AppBusy(
            f'"{window.title}" is busy: {exc.message}, and it has no other window open',
            hint="wait and run `winctl state` again; `winctl screenshot` shows what it is doing",
        )

    # -- ids (`identity`) and references (`references`) ------------------------------------
    def target(self, target_id: int) -> Target:
        """The target with this id in the latest state, or among those `find` found out of view
        (`identity.lookup`: NotFound or StaleElement otherwise)."""
        return identity.lookup(target_id, self.data.state, self.data.found, self.registry)

    def resolve(self, target_id: int, *, acting: bool = False) -> tuple[Target, Node | None]:
        """The target with this id and, for tree elements, a fresh read of it, checked to be the
        same element (`identity.check_run`, `identity.check_fresh`; `acting`: for an action,
        which refuses more than a read does). A target with no handle has no read (None)."""
        target = self.target(target_id)
        identity.check_run(target, self.data.state, self.data.run, self.backend)
        if target.handle is None:
            return target, None
        node = identity.check_fresh(
            target, self.backend.refresh(target.handle), acting=acting, written=self.data.written.get(target_id)
        )
        return target, node

    def resolve_to_read(self, ref: int | str, window: WindowInfo) -> tuple[Target, Node | None]:
        """An id or a name, for a read (`references.resolve_to_read`)."""
        return references.resolve_to_read(self, ref, window)

    def resolve_ref(
        self, ref: int | str, window: WindowInfo, *, takes_text: bool = False, wheel: bool = True
    ) -> tuple[Target, Node | None]:
        """An id, a name or a visual target, for an action (`references.resolve_ref`; `takes_text`:
        of several elements sharing a name, the one that takes text)."""
        return references.resolve_ref(self, ref, window, text=takes_text, wheel=wheel)

    def found_out_of_view(self, text: str, state: UIState, exact: bool = False) -> offview.Found:
        """Elements with this text out of view, given ids (`offview.found_out_of_view`)."""
        return offview.found_out_of_view(self, text, state, exact)

    def text_naming(self, target: Target, node: Node | None) -> str | None:
        """The element's text when its name is its text (`identity.text_naming`); asked before
        `input` changes both (see `wrote`)."""
        return identity.text_naming(self.backend, target, node)

    def wrote(self, target: Target, text: str) -> None:
        """After `input` wrote `text` into an element of the latest state named by its text
        (`text_naming`): once its name is that text (`identity.named_after`), the next action by
        its id accepts that name (`input 15 --append` after `input 15`). Any other name is still
        refused, as is a change an action made elsewhere, or a label a click changed, which the
        agent has not seen."""
        if self.data.state is None or self.data.state.target(target.id) is None or target.handle is None:
            return
        if identity.named_after(self.backend, target.handle, text):
            self.data.written[target.id] = text
            self.save()

    def locator(self) -> Any:
        """The session's visual locator; its cache is the session's file, so one-shot `winctl`
        processes, the daemon and an MCP server of one session share the places found."""
        if self._locator is None:
            from winactions.extras import require

            require(
                "vision", "numpy", "cv2", feature="finding targets from pixels (text:, image:, a name not in the tree)"
            )
            from winactions.llm.lazy import LazyModel
            from winactions.locate.locator import Locator, session_cache

            def model() -> LazyModel | None:
                flags = self._tiers_key[2]
                return LazyModel(flags) if flags.configured else None

            cache = session_cache(self.store.locate_cache_path(), self.store.locate_cache_lock)
            self._locator = Locator(self.backend, model=model, cache=cache)
        return self._locator

    def save(self) -> None:
        """Write the session (its ids, and a bound window's pointer) to its store."""
        self.data.registry = self.registry.to_data()
        if self.data.bound_window_id is not None:
            self.data.bound_pointer = self.backend.bound_pointer()
        self.store.save(self.data)

    def settled_state(self, quiet: float = 0.1, limit: float = 1.5) -> UIState:
        """The state after an action, of the window the action left active (the session's
        window, or the dialog of its app that it opened: `current_window`, asked again at
        each read), once the UI stopped changing (two equal reads in a row of one window), so
        `--return-state` never shows a half-drawn screen. Bounded by `limit` seconds."""
        deadline = time.monotonic() + limit
        time.sleep(quiet)
        state = self.refresh_state(self.current_window())
        while time.monotonic() < deadline:
            time.sleep(quiet)
            again = self.refresh_state(self.current_window())
            if again.window.id == state.window.id and _signature(again) == _signature(state):
                return again
            state = again
        return state


def _signature(state: UIState) -> list[tuple[int, str, str | None, list[str]]]:
    """What of a state must hold still for it to have settled: each target's id, name, value, states."""
    return [(t.id, t.name, t.value, t.states) for t in state.targets]


_PLACEHOLDER = re.compile(r"\[#(\d+)\]")
