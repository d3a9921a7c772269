"""`winctl doctor` on Linux: each thing the backend needs, checked on its own, with its fix.

The backend needs an X display, a session bus, the accessibility bus on it, accessibility
switched on, and toolkit bridges that are not switched off in the environment. Each is
checked without opening the backend (what fails here is what would make it fail), and each
failure says what to type.
"""

from __future__ import annotations

import asyncio
import os
from typing import TYPE_CHECKING

from winactions.backends.base import Check
from winactions.backends.linux import a11ybus, bridges
from winactions.errors import NoAccessibility

if TYPE_CHECKING:
    from dbus_fast.aio import MessageBus

VIRTUAL = (
    "or start a virtual desktop: python -m winactions.backends.linux.virtual_desktop -- winctl state "
    "(needs xvfb, openbox, dbus: scripts/setup.sh)"
)
ENABLE = (
    "dbus-send --session --type=method_call --dest=org.a11y.Bus /org/a11y/bus "
    "org.freedesktop.DBus.Properties.Set string:org.a11y.Status string:IsEnabled variant:boolean:true "
    "(or: gsettings set org.gnome.desktop.interface toolkit-accessibility true)"
)


def diagnose() -> list[Check]:
    return [display_check(), *asyncio.run(_bus_checks()), *environment_checks(), *bridge_checks()]


def display_check() -> Check:
    name = os.environ.get("DISPLAY", "")
    if not name:
        wayland = os.environ.get("WAYLAND_DISPLAY")
        detail = (
            f"DISPLAY is not set (a Wayland session, {wayland}, without XWayland?)"
            if wayland
            else "DISPLAY is not set: there is no X display to read or act on"
        )
        return Check(
            "display",
            "fail",
            detail,
            "run winctl in a desktop session's terminal (over ssh: ssh -X, or export DISPLAY=:0), " + VIRTUAL,
        )
    from Xlib import display, error

    try:
        d = display.Display(name)
    except (error.DisplayError, error.DisplayNameError, error.ConnectionClosedError, OSError) as exc:
        return Check(
            "display",
            "fail",
            f"cannot open the X display {name!r}: {exc}",
            "check DISPLAY (and XAUTHORITY for another user's display), " + VIRTUAL,
        )
    try:
        screen = d.screen()
        wm = d.get_atom("_NET_SUPPORTING_WM_CHECK")
        has_wm = screen.root.get_full_property(wm, 0) is not None
        size = f"{screen.width_in_pixels}x{screen.height_in_pixels}"
    finally:
        d.close()
    if not has_wm:
        return Check(
            "display",
            "warn",
            f"X display {name} ({size}) has no window manager: focusing and activating windows will fail",
            "start one, e.g. openbox --sm-disable &",
        )
    return Check("display", "ok", f"X display {name} ({size}) with a window manager")


