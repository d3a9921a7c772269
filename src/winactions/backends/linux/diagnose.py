"""`winctl doctor` on Linux: each thing the backend needs, checked on its own, with its fix.

The backend needs an X display, a session bus, the accessibility bus on it, accessibility
switched on, and toolkit bridges that are not switched off in the environment. Each is
checked without opening the backend (what fails here is what would make it fail), and each
failure says what to type.
"""

from __future__ import annotations

import asyncio
import os

from winactions.backends.base import Check
from winactions.backends.linux import bridges

VIRTUAL = ("or start a virtual desktop: python -m winactions.backends.linux.virtual_desktop -- winctl state "
           "(needs xvfb, openbox, dbus: scripts/setup.sh)")
ENABLE = ("dbus-send --session --type=method_call --dest=org.a11y.Bus /org/a11y/bus "
          "org.freedesktop.DBus.Properties.Set string:org.a11y.Status string:IsEnabled variant:boolean:true "
          "(or: gsettings set org.gnome.desktop.interface toolkit-accessibility true)")


def diagnose() -> list[Check]:
    return [display_check(), *asyncio.run(_bus_checks()), *environment_checks(), *bridge_checks()]


def display_check() -> Check:
    name = os.environ.get("DISPLAY", "")
    if not name:
        wayland = os.environ.get("WAYLAND_DISPLAY")
        detail = f"DISPLAY is not set (a Wayland session, {wayland}, without XWayland?)" if wayland \
            else "DISPLAY is not set: there is no X display to read or act on"
        return Check("display", "fail", detail,
                     "run winctl in a desktop session's terminal (over ssh: ssh -X, or export DISPLAY=:0), " + VIRTUAL)
    from Xlib import display, error

    try:
        d = display.Display(name)
    except (error.DisplayError, error.DisplayNameError, error.ConnectionClosedError, OSError) as exc:
        return Check("display", "fail", f"cannot open the X display {name!r}: {exc}",
                     "check DISPLAY (and XAUTHORITY for another user's display), " + VIRTUAL)
    try:
        screen = d.screen()
        wm = d.get_atom("_NET_SUPPORTING_WM_CHECK")
        has_wm = screen.root.get_full_property(wm, 0) is not None
        size = f"{screen.width_in_pixels}x{screen.height_in_pixels}"
    finally:
        d.close()
    if not has_wm:
        return Check("display", "warn", f"X display {name} ({size}) has no window manager: focusing and "
                     "activating windows will fail", "start one, e.g. openbox --sm-disable &")
    return Check("display", "ok", f"X display {name} ({size}) with a window manager")


async def _bus_checks() -> list[Check]:
    from dbus_fast import BusType, Message, MessageType
    from dbus_fast.aio import MessageBus

    if not os.environ.get("DBUS_SESSION_BUS_ADDRESS") and not os.path.exists(
            os.path.join(os.environ.get("XDG_RUNTIME_DIR", "/nonexistent"), "bus")):
        return [Check("session bus", "fail", "no D-Bus session bus (DBUS_SESSION_BUS_ADDRESS is not set)",
                      "run inside a desktop session, or start one: dbus-run-session -- winctl state; " + VIRTUAL)]
    try:
        session = await asyncio.wait_for(MessageBus(bus_type=BusType.SESSION).connect(), 3)
    except Exception as exc:
        return [Check("session bus", "fail", f"cannot reach the session bus: {exc}",
                      "check DBUS_SESSION_BUS_ADDRESS; dbus-run-session -- winctl state starts a private one")]
    checks = [Check("session bus", "ok", "reachable")]
    try:
        reply = await asyncio.wait_for(session.call(Message(
            destination="org.a11y.Bus", path="/org/a11y/bus", interface="org.a11y.Bus", member="GetAddress")), 10)
        if reply is None or reply.message_type is MessageType.ERROR:
            checks.append(Check("accessibility bus", "fail", "the session bus has no org.a11y.Bus",
                                "install at-spi2-core (apt-get install at-spi2-core)"))
            return checks
        checks.append(Check("accessibility bus", "ok", str(reply.body[0])))
        status = await asyncio.wait_for(session.call(Message(
            destination="org.a11y.Bus", path="/org/a11y/bus", interface="org.freedesktop.DBus.Properties",
            member="Get", signature="ss", body=["org.a11y.Status", "IsEnabled"])), 5)
        enabled = status is not None and status.message_type is not MessageType.ERROR and bool(status.body[0].value)
        checks.append(Check("accessibility enabled", "ok", "org.a11y.Status IsEnabled is true") if enabled else
                      Check("accessibility enabled", "warn", "org.a11y.Status IsEnabled is false: Chromium, "
                            "Electron and Firefox keep their tree to themselves until it is on", ENABLE))
        checks.append(await _apps(str(reply.body[0])))
    except asyncio.TimeoutError:
        checks.append(Check("accessibility bus", "fail", "org.a11y.Bus did not answer within 10 s",
                            "restart the session's at-spi-bus-launcher (or log out and in)"))
    finally:
        session.disconnect()
    return checks


