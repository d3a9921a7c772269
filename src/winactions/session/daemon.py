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
import io
import json
import os
import queue
import secrets
import socket
import sys
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Future
from typing import Any, NamedTuple

from winactions._version import __version__
from winactions.session.auth import same, sign
from winactions.session.client import desktop_identity, session_file

MAX_REQUEST = 1024 * 1024
REQUEST_DEADLINE = 10.0  # a client that has not sent its whole request by then is dropped
MAX_CONNECTIONS = 32  # connection threads at once; more are answered "busy" and closed
MAX_NONCES = 100_000  # remembered to refuse replays
COMMAND_DEADLINE = 120.0  # below the client's read timeout, so the client always hears back
DEFAULT_IDLE = 30 * 60


def _text(value: object) -> bool:
    """A string the OS can take (a lone surrogate cannot go into a path or the environment)."""
    return isinstance(value, str) and "\x00" not in value and not any("\ud800" <= ch <= "\udfff" for ch in value)


class Call(NamedTuple):
    """One command as a client sent it."""

    argv: list[str]
    cwd: Any  # checked to be a str or None before it is queued
    env: Any  # likewise a dict of WINCTL_* strings


@contextlib.contextmanager
def _client_context(cwd: str | None, env: dict[str, str] | None) -> Iterator[None]:
    """The client's folder and WINCTL_* variables for one command (only the worker thread
    runs commands, so changing them process-wide is safe)."""
    saved_cwd = os.getcwd()
    saved_env = {k: v for k, v in os.environ.items() if k.startswith("WINCTL_")}
    try:
        if cwd and os.path.isdir(cwd):
            os.chdir(cwd)
        if env is not None:
            for key in saved_env:
                os.environ.pop(key, None)
            os.environ.update(env)
        yield
    finally:
        os.chdir(saved_cwd)
        if env is not None:
            for key in [k for k in os.environ if k.startswith("WINCTL_")]:
                os.environ.pop(key, None)
            os.environ.update(saved_env)


