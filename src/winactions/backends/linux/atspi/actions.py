"""Acting through the tree: actions, text and values set, selecting and choosing, scrolling —
and what each toolkit does with them.

Every function takes an element already resolved (`grid.resolve`). A refused call is
ActionFailed with a hint to do it with the mouse or keyboard; a DBusCallError (the app's own
error reply) is left to the caller (`AtspiClient.perform` says what it means).
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from dbus_fast import Variant

from winactions.backends.base import no_option, option_index
from winactions.backends.linux import sheet_cursor
from winactions.backends.linux.atspi import element, java, text, tree
from winactions.backends.linux.atspi.bus import DBusCallError
from winactions.backends.linux.atspi.grid import HelperCalls
from winactions.backends.linux.atspi.refs import ACCESSIBLE, APP_ROOT, FOCUSED_BIT, PROPERTIES, Ref
from winactions.backends.linux.atspi.toolkits import JAVA, MENU_KEPT_OPEN_TOOLKITS, SILENT_CHOICE_TOOLKITS, usable_names
from winactions.backends.linux.atspi_roles import IFACE, INVOKE_ACTIONS, PROTECTED_ROLES, states_of
from winactions.errors import ActionFailed
from winactions.model import Operation

if TYPE_CHECKING:
    from winactions.backends.linux.atspi.bus import Bus

ACTION_STALL_SECONDS = 1.5  # an action handler that runs longer is treated as "sent, app busy"
REPLY_PROBE = 0.2  # s an action's reply may take before the app is asked something else meanwhile
NAME_STALL_SECONDS = 0.3  # a name read right after a press: an app that does not answer is still in its handler
SCROLL_ANYWHERE = 6  # AtspiScrollType: as little scrolling as shows the element
ACTIONS_FOR = {  # the action names that do an operation, the first one the element has wins
    Operation.INVOKE: INVOKE_ACTIONS,
    Operation.TOGGLE: ("toggle", "click", "press", "activate"),
    Operation.EXPAND: ("expand or contract", "expand", "press", "toggle"),
    Operation.COLLAPSE: ("expand or contract", "collapse", "press", "toggle"),
}


async def perform(bus: Bus, ref: Ref, op: Operation, argument: str | float | None) -> str:
    """Do `op` on the element through AT-SPI and return the method used ("action:click",
    "EditableText.SetTextContents"...); text set is checked to have arrived (`text.check_text`)."""
    dest, path = ref
    if op in ACTIONS_FOR:
        if op in (Operation.INVOKE, Operation.TOGGLE) and await bus.toolkits.of(dest) == JAVA:
            await java.close_menu_bar(bus, ref)
        return await do_action(bus, ref, ACTIONS_FOR[op])
    if op is Operation.SET_TEXT:
        protected = (await tree.role(bus, ref))[0] in PROTECTED_ROLES
        before = None if protected else await element.whole_text(bus, ref)  # a password's text reads as bullets
        ok = await bus.call(dest, path, IFACE + "EditableText", "SetTextContents", "s", [str(argument)])
        if not ok or not ok[0]:
            raise ActionFailed("the element refused the text", hint="try --via input to type it")
        await text.check_text(bus, ref, str(argument), protected=protected, before=before)
        return "EditableText.SetTextContents"
    if op is Operation.SET_VALUE:
        await bus.call(
            dest, path, PROPERTIES, "Set", "ssv", [IFACE + "Value", "CurrentValue", Variant("d", float(argument or 0))]
        )
        return "Value.CurrentValue"
    if op is Operation.SELECT:
        parent = await bus.call(dest, path, PROPERTIES, "Get", "ss", [ACCESSIBLE, "Parent"])
        p_dest, p_path = parent[0].value
        if await tree.is_sheet(bus, (p_dest, p_path)):  # a click on a cell moves the cell cursor there
            return await sheet_cursor.put_cursor(HelperCalls(bus), (p_dest, p_path), ref)
        index = (await bus.call(dest, path, ACCESSIBLE, "GetIndexInParent"))[0]
        return await select_child(bus, (p_dest, p_path), int(index))
    if op is Operation.CHOOSE:
        return await choose(bus, ref, str(argument))
    if op is Operation.FOCUS:
        done = await bus.call(dest, path, IFACE + "Component", "GrabFocus")
        if not done or not done[0]:
            raise ActionFailed("the element did not take focus", hint="click it instead")
        return "Component.GrabFocus"
    raise ActionFailed(f"AT-SPI has no semantic {op.value}", hint="use the mouse (--via input)")


async def action_names(bus: Bus, ref: Ref) -> list[str]:
    """The element's action names, lower case, as GetName says them where GetActions' are not usable."""
    actions = await bus.maybe(ref[0], ref[1], IFACE + "Action", "GetActions")
    names = [str(a[0]) for a in actions[0]] if actions else []
    if not usable_names(names):
        found = await asyncio.gather(
            *(bus.maybe(ref[0], ref[1], IFACE + "Action", "GetName", "i", [i]) for i in range(len(names)))
        )
        names = [str(n[0]) if n else "" for n in found]
    return [n.lower() for n in names]


async def do_action(bus: Bus, ref: Ref, wanted: tuple[str, ...]) -> str:
    """Do the first of the `wanted` actions the element has: "action:NAME", or "action:NAME
    (sent; the app is running it)" when the app takes other requests before answering it."""
    names = await action_names(bus, ref)
    for want in wanted:
        if want in names:
            reply = asyncio.ensure_future(
                bus.call(ref[0], ref[1], IFACE + "Action", "DoAction", "i", [names.index(want)])
            )
            if await _running_meanwhile(bus, reply, ref[0]):
                return f"action:{want} (sent; the app is running it)"
            done = await reply
            if not done or not done[0]:
                raise ActionFailed(f'the element refused its "{want}" action', hint="try --via input")
            return f"action:{want}"
    raise ActionFailed(f"no suitable action (it has: {', '.join(names) or 'none'})", hint="try --via input")


