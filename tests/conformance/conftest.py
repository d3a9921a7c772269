"""One backend contract: the same situation gives the same outcome on every backend.

Each backend is driven by a `Driver`: it runs real `winctl` command lines (in-process, the
same `main()` the console script calls) against a real app (Linux: GTK apps on the test
desktop) or a fake of the platform's thin native layer (Windows), and reads "the app's own
view" — what really reached the app — independently of what winctl says about itself.

The tests in this package take the `driver` fixture and run once per backend. To add a
backend (Android against its fake device), write one more `Driver` and add its name to
`BACKENDS`: the tests name elements by role in the situation ("button", "password", ...),
never by platform.
"""

from __future__ import annotations

import json
import time
from abc import ABC, abstractmethod
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

import pytest

from tests.conftest import run_in_process
from winactions.model import Rect

BACKENDS = ("linux", "windows", "android")
Elements = dict[str, tuple[str, str, str | None]]  # a role -> (window title, type, name)

# The equivalent elements every driver provides, by the part they play in a situation.
ROLES = {
    "button": "a push button that reacts when pressed",
    "edit": "a single-line text field",
    "combo": "a combo box with the options Red, Green and Blue",
    "password": 'a password field named "Secret" holding text',
    "label": "a static text (a label): it neither scrolls nor takes text",
    "list": "a list or table with more rows than it shows, which scrolls",
}


@dataclass
class Outcome:
    """One winctl call: its exit code, what it printed, and the parsed JSON when it was --json."""

    code: int
    out: str
    err: str

    @property
    def json(self) -> Any:
        return json.loads(self.out)

    @property
    def error(self) -> dict[str, str]:
        return self.json["error"]


def run_winctl(args: tuple[str, ...], env: dict[str, str]) -> Outcome:
    run = run_in_process(args, env)
    return Outcome(run.code, run.out, run.err)


class Driver(ABC):
    """A backend under the contract: winctl calls in, the app's own account out."""

    name: str
    # which window holds each equivalent element, and its (type, name) in `winctl state`
    elements: ClassVar[Elements]

    def __init__(self, runtime: Path) -> None:
        self.runtime = runtime
        runtime.mkdir(mode=0o700, parents=True, exist_ok=True)

    # -- winctl ------------------------------------------------------------------------------
    @abstractmethod
    def env(self) -> dict[str, str]: ...

    def run(self, *args: str) -> Outcome:
        return run_winctl(args, {**self.env(), "XDG_RUNTIME_DIR": str(self.runtime)})

    def ok(self, *args: str) -> Outcome:
        done = self.run(*args)
        assert done.code == 0, f"[{self.name}] winctl {' '.join(args)} -> {done.code}\n{done.out}\n{done.err}"
        return done

    def state(self) -> dict[str, Any]:
        return self.ok("--json", "state", "--verbose").json["result"]

    def focus(self, role: str) -> None:
        self.ok("focus", self.elements[role][0])

    def target(self, role: str) -> dict[str, Any]:
        """The equivalent element playing `role`, in a fresh state of its window (now the
        session's window)."""
        title, type_, name = self.elements[role]
        self.ok("focus", title)
        state = self.state()
        for t in state["targets"]:
            if t["type"] == type_ and (name is None or t["name"] == name):
                return t
        listing = ", ".join(f"{t['type']} {t['name']!r}" for t in state["targets"])
        raise AssertionError(f"[{self.name}] no {type_} {name!r} for {role!r} in: {listing}")

    def use(self, role: str) -> str:
        return str(self.target(role)["id"])

    # -- the app's own view ---------------------------------------------------------------------
    @abstractmethod
    def mark(self) -> Any:
        """A point in the app's record; `reached(mark)` lists what reached the app after it."""

    @abstractmethod
    def reached(self, mark: Any) -> list[Any]:
        """Everything that reached any app since `mark`: presses, text, keys, selections."""

    @abstractmethod
    def scrolled(self, mark: Any) -> bool:
        """Did the scrolling list's content move since `mark`?"""

    @abstractmethod
    def pointer(self) -> tuple[int, int]:
        """Where the real pointer is now (the platform's account, not winctl's)."""

    @abstractmethod
    def wheel_turned(self, mark: Any) -> bool:
        """Did a wheel event go out since `mark` (to anything)?"""

    @abstractmethod
    def text_of(self, role: str) -> str:
        """The element's text as the app holds it."""

    @abstractmethod
    def remove_after_state(self, role: str) -> str:
        """Take a state listing an element of the kind `role`, then make the app remove that
        element; returns its (now stale) id."""

    @abstractmethod
    def window_bounds(self, state: dict[str, Any]) -> Rect:
        """The whole window as the platform sees it (frame included where the app's tree
        includes the frame's controls: a Windows title bar)."""

    @abstractmethod
    def lacking(self, monkeypatch: pytest.MonkeyPatch) -> tuple[tuple[str, ...], str]:
        """A command line whose capability the backend lacks (reduced for the test where the
        backend has them all), and the capability's name."""


