"""The session daemon under attack and after its desktop is gone (issue 10, items 4 and 6-9):
squatted folders, bad session names, impostors on its port, hostile requests."""

from __future__ import annotations

import contextlib
import json
import os
import socket
import subprocess
import time

import pytest

from tests.conftest import start_app, stop_app
from tests.e2e.helpers.daemon_wire import (
    FORGED,
    TITLE,
    FakeDaemon,
    connect,
    daemons_of,
    message,
    raw_exchange,
    raw_request,
    wait_gone,
)
from tests.e2e.helpers.runners import WINCTL
from tests.fixtures.launch import gtk_fixture_command
from winactions.backends.linux.virtual_desktop import VirtualDesktop
from winactions.daemon.auth import sign
from winactions.daemon.server import MAX_CONNECTIONS, REQUEST_DEADLINE

pytestmark = pytest.mark.desktop


@pytest.fixture
def app(desktop, tmp_path):
    proc = start_app(desktop, gtk_fixture_command(str(tmp_path / "events.jsonl"), rows=5, title=TITLE), TITLE)
    yield
    stop_app(proc)


# -- 4. a daemon outlives its desktop ----------------------------------------------------------
def test_a_client_on_a_new_desktop_gets_a_working_daemon_and_the_old_one_exits(tmp_path):
    runtime = tmp_path / "runtime"
    runtime.mkdir(mode=0o700)

    def run(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [WINCTL, *args], env={**env, "XDG_RUNTIME_DIR": str(runtime)}, capture_output=True, text=True, timeout=120
        )

    info_path = runtime / "winactions" / "daemons" / "default.json"
    with VirtualDesktop() as first:
        assert run(first.env, "windows").returncode == 0
        old_pid = json.loads(info_path.read_text())["pid"]
    # the first desktop (display, buses) is gone; the daemon it served notices and exits
    assert wait_gone(old_pid, 10), "a daemon whose desktop is gone kept running"
    with VirtualDesktop() as second:
        proc = start_app(second, ["xmessage", "-title", "Second Desktop", "hello"], "Second Desktop")
        try:
            done = run(second.env, "windows")
            assert done.returncode == 0 and "Second Desktop" in done.stdout, done.stderr
            assert "internal error" not in done.stderr
            assert json.loads(info_path.read_text())["pid"] != old_pid
        finally:
            stop_app(proc)
            run(second.env, "session", "close", "--all")


# -- 6. a runtime folder that is not ours ------------------------------------------------------------
@pytest.mark.parametrize("attack", ["other-owner", "symlink"])
def test_a_squatted_runtime_folder_is_never_used(desktop, tmp_path, attack):
    tmp, home, elsewhere = tmp_path / "tmp", tmp_path / "home", tmp_path / "elsewhere"
    for d in (tmp, home, elsewhere):
        d.mkdir()
    squat = tmp / f"winactions-{os.getuid()}"
    if attack == "symlink":
        squat.symlink_to(elsewhere)
        planted = elsewhere
    else:
        assert os.getuid() == 0, "this test plays another user with chown: run the suite as root (CI does)"
        squat.mkdir()
        os.chmod(squat, 0o777)
        planted = squat
    (planted / "daemons").mkdir()
    fake = FakeDaemon()
    (planted / "daemons" / "sq.json").write_text(
        json.dumps({"pid": os.getpid(), "port": fake.port, "token": "planted", "version": "0.1.0", "desktop": ""})
    )
    if attack == "other-owner":
        for path in (squat, squat / "daemons", squat / "daemons" / "sq.json"):
            os.chown(path, 65534, 65534)
    env = {k: v for k, v in desktop.env.items() if k != "XDG_RUNTIME_DIR"}
    env.update(TMPDIR=str(tmp), HOME=str(home))
    before = sorted(p.name for p in planted.rglob("*"))
    try:
        done = subprocess.run(
            [WINCTL, "--session", "sq", "windows"], env=env, capture_output=True, text=True, timeout=60
        )
        assert done.returncode == 0, done.stderr
        assert FORGED not in done.stdout and fake.received == []
        assert sorted(p.name for p in planted.rglob("*")) == before, "something was written into the squat"
        assert (home / ".cache" / "winactions-runtime" / "daemons" / "sq.json").exists()
    finally:
        subprocess.run([WINCTL, "session", "close", "--all"], env=env, capture_output=True, timeout=30)
        fake.stop()


