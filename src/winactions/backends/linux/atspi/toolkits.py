"""Which toolkit an app is built with, asked once per app, and the facts that follow from it.

Toolkits keep AT-SPI's promises differently; the rest of the package asks `Toolkits.of` (or
`known`, for an app already asked) and looks the answer up in the sets below. A toolkit
workaround is named here in one line; Java Swing's menus have their own module (`java`).
"""

from __future__ import annotations

import asyncio
import re
from typing import TYPE_CHECKING, Any

from dbus_fast import Variant

from winactions.backends.linux.atspi.budget import READING
from winactions.backends.linux.atspi.refs import (
    ACCESSIBLE,
    APP_ROOT,
    PROPERTIES,
    SENSITIVE_BIT,
    SHOWING_BIT,
    VISIBLE_BIT,
)
from winactions.backends.linux.atspi_roles import IFACE

if TYPE_CHECKING:
    from winactions.backends.linux.atspi.bus import Bus
    from winactions.backends.linux.atspi.element import Raw

VCL = "vcl"  # LibreOffice, through its gtk3 plugin (which calls itself GTK)
JAVA = "j2se-access-bridge"  # Java's toolkit: its ATK wrapper names itself "J2SE-access-bridge"
LIBREOFFICE_NAMES = {"soffice", "soffice.bin", "libreoffice"}  # its app root's name
# Toolkits whose GetAccessibleAtPoint answers from their real layout, deepest element first, in one
# call from the window: a web page's overlay (a cookie banner, a sticky header) is found there.
# GTK and Qt answer with a direct child only, from extents that may be off (LibreOffice).
HIT_TESTED = frozenset({"chromium", "gecko"})
WEB_TOOLKITS = frozenset({"chromium", "gecko"})  # browser engines: their web pages' roles are "document-web"
WEB_PAGE = "document-web"  # the native role of a web page's document
# Toolkits whose combo boxes take no choice made through AT-SPI (see `actions.chooses_silently`)
SILENT_CHOICE_TOOLKITS = frozenset({"gecko", "qt", JAVA})
# a menu item's press leaves its menu open (`actions.keeps_menu_open`)
MENU_KEPT_OPEN_TOOLKITS = frozenset({"qt", JAVA})
GTK4_CLASS_NAME = re.compile(r"^(Gtk|Adw|Gsk|Gdk)[A-Z][A-Za-z]+$")


class Toolkits:
    """The toolkit of each app on one bus, lower case ("gtk", "gtk4", "qt", "gecko", "vcl"...)."""

    def __init__(self, bus: Bus) -> None:
        self._bus = bus
        self._asked: dict[str, asyncio.Future[list[Any] | None]] = {}  # bus name -> ToolkitName reply
        self._known: dict[str, str] = {}  # bus name -> its answered toolkit

    async def of(self, dest: str) -> str:
        """The app's toolkit name, asked once per app ("" when it does not say)."""
        if dest not in self._asked:
            self._asked[dest] = asyncio.ensure_future(self._reply(dest))
        reply = await self._asked[dest]
        self._known[dest] = str(reply[0].value).lower() if reply else ""
        return self._known[dest]

    def known(self, dest: str) -> str:
        """The app's toolkit name if `of` has answered it already, else ""."""
        return self._known.get(dest, "")

    async def shown_bit(self, dest: str) -> int:
        """The state bit that says an element is on screen: SHOWING, except in GTK 4.8,
        which sets SHOWING on nothing below the window and VISIBLE on what is mapped."""
        return VISIBLE_BIT if await self.of(dest) == "gtk4" else SHOWING_BIT

    async def _reply(self, dest: str) -> list[Any] | None:
        """ToolkitName, with GTK 4 told apart from GTK 3 by the app's toolkit version, and
        LibreOffice ("vcl") from GTK apps: its gtk3 plugin calls itself GTK, but does not
        keep its tree current the way GTK does (see atspi_events.TRUSTED). Kept for good, so
        never cut by the time budget of the read that first asks (its own task's context)."""
        READING.set(None)
        maybe = self._bus.maybe
        name, version, app = await asyncio.gather(
            maybe(dest, APP_ROOT, PROPERTIES, "Get", "ss", [IFACE + "Application", "ToolkitName"]),
            maybe(dest, APP_ROOT, PROPERTIES, "Get", "ss", [IFACE + "Application", "Version"]),
            maybe(dest, APP_ROOT, PROPERTIES, "Get", "ss", [ACCESSIBLE, "Name"]),
        )
        if name and str(name[0].value).lower() == "gtk":
            if version and str(version[0].value).startswith("4."):
                return [Variant("s", "gtk4")]
            if app and str(app[0].value).lower() in LIBREOFFICE_NAMES:
                return [Variant("s", VCL)]
        return name


def gtk4_normalized(raw: Raw, states: frozenset[str]) -> tuple[frozenset[str], str]:
    """GTK 4.8's states and name in the words other toolkits use: it never says SHOWING
    below the window (VISIBLE is set on what is mapped), says SENSITIVE without ENABLED,
    names an element without a label after its class ("GtkMenuButton", "AdwGizmo"), and
    names a dialog's buttons twice over ("Save Save", "Cancel Cancel": its label, then its
    label's label)."""
    extra = set()
    if "visible" in states:
        extra.add("showing")
    if raw.states and raw.states[0] & SENSITIVE_BIT:
        extra.add("enabled")
    return states | extra, gtk4_name(raw.name)


def gtk4_name(name: str) -> str:
    """A GTK 4.8 name in other toolkits' words (see `gtk4_normalized`)."""
    name = "" if GTK4_CLASS_NAME.match(name) else name
    half = len(name) // 2
    if len(name) % 2 and name[half] == " " and name[:half] == name[half + 1 :]:
        name = name[:half]
    return name


def usable_names(names: tuple[str, ...] | list[str]) -> bool:
    """Are GetActions' names real? Chromium leaves them empty, and Firefox puts its key
    binding (";;") in every field; GetName answers right in both."""
    return all(n and ";" not in n for n in names)