async def _bus_checks() -> list[Check]:
    from dbus_fast import BusType, Message, MessageType
    from dbus_fast.aio import MessageBus

    checks: list[Check] = []
    if not os.environ.get("DBUS_SESSION_BUS_ADDRESS") and not os.path.exists(
        os.path.join(os.environ.get("XDG_RUNTIME_DIR", "/nonexistent"), "bus")
    ):
        checks.append(
            Check(
                "session bus",
                "fail",
                "no D-Bus session bus (DBUS_SESSION_BUS_ADDRESS is not set)",
                "run inside a desktop session, or start one: dbus-run-session -- winctl state; " + VIRTUAL,
            )
        )
        return checks + await _accessibility_bus()
    try:
        session = await asyncio.wait_for(MessageBus(bus_type=BusType.SESSION).connect(), 3)
    except Exception as exc:
        checks.append(
            Check(
                "session bus",
                "fail",
                f"cannot reach the session bus: {exc}",
                "check DBUS_SESSION_BUS_ADDRESS; dbus-run-session -- winctl state starts a private one",
            )
        )
        return checks + await _accessibility_bus()
    checks.append(Check("session bus", "ok", "reachable"))
    try:
        checks += await _accessibility_bus()
        status = await asyncio.wait_for(
            session.call(
                Message(
                    destination="org.a11y.Bus",
                    path="/org/a11y/bus",
                    interface="org.freedesktop.DBus.Properties",
                    member="Get",
                    signature="ss",
                    body=["org.a11y.Status", "IsEnabled"],
                )
            ),
            5,
        )
        if status is not None and status.message_type is not MessageType.ERROR:
            enabled = bool(status.body[0].value)
            checks.append(
                Check("accessibility enabled", "ok", "org.a11y.Status IsEnabled is true")
                if enabled
                else Check(
                    "accessibility enabled",
                    "warn",
                    "org.a11y.Status IsEnabled is false: Chromium, "
                    "Electron and Firefox keep their tree to themselves until it is on",
                    ENABLE,
                )
            )
    except asyncio.TimeoutError:
        checks.append(
            Check(
                "accessibility enabled",
                "fail",
                "org.a11y.Bus did not answer within 5 s",
                "restart the session's at-spi-bus-launcher (or log out and in)",
            )
        )
    finally:
        session.disconnect()
    return checks


async def _accessibility_bus() -> list[Check]:
    """The bus this display's apps are on (found as they find it), whether it answers, whether
    the session bus hands out the same one, and the apps registered on it."""
    try:
        found = await a11ybus.open_bus()
    except NoAccessibility as exc:
        return [Check("accessibility bus", "fail", exc.message, exc.hint or "")]
    try:
        checks = [
            Check(
                "accessibility bus",
                "warn",
                f"{found.address} (from {found.source}): {found.note}",
                "run winctl from a terminal of this display's desktop session",
            )
            if found.note
            else Check("accessibility bus", "ok", f"this display's, answers: {found.address} (from {found.source})")
        ]
        if found.source == a11ybus.ROOT and os.environ.get("DBUS_SESSION_BUS_ADDRESS"):
            checks += await _session_hands_out(found.address)
        checks.append(await _apps(found.bus))
    finally:
        found.bus.disconnect()
    return checks


async def _session_hands_out(address: str) -> list[Check]:
    """A warning when the session bus's org.a11y.Bus hands out another bus than this display's."""
    try:
        session, launcher = await a11ybus.session_address()
    except NoAccessibility:
        return []  # the session bus's own check says what is wrong with it
    if session is None or session == address:
        return []
    theirs = a11ybus.launcher_display(launcher)
    return [
        Check(
            "session's accessibility bus",
            "warn",
            f"the session bus hands out {session}"
            + (f" (display {theirs}'s)" if theirs else "")
            + ", not this display's: Qt apps started from this shell register there, where winctl "
            "does not look",
            "run winctl and the apps from a terminal of this display's desktop session "
            "(DBUS_SESSION_BUS_ADDRESS of this display)",
        )
    ]


async def _apps(bus: MessageBus) -> Check:
    """How many applications have registered with the accessibility registry, and how many of
    them have a window on this display."""
    from dbus_fast import Message, MessageType

    try:
        reply = await asyncio.wait_for(
            bus.call(
                Message(
                    destination="org.a11y.atspi.Registry",
                    path="/org/a11y/atspi/accessible/root",
                    interface="org.a11y.atspi.Accessible",
                    member="GetChildren",
                )
            ),
            5,
        )
    except asyncio.TimeoutError:
        reply = None
    if reply is None or reply.message_type is MessageType.ERROR:
        return Check(
            "accessible apps",
            "fail",
            "the accessibility registry does not answer",
            "install at-spi2-core; restart the session",
        )
    names = [str(ref[0]) for ref in reply.body[0]]
    if not names:
        return Check(
            "accessible apps",
            "warn",
            "no application has registered its tree yet",
            "start apps with winctl launch PROGRAM, which switches each toolkit's bridge on",
        )
    pids = set()
    for name in names:
        pid = await a11ybus.connection_pid(bus, name, 5)
        if pid is not None:
            pids.add(pid)
    here = _pids_with_windows()
    if here is None:
        return Check("accessible apps", "ok", f"{len(names)} applications expose a tree")
    mine = len(pids & here)
    if mine == 0 and here:
        return Check(
            "accessible apps",
            "warn",
            f"{len(names)} applications expose a tree, none of them with a "
            f"window on this display ({os.environ.get('DISPLAY')})",
            "start this display's apps with winctl launch PROGRAM (another desktop's apps may share this bus)",
        )
    return Check(
        "accessible apps", "ok", f"{len(names)} applications expose a tree, {mine} with a window on this display"
    )