async def _apps(address: str) -> Check:
    """How many applications have registered with the accessibility registry."""
    from dbus_fast import Message, MessageType
    from dbus_fast.aio import MessageBus

    try:
        bus = await asyncio.wait_for(MessageBus(bus_address=address).connect(), 3)
    except Exception as exc:
        return Check("accessible apps", "fail", f"cannot connect to the accessibility bus: {exc}",
                     "restart the session's at-spi-bus-launcher (or log out and in)")
    try:
        reply = await asyncio.wait_for(bus.call(Message(
            destination="org.a11y.atspi.Registry", path="/org/a11y/atspi/accessible/root",
            interface="org.freedesktop.DBus.Properties", member="Get", signature="ss",
            body=["org.a11y.atspi.Accessible", "ChildCount"])), 5)
    finally:
        bus.disconnect()
    if reply is None or reply.message_type is MessageType.ERROR:
        return Check("accessible apps", "fail", "the accessibility registry does not answer",
                     "install at-spi2-core; restart the session")
    count = int(reply.body[0].value)
    if count == 0:
        return Check("accessible apps", "warn", "no application has registered its tree yet",
                     "start apps with winctl launch PROGRAM, which switches each toolkit's bridge on")
    return Check("accessible apps", "ok", f"{count} applications expose a tree")


def environment_checks() -> list[Check]:
    """Variables in this environment that switch a toolkit's bridge off for apps started from it."""
    checks = []
    if "NO_AT_BRIDGE" in os.environ:
        checks.append(Check("NO_AT_BRIDGE", "warn", "NO_AT_BRIDGE is set: GTK apps started from here expose no tree",
                            "unset NO_AT_BRIDGE (winctl launch drops it for the apps it starts)"))
    if os.environ.get("GTK_A11Y") == "none":
        checks.append(Check("GTK_A11Y", "warn", "GTK_A11Y=none: GTK 4 apps started from here expose no tree",
                            "unset GTK_A11Y (winctl launch drops it)"))
    if os.environ.get("QT_ACCESSIBILITY") != "1" or os.environ.get("QT_LINUX_ACCESSIBILITY_ALWAYS_ON") != "1":
        checks.append(Check("Qt bridge", "warn", "QT_ACCESSIBILITY / QT_LINUX_ACCESSIBILITY_ALWAYS_ON are not 1: "
                            "Qt apps started from here may expose no tree",
                            "start Qt apps with winctl launch, or export QT_ACCESSIBILITY=1 "
                            "QT_LINUX_ACCESSIBILITY_ALWAYS_ON=1"))
    modules = os.environ.get("GTK_MODULES", "")
    checks.append(Check("GTK 2 bridge", "ok", "GTK_MODULES loads atk-bridge for GTK 2 apps started from here")
                  if "atk-bridge" in modules.split(":") else
                  Check("GTK 2 bridge", "ok", "note: GTK 2 apps started from here expose a tree only with "
                        "GTK_MODULES=gail:atk-bridge",
                        "start them with winctl launch (sets it), or export GTK_MODULES=gail:atk-bridge"))
    checks.append(Check("Chromium / Electron", "ok", f"note: they export a tree only when started with "
                        f"{bridges.CHROMIUM_FLAG} and accessibility is enabled",
                        f"start them with winctl launch (adds {bridges.CHROMIUM_FLAG}), or add the flag yourself"))
    return checks


def bridge_checks() -> list[Check]:
    """Toolkit bridges whose pieces are missing from this machine (by Debian package)."""
    out = []
    for need in bridges.bridge_report():
        if need.installed:
            continue
        out.append(Check(f"{need.toolkit} bridge", "warn", f"not installed: {', '.join(need.missing)}",
                         f"apt-get install {' '.join(m.split()[0] for m in need.missing)} (only if you automate "
                         f"{need.toolkit} apps)"))
    return out