class Daemon:
    def __init__(self, name: str, idle_timeout: float) -> None:
        self.name = name
        self.idle_timeout = idle_timeout
        self.token = secrets.token_urlsafe(32)
        self.started = time.time()
        self.last_used = time.monotonic()
        self.stopping = threading.Event()
        self.jobs: queue.Queue[tuple[Call, Future[tuple[int, str, str]]]] = queue.Queue()
        self.busy = False
        self._slots = threading.BoundedSemaphore(MAX_CONNECTIONS)
        self._nonces: dict[str, None] = {}  # insertion-ordered: the oldest go first
        self._nonce_lock = threading.Lock()
        self._session: Any = None
        self._cli: Any = None

    # -- the one DesktopSession ------------------------------------------------------------
    def _provider(self, options: Any) -> tuple[Any, Callable[[], None]]:
        if self._session is not None and not self._session.backend.alive():
            self._drop_session()  # its display or bus went away: open new connections
        if self._session is None:
            from winactions.backends import get_backend
            from winactions.session.desktop import DesktopSession
            from winactions.session.store import SessionStore

            self._session = DesktopSession(get_backend(live=True), SessionStore(self.name))
        turn = self._session.turn()
        turn.__enter__()
        return self._session, lambda: turn.__exit__(None, None, None)

    def _drop_session(self) -> None:
        session, self._session = self._session, None
        if session is not None:
            try:
                session.backend.close()
            except Exception:  # closing a dead connection may fail too: it is being dropped anyway
                pass

    def execute(self, argv: list[str], cwd: str | None = None,
                env: dict[str, str] | None = None) -> tuple[int, str, str]:
        """Run one command line as `winctl` would, capturing what it prints — in the client's
        folder (`screenshot out.png` lands where the agent runs) and with the client's
        WINCTL_* variables."""
        from winactions.cli.app import build_cli, invoke

        if self._cli is None:
            self._cli = build_cli(self._provider)
        out, err = io.StringIO(), io.StringIO()
        code = 0
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), _client_context(cwd, env):
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
                call, future = self.jobs.get(timeout=0.5)
            except queue.Empty:
                continue
            if not future.set_running_or_notify_cancel():
                continue
            self.busy = True
            try:
                future.set_result(self.execute(call.argv, call.cwd, call.env))
            except Exception as exc:  # the worker must outlive any one command
                future.set_result((1, "", f"error: internal error in the daemon: {type(exc).__name__}: {exc}\n"))
            finally:
                self.busy = False
                self.last_used = time.monotonic()

    # -- requests ------------------------------------------------------------------------------
    def handle(self, raw: bytes) -> tuple[str | None, dict[str, Any]]:
        """(the request's nonce when it had a usable one, the reply)."""
        try:
            message = json.loads(raw)
        except (ValueError, UnicodeDecodeError, RecursionError) as exc:
            return None, {"error": f"malformed request: {str(exc)[:200]}"}
        if not isinstance(message, dict):
            return None, {"error": "malformed request: expected a JSON object"}
        nonce = message.get("nonce")
        if not isinstance(nonce, str) or not 16 <= len(nonce) <= 64 or not nonce.isalnum() or not nonce.isascii():
            return None, {"error": "unauthorized: a request needs a nonce of 16-64 letters or digits and its auth"}
        auth = message.get("auth")
        if not isinstance(auth, str) or not auth.isascii() or not same(auth, sign(self.token, nonce, "client")):
            return nonce, {"error": "unauthorized: wrong or missing auth"}
        with self._nonce_lock:
            if nonce in self._nonces:
                return nonce, {"error": "unauthorized: that nonce was used before (a replayed request)"}
            self._nonces[nonce] = None
            while len(self._nonces) > MAX_NONCES:
                self._nonces.pop(next(iter(self._nonces)))
        version = message.get("version")
        if version != __version__:
            shown = version.encode("ascii", "backslashreplace").decode()[:40] if isinstance(version, str) else version
            return nonce, {"error": f"version mismatch: daemon {__version__}, client {shown!r}"}
        return nonce, self._operate(message)

    def _operate(self, message: dict[str, Any]) -> dict[str, Any]:
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
            call = Call(argv, message.get("cwd"), message.get("env", {}))
            if (call.cwd is not None and not _text(call.cwd)) or not isinstance(call.env, dict) \
                    or not all(_text(k) and k.startswith("WINCTL_") and _text(v) for k, v in call.env.items()):
                return {"error": "malformed request: cwd must be a string, env an object of WINCTL_* strings"}
            self.last_used = time.monotonic()
            future: Future[tuple[int, str, str]] = Future()
            self.jobs.put((call, future))
            try:
                code, out, err = future.result(COMMAND_DEADLINE)
            except TimeoutError:
                future.cancel()
                return {"exit": 6, "stdout": "", "stderr": f"error: the command ran longer than "
                        f"{COMMAND_DEADLINE:g}s in the session daemon\nhint: it may still finish; "
                        "run `winctl state` to see\n"}
            return {"exit": code, "stdout": out, "stderr": err}
        return {"error": f"unknown op {str(op)[:40]!r}: use ping, run or shutdown"}

    def connection(self, conn: socket.socket) -> None:
        """Read one request line within REQUEST_DEADLINE in all (a client trickling one byte
        at a time cannot hold a thread), answer it, close."""
        try:
            with conn:
                deadline = time.monotonic() + REQUEST_DEADLINE
                data = b""
                try:
                    while not data.endswith(b"\n"):
                        left = deadline - time.monotonic()
                        if left <= 0:
                            self._reply(conn, None, {"error": f"request not complete within {REQUEST_DEADLINE:g}s"})
                            return
                        conn.settimeout(left)
                        chunk = conn.recv(65536)
                        if not chunk:
                            break
                        data += chunk
                        if len(data) > MAX_REQUEST:
                            self._reply(conn, None, {"error": f"request larger than {MAX_REQUEST} bytes"})
                            return
                except OSError:
                    return  # the client went away or stalled mid-request
                if not data.strip():
                    return
                nonce, reply = self.handle(data)
                self._reply(conn, nonce, reply)
        finally:
            self._slots.release()

    def _busy_reply(self, conn: socket.socket) -> None:
        with conn:
            conn.settimeout(0.5)
            self._reply(conn, None, {"error": f"busy: {MAX_CONNECTIONS} connections are open; try again"})

    def _reply(self, conn: socket.socket, nonce: str | None, reply: dict[str, Any]) -> None:
        """One line: the proof, a space, the JSON (ASCII, so no string can fail to encode)."""
        body = json.dumps(reply, ensure_ascii=True)
        proof = sign(self.token, nonce, body) if nonce else "-"
        try:
            conn.sendall(f"{proof} {body}\n".encode("ascii"))
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
                    session = self._session
                    if session is not None and not self.busy and not session.backend.desktop_exists():
                        break  # the desktop this daemon served is gone: exit, the next client starts anew
                    continue
                if not self._slots.acquire(blocking=False):  # every slot held: say so and hang up
                    self._busy_reply(conn)
                    continue
                threading.Thread(target=self.connection, args=(conn,), daemon=True).start()
        finally:
            server.close()
            self._remove_session_file()
            self._drop_session()

    def _write_session_file(self, port: int) -> None:
        path = session_file(self.name)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w") as f:
            json.dump({"pid": os.getpid(), "port": port, "token": self.token, "version": __version__,
                       "started": self.started, "desktop": desktop_identity(os.environ)}, f)
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
