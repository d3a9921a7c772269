"""Which accessibility bus this display's apps are on, and whether it answers.

Apps find the AT-SPI bus as libatspi does: `AT_SPI_BUS_ADDRESS`, else the `AT_SPI_BUS`
property of the X root window (set by the display's at-spi-bus-launcher when it starts the
bus), else `org.a11y.Bus.GetAddress` on the session bus. `open_bus` looks in the same order,
so winctl reads the bus this display's apps registered on even when the session bus is
another display's. A bus is live when its socket accepts a connection and the bus behind it
has the id (guid) its address names: a socket path taken over by another bus (a second
desktop session with the same runtime folder) is not this display's bus.
"""

from __future__ import annotations

import asyncio
import os
import re
from dataclasses import dataclass

from dbus_fast import BusType, Message, MessageType
from dbus_fast.aio import MessageBus
from dbus_fast.auth import AuthExternal

from winactions.errors import NoAccessibility

ENV = "AT_SPI_BUS_ADDRESS"
ROOT = "the X root window's AT_SPI_BUS"
SESSION = "org.a11y.Bus on the session bus"
PIXELS = "meanwhile `winctl state --vision local` lists what a window's pixels show"
CONNECT_SECONDS = 2.0


@dataclass
class OpenBus:
    """A connected accessibility bus: its address, where the address came from, and a note
    ("" when none) when it may not be this display's."""

    bus: MessageBus
    address: str
    source: str
    note: str = ""


class BusProblem(Exception):
    """Why a bus address did not give this display's live bus (`reason`, a phrase)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


async def open_bus() -> OpenBus:
    """Connect to the accessibility bus this display's apps use; `NoAccessibility`, naming the
    address, its source, what is wrong and the fix, when there is none that answers."""
    told = os.environ.get(ENV)
    if told:
        try:
            return OpenBus(await connect_checked(told), told, ENV)
        except BusProblem as exc:
            raise NoAccessibility(
                f"the accessibility bus {ENV} names ({told}) {exc.reason}",
                hint=f"unset {ENV} or set it to a live bus; {PIXELS}",
            ) from None
    root = root_address()
    dead: BusProblem | None = None
    if root:
        try:
            return OpenBus(await connect_checked(root), root, ROOT)
        except BusProblem as exc:
            dead = exc  # a launcher that is gone left its address there: the session bus may know the new one
    session, launcher = await session_address()
    if dead is not None and (session is None or session == root):
        raise NoAccessibility(
            f"this display's accessibility bus ({root}, from {ROOT}) {dead.reason}", hint=restart_hint(launcher)
        ) from None
    if session is None:
        raise NoAccessibility(
            "no accessibility bus: no AT_SPI_BUS on the X root window and no org.a11y.Bus on the session bus",
            hint=f"install at-spi2-core (apt-get install at-spi2-core); {PIXELS}",
        )
    try:
        bus = await connect_checked(session)
    except BusProblem as exc:
        raise NoAccessibility(
            f"the accessibility bus the session bus hands out ({session}) {exc.reason}", hint=restart_hint(launcher)
        ) from None
    return OpenBus(bus, session, SESSION, note=_not_this_display(session, root, launcher))


def _not_this_display(session: str, old_root: str | None, launcher: int | None) -> str:
    """Why the session bus's accessibility bus may not be this display's ("" when it is)."""
    root = root_address()
    if root == session:
        return ""  # its launcher has just set this display's property: it is this display's
    theirs = launcher_display(launcher)
    if root is None and (theirs is None or same_display(theirs, os.environ.get("DISPLAY", ""))):
        return ""  # a launcher that sets no X property (no X support): nothing says otherwise
    if old_root is not None and root == old_root:
        return (
            f"this display's {ROOT} names a bus that is gone ({old_root}); apps started on this display "
            f"now find no bus: restart them with `winctl launch PROGRAM`"
        )
    owner = f"display {theirs}'s" if theirs else "another display's"
    return f"the accessibility bus of the session bus is {owner}, not this display's ({os.environ.get('DISPLAY')})"


class _NamedAuth(AuthExternal):
    """EXTERNAL authentication that keeps the id (guid) the server gives in its OK line."""

    guid = ""

    def _receive_line(self, line: str) -> str:
        if line.startswith("OK "):
            self.guid = line[3:].strip().lower()
        return super()._receive_line(line)


async def connect_checked(address: str) -> MessageBus:
    """A connection to the bus at `address` that answered as the bus the address names."""
    auth = _NamedAuth()
    try:
        bus = await asyncio.wait_for(MessageBus(bus_address=address, auth=auth).connect(), CONNECT_SECONDS)
    except FileNotFoundError:
        raise BusProblem(f"is gone: its socket {socket_path(address) or address} no longer exists") from None
    except ConnectionRefusedError:
        raise BusProblem("is gone: nothing listens on its socket (its bus process ended)") from None
    except asyncio.TimeoutError:
        raise BusProblem(f"did not answer within {CONNECT_SECONDS:g} s") from None
    except Exception as exc:
        raise BusProblem(f"cannot be reached: {type(exc).__name__}: {exc}") from None
    wanted = guid_of(address)
    if wanted and auth.guid and auth.guid != wanted:
        bus.disconnect()
        raise BusProblem(
            f"is gone: its socket now belongs to another bus (id {auth.guid}, not {wanted}), another desktop session's"
        )
    return bus


async def session_address() -> tuple[str | None, int | None]:
    """What org.a11y.Bus on the session bus hands out (None when there is no such service)
    and its launcher's process id; asking starts the launcher (D-Bus activation)."""
    if not os.environ.get("DBUS_SESSION_BUS_ADDRESS"):
        raise NoAccessibility(
            "no D-Bus session bus (DBUS_SESSION_BUS_ADDRESS is not set) and no accessibility bus on the X root window",
            hint=f"run inside a desktop session, or use the virtual desktop (winctl doctor says how); {PIXELS}",
        )
    try:
        session = await asyncio.wait_for(MessageBus(bus_type=BusType.SESSION).connect(), CONNECT_SECONDS)
    except Exception as exc:
        raise NoAccessibility(
            f"cannot reach the session bus: {exc}", hint=f"is DBUS_SESSION_BUS_ADDRESS right? {PIXELS}"
        ) from None
    try:
        reply = await asyncio.wait_for(
            session.call(
                Message(destination="org.a11y.Bus", path="/org/a11y/bus", interface="org.a11y.Bus", member="GetAddress")
            ),
            10,
        )
        if reply is None or reply.message_type is MessageType.ERROR:
            return None, None
        return str(reply.body[0]), await connection_pid(session, "org.a11y.Bus", CONNECT_SECONDS)
    except asyncio.TimeoutError:
        raise NoAccessibility(
            "org.a11y.Bus on the session bus did not answer within 10 s",
            hint=f"restart the session's at-spi-bus-launcher (or log out and in); {PIXELS}",
        ) from None
    finally:
        session.disconnect()


