"""The session daemon: one long-lived Desktop behind a socket only its user can reach.

Transport. On POSIX it listens on a Unix-domain socket in the user's 0700 runtime folder
(`daemons/NAME.sock`), as ssh-agent, tmux and the Docker CLI do: the folder's mode keeps
other users from connecting or binding there, and both ends check the peer's credentials
(the daemon serves only its own uid; the client talks only to the pid its session file
records). On Windows, which has no peer credentials for Unix sockets, it listens on
loopback TCP (`WINACTIONS_DAEMON_TRANSPORT=tcp` chooses that anywhere, for tests). On both,
the client first sends only `{"hello": NONCE}` and the daemon answers with a proof over
that nonce; only then does the request go, so nothing of it reaches whoever else might be
listening at the recorded address.

After the hello a client sends one JSON line — `{"version", "nonce", "auth", "op", ...}`
(see `winactions.daemon.auth`) — and gets one line back: a proof, a space, the JSON reply
(the hello may be skipped: a request as the first line is answered the same way).
`op: "run"` with `argv` answers `{"exit", "stdout", "stderr"}`, exactly what `winctl ARGV`
prints in-process, because it runs the same generated CLI; `op: "call"` with `command`,
`args` and `options` answers `{"ok", "type", "result"}` or `{"ok": false, "error"}`, as
`--json` prints it, so a client that is not a command line never has to build one. Both
run on the daemon's one `Desktop`, one at a time, in order, on one worker thread; pings are
answered by the connection's own thread, so a long action never makes the daemon look
dead. Every malformed or unauthorized request gets an error reply and the daemon keeps
serving.

    python -m winactions.daemon.server NAME [--idle-timeout SECONDS]
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import queue
import secrets
import select
import signal
import socket
import sys
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Future
from typing import Any, NamedTuple

from winactions import progress, settings
from winactions._version import __version__
from winactions.daemon import wire
from winactions.daemon.auth import same, sign
from winactions.daemon.client import daemons_path, desktop_identity, session_file

MAX_REQUEST = 1024 * 1024
REQUEST_DEADLINE = 10.0  # a client that has not sent its whole request by then is dropped
MAX_CONNECTIONS = 32  # connection threads at once; more are answered "busy" and closed
BUSY_READ = 0.5  # how long an overflow connection may take to say its nonce, to be answered "busy"
MAX_NONCES = 100_000  # remembered to refuse replays
# A command's reply is given up on this long after it was queued: below the client's read
# timeout, so the client always hears back. WINCTL_COMMAND_DEADLINE, in the daemon's own
# environment, can make it shorter, never longer.
COMMAND_DEADLINE = settings.COMMAND_DEADLINE.default
DEFAULT_IDLE = settings.IDLE_TIMEOUT.default


def command_deadline(told: str | None) -> float:
    """COMMAND_DEADLINE, or a shorter one told (WINCTL_COMMAND_DEADLINE) when it is a number."""
    return settings.COMMAND_DEADLINE.read({settings.COMMAND_DEADLINE.name: told or ""})


def _text(value: object) -> bool:
    """A string the OS can take (a lone surrogate cannot go into a path or the environment)."""
    return isinstance(value, str) and "\x00" not in value and not any("\ud800" <= ch <= "\udfff" for ch in value)


def transport() -> str:
    """ "unix" on POSIX, "tcp" on Windows (no peer credentials there) or when the environment
    asks for it (WINACTIONS_DAEMON_TRANSPORT=tcp: tests keep the Windows path working)."""
    if sys.platform == "win32" or os.environ.get("WINACTIONS_DAEMON_TRANSPORT") == "tcp":
        return "tcp"
    return "unix"


def socket_path(name: str) -> str:
    """The session's socket in the private daemons folder; a hash of the name when the name
    would make the path too long for a Unix socket (it stays in that folder either way)."""
    path = os.path.join(daemons_path(), f"{name}.sock")
    if len(os.fsencode(path)) > wire.UNIX_PATH_MAX:
        import hashlib

        path = os.path.join(daemons_path(), hashlib.sha256(name.encode()).hexdigest()[:16] + ".sock")
    return path


def _nonce_of(value: object) -> str | None:
    """A nonce as requests carry it: 16-64 ASCII letters or digits."""
    if isinstance(value, str) and 16 <= len(value) <= 64 and value.isalnum() and value.isascii():
        return value
    return None


def _hello_of(line: bytes) -> str | None:
    """The nonce of a hello line (`{"hello": NONCE}`), or None when the line is something else."""
    try:
        message = json.loads(line)
    except (ValueError, UnicodeDecodeError, RecursionError):
        return None
    return _nonce_of(message.get("hello")) if isinstance(message, dict) and len(message) == 1 else None


def _read(conn: socket.socket, deadline: float, limit: int) -> bytes | str:
    """What the client sends up to a newline at the end of what it sent (or until it closes),
    without waiting past the deadline or reading past the limit; a str is the error to answer."""
    data = b""
    while not data.endswith(b"\n"):
        left = deadline - time.monotonic()
        if left <= 0:
            return f"request not complete within {REQUEST_DEADLINE:g}s"
        conn.settimeout(left)
        chunk = conn.recv(65536)
        if not chunk:
            break
        data += chunk
        if len(data) > limit:
            return f"request larger than {MAX_REQUEST} bytes"
    return data


def _call_of(message: dict[str, Any]) -> Call | str:
    """The request's call, or what is wrong with it."""
    cwd, env = message.get("cwd"), message.get("env", {})
    if (
        (cwd is not None and not _text(cwd))
        or not isinstance(env, dict)
        or not all(_text(k) and k.startswith("WINCTL_") and _text(v) for k, v in env.items())
    ):
        return "cwd must be a string, env an object of WINCTL_* strings"
    if message.get("op") == "run":
        argv = message.get("argv")
        if not isinstance(argv, list) or not all(isinstance(a, str) for a in argv):
            return "argv must be a list of strings"
        return Call(argv, None, None, None, cwd, env)
    command, args, options = message.get("command"), message.get("args", {}), message.get("options", {})
    if not isinstance(command, str) or not isinstance(args, dict) or not isinstance(options, dict):
        return "a call needs command (a string), args and options (objects)"
    return Call(None, command, args, options, cwd, env)


