"""DesktopSession: the state that lives between commands.

It knows which window the agent works in, numbers what perception finds with stable ids,
remembers the last state, and resolves an id back to a live element — refusing, with a
useful message, when that element is gone or is no longer the same element.
"""

from __future__ import annotations

import contextlib
import re
import time
from collections.abc import Callable, Iterator
from datetime import datetime, timezone
from typing import Any

from winactions import progress
from winactions.backends.base import Backend
from winactions.errors import (
    AppBusy,
    InvalidInput,
    NoAccessibility,
    NotFound,
    NoTree,
    StaleElement,
    WinctlError,
    WindowClosed,
    shown,
)
from winactions.llm.config import LLMFlags
from winactions.model import Node, Operation, Source, Target, UIState, WindowInfo
from winactions.perception import document
from winactions.perception.accessibility import (
    NAMED_BY_LABEL,
    NAMED_BY_TEXT,
    NAMED_BY_WRAPPER,
    TEXT_TYPES,
    display_name,
    named_by_label,
)
from winactions.perception.provider import AccessibilityProvider, Detection, Provider
from winactions.perception.tiers import Thresholds, compose
from winactions.session import offview
from winactions.session.ids import IdRegistry
from winactions.session.store import SessionData, SessionStore
from winactions.session.wheel import Landmark, landmarks, wheel_into_view