# -- Linux: real GTK apps on the test desktop --------------------------------------------------------
FIXTURE_TITLE = "Conformance Fixture"
HOSTILE_TITLE = "Conformance Hostile"


class LinuxApps:
    def __init__(self, desktop: Any, where: Path) -> None:
        from tests.conftest import SYSTEM_PYTHON, start_app
        from tests.fixtures.applog import AppLog
        from tests.fixtures.launch import HERE, gtk_fixture_command

        self.desktop = desktop
        self.fixture_log = AppLog(str(where / "fixture.jsonl"))
        self.hostile_log = AppLog(str(where / "hostile.jsonl"))
        self.procs = [
            start_app(
                desktop, gtk_fixture_command(str(self.fixture_log.path), rows=60, title=FIXTURE_TITLE), FIXTURE_TITLE
            ),
            start_app(
                desktop,
                [
                    SYSTEM_PYTHON,
                    str(HERE / "hostile_app.py"),
                    "--title",
                    HOSTILE_TITLE,
                    "--log",
                    str(self.hostile_log.path),
                ],
                HOSTILE_TITLE,
            ),
        ]

    def close(self) -> None:
        from tests.conftest import stop_app

        for proc in self.procs:
            stop_app(proc)


class LinuxDriver(Driver):
    name = "linux"
    elements: ClassVar[Elements] = {
        "button": (FIXTURE_TITLE, "Button", "Apply"),
        "edit": (FIXTURE_TITLE, "Edit", "Name"),
        "combo": (FIXTURE_TITLE, "ComboBox", None),
        "password": (HOSTILE_TITLE, "Edit", "Secret"),
        "label": (FIXTURE_TITLE, "Text", "Ready"),
        "list": (FIXTURE_TITLE, "Table", "Files"),
    }

    def __init__(self, runtime: Path, apps: LinuxApps) -> None:
        super().__init__(runtime)
        self.apps = apps

    def env(self) -> dict[str, str]:
        return dict(self.apps.desktop.env)

    def mark(self) -> tuple[int, int]:
        time.sleep(0.2)  # let what an earlier step caused reach the log first
        return self.apps.fixture_log.mark(), self.apps.hostile_log.mark()

    def reached(self, mark: tuple[int, int]) -> list[Any]:
        time.sleep(0.4)  # an event the app would log has had time to arrive
        return self.apps.fixture_log.events(since=mark[0]) + self.apps.hostile_log.events(since=mark[1])

    def scrolled(self, mark: tuple[int, int]) -> bool:
        try:
            self.apps.fixture_log.wait_for("scrolled", since=mark[0], timeout=3)
        except AssertionError:
            return False
        return True

    def pointer(self) -> tuple[int, int]:
        import subprocess

        out = subprocess.run(
            ["xdotool", "getmouselocation", "--shell"], env=self.env(), capture_output=True, text=True, check=True
        ).stdout
        values = dict(line.split("=", 1) for line in out.split())
        return int(values["X"]), int(values["Y"])

    def wheel_turned(self, mark: tuple[int, int]) -> bool:
        return self.scrolled(mark)  # only the table logs the wheel; the caller knows what it pointed at

    def text_of(self, role: str) -> str:
        raise NotImplementedError  # the GTK apps log text as they get it; see `typed`

    def remove_after_state(self, role: str) -> str:
        """The OK button of a dialog opened from the menu, then cancelled (destroyed)."""
        assert role == "button"
        self.ok("focus", FIXTURE_TITLE)
        self.ok("click", self.use_named("Menu", "File"))
        state = self.state()
        item = next(t for t in state["targets"] if t["type"] == "MenuItem" and "Dialog" in t["name"])
        mark = self.apps.fixture_log.mark()
        self.ok("click", str(item["id"]))
        self.apps.fixture_log.wait_for("dialog_opened", since=mark)
        time.sleep(0.3)
        dialog = self.state()
        ok = next(t["id"] for t in dialog["targets"] if t["type"] == "Button" and t["name"] == "OK")
        cancel = next(t["id"] for t in dialog["targets"] if t["type"] == "Button" and t["name"] == "Cancel")
        self.ok("click", str(cancel))
        self.apps.fixture_log.wait_for("dialog_response", since=mark, response="cancel")
        return str(ok)

    def use_named(self, type_: str, name: str) -> str:
        return str(next(t["id"] for t in self.state()["targets"] if t["type"] == type_ and t["name"] == name))

    def window_bounds(self, state: dict[str, Any]) -> Rect:
        w = state["window"]["rect"]  # the frame's own controls are openbox's, outside the app's tree
        return Rect(left=w["left"], top=w["top"], right=w["right"], bottom=w["bottom"])

    def lacking(self, monkeypatch: pytest.MonkeyPatch) -> tuple[tuple[str, ...], str]:
        return ("bind-window", "bind"), "bound_window"


