"""The benchmark's baseline: libatspi (gi.repository.Atspi) walking the same window.

Runs under Debian's own /usr/bin/python3 (the venv has no compiled GObject bindings).
It reads what our snapshot reads — role, name, description, states, interfaces, extents,
child count, action names, value, short text — with the same pruning (children of a
non-showing element are not visited), and prints JSON: {"nodes": n, "seconds": [..]}.

Nodes that make their children on demand (MANAGES_DESCENDANTS, as Calc's sheet with its
2,147,483,647 cells, or more than 2,000 children) are read as ours reads them: by what is
visible — hit tests inward from the visible area's corners give the first and last cell, then
the column headers and up to 100 cells (first row, first column, whole rows) with their text.
Listing such children would never end.

usage: /usr/bin/python3 benchmarks/atspi_baseline.py "Window title" [repeats]
       /usr/bin/python3 benchmarks/atspi_baseline.py --serve
  --serve: one walk per request line on stdin, {"title": T, "mode": "cold"|"warm"}, each
  answered by a line {"nodes": n, "seconds": s}; "cold" clears libatspi's cache of the
  window first, "warm" keeps what earlier walks cached (as a long-lived libatspi client would).
"""

import json
import sys
import time
import warnings

import gi

gi.require_version("Atspi", "2.0")
from gi.repository import Atspi  # noqa: E402

TEXT_ROLES = {
    Atspi.Role.TEXT,
    Atspi.Role.ENTRY,
    Atspi.Role.LABEL,
    Atspi.Role.PARAGRAPH,
    Atspi.Role.HEADING,
    Atspi.Role.PASSWORD_TEXT,
}


HUGE_CHILD_COUNT = 2000  # as ours: more children than this are read by what is visible
CELL_READS = 100  # as ours: real cells read from a table that makes its cells on demand
HIT_PROBES, HIT_STEP = 8, 8


def find_frame(title):
    """The frame titled exactly `title`, else the first whose title contains it."""
    desktop = Atspi.get_desktop(0)
    partial = None
    for i in range(desktop.get_child_count()):
        app = desktop.get_child_at_index(i)
        if app is None:
            continue
        for j in range(app.get_child_count()):
            frame = app.get_child_at_index(j)
            name = frame.get_name() if frame is not None else None
            if name == title:
                return frame
            if partial is None and name and title in name:
                partial = frame
    if partial is not None:
        return partial
    raise SystemExit(f"no frame titled {title!r}")


def makes_children_on_demand(node, states):
    return states.contains(Atspi.StateType.MANAGES_DESCENDANTS) or node.get_child_count() > HUGE_CHILD_COUNT


def visible_area(node, frame):
    e, f = node.get_extents(Atspi.CoordType.SCREEN), frame.get_extents(Atspi.CoordType.SCREEN)
    if e.width <= 0 or e.height <= 0 or e.x == -(2**31):
        return None
    left, top = max(e.x, f.x), max(e.y, f.y)
    right, bottom = min(e.x + e.width, f.x + f.width), min(e.y + e.height, f.y + f.height)
    return (left, top, right, bottom) if right > left and bottom > top else None


def cell_near(table, area, top_left):
    left, top, right, bottom = area
    for k in range(HIT_PROBES):
        step = 1 + k * HIT_STEP
        x, y = (left + step, top + step) if top_left else (right - 1 - step, bottom - 1 - step)
        hit = Atspi.Component.get_accessible_at_point(table, x, y, Atspi.CoordType.SCREEN)
        if hit is None:
            continue
        index = hit.get_index_in_parent()
        if index < 0:
            continue
        row, col = Atspi.Table.get_row_at_index(table, index), Atspi.Table.get_column_at_index(table, index)
        if row >= 0 and col >= 0:
            return row, col
    return None


def cells_to_read(r0, c0, r1, c1, limit):
    chosen = ([(r0, c) for c in range(c0, c1 + 1)] + [(r, c0) for r in range(r0 + 1, r1 + 1)])[:limit]
    for r in range(r0 + 1, r1 + 1):
        row = [(r, c) for c in range(c0 + 1, c1 + 1)]
        if len(chosen) + len(row) > limit:
            break
        chosen.extend(row)
    return chosen


def read_visible_cells(table, frame):
    """Headers and up to CELL_READS cells in view, with their text; returns nodes read."""
    if "Table" not in table.get_interfaces():
        return 0
    area = visible_area(table, frame)
    first = cell_near(table, area, True) if area else None
    last = cell_near(table, area, False) if area else None
    if first is None or last is None:
        return 0
    count = 0
    for c in range(first[1], last[1] + 1):
        header = Atspi.Table.get_column_header(table, c)
        if header is not None:
            read(header)
            count += 1
    for r, c in cells_to_read(first[0], first[1], last[0], last[1], CELL_READS):
        cell = Atspi.Table.get_accessible_at(table, r, c)
        if cell is not None:
            read(cell)
            if "Text" in cell.get_interfaces():
                cell.get_text(0, 200)
            count += 1
    return count


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
    return states


def walk(root):
    count = 0
    stack = [(root, True)]
    while stack:
        node, is_root = stack.pop()
        states = read(node)
        count += 1
        if states.contains(Atspi.StateType.SHOWING) or is_root:
            if makes_children_on_demand(node, states):
                count += read_visible_cells(node, root)
                continue
            n = node.get_child_count()
            for i in range(n - 1, -1, -1):
                child = node.get_child_at_index(i)
                if child is not None:
                    stack.append((child, False))
    return count


def serve():
    """One walk per request line; the frames found stay, as a long-lived client keeps them."""
    frames = {}
    for line in sys.stdin:
        request = json.loads(line)
        title = request["title"]
        if title not in frames:
            frames[title] = find_frame(title)
        frame = frames[title]
        if request.get("mode", "cold") == "cold":
            frame.clear_cache()
        start = time.perf_counter()
        nodes = walk(frame)
        print(json.dumps({"nodes": nodes, "seconds": time.perf_counter() - start}), flush=True)


def main():
    warnings.simplefilter("ignore", DeprecationWarning)
    Atspi.set_timeout(10000, 60000)
    if sys.argv[1] == "--serve":
        serve()
        return
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