def _pids_with_windows() -> set[int] | None:
    """The processes with a top-level window on this display (None when it cannot be read)."""
    from winactions.backends.linux.x11windows import X11Windows

    try:
        windows = X11Windows()
    except Exception:  # no display: its own check says so
        return None
    try:
        return {w.pid for w in windows.list_windows() if w.pid}
    finally:
        windows.close()


def environment_checks() -> list[Check]:
    """Variables in this environment that switch a toolkit's bridge off for apps started from it."""
    checks = []
    if "NO_AT_BRIDGE" in os.environ:
        checks.append(
            Check(
                "NO_AT_BRIDGE",
                "warn",
                "NO_AT_BRIDGE is set: GTK apps started from here expose no tree",
                "unset NO_AT_BRIDGE (winctl launch drops it for the apps it starts)",
            )
        )
    if os.environ.get("GTK_A11Y") == "none":
        checks.append(
            Check(
                "GTK_A11Y",
                "warn",
                "GTK_A11Y=none: GTK 4 apps started from here expose no tree",
                "unset GTK_A11Y (winctl launch drops it)",
            )
        )
    if os.environ.get("QT_ACCESSIBILITY") != "1" or os.environ.get("QT_LINUX_ACCESSIBILITY_ALWAYS_ON") != "1":
        checks.append(
            Check(
                "Qt bridge",
                "warn",
                "QT_ACCESSIBILITY / QT_LINUX_ACCESSIBILITY_ALWAYS_ON are not 1: "
                "Qt apps started from here may expose no tree",
                "start Qt apps with winctl launch, or export QT_ACCESSIBILITY=1 QT_LINUX_ACCESSIBILITY_ALWAYS_ON=1",
            )
        )
    modules = os.environ.get("GTK_MODULES", "")
    checks.append(
        Check("GTK 2 bridge", "ok", "GTK_MODULES loads atk-bridge for GTK 2 apps started from here")
        if "atk-bridge" in modules.split(":")
        else Check(
            "GTK 2 bridge",
            "ok",
            "note: GTK 2 apps started from here expose a tree only with GTK_MODULES=gail:atk-bridge",
            "start them with winctl launch (sets it), or export GTK_MODULES=gail:atk-bridge",
        )
    )
    checks.append(
        Check(
            "Chromium / Electron",
            "ok",
            f"note: they export a tree only when started with {bridges.CHROMIUM_FLAG} and accessibility is enabled",
            f"start them with winctl launch (adds {bridges.CHROMIUM_FLAG}), or add the flag yourself",
        )
    )
    return checks


def bridge_checks() -> list[Check]:
    """Toolkit bridges whose pieces are missing from this machine (by Debian package)."""
    out = []
    for need in bridges.bridge_report():
        if need.installed:
            continue
        out.append(
            Check(
                f"{need.toolkit} bridge",
                "warn",
                f"not installed: {', '.join(need.missing)}",
                f"apt-get install {' '.join(m.split()[0] for m in need.missing)} (only if you automate "
                f"{need.toolkit} apps)",
            )
        )
    return out
