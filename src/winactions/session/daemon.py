"""The session daemon: one long-lived DesktopSession behind a loopback socket.

A client sends one JSON line — `{"token", "version", "op": "run", "argv": [...]}` — and gets
one back: `{"exit", "stdout", "stderr"}`, exactly what `winctl ARGV` would have printed in
one-shot mode, because it runs the same generated CLI. Commands run one at a time, in
order, on one worker thread; pings are answered by the connection's own thread, so a long
action never makes the daemon look dead. Every malformed or unauthorized request gets an
error reply and the daemon keeps serving.

    python -m winactions.session.daemon NAME [--idle-timeout SECONDS]
"""

from __future__ import annotations

import argparse
import contextlib
import hmac
import io
import json
import os
import queue
import secrets
import socket
import sys
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any

from winactions._version import __version__
from winactions.session.client import session_file

MAX_REQUEST = 1024 * 1024
READ_TIMEOUT = 10.0  # a client that sends half a request is dropped after this
COMMAND_DEADLINE = 120.0  # below the client's read timeout, so the client always hears back
DEFAULT_IDLE = 30 * 60


class Daemon:
    def __init__(self, name: str, idle_timeout: float) -> None:
        self.name = name
        self.idle_timeout = idle_timeout
        self.token = secrets.token_urlsafe(32)
        self.started = time.time()
        self.last_used = time.monotonic()
        self.stopping = threading.Event()
        self.jobs: queue.Queue[tuple[list[str], Future[tuple[int, str, str]]]] = queue.Queue()
        self.busy = False
        self._session: Any = None
        self._cli: Any = None

    # -- the one DesktopSession ------------------------------------------------------------
    def _provider(self, options: Any) -> tuple[Any, Callable[[], None]]:
        if self._session is None:
            from winactions.backends import get_backend
            from winactions.session.desktop import DesktopSession
            from winactions.session.store import SessionStore

            self._session = DesktopSession(get_backend(live=True), SessionStore(self.name))
        self._session.notes.clear()
        return self._session, lambda: None

    def execute(self, argv: list[str]) -> tuple[int, str, str]:
        """Run one command line as `winctl` would, capturing what it prints."""
        from winactions.cli.app import build_cli, invoke

        if self._cli is None:
            self._cli = build_cli(self._provider)
        out, err = io.StringIO(), io.StringIO()
        code = 0
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                invoke(self._cli, argv)
            except SystemExit as exc:
                code = exc.code if isinstance(exc.code, int) else 1
            except Exception as exc:  # never let one command take the daemon down
                print(f"error: internal error: {type(exc).__name__}: {exc}", file=sys.stderr)
                code = 1
        return code, out.getvalue(), err.getvalue()

    def worker(self) -> None:
        while not self.stopping.is_set():
            try:
                argv, future = self.jobs.get(timeout=0.5)
            except queue.Empty:
                continue
            if not future.set_running_or_notify_cancel():
                continue
            self.busy = True
            try:
                future.set_result(self.execute(argv))
            finally:
                self.busy = False
                self.last_used = time.monotonic()

    # -- requests ------------------------------------------------------------------------------
    def handle(self, raw: bytes) -> dict[str, Any]:
        try:
            message = json.loads(raw)
        except (ValueError, UnicodeDecodeError) as exc:
            return {"error": f"malformed request: {exc}"}
        if not isinstance(message, dict):
            return {"error": "malformed request: expected a JSON object"}
        token = message.get("token")
        if not isinstance(token, str) or not hmac.compare_digest(token.encode(), self.token.encode()):
            return {"error": "unauthorized: wrong or missing token"}
        if message.get("version") != __version__:
            return {"error": f"version mismatch: daemon {__version__}, client {message.get('version')}"}
        op = message.get("op")
        if op == "ping":
            window = None
            if self._session is not None and self._session.data.state is not None:
                window = self._session.data.state.window.title
            return {"pong": True, "session": self.name, "pid": os.getpid(), "version": __version__,
                    "busy": self.busy, "window": window,
                    "idle_seconds": round(time.monotonic() - self.last_used)}
        if op == "shutdown":
            self.stopping.set()
            return {"ok": True}
        if op == "run":
            argv = message.get("argv")
            if not isinstance(argv, list) or not all(isinstance(a, str) for a in argv):
                return {"error": "malformed request: argv must be a list of strings"}
            self.last_used = time.monotonic()
            future: Future[tuple[int, str, str]] = Future()
            self.jobs.put((argv, future))
            try:
                code, out, err = future.result(COMMAND_DEADLINE)
            except TimeoutError:
                future.cancel()
                return {"exit": 6, "stdout": "", "stderr": f"error: the command ran longer than "
                        f"{COMMAND_DEADLINE:g}s in the session daemon\nhint: it may still finish; "
                        "run `winctl state` to see\n"}
            return {"exit": code, "stdout": out, "stderr": err}
        return {"error": f"unknown op {op!r}: use ping, run or shutdown"}

    def connection(self, conn: socket.socket) -> None:
        with conn:
            conn.settimeout(READ_TIMEOUT)
            data = b""
            try:
                while not data.endswith(b"\n"):
                    chunk = conn.recv(65536)
                    if not chunk:
                        break
                    data += chunk
                    if len(data) > MAX_REQUEST:
                        self._reply(conn, {"error": f"request larger than {MAX_REQUEST} bytes"})
                        return
            except OSError:
                return  # the client went away or stalled mid-request
            if not data.strip():
                return
            self._reply(conn, self.handle(data))

    @staticmethod
    def _reply(conn: socket.socket, reply: dict[str, Any]) -> None:
        try:
            conn.sendall((json.dumps(reply, ensure_ascii=False) + "\n").encode())
        except OSError:
            pass  # disconnected before the answer: nothing to do, keep serving

    # -- lifecycle ---------------------------------------------------------------------------------
    def serve(self) -> None:
        server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        server.bind(("127.0.0.1", 0))  # loopback only; the OS picks the port
        server.listen(64)
        server.settimeout(0.5)
        self._write_session_file(server.getsockname()[1])
        threading.Thread(target=self.worker, name="worker", daemon=True).start()
        try:
            while not self.stopping.is_set():
                if not self.busy and time.monotonic() - self.last_used > self.idle_timeout:
                    break
                try:
                    conn, _ = server.accept()
                except TimeoutError:
                    continue
                threading.Thread(target=self.connection, args=(conn,), daemon=True).start()
        finally:
            server.close()
            self._remove_session_file()
            if self._session is not None:
                self._session.backend.close()

    def _write_session_file(self, port: int) -> None:
        path = session_file(self.name)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w") as f:
            json.dump({"pid": os.getpid(), "port": port, "token": self.token, "version": __version__,
                       "started": self.started}, f)
        os.replace(tmp, path)

    def _remove_session_file(self) -> None:
        path = session_file(self.name)
        try:
            if json.loads(path.read_text()).get("pid") == os.getpid():
                path.unlink()
        except (OSError, ValueError):
            pass


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="winactions.session.daemon")
    parser.add_argument("name")
    parser.add_argument("--idle-timeout", type=float,
                        default=float(os.environ.get("WINCTL_IDLE_TIMEOUT", DEFAULT_IDLE)))
    args = parser.parse_args(argv)
    Daemon(args.name, args.idle_timeout).serve()


if __name__ == "__main__":
    main()
