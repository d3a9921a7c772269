"""The benchmark's baseline: libatspi (gi.repository.Atspi) walking the same window.

Runs under Debian's own /usr/bin/python3 (the venv has no compiled GObject bindings).
It reads what our snapshot reads — role, name, description, states, interfaces, extents,
child count, action names, value, short text — with the same pruning (children of a
non-showing element are not visited), and prints JSON: {"nodes": n, "seconds": [..]}.

usage: /usr/bin/python3 benchmarks/atspi_baseline.py "Window title" [repeats]
"""

import json
import sys
import time
import warnings

import gi

gi.require_version("Atspi", "2.0")
from gi.repository import Atspi  # noqa: E402

TEXT_ROLES = {Atspi.Role.TEXT, Atspi.Role.ENTRY, Atspi.Role.LABEL, Atspi.Role.PARAGRAPH,
              Atspi.Role.HEADING, Atspi.Role.PASSWORD_TEXT}


def find_frame(title):
    desktop = Atspi.get_desktop(0)
    for i in range(desktop.get_child_count()):
        app = desktop.get_child_at_index(i)
        if app is None:
            continue
        for j in range(app.get_child_count()):
            frame = app.get_child_at_index(j)
            if frame is not None and frame.get_name() == title:
                return frame
    raise SystemExit(f"no frame titled {title!r}")


def read(node):
    node.get_role()
    name = node.get_name()
    node.get_description()
    states = node.get_state_set()
    ifaces = node.get_interfaces()
    node.get_extents(Atspi.CoordType.SCREEN) if "Component" in ifaces else None
    if "Action" in ifaces:
        for k in range(node.get_n_actions()):
            node.get_action_name(k)  # the non-localized name, as ours reads
    if "Value" in ifaces:
        node.get_current_value()
    if "Text" in ifaces and node.get_role() in TEXT_ROLES and not name:
        node.get_text(0, 200)
    return states.contains(Atspi.StateType.SHOWING)


def walk(root):
    count = 0
    stack = [(root, True)]
    while stack:
        node, is_root = stack.pop()
        showing = read(node)
        count += 1
        if showing or is_root:
            n = node.get_child_count()
            for i in range(n - 1, -1, -1):
                child = node.get_child_at_index(i)
                if child is not None:
                    stack.append((child, False))
    return count


def main():
    warnings.simplefilter("ignore", DeprecationWarning)
    title = sys.argv[1]
    repeats = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    # libatspi caches what it has read; a fair comparison reads fresh each time
    Atspi.set_timeout(10000, 60000)
    frame = find_frame(title)
    times, nodes = [], 0
    for _ in range(repeats):
        frame.clear_cache()
        start = time.perf_counter()
        nodes = walk(frame)
        times.append(time.perf_counter() - start)
    print(json.dumps({"nodes": nodes, "seconds": times}))


if __name__ == "__main__":
    main()