# -- Windows: the real backend over the fake native layer ----------------------------------------------
class WindowsDriver(Driver):
    name = "windows"
    elements: ClassVar[Elements] = {
        "button": ("Settings", "Button", "Apply"),
        "edit": ("Settings", "Edit", "Name"),
        "combo": ("Settings", "ComboBox", "Color"),
        "password": ("Settings", "Edit", "Secret"),
        "label": ("Settings", "Text", "Ready"),
        "list": ("Settings", "List", "Items"),
    }

    def __init__(self, runtime: Path, fake: Any) -> None:
        super().__init__(runtime)
        self.fake = fake

    def env(self) -> dict[str, str]:
        return {"WINACTIONS_BACKEND": "windows"}

    def app(self, title: str = "Settings") -> Any:
        return next(a for a in self.fake.apps if a.title == title)

    def mark(self) -> tuple[int, int, int, dict[int, int]]:
        return (
            len(self.fake.pattern_calls),
            len(self.fake.sent),
            len(self.fake.posted),
            {a.hwnd: len(a.events) for a in self.fake.apps},
        )

    def reached(self, mark: tuple[int, int, int, dict[int, int]]) -> list[Any]:
        calls, sent, posted, events = mark
        found: list[Any] = list(self.fake.pattern_calls[calls:]) + list(self.fake.sent[sent:])
        found += self.fake.posted[posted:]
        for a in self.fake.apps:
            found += a.events[events.get(a.hwnd, 0) :]
        return found

    def scrolled(self, mark: tuple[int, int, int, dict[int, int]]) -> bool:
        items = self.fake.find(self.app(), AutomationId="itemList")
        moved = items["Patterns"]["Scroll"].get("VerticalScrollPercent", 0) != 0
        return moved and any(c[0] == "Scroll" for c in self.fake.pattern_calls[mark[0] :])

    def pointer(self) -> tuple[int, int]:
        return self.fake.cursor

    def wheel_turned(self, mark: tuple[int, int, int, dict[int, int]]) -> bool:
        return any("wheel" in getattr(e, "flags", ()) for e in self.fake.sent[mark[1] :])

    def text_of(self, role: str) -> str:
        _, _, name = self.elements[role]
        return str(self.fake.find(self.app(), Name=name)["Patterns"]["Value"]["Value"])

    def remove_after_state(self, role: str) -> str:
        """The element is taken out of the app's tree (a form that rebuilt its panel)."""
        found = self.use(role)
        _, _, name = self.elements[role]
        root = self.app().root
        root["children"] = [c for c in root["children"] if c.get("Name") != name]
        return found

    def window_bounds(self, state: dict[str, Any]) -> Rect:
        app = next(a for a in self.fake.apps if a.title == state["window"]["title"])
        return app.window_rect  # the title bar's buttons are in the tree, above the client area

    def lacking(self, monkeypatch: pytest.MonkeyPatch) -> tuple[tuple[str, ...], str]:
        from winactions.backends.base import Capability
        from winactions.backends.windows.backend import WindowsBackend

        monkeypatch.setattr(WindowsBackend, "capabilities", frozenset(Capability) - {Capability.HOLD_KEY})
        return ("hold-key", "shift", "0.1"), "hold_key"


