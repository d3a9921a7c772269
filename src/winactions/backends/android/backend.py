"""The Android backend: uiautomator for the tree, `input` for touches and keys, `screencap`
for pixels, all over adb.

A phone shows one screen: the session's "window" is that screen, titled by the app and
activity in front. Semantic operations are touches at the element (a phone has no
accessibility actions reachable from adb), said honestly in each result's `via`.
Everything here is decisions over `adb.Device`; the device-facing layer stays in adb.py.
"""

from __future__ import annotations

import dataclasses
import io
import re
import time
from collections.abc import Sequence
from types import MappingProxyType

from PIL import Image, UnidentifiedImageError

from winactions import settings
from winactions.backends.android import adb, hierarchy, keymap, text
from winactions.backends.android.source import NoTree, TreeSource, UiautomatorDump
from winactions.backends.base import AppRef, Backend, Capability, Key, MouseButton, WindowAction
from winactions.errors import (
    ActionFailed,
    BackendUnavailable,
    InvalidInput,
    NotFound,
    StaleElement,
    Unsupported,
    shown,
)
from winactions.keys import Chord
from winactions.model import Node, Operation, Rect, Snapshot, WindowInfo

HOME_PAUSE = 0.6  # the first HOME may only reach the app's own home; wait, press again
REFRESH_TRUST = 1.0  # seconds a dump answers `refresh` when nothing was sent to the phone since
FOCUS = re.compile(r"mCurrentFocus=Window\{\S+ \S+ ([\w.]+)/([\w.$]+)\}")
FOCUSED_APP = re.compile(r"mFocusedApp=\S*\{\S+ \S+ ([\w.]+)/([\w.$]+)")
SIZE = re.compile(r"(Physical|Override) size: (\d+)x(\d+)")
ACTIVITY = re.compile(r"^Activity: (\S+)", re.MULTILINE)  # `am start -W`: the activity that opened
DENSITY = re.compile(r"(Physical|Override) density: (\d+)")
BASE_DPI = 160  # Android's "mdpi": one density-independent pixel is one screen pixel there
SCROLL_NOTCH = 0.1  # a wheel notch is a swipe over a tenth of the element's height (three = 30 %)
LACKS = {
    Capability.POINTER: "a phone has no mouse pointer to hover, hold or move (use tap, long-press and swipe)",
    Capability.HOLD_KEY: "adb cannot hold a phone's keys down",
    Capability.WINDOW_MANAGE: "a phone shows one app at a time: its windows cannot be moved or resized",
    Capability.BOUND_WINDOW: "a phone takes input only on its screen, not in the background",
    Capability.CLIPBOARD: "Android lets only the app in front read the clipboard, not adb",
}


