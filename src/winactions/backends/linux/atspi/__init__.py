"""AT-SPI over D-Bus in pure Python (dbus-fast), with pipelined reads.

`AtspiClient` (client.py) is the one class the backend uses: a synchronous facade over
modules that each do one job, listed from the bottom up:

- refs.py      what handles, paths, replies and extents mean (no calls)
- budget.py    what one tree read may spend, and how it says what it left out
- toolkits.py  which toolkit an app is built with, and the facts that follow from it
- bus.py       the connection, its loop thread, calls, stalls (AppBusy), `@synchronous`
- tree.py      one-call questions: children, parents, role, states, place, pid
- java.py      Java Swing's menus: where their items are, and closing them
- element.py   one element's properties (`Raw`), as a Node; a combo box's options
- entries.py   a read tree as kept between reads
- grid.py      tables read by what is visible; virtual sheet cells and their resolution
- walk.py      the snapshot walk within its budget
- live.py      live mode: a read kept, and kept honest by events and probes
- text.py      text, caret, selection and the keyboard focus
- frames.py    apps and their windows, and where toolkits report them
- actions.py   actions, text and values set, selecting and choosing
- search.py    elements below others by name or text, shown or not
"""

from winactions.backends.linux.atspi.client import AtspiClient
from winactions.backends.linux.atspi.frames import MENU_SLACK, ROOT_PANE, pane_shift
from winactions.backends.linux.atspi.refs import ACCESSIBLE, split_handle
from winactions.backends.linux.atspi.toolkits import VCL, WEB_PAGE, WEB_TOOLKITS

__all__ = [
    "ACCESSIBLE",
    "MENU_SLACK",
    "ROOT_PANE",
    "VCL",
    "WEB_PAGE",
    "WEB_TOOLKITS",
    "AtspiClient",
    "pane_shift",
    "split_handle",
]
