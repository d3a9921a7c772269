"""Benchmark: the Android `state` on recorded uiautomator dumps of real apps.

    .venv/bin/python benchmarks/android.py [--repeats 20]

For each dump (tests/fixtures/android/dumps, provenance in its README):
- time from the dump's bytes to the printed compact state, in-process: the backend's parse
  and mapping, Tier 1 reduction, ids, rendering (the median of `--repeats` runs);
- the whole `winctl --device SERIAL state` end to end through the real adb server, the
  adbutils client and the fake device replaying the dump (one-shot, in-process CLI);
- size: the compact state's characters against the raw XML, and against the JSON list of
  elements an agent tool sends for the same screen (the shape of mobile-mcp's
  `mobile_list_elements_on_screen`: type, text, label, identifier, coordinates, focused,
  for every node with text, a description or a click — our reconstruction of that format);
- nothing actionable lost: every enabled node that takes a click, long click, check, scroll
  or text and is on the screen must be listed (by its own handle).

Target: <= 5 % of the raw XML's characters, with nothing actionable lost.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.android.phone import adb_server, new_state  # noqa: E402
from tests.conftest import run_in_process  # noqa: E402
from tests.fixtures.android.fake_device import FakeDevice, Screen  # noqa: E402

from winactions import render  # noqa: E402
from winactions.backends.android import hierarchy  # noqa: E402
from winactions.model import Node, Rect, Snapshot, UIState, WindowInfo  # noqa: E402
from winactions.perception.accessibility import targets_from_snapshot  # noqa: E402
from winactions.session.ids import IdRegistry  # noqa: E402

DUMPS = ROOT / "tests" / "fixtures" / "android" / "dumps"
ACTIONABLE = ("clickable", "long-clickable", "checkable", "scrollable")


def screen_of(xml: str) -> Rect:
    raws = hierarchy.parse_dump(xml)
    right = max((r.right for r in (hierarchy.bounds(n.attrs.get("bounds", "")) for n in raws) if r), default=1080)
    bottom = max(
        (r.bottom for r in (hierarchy.bounds(n.attrs.get("bounds", "")) for n in raws if n.parent is None) if r),
        default=2340,
    )
    return Rect(left=0, top=0, right=min(right, 1440), bottom=bottom)


def printed_state(xml: str, screen: Rect) -> tuple[str, list[str], list[Node]]:
    """Dump bytes → the compact text `winctl state` prints (and the listed handles)."""
    raws = hierarchy.parse_dump(hierarchy.strip_trailer(xml))
    window = WindowInfo(id="android:bench", title="app/.Activity", process="app", rect=screen, active=True)
    root = Node(
        handle="screen",
        parent=None,
        role="Window",
        native_role="screen",
        name=window.title,
        states=frozenset({"visible", "showing"}),
        rect=screen,
    )
    nodes = hierarchy.to_nodes(raws, root)
    targets = IdRegistry().assign(targets_from_snapshot(Snapshot(nodes=nodes), [screen]))
    state = UIState(window=window, targets=targets, timestamp="", node_count=len(nodes))
    return render.state_text(state), [t.handle or "" for t in targets], nodes


def agent_json(xml: str) -> str:
    """The element list an agent tool sends for the same screen (mobile-mcp's shape)."""
    elements = []
    for raw in hierarchy.parse_dump(xml):
        a = raw.attrs
        if not (a.get("text") or a.get("content-desc") or a.get("clickable") == "true"):
            continue
        rect = hierarchy.bounds(a.get("bounds", ""))
        if rect is None:
            continue
        elements.append(
            {
                "type": a.get("class", ""),
                "text": a.get("text", ""),
                "label": a.get("content-desc", ""),
                "identifier": a.get("resource-id", ""),
                "coordinates": {"x": rect.left, "y": rect.top, "width": rect.width, "height": rect.height},
                "focused": a.get("focused") == "true",
            }
        )
    return json.dumps(elements, ensure_ascii=False)


def lost_actionable(nodes: list[Node], listed: set[str], screen: Rect) -> list[str]:
    lost = []
    for node in nodes[1:]:
        takes = node.operations - {hierarchy.Operation.FOCUS} or "long_click" in node.actions
        if not takes or "enabled" not in node.states or node.rect is None or node.rect.is_empty:
            continue
        if screen.intersect(node.rect) is None:
            continue
        if node.handle not in listed:
            lost.append(f"{node.role} {node.name!r} {node.rect}")
    return lost


def end_to_end(dumps: list[Path], repeats: int) -> dict[str, float]:
    """Median ms of a one-shot in-process `winctl --device state` per dump, via the real adb."""
    times: dict[str, float] = {}
    with adb_server() as server, tempfile.TemporaryDirectory() as runtime:
        os.chmod(runtime, 0o700)
        for dump in dumps:
            state = new_state()
            state.screens["bench"] = Screen(dump.read_text(encoding="utf-8"), "app", ".Activity")
            state.current = "bench"
            device = FakeDevice(state)
            server.connect(device)
            env = {
                **server.env,
                "XDG_RUNTIME_DIR": runtime,
                "WINCTL_DEVICE": device.serial,
                "WINCTL_NO_DAEMON": "1",
                "WINCTL_SESSION": f"bench-{dump.stem}",
            }
            samples = []
            for _ in range(repeats):
                started = time.perf_counter()
                run = run_in_process(["state"], env)
                samples.append((time.perf_counter() - started) * 1000)
                assert run.code == 0, run.err
            times[dump.stem] = statistics.median(samples)
            device.close()
            server.adb("disconnect", device.serial)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=20)
    args = parser.parse_args()
    dumps = sorted(DUMPS.glob("*.xml"))
    e2e = end_to_end(dumps, max(3, args.repeats // 4))
    print(
        "| dump | nodes | listed | dump → printed state | `winctl state` via adb | raw XML | agent JSON | "
        "compact | % of XML | % of JSON | chars/element (text / JSON) | actionable lost |"
    )
    print("|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|")
    totals = [0, 0, 0]
    for dump in dumps:
        xml = dump.read_text(encoding="utf-8")
        screen = screen_of(xml)
        samples = []
        for _ in range(args.repeats):
            started = time.perf_counter()
            text, handles, nodes = printed_state(xml, screen)
            samples.append((time.perf_counter() - started) * 1000)
        listed = [h for h in handles if h]
        lost = lost_actionable(nodes, set(listed), screen)
        baseline = agent_json(xml)
        body = text.split("\n", 1)[1] if "\n" in text else ""
        per_text = len(body) / max(1, len(listed))
        per_json = len(baseline) / max(1, baseline.count('"type"'))
        totals[0] += len(xml)
        totals[1] += len(baseline)
        totals[2] += len(text)
        print(
            f"| {dump.stem} | {len(nodes) - 1} | {len(listed)} | {statistics.median(samples):.1f} ms | "
            f"{e2e[dump.stem]:.0f} ms | {len(xml):,} | {len(baseline):,} | {len(text):,} | "
            f"{100 * len(text) / len(xml):.1f} % | {100 * len(text) / len(baseline):.0f} % | "
            f"{per_text:.0f} / {per_json:.0f} | {len(lost)} |"
        )
        for item in lost:
            print(f"    lost: {item}")
    print(
        f"\nall dumps: compact state = {100 * totals[2] / totals[0]:.1f} % of the raw XML, "
        f"{100 * totals[2] / totals[1]:.0f} % of the agent JSON (target <= 5 % of the XML)"
    )


if __name__ == "__main__":
    main()
