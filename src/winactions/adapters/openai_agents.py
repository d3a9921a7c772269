"""winactions as the computer of the OpenAI Agents SDK's `ComputerTool`.

    from agents import Agent, ComputerTool, Runner
    from winactions import Desktop
    from winactions.adapters.openai_agents import WinactionsComputer

    with Desktop("agent") as desktop:
        agent = Agent(name="desk", tools=[ComputerTool(WinactionsComputer(desktop))])
        Runner.run_sync(agent, "Write hello in Mousepad")

Each method the Runner calls is one or a few commands of the table, run on a `Desktop`
(`AsyncWinactionsComputer`: on an `AsyncDesktop`): `screenshot` is `screenshot --screen` as
base64 PNG; `click` and `double_click` are `click-at` (button `wheel` is the middle one; `back`
and `forward` are refused); `move` is `mouse-move`; `scroll` is `scroll-at`, a wheel notch
per `notch` pixels of `scroll_x`/`scroll_y` (at least one); `type` is `type`; `keypress` is
`keys`, the keys pressed together as one chord (the SDK's names — "CTRL", "ENTER",
"ArrowLeft" — read by `winactions.keys`); `drag` is `drag-at` for two points and
`mouse-down`, `mouse-move`..., `mouse-up` for more; `wait` is `wait` for `wait_seconds`.
Modifier keys the model holds during a mouse action (the SDK's `keys`) are `click-at
--modifiers`, or `key-down`...`key-up` around the others. Coordinates are screen pixels, the
screenshot's; `dimensions` is the screen's size, `environment` the platform's.

A bad action (a point off the screen, an unknown key or button) raises the command's
`WinctlError` with nothing done: the SDK's Runner re-raises a computer's exception, so the run
stops there with that error rather than going on as if the action had happened (its computer
call output can only carry a screenshot, never an error's text).
"""

from __future__ import annotations

import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

from winactions.adapters.actions import Step, arun_steps, check_points, png_base64, run_steps, screen_of
from winactions.api import Desktop
from winactions.api_async import AsyncDesktop
from winactions.errors import BackendUnavailable, InvalidInput
from winactions.keys import MODIFIERS, parse_keys
from winactions.model import Rect

try:
    from agents.computer import AsyncComputer, Button, Computer, Environment
except ImportError as exc:  # the extra is missing: say which one installs it
    raise BackendUnavailable(
        "winactions.adapters.openai_agents needs the OpenAI Agents SDK: agents is not installed",
        hint="pip install 'winactions[openai-agents]'",
    ) from exc

BUTTONS = {"left": "left", "right": "right", "wheel": "middle"}
_PUNCTUATION = {",": "comma", "+": "plus", " ": "Space"}  # keys the keys parser spells by name in a chord


def environment_of(platform: str = sys.platform) -> Environment:
    """The SDK's name for this platform: `windows`, `mac`, else `ubuntu` (any X11 desktop)."""
    return "windows" if platform == "win32" else "mac" if platform == "darwin" else "ubuntu"


def chord(keys: Sequence[str]) -> str:
    """The keys the SDK sends for one keypress (["CTRL", "SHIFT", "T"]) as one chord of the
    keys parser ("ctrl+shift+t"): pressed together, modifiers first. An unknown name is
    refused, with the names it may have meant."""
    if not keys:
        raise InvalidInput("keypress with no keys; nothing was done", hint='keys like ["CTRL", "S"] or ["ENTER"]')
    return str(parse_keys("+".join(_PUNCTUATION.get(k, k) for k in keys))[0])


