"""Ids are given for one run of an app: the same handle in another run is another element."""

import os
import subprocess

from winactions.backends.linux.backend import process_start
from winactions.model import Rect, Source, Target
from winactions.session.ids import IdRegistry, identity_key

HANDLE = ":1.0/org/a11y/atspi/accessible/4"  # what a restarted desktop hands a new app again
OLD, NEW = "bus aa pid 100@5000", "bus bb pid 100@7000"


def button(name: str, handle: str | None = HANDLE) -> Target:
    return Target(id=0, type="Button", name=name, handle=handle, rect=Rect(left=0, top=0, right=50, bottom=20))


def test_the_same_handle_in_another_run_is_another_key():
    assert identity_key(button("Save"), OLD) != identity_key(button("Btn02"), NEW)
    assert identity_key(button("Save"), OLD) == identity_key(button("Save"), OLD)
    assert identity_key(button("Save")) == HANDLE  # a platform that cannot tell runs keys by handle alone


def test_an_element_of_another_run_never_gets_an_old_id():
    """After the desktop restarted, another app got the old window's X id and bus name, and its
    buttons were listed under the old ids ([205] [Menu] "File" became [205] [Button] "Btn02")."""
    registry = IdRegistry()
    (first,) = registry.assign([button("Save")], run=OLD)
    assert registry.retire("0x400003", OLD) is False  # the first run seen in the window
    assert registry.retire("0x400003", NEW) is True
    (second,) = registry.assign([button("Btn02")], run=NEW)
    assert second.id != first.id and second.id > first.id
    (again,) = registry.assign([button("Btn02")], run=NEW)
    assert again.id == second.id  # stable within its run


def test_retired_ids_are_dropped_and_never_handed_out_again():
    registry = IdRegistry()
    registry.retire("0x1", OLD)
    old = registry.assign([button("A", ":1.0/a/1"), button("B", ":1.0/a/2")], run=OLD)
    registry.retire("0x1", NEW)
    assert not any(key.startswith(OLD) for key in registry.ids)
    new = registry.assign([button("A", ":1.0/a/1"), button("B", ":1.0/a/2")], run=NEW)
    assert {t.id for t in old}.isdisjoint({t.id for t in new})
    assert registry.next_id == 5


def test_other_windows_runs_keep_their_ids():
    registry = IdRegistry()
    registry.retire("0x1", OLD)
    registry.retire("0x2", "bus aa pid 200@6000")
    (kept,) = registry.assign([button("Other", ":1.5/x/1")], run="bus aa pid 200@6000")
    registry.retire("0x1", NEW)
    (same,) = registry.assign([button("Other", ":1.5/x/1")], run="bus aa pid 200@6000")
    assert same.id == kept.id


def test_an_unknown_run_changes_nothing():
    registry = IdRegistry()
    registry.retire("0x1", OLD)
    assert registry.retire("0x1", None) is False
    assert registry.runs == {"0x1": OLD}


def test_derived_elements_are_keyed_by_run_too():
    line = Target(
        id=0,
        type="Splitter",
        name="",
        source=Source.INFERRED,
        rect=Rect(left=10, top=10, right=12, bottom=200),
        derived_from="[#3]",
    )
    registry = IdRegistry()
    (a,) = registry.assign([line], run=OLD)
    (b,) = registry.assign([line], run=NEW)
    assert a.id != b.id


def test_the_registry_keeps_its_runs_and_reads_older_data():
    registry = IdRegistry()
    registry.retire("0x1", OLD)
    registry.assign([button("A")], run=OLD)
    loaded = IdRegistry.from_data(registry.to_data())
    assert loaded.runs == {"0x1": OLD} and loaded.ids == registry.ids and loaded.next_id == 2
    older = IdRegistry.from_data({"next_id": 7, "ids": {HANDLE: 6}})  # written before runs were kept
    assert older.runs == {} and older.next_id == 7


def test_a_process_start_is_read_from_proc_and_none_once_it_is_gone():
    mine = process_start(os.getpid())
    assert mine is not None and mine.isdigit() and mine == process_start(os.getpid())
    child = subprocess.Popen(["sleep", "0"])
    child.wait()
    assert process_start(child.pid) is None  # reaped: no such process