class Call(NamedTuple):
    """One request as a client sent it: a command line, or a structured call."""

    argv: list[str] | None  # `winctl ARGV`, printed as the CLI prints it
    command: str | None  # or a command of the table by name...
    args: Any  # ...with its arguments (validated by the command's parameters)...
    options: Any  # ...and global options (validated by GlobalOptions)
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
        self.jobs: queue.Queue[tuple[Call, Future[dict[str, Any]]]] = queue.Queue()
        self.busy = False
        self.running_since = 0.0  # when the running command started (monotonic)
        self.deadline = settings.COMMAND_DEADLINE.read()
        self._slots = threading.BoundedSemaphore(MAX_CONNECTIONS)
        self._overflow: queue.Queue[socket.socket] = queue.Queue(maxsize=2 * MAX_CONNECTIONS)
        self._socket: tuple[str, int, int] | None = None  # (path, st_dev, st_ino) of our Unix socket
        self._nonces: dict[str, None] = {}  # insertion-ordered: the oldest go first
        self._nonce_lock = threading.Lock()
        self._current: Any = None  # the Desktop, made on first use
        self.progress: progress.Progress | None = None  # the running command's, for pings
        self._cli: Any = None

    # -- the one Desktop ------------------------------------------------------------------
    def _desktop(self, device: str | None = None) -> Any:
        """The session's Desktop, on the phone this call names (`--device`, `WINCTL_DEVICE`)
        or on this desktop: a call for another device than the last one opens it anew."""
        device = device or settings.DEVICE.read()
        if self._current is not None and self._current.device != device:
            self._drop_desktop()
        if self._current is not None and not self._current.session.backend.alive():
            self._drop_desktop()  # its display or bus went away: open new connections
        if self._current is None:
            from winactions.api import Desktop

            self._current = Desktop(self.name, live=True, device=device)
        return self._current

    def _provider(self, options: Any) -> tuple[Any, Callable[[], None]]:
        return self._desktop(options.device), lambda: None

    def _drop_desktop(self) -> None:
        desktop, self._current = self._current, None
        if desktop is not None:
            with contextlib.suppress(Exception):  # closing a dead connection may fail too: it is being dropped anyway
                desktop.close()

    def execute(self, call: Call) -> dict[str, Any]:
        """Run one request in the client's folder (`screenshot out.png` lands where the agent
        runs) and with the client's WINCTL_* variables."""
        with _client_context(call.cwd, call.env):
            if call.argv is not None:
                code, out, err = self._run_argv(call.argv)
                return {"exit": code, "stdout": out, "stderr": err}
            return self._run_structured(str(call.command), call.args, call.options)

    def _run_argv(self, argv: list[str]) -> tuple[int, str, str]:
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

    def _run_structured(self, command: str, args: dict[str, Any], options: dict[str, Any]) -> dict[str, Any]:
        """A command by name with JSON arguments: `{"ok", "type", "result"}` as `--json`
        prints it, or `{"ok": false, "error": {...}}` — no command line to build or parse."""
        from pydantic import ValidationError

        from winactions import render
        from winactions.commands.base import GlobalOptions
        from winactions.errors import InvalidInput, WinctlError

        try:
            try:
                chosen = GlobalOptions.model_validate({**options, "session": self.name, "json_output": True})
            except ValidationError as exc:
                raise InvalidInput(
                    f"bad options: {exc.errors()[0]['msg']}",
                    hint="options: window, return_state, max_elements, infer, vision",
                ) from None
            from winactions.outputs import Outputs

            # a structured call is a program's or a model's: its files stay in the output folder
            result = self._desktop(chosen.device).run(command, args, chosen, outputs=Outputs.from_env())
        except WinctlError as exc:
            exc.hint = render.hint_for(exc.hint, "python")
            return {"ok": False, "error": exc.to_dict()}
        except Exception as exc:  # never let one call take the daemon down
            return {"ok": False, "error": {"code": "error", "message": f"internal error: {type(exc).__name__}: {exc}"}}
        answer = {"ok": True, "type": type(result).__name__, "result": render.to_data(result)}
        failed = result.failure()  # ran to the end and reports a failure (a task, a batch's step)
        if failed is not None:
            failed.hint = render.hint_for(failed.hint, "python")
            answer.update(ok=False, error=failed.to_dict())
        return answer

    def worker(self) -> None:
        while not self.stopping.is_set():
            try:
                call, future = self.jobs.get(timeout=0.5)
            except queue.Empty:
                continue
            if not future.set_running_or_notify_cancel():
                continue  # its client was told it never started: it is not run now
            self.running_since = time.monotonic()
            self.busy = True
            try:
                with progress.watching(None) as self.progress:  # its latest step goes out with pings
                    result = self.execute(call)
                future.set_result(result)
            except Exception as exc:  # the worker must outlive any one command
                future.set_result(
                    {
                        "exit": 1,
                        "stdout": "",
                        "stderr": f"error: internal error in the daemon: {type(exc).__name__}: {exc}\n",
                    }
                )
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
        nonce = _nonce_of(message.get("nonce"))
        if nonce is None:
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
            desktop = self._current
            if desktop is not None and desktop.session.data.state is not None:
                window = desktop.session.data.state.window.title
            return {
                "pong": True,
                "session": self.name,
                "pid": os.getpid(),
                "version": __version__,
                "busy": self.busy,
                "window": window,
                "progress": {"step": self.progress.message, "seconds": round(self.progress.elapsed, 1)}
                if self.busy and self.progress is not None
                else None,
                "idle_seconds": round(time.monotonic() - self.last_used),
            }
        if op == "shutdown":
            self.stopping.set()
            return {"ok": True}
        if op not in ("run", "call"):
            return {"error": f"unknown op {str(op)[:40]!r}: use ping, run, call or shutdown"}
        call = _call_of(message)
        if isinstance(call, str):
            return {"error": f"malformed request: {call}"}
        self.last_used = queued = time.monotonic()
        future: Future[dict[str, Any]] = Future()
        self.jobs.put((call, future))
        try:
            return future.result(self.deadline)
        except TimeoutError:
            pass
        waited = time.monotonic() - queued
        cancelled = future.cancel()
        if future.done() and not cancelled:  # it finished just now
            return future.result()
        if cancelled:  # still queued: it never runs now
            message_text = (
                f"the command waited in the session daemon's queue {waited:.0f}s behind another "
                "command and never started; it was not run"
            )
            hint = "the session is busy with an earlier command: run this one again once that is done"
        else:
            ran = time.monotonic() - self.running_since if self.running_since else waited
            queue_note = f" after {waited - ran:.0f}s in the queue" if waited - ran >= 1 else ""
            message_text = f"the command is still running after {ran:.0f}s in the session daemon{queue_note}"
            hint = "it may still finish; run `winctl state` to see"
        if call.argv is None:
            return {
                "ok": False,
                "error": {
                    "code": "timeout",
                    "message": message_text,
                    "hint": hint.replace("run `winctl state`", "call state"),
                },
            }
        return {"exit": 6, "stdout": "", "stderr": f"error: {message_text}\nhint: {hint}\n"}

    def connection(self, conn: socket.socket) -> None:
        """Answer a hello with a proof over its nonce, then read one request line, answer it,
        close — all within REQUEST_DEADLINE (a client trickling one byte at a time cannot
        hold a thread)."""
        try:
            with conn:
                deadline = time.monotonic() + REQUEST_DEADLINE
                try:
                    data = _read(conn, deadline, MAX_REQUEST)
                    first, _, rest = data.partition(b"\n") if isinstance(data, bytes) else (b"", b"", b"")
                    hello = _hello_of(first)
                    if hello is not None:
                        self._reply(conn, hello, {"hello": True})
                        data = rest or _read(conn, deadline, MAX_REQUEST)
                except OSError:
                    return  # the client went away or stalled mid-request
                if isinstance(data, str):
                    self._reply(conn, None, {"error": data})
                    return
                if not data.strip():
                    return
                nonce, reply = self.handle(data)
                self._reply(conn, nonce, reply)
        finally:
            self._slots.release()

    def overflow(self) -> None:
        """Answer connections beyond MAX_CONNECTIONS "busy", each once it has sent its hello (or
        request) within BUSY_READ, so that the answer carries a proof over its nonce: a client
        can tell a busy daemon from an impostor, and waits instead of replacing it. One thread
        watches them all at once; one that says nothing in time is closed unanswered."""
        pending: dict[socket.socket, tuple[float, bytes]] = {}
        while not self.stopping.is_set():
            while len(pending) < 2 * MAX_CONNECTIONS:
                try:
                    conn = self._overflow.get_nowait() if pending else self._overflow.get(timeout=0.5)
                except queue.Empty:
                    break
                conn.setblocking(False)
                pending[conn] = (time.monotonic() + BUSY_READ, b"")
            if not pending:
                continue
            readable, _, _ = select.select(list(pending), [], [], 0.05)
            for conn in list(pending):
                deadline, data = pending[conn]
                if conn in readable:
                    try:
                        chunk = conn.recv(4096)
                    except OSError:
                        chunk = b""
                    data += chunk
                    if chunk and b"\n" not in data and len(data) < 4096:
                        pending[conn] = (deadline, data)
                        continue
                elif time.monotonic() < deadline:
                    continue
                del pending[conn]
                self._answer_busy(conn, data)

    def _answer_busy(self, conn: socket.socket, data: bytes) -> None:
        """Say "busy", proven over the nonce of the first line when it had one; close."""
        with conn:
            if not data:
                return  # it said nothing in time, or hung up
            try:
                message = json.loads(data.partition(b"\n")[0])
            except (ValueError, UnicodeDecodeError, RecursionError):
                message = None
            nonce = None
            if isinstance(message, dict):
                nonce = _nonce_of(message.get("hello")) or _nonce_of(message.get("nonce"))
            conn.settimeout(0.5)
            self._reply(
                conn, nonce, {"busy": True, "error": f"busy: {MAX_CONNECTIONS} connections are open; try again"}
            )

    def _reply(self, conn: socket.socket, nonce: str | None, reply: dict[str, Any]) -> None:
        """One line: the proof, a space, the JSON (ASCII, so no string can fail to encode)."""
        body = json.dumps(reply, ensure_ascii=True)
        proof = sign(self.token, nonce, body) if nonce else "-"
        with contextlib.suppress(OSError):  # disconnected before the answer: nothing to do, keep serving
            conn.sendall(f"{proof} {body}\n".encode("ascii"))

    # -- lifecycle ---------------------------------------------------------------------------------
    def _listen(self) -> tuple[socket.socket, dict[str, Any]]:
        """The listening socket and where the session file says it is."""
        if transport() == "tcp":
            server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            server.bind(("127.0.0.1", 0))  # loopback only; the OS picks the port
            server.listen(64)
            return server, {"port": server.getsockname()[1]}
        if sys.platform == "win32":  # pragma: no cover - transport() is "tcp" there
            raise OSError("Unix sockets are not used on Windows")
        path = socket_path(self.name)
        with contextlib.suppress(FileNotFoundError):
            os.unlink(path)  # stale: clients start a daemon only when the recorded one is provably gone
        server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        target, fd = wire.unix_target(path)
        try:
            server.bind(target)
        finally:
            if fd is not None:
                os.close(fd)
        os.chmod(path, 0o600)  # the folder is 0700 already: this is belt and braces
        st = os.stat(path)
        self._socket = (path, st.st_dev, st.st_ino)
        server.listen(128)
        return server, {"socket": path}

    def _socket_taken(self) -> bool:
        """Whether our Unix socket's file is gone or replaced (a newer daemon of this session
        took its place): then no client can reach us, and we exit rather than linger unlisted."""
        if self._socket is None:
            return False
        try:
            st = os.stat(self._socket[0])
        except OSError:
            return True
        return (st.st_dev, st.st_ino) != self._socket[1:]

    def _accepted(self, conn: socket.socket) -> bool:
        """Whether to serve this connection: on a Unix socket, only a peer of our own uid."""
        if self._socket is None or sys.platform == "win32":
            return True
        try:
            _, uid = wire.peer(conn)
        except OSError:  # gone already: nothing to serve
            return False
        return uid is None or uid == os.getuid()

    def serve(self) -> None:
        server, where = self._listen()
        server.settimeout(0.5)
        if threading.current_thread() is threading.main_thread():  # `session close` may end us by SIGTERM
            signal.signal(signal.SIGTERM, lambda *_: self.stopping.set())
        self._write_session_file(where)
        threading.Thread(target=self.worker, name="worker", daemon=True).start()
        threading.Thread(target=self.overflow, name="overflow", daemon=True).start()
        try:
            while not self.stopping.is_set():
                if not self.busy and time.monotonic() - self.last_used > self.idle_timeout:
                    break
                try:
                    conn, _ = server.accept()
                except TimeoutError:
                    desktop = self._current
                    if desktop is not None and not self.busy and not desktop.session.backend.desktop_exists():
                        break  # the desktop this daemon served is gone: exit, the next client starts anew
                    if not self.busy and self._socket_taken():
                        break
                    continue
                if not self._accepted(conn):
                    conn.close()
                    continue
                if not self._slots.acquire(blocking=False):  # every slot held: answer "busy", with a proof
                    try:
                        self._overflow.put_nowait(conn)
                    except queue.Full:
                        conn.close()
                    continue
                threading.Thread(target=self.connection, args=(conn,), daemon=True).start()
        finally:
            server.close()
            if self._socket is not None and not self._socket_taken():
                with contextlib.suppress(OSError):
                    os.unlink(self._socket[0])
            self._remove_session_file()
            self._drop_desktop()

    def _write_session_file(self, where: dict[str, Any]) -> None:
        path = session_file(self.name)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w") as f:
            json.dump(
                {
                    "pid": os.getpid(),
                    **where,
                    "token": self.token,
                    "version": __version__,
                    "started": self.started,
                    "desktop": desktop_identity(os.environ),
                },
                f,
            )
        os.replace(tmp, path)

    def _remove_session_file(self) -> None:
        path = session_file(self.name)
        try:
            if json.loads(path.read_text()).get("pid") == os.getpid():
                path.unlink()
        except (OSError, ValueError):
            pass


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="winactions.daemon.server")
    parser.add_argument("name")
    parser.add_argument("--idle-timeout", type=float, default=settings.IDLE_TIMEOUT.read())
    args = parser.parse_args(argv)
    Daemon(args.name, args.idle_timeout).serve()


if __name__ == "__main__":
    main()
