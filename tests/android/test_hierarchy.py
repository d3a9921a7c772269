"""The dump → nodes mapping, on every recorded dump of a real app (no device needed)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.fixtures.android.fake_device import IDLE_ERROR, NULL_ROOT, TRAILER
from winactions.backends.android import hierarchy
from winactions.backends.android.source import NoTree, UiautomatorDump
from winactions.errors import AppBusy
from winactions.model import CONTROL_TYPES, Node, Operation, Rect, Snapshot
from winactions.perception.accessibility import targets_from_snapshot

DUMPS = sorted((Path(__file__).parents[1] / "fixtures" / "android" / "dumps").glob("*.xml"))
SCREEN = Rect(left=0, top=0, right=1080, bottom=2340)


def nodes_of(name: str) -> list[Node]:
    xml = (DUMPS[0].parent / name).read_text(encoding="utf-8")
    root = Node(
        handle="screen",
        parent=None,
        role="Window",
        native_role="screen",
        states=frozenset({"visible", "showing"}),
        rect=SCREEN,
    )
    return hierarchy.to_nodes(hierarchy.parse_dump(xml), root)


@pytest.mark.parametrize("dump", DUMPS, ids=lambda p: p.stem)
def test_every_recorded_dump_maps_into_the_shared_vocabulary(dump: Path) -> None:
    nodes = nodes_of(dump.name)
    assert len(nodes) > 10
    assert all(n.role in CONTROL_TYPES for n in nodes)
    assert len({n.handle for n in nodes}) == len(nodes)  # every element its own identity
    assert all(n.parent is None or n.parent < i for i, n in enumerate(nodes))
    targets = targets_from_snapshot(Snapshot(nodes=nodes), [SCREEN])
    assert targets and all(t.rect is not None and SCREEN.intersect(t.rect) == t.rect for t in targets)
    assert nodes_of(dump.name) == nodes  # the same dump gives the same handles


def test_flags_map_onto_operations() -> None:
    shade = nodes_of("systemui_shade.xml")
    tiles = [n for n in shade if n.automation_id == "com.android.systemui:id/qs_tile_toggle_target"]
    assert tiles and all(
        n.role == "CheckBox" and Operation.TOGGLE in n.operations and n.value in ("on", "off") for n in tiles
    )
    assert all("long_click" in n.actions for n in tiles)
    forms = nodes_of("wdio_forms.xml")
    switch = next(n for n in forms if n.native_role == "android.widget.Switch")
    assert switch.role == "CheckBox" and Operation.TOGGLE in switch.operations
    login = nodes_of("wdio_login.xml")
    password = next(n for n in login if n.name == "input-password")
    assert "protected" in password.states and password.value is None and Operation.SET_TEXT in password.operations
    scroll = next(n for n in login if n.name == "Login-screen")
    assert scroll.role == "ScrollPane" and Operation.SCROLL in scroll.operations
    assert all(not (n.name and ord(n.name[0]) >= 0xF0000) for n in login)  # icon glyphs are no names


def test_a_settings_row_is_named_by_its_first_label() -> None:
    messaging = nodes_of("messaging_conversation.xml")
    clickable = [n for n in messaging if Operation.INVOKE in n.operations and n.role in ("Button", "ListItem")]
    assert any(n.name.startswith("You said  test") for n in clickable)  # a bubble, as TalkBack reads it


def test_the_trailer_is_stripped_and_transient_failures_retried() -> None:
    xml = DUMPS[0].read_text(encoding="utf-8")
    answers = [IDLE_ERROR, NULL_ROOT, xml + TRAILER]
    slept: list[float] = []
    source = UiautomatorDump(lambda argv: answers.pop(0), sleep=slept.append)
    assert source.dump() == xml.strip() and len(slept) == 2
    keeps_failing = UiautomatorDump(lambda argv: IDLE_ERROR, sleep=slept.append)
    with pytest.raises(AppBusy, match="never settled"):
        keeps_failing.dump()
    no_tree = UiautomatorDump(lambda argv: NULL_ROOT, sleep=slept.append)
    with pytest.raises(NoTree):
        no_tree.dump()
