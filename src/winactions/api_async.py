"""`AsyncDesktop`: every method of `Desktop`, awaited.

Generated from `Desktop` by `.venv/bin/python scripts/gen_command_docs.py`; do not edit by hand.
Calls run one at a time in one worker thread that holds the session (`AsyncCore`).
"""

from __future__ import annotations

from typing import Any, Literal, overload

from winactions.api import Box, Infer, Vision
from winactions.api_base import AsyncCore
from winactions.commands.access import AccessResult
from winactions.commands.batch import Step
from winactions.commands.displays import DisplaysResult
from winactions.commands.people import IndicatorResult, TeachAccessResult, TeachResult, TeachStepItem
from winactions.commands.recording import RecordingResult
from winactions.commands.results import (
    ActionResult,
    BatchResult,
    BindResult,
    DevicesResult,
    InspectResult,
    LocateCacheResult,
    LocateCommandResult,
    MatchResult,
    RunResult,
    ScreenshotResult,
    StateResult,
    ValueResult,
    VerifyResult,
    WaitResult,
    WindowResult,
    WindowsResult,
)
from winactions.commands.session_replay import SessionReplayResult
from winactions.commands.terminal import PromptResult, TerminalResult
from winactions.model import UIState, WindowInfo


class AsyncDesktop(AsyncCore):
    """One session of the desktop for asyncio code: `async with AsyncDesktop(window="Editor")
    as desktop: await desktop.click(3)`. Its keywords and methods are `Desktop`'s; each call
    runs in the session's own worker thread, so the event loop never waits on the desktop."""

    async def batch(
        self,
        steps: list[Step] | str,
        *,
        keep_going: bool = False,
        window: str | None = None,
        return_state: bool = False,
        max_elements: int | None = None,
    ) -> BatchResult:
        """`Desktop.batch`, awaited.

        Run several commands in order and report each step.

        `winctl batch '[{"command": "input", "args": {"id": 5, "text": "Ada"}},
                        {"command": "keys", "args": {"keys": "ctrl+s"}}]'`

        `winctl batch`. Parameters:

        steps: the steps: a JSON list like [{"command": "click", "args": {"id": 3}}]
        keep_going: run the remaining steps after a failure
        window: act on this window (id, title part or process) in this call; None: the Desktop's
        return_state: also return the new state, and in `changes` what changed since the state seen last
        max_elements: with --return-state: list at most this many changes and say how many were left out
        """
        return await self._do(
            lambda: self.desktop.batch(
                steps=steps, keep_going=keep_going, window=window, return_state=return_state, max_elements=max_elements
            )
        )

    async def bind_window(
        self,
        action: Literal["list", "bind", "unbind", "status"],
        window: str | None = None,
        *,
        pid: int | None = None,
    ) -> BindResult | WindowsResult:
        """`Desktop.bind_window`, awaited.

        Send input to one window in the background, or go back to global input.

        `list` shows the windows that can be bound; `bind [WINDOW]` or `bind --pid N` binds
        (Windows: a green border marks it, a red arrow shows where input points); `unbind`
        returns to global input; `status` says which mode is on. While bound, `launch` binds
        the window it opens.

        `winctl bind-window`. Parameters:

        action: what to do
        window: bind: window id, title or part of it, or process name (default: the session's window)
        pid: bind: the window of this process (WINDOW picks among several)
        """
        return await self._do(lambda: self.desktop.bind_window(action=action, window=window, pid=pid))

    async def choose_file(
        self,
        path: str,
        *,
        overwrite: bool = False,
        keys: str | None = None,
        timeout: float = 10.0,
        window: str | None = None,
        return_state: bool = False,
        max_elements: int | None = None,
    ) -> ActionResult:
        """`Desktop.choose_file`, awaited.

        Open or save a file by path in the window's file dialog (--keys ctrl+o opens one first):
        the path goes in its field, its Open/Save button is pressed, and the outcome is checked (the
        dialog gone, a window naming the file, a save written). An existing file is replaced only
        with --overwrite; a message the app shows fails the call with its text.

        `winctl choose-file`. Parameters:

        path: the file's absolute path
        overwrite: on Save, replace a file that is there (else refused)
        keys: keys that open the dialog when none is open: "ctrl+o", "ctrl+shift+s"
        timeout: seconds the app may take to open or save
        window: act on this window (id, title part or process) in this call; None: the Desktop's
        return_state: also return the new state, and in `changes` what changed since the state seen last
        max_elements: with --return-state: list at most this many changes and say how many were left out
        """
        return await self._do(
            lambda: self.desktop.choose_file(
                path=path,
                overwrite=overwrite,
                keys=keys,
                timeout=timeout,
                window=window,
                return_state=return_state,
                max_elements=max_elements,
            )
        )

    async def click(
        self,
        id: int | str,
        *,
        via: Literal["auto", "semantic", "input"] = "auto",
        modifiers: list[str] | None = None,
        window: str | None = None,
        return_state: bool = False,
        max_elements: int | None = None,
    ) -> ActionResult:
        """`Desktop.click`, awaited.

        Click an element: its semantic action (press, toggle, select) if it has one, else a
        left click at its visible centre. A disabled one is refused; one out of view is scrolled
        to first.

        `winctl click`. Parameters:

        id: id from `winctl state`, or text:Save, image:ASSET, dynamic:DESCRIPTION, fixed:NAME
        via: auto: semantic if it fits, else the mouse; semantic: never the mouse; input: the mouse
        modifiers: keys held: shift,ctrl,alt,super
        window: act on this window (id, title part or process) in this call; None: the Desktop's
        return_state: also return the new state, and in `changes` what changed since the state seen last
        max_elements: with --return-state: list at most this many changes and say how many were left out
        """
        return await self._do(
            lambda: self.desktop.click(
                id=id, via=via, modifiers=modifiers, window=window, return_state=return_state, max_elements=max_elements
            )
        )

    async def click_at(
        self,
        x: int,
        y: int,
        *,
        button: Literal["left", "middle", "right"] = "left",
        count: int = 1,
        modifiers: list[str] | None = None,
        window: str | None = None,
        return_state: bool = False,
        max_elements: int | None = None,
    ) -> ActionResult:
        """`Desktop.click_at`, awaited.

        Click at screen coordinates (for targets no tier can name).

        `winctl click-at`. Parameters:

        x: screen x (negative on a monitor left of the primary; put -- first)
        y: screen y
        button: mouse button
        count: 1 click, 2 double, 3 triple
        modifiers: keys held: shift,ctrl,alt,super
        window: act on this window (id, title part or process) in this call; None: the Desktop's
        return_state: also return the new state, and in `changes` what changed since the state seen last
        max_elements: with --return-state: list at most this many changes and say how many were left out
        """
        return await self._do(
            lambda: self.desktop.click_at(
                x=x,
                y=y,
                button=button,
                count=count,
                modifiers=modifiers,
                window=window,
                return_state=return_state,
                max_elements=max_elements,
            )
        )

    async def click_element(
        self,
        *,
        name: str | None = None,
        type: str | None = None,
        automation_id: str | None = None,
        partial: bool = False,
        via: Literal["auto", "semantic", "input"] = "auto",
        window: str | None = None,
        return_state: bool = False,
        max_elements: int | None = None,
    ) -> ActionResult:
        """`Desktop.click_element`, awaited.

        Click the one element matching a selector: `winctl click-element --name Apply`.

        `winctl click-element`. Parameters:

        name: the element's name (exact; a substring with --partial)
        type: control type, e.g. Button, Edit, CheckBox (case-insensitive)
        automation_id: the platform's automation id
        partial: match the name as a case-insensitive substring
        via: auto, semantic or input (see `winctl click --help`)
        window: act on this window (id, title part or process) in this call; None: the Desktop's
        return_state: also return the new state, and in `changes` what changed since the state seen last
        max_elements: with --return-state: list at most this many changes and say how many were left out
        """
        return await self._do(
            lambda: self.desktop.click_element(
                name=name,
                type=type,
                automation_id=automation_id,
                partial=partial,
                via=via,
                window=window,
                return_state=return_state,
                max_elements=max_elements,
            )
        )

    async def clipboard(
        self,
        text: str | None = None,
        *,
        window: str | None = None,
        return_state: bool = False,
        max_elements: int | None = None,
    ) -> ValueResult:
        """`Desktop.clipboard`, awaited.

        Read the clipboard's text, or set it: `winctl clipboard`, `winctl clipboard "text"`.

        `winctl clipboard`. Parameters:

        text: put this text on the clipboard; without it, read the clipboard
        window: act on this window (id, title part or process) in this call; None: the Desktop's
        return_state: also return the new state, and in `changes` what changed since the state seen last
        max_elements: with --return-state: list at most this many changes and say how many were left out
        """
        return await self._do(
            lambda: self.desktop.clipboard(
                text=text, window=window, return_state=return_state, max_elements=max_elements
            )
        )

    async def close_window(
        self,
        *,
        timeout: float = 5.0,
        window: str | None = None,
    ) -> WindowResult:
        """`Desktop.close_window`, awaited.

        Close the session's window (as its close button would) and wait until it is gone.

        If the app asks for confirmation instead, the dialog becomes the session's window.

        `winctl close`. Parameters:

        timeout: seconds to wait for the window to go
        window: act on this window (id, title part or process) in this call; None: the Desktop's
        """
        return await self._do(lambda: self.desktop.close_window(timeout=timeout, window=window))

    async def cursor(
        self,
        *,
        window: str | None = None,
    ) -> ValueResult:
        """`Desktop.cursor`, awaited.

        Where the mouse pointer is: [x, y] in screen pixels.

        `winctl cursor`. Parameters:

        window: act on this window (id, title part or process) in this call; None: the Desktop's
        """
        return await self._do(lambda: self.desktop.cursor(window=window))

    async def dblclick(
        self,
        id: int | str,
        *,
        modifiers: list[str] | None = None,
        window: str | None = None,
        return_state: bool = False,
        max_elements: int | None = None,
    ) -> ActionResult:
        """`Desktop.dblclick`, awaited.

        Double-click an element at its visible centre (opens rows, selects words).

        `winctl dblclick`. Parameters:

        id: id from `winctl state`, or text:Save, image:ASSET, dynamic:DESCRIPTION, fixed:NAME
        modifiers: keys held: shift,ctrl,alt,super
        window: act on this window (id, title part or process) in this call; None: the Desktop's
        return_state: also return the new state, and in `changes` what changed since the state seen last
        max_elements: with --return-state: list at most this many changes and say how many were left out
        """
        return await self._do(
            lambda: self.desktop.dblclick(
                id=id, modifiers=modifiers, window=window, return_state=return_state, max_elements=max_elements
            )
        )

    async def devices(
        self,
        *,
        window: str | None = None,
    ) -> DevicesResult:
        """`Desktop.devices`, awaited.

        List the Android devices the adb server knows: serial, state (device, offline,
        unauthorized) and model. Drive one with `winctl --device SERIAL ...`.

        `winctl devices`. Parameters:

        window: act on this window (id, title part or process) in this call; None: the Desktop's
        """
        return await self._do(lambda: self.desktop.devices(window=window))

    async def displays(
        self,
        *,
        window: str | None = None,
    ) -> DisplaysResult:
        """`Desktop.displays`, awaited.

        List the monitors: index, name, rect on the whole screen, the primary one, and which
        one the session's coordinates refer to (`switch-display`).

        `winctl displays`. Parameters:

        window: act on this window (id, title part or process) in this call; None: the Desktop's
        """
        return await self._do(lambda: self.desktop.displays(window=window))

    async def drag(
        self,
        id: int | str,
        x2: int,
        y2: int,
        *,
        duration: float = 0.3,
        button: Literal["left", "middle", "right"] = "left",
        window: str | None = None,
        return_state: bool = False,
        max_elements: int | None = None,
    ) -> ActionResult:
        """`Desktop.drag`, awaited.

        Drag an element from its centre to a screen point.

        `winctl drag`. Parameters:

        id: id from `winctl state`, or text:Save, image:ASSET, dynamic:DESCRIPTION, fixed:NAME
        x2: drop point x (screen pixels)
        y2: drop point y (screen pixels)
        duration: seconds the drag takes
        button: button held
        window: act on this window (id, title part or process) in this call; None: the Desktop's
        return_state: also return the new state, and in `changes` what changed since the state seen last
        max_elements: with --return-state: list at most this many changes and say how many were left out
        """
        return await self._do(
            lambda: self.desktop.drag(
                id=id,
                x2=x2,
                y2=y2,
                duration=duration,
                button=button,
                window=window,
                return_state=return_state,
                max_elements=max_elements,
            )
        )

    async def drag_at(
        self,
        x1: int,
        y1: int,
        x2: int,
        y2: int,
        *,
        duration: float = 0.3,
        button: Literal["left", "middle", "right"] = "left",
        window: str | None = None,
        return_state: bool = False,
        max_elements: int | None = None,
    ) -> ActionResult:
        """`Desktop.drag_at`, awaited.

        Drag between two screen points (column borders, splitters, resize handles).

        `winctl drag-at`. Parameters:

        x1: start x (screen pixels; put -- before negative numbers)
        y1: start y
        x2: end x
        y2: end y
        duration: seconds the drag takes
        button: mouse button held
        window: act on this window (id, title part or process) in this call; None: the Desktop's
        return_state: also return the new state, and in `changes` what changed since the state seen last
        max_elements: with --return-state: list at most this many changes and say how many were left out
        """
        return await self._do(
            lambda: self.desktop.drag_at(
                x1=x1,
                y1=y1,
                x2=x2,
                y2=y2,
                duration=duration,
                button=button,
                window=window,
                return_state=return_state,
                max_elements=max_elements,
            )
        )

    async def find(
        self,
        text: str | None = None,
        *,
        name: str | None = None,
        type: str | None = None,
        automation_id: str | None = None,
        partial: bool = False,
        window: str | None = None,
        infer: Literal["off", "rules", "llm"] = "off",
        vision: Literal["off", "auto", "local", "llm"] = "off",
    ) -> StateResult:
        """`Desktop.find`, awaited.

        List the elements matching a selector (name, else value; type; automation id). A name
        not in view is looked for in the rows and cells of lists, tables and sheets; their ids are
        read where they are and scrolled into view when acted on.

        `winctl find`. Parameters:

        name: the element's name (exact; a substring with --partial)
        type: control type, e.g. Button, Edit, CheckBox (case-insensitive)
        automation_id: the platform's automation id
        partial: match the name as a case-insensitive substring
        text: the text to find (as --name)
        window: act on this window (id, title part or process) in this call; None: the Desktop's
        infer: also list hidden handles inferred from the tree (column borders, splitters, resize
            handles): `--infer` by rules, `--infer llm` by rules and a text model
        vision: also list elements seen in a screenshot that the tree lacks: `--vision local` (OCR and
            shapes, offline), `--vision llm` (a vision model), `--vision` (the model if configured)
        """
        return await self._do(
            lambda: self.desktop.find(
                text=text,
                name=name,
                type=type,
                automation_id=automation_id,
                partial=partial,
                window=window,
                infer=infer,
                vision=vision,
            )
        )

    async def focus(
        self,
        window: str,
    ) -> WindowResult:
        """`Desktop.focus`, awaited.

        Bring a window forward and make it the one calls act on.
        """
        return await self._do(lambda: self.desktop.focus(window=window))

    async def get_rect(
        self,
        id: int | str,
    ) -> list[int] | None:
        """`Desktop.get_rect`, awaited.

        An element's rect on screen as [left, top, right, bottom], or None when it has none.
        """
        return await self._do(lambda: self.desktop.get_rect(id=id))

    async def get_text(
        self,
        id: int | str,
    ) -> str:
        """`Desktop.get_text`, awaited.

        An element's text (by id, or a name the window shows).
        """
        return await self._do(lambda: self.desktop.get_text(id=id))

    async def get_value(
        self,
        id: int | str,
    ) -> Any:
        """`Desktop.get_value`, awaited.

        An element's value: a number, a text, a state.
        """
        return await self._do(lambda: self.desktop.get_value(id=id))

    async def go_home(
        self,
        *,
        window: str | None = None,
        return_state: bool = False,
        max_elements: int | None = None,
    ) -> ActionResult:
        """`Desktop.go_home`, awaited.

        Go to the phone's home screen (HOME twice with a pause: the first press may only
        reach the app's own home).

        `winctl go-home`. Parameters:

        window: act on this window (id, title part or process) in this call; None: the Desktop's
        return_state: also return the new state, and in `changes` what changed since the state seen last
        max_elements: with --return-state: list at most this many changes and say how many were left out
        """
        return await self._do(
            lambda: self.desktop.go_home(window=window, return_state=return_state, max_elements=max_elements)
        )

    async def grants(
        self,
        *,
        window: str | None = None,
    ) -> AccessResult:
        """`Desktop.grants`, awaited.

        List the apps granted.

        Says whether this session is confined, and which apps and rights it is granted, each with
        where it came from: prompt (a person's Allow), policy (the user's policy file), flag
        (`winctl mcp --grant`).

        `winctl grants`. Parameters:

        window: act on this window (id, title part or process) in this call; None: the Desktop's
        """
        return await self._do(lambda: self.desktop.grants(window=window))

    async def hold_key(
        self,
        keys: str,
        seconds: float = 1.0,
        *,
        window: str | None = None,
        return_state: bool = False,
        max_elements: int | None = None,
    ) -> ActionResult:
        """`Desktop.hold_key`, awaited.

        Hold keys down for some seconds, then release them (games, key-repeat, shift-select).

        `winctl hold-key`. Parameters:

        keys: the chord to hold, e.g. "shift" or "ctrl+alt"
        seconds: how long to hold it
        window: act on this window (id, title part or process) in this call; None: the Desktop's
        return_state: also return the new state, and in `changes` what changed since the state seen last
        max_elements: with --return-state: list at most this many changes and say how many were left out
        """
        return await self._do(
            lambda: self.desktop.hold_key(
                keys=keys, seconds=seconds, window=window, return_state=return_state, max_elements=max_elements
            )
        )

    async def input(
        self,
        id: int | str,
        text: str,
        *,
        append: bool = False,
        enter: bool = False,
        via: Literal["auto", "semantic", "input"] = "auto",
        window: str | None = None,
        return_state: bool = False,
        max_elements: int | None = None,
    ) -> ActionResult:
        """`Desktop.input`, awaited.

        Set an element's text (or append): through its editable-text interface, else focused
        and typed (a long text pasted), then read back. A terminal is typed into at its prompt; a
        sheet's cell (by address, Z200) is committed. Refused: an element that takes no text, a
        disabled field, a text longer than the field holds.

        `winctl input`. Parameters:

        id: id from `winctl state`, or text:Save, image:ASSET, dynamic:DESCRIPTION, fixed:NAME
        text: the text to put in the element
        append: add to the existing text instead of replacing it
        enter: press Enter afterwards
        via: auto: semantic if it fits, else the mouse; semantic: never the mouse; input: the mouse
        window: act on this window (id, title part or process) in this call; None: the Desktop's
        return_state: also return the new state, and in `changes` what changed since the state seen last
        max_elements: with --return-state: list at most this many changes and say how many were left out
        """
        return await self._do(
            lambda: self.desktop.input(
                id=id,
                text=text,
                append=append,
                enter=enter,
                via=via,
                window=window,
                return_state=return_state,
                max_elements=max_elements,
            )
        )

    async def inspect(
        self,
        id: int | str,
        *,
        window: str | None = None,
    ) -> InspectResult:
        """`Desktop.inspect`, awaited.

        Everything known about one element now: role, states, rect, actions, interfaces, value.

        `winctl inspect`. Parameters:

        id: element id, or a name the window shows
        window: act on this window (id, title part or process) in this call; None: the Desktop's
        """
        return await self._do(lambda: self.desktop.inspect(id=id, window=window))

    async def key_down(
        self,
        keys: str,
        *,
        window: str | None = None,
        return_state: bool = False,
        max_elements: int | None = None,
    ) -> ActionResult:
        """`Desktop.key_down`, awaited.

        Hold keys down until `key-up` (shift while clicking rows, a game's key); the session
        remembers them, and `session close` lets go of any still down.

        `winctl key-down`. Parameters:

        keys: the chords, e.g. "shift" or "ctrl+alt" ("all" for key-up: every key held)
        window: act on this window (id, title part or process) in this call; None: the Desktop's
        return_state: also return the new state, and in `changes` what changed since the state seen last
        max_elements: with --return-state: list at most this many changes and say how many were left out
        """
        return await self._do(
            lambda: self.desktop.key_down(
                keys=keys, window=window, return_state=return_state, max_elements=max_elements
            )
        )

    async def key_up(
        self,
        keys: str,
        *,
        window: str | None = None,
        return_state: bool = False,
        max_elements: int | None = None,
    ) -> ActionResult:
        """`Desktop.key_up`, awaited.

        Release keys `key-down` pressed (`all`: every key this session holds).

        `winctl key-up`. Parameters:

        keys: the chords, e.g. "shift" or "ctrl+alt" ("all" for key-up: every key held)
        window: act on this window (id, title part or process) in this call; None: the Desktop's
        return_state: also return the new state, and in `changes` what changed since the state seen last
        max_elements: with --return-state: list at most this many changes and say how many were left out
        """
        return await self._do(
            lambda: self.desktop.key_up(keys=keys, window=window, return_state=return_state, max_elements=max_elements)
        )

    async def keys(
        self,
        keys: str,
        *,
        window: str | None = None,
        return_state: bool = False,
        max_elements: int | None = None,
    ) -> ActionResult:
        """`Desktop.keys`, awaited.

        Press keys: chords joined by + and separated by spaces ("ctrl+shift+s", "Down Down Enter").

        `winctl keys`. Parameters:

        keys: key chords like "ctrl+s", "Enter", "alt+f4", "ctrl+a Delete"
        window: act on this window (id, title part or process) in this call; None: the Desktop's
        return_state: also return the new state, and in `changes` what changed since the state seen last
        max_elements: with --return-state: list at most this many changes and say how many were left out
        """
        return await self._do(
            lambda: self.desktop.keys(keys=keys, window=window, return_state=return_state, max_elements=max_elements)
        )

    async def launch(
        self,
        command: list[str],
        *,
        timeout: float = 20.0,
        title: str | None = None,
        bind: bool = False,
        window: str | None = None,
    ) -> WindowResult:
        """`Desktop.launch`, awaited.

        Start a program, wait for its window and make it the session's window.

        A program that hands its work to an instance of itself already running (mousepad,
        LibreOffice, Firefox) and exits: that instance's window is selected, and the result says so.
        A splash screen is waited past: the window selected is the one that shows the app.

        Put -- before the program when its arguments start with a dash:
        `winctl launch -- mousepad --disable-server`. On a phone (--device), give an app's
        package or package/activity: `winctl launch com.android.settings`.

        While input is bound to a window (`bind-window`), or with --bind, the new window is
        bound, and the result says so.

        `winctl launch`. Parameters:

        command: program and its arguments
        timeout: seconds to wait for its window and its accessibility tree
        title: wait for a window whose title contains this
        bind: bind input to its window (Windows; done anyway while bound)
        window: act on this window (id, title part or process) in this call; None: the Desktop's
        """
        return await self._do(
            lambda: self.desktop.launch(command=command, timeout=timeout, title=title, bind=bind, window=window)
        )

    async def locate(
        self,
        target: str,
        *,
        strategy: list[Literal["template", "ocr", "vision", "fixed"]] | None = None,
        region: str | None = None,
        screen: bool = False,
        no_cache: bool = False,
        reliable: float = 0.8,
        in_: str | None = None,
        window: str | None = None,
    ) -> LocateCommandResult:
        """`Desktop.locate`, awaited.

        Find an element on screen from pixels when the accessibility tree does not show it.

        Tries the strategies in order and stops at the first reliable match; below the
        `--reliable` confidence it fails and lists the best candidates instead of guessing.
        Searches the window unless `--region` or `--screen` is given; `--in shot.png` searches
        a saved screenshot instead (no desktop needed).

        `winctl locate`. Parameters:

        target: text:Save, image:ASSET (or image:path/to/ref.png), dynamic:DESCRIPTION, fixed:NAME, or
            plain text for the whole fallback chain
        strategy: try only these strategies, in this order: template, ocr, vision, fixed
        region: search only x,y,width,height on screen
        screen: search every screen, not just the window
        no_cache: look again even if a fresh cached result exists
        reliable: confidence a result needs to count as found
        in_: search this screenshot file instead of the screen (no desktop needed; boxes are the file's
            pixels)
        window: act on this window (id, title part or process) in this call; None: the Desktop's
        """
        return await self._do(
            lambda: self.desktop.locate(
                target=target,
                strategy=strategy,
                region=region,
                screen=screen,
                no_cache=no_cache,
                reliable=reliable,
                in_=in_,
                window=window,
            )
        )

    async def locate_cache(
        self,
        action: Literal["stats", "clear"] = "stats",
        *,
        window: str | None = None,
    ) -> LocateCacheResult:
        """`Desktop.locate_cache`, awaited.

        The locator's cache of this session: `stats` (hits, misses, entries) or `clear`.

        Cached places live at most 30 s and only while the pixels there still match; the cache
        is the session's, shared by its one-shot `winctl` calls, its daemon and MCP server. It
        also keeps, per app, the scale the display draws reference images at (from a find of 0.9
        or more), tried first by the next image search; `clear` forgets that too.

        `winctl locate-cache`. Parameters:

        action: show hit/miss counts, or forget every entry and remembered scale
        window: act on this window (id, title part or process) in this call; None: the Desktop's
        """
        return await self._do(lambda: self.desktop.locate_cache(action=action, window=window))

    async def long_press(
        self,
        id: int | str | None = None,
        *,
        x: int | None = None,
        y: int | None = None,
        duration: float = 0.8,
        window: str | None = None,
        return_state: bool = False,
        max_elements: int | None = None,
    ) -> ActionResult:
        """`Desktop.long_press`, awaited.

        Press and hold an element or a point: a phone's long press (context menus, drag
        handles), the left button held down on a desktop.

        `winctl long-press`. Parameters:

        id: element id from `winctl state`, or a visual target (text:..., image:...); or give --x and
            --y
        x: screen x, instead of an element
        y: screen y, instead of an element
        duration: seconds the press is held
        window: act on this window (id, title part or process) in this call; None: the Desktop's
        return_state: also return the new state, and in `changes` what changed since the state seen last
        max_elements: with --return-state: list at most this many changes and say how many were left out
        """
        return await self._do(
            lambda: self.desktop.long_press(
                id=id, x=x, y=y, duration=duration, window=window, return_state=return_state, max_elements=max_elements
            )
        )

    async def manage_window(
        self,
        action: Literal["activate", "minimize", "maximize", "restore", "move", "offscreen"],
        x: int | None = None,
        y: int | None = None,
        width: int | None = None,
        height: int | None = None,
        *,
        window: str | None = None,
    ) -> WindowResult:
        """`Desktop.manage_window`, awaited.

        Activate, minimize, maximize, restore, move and resize, or park off-screen the session's window.

        `winctl window`. Parameters:

        action: what to do with the session's window (offscreen: park it at -32000,-32000, where a bound
            window still takes input and screenshots)
        x: move: new client-area left
        y: move: new client-area top
        width: move: new client-area width
        height: move: new client-area height
        window: act on this window (id, title part or process) in this call; None: the Desktop's
        """
        return await self._do(
            lambda: self.desktop.manage_window(action=action, x=x, y=y, width=width, height=height, window=window)
        )

    async def match(
        self,
        reference: str,
        image: str,
        *,
        threshold: float = 0.75,
        window: str | None = None,
    ) -> MatchResult:
        """`Desktop.match`, awaited.

        Find a reference image in a screenshot file, by template matching.

        Exact match first, then scales 0.5-1.5, then ORB features. When both files record their
        pixel density (`screenshot --element`, or a name like ref@2x.png) and they differ: their
        ratio first, then 0.7-1.4 times it, then 0.5-1.5. Prints each place with its box,
        confidence, method and scale. Needs no desktop: for checks on saved screenshots.

        `winctl match`. Parameters:

        reference: the reference image file: a crop of the element
        image: the screenshot file to search
        threshold: confidence a match needs (TM_CCOEFF_NORMED score, or the feature matcher's inlier
            share)
        window: act on this window (id, title part or process) in this call; None: the Desktop's
        """
        return await self._do(
            lambda: self.desktop.match(reference=reference, image=image, threshold=threshold, window=window)
        )

    async def mouse_down(
        self,
        x: int | None = None,
        y: int | None = None,
        *,
        button: Literal["left", "middle", "right"] = "left",
        window: str | None = None,
        return_state: bool = False,
        max_elements: int | None = None,
    ) -> ActionResult:
        """`Desktop.mouse_down`, awaited.

        Press a mouse button and keep it down (end with `mouse-up`), for custom drags.

        `winctl mouse-down`. Parameters:

        button: mouse button
        x: move here first (screen x)
        y: move here first (screen y)
        window: act on this window (id, title part or process) in this call; None: the Desktop's
        return_state: also return the new state, and in `changes` what changed since the state seen last
        max_elements: with --return-state: list at most this many changes and say how many were left out
        """
        return await self._do(
            lambda: self.desktop.mouse_down(
                x=x, y=y, button=button, window=window, return_state=return_state, max_elements=max_elements
            )
        )

    async def mouse_move(
        self,
        x: int,
        y: int,
        *,
        window: str | None = None,
        return_state: bool = False,
        max_elements: int | None = None,
    ) -> ActionResult:
        """`Desktop.mouse_move`, awaited.

        Move the pointer to a screen point (hover menus, tooltips).

        `winctl mouse-move`. Parameters:

        x: screen x (put -- before negative numbers)
        y: screen y
        window: act on this window (id, title part or process) in this call; None: the Desktop's
        return_state: also return the new state, and in `changes` what changed since the state seen last
        max_elements: with --return-state: list at most this many changes and say how many were left out
        """
        return await self._do(
            lambda: self.desktop.mouse_move(
                x=x, y=y, window=window, return_state=return_state, max_elements=max_elements
            )
        )

    async def mouse_up(
        self,
        x: int | None = None,
        y: int | None = None,
        *,
        button: Literal["left", "middle", "right"] = "left",
        window: str | None = None,
        return_state: bool = False,
        max_elements: int | None = None,
    ) -> ActionResult:
        """`Desktop.mouse_up`, awaited.

        Release a mouse button (after `mouse-down`), optionally after moving to a point.

        `winctl mouse-up`. Parameters:

        button: mouse button
        x: move here first (screen x)
        y: move here first (screen y)
        window: act on this window (id, title part or process) in this call; None: the Desktop's
        return_state: also return the new state, and in `changes` what changed since the state seen last
        max_elements: with --return-state: list at most this many changes and say how many were left out
        """
        return await self._do(
            lambda: self.desktop.mouse_up(
                x=x, y=y, button=button, window=window, return_state=return_state, max_elements=max_elements
            )
        )

    async def open_terminal(
        self,
        agent: Literal["claude", "codex", "gemini", "custom"],
        *,
        command: str | None = None,
        timeout: float = 20.0,
        window: str | None = None,
    ) -> TerminalResult:
        """`Desktop.open_terminal`, awaited.

        Open a terminal running an agent or a command, as the session's window.

        The agent is claude, codex or gemini, or `custom` with `--command CMD`.

        The terminal's screen is read through the accessibility tree (`winctl state` lists its
        rows). It waits for the window, for the command's process to run and for the screen to show
        something; the result says what it shows. A program not on PATH is refused before anything
        opens. Answer its prompts with `winctl prompt-respond`.

        `winctl open-terminal`. Parameters:

        agent: the program to run: claude, codex, gemini, or custom with --command
        command: custom: the command line to run (shell words)
        timeout: seconds to wait for its window and its screen
        window: act on this window (id, title part or process) in this call; None: the Desktop's
        """
        return await self._do(
            lambda: self.desktop.open_terminal(agent=agent, command=command, timeout=timeout, window=window)
        )

    async def open_url(
        self,
        url: str,
        *,
        window: str | None = None,
        return_state: bool = False,
        max_elements: int | None = None,
    ) -> ActionResult:
        """`Desktop.open_url`, awaited.

        Open a URL with the platform's opener: the app chosen for its scheme (xdg-open on Linux,
        ShellExecute on Windows, an Android VIEW intent on a phone). The URL needs its scheme;
        a file: URL must name a file that exists. A scheme no app here handles is refused,
        nothing opened. The app opens on its own: run `winctl windows` to find its window.

        `winctl open-url`. Parameters:

        url: the URL, with its scheme: https://example.org, mailto:a@b.org, tel:+15551234567
        window: act on this window (id, title part or process) in this call; None: the Desktop's
        return_state: also return the new state, and in `changes` what changed since the state seen last
        max_elements: with --return-state: list at most this many changes and say how many were left out
        """
        return await self._do(
            lambda: self.desktop.open_url(url=url, window=window, return_state=return_state, max_elements=max_elements)
        )

    async def press(
        self,
        keys: str,
        times: int = 1,
        *,
        interval: float = 0.05,
        window: str | None = None,
        return_state: bool = False,
        max_elements: int | None = None,
    ) -> ActionResult:
        """`Desktop.press`, awaited.

        Press keys several times with a pause between: `winctl press Down 5`.

        `winctl press`. Parameters:

        keys: key chords, e.g. "Down" or "ctrl+z"
        times: how many times to press them
        interval: seconds between presses
        window: act on this window (id, title part or process) in this call; None: the Desktop's
        return_state: also return the new state, and in `changes` what changed since the state seen last
        max_elements: with --return-state: list at most this many changes and say how many were left out
        """
        return await self._do(
            lambda: self.desktop.press(
                keys=keys,
                times=times,
                interval=interval,
                window=window,
                return_state=return_state,
                max_elements=max_elements,
            )
        )

    async def prompt_respond(
        self,
        response: Literal["yes", "no", "enter", "escape", "select", "type"],
        *,
        arrow: Literal["up", "down"] = "down",
        count: int | None = None,
        text: str | None = None,
        window: str | None = None,
        return_state: bool = False,
        max_elements: int | None = None,
    ) -> PromptResult:
        """`Desktop.prompt_respond`, awaited.

        Answer the prompt the session's terminal shows: a [y/N] question, a numbered or arrow-key menu, a text prompt.

        It reads the prompt off the screen first and refuses, sending nothing, when none shows or
        the answer does not fit it (yes to a menu, select to a y/N question). select: in an
        arrow-key menu --text LABEL moves to that option (or --count N presses --arrow N times),
        then Enter; in a numbered menu --text is the number or the option's label. The result says
        the prompt (its options, the highlighted one in brackets), the keys sent, and what the
        screen shows after; a prompt still there unchanged is a failure.

        `winctl prompt-respond`. Parameters:

        response: yes (y Enter), no (n Enter), enter, escape, select (a menu's option), type (text, then
            Enter)
        arrow: select in an arrow-key menu: the arrow to press
        count: select: how many times to press the arrow
        text: type: the text; select: an option's label, or a numbered menu's number
        window: act on this window (id, title part or process) in this call; None: the Desktop's
        return_state: also return the new state, and in `changes` what changed since the state seen last
        max_elements: with --return-state: list at most this many changes and say how many were left out
        """
        return await self._do(
            lambda: self.desktop.prompt_respond(
                response=response,
                arrow=arrow,
                count=count,
                text=text,
                window=window,
                return_state=return_state,
                max_elements=max_elements,
            )
        )

    async def record_start(
        self,
        folder: str,
        *,
        window: str | None = None,
    ) -> RecordingResult:
        """`Desktop.record_start`, awaited.

        Record this session (`--session NAME`): from now on every command of it — from the
        CLI, the daemon, MCP or the Python API — is kept in FOLDER as it runs, until `record stop`.

        `FOLDER/session.jsonl` gets one JSON line per command: its arguments, the element it acted
        on by name, type and path, its result or error, and for an acting command what changed in
        the window's tree, with the window's pictures before and after (`step-N-before.jpg`,
        `step-N-after.jpg`, at most 960 px a side). Reading commands are kept without pictures:
        they change nothing. Text typed into a password field is kept as `[secret]`. Each acting
        command costs about one tree read and two window captures more while recording.
        `winctl replay FOLDER` acts the record again, by names.

        `winctl record start`. Parameters:

        folder: the folder to keep the record in (made if missing; not one holding a record)
        window: act on this window (id, title part or process) in this call; None: the Desktop's
        """
        return await self._do(lambda: self.desktop.record_start(folder=folder, window=window))

    async def record_status(
        self,
        *,
        window: str | None = None,
    ) -> RecordingResult:
        """`Desktop.record_status`, awaited.

        Whether this session records, into which folder, and how many commands it kept so far.

        `winctl record status`. Parameters:

        window: act on this window (id, title part or process) in this call; None: the Desktop's
        """
        return await self._do(lambda: self.desktop.record_status(window=window))

    async def record_stop(
        self,
        *,
        window: str | None = None,
    ) -> RecordingResult:
        """`Desktop.record_stop`, awaited.

        Stop recording this session; says where the record is and how many commands it holds
        (`winctl replay FOLDER` acts it again). Stopping a session that does not record says so.

        `winctl record stop`. Parameters:

        window: act on this window (id, title part or process) in this call; None: the Desktop's
        """
        return await self._do(lambda: self.desktop.record_stop(window=window))

    async def replay(
        self,
        run: str,
        *,
        dry_run: bool = False,
        record: str | None = None,
        max_steps: int = 100,
        timeout: float = 100.0,
        window: str | None = None,
        return_state: bool = False,
        max_elements: int | None = None,
    ) -> RunResult | SessionReplayResult:
        """`Desktop.replay`, awaited.

        Run a recorded run's successful steps again, with no model (a macro, or a regression
        test of an app), checked by the recorded run's success criteria; a step whose target is gone
        fails and stops the replay.

        A session's record (`winctl record start DIR`, told apart by its log's header) replays its
        acting commands that succeeded: each element found by its recorded name (and type, and
        path), each step checked to act on the recorded element and leave its recorded value; the
        first step that cannot be done stops the replay, which fails naming it and why.

        `winctl replay`. Parameters:

        run: the folder of a record: `winctl run --record DIR` or `winctl record start DIR`
        dry_run: show the recorded steps located now; do nothing
        record: record the replay too, into this folder
        max_steps: stop after this many steps
        timeout: seconds for the whole replay
        window: act on this window (id, title part or process) in this call; None: the Desktop's
        return_state: also return the new state, and in `changes` what changed since the state seen last
        max_elements: with --return-state: list at most this many changes and say how many were left out
        """
        return await self._do(
            lambda: self.desktop.replay(
                run=run,
                dry_run=dry_run,
                record=record,
                max_steps=max_steps,
                timeout=timeout,
                window=window,
                return_state=return_state,
                max_elements=max_elements,
            )
        )

    async def request_access(
        self,
        apps: list[str] | None = None,
        *,
        reason: str = "",
        clipboard_read: bool = False,
        clipboard_write: bool = False,
        system_keys: bool = False,
        timeout: float = 60.0,
        window: str | None = None,
    ) -> AccessResult:
        """`Desktop.request_access`, awaited.

        Ask a person to grant apps.

        In a confined session (the user's policy file or `winctl mcp --confine` says so) a prompt
        opens on the desktop naming the apps, the rights and your reason; only the person's Allow
        grants, until the session ends or `revoke`. Deny, closing it or the timeout is an error.
        Apps and rights already granted are not asked again. Unconfined, nothing needs asking.

        `winctl request-access`. Parameters:

        apps: app names as `winctl windows` shows them (a program, or its WM_CLASS), any case
        reason: why, shown to the person in the prompt
        clipboard_read: also ask to read the clipboard
        clipboard_write: also ask to write the clipboard
        system_keys: also ask for system key combos (alt+f4, alt+tab, ctrl+alt+..., super)
        timeout: seconds to wait for the person's answer (then: denied)
        window: act on this window (id, title part or process) in this call; None: the Desktop's
        """
        return await self._do(
            lambda: self.desktop.request_access(
                apps=apps,
                reason=reason,
                clipboard_read=clipboard_read,
                clipboard_write=clipboard_write,
                system_keys=system_keys,
                timeout=timeout,
                window=window,
            )
        )

    async def request_teach_access(
        self,
        *,
        reason: str | None = None,
        timeout: float = 60.0,
        window: str | None = None,
    ) -> TeachAccessResult:
        """`Desktop.request_teach_access`, awaited.

        Ask the person to allow teach mode.

        Teach steps run only once allowed.

        A prompt with Allow and Deny shows on the agent's screen and the call waits for the
        answer. Denied, or no answer in time, is an error; the grant lasts as long as the
        session's overlay process (`winctl session close` ends it).

        `winctl request-teach-access`. Parameters:

        reason: why the agent wants to guide the person
        timeout: seconds to wait for the person's answer
        window: act on this window (id, title part or process) in this call; None: the Desktop's
        """
        return await self._do(lambda: self.desktop.request_teach_access(reason=reason, timeout=timeout, window=window))

    async def revoke(
        self,
        apps: list[str] | None = None,
        *,
        all: bool = False,
        window: str | None = None,
    ) -> AccessResult:
        """`Desktop.revoke`, awaited.

        Give grants back.

        For the rest of the session: these apps, or --all (every app and right,
        from the prompt, the policy file and the server's flags alike). Asking again needs a person.

        `winctl revoke`. Parameters:

        apps: app names as `winctl windows` shows them (a program, or its WM_CLASS), any case
        all: give back every app and right
        window: act on this window (id, title part or process) in this call; None: the Desktop's
        """
        return await self._do(lambda: self.desktop.revoke(apps=apps, all=all, window=window))

    async def rightclick(
        self,
        id: int | str,
        *,
        modifiers: list[str] | None = None,
        window: str | None = None,
        return_state: bool = False,
        max_elements: int | None = None,
    ) -> ActionResult:
        """`Desktop.rightclick`, awaited.

        Right-click an element at its visible centre (context menus).

        `winctl rightclick`. Parameters:

        id: id from `winctl state`, or text:Save, image:ASSET, dynamic:DESCRIPTION, fixed:NAME
        modifiers: keys held: shift,ctrl,alt,super
        window: act on this window (id, title part or process) in this call; None: the Desktop's
        return_state: also return the new state, and in `changes` what changed since the state seen last
        max_elements: with --return-state: list at most this many changes and say how many were left out
        """
        return await self._do(
            lambda: self.desktop.rightclick(
                id=id, modifiers=modifiers, window=window, return_state=return_state, max_elements=max_elements
            )
        )

    async def run_task(
        self,
        task: str,
        *,
        plan: str | None = None,
        dry_run: bool = False,
        confirm: bool = False,
        max_steps: int = 30,
        max_replans: int = 2,
        max_model_calls: int = 8,
        max_tokens: int = 200000,
        timeout: float = 100.0,
        record: str | None = None,
        no_templates: bool = False,
        no_pixels: bool = False,
        apps: list[str] | None = None,
        window: str | None = None,
        return_state: bool = False,
        max_elements: int | None = None,
    ) -> RunResult:
        """`Desktop.run_task`, awaited.

        Do a task in words: plan it (an app template, else the model), then locate, act and
        verify each step, dismissing dialogs in the way and replanning when a step fails.

        `winctl run "write hello in mousepad and save"`; `--dry-run` shows the plan located and
        does nothing; `--record DIR` keeps a run to `winctl replay DIR` later.

        A run routed to an app module acts on that app's window (launched when none is open). The
        task is `success` only when its success criteria were checked in the app and hold (one
        `check:` line each); `unverified`, exit 10, when its steps ran but that could not be shown;
        `failed`, exit 4, when a step failed or a criterion does not hold.

        `winctl run`. Parameters:

        task: the task in words, e.g. "write hello in mousepad and save"
        plan: run this JSON plan instead of planning (see the runner's docs)
        dry_run: show the plan with every target located; do nothing
        confirm: ask on the terminal before each step
        max_steps: stop after this many steps
        max_replans: new plans after a failed step
        max_model_calls: model calls the run may make
        max_tokens: model tokens the run may spend
        timeout: seconds for the whole run (a session daemon answers within 120 s: use --no-daemon for
            longer)
        record: record the run (JSON lines and screenshots) into this folder
        no_templates: plan with the model even when an app template matches
        no_pixels: find names only in the tree (no OCR, images or vision model)
        apps: more app-module folders (also WINCTL_APPS)
        window: act on this window (id, title part or process) in this call; None: the Desktop's
        return_state: also return the new state, and in `changes` what changed since the state seen last
        max_elements: with --return-state: list at most this many changes and say how many were left out
        """
        return await self._do(
            lambda: self.desktop.run_task(
                task=task,
                plan=plan,
                dry_run=dry_run,
                confirm=confirm,
                max_steps=max_steps,
                max_replans=max_replans,
                max_model_calls=max_model_calls,
                max_tokens=max_tokens,
                timeout=timeout,
                record=record,
                no_templates=no_templates,
                no_pixels=no_pixels,
                apps=apps,
                window=window,
                return_state=return_state,
                max_elements=max_elements,
            )
        )

    async def screenshot(
        self,
        path: str | None = None,
        *,
        force: bool = False,
        screen: bool = False,
        element: int | str | None = None,
        window: str | None = None,
    ) -> ScreenshotResult:
        """`Desktop.screenshot`, awaited.

        Save a PNG of the window, the whole screen or one element (an `image:` reference that
        records the window's pixel density).

        `winctl screenshot`. Parameters:

        path: where to save the PNG (default: the session's folder)
        force: replace an existing file that is not a PNG
        screen: the whole screen (the chosen display) instead of the window
        element: just this element (id or name)
        window: act on this window (id, title part or process) in this call; None: the Desktop's
        """
        return await self._do(
            lambda: self.desktop.screenshot(path=path, force=force, screen=screen, element=element, window=window)
        )

    async def scroll(
        self,
        id: int | str,
        direction: Literal["up", "down", "left", "right"],
        amount: int = 3,
        *,
        window: str | None = None,
        return_state: bool = False,
        max_elements: int | None = None,
    ) -> ActionResult:
        """`Desktop.scroll`, awaited.

        Scroll inside an element (its scroll pattern, else the mouse wheel at its centre); fails
        when nothing under the wheel moved.

        `winctl scroll`. Parameters:

        id: id from `winctl state`, or text:Save, image:ASSET, dynamic:DESCRIPTION, fixed:NAME
        direction: which way to scroll
        amount: wheel notches
        window: act on this window (id, title part or process) in this call; None: the Desktop's
        return_state: also return the new state, and in `changes` what changed since the state seen last
        max_elements: with --return-state: list at most this many changes and say how many were left out
        """
        return await self._do(
            lambda: self.desktop.scroll(
                id=id,
                direction=direction,
                amount=amount,
                window=window,
                return_state=return_state,
                max_elements=max_elements,
            )
        )

    async def scroll_at(
        self,
        x: int,
        y: int,
        direction: Literal["up", "down", "left", "right"],
        amount: int = 3,
        *,
        window: str | None = None,
        return_state: bool = False,
        max_elements: int | None = None,
    ) -> ActionResult:
        """`Desktop.scroll_at`, awaited.

        Turn the mouse wheel at a screen point.

        `winctl scroll-at`. Parameters:

        x: screen x (put -- before negative numbers)
        y: screen y
        direction: which way to scroll
        amount: wheel notches
        window: act on this window (id, title part or process) in this call; None: the Desktop's
        return_state: also return the new state, and in `changes` what changed since the state seen last
        max_elements: with --return-state: list at most this many changes and say how many were left out
        """
        return await self._do(
            lambda: self.desktop.scroll_at(
                x=x,
                y=y,
                direction=direction,
                amount=amount,
                window=window,
                return_state=return_state,
                max_elements=max_elements,
            )
        )

    async def select(
        self,
        id: int | str,
        value: str,
        *,
        window: str | None = None,
        return_state: bool = False,
        max_elements: int | None = None,
    ) -> ActionResult:
        """`Desktop.select`, awaited.

        Choose an option by name in a combo box, list or tab list (the box by id or by its name);
        the box must then read the option.

        `winctl select`. Parameters:

        id: id from `winctl state`, or text:Save, image:ASSET, dynamic:DESCRIPTION, fixed:NAME
        value: the option to choose (its visible name)
        window: act on this window (id, title part or process) in this call; None: the Desktop's
        return_state: also return the new state, and in `changes` what changed since the state seen last
        max_elements: with --return-state: list at most this many changes and say how many were left out
        """
        return await self._do(
            lambda: self.desktop.select(
                id=id, value=value, window=window, return_state=return_state, max_elements=max_elements
            )
        )

    async def select_text(
        self,
        id: int | str,
        text: str | None = None,
        *,
        occurrence: int = 1,
        start: int | None = None,
        end: int | None = None,
        window: str | None = None,
        return_state: bool = False,
        max_elements: int | None = None,
    ) -> ActionResult:
        """`Desktop.select_text`, awaited.

        Select text inside an element: `select-text ID "word"` (the first match, or
        --occurrence N) or `select-text ID --start N --end M`; then `keys ctrl+b`, `keys ctrl+c`.
        The result says what the app shows selected.

        `winctl select-text`. Parameters:

        id: element id from `winctl state` (a field, a paragraph, a document)
        text: the text to select (its first match; see --occurrence)
        occurrence: which match of TEXT: 1 the first
        start: select from this character offset (with --end)
        end: ... to this offset, not included
        window: act on this window (id, title part or process) in this call; None: the Desktop's
        return_state: also return the new state, and in `changes` what changed since the state seen last
        max_elements: with --return-state: list at most this many changes and say how many were left out
        """
        return await self._do(
            lambda: self.desktop.select_text(
                id=id,
                text=text,
                occurrence=occurrence,
                start=start,
                end=end,
                window=window,
                return_state=return_state,
                max_elements=max_elements,
            )
        )

    @overload
    async def state(
        self,
        *,
        verbose: bool = False,
        tree: bool = False,
        screenshot: bool = False,
        annotated: bool = False,
        diff: Literal[False] = False,
        scope: int | None = None,
        max_elements: int | None = None,
        all: bool = False,
        window: str | None = None,
        infer: Infer = "off",
        vision: Vision = "off",
    ) -> UIState: ...
    @overload
    async def state(
        self,
        *,
        verbose: bool = False,
        tree: bool = False,
        screenshot: bool = False,
        annotated: bool = False,
        diff: Literal[True],
        scope: int | None = None,
        max_elements: int | None = None,
        all: bool = False,
        window: str | None = None,
        infer: Infer = "off",
        vision: Vision = "off",
    ) -> StateResult: ...
    @overload
    async def state(
        self,
        *,
        verbose: bool = False,
        tree: bool = False,
        screenshot: bool = False,
        annotated: bool = False,
        diff: bool = False,
        scope: int | None = None,
        max_elements: int | None = None,
        all: bool = False,
        window: str | None = None,
        infer: Infer = "off",
        vision: Vision = "off",
    ) -> UIState | StateResult: ...
    async def state(
        self,
        *,
        verbose: bool = False,
        tree: bool = False,
        screenshot: bool = False,
        annotated: bool = False,
        diff: bool = False,
        scope: int | None = None,
        max_elements: int | None = None,
        all: bool = False,
        window: str | None = None,
        infer: Infer = "off",
        vision: Vision = "off",
    ) -> UIState | StateResult:
        """`Desktop.state`, awaited.

        The window's indexed elements (only element `scope`'s subtree, at most
        `max_elements` of them); with `diff=True`, the whole result: `.diff` says what changed
        since the state read before (added, removed, changed), `.state` is the new state.
        """
        return await self._do(
            lambda: self.desktop.state(
                verbose=verbose,
                tree=tree,
                screenshot=screenshot,
                annotated=annotated,
                diff=diff,
                scope=scope,
                max_elements=max_elements,
                all=all,
                window=window,
                infer=infer,
                vision=vision,
            )
        )

    async def status_indicator(
        self,
        action: Literal["show", "hide", "status"],
        message: str | None = None,
        *,
        window: str | None = None,
    ) -> IndicatorResult:
        """`Desktop.status_indicator`, awaited.

        Show, hide or change the agent's status label.

        The label sits at the bottom of the agent's window (the bound window while one is bound).
        `show [MESSAGE]` shows it, `status MESSAGE` changes its text, `hide` removes it. While it
        shows, each action puts its name and target after the message, and the label follows the
        window when it moves. Clicks pass through it to the app; perception that reads pixels
        leaves it out.

        `winctl status-indicator`. Parameters:

        action: show the label, hide it, or status: change its text (report it with no message)
        message: what the agent is doing, in a few words
        window: act on this window (id, title part or process) in this call; None: the Desktop's
        """
        return await self._do(lambda: self.desktop.status_indicator(action=action, message=message, window=window))

    async def swipe(
        self,
        direction: Literal["up", "down", "left", "right"] | None = None,
        *,
        id: int | str | None = None,
        distance: float = 0.6,
        x1: int | None = None,
        y1: int | None = None,
        x2: int | None = None,
        y2: int | None = None,
        duration: float = 0.3,
        window: str | None = None,
        return_state: bool = False,
        max_elements: int | None = None,
    ) -> ActionResult:
        """`Desktop.swipe`, awaited.

        Swipe a finger: in a direction across an element or the screen (`winctl swipe up`,
        `winctl swipe left --id 5`), or between two points (--x1 --y1 --x2 --y2). A drag on a
        desktop.

        `winctl swipe`. Parameters:

        direction: the finger's direction (up shows what is below), across the element or the screen
        id: swipe inside this element (else across the screen)
        distance: fraction of the element or screen swiped over
        x1: start x, for a swipe between two points
        y1: start y
        x2: end x
        y2: end y
        duration: seconds the swipe takes
        window: act on this window (id, title part or process) in this call; None: the Desktop's
        return_state: also return the new state, and in `changes` what changed since the state seen last
        max_elements: with --return-state: list at most this many changes and say how many were left out
        """
        return await self._do(
            lambda: self.desktop.swipe(
                direction=direction,
                id=id,
                distance=distance,
                x1=x1,
                y1=y1,
                x2=x2,
                y2=y2,
                duration=duration,
                window=window,
                return_state=return_state,
                max_elements=max_elements,
            )
        )

    async def switch_display(
        self,
        display: str,
        *,
        window: str | None = None,
    ) -> DisplaysResult:
        """`Desktop.switch_display`, awaited.

        Choose the monitor that coordinates refer to.

        Coordinates, `screenshot --screen` and the window acted on then refer to that monitor.

        After `switch-display 1`, points given (`click-at`, `drag-at`, `zoom`...) and rects
        printed (`state`, `get rect`, `cursor`...) are relative to monitor 1's top-left, a point
        off it is refused, and results say `on display 1 (X,Y WxH)`. `all` (the default) is the
        whole screen again. The session keeps the choice.

        `winctl switch-display`. Parameters:

        display: a display's index from `winctl displays`, or all for the whole screen
        window: act on this window (id, title part or process) in this call; None: the Desktop's
        """
        return await self._do(lambda: self.desktop.switch_display(display=display, window=window))

    async def teach_batch(
        self,
        steps: list[TeachStepItem] | str,
        *,
        timeout: float = 60.0,
        window: str | None = None,
    ) -> TeachResult:
        """`Desktop.teach_batch`, awaited.

        Show the person several steps, each until Next.

        Reports how far the person went.

        Needs `winctl request-teach-access` first. It stops at a step's timeout or at Stop; the
        whole call ends within the daemon's command deadline, and the result says where.

        `winctl teach-batch`. Parameters:

        steps: the steps, a JSON list: [{"text": "Type your name here", "id": 5}, {"text": "Then save",
            "rect": [100, 40, 80, 24]}]
        timeout: seconds each step waits for the person's Next
        window: act on this window (id, title part or process) in this call; None: the Desktop's
        """
        return await self._do(lambda: self.desktop.teach_batch(steps=steps, timeout=timeout, window=window))

    async def teach_step(
        self,
        id: int | str | None = None,
        *,
        text: str,
        rect: list[int] | None = None,
        timeout: float = 60.0,
        window: str | None = None,
    ) -> TeachResult:
        """`Desktop.teach_step`, awaited.

        Show the person one step: ring an element (by id) or an area (--rect), show the text
        with a Next button, and wait until they click Next (or Stop) or the timeout passes.

        Needs `winctl request-teach-access` first. The result says `next`, `stopped` or `timeout`.

        `winctl teach-step`. Parameters:

        text: what the person should look at or do
        id: the element to highlight: its id, or a name the window shows
        rect: or the area to highlight: x y width height on screen
        timeout: seconds to wait for the person's Next
        window: act on this window (id, title part or process) in this call; None: the Desktop's
        """
        return await self._do(
            lambda: self.desktop.teach_step(id=id, text=text, rect=rect, timeout=timeout, window=window)
        )

    async def type(
        self,
        text: str,
        *,
        window: str | None = None,
        return_state: bool = False,
        max_elements: int | None = None,
    ) -> ActionResult:
        """`Desktop.type`, awaited.

        Type text into the focused element of the window (any Unicode); a long text is pasted
        (WINCTL_PASTE_OVER).

        `winctl type`. Parameters:

        text: text typed into whatever has keyboard focus
        window: act on this window (id, title part or process) in this call; None: the Desktop's
        return_state: also return the new state, and in `changes` what changed since the state seen last
        max_elements: with --return-state: list at most this many changes and say how many were left out
        """
        return await self._do(
            lambda: self.desktop.type(text=text, window=window, return_state=return_state, max_elements=max_elements)
        )

    async def type_into_element(
        self,
        text: str,
        *,
        name: str | None = None,
        type: str | None = None,
        automation_id: str | None = None,
        partial: bool = False,
        window: str | None = None,
        return_state: bool = False,
        max_elements: int | None = None,
    ) -> ActionResult:
        """`Desktop.type_into_element`, awaited.

        Set the text of the one element matching a selector: `winctl type-into-element --name Search "hi"`.

        `winctl type-into-element`. Parameters:

        name: the element's name (exact; a substring with --partial)
        type: control type, e.g. Button, Edit, CheckBox (case-insensitive)
        automation_id: the platform's automation id
        partial: match the name as a case-insensitive substring
        text: the text to put in the element (replaces its text)
        window: act on this window (id, title part or process) in this call; None: the Desktop's
        return_state: also return the new state, and in `changes` what changed since the state seen last
        max_elements: with --return-state: list at most this many changes and say how many were left out
        """
        return await self._do(
            lambda: self.desktop.type_into_element(
                text=text,
                name=name,
                type=type,
                automation_id=automation_id,
                partial=partial,
                window=window,
                return_state=return_state,
                max_elements=max_elements,
            )
        )

    async def verify_location(
        self,
        target: str,
        at: Box,
        *,
        thumbnail: str | None = None,
        reliable: float = 0.8,
    ) -> VerifyResult:
        """`Desktop.verify_location`, awaited.

        Is `target`, located at `at` (with the `thumbnail` its locate returned), still there?
        `result.verification.still_there`, and `.reason` says why.
        """
        return await self._do(
            lambda: self.desktop.verify_location(target=target, at=at, thumbnail=thumbnail, reliable=reliable)
        )

    async def wait(
        self,
        seconds: float | None = None,
        *,
        visible: int | None = None,
        enabled: int | None = None,
        gone: int | None = None,
        text: str | None = None,
        gone_text: str | None = None,
        window_shown: str | None = None,
        window_gone: str | None = None,
        timeout: float = 10.0,
        window: str | None = None,
    ) -> WaitResult:
        """`Desktop.wait`, awaited.

        Wait some seconds, or until an element is visible, enabled or gone, a text shows in (or
        leaves) the window's elements, or a window shows (or goes).

        `winctl wait`. Parameters:

        seconds: just wait this long
        visible: wait until this element is on screen
        enabled: wait until this element is enabled
        gone: wait until this element no longer exists
        text: wait until an element's name or value holds this text (any case)
        gone_text: wait until no element of the window shows this text
        window_shown: until a window with this title part or id is open (it becomes the session's)
        window_gone: until no window with this title part or id is open (`current`: the session's)
        timeout: seconds before giving up
        window: act on this window (id, title part or process) in this call; None: the Desktop's
        """
        return await self._do(
            lambda: self.desktop.wait(
                seconds=seconds,
                visible=visible,
                enabled=enabled,
                gone=gone,
                text=text,
                gone_text=gone_text,
                window_shown=window_shown,
                window_gone=window_gone,
                timeout=timeout,
                window=window,
            )
        )

    async def windows(
        self,
    ) -> list[WindowInfo]:
        """`Desktop.windows`, awaited.

        The desktop's top-level windows.
        """
        return await self._do(lambda: self.desktop.windows())

    async def zoom(
        self,
        x: int,
        y: int,
        width: int,
        height: int,
        *,
        scale: float = 2.0,
        path: str | None = None,
        force: bool = False,
        window: str | None = None,
    ) -> ScreenshotResult:
        """`Desktop.zoom`, awaited.

        A close-up of part of the screen, enlarged (small icons, dense text).

        `winctl zoom`. Parameters:

        x: left of the area (screen pixels)
        y: top of the area
        width: width of the area
        height: height of the area
        scale: enlargement
        path: where to save the PNG
        force: replace an existing file that is not a PNG
        window: act on this window (id, title part or process) in this call; None: the Desktop's
        """
        return await self._do(
            lambda: self.desktop.zoom(
                x=x, y=y, width=width, height=height, scale=scale, path=path, force=force, window=window
            )
        )


__all__ = ["AsyncDesktop"]
