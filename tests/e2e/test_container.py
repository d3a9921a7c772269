"""The container image: its entry script run for real on this machine, and its files checked.

There is no Docker engine where the suite runs, so the desktop the image starts is tested by
running the image's own entry script (`container/entrypoint.sh`) here, on a private display,
bus, runtime folder and port: an agent connects with the official MCP SDK over streamable
HTTP, drives a real Mousepad and the file on disk is checked; SIGTERM (what `docker stop`
sends) must leave no process of the desktop behind. The Dockerfile is linted (hadolint) and
every Debian package it installs must exist in Debian 12.
"""

from __future__ import annotations

import re
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx2 as httpx
import pytest
import yaml

from tests.e2e.helpers.container import ENTRYPOINT, ROOT, Desktop, descendants, marked, running
from tests.e2e.helpers.mcp_client import run_http_client
from tests.fixtures.toolkit_apps import mousepad_command

HELLO = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "probe", "version": "1"}},
}
ACCEPT = {"Accept": "application/json, text/event-stream"}


@pytest.fixture
def container(tmp_path: Path) -> Iterator[Desktop]:
    """The entry script's desktop, healthy; stopped (and anything left killed) after the test."""
    desk = Desktop(tmp_path)
    try:
        desk.wait_healthy()
        yield desk
    finally:
        desk.clean_up()


def messages(error: BaseException) -> list[str]:
    """The messages of an error and of every error an exception group holds."""
    inner_errors = getattr(error, "exceptions", None)  # an exception group (Python 3.10: the backport's)
    if inner_errors is not None:
        return [m for inner in inner_errors for m in messages(inner)]
    return [str(error)]


def element_id(state_text: str, role: str) -> int | None:
    """The id of the first element of `role` in the `state` tool's text (`[5] [Edit] ...`)."""
    found = re.search(rf"^\s*\[(\d+)\] \[{role}\]", state_text, re.M)
    return int(found.group(1)) if found else None


def test_the_server_wants_the_token_the_script_made_and_printed(container: Desktop):
    token = container.token()
    assert len(token) >= 32 and f"MCP token (shown once; also in {container.runtime}/mcp-token): {token}" in (
        container.said()
    )
    without = httpx.post(container.url, json=HELLO, headers=ACCEPT, timeout=10)
    wrong = httpx.post(container.url, json=HELLO, headers={**ACCEPT, "Authorization": "Bearer not-it"}, timeout=10)
    right = httpx.post(container.url, json=HELLO, headers={**ACCEPT, "Authorization": f"Bearer {token}"}, timeout=10)
    assert (without.status_code, wrong.status_code, right.status_code) == (401, 401, 200), right.text

    async def tools(session):
        return {t.name for t in (await session.list_tools()).tools}

    with pytest.raises(BaseException) as refused:  # the SDK's own client, with a token not the server's
        run_http_client(container.url, "not-the-token", tools)
    assert "error response" in " ".join(messages(refused.value)), messages(refused.value)  # the 401 above
    assert {"state", "click", "input", "keys", "launch"} <= run_http_client(container.url, token, tools)


def test_an_agent_edits_a_file_on_the_container_desktop(container: Desktop, tmp_path: Path):
    """Launch a real Mousepad through MCP, read its state, type and save: the file says it."""
    doc = tmp_path / "notes.txt"
    doc.write_text("")

    async def script(session):
        launched = await session.call_tool("launch", {"command": mousepad_command(doc), "title": "notes.txt"})
        assert not launched.is_error, launched.content[0].text
        for _ in range(50):  # the text view's tree comes a moment after the window
            state = (await session.call_tool("state", {})).content[0].text
            if (view := element_id(state, "Edit")) is not None:
                break
            time.sleep(0.2)
        assert view is not None, state
        typed = await session.call_tool("input", {"id": view, "text": "from the container"})
        assert not typed.is_error, typed.content[0].text
        saved = await session.call_tool("keys", {"keys": "ctrl+s"})
        assert not saved.is_error, saved.content[0].text

    run_http_client(container.url, container.token(), script)
    deadline = time.monotonic() + 10
    while doc.read_text() != "from the container" and time.monotonic() < deadline:
        time.sleep(0.1)
    assert doc.read_text() == "from the container"