class DesktopSession:
    """One agent's view of the desktop: a backend, a selected window and its ids."""

    def __init__(self, backend: Backend, store: SessionStore,
                 providers: list[Provider] | None = None) -> None:
        self.backend = backend
        self.store = store
        self.data: SessionData = store.load()
        self.registry = IdRegistry.from_data(self.data.registry)
        self.providers: list[Provider] = providers or [AccessibilityProvider()]
        self.notes: list[str] = []  # things the agent should know about this call
        self._tiers_key: tuple[str, str, LLMFlags, Thresholds] = ("off", "off", LLMFlags(), Thresholds())
        self._locator: Any = None
        self._numbered_for: object = None  # the tree's targets that the latest state numbered
        self._read: list[Node] = []  # the raw tree the latest state was made from
        self.done_on_the_way: list[str] = []  # what finding a target did (scrolled it into view): the result says it
        if self.data.bound_window_id and backend.bound_window() != self.data.bound_window_id:
            self._rebind(self.data.bound_window_id)

    @classmethod
    def open(cls, name: str = "default", *, backend: Backend | None = None, live: bool = False,
             device: str | None = None) -> DesktopSession:
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
        note = self.backend.bind(window.id)
        self.data.bound_window_id, self.data.bound_pointer = window.id, None
        self.select_window(window)
        return note

    def unbind(self) -> None:
        self.backend.unbind()
        self.data.bound_window_id = self.data.bound_pointer = None
        self.save()

    # -- windows --------------------------------------------------------------------
    def find_window(self, selector: str) -> WindowInfo:
        """A window by id, exact title, or title/process substring (case-insensitive); a blank
        selector is an error (as a substring it would match every window)."""
        if not selector.strip():
            raise InvalidInput("a window to look for cannot be empty",
                               hint="give a window id, a title or part of it, or a process name — "
                                    "`winctl windows` lists them")
        windows = self.backend.list_windows()
        wanted = selector.strip().lower()
        for w in windows:
            if w.id.lower() == wanted or (wanted.isdigit() and _int_id(w.id) == int(wanted)):
                return w
        exact = [w for w in windows if w.title.lower() == wanted]
        matches = exact or [w for w in windows if wanted in w.title.lower() or wanted == w.process.lower()
                            or wanted in w.app_class.lower()]
        if not matches:
            titles = ", ".join(shown(w.title, 60) for w in windows) or "none"
            raise NotFound(f"no window matches {shown(selector)}",
                           hint=f"open windows: {titles} — run `winctl windows`")
        if len(matches) > 1:
            active = [w for w in matches if w.active]
            if active:
                return active[0]
        return matches[0]

    def select_window(self, window: WindowInfo) -> None:
        self.data.window_id = window.id
        self.save()

    def current_window(self, selector: str | None = None) -> WindowInfo:
        """The window commands act on.

        `--window` wins and is remembered; otherwise the remembered window. When the app
        opened a dialog (an active window of the same process), the dialog is where the
        agent's attention must go, so the session follows it and says so.
        """
        if selector is not None:
            window = self.find_window(selector)
            if window.id != self.data.window_id:
                self.select_window(window)
            return window
        windows = self.backend.list_windows()
        if self.backend.one_screen and windows:  # a phone: the screen, whatever app is in front
            if windows[0].id != self.data.window_id:
                self.select_window(windows[0])
            return windows[0]
        active = next((w for w in windows if w.active), None)
        if self.data.window_id is None:
            if active is None:
                raise NotFound("no window is selected and none is active",
                               hint="run `winctl windows`, then `winctl focus TITLE`")
            self.select_window(active)
            return active
        current = next((w for w in windows if w.id == self.data.window_id), None)
        if current is not None and active is not None and active.id != current.id \
                and active.pid == current.pid and active.pid is not None:
            self.notes.append(f'following the active window "{active.title}" of the same app')
            self.select_window(active)
            return active
        if current is None:
            if active is not None and self._last_window_pid() == active.pid:
                self.notes.append(f'the previous window closed; now in "{active.title}"')
                self.select_window(active)
                return active
            raise WindowClosed(f"the session's window {self.data.window_id} is closed",
                               hint="run `winctl windows`, then `winctl focus TITLE` or `winctl launch APP`")
        return current

    def _last_window_pid(self) -> int | None:
        return self.data.state.window.pid if self.data.state else None

    # -- perception -------------------------------------------------------------------
    def refresh_state(self, window: WindowInfo) -> UIState:
        """Perceive the window, number the targets, remember and return the state."""
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
                detection = Detection([], warnings=[f"{exc.message}: what is listed was seen in its pixels"],
                                      popups=self.backend.popups(window))
            except Exception as exc:  # a failing extra tier must not hide the others
                if detection is None:
                    raise
                hint = f" ({exc.hint})" if isinstance(exc, WinctlError) and exc.hint else ""
                warnings.append(f"{provider.name} failed: {exc}{hint}")
        assert detection is not None
        previous = self.data.state
        run = self.backend.run_of(window)
        if self.registry.retire(window.id, run):
            self.notes.append("this window's app is not the one its ids were given for (the app or the desktop "
                              "restarted): its elements have new ids, the old ones are retired")
        same_run = previous is not None and previous.window.id == window.id and self.data.run == run
        unchanged = self._numbered_for is detection.targets and same_run and previous is not None \
            and previous.window == window and len(self.providers) == 1
        before = previous.targets if same_run and previous is not None else []
        numbered = previous.targets if unchanged and previous is not None \
            else self._number(detection.targets, before, run)
        self._numbered_for = detection.targets
        self._read = detection.nodes
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
        if not (unchanged and previous is not None and previous.warnings == state.warnings
                and previous.modified == state.modified):
            self.save()  # an unchanged window (a live tree handed back as it was) changes nothing on disk
        return state

    def set_tiers(self, infer: str = "off", vision: str = "off", llm: LLMFlags | None = None,
                  min_confidence: float | None = None, iou: float | None = None) -> None:
        """Choose the perception tiers for the next states (seed 000's provider table).

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
        derived = [t.model_copy(update={"derived_from": _PLACEHOLDER.sub(
            lambda m: f"[{position_to_id.get(int(m.group(1)), '?')}]", t.derived_from or "") or None})
            for t in targets if t.source is not Source.ACCESSIBILITY]
        numbered = [*tree, *self.registry.assign(derived, before, run)]
        return [t.model_copy(update={"parent_id": position_to_id.get(t.parent_id) if t.parent_id is not None
                                     else None}) for t in numbered]

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
            return AppBusy(f'{app} is not answering accessibility requests while its window "{dialog.title}" is open '
                           "(a modal dialog, most likely)",
                           hint=f'close it without keys — `winctl focus "{dialog.title}"`, then `winctl close` (its '
                                "close button), or click its Cancel with the mouse (`winctl click text:Cancel`) — "
                                f'then `winctl focus "{main.title}"`; an app waiting inside an accessibility call '
                                "(GTK 3) freezes for good at the first key it is sent")
        return AppBusy(f'"{window.title}" is busy: {exc.message}, and it has no other window open',
                       hint="wait and run `winctl state` again; `winctl screenshot` shows what it is doing")

    # -- ids ------------------------------------------------------------------------------
    def target(self, target_id: int) -> Target:
        """The target of the latest state with this id, or a clear error."""
        state = self.data.state
        found = state.target(target_id) if state else None
        found = found or next((t for t in self.data.found if t.id == target_id), None)
        if found is not None:
            return found
        if state is None:
            raise NotFound(f"no element {target_id}: there is no state yet",
                           hint="run `winctl state` first")
        if self.registry.issued(target_id):
            raise StaleElement(f"element {target_id} is not in the latest state",
                               hint="it scrolled away, closed or changed — run `winctl state`")
        raise NotFound(f"no element {target_id}",
                       hint=f"ids in the latest state: {_id_range(state)} — run `winctl state`")

    def resolve(self, target_id: int, *, acting: bool = False) -> tuple[Target, Node | None]:
        """The target and, for tree elements, a fresh read of it — checked to be the same.

        Reads (`get`, `inspect`) accept an element whose text changed: reading it is how an
        agent learns the new text. Actions (`acting`) refuse an element that is not what
        the agent was shown — another name, role or automation id (an app that swapped
        "Keep" and "Delete") — or that is no longer on screen (a hidden tab's content, a
        closed menu's item): acting on it would act on something the agent cannot see."""
        target = self.target(target_id)
        self._check_run(target)
        if target.handle is None:
            return target, None
        node = self.backend.refresh(target.handle)
        label = f'element {target_id} ([{target.type}] "{target.name}")'
        if node is None:
            raise StaleElement(f"{label} is gone", hint="the UI changed — run `winctl state`")
        if node.role != target.type:
            raise StaleElement(
                f"element {target_id} was a {target.type} and is now a {node.role}; nothing was done",
                hint="the UI changed — run `winctl state`")
        if acting:
            _check_identity(target, node, self.data.written.get(target_id))
        shown = "showing" in node.states if acting else bool({"visible", "showing"} & node.states)
        if not shown and not (offview.is_out_of_view(target) and not acting):
            raise StaleElement(f"element {target_id} is no longer shown ([{target.type}] \"{target.name}\"); "
                               "nothing was done", hint="the UI changed — run `winctl state`")
        return target, node

    def _check_run(self, target: Target) -> None:
        """Refuse a target of the latest state when the app it was read from has ended (the
        app or the desktop restarted: another app may now answer to its window id, bus name
        and handles)."""
        state, run = self.data.state, self.data.run
        if state is None or run is None or self.backend.run_of(state.window) == run:
            return
        raise StaleElement(f'element {target.id} ([{target.type}] "{target.name}") was read from a run of '
                           f'"{state.window.title}" that has ended (the app or the desktop restarted); '
                           "nothing was done",
                           hint="run `winctl state`: the elements there now get new ids")

    def resolve_to_read(self, ref: int | str, window: WindowInfo) -> tuple[Target, Node | None]:
        """An id, or the one element of the window with this name (`get value Name`): a fresh
        state is read and nothing is scrolled, as reading changes nothing. Of a field and a label
        sharing the name, the field is meant; several others are an error. A name out of view
        (a sheet's cell by its address, as `input` reaches it) is read where it is, as an
        element with no id (0)."""
        if isinstance(ref, int) or is_id(ref):
            return self.resolve(int(ref))
        name = _plain_name(ref)
        state = self.refresh_state(window)
        found = _named(name, [t for t in state.targets if t.source is Source.ACCESSIBILITY], (_takes_text, _is_control))
        if found is not None:
            return self.resolve(found.id)
        hidden = self._out_of_view(name, state)
        node = self.backend.refresh(hidden.pop()) if len(hidden) == 1 else None
        if node is None:
            if not hidden:
                offview.check_address(name, state)
            several = f" (but {len(hidden)} elements out of view are)" if len(hidden) > 1 else ""
            raise NotFound(f"no element of the window is named {shown(name)}{several}",
                           hint="run `winctl state` for names and ids; a sheet's cell is reached by its address (B12)")
        return _unlisted(node), node

    def resolve_ref(self, ref: int | str, window: WindowInfo, *, takes_text: bool = False,
                    wheel: bool = True) -> tuple[Target, Node | None]:
        """An id from the state, or a visual target (`text:Save`, `image:NAME`...) located now.

        A located target has no handle, so actions use its coordinates; its `derived_from`
        says how it was found, and an unreliable match is an error that lists candidates.
        `takes_text` (for `input`): of several elements sharing a plain name, the one that
        takes text is meant (GTK's Save As has an Edit and a column header named "Name").
        `wheel` False (`--via semantic`): a name out of view is not scrolled to with the mouse."""
        if isinstance(ref, int) or is_id(ref):
            target_id = int(ref)
            if offview.is_out_of_view(self.target(target_id)):
                target_id = self._brought_into_view(target_id, window, wheel)
            target, node = self.resolve(target_id, acting=True)
            self._check_lent_name(target, window)
            return target, node
        if ref.partition(":")[0] not in VISUAL_PREFIXES:  # a plain name: the tree knows it exactly
            progress.step(f"looking for {ref!r} in the window's tree")
            named = self._named_in_tree(_plain_name(ref), window, takes_text, wheel)
            if named is not None:
                return self.resolve(named.id, acting=True)
            offview.check_address(_plain_name(ref), self.data.state)
            if ref.startswith(NAME_PREFIX):  # the tree's element, said so: never pixels
                raise NotFound(f"no element of the window is named {shown(_plain_name(ref))}",
                               hint="run `winctl state` for names and ids")
        forward = self._bring_forward(window)
        result = self.locator().locate(ref, window=window)
        if forward and result.success:
            # pixels read while the window still repainted what had covered it: the cached box
            # is checked against the screen again, and looked for anew if it changed
            time.sleep(REPAINT_QUIET)
            result = self.locator().locate(ref, window=window)
        if not result.success or result.element is None:
            options = "; ".join(f"{c.label or '?'} {c.bbox} {c.confidence:.2f} by {c.method}"
                                for c in result.candidates[:3])
            plain = ref.partition(":")[0] not in VISUAL_PREFIXES
            raise NotFound((f"no element of the window is named {shown(ref)}, and " if plain else "")
                           + (result.error or f"{shown(ref)} was not found"),
                           hint=(f"closest: {options} — " if options else "")
                           + "try `winctl locate` with --strategy, or `winctl state`")
        found = result.element
        if not found.valid or not found.can_interact or found.safe_region is None:
            raise NotFound(f"{shown(ref)} was found at {found.bbox} but cannot be clicked there: "
                           f"{found.error or 'too little of it is visible'}", hint="scroll it into view")
        rect = found.bbox if found.safe_region.contains(*found.bbox.center) else found.safe_region
        source = {"ocr": Source.OCR, "vision": Source.VISION, "fixed": Source.FIXED}.get(
            found.method.split(":")[0], Source.TEMPLATE)
        how = f"located by {found.method}" + (" (cached)" if result.cache_hit else "") + \
            f", confidence {found.confidence:.2f}"
        return Target(id=0, type="Located", name=found.label or ref, rect=rect, source=source,
                      confidence=found.confidence, derived_from=how, states=["enabled"]), None

    def _bring_forward(self, window: WindowInfo) -> bool:
        """Bring the window forward before its pixels are read, as the action would: read behind
        another window, they are partly that window's (`Locator._shown`). Once in front, it
        repaints what was covered, and until then the screen still shows the other window there:
        wait until its pixels hold still for REPAINT_QUIET (at most REPAINT_LIMIT). Two
        galculators, the second over the first: the second's 7, read in the first's pixels just
        after the first came forward, had the first's 5 pressed. True when it was brought."""
        if window.active and not window.minimized or self.backend.bound_window() == window.id:
            return False
        self.backend.ensure_active(window)
        now = next((w for w in self.backend.list_windows() if w.id == window.id), window)
        shown = [part for screen in self.backend.screens()
                 if now.rect is not None and (part := now.rect.intersect(screen)) is not None]
        if not shown:
            return True  # nothing of it on a screen to wait for (the locate says so)
        area = max(shown, key=lambda part: part.area)
        deadline = time.monotonic() + REPAINT_LIMIT
        last = self.backend.capture(area).tobytes()
        while time.monotonic() < deadline:
            time.sleep(REPAINT_QUIET)
            pixels = self.backend.capture(area).tobytes()
            if pixels == last:
                break
            last = pixels
        return True

    def text_naming(self, target: Target, node: Node | None) -> str | None:
        """The element's text when its name is its text (a LibreOffice or web paragraph, a
        table's cell), else None; asked before `input` changes both (see `wrote`). A password
        field's text is never read."""
        if node is None or target.handle is None or "protected" in node.states or "protected" in target.states:
            return None
        try:
            text = self.backend.read_text(target.handle)
        except WinctlError:
            return None
        return text if text and display_name(node) == text else None

    def wrote(self, target: Target, text: str) -> None:
        """After `input` wrote `text` into an element named by its text (`text_naming`): once
        its name is that text, the next action by its id is not refused as if the element had
        changed behind the agent's back (`input 15 --append` after `input 15` was). Typed keys
        and the name arrive a moment later (Chromium updates its tree after them). Any other
        name is still refused, as is a change an action made elsewhere, or a label a click
        changed, which the agent has not seen."""
        if self.data.state is None or self.data.state.target(target.id) is None or target.handle is None:
            return
        deadline = time.monotonic() + NAME_FOLLOWS_TEXT
        while True:
            try:
                node = self.backend.refresh(target.handle)
            except WinctlError:  # the text went in; the app is busy with it: the id stays as strict as before
                return
            if node is not None and display_name(node) == text:
                self.data.written[target.id] = text
                self.save()
                return
            if node is None or time.monotonic() > deadline:
                return
            time.sleep(0.05)

    def _check_lent_name(self, target: Target, window: WindowInfo) -> None:
        """A name the element does not carry itself (lent by a wrapper, its text, the label
        beside it) is read again from the window before acting: the label "Amount to keep"
        beside a field may now say "Amount to delete", the field itself unchanged. One read of
        the tree, only for such names."""
        if target.derived_from is None or not target.derived_from.startswith(LENT_NAMES):
            return
        now = next((t for t in self.refresh_state(window).targets if t.handle == target.handle), None)
        if now is not None and now.name not in (target.name, self.data.written.get(target.id)):
            raise StaleElement(f'element {target.id} was [{target.type}] "{target.name}" and is now '
                               f'"{now.name}"; nothing was done', hint="the UI changed — run `winctl state`")

    def _named_in_tree(self, name: str, window: WindowInfo, takes_text: bool = False,
                       wheel: bool = True) -> Target | None:
        """The one element of the window's tree with this name (exact, else ignoring case):
        reading the tree costs milliseconds and is exact, reading pixels costs seconds.
        Several are an error that lists them; none is None (then pixels are searched), as is a
        window with no tree at all (xmessage; an app whose bridge is off)."""
        try:
            state = self.refresh_state(window)
        except (NoTree, NoAccessibility):
            return None
        prefer = (_takes_text, _is_control) if takes_text else (_is_control,)
        found = _named(name, [t for t in state.targets if t.source is Source.ACCESSIBILITY], prefer)
        if found is None and (scrolled := self._scrolled_into_view(name, state, wheel)) is not None:
            deadline = time.monotonic() + SCROLL_SETTLE  # a page lays itself out again after it scrolls
            while found is None and time.monotonic() < deadline:
                shown = [t for t in self.refresh_state(window).targets if t.source is Source.ACCESSIBILITY]
                # Qt makes new objects for the items a scroll brings into view: then its name and type
                found = _named(name, [t for t in shown if t.handle == scrolled.handle]) or \
                    _named(name, [t for t in shown if t.type == scrolled.role], prefer)
                time.sleep(0 if found else 0.05)
        return found

    def _scrolled_into_view(self, name: str, state: UIState, wheel: bool = True) -> Node | None:
        """The one element of the tree named `name` that is out of view (scrolled away in its list
        or page), as it was read before it was scrolled into view; None when there is none or it
        cannot be. A page's "Item 90" below the fold was not found by name, the pixels were read, and
        another label passed for it; a user scrolls to it, as Playwright does before a click.
        The app is asked to scroll it into view; where it cannot, the mouse wheel turns its list
        (unless `wheel` is False: `--via semantic` never moves the mouse)."""
        read = self._out_of_view(name, state)
        if len(read) != 1:
            return None
        handle = read.pop()
        node = self.backend.refresh(handle)
        if node is None:
            return None
        self._scroll_to(handle, node, name, state, wheel)
        return node

    def _scroll_to(self, handle: str, node: Node, name: str, state: UIState, wheel: bool) -> None:
        """Ask the app to scroll the element (`handle`, read as `node`) into view, else turn its
        list with the wheel (unless not `wheel`); NotFound when neither can."""
        progress.step(f"scrolling {name!r} into view")
        self.backend.ensure_active(state.window)  # an app may be moved to it by keys
        if self.backend.scroll_into_view(handle):
            self.done_on_the_way.append(f"scrolled {name!r} into view")
        elif wheel and (notches := self._wheeled_into_view(node, name, state)):
            self.done_on_the_way.append(f"scrolled {name!r} into view with the mouse wheel ({notches} notches)")
        else:
            scroller = next((str(t.id) for t in state.targets if t.type in SCROLLERS), "ID")
            raise NotFound(f"{shown(name)} is in the window but scrolled out of view, and the app does not scroll it "
                           "into view when asked" + ("" if wheel else " (--via semantic: the wheel is not used)"),
                           hint=f"scroll to it (`winctl scroll {scroller} down`), then `winctl state`")

    def found_out_of_view(self, text: str, state: UIState, exact: bool = False) -> offview.Found:
        """Elements whose text holds `text` (ignoring case; `exact`: those whose text is `text`
        when there are some) below the state's lists, tables and sheets, shown or not: those the
        state lists as they are there, the others given ids and kept by the session until its
        window changes, so `get` reads them where they are and an action scrolls them into view
        first (`_brought_into_view`)."""
        roots = offview.scrolling_roots(state, SCROLLERS)
        if not roots:
            return offview.Found([], 0, cut=False, searched=True)
        progress.step(f"looking for {text!r} out of view")
        searched = self.backend.text_below(roots, text, OUT_OF_VIEW_SEARCH)
        if searched is None:
            return offview.Found([], 0, cut=False, searched=False)
        matches, cut = searched
        if exact:
            matches = [m for m in matches if offview.same_text(m.text, text)] or matches
        found = offview.found_targets(self.backend, matches, state, SCROLLERS)
        unlisted = self.registry.assign([t for t in found if t.id == 0], run=self.data.run)
        if unlisted:
            new = {t.id for t in unlisted}
            self.data.found = [*(t for t in self.data.found if t.id not in new), *unlisted][-offview.KEPT_FOUND:]
            self.save()
        ids = iter(unlisted)
        return offview.Found([next(ids) if t.id == 0 else t for t in found], len(matches), cut, searched=True)

    def _brought_into_view(self, target_id: int, window: WindowInfo, wheel: bool) -> int:
        """Scroll an element `find` found out of view into view, and give the id to act on once
        it shows: its own (its handle is kept), listed in the state read then, or placed where it
        now shows (a row of a table too long for a state to list). StaleElement when it does
        not show."""
        target = self.target(target_id)
        handle = str(target.handle)
        node = self.backend.refresh(handle)
        if node is None:
            raise StaleElement(f'element {target_id} ([{target.type}] "{target.name}") is gone',
                               hint="the UI changed — run `winctl find` again")
        self._scroll_to(handle, node, target.name, self.refresh_state(window), wheel)
        deadline = time.monotonic() + SCROLL_SETTLE
        while True:
            state = self.refresh_state(window)
            listed = next((t for t in state.targets if t.handle == handle), None)
            if listed is not None:
                return listed.id
            node = self.backend.refresh(handle)
            if node is not None and offview.shows_in(node, state, SCROLLERS):
                placed = target.model_copy(update={"rect": node.rect, "derived_from": None})
                self.data.found = [placed if t.id == target_id else t for t in self.data.found]
                self.save()
                return target_id
            if time.monotonic() > deadline:
                raise StaleElement(f'element {target_id} ([{target.type}] "{target.name}") was scrolled to but does '
                                   "not show in the window; nothing was done",
                                   hint="run `winctl state` to see what shows")
            time.sleep(0.05)

    def _out_of_view(self, name: str, state: UIState) -> set[str]:
        """Handles of the elements named `name` that the window holds out of view: read by the
        latest state (`state`) but not listed, else found below its scrolling containers (a
        sheet's cell by its address: "A218")."""
        listed = {t.handle for t in state.targets}
        read = {n.handle for n in self._read if n.rect is not None and n.handle not in listed
                and {"showing", "visible"} & n.states and display_name(n) == name}
        if not read:  # what scrolling containers hold out of view is not read by a state
            scrollers = [n.handle for n in self._read if n.role in SCROLLERS and n.handle in listed]
            if scrollers:
                progress.step(f"looking for {name!r} out of view")
                read = set(self.backend.named_below(scrollers, name, OUT_OF_VIEW_READS)) - listed
        return read

    def _wheeled_into_view(self, node: Node, name: str, state: UIState) -> int:
        """Wheel notches turned over the element's list until it showed there (`wheel`); 0 when
        it did not, or there is no list to turn."""
        handle = node.handle
        lists = [t for t in state.targets if t.type in SCROLLERS and t.rect is not None and t.handle is not None]
        if node.rect is not None:  # the lists across whose width it lies
            lists = [t for t in lists if t.rect is not None and t.rect.left <= node.rect.center[0] < t.rect.right]
        elif len(lists) > 1:  # it has no place yet (GTK 3's rows far out of view): the lists that hold it
            lists = [t for t in lists if handle in self.backend.named_below([str(t.handle)], name, OUT_OF_VIEW_READS)]
        if not lists:
            return 0
        box = min(lists, key=lambda t: t.rect.area if t.rect is not None else 0)  # its own list, not the page
        view = box.rect
        assert view is not None

        def fresh() -> list[Landmark]:
            return landmarks(self.refresh_state(state.window).targets, view, node.role)

        return wheel_into_view(self.backend, handle, view, landmarks(state.targets, view, node.role), fresh)

    def locator(self) -> Any:
        """The session's visual locator; its cache is the session's file, so one-shot `winctl`
        processes, the daemon and an MCP server of one session share the places found."""
        if self._locator is None:
            from winactions.extras import require

            require("vision", "numpy", "cv2", feature="finding targets from pixels (text:, image:, a name not in "
                    "the tree)")
            from winactions.llm.lazy import LazyModel
            from winactions.locate.locator import Locator, session_cache

            def model() -> LazyModel | None:
                flags = self._tiers_key[2]
                return LazyModel(flags) if flags.configured else None

            cache = session_cache(self.store.locate_cache_path(), self.store.locate_cache_lock)
            self._locator = Locator(self.backend, model=model, cache=cache)
        return self._locator

    def save(self) -> None:
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


NAME_FOLLOWS_TEXT = 1.0  # s an element named by its text may take to be named by the text written into it
LENT_NAMES = (NAMED_BY_WRAPPER, NAMED_BY_TEXT, NAMED_BY_LABEL)  # derived_from of names read off other elements
WRITABLE_TYPES = frozenset({"Edit", "Document"})  # take typed text even without an editable-text interface (web)
SCROLLERS = frozenset({"Document", "List", "Tree", "Table", "ScrollPane"})  # may hold elements out of view
OUT_OF_VIEW_READS = 5000  # elements read at most while looking for a name out of view
OUT_OF_VIEW_SEARCH = 20000  # elements read at most while looking for a text out of view (`find`)
SCROLL_SETTLE = 1.5  # s for an element scrolled into view to show in the tree
REPAINT_QUIET = 0.08  # s a window brought forward must hold its pixels still before they are read ...
REPAINT_LIMIT = 1.0  # ... waited for at most this long (a clock or a spinner never holds still)


def _is_control(target: Target) -> bool:
    """Not static text: a radio button and its label's text share a name, and the label names
    the control."""
    return target.type not in TEXT_TYPES


def _takes_text(target: Target) -> bool:
    """An element `input` can write in: an edit, a document, or anything with editable text."""
    return (target.type in WRITABLE_TYPES or Operation.SET_TEXT in target.operations) and \
        "read_only" not in target.states


def is_id(ref: str) -> bool:
    """An element id given as text (`15`), not a name or a visual target."""
    return ref.strip().lstrip("-").isdigit()


def _plain_name(ref: str) -> str:
    """A plain name as given, or after NAME_PREFIX (`name:7`: a calculator's key "7", where
    a bare `7` is the id 7)."""
    return ref.removeprefix(NAME_PREFIX).strip()


def _named(name: str, targets: list[Target],
           prefer: tuple[Callable[[Target], bool], ...] = (_is_control,)) -> Target | None:
    """The one target named `name` (exact, else ignoring case); of several, the only one the
    first telling `prefer` test picks out; else an error that lists them."""
    found = [t for t in targets if t.name == name] or [t for t in targets if t.name.casefold() == name.casefold()]
    for test in prefer if len(found) > 1 else ():
        preferred = [t for t in found if test(t)]
        if len(preferred) == 1:
            return preferred[0]
    if len(found) > 1:
        listed = ", ".join(f"[{t.id}] {t.type}" for t in found[:8])
        raise InvalidInput(f"{len(found)} elements are named {shown(name)}: {listed}",
                           hint="act on one by its id (see `winctl state`)")
    return found[0] if found else None


def _check_identity(target: Target, node: Node, written: str | None = None) -> None:
    """Refuse to act when the element now is not what the agent was shown, or (`written`) the
    name the agent's own input gave it."""
    name = display_name(node)
    if written is not None and name == written:
        return
    mirrors_value = bool(target.value) and target.name == target.value  # a GTK combo is named by its choice
    lent = name == "" and target.derived_from in (NAMED_BY_WRAPPER, NAMED_BY_TEXT) \
        or target.derived_from == named_by_label(name) \
        or target.derived_from == named_by_label(None) and name == (node.value or "")  # its own name as when listed
    if name != target.name and not mirrors_value and not lent:
        raise StaleElement(f'element {target.id} was [{target.type}] "{target.name}" and is now '
                           f'"{name}"; nothing was done', hint="the UI changed — run `winctl state`")
    if target.automation_id and node.automation_id != target.automation_id:
        raise StaleElement(f'element {target.id} ([{target.type}] "{target.name}") now has automation id '
                           f"{node.automation_id!r}, not {target.automation_id!r}; nothing was done",
                           hint="the UI changed — run `winctl state`")


def _unlisted(node: Node) -> Target:
    """An element read by its name out of view (`resolve_to_read`): it has no id (0) and no
    place on the screen, as it is in no state."""
    return Target(id=0, type=node.role, name=display_name(node), value=node.value, states=sorted(node.states),
                  automation_id=node.automation_id, derived_from="out of view: read by its name, not in the state",
                  handle=node.handle)


def _signature(state: UIState) -> list[tuple[int, str, str | None, list[str]]]:
    return [(t.id, t.name, t.value, t.states) for t in state.targets]


_PLACEHOLDER = re.compile(r"\[#(\d+)\]")
# What makes a target visual rather than a name (the locator's prefixes, kept here so that
# acting on a plain name never imports the locator's numpy and OpenCV).
VISUAL_PREFIXES = frozenset({"text", "image", "dynamic", "fixed"})
NAME_PREFIX = "name:"  # a plain name said to be one: `name:7` is the element named "7", never the id 7


def _int_id(window_id: str) -> int | None:
    try:
        return int(window_id, 0)
    except ValueError:
        return None


def _id_range(state: UIState) -> str:
    ids = [t.id for t in state.targets]
    return f"{min(ids)}–{max(ids)}" if ids else "none"