class AndroidBackend(Backend):
    platform = "android"
    capabilities = frozenset({Capability.DEVICE})
    key_names = MappingProxyType(keymap.KEY_NAMES)
    one_screen = True

    def __init__(self, live: bool = False, serial: str | None = None, tree_source: TreeSource | None = None) -> None:
        del live  # every read is a fresh dump; nothing is kept between calls but a short-lived copy
        entry = adb.choose(serial or settings.DEVICE.read())
        self.serial = entry.serial
        self.model = entry.model
        self.device = adb.Device(entry.serial)
        self.source = tree_source or UiautomatorDump(self.shell)
        self._size: tuple[int, int] | None = None
        self._density: float | None = None  # 0.0 once the device said none
        self._rotation = 0
        self._cache: tuple[float, dict[str, Node]] | None = None

    def lacks(self, capability: Capability) -> str:
        return LACKS.get(capability, super().lacks(capability))

    # -- the device's shell ------------------------------------------------------------------
    def shell(self, argv: list[str]) -> str:
        try:
            return self.device.shell(argv)
        except adb.AdbError as exc:
            raise self._lost(exc) from None

    def _shell_bytes(self, argv: list[str]) -> bytes:
        try:
            return self.device.shell_bytes(argv)
        except adb.AdbError as exc:
            raise self._lost(exc) from None

    def _lost(self, exc: adb.AdbError) -> BackendUnavailable:
        state = self.device.state() or "gone"
        return BackendUnavailable(
            f"device {self.serial} is {state} ({exc})",
            hint="reconnect it (`adb reconnect`, replug the cable), then run `winctl devices`",
        )

    def _act(self, argv: list[str]) -> str:
        """A command that changes the screen: what was read before is no longer trusted."""
        self._cache = None
        out = self.shell(argv)
        if "Exception" in out or out.startswith(("Error", "error:")):
            raise ActionFailed(
                f"`{' '.join(argv[:2])}` failed on the phone: {out.strip()[:200]}",
                hint="run `winctl state` to see the screen",
            )
        return out

    # -- the screen as the session's window ----------------------------------------------------
    def _screen_size(self) -> tuple[int, int]:
        if self._size is None:
            sizes = {kind: (int(w), int(h)) for kind, w, h in SIZE.findall(self.shell(["wm", "size"]))}
            size = sizes.get("Override") or sizes.get("Physical")
            if size is None:
                raise BackendUnavailable(
                    f"device {self.serial} did not say its screen size (`wm size`)",
                    hint="is it fully booted? `adb shell wm size`",
                )
            self._size = size
        w, h = self._size
        return (h, w) if self._rotation % 2 else (w, h)

    def density(self, window: WindowInfo | None) -> float | None:
        """The screen's DPI over 160 (`wm density`; its override when the user set one): a
        reference captured on a 420 dpi phone is drawn 480 / 420 times as large on a 480 dpi one."""
        if self._density is None:
            dpis = {kind: int(dpi) for kind, dpi in DENSITY.findall(self.shell(["wm", "density"]))}
            dpi = dpis.get("Override") or dpis.get("Physical")
            self._density = dpi / BASE_DPI if dpi else 0.0
        return self._density or None

    def foreground(self) -> tuple[str, str]:
        """(package, activity) of the app in front."""
        out = self.shell(["dumpsys", "window"])
        match = FOCUS.search(out) or FOCUSED_APP.search(out)
        return (match.group(1), match.group(2)) if match else ("", "")

    # -- which app (the access gate): the package in front owns the one screen ------------------
    def focused_app(self) -> AppRef:
        package, _activity = self.foreground()
        return AppRef(names=(package,) if package else (), window_id=f"android:{self.serial}")

    def app_at(self, x: int, y: int) -> AppRef:
        return self.focused_app()

    def app_of_window(self, window_id: str) -> AppRef:
        return self.focused_app()

    def app_of_element(self, handle: str) -> AppRef:
        return self.focused_app()

    def list_windows(self) -> list[WindowInfo]:
        package, activity = self.foreground()
        pid = self._pid(package) if package else None
        w, h = self._screen_size()
        title = f"{package}/{activity}" if package else f"{self.model or self.serial} (no app in front)"
        return [
            WindowInfo(
                id=f"android:{self.serial}",
                title=title,
                pid=pid,
                process=package,
                rect=Rect(left=0, top=0, right=w, bottom=h),
                active=True,
                app_class=package,
            )
        ]

    def _pid(self, package: str) -> int | None:
        out = self.shell(["pidof", package]).split()
        return int(out[0]) if out and out[0].isdigit() else None

    def window_action(self, window_id: str, action: WindowAction, rect: Rect | None = None) -> None:
        if action is WindowAction.ACTIVATE:
            return  # the screen is always in front
        if action is WindowAction.CLOSE:
            raise Unsupported(
                "a phone's screen cannot be closed", hint="leave the app with `winctl keys back` or `winctl go-home`"
            )
        raise Unsupported(LACKS[Capability.WINDOW_MANAGE], hint="nothing was done")

    def launch(self, command: Sequence[str]) -> int:
        """Start an app by package (its launcher activity) or by package/activity; returns
        the app's pid on the phone."""
        if len(command) != 1 or not re.fullmatch(r"[\w.]+(/[\w.$]+)?", command[0]):
            raise InvalidInput(
                f"on a phone, launch takes one package or package/activity, not {shown(' '.join(command))}",
                hint="e.g. `winctl launch com.android.settings` or `winctl launch com.android.settings/.Settings`",
            )
        package, _, activity = command[0].partition("/")
        if not self.shell(["pm", "path", package]).strip():
            raise NotFound(
                f"no app {shown(package)} is installed on {self.serial}",
                hint="`adb shell pm list packages` lists the installed packages",
            )
        if activity:
            out = self._act(["am", "start", "-W", "-n", command[0]])
            if "Error" in out:
                raise NotFound(
                    f"{command[0]} cannot be started: {out.strip().splitlines()[-1]}",
                    hint="check the activity name (`adb shell dumpsys package " + package + "`)",
                )
        else:
            out = self._act(["monkey", "-p", package, "-c", "android.intent.category.LAUNCHER", "1"])
            if "No activities found" in out:
                raise ActionFailed(f"{package} has no launcher activity", hint="start one by package/activity")
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            pid = self._pid(package)
            if pid is not None:
                return pid
            time.sleep(0.2)
        raise ActionFailed(f"{package} did not start", hint="it may have crashed: `adb logcat -b crash`")

    # -- the tree ------------------------------------------------------------------------------
    def snapshot(self, window: WindowInfo, *, max_nodes: int = 20000) -> Snapshot:
        started = time.perf_counter()
        w, h = self._screen_size()
        root = Node(
            handle="screen",
            parent=None,
            role="Window",
            native_role="screen",
            name=window.title,
            states=frozenset({"visible", "showing", "enabled"}),
            rect=Rect(left=0, top=0, right=w, bottom=h),
        )
        note = ""
        try:
            xml_text = self.source.dump()
        except NoTree:
            nodes = [root]
            note = (
                "this screen has no accessibility tree (a game or a canvas): read it from pixels with "
                "`winctl screenshot`, `winctl locate text:...` or `winctl --vision local state`"
            )
        else:
            try:
                raws = hierarchy.parse_dump(xml_text)
            except (ValueError, SyntaxError) as exc:
                raise ActionFailed(
                    f"the phone's hierarchy dump is not valid XML ({exc})", hint="run `winctl state` again"
                ) from None
            rotation = _rotation(xml_text)
            if rotation != self._rotation:
                self._rotation = rotation
                w, h = self._screen_size()
                root = dataclasses.replace(root, rect=Rect(left=0, top=0, right=w, bottom=h))
            nodes = hierarchy.to_nodes(raws, root)
        truncated = len(nodes) > max_nodes
        if truncated:
            note = f"read {max_nodes:,} of {len(nodes):,} elements (raise WINCTL_MAX_NODES)"
            nodes = nodes[:max_nodes]
        self._cache = (time.monotonic(), {n.handle: n for n in nodes})
        return Snapshot(
            nodes=nodes, truncated=truncated, truncation=note, elapsed_ms=(time.perf_counter() - started) * 1000
        )

    def _nodes(self) -> dict[str, Node]:
        if self._cache is None or time.monotonic() - self._cache[0] > REFRESH_TRUST:
            package, activity = self.foreground()
            self.snapshot(WindowInfo(id=f"android:{self.serial}", title=f"{package}/{activity}"))
        assert self._cache is not None
        return self._cache[1]

    def refresh(self, handle: str) -> Node | None:
        node = self._nodes().get(handle)
        if node is None:
            return None
        return dataclasses.replace(node, parent=None)

    def _node(self, handle: str) -> Node:
        node = self._nodes().get(handle)
        if node is None:
            raise StaleElement("the element is gone from the phone's screen", hint="run `winctl state`")
        return node

    def _visible_centre(self, node: Node) -> tuple[int, int]:
        w, h = self._screen_size()
        rect = node.rect.intersect(Rect(left=0, top=0, right=w, bottom=h)) if node.rect else None
        if rect is None:
            raise ActionFailed(f'"{node.name}" is off the screen', hint="scroll it into view, then `winctl state`")
        return rect.center

    def perform(self, handle: str, operation: Operation, argument: str | float | None = None) -> str:
        node = self._node(handle)
        if operation not in node.operations:
            raise ActionFailed(f"a {node.native_role.rsplit('.', 1)[-1]} cannot {operation.value}")
        if operation in (Operation.INVOKE, Operation.TOGGLE, Operation.SELECT, Operation.FOCUS):
            x, y = self._visible_centre(node)
            self._act(["input", "tap", str(x), str(y)])
            return f"tap ({'clickable' if operation is Operation.INVOKE else operation.value})"
        if operation is Operation.SET_TEXT:
            return self._set_text(node, str(argument or ""))
        if operation is Operation.SCROLL:
            direction, _, amount = str(argument or "down:3").partition(":")
            return self._scroll_inside(node, direction, int(amount or 3))
        raise ActionFailed(f"{operation.value} is not something adb can do to a phone's element")

    def _set_text(self, node: Node, value: str) -> str:
        """Focus the edit with a tap, clear it (cursor to the end, then delete what it holds),
        and type the new text."""
        x, y = self._visible_centre(node)
        self._act(["input", "tap", str(x), str(y)])
        held = len(node.value or "") if "protected" not in node.states else 64
        if held:
            self._act(["input", "keyevent", "KEYCODE_MOVE_END"])
            for start in range(0, held, 50):
                self._act(["input", "keyevent", *["KEYCODE_DEL"] * min(50, held - start)])
        how = text.type_text(self._act, value) if value else "nothing to type"
        return f"tap, clear, {how}"

    def _scroll_inside(self, node: Node, direction: str, amount: int) -> str:
        if node.rect is None:
            raise ActionFailed("the element has no place on the screen to swipe in")
        w, h = self._screen_size()
        rect = node.rect.intersect(Rect(left=0, top=0, right=w, bottom=h))
        if rect is None:
            raise ActionFailed("the element is off the screen", hint="run `winctl state`")
        cx, cy = rect.center
        reach = min(0.8, SCROLL_NOTCH * amount)
        dx = int(rect.width * reach / 2) * {"left": -1, "right": 1}.get(direction, 0)
        dy = int(rect.height * reach / 2) * {"up": -1, "down": 1}.get(direction, 0)
        # content moves with the finger: to see what is below, the finger goes up
        self.swipe(cx + dx, cy + dy, cx - dx, cy - dy, duration=0.3)
        return "swipe inside the element"

    def read_text(self, handle: str) -> str:
        node = self._node(handle)
        if "protected" in node.states:
            raise ActionFailed(
                "the element is a password field: its text is never read", hint="type a new one with `winctl input`"
            )
        return node.value if node.value is not None and node.role == "Edit" else node.name

    # -- touches and keys -------------------------------------------------------------------------
    def _check(self, *points: tuple[int, int]) -> None:
        w, h = self._screen_size()
        for x, y in points:
            if not (0 <= x < w and 0 <= y < h):
                raise InvalidInput(f"({x}, {y}) is off the phone's {w}x{h} screen", hint="nothing was done")

    def click(
        self, x: int, y: int, button: MouseButton = MouseButton.LEFT, count: int = 1, modifiers: Sequence[Key] = ()
    ) -> None:
        if modifiers:
            raise Unsupported(
                f"a phone's tap cannot hold {'+'.join(modifiers)}: adb has no key held during a tap",
                hint="tap without modifiers; press key chords with `winctl keys`",
            )
        self._check((x, y))
        if button is MouseButton.RIGHT:
            self.long_press(x, y)
            return
        if button is MouseButton.MIDDLE:
            raise Unsupported("a phone has no middle button", hint="tap with `winctl click-at X Y`")
        for _ in range(count):
            self._act(["input", "tap", str(x), str(y)])

    def long_press(self, x: int, y: int, seconds: float = 0.8) -> None:
        self.swipe(x, y, x, y, duration=seconds)  # a swipe that does not move is a long press

    def swipe(self, x1: int, y1: int, x2: int, y2: int, duration: float = 0.3) -> None:
        self._check((x1, y1), (x2, y2))
        self._act(["input", "swipe", str(x1), str(y1), str(x2), str(y2), str(max(1, int(duration * 1000)))])

    def drag(
        self, x1: int, y1: int, x2: int, y2: int, *, button: MouseButton = MouseButton.LEFT, duration: float = 0.3
    ) -> None:
        self.swipe(x1, y1, x2, y2, duration=max(duration, 0.3))

    def scroll(self, x: int, y: int, dx: int, dy: int) -> None:
        w, h = self._screen_size()
        self._check((x, y))
        # the swipe is centred on the point, shortened where the screen's edge is near
        reach_x = min(int(w * min(0.4, SCROLL_NOTCH * abs(dx) / 2)), x, w - 1 - x) * (1 if dx > 0 else -1)
        reach_y = min(int(h * min(0.4, SCROLL_NOTCH * abs(dy) / 2)), y, h - 1 - y) * (1 if dy > 0 else -1)
        self.swipe(x + reach_x, y + reach_y, x - reach_x, y - reach_y, duration=0.3)

    def press_chords(self, chords: Sequence[Chord]) -> None:
        """Plain keys go in one `input keyevent` call; a chord with modifiers is an
        `input keycombination` (Android 13 and later)."""
        plain: list[str] = []
        for chord in chords:
            codes = keymap.chord_codes(chord)
            if len(codes) == 1:
                plain.append(codes[0])
                continue
            if plain:
                self._act(["input", "keyevent", *plain])
                plain = []
            self._act(["input", "keycombination", *codes])
        if plain:
            self._act(["input", "keyevent", *plain])

    def go_home(self) -> str:
        self._act(["input", "keyevent", "KEYCODE_HOME"])
        time.sleep(HOME_PAUSE)
        self._act(["input", "keyevent", "KEYCODE_HOME"])
        time.sleep(HOME_PAUSE)
        return "KEYCODE_HOME twice"

    def open_url(self, url: str) -> str:
        """An Android VIEW intent for the URL (`am start -W -a android.intent.action.VIEW -d URL`):
        the app the phone chose for its scheme opens it (a browser, the dialer for tel:)."""
        out = self._act(["am", "start", "-W", "-a", "android.intent.action.VIEW", "-d", url])
        if "unable to resolve Intent" in out:
            scheme = url.split(":", 1)[0].lower()
            raise Unsupported(f"no app on {self.serial} opens {scheme}: URLs", hint="nothing was done")
        if "Error" in out:
            raise ActionFailed(f"the phone could not open {shown(url)}: {out.strip().splitlines()[-1]}")
        activity = ACTIVITY.search(out)
        return "VIEW intent" + (f" → {activity.group(1)}" if activity else "")

    def type_text(self, text_: str) -> None:
        self._cache = None
        text.type_text(self._act, text_)

    def mouse_move(self, x: int, y: int) -> None:
        raise Unsupported(LACKS[Capability.POINTER])

    def mouse_button(self, button: MouseButton, down: bool) -> None:
        raise Unsupported(LACKS[Capability.POINTER])

    def hold_keys(self, chords: Sequence[Chord], seconds: float) -> None:
        raise Unsupported(LACKS[Capability.HOLD_KEY])

    def cursor_position(self) -> tuple[int, int]:
        raise Unsupported(LACKS[Capability.POINTER])

    def get_clipboard(self) -> str:
        raise Unsupported(LACKS[Capability.CLIPBOARD])

    def set_clipboard(self, text_: str) -> None:
        raise Unsupported(LACKS[Capability.CLIPBOARD])

    # -- pixels ------------------------------------------------------------------------------------
    def screens(self) -> list[Rect]:
        w, h = self._screen_size()
        return [Rect(left=0, top=0, right=w, bottom=h)]

    def capture(self, rect: Rect) -> Image.Image:
        data = self._shell_bytes(["screencap", "-p"])
        try:
            with Image.open(io.BytesIO(data)) as png:
                image = png.convert("RGB")
        except (UnidentifiedImageError, OSError):
            raise ActionFailed(
                f"screencap did not return a picture: {data[:120]!r}",
                hint="the screen may be secure (FLAG_SECURE) or off; wake it with `winctl keys wakeup`",
            ) from None
        if (rect.left, rect.top, rect.right, rect.bottom) != (0, 0, *image.size):
            image = image.crop((rect.left, rect.top, rect.right, rect.bottom))
        return image

    def alive(self) -> bool:
        return self.device.state() == "device"


def _rotation(xml_text: str) -> int:
    match = re.search(r'<hierarchy[^>]*rotation="(\d)"', xml_text[:300])
    return int(match.group(1)) if match else 0