async def _running_meanwhile(bus: Bus, reply: asyncio.Future[list[Any]], dest: str) -> bool:
    """Whether the app answers another request while an action's reply is still to come (asked
    once the reply is REPLY_PROBE late): the action's handler runs a loop of its own that takes
    requests (Qt: a dialog's, answering the action when the dialog closes) and is under way."""
    done, _ = await asyncio.wait({reply}, timeout=REPLY_PROBE)
    if done:
        return False
    other: asyncio.Future[Any] = asyncio.ensure_future(bus.maybe(dest, APP_ROOT, ACCESSIBLE, "GetRole"))
    done, _ = await asyncio.wait({reply, other}, return_when=asyncio.FIRST_COMPLETED)
    if reply in done:
        other.cancel()
        return False
    return True


async def select_child(bus: Bus, container: Ref, index: int) -> str:
    """Select the container's child `index` (Selection.SelectChild, else its table row)."""
    done = await bus.call(container[0], container[1], IFACE + "Selection", "SelectChild", "i", [index])
    if done and done[0]:
        return "Selection.SelectChild"
    if await _select_row(bus, container, index):
        return "Table.AddRowSelection"
    raise ActionFailed("the container refused the selection", hint="click the item instead")


async def _select_row(bus: Bus, table: Ref, index: int) -> bool:
    """Select the row of the table's child `index` alone, as a click on that cell does (GTK 3
    selects a child of a tree view only when it has one column, but selects its rows); the
    other selected rows are let go. False without a Table interface, or when refused."""
    dest, path = table
    ifaces = await bus.maybe(dest, path, ACCESSIBLE, "GetInterfaces")
    if not ifaces or IFACE + "Table" not in ifaces[0]:
        return False
    row = await bus.maybe(dest, path, IFACE + "Table", "GetRowAtIndex", "i", [index])
    if not row or row[0] < 0:
        return False  # a column header
    done = await bus.maybe(dest, path, IFACE + "Table", "AddRowSelection", "i", [row[0]])
    if not done or not done[0]:
        return False
    chosen = await bus.maybe(dest, path, IFACE + "Table", "GetSelectedRows")
    for other in chosen[0] if chosen else []:
        if other != row[0]:
            await bus.maybe(dest, path, IFACE + "Table", "RemoveRowSelection", "i", [other])
    return True


async def choose(bus: Bus, ref: Ref, option: str) -> str:
    """Select the option named `option` (`option_index`): through Selection where the
    container has it, else through the option's own action."""
    container, raws = await element.options(bus, ref)
    names = [r.name for r in raws]
    index = option_index(names, option)
    if index is None:
        raise no_option(option, names)
    ifaces = await bus.maybe(container[0], container[1], ACCESSIBLE, "GetInterfaces")
    if ifaces and IFACE + "Selection" in ifaces[0]:
        try:
            return await select_child(bus, container, index)
        except (ActionFailed, DBusCallError):
            pass
    return await do_action(bus, raws[index].ref, ("select", *INVOKE_ACTIONS))


async def choice_open(bus: Bus, ref: Ref) -> bool:
    """Is the combo box's list open? Expanded, where the box says so; Qt 5's says neither
    expanded nor collapsed, and there the open list is the one with an option focused."""
    words = await bus.maybe(ref[0], ref[1], ACCESSIBLE, "GetState")
    states = states_of(list(words[0])) if words else frozenset()
    if "expanded" in states or {"collapsed", "expandable"} & states:
        return "expanded" in states
    _, raws = await element.options(bus, ref)
    return any(raw.states and raw.states[0] & FOCUSED_BIT for raw in raws)


async def chooses_silently(bus: Bus, ref: Ref) -> bool:
    """A combo box of a toolkit whose AT-SPI choice does not reach the app: Firefox (no change
    event for the page), Java Swing (reverted when the list closes), Qt (options offer only
    "toggle", which leaves the box as it was)."""
    if await bus.toolkits.of(ref[0]) not in SILENT_CHOICE_TOOLKITS:
        return False
    return (await tree.role(bus, ref))[1] == "ComboBox"


async def keeps_menu_open(bus: Bus, ref: Ref) -> bool:
    """A menu item whose press leaves its menu open: Qt's (QAction::trigger) and Java Swing's
    (AbstractButton.doClick) — unless the Java item is in a menu bar's menu, which `perform`
    closes. GTK closes its menu itself."""
    toolkit = await bus.toolkits.of(ref[0])
    if toolkit not in MENU_KEPT_OPEN_TOOLKITS:
        return False
    if (await tree.role(bus, ref))[1] != "MenuItem":
        return False
    return toolkit != JAVA or await java.menu_bar_of(bus, ref) is None


async def sets_value_silently(bus: Bus, ref: Ref) -> bool:
    """A Gecko spin button (a web page's number field): Value.CurrentValue changes the box
    and fires no input event; Chromium's does, and so do Gecko's sliders."""
    if await bus.toolkits.of(ref[0]) != "gecko":
        return False
    return (await tree.role(bus, ref))[1] == "Spinner"


async def scroll_into_view(bus: Bus, ref: Ref) -> bool:
    """Component.ScrollTo (AT-SPI 2.30); False where the toolkit answers false or does not
    know the call (Chromium and Firefox scroll their pages, some toolkits their lists)."""
    done = await bus.maybe(ref[0], ref[1], IFACE + "Component", "ScrollTo", "u", [SCROLL_ANYWHERE])
    return bool(done and done[0])