# -- Android: the real backend and adb server, against the fake device replaying real dumps --------
class AndroidDriver(Driver):
    """The login screen of the WebdriverIO demo app (a real dump): a button, two edits (one a
    password), a tab label outside the scrolling form, and the form's scroll view. No dump of
    an open spinner with Red/Green/Blue was found, so there is no "combo" on this phone."""

    name = "android"
    elements: ClassVar[Elements] = {
        "button": ("com.wdiodemoapp", "Button", "button-LOGIN"),
        "edit": ("com.wdiodemoapp", "Edit", "input-email"),
        "password": ("com.wdiodemoapp", "Edit", "input-password"),
        "label": ("com.wdiodemoapp", "Text", "Web"),
        "list": ("com.wdiodemoapp", "ScrollPane", "Login-screen"),
    }

    def __init__(self, runtime: Path, server: Any, device: Any) -> None:
        super().__init__(runtime)
        self.server = server
        self.device = device

    def env(self) -> dict[str, str]:
        return {**self.server.env, "WINCTL_DEVICE": self.device.serial}

    def _touches(self, mark: int) -> list[list[str]]:
        return [c for c in self.device.state.commands[mark:] if c[:2] in (["input", "tap"], ["input", "swipe"])]

    def mark(self) -> int:
        return len(self.device.state.commands)

    def reached(self, mark: int) -> list[Any]:
        return [
            c
            for c in self.device.state.commands[mark:]
            if c and c[0] in ("input", "am", "ime", "monkey") and c[:2] != ["ime", "list"]
        ]

    def scrolled(self, mark: int) -> bool:
        """A swipe that starts and ends inside the scroll view, moving along it, scrolls it
        (Android hands the gesture to the innermost scrollable under the finger)."""
        _, _, name = self.elements["list"]
        rect = next(
            Rect(left=r[0], top=r[1], right=r[2], bottom=r[3])
            for t in self.state()["targets"]
            if t["name"] == name and (r := t["rect"])
        )
        for c in self._touches(mark):
            if c[1] == "swipe":
                x1, y1, x2, y2 = (int(v) for v in c[2:6])
                if rect.contains(x1, y1) and rect.contains(x2, y2) and abs(y2 - y1) > 20:
                    return True
        return False

    def pointer(self) -> tuple[int, int]:
        """Where the last touch was (a phone has no pointer: the finger's middle)."""
        last = self._touches(0)[-1]
        if last[1] == "tap":
            return int(last[2]), int(last[3])
        x1, y1, x2, y2 = (int(v) for v in last[2:6])
        return (x1 + x2) // 2, (y1 + y2) // 2

    def wheel_turned(self, mark: int) -> bool:
        return any(c[1] == "swipe" for c in self._touches(mark))

    def text_of(self, role: str) -> str:
        raise NotImplementedError  # the fake records what was typed; see `reached`

    def remove_after_state(self, role: str) -> str:
        """The app moves to another screen (the forms tab) where the element is not."""
        found = self.use(role)
        self.device.state.current = "forms"
        return found

    def window_bounds(self, state: dict[str, Any]) -> Rect:
        return Rect(left=0, top=0, right=1080, bottom=2340)

    def lacking(self, monkeypatch: pytest.MonkeyPatch) -> tuple[tuple[str, ...], str]:
        return ("mouse-move", "10", "10"), "pointer"


@pytest.fixture(scope="module")
def android_adb():
    from tests.android.phone import adb_server

    with adb_server() as server:
        yield server


@pytest.fixture(scope="module")
def linux_apps(request, tmp_path_factory):
    desktop = request.getfixturevalue("desktop")
    apps = LinuxApps(desktop, tmp_path_factory.mktemp("conformance-apps"))
    yield apps
    apps.close()


@pytest.fixture(params=BACKENDS)
def driver(request, tmp_path, monkeypatch) -> Driver:
    if request.param == "linux":
        return LinuxDriver(tmp_path / "runtime", request.getfixturevalue("linux_apps"))
    if request.param == "android":
        from tests.android.phone import new_state
        from tests.fixtures.android.fake_device import FakeDevice

        server = request.getfixturevalue("android_adb")
        device = FakeDevice(new_state("login"))
        server.connect(device)

        def gone() -> None:
            device.close()
            server.adb("disconnect", device.serial)

        request.addfinalizer(gone)
        return AndroidDriver(tmp_path / "runtime", server, device)
    from tests.fixtures.windows.fake_native import FakeNative, load_app

    fake = FakeNative([load_app("notepad"), load_app("calculator"), load_app("settings")])
    monkeypatch.setattr("winactions.backends.windows.backend.load_native", lambda: fake)
    return WindowsDriver(tmp_path / "runtime", fake)