def test_sigterm_stops_every_process_the_desktop_started(container: Desktop, tmp_path: Path):
    doc = tmp_path / "left-open.txt"
    doc.write_text("unsaved work\n")

    async def script(session):
        launched = await session.call_tool("launch", {"command": mousepad_command(doc), "title": "left-open.txt"})
        assert not launched.is_error, launched.content[0].text

    run_http_client(container.url, container.token(), script)
    display = (container.runtime / "display").read_text().strip()
    started = {**descendants(container.proc.pid), **marked(container.runtime)}
    names = set(started.values())
    assert {"Xvfb", "dbus-daemon", "openbox", "mousepad"} <= names, names
    assert "at-spi-bus-laun" in names, names  # the accessibility bus, activated on the session bus
    assert container.stop() == 0, container.said()
    assert "winactions desktop: stopped" in container.said()
    left = {pid: name for pid, name in started.items() if running(pid)}
    assert left == {}, f"still running after SIGTERM: {left}"
    assert marked(container.runtime) == {}
    assert not Path(f"/tmp/.X11-unix/X{display}").exists()  # Xvfb is gone, not only unreachable
    assert not container.runtime.exists()  # the runtime folder it made, token and all


def test_a_process_the_desktop_needs_ending_stops_the_rest(container: Desktop):
    """A server that dies must not leave a desktop nobody can reach: the script exits 1."""
    server = next(pid for pid, name in descendants(container.proc.pid).items() if name == "winctl")
    started = descendants(container.proc.pid)
    subprocess.run(["kill", "-KILL", str(server)], check=True)
    assert container.proc.wait(timeout=30) == 1, container.said()
    assert "ended" in container.said()
    assert {pid: name for pid, name in started.items() if running(pid)} == {}


def test_a_token_from_the_environment_is_kept_from_the_apps(tmp_path: Path):
    secret = "a-token-from-the-environment-0123456789"
    desk = Desktop(tmp_path, MCP_TOKEN=secret)
    try:
        desk.wait_healthy()
        assert secret not in desk.said()  # not printed: the operator chose it
        hello = httpx.post(desk.url, json=HELLO, headers={**ACCEPT, "Authorization": f"Bearer {secret}"}, timeout=10)
        assert hello.status_code == 200
        for pid in descendants(desk.proc.pid):
            try:
                environ = Path(f"/proc/{pid}/environ").read_bytes()
            except OSError:
                continue
            assert b"MCP_TOKEN=" not in environ, f"process {pid} sees the token in its environment"
        assert desk.stop() == 0
    finally:
        desk.clean_up()


def test_a_token_too_short_stops_the_desktop_with_the_reason(tmp_path: Path):
    desk = Desktop(tmp_path, MCP_TOKEN="short")
    try:
        assert desk.proc.wait(timeout=60) == 1, desk.said()
        assert "too short" in desk.said()
        assert not desk.runtime.exists()
        assert marked(desk.runtime) == {}
    finally:
        desk.clean_up()


