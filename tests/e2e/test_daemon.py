"""The session daemon, driven through the real `winctl` script and raw sockets."""

from __future__ import annotations

import json
import os
import random
import stat
import subprocess
import threading
import time

import pytest

from tests.conftest import start_app, stop_app
from tests.e2e.helpers.daemon_wire import TITLE, connect, message, raw_request
from tests.fixtures.applog import AppLog
from tests.fixtures.launch import gtk_fixture_command

pytestmark = pytest.mark.desktop


@pytest.fixture
def app(desktop, tmp_path):
    log = tmp_path / "events.jsonl"
    proc = start_app(desktop, gtk_fixture_command(str(log), rows=60, title=TITLE), TITLE)
    yield AppLog(str(log))
    stop_app(proc)


def test_daemon_output_matches_one_shot_byte_for_byte(shell, app):
    shell("focus", TITLE)
    shell("--session", "s", "focus", TITLE)
    for args in (
        ("--json", "windows"),
        ("--json", "get", "rect", "1"),
        ("--json", "click", "99999"),
        ("--json", "keys", "ctrl+nope"),
        ("keys", "ctrl+nope"),
        ("--json", "frobnicate"),
    ):
        shell("state")
        shell("--session", "s", "state")
        one = shell(*args, expect=None)
        via = shell("--session", "s", *args, expect=None)
        assert (one.returncode, one.stdout, one.stderr) == (via.returncode, via.stdout, via.stderr), args


def test_ids_and_window_live_in_the_daemon(shell, app):
    shell("--session", "s", "focus", TITLE)
    state = json.loads(shell("--session", "s", "--json", "state").stdout)["result"]
    apply = next(t["id"] for t in state["targets"] if t["name"] == "Apply")
    shell("--session", "s", "click", str(apply))
    app.wait_for("clicked", widget="Apply")
    listing = shell("sessions").stdout
    assert listing.startswith("s  pid ") and TITLE in listing
    assert "closed: s" in shell("session", "close", "s").stdout
    assert "(no session daemons)" in shell("sessions").stdout


def test_session_file_is_private_and_requests_need_the_token(shell, app):
    shell("--session", "sec", "windows")
    path = shell.runtime / "winactions" / "daemons" / "sec.json"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    info = shell.info("sec")
    assert raw_request(info, b'{"op": "ping"}\n')["error"].startswith("unauthorized")
    wrong = {**info, "token": "x" * len(info["token"])}
    assert raw_request(info, message(wrong, op="ping"))["error"].startswith("unauthorized")
    assert raw_request(info, message(info, op="ping"))["pong"] is True
    replayed = message(info, op="ping")
    assert raw_request(info, replayed)["pong"] is True
    assert "replayed" in raw_request(info, replayed)["error"]
    assert info["token"].encode() not in replayed, "the token itself never travels"


@pytest.mark.parametrize(
    "payload, fragment",
    [
        (b"{not json\n", "malformed"),
        (b"[1, 2]\n", "malformed"),
        (b"\xff\xfe\n", "malformed"),
    ],
)
def test_malformed_requests_get_errors(shell, app, payload, fragment):
    shell("--session", "bad", "windows")
    info = shell.info("bad")
    assert fragment in raw_request(info, payload)["error"]
    assert raw_request(info, message(info, op="ping"))["pong"]


def test_bad_fields_oversize_disconnects_and_versions(shell, app):
    shell("--session", "rob", "windows")
    info = shell.info("rob")
    assert "unknown op" in raw_request(info, message(info, op="explode"))["error"]
    assert "argv must be" in raw_request(info, message(info, op="run", argv="state"))["error"]
    assert "argv must be" in raw_request(info, message(info, op="run", argv=[1, 2]))["error"]
    assert "version mismatch" in raw_request(info, message({**info, "version": "0.0.0"}, op="ping"))["error"]
    assert "larger than" in raw_request(info, b'{"x": "' + b"a" * (2 * 1024 * 1024))["error"]
    raw_request(info, message(info, op="run", argv=["wait", "0.5"])[:-10], read=False)  # hang up mid-request
    with connect(info) as sock:  # hang up before the answer
        sock.sendall(message(info, op="run", argv=["wait", "0.3"]))
    assert shell("--session", "rob", "windows").returncode == 0