def restart_hint(launcher: int | None) -> str:
    """How to get a new accessibility bus: end the launcher (its bus ends with it); the next
    winctl command starts both again through the session bus."""
    stop = (
        f"kill {launcher} (this session's at-spi-bus-launcher; the next winctl command starts a new one and its bus)"
        if launcher
        else "restart the session's at-spi-bus-launcher (or log out and in)"
    )
    return f"{stop}, then restart the apps with `winctl launch PROGRAM`: they registered on the old bus; {PIXELS}"


def root_address(name: str | None = None) -> str | None:
    """The AT_SPI_BUS property of the X display's root window (DISPLAY by default), or None."""
    name = name if name is not None else os.environ.get("DISPLAY", "")
    if not name:
        return None
    from Xlib import Xatom, display, error

    try:
        d = display.Display(name)
    except (error.DisplayError, error.DisplayNameError, error.ConnectionClosedError, OSError):
        return None
    try:
        atom = d.get_atom("AT_SPI_BUS", only_if_exists=True)
        prop = d.screen().root.get_full_property(atom, Xatom.STRING) if atom else None
    finally:
        d.close()
    if prop is None or not prop.value:
        return None
    value = prop.value
    return (value.decode(errors="replace") if isinstance(value, bytes) else str(value)).strip("\0") or None


def launcher_display(pid: int | None) -> str | None:
    """The DISPLAY the accessibility bus launcher `pid` was started with (None: unknown)."""
    if not pid:
        return None
    try:
        with open(f"/proc/{pid}/environ", "rb") as f:
            pairs = f.read().split(b"\0")
    except OSError:
        return None
    found = next((p[len(b"DISPLAY=") :] for p in pairs if p.startswith(b"DISPLAY=")), None)
    return found.decode(errors="replace") if found else None


def same_display(a: str, b: str) -> bool:
    """Do two DISPLAY values name one display (":0" and ":0.0" do)?"""

    def key(name: str) -> str:
        return re.sub(r"\.\d+$", "", name.strip())

    return bool(a) and key(a) == key(b)


def guid_of(address: str) -> str:
    match = re.search(r"(?:^|[,;])guid=([0-9a-fA-F]+)", address)
    return match.group(1).lower() if match else ""


def socket_path(address: str) -> str:
    match = re.search(r"(?:^|[,:])path=([^,;]+)", address)
    return match.group(1) if match else ""


async def connection_pid(bus: MessageBus, name: str, seconds: float) -> int | None:
    """The process id behind a bus name (D-Bus's GetConnectionUnixProcessID); None when the
    bus does not say. Raises asyncio.TimeoutError after `seconds`."""
    owner = await asyncio.wait_for(
        bus.call(
            Message(
                destination="org.freedesktop.DBus",
                path="/org/freedesktop/DBus",
                interface="org.freedesktop.DBus",
                member="GetConnectionUnixProcessID",
                signature="s",
                body=[name],
            )
        ),
        seconds,
    )
    return int(owner.body[0]) if owner is not None and owner.message_type is not MessageType.ERROR else None