def test_an_unsafe_xdg_runtime_folder_is_refused(desktop, tmp_path):
    runtime = tmp_path / "xdg"
    runtime.mkdir()
    (runtime / "winactions").symlink_to(tmp_path)
    done = subprocess.run(
        [WINCTL, "windows"],
        env={**desktop.env, "XDG_RUNTIME_DIR": str(runtime)},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 5 and "unsafe runtime folder" in done.stderr and "not a folder" in done.stderr
    one_shot = subprocess.run(
        [WINCTL, "--no-daemon", "--json", "windows"],
        capture_output=True,
        text=True,
        env={**desktop.env, "XDG_RUNTIME_DIR": str(runtime)},
        timeout=60,
    )
    assert one_shot.returncode == 5 and json.loads(one_shot.stdout)["error"]["code"] == "backend_unavailable"


# -- 7. session names are checked before any file is named after them ------------------------------
@pytest.mark.parametrize("name", ["../../../tmp/x/evil", "..", "a/b", "", "x" * 65, "evil\n"])
def test_a_bad_session_name_writes_nothing(shell, tmp_path, name):
    target = tmp_path / "x"
    for extra in ((), ("--no-daemon",)):
        done = shell(*extra, "--session", name, "windows", expect=2)
        assert "bad session name" in done.stderr
    assert not target.exists()
    written = [p.name for p in shell.runtime.rglob("*") if p.is_file()]
    assert not any("evil" in w or w.startswith("..") for w in written), written
    daemons = subprocess.run(["pgrep", "-f", "winactions.daemon.server .*evil"], capture_output=True, text=True)
    assert daemons.stdout == ""


# -- 8. an impostor on the daemon's port ---------------------------------------------------------


@pytest.mark.parametrize("transport", ["tcp", "unix"])
def test_an_impostor_at_the_recorded_address_hears_nothing_and_is_not_believed(shell, app, transport):
    """The session file points at a listener that is not the daemon, while the daemon runs on.
    Over TCP the listener hears only the client's hello (a nonce), over a Unix socket nothing at
    all (its peer is not the recorded pid); its forged answer is never printed, and since the
    recorded daemon may be alive the client reports the mismatch instead of starting another
    daemon (issue 34: it used to start one, orphaning the first). `session close` ends it."""
    if transport == "tcp":
        shell.env["WINACTIONS_DAEMON_TRANSPORT"] = "tcp"
    shell("--session", "imp", "focus", TITLE)
    path = shell.runtime / "winactions" / "daemons" / "imp.json"
    info = json.loads(path.read_text())
    fake = FakeDaemon()
    fake_unix, heard = socket.socket(socket.AF_UNIX), []
    fake_unix.bind(str(path.with_name("fake.sock")))
    fake_unix.listen(8)
    fake_unix.settimeout(0.2)
    try:
        where = {"port": fake.port} if transport == "tcp" else {"socket": str(path.with_name("fake.sock"))}
        path.write_text(json.dumps({**info, **where}))  # the real daemon's pid is still alive
        done = shell("--session", "imp", "windows", expect=5)
        with contextlib.suppress(OSError):
            heard.append(fake_unix.accept()[0].recv(65536))
        assert FORGED not in done.stdout and "not the session's daemon" in done.stderr, done.stderr
        received = [r for r in fake.received + heard if r]
        if transport == "tcp":
            assert received and all(set(json.loads(r)) == {"hello"} for r in received), received
        else:
            assert received == [], received
        assert daemons_of("imp") == [info["pid"]], "a second daemon was started"
        assert "closed: imp" in shell("session", "close", "imp").stdout
        assert wait_gone(info["pid"], 10), "session close left the daemon running"
    finally:
        fake.stop()
        fake_unix.close()


# -- 9. requests the daemon must answer -----------------------------------------------------------
@pytest.mark.parametrize(
    "payload, fragment",
    [
        (b"[" * 5000 + b"]" * 5000 + b"\n", "malformed"),
        (b'{"a":' * 2000 + b"1" + b"}" * 2000 + b"\n", "malformed"),
        (b'{"nonce": "\\udcff\\udcfe0123456789abcdef", "auth": "x"}\n', "unauthorized"),
    ],
)
def test_deep_nesting_and_lone_surrogates_get_answers(shell, app, payload, fragment):
    shell("--session", "deep", "windows")
    info = shell.info("deep")
    assert fragment in raw_request(info, payload)["error"]
    assert raw_request(info, message(info, op="ping"))["pong"]


def test_lone_surrogates_in_authorized_fields_get_answers(shell, app):
    shell("--session", "sur", "windows")
    info = shell.info("sur")
    nonce = os.urandom(16).hex()
    body = {"version": "\udcff", "nonce": nonce, "auth": sign(info["token"], nonce, "client"), "op": "ping"}
    proof, reply = raw_exchange(info, json.dumps(body).encode() + b"\n")
    assert "version mismatch" in reply["error"] and "\\udcff" in reply["error"]
    assert proof == sign(info["token"], nonce, json.dumps(reply)), "errors are proven like answers"
    argv = message(info, op="run", argv=["keys", "\udcff"])
    assert "not valid UTF-8" in raw_request(info, argv)["stderr"]


def test_a_trickling_client_is_cut_at_the_deadline_and_threads_are_capped(shell, app):
    shell("--session", "slow", "windows")
    info = shell.info("slow")
    pid = info["pid"]
    started = time.monotonic()
    with connect(info, timeout=30) as slow:
        answer = b""
        try:
            while not answer:
                slow.sendall(b" ")
                slow.settimeout(1.0)
                try:
                    answer = slow.recv(4096)
                except TimeoutError:
                    continue
        except (BrokenPipeError, ConnectionResetError):
            pass
    took = time.monotonic() - started
    assert REQUEST_DEADLINE - 0.5 <= took <= REQUEST_DEADLINE + 5, took
    # the error line, unless the close reset the connection under our last byte (TCP drops it then)
    assert answer == b"" or b"not complete within" in answer, answer
    idle = [connect(info) for _ in range(300)]
    try:
        time.sleep(0.5)
        threads = len(os.listdir(f"/proc/{pid}/task"))
        assert threads <= MAX_CONNECTIONS + 12, f"{threads} threads for 300 idle connections"
        extra = raw_request(info, message(info, op="ping"))
        assert extra.get("pong") or "busy" in extra.get("error", ""), extra
    finally:
        for sock in idle:
            sock.close()
    time.sleep(0.3)
    deadline = time.monotonic() + REQUEST_DEADLINE + 5
    while time.monotonic() < deadline:  # the idle ones time out; the daemon serves again
        reply = raw_request(info, message(info, op="ping"))
        if reply.get("pong"):
            break
        time.sleep(0.5)
    else:
        raise AssertionError("the daemon never recovered from 300 idle connections")
