"""A session's record: its switch, its log's format, what a line keeps and masks, and which
lines a replay acts — without a desktop (the live record and replay: tests/e2e/test_record_replay.py)."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

import pytest
from PIL import Image

from winactions.commands.base import load_commands
from winactions.commands.recorder import kept, ref_fields
from winactions.commands.results import ActionResult
from winactions.commands.session_replay import replayable
from winactions.errors import ActionFailed, InvalidInput
from winactions.model import Rect, Target, UIState, WindowInfo
from winactions.session import recording as rec
from winactions.session.store import SessionStore

WINDOW = WindowInfo(id="w1", title="Login", rect=Rect(left=0, top=0, right=400, bottom=300))


def _state(*targets: Target) -> UIState:
    return UIState(window=WINDOW, targets=list(targets), timestamp="t")


def _store(tmp_path: Path) -> SessionStore:
    return SessionStore("rec", directory=tmp_path / "sessions")


def test_start_writes_the_header_and_the_switch_and_stop_clears_it(tmp_path):
    store = _store(tmp_path)
    on = rec.start(store, tmp_path / "r")
    assert rec.current(store) == on and on.folder == str((tmp_path / "r").resolve())
    header = json.loads((tmp_path / "r" / rec.LOG).read_text())
    assert header["event"] == "session-record" and header["format"] == rec.FORMAT and header["session"] == "rec"
    assert rec.is_session_record(tmp_path / "r") and rec.is_session_record(tmp_path / "r" / rec.LOG)
    assert rec.stop(store) == on and rec.current(store) is None and rec.stop(store) is None


def test_a_second_start_and_a_folder_holding_a_record_are_refused(tmp_path):
    store = _store(tmp_path)
    rec.start(store, tmp_path / "r")
    with pytest.raises(InvalidInput, match="records into"):
        rec.start(store, tmp_path / "other")
    rec.stop(store)
    with pytest.raises(InvalidInput, match="already holds a record"):
        rec.start(store, tmp_path / "r")
    (tmp_path / "run").mkdir()
    (tmp_path / "run" / "run.jsonl").write_text('{"event": "plan"}\n')
    with pytest.raises(InvalidInput, match=r"already holds a record \(run.jsonl\)"):
        rec.start(store, tmp_path / "run")
    assert rec.current(store) is None and not (tmp_path / "other").exists()


def test_a_runs_record_is_told_from_a_sessions_by_its_header(tmp_path):
    (tmp_path / "run").mkdir()
    (tmp_path / "run" / rec.LOG).write_text('{"event": "plan", "task": "x"}\n')  # the name alone does not make it one
    assert not rec.is_session_record(tmp_path / "run") and not rec.is_session_record(tmp_path / "missing")
    with pytest.raises(InvalidInput, match="does not start with a session record's header"):
        rec.read(tmp_path / "run")
    (tmp_path / "run" / rec.LOG).write_text('{"event": "session-record", "format": 1}\nnot json\n')
    with pytest.raises(InvalidInput, match="line 2 is not JSON"):
        rec.read(tmp_path / "run")


def test_the_text_of_a_password_field_is_masked_and_nothing_else():
    args = {"id": 3, "text": "hunter2", "enter": True}
    assert rec.masked(args, secret=True) == {"id": 3, "text": rec.MASK, "enter": True}
    assert rec.masked(args, secret=False) == args
    assert rec.is_secret(Target(id=1, type="Edit", states=["protected"])) and not rec.is_secret(
        Target(id=1, type="Edit")
    )


def test_an_element_is_kept_by_name_type_and_the_path_of_its_parents():
    pane, table = Target(id=1, type="Pane"), Target(id=2, type="Table", name="Files", parent_id=1)
    row = Target(id=3, type="DataItem", name="a.txt", parent_id=2)
    assert rec.element(row, _state(pane, table, row)) == {
        "id": 3,
        "name": "a.txt",
        "type": "DataItem",
        "path": ["Pane", 'Table "Files"'],
    }


def _ctx(tmp_path: Path, before: UIState, after: UIState) -> SimpleNamespace:
    """What `kept` uses of a call's context: a session with a store, a backend that captures,
    its latest state and the state read after the act."""
    backend = SimpleNamespace(capture=lambda rect: Image.new("RGB", (rect.right - rect.left, rect.bottom - rect.top)))
    session = SimpleNamespace(
        store=_store(tmp_path), backend=backend, data=SimpleNamespace(state=before), settled_state=lambda: after
    )
    return SimpleNamespace(opened=session, session=session, window=lambda: WINDOW, forget_window=lambda: None)


def test_text_typed_into_a_password_field_never_reaches_the_record(tmp_path):
    secret = Target(id=4, type="Edit", name="Password", states=["protected", "focused"])
    ctx = _ctx(tmp_path, _state(secret), _state(secret))
    rec.start(ctx.session.store, tmp_path / "r")
    cmd = load_commands()["input"]
    params = cmd.params.model_validate({"id": 4, "text": "hunter2"})
    said = ActionResult(action="input", method="keys", target=secret, detail="typed hunter2")
    assert kept(ctx, cmd, params, lambda: said) is said  # the caller still gets the whole result

    def refused():
        raise ActionFailed("the field refused 'hunter2'")

    with pytest.raises(ActionFailed):
        kept(ctx, cmd, params, refused)
    typed = load_commands()["type"]  # `type` has no element: the focused one is a password field
    kept(ctx, typed, typed.params.model_validate({"text": "hunter2"}), lambda: ActionResult(action="type", method="k"))
    log = (tmp_path / "r" / rec.LOG).read_text()
    assert "hunter2" not in log
    _, calls = rec.read(tmp_path / "r")
    assert [c["args"]["text"] for c in calls] == [rec.MASK] * 3 and all(c["masked"] for c in calls)
    assert calls[0]["ok"] and calls[0]["element"]["name"] == "Password" and "value_after" not in calls[0]["element"]
    assert calls[1]["ok"] is False and calls[1]["error"]["message"] == f"the field refused '{rec.MASK}'"
    assert (tmp_path / "r" / calls[0]["before"]).read_bytes()[:3] == b"\xff\xd8\xff"  # a JPEG picture


def test_a_read_is_kept_without_pictures_and_record_commands_are_not_kept(tmp_path):
    field = Target(id=5, type="Edit", name="User", value="ann")
    ctx = _ctx(tmp_path, _state(field), _state(field))
    rec.start(ctx.session.store, tmp_path / "r")
    get = load_commands()["get value"]
    from winactions.commands.results import ValueResult

    kept(ctx, get, get.params.model_validate({"id": 5}), lambda: ValueResult(what="value", target_id=5, value="ann"))
    status = load_commands()["record status"]
    kept(ctx, status, status.params.model_validate({}), lambda: ValueResult(what="x", target_id=0, value=""))
    _, calls = rec.read(tmp_path / "r")
    assert len(calls) == 1 and calls[0]["command"] == "get value" and calls[0]["element"]["name"] == "User"
    assert "before" not in calls[0] and "after" not in calls[0] and "changes" not in calls[0]
    assert list((tmp_path / "r").glob("*.jpg")) == []


def test_a_replay_acts_the_innermost_acting_calls_that_succeeded_in_order():
    calls = [
        {"step": 3, "command": "click", "kind": "action", "ok": True, "within": 1},
        {"step": 1, "command": "batch", "kind": "action", "ok": True},  # ran 2 and 3: they are replayed
        {"step": 2, "command": "keys", "kind": "action", "ok": True, "within": 1},
        {"step": 4, "command": "state", "kind": "read", "ok": True},
        {"step": 5, "command": "click", "kind": "action", "ok": False},
        {"step": 6, "command": "focus", "kind": "window", "ok": True},
        {"step": 7, "command": "run", "kind": "action", "ok": True},  # a dry run: nothing inside
    ]
    assert [c["step"] for c in replayable(calls)] == [2, 3, 6]


def test_the_parameters_that_name_an_element_are_found_from_the_table():
    commands = load_commands()
    assert ref_fields(commands["click"].params) == ["id"] and ref_fields(commands["input"].params) == ["id"]
    assert ref_fields(commands["keys"].params) == []


def test_a_replayed_step_that_acts_elsewhere_or_leaves_another_value_is_told():
    from winactions.commands.session_replay import _differs

    name = Target(id=7, type="Edit", name="Name", value="HELLO")
    ctx = SimpleNamespace(session=SimpleNamespace(settled_state=lambda: _state(name)))
    recorded = {"type": "Edit", "name": "Name", "value_after": "hello"}
    done = ActionResult(action="input", method="keys", target=name)
    assert _differs(ctx, recorded, done) == "its value is 'HELLO', the record's 'hello'"
    assert _differs(ctx, {**recorded, "value_after": "HELLO"}, done) == ""
    other = ActionResult(action="click", method="k", target=Target(id=8, type="Button", name="Name"))
    assert _differs(ctx, recorded, other) == 'it acted on [Button] "Name", the record on [Edit] "Name"'


def test_a_session_record_with_nothing_to_act_is_refused_before_anything_is_done(tmp_path):
    from winactions.commands.session_replay import replay_session

    store = _store(tmp_path)
    on = rec.start(store, tmp_path / "r")
    rec.append(on, {"event": "call", "step": 1, "command": "state", "kind": "read", "ok": True})
    rec.stop(store)
    ctx = SimpleNamespace(session=SimpleNamespace(store=store))
    with pytest.raises(InvalidInput, match="no acting command that succeeded"):
        replay_session(ctx, str(tmp_path / "r"), dry_run=False, record=None, max_steps=10, timeout=10)


def test_the_record_group_says_what_it_is_for_and_get_keeps_its_words():
    from click.testing import CliRunner

    from winactions.cli.app import build_cli

    cli = build_cli()
    said = CliRunner().invoke(cli, ["record", "--help"]).output
    assert "Record this session's commands into a folder" in said and "something about an element" not in said
    assert "Get something about an element." in CliRunner().invoke(cli, ["get", "--help"]).output


def test_a_batch_that_typed_a_password_holds_it_nowhere_and_its_step_is_within_it(tmp_path):
    secret = Target(id=4, type="Edit", name="Password", states=["protected"])
    ctx = _ctx(tmp_path, _state(secret), _state(secret))
    rec.start(ctx.session.store, tmp_path / "r")
    batch, typed = load_commands()["batch"], load_commands()["input"]
    steps = [{"command": "input", "args": {"id": 4, "text": "hunter2"}}]

    def run_batch():
        inner = typed.params.model_validate(steps[0]["args"])
        kept(ctx, typed, inner, lambda: ActionResult(action="input", method="k", target=secret))
        return ActionResult(action="batch", method="steps", detail="1. input hunter2: done")

    kept(ctx, batch, batch.params.model_validate({"steps": steps}), run_batch)
    assert "hunter2" not in (tmp_path / "r" / rec.LOG).read_text()
    _, calls = rec.read(tmp_path / "r")
    inner, outer = calls  # the inner call's line is written first, when it ends
    assert inner["within"] == outer["step"] == 1 and inner["step"] == 2
    assert outer["masked"] and outer["args"]["steps"][0]["args"]["text"] == rec.MASK
    assert outer["result"].endswith(f"1. input {rec.MASK}: done") and [c["step"] for c in replayable(calls)] == [2]


def test_a_record_that_cannot_be_written_stops_and_the_done_call_says_so(tmp_path):
    """Before: a record that could not be written (a full disk) failed the call after its act
    had been done — a false failure. Now the call's result stands, says the record stopped,
    and the switch is off."""
    field = Target(id=5, type="Edit", name="User", value="ann")
    ctx = _ctx(tmp_path, _state(field), _state(field))
    ctx.session.done_on_the_way = []
    rec.start(ctx.session.store, tmp_path / "r")
    (tmp_path / "r" / rec.LOG).unlink()
    (tmp_path / "r" / rec.LOG).mkdir()  # the log can no longer be opened for writing
    cmd = load_commands()["input"]
    said = ActionResult(action="input", method="keys", target=field, detail="")
    assert kept(ctx, cmd, cmd.params.model_validate({"id": 5, "text": "bob"}), lambda: said) is said
    (note,) = ctx.session.done_on_the_way
    assert note.startswith("cannot write the record in") and note.endswith("recording stopped before step 1"), note
    assert rec.current(ctx.session.store) is None