def test_vnc_asks_for_a_password(tmp_path: Path):
    """VNC=1 serves the screen, never without a password: the server offers only VNC auth."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        vnc_port = probe.getsockname()[1]
    desk = Desktop(tmp_path, VNC="1", VNC_PORT=str(vnc_port))
    try:
        desk.wait_healthy()
        assert re.search(r"VNC password \(shown once\): \S{8}", desk.said()), desk.said()
        deadline = time.monotonic() + 20
        while True:
            try:
                conn = socket.create_connection(("127.0.0.1", vnc_port), timeout=10)
                break
            except ConnectionRefusedError:
                assert time.monotonic() < deadline, desk.said()
                time.sleep(0.2)
        with conn:
            assert conn.recv(12).startswith(b"RFB 003.")
            conn.sendall(b"RFB 003.008\n")
            count = conn.recv(1)[0]
            kinds = set(conn.recv(count))
        assert kinds == {2}, f"security types {kinds}: 1 would be no password"
        assert desk.stop() == 0
    finally:
        desk.clean_up()


# -- the image's files ----------------------------------------------------------------------------


def dockerfile_package_lists() -> list[Path]:
    """The package lists the Dockerfile copies in and installs (the `COPY ... /tmp/packages/` line)."""
    text = (ROOT / "Dockerfile").read_text()
    copy = next(line for line in text.splitlines() if line.startswith("COPY") and "/tmp/packages/" in line)
    assert "/tmp/packages/*.txt" in text, "the Dockerfile installs every list it copies"
    return [ROOT / part for part in copy.split()[1:-1]]


def packages(path: Path) -> list[str]:
    words = (re.sub(r"#.*", "", line).split() for line in path.read_text().splitlines())
    return [word for line in words for word in line]


def test_the_dockerfile_installs_the_demo_list_and_its_own():
    """One list: what the demo needs comes from scripts/packages/demo.txt, which
    scripts/setup.sh reads too, and the image adds only what is in container/packages.txt."""
    lists = dockerfile_package_lists()
    assert lists == [ROOT / "scripts/packages/demo.txt", ROOT / "container/packages.txt"]
    assert set(packages(lists[0])) & set(packages(lists[1])) == set(), "a package in both lists"
    assert {"xvfb", "openbox", "at-spi2-core", "dbus", "libatk-adaptor"} <= set(packages(lists[0]))


def test_every_package_the_image_installs_is_in_debian_12():
    names = sorted({name for path in dockerfile_package_lists() for name in packages(path)})
    shown = subprocess.run(["apt-cache", "show", "--no-all-versions", *names], capture_output=True, text=True)
    found = set(re.findall(r"^Package: (\S+)$", shown.stdout, re.M))
    assert set(names) - found == set(), shown.stderr
    assert "debian:bookworm" in (ROOT / "Dockerfile").read_text()


def test_hadolint_finds_nothing_in_the_dockerfile():
    done = subprocess.run(
        [str(Path(sys.executable).parent / "hadolint"), "--no-color", str(ROOT / "Dockerfile")],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_build_context_holds_every_file_the_dockerfile_copies():
    """.dockerignore lets in only what the build copies (no .venv, no .git, no token files)."""
    allowed = [line[1:] for line in (ROOT / ".dockerignore").read_text().splitlines() if line.startswith("!")]
    copied = []
    for line in (ROOT / "Dockerfile").read_text().splitlines():
        if line.startswith("COPY") and "--from=" not in line:
            copied += line.split()[1:-1]
    assert copied and all(any(src == a or src.startswith(a + "/") for a in allowed) for src in copied), copied
    assert not any(a.startswith((".venv", ".git", "tests", "container/secrets")) for a in allowed)


def test_compose_and_kubernetes_keep_the_ports_off_the_public_side():
    compose = yaml.safe_load((ROOT / "compose.yaml").read_text())
    service = compose["services"]["desktop"]
    assert all(str(p).startswith("127.0.0.1:") for p in service["ports"]), service["ports"]
    assert service["environment"]["MCP_TOKEN_FILE"].startswith("/run/secrets/")
    docs = list(yaml.safe_load_all((ROOT / "container/k8s.yaml").read_text()))
    kinds = {d["kind"]: d for d in docs}
    assert {"StatefulSet", "Service", "NetworkPolicy"} <= set(kinds)
    assert kinds["Service"]["spec"].get("type", "ClusterIP") == "ClusterIP"
    pod = kinds["StatefulSet"]["spec"]["template"]["spec"]
    (box,) = pod["containers"]
    assert box["readinessProbe"]["exec"]["command"] == ["winactions-desktop", "health"]
    assert pod["securityContext"]["runAsNonRoot"] is True
    assert {p["containerPort"] for p in box["ports"]} == {8765}  # no VNC port in the cluster


def test_the_entry_script_refuses_what_it_does_not_know(tmp_path: Path):
    done = subprocess.run(["bash", str(ENTRYPOINT), "serve"], capture_output=True, text=True, timeout=10)
    assert done.returncode == 2 and "usage: entrypoint.sh [health]" in done.stderr
    never = subprocess.run(
        ["bash", str(ENTRYPOINT), "health"],
        env={"PATH": "/usr/bin:/bin", "XDG_RUNTIME_DIR": str(tmp_path)},
        capture_output=True,
        text=True,
        timeout=10,
    )
    assert never.returncode == 1 and "not started" in never.stderr
