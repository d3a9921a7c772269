"""The session daemon against a second local user and a careless client (issue 34, items 1-2).

The second user is real: made with `useradd` for the test, acting through `runuser`, removed
after. The runtime folder's parent is world-traversable here (as /run/user/UID is not, but a
temp directory is), so only the daemon's own transport keeps that user out.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import stat
import subprocess
import tempfile
import threading
import time
import uuid
from pathlib import Path

import pytest

from tests.conftest import start_app, stop_app
from tests.e2e.helpers.daemon_wire import FORGED, TITLE, FakeDaemon, Shell, daemons_of, wait_gone
from tests.e2e.helpers.runners import WINCTL
from tests.fixtures.launch import gtk_fixture_command
from winactions.daemon.server import MAX_CONNECTIONS

pytestmark = pytest.mark.desktop
ATTACKER = Path(__file__).parents[1] / "fixtures" / "attacker.py"
SECRETS = (b"hunter2", b"PASSWORD", b"sk-test")


class OtherUser:
    """A second Unix user running the attacker script; its files live in a folder it owns."""

    def __init__(self, home: Path) -> None:
        self.name = f"wa{uuid.uuid4().hex[:10]}"
        subprocess.run(["useradd", "--no-create-home", "--shell", "/usr/sbin/nologin", self.name], check=True)
        self.uid = int(subprocess.run(["id", "-u", self.name], capture_output=True, text=True, check=True).stdout)
        self.home = home
        home.mkdir(mode=0o755)
        os.chown(home, self.uid, self.uid)
        self.script = home / "attacker.py"
        shutil.copy(ATTACKER, self.script)
        os.chmod(self.script, 0o644)
        self.procs: list[subprocess.Popen[bytes]] = []

    def start(self, mode: str, *args: str) -> tuple[subprocess.Popen[bytes], Path]:
        status = self.home / f"{mode}-{len(self.procs)}.json"
        capture = [str(self.home / "capture.bin")] if mode == "listen" else []
        proc = subprocess.Popen(
            [
                "runuser",
                "-u",
                self.name,
                "--",
                "/usr/bin/python3",
                str(self.script),
                mode,
                str(status),
                *capture,
                *args,
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        self.procs.append(proc)
        deadline = time.monotonic() + 90  # a TCP port waits out TIME_WAIT first
        while not status.exists():
            assert proc.poll() is None, proc.stderr.read().decode() if proc.stderr else ""
            assert time.monotonic() < deadline, "the attacker never got going"
            time.sleep(0.05)
        return proc, status

    def captured(self) -> bytes:
        path = self.home / "capture.bin"
        return path.read_bytes() if path.exists() else b""

    def remove(self) -> None:
        for proc in self.procs:
            if proc.poll() is None:
                proc.terminate()
                proc.wait(timeout=10)
        subprocess.run(["pkill", "-KILL", "-u", self.name], capture_output=True)
        subprocess.run(["userdel", "-r", self.name], capture_output=True)


@pytest.fixture
def app(desktop, tmp_path):
    proc = start_app(desktop, gtk_fixture_command(str(tmp_path / "events.jsonl"), rows=5, title=TITLE), TITLE)
    yield
    stop_app(proc)


@pytest.fixture
def open_tmp():
    """A folder other users may traverse (like /tmp itself), for the runtime folder to live in."""
    path = Path(tempfile.mkdtemp(prefix="wa34-", dir="/tmp"))
    os.chmod(path, 0o755)
    yield path
    shutil.rmtree(path, ignore_errors=True)


@pytest.fixture
def other(open_tmp):
    assert os.getuid() == 0, "these tests create a second user: run the suite as root (CI does)"
    user = OtherUser(open_tmp / "other")
    yield user
    user.remove()


@pytest.fixture
def shell(desktop, open_tmp):
    sh = Shell(desktop, open_tmp / "runtime")
    os.chmod(sh.runtime, 0o755)  # as a temp directory is: only the winactions folder inside is private
    yield sh
    sh.close_all()


def session_name(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:8]}"  # helpers running in parallel have daemons of their own


def listening_tcp_ports(pid: int) -> list[int]:
    """The loopback TCP ports process `pid` listens on, as any user can find them in /proc/net/tcp."""
    inodes = set()
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            target = os.readlink(fd)
        except OSError:
            continue
        if target.startswith("socket:["):
            inodes.add(target[8:-1])
    ports = []
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        if fields[3] == "0A" and fields[9] in inodes:  # 0A: LISTEN
            ports.append(int(fields[1].split(":")[1], 16))
    return ports


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


# -- item 1: a request reaches only the session's daemon ----------------------------------------------
@pytest.mark.parametrize("where", ["unix", "tcp", "planted"])
def test_a_dead_daemons_place_taken_by_another_user_hears_no_secret(shell, app, other, where):
    """The daemon was SIGKILLed and its pid reused by the other user's listener, which took the
    daemon's port (or tried our folder, or planted a socket where it can write and the file
    was pointed there). The client sent `{"op":"run","argv":[..."hunter2-PASSWORD"],"env":
    {"WINCTL_VISION_API_KEY":...}}` to that listener, because the recorded pid was alive.
    Nothing of a request may leave before the daemon is proven (peer credentials on the
    Unix socket, a proof over the client's nonce on TCP); the client starts its own daemon."""
    if where == "tcp":
        shell.env["WINACTIONS_DAEMON_TRANSPORT"] = "tcp"
    name = session_name("leak")
    shell("--session", name, "focus", TITLE)
    path = shell.runtime / "winactions" / "daemons" / f"{name}.json"
    info = json.loads(path.read_text())
    os.kill(info["pid"], signal.SIGKILL)
    assert wait_gone(info["pid"], 10)
    planted = other.home / "planted.sock"
    targets = ["--tcp", str(info.get("port") or free_port())]
    if info.get("socket"):
        targets += ["--unix", info["socket"]]
    targets += ["--unix", str(planted)]
    _, status = other.start("listen", *targets)
    bound = json.loads(status.read_text())
    assert not any(b.startswith("/") and b != str(planted) for b in bound["bound"]), (
        f"the other user bound a socket in our folder: {bound}"
    )
    forged = {**info, "pid": bound["pid"]}  # the dead daemon's pid, reused by the listener
    if where == "planted":
        forged.update(socket=str(planted))
    path.write_text(json.dumps(forged))
    done = subprocess.run(
        [WINCTL, "--session", name, "input", "5", "hunter2-PASSWORD"],
        env={**shell.env, "WINCTL_VISION_API_KEY": "sk-test"},
        capture_output=True,
        text=True,
        timeout=120,
    )
    captured = other.captured()
    assert not any(s in captured for s in SECRETS), f"the other user received: {captured[:300]!r}"
    assert info["token"].encode() not in captured
    assert FORGED not in done.stdout
    assert "cannot reach" not in done.stderr and "internal error" not in done.stderr, done.stderr
    fresh = json.loads(path.read_text())
    assert fresh["pid"] != bound["pid"] and daemons_of(name) == [fresh["pid"]], "no fresh daemon of our own"


# -- item 2: a busy daemon is not an impostor ------------------------------------------------------
def test_another_users_flood_never_makes_a_second_daemon(shell, app, other):
    """300 idle and 32 trickling connections from another user (the port is listed in
    /proc/net/tcp) made the daemon answer "busy" without a proof; the client took it for an
    impostor, deleted the session file and started another daemon: three in five calls."""
    name = session_name("flood")
    shell("--session", name, "focus", TITLE)
    info = shell.info(name)
    targets = [arg for port in listening_tcp_ports(info["pid"]) for arg in ("--tcp", str(port))]
    if info.get("socket"):
        targets += ["--unix", info["socket"]]
    _, status = other.start("flood", *targets)
    time.sleep(3)
    report = json.loads(status.read_text())
    if "port" not in info:  # the Unix socket: the other user cannot even connect
        assert report["opened"] == 0 and report["errors"], report
    for _ in range(5):
        done = shell("--session", name, "windows", expect=None)
        assert done.returncode == 0 and TITLE in done.stdout, done.stderr
    assert daemons_of(name) == [info["pid"]], "a second daemon was started"
    assert shell.info(name)["pid"] == info["pid"]


def test_a_daemon_at_its_connection_cap_is_waited_for_not_replaced(shell, app):
    """The same user's careless client holds every connection slot: the client must wait, then
    say the daemon is busy — never delete the session file and start a second daemon."""
    name = session_name("cap")
    shell("--session", name, "windows")
    info = shell.info(name)
    stop = threading.Event()

    def connect() -> socket.socket:
        if info.get("socket"):
            sock = socket.socket(socket.AF_UNIX)
            sock.connect(info["socket"])
            return sock
        return socket.create_connection(("127.0.0.1", info["port"]))

    def hold() -> None:
        held: list[socket.socket] = []
        while not stop.is_set():
            for sock in list(held):  # the daemon cuts idle ones at its request deadline: replace them
                sock.setblocking(False)
                try:
                    if sock.recv(1) == b"":
                        held.remove(sock)
                        sock.close()
                except BlockingIOError:
                    pass
                except OSError:
                    held.remove(sock)
                    sock.close()
            while len(held) < MAX_CONNECTIONS + 8:
                held.append(connect())
            time.sleep(0.05)
        for sock in held:
            sock.close()

    holder = threading.Thread(target=hold, daemon=True)
    holder.start()
    try:
        time.sleep(1)
        done = shell("--session", name, "windows", expect=None)
    finally:
        stop.set()
        holder.join(10)
    assert done.returncode == 0 or "busy" in done.stderr, done.stderr
    assert "internal error" not in done.stderr
    assert daemons_of(name) == [info["pid"]], "a second daemon was started"
    assert shell.info(name)["pid"] == info["pid"], "the session file was replaced"
    assert TITLE in shell("--session", name, "windows").stdout


@pytest.mark.parametrize("pid_kind", ["not-a-daemon", "zombie"])
def test_a_session_file_naming_a_live_non_daemon_pid_is_ruled_out(shell, app, pid_kind):
    """A pid that is alive but not our daemon (reused by `sleep`) or a zombie passed `kill(pid,
    0)`, so the client sent the whole request to whatever listened at the recorded address."""
    name = session_name("pid")
    shell("--session", name, "windows")
    info = shell.info(name)
    shell("session", "close", name)
    holder = subprocess.Popen(["sleep", "100"] if pid_kind == "not-a-daemon" else ["true"])
    if pid_kind == "zombie":
        deadline = time.monotonic() + 5
        while Path(f"/proc/{holder.pid}/stat").read_text().rpartition(")")[2].split()[0] != "Z":
            assert time.monotonic() < deadline
            time.sleep(0.02)
    fake_tcp = FakeDaemon()
    sock_path = info.get("socket") or str(shell.runtime / "winactions" / "daemons" / f"{name}.sock")
    fake_unix = socket.socket(socket.AF_UNIX)
    fake_unix.bind(sock_path)
    fake_unix.listen(8)
    heard: list[bytes] = []

    def serve_unix() -> None:
        fake_unix.settimeout(0.2)
        while not stopping.is_set():
            try:
                conn, _ = fake_unix.accept()
            except OSError:
                continue
            with conn:
                conn.settimeout(2)
                try:
                    heard.append(conn.recv(65536))
                    conn.sendall(f"{'0' * 64} {json.dumps({'exit': 0, 'stdout': FORGED})}\n".encode())
                except OSError:
                    pass

    stopping = threading.Event()
    server = threading.Thread(target=serve_unix, daemon=True)
    server.start()
    path = shell.runtime / "winactions" / "daemons" / f"{name}.json"
    path.write_text(json.dumps({**info, "pid": holder.pid, "port": fake_tcp.port, "socket": sock_path}))
    os.chmod(path, stat.S_IRUSR | stat.S_IWUSR)
    try:
        done = shell("--session", name, "input", "5", "hunter2-PASSWORD", expect=None)
    finally:
        stopping.set()
        server.join(5)
        fake_unix.close()
        fake_tcp.stop()
        holder.kill()
        holder.wait()
    sent = b"".join(fake_tcp.received + heard)
    assert not any(s in sent for s in SECRETS) and b"argv" not in sent, sent[:300]
    assert FORGED not in done.stdout and "cannot reach" not in done.stderr, done.stderr
    fresh = shell.info(name)
    assert fresh["pid"] != holder.pid and daemons_of(name) == [fresh["pid"]]


def test_a_runtime_folder_too_long_for_a_socket_path_still_serves(desktop, open_tmp, app):
    """sun_path holds 107 bytes: a deep private folder gets a hashed name in the same folder,
    reached through /proc/self/fd when even that is too long — never a shared place."""
    sh = Shell(desktop, open_tmp / ("r" * 120))
    try:
        assert TITLE in sh("--session", "deep", "windows").stdout
        info = sh.info("deep")
        assert len(info["socket"]) > 107 and Path(info["socket"]).parent == sh.runtime / "winactions" / "daemons"
        assert stat.S_ISSOCK(os.stat(info["socket"]).st_mode)
        assert TITLE in sh("--session", "deep", "windows").stdout
        assert f"socket {info['socket']}" in sh("sessions").stdout
    finally:
        sh.close_all()
    assert not Path(info["socket"]).exists(), "the daemon left its socket behind"