def test_ping_answers_during_a_long_command(shell, app):
    shell("--session", "busy", "windows")
    info = shell.info("busy")
    worker = threading.Thread(target=shell, args=("--session", "busy", "wait", "3"))
    worker.start()
    time.sleep(0.5)
    started = time.monotonic()
    pong = raw_request(info, message(info, op="ping"))
    assert time.monotonic() - started < 1.0 and pong["busy"] is True
    worker.join()


def test_racing_clients_start_one_daemon(shell, app):
    results = []

    def run():
        results.append(shell("--session", "race", "--json", "windows", expect=None))

    threads = [threading.Thread(target=run) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(r.returncode == 0 for r in results)
    daemons = subprocess.run(["pgrep", "-f", "winactions.daemon.server race"], capture_output=True, text=True)
    assert len(daemons.stdout.split()) == 1


def test_stale_session_file_is_replaced(shell, app):
    shell("--session", "stale", "windows")
    info = shell.info("stale")
    os.kill(info["pid"], 9)
    time.sleep(0.3)
    assert shell("--session", "stale", "windows").returncode == 0
    assert shell.info("stale")["pid"] != info["pid"]


def test_idle_daemon_exits(shell, app):
    shell.env["WINCTL_IDLE_TIMEOUT"] = "1"
    shell("--session", "idle", "windows")
    pid = shell.info("idle")["pid"]
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            break
        time.sleep(0.2)
    else:
        raise AssertionError("the idle daemon did not exit")
    assert not (shell.runtime / "winactions" / "daemons" / "idle.json").exists()


def test_app_dying_mid_session_is_an_error_not_a_dead_daemon(shell, desktop, tmp_path):
    proc = start_app(desktop, gtk_fixture_command(str(tmp_path / "d.jsonl"), rows=5, title="Mortal"), "Mortal")
    shell("--session", "m", "focus", "Mortal")
    shell("--session", "m", "state")
    stop_app(proc)
    time.sleep(0.5)
    gone = json.loads(shell("--session", "m", "--json", "state", expect=3).stdout)
    assert gone["error"]["code"] == "window_closed"
    assert shell("--session", "m", "windows").returncode == 0


FUZZ_WORDS = [
    "state",
    "windows",
    "click",
    "get",
    "text",
    "--json",
    "--window",
    "-1",
    "99999",
    "abc",
    "",
    "keys",
    "ctrl+x",
    "wait",
    "0",
    "drag-at",
    "--",
    "é✓",
    "\x00",
    "--verbose",
    "nope",
    "{",
    "select",
]
FUZZ_VALUES = [None, 1, -1, 2**70, 1.5, "", "x", [], {}, [1], {"a": 1}, True, "ping", "run", "shutdownx"]


def fuzzed(rng: random.Random, info: dict) -> bytes:
    """One generated request of some kind of wrongness, drawn from `rng`."""
    kind = rng.randrange(8)
    if kind == 6:  # nesting deep enough to exhaust a recursive parser
        depth = rng.randrange(500, 20_000)
        opener, closer = rng.choice([(b"[", b"]"), (b'{"a":', b"}")])
        return opener * depth + b"1" + closer * depth + b"\n"
    if kind == 7:  # lone surrogates wherever a string goes, authorized or not
        bad = rng.choice(["\udcff", "\ud800", "x\udfffy"])
        fields = {"op": "run", "argv": ["keys", bad], "version": info["version"]}
        fields[rng.choice(["version", "op", "argv", "cwd", "token", "env"])] = bad
        return message(info, **fields) if rng.random() < 0.5 else json.dumps(fields).encode() + b"\n"
    if kind == 0:
        return bytes(rng.randrange(256) for _ in range(rng.randrange(1, 200))) + b"\n"
    if kind == 1:
        return json.dumps(rng.choice(FUZZ_VALUES)).encode() + b"\n"
    if kind == 2:
        body = {rng.choice(["op", "argv", "token", "version", "x"]): rng.choice(FUZZ_VALUES) for _ in range(3)}
        return json.dumps(body).encode() + b"\n"
    if kind == 3:
        return message(info, op=rng.choice(["ping", "explode", 7, None]))
    argv = [rng.choice(FUZZ_WORDS) for _ in range(rng.randrange(0, 5))]
    if argv[:1] in (["wait"],):
        argv = ["windows"]
    return message(info, op="run", argv=argv)


@pytest.mark.timeout(480)  # ~80 s on an idle 2-core machine; this machine's speed varies up to 3x
def test_fuzz_ten_thousand_requests(shell, app):
    """Generated requests of every kind of wrongness: every one gets an answer, and the
    daemon is still alive and correct at the end."""
    shell("--session", "fuzz", "windows")
    info = shell.info("fuzz")
    rng = random.Random(1234)

    calls = random.Random(34)

    def bad_call() -> bytes:
        """A structured call with a value no id, name or window can be (issue 34)."""
        command, field = calls.choice(
            [("click", "id"), ("get text", "id"), ("focus", "window"), ("wait", "visible"), ("state", "scope")]
        )
        value = calls.choice([True, False, 1.0, -0.0, "", "  ", "\ud800", [], {}, [[[[1]]]]])
        if calls.random() < 0.1:  # a 70 KB name, where it is only looked up (a click would try OCR for it)
            command, field, value = *calls.choice([("get text", "id"), ("focus", "window")]), "x" * 70_000
        return message(info, op="call", command=command, args={field: value}, options={})

    answered = 0
    for i in range(10_000):
        payload = bad_call() if i % 10 == 9 else fuzzed(rng, info)
        reply = raw_request(info, payload)
        assert isinstance(reply, dict)
        if b'"op": "call"' in payload:  # a bad value is refused, never acted on or an internal error
            assert reply["ok"] is False and "internal error" not in reply["error"]["message"], reply
        answered += 1
    assert answered == 10_000
    assert raw_request(info, message(info, op="ping"))["pong"]
    assert TITLE in shell("--session", "fuzz", "windows").stdout


def test_live_state_follows_changes_made_behind_its_back(shell, app, desktop):
    """The daemon caches the tree; whatever another process changes must show at once."""
    shell("--session", "live", "focus", TITLE)

    def names():
        state = json.loads(shell("--session", "live", "--json", "state").stdout)["result"]
        return {t["name"]: t for t in state["targets"]}, state

    before, _ = names()
    assert "Applied 1" not in before
    names()  # a second read comes from the cache
    one_shot = lambda *a: shell("--window", TITLE, *a)  # noqa: E731 - another process, no session
    ids = {(t["type"], t["name"]): t["id"] for t in json.loads(one_shot("--json", "state").stdout)["result"]["targets"]}
    one_shot("click", str(ids["Button", "Apply"]))
    app.wait_for("clicked", widget="Apply")
    assert "Applied 1" in names()[0]
    one_shot("input", str(ids["Edit", "Name"]), "changed elsewhere")
    app.wait_for("entry_changed", text="changed elsewhere")
    _, now = names()
    assert any(t.get("value") == "changed elsewhere" for t in now["targets"])
    one_shot("click", str(ids["Button", "Add Row"]))
    app.wait_for("row_added")
    assert "added-1.txt" in names()[0]
    subprocess.run(["xdotool", "search", "--name", TITLE, "windowmove", "200", "150"], env=desktop.env, check=True)
    time.sleep(0.5)
    moved, state = names()
    assert abs(state["window"]["rect"]["left"] - 200) <= 10  # xdotool places the frame
    apply_rect = json.loads(shell("--session", "live", "--json", "get", "rect", str(moved["Apply"]["id"])).stdout)[
        "result"
    ]["value"]
    assert abs(apply_rect[0] - state["window"]["rect"]["left"]) < 200
    table = moved["Files"]["id"]
    one_shot("scroll", str(ids["Table", "Files"]), "down", "10")
    app.wait_for("scrolled")
    time.sleep(0.3)
    after, _ = names()
    assert "file-001.txt" not in after, "rows scrolled by another process must not linger"
    assert table == after["Files"]["id"]