class Actions:
    """The SDK's computer actions as steps (commands of the table), checked before any runs.
    `screen` bounds the points a drag passes through (each command checks its own point);
    `notch`: pixels of scroll per wheel notch; `wait_seconds`: what `wait` waits; `shot`: the
    file each screenshot is written to (replaced each time)."""

    def __init__(self, screen: Rect, shot: Path, notch: int = 100, wait_seconds: float = 1.0) -> None:
        if notch < 1:
            raise InvalidInput(f"notch is pixels per wheel notch, at least 1, not {notch}")
        self.screen, self.shot, self.notch, self.wait_seconds = screen, shot, notch, wait_seconds

    def screenshot(self) -> list[Step]:
        return [Step("screenshot", {"path": str(self.shot), "screen": True})]

    def click(self, x: int, y: int, button: str, keys: list[str] | None, count: int = 1) -> list[Step]:
        if button not in BUTTONS:
            raise InvalidInput(
                f"click with the {button!r} button is not offered; nothing was done",
                hint="buttons: left, right, wheel (the middle one); for back and forward press alt+Left, alt+Right",
            )
        held = self._modifiers(keys)
        args = {"x": x, "y": y, "button": BUTTONS[button], "count": count}
        return [Step("click-at", args | ({"modifiers": held.split("+")} if held else {}))]

    def move(self, x: int, y: int, keys: list[str] | None) -> list[Step]:
        return self._holding(keys, [Step("mouse-move", {"x": x, "y": y})])

    def scroll(self, x: int, y: int, scroll_x: int, scroll_y: int, keys: list[str] | None) -> list[Step]:
        turns = [
            Step("scroll-at", {"x": x, "y": y, "direction": way, "amount": max(1, abs(amount) // self.notch)})
            for amount, way in (
                (scroll_y, "down" if scroll_y > 0 else "up"),
                (scroll_x, "right" if scroll_x > 0 else "left"),
            )
            if amount
        ]
        if not turns:
            raise InvalidInput("scroll by 0 and 0 turns nothing; nothing was done", hint="scroll_y=300 scrolls down")
        return self._holding(keys, turns)

    def type(self, text: str) -> list[Step]:
        return [Step("type", {"text": text})]

    def keypress(self, keys: Sequence[str]) -> list[Step]:
        return [Step("keys", {"keys": chord(keys)})]

    def wait(self) -> list[Step]:
        return [Step("wait", {"seconds": self.wait_seconds})]

    def drag(self, path: Sequence[tuple[int, int]], keys: list[str] | None) -> list[Step]:
        points = list(path)
        if len(points) < 2:
            raise InvalidInput(f"a drag needs a path of 2 points or more, not {len(points)}; nothing was done")
        check_points(self.screen, points, "drag")
        if len(points) == 2:
            (x1, y1), (x2, y2) = points
            return self._holding(keys, [Step("drag-at", {"x1": x1, "y1": y1, "x2": x2, "y2": y2})])
        (x0, y0), *between, (xn, yn) = points
        moves = [Step("mouse-move", {"x": x, "y": y}) for x, y in between]
        steps = [Step("mouse-down", {"x": x0, "y": y0}), *moves, Step("mouse-up", {"x": xn, "y": yn})]
        return self._holding(keys, steps)

    def _modifiers(self, keys: list[str] | None) -> str:
        """The held keys as modifiers in their usual order ("ctrl+shift"); "" for none."""
        if not keys:
            return ""
        held = parse_keys("+".join(keys))
        if len(held) != 1 or held[0].key not in MODIFIERS:
            raise InvalidInput(
                f"keys held during a mouse action are modifiers, not {keys}; nothing was done",
                hint='e.g. keys=["SHIFT"] or ["CTRL", "ALT"]',
            )
        return "+".join(sorted({*held[0].modifiers, held[0].key}, key=MODIFIERS.index))

    def _holding(self, keys: list[str] | None, steps: list[Step]) -> list[Step]:
        held = self._modifiers(keys)
        return [Step("key-down", {"keys": held}), *steps, Step("key-up", {"keys": held})] if held else steps


class WinactionsComputer(Computer):
    """The OpenAI Agents SDK's `Computer` on a winactions `Desktop` (see the module's doc)."""

    def __init__(self, desktop: Desktop, *, notch: int = 100, wait_seconds: float = 1.0) -> None:
        self.desktop = desktop
        self._screen = screen_of(desktop.call("displays"))
        self._folder = tempfile.TemporaryDirectory(prefix="winactions-computer-")
        self.actions = Actions(self._screen, Path(self._folder.name) / "screen.png", notch, wait_seconds)

    @property
    def environment(self) -> Environment:
        return environment_of()

    @property
    def dimensions(self) -> tuple[int, int]:
        return self._screen.width, self._screen.height

    def screenshot(self) -> str:
        return png_base64(run_steps(self.desktop, self.actions.screenshot()))

    def click(self, x: int, y: int, button: Button = "left", *, keys: list[str] | None = None) -> None:
        run_steps(self.desktop, self.actions.click(x, y, button, keys))

    def double_click(self, x: int, y: int, *, keys: list[str] | None = None) -> None:
        run_steps(self.desktop, self.actions.click(x, y, "left", keys, count=2))

    def scroll(self, x: int, y: int, scroll_x: int, scroll_y: int, *, keys: list[str] | None = None) -> None:
        run_steps(self.desktop, self.actions.scroll(x, y, scroll_x, scroll_y, keys))

    def type(self, text: str) -> None:
        run_steps(self.desktop, self.actions.type(text))

    def wait(self) -> None:
        run_steps(self.desktop, self.actions.wait())

    def move(self, x: int, y: int, *, keys: list[str] | None = None) -> None:
        run_steps(self.desktop, self.actions.move(x, y, keys))

    def keypress(self, keys: list[str]) -> None:
        run_steps(self.desktop, self.actions.keypress(keys))

    def drag(self, path: list[tuple[int, int]], *, keys: list[str] | None = None) -> None:
        run_steps(self.desktop, self.actions.drag(path, keys))


class AsyncWinactionsComputer(AsyncComputer):
    """The SDK's `AsyncComputer` on an `AsyncDesktop`; make it with `await
    AsyncWinactionsComputer.open(desktop)` (which reads the screen's size)."""

    def __init__(self, desktop: AsyncDesktop, screen: Rect, *, notch: int = 100, wait_seconds: float = 1.0) -> None:
        self.desktop = desktop
        self._screen = screen
        self._folder = tempfile.TemporaryDirectory(prefix="winactions-computer-")
        self.actions = Actions(screen, Path(self._folder.name) / "screen.png", notch, wait_seconds)

    @classmethod
    async def open(
        cls, desktop: AsyncDesktop, *, notch: int = 100, wait_seconds: float = 1.0
    ) -> AsyncWinactionsComputer:
        """The computer on `desktop`, the screen's size read once."""
        screen = screen_of(await desktop.call("displays"))
        return cls(desktop, screen, notch=notch, wait_seconds=wait_seconds)

    @property
    def environment(self) -> Environment:
        return environment_of()

    @property
    def dimensions(self) -> tuple[int, int]:
        return self._screen.width, self._screen.height

    async def screenshot(self) -> str:
        return png_base64(await arun_steps(self.desktop, self.actions.screenshot()))

    async def click(self, x: int, y: int, button: Button = "left", *, keys: list[str] | None = None) -> None:
        await arun_steps(self.desktop, self.actions.click(x, y, button, keys))

    async def double_click(self, x: int, y: int, *, keys: list[str] | None = None) -> None:
        await arun_steps(self.desktop, self.actions.click(x, y, "left", keys, count=2))

    async def scroll(self, x: int, y: int, scroll_x: int, scroll_y: int, *, keys: list[str] | None = None) -> None:
        await arun_steps(self.desktop, self.actions.scroll(x, y, scroll_x, scroll_y, keys))

    async def type(self, text: str) -> None:
        await arun_steps(self.desktop, self.actions.type(text))

    async def wait(self) -> None:
        await arun_steps(self.desktop, self.actions.wait())

    async def move(self, x: int, y: int, *, keys: list[str] | None = None) -> None:
        await arun_steps(self.desktop, self.actions.move(x, y, keys))

    async def keypress(self, keys: list[str]) -> None:
        await arun_steps(self.desktop, self.actions.keypress(keys))

    async def drag(self, path: list[tuple[int, int]], *, keys: list[str] | None = None) -> None:
        await arun_steps(self.desktop, self.actions.drag(path, keys))


__all__ = ["Actions", "AsyncWinactionsComputer", "WinactionsComputer", "chord", "environment_of"]
