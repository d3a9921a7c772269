"""JSON lines over a local socket, for the thin client, without slow imports.

The session daemon listens on a Unix-domain socket in the user's private runtime folder
(POSIX) or on loopback TCP (Windows, which has no peer credentials for Unix sockets).
`import json` compiles regular expressions and `import socket` builds enums at import time:
together about 25 ms, more than starting Python itself, and an agent pays it on every
`winctl --session` call. The C modules underneath (`_json`, `_socket`) cost nothing to
import, so the client speaks through them; where they are missing (another Python), the
ordinary modules are used.
"""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, ClassVar

try:
    import _json
    import _socket

    class _Context:
        """What `_json.make_scanner` reads from a JSONDecoder, nothing more."""

        strict = True
        object_hook = None
        object_pairs_hook = None
        parse_float = float
        parse_int = int
        parse_constant = None
        memo: ClassVar[dict[str, str]] = {}

    _scan = _json.make_scanner(_Context())  # type: ignore[arg-type]  # duck-typed decoder
    _quote = _json.encode_basestring_ascii
except ImportError:  # pragma: no cover - CPython always has them
    _json = None  # type: ignore[assignment]

# sun_path holds 108 bytes on Linux, 104 on macOS and the BSDs, with the terminating NUL
UNIX_PATH_MAX = 107 if sys.platform == "linux" else 103


def dumps(value: Any) -> str:
    """JSON for the plain values requests are made of (str, int, float, bool, None, list, dict)."""
    if _json is None:  # pragma: no cover
        import json

        return json.dumps(value)
    if isinstance(value, str):
        return str(_quote(value))
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, (list, tuple)):
        return "[" + ",".join(dumps(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ",".join(f"{_quote(str(k))}:{dumps(v)}" for k, v in value.items()) + "}"
    raise TypeError(f"cannot send {type(value).__name__}")


def loads(text: str) -> Any:
    if _json is None:  # pragma: no cover
        import json

        return json.loads(text)
    text = text.strip()
    value, end = _scan(text, 0)
    if end != len(text):
        raise ValueError("trailing data after the JSON value")
    return value


def unix_target(path: str) -> tuple[str, int | None]:
    """An address `bind`/`connect` accept for the socket at `path`, and a folder descriptor to
    close after: `path` itself, or — too long for sun_path — the same file reached through
    /proc/self/fd of its open folder (Linux), so the socket never moves out of that folder."""
    if len(os.fsencode(path)) <= UNIX_PATH_MAX:
        return path, None
    if sys.platform != "linux":
        import errno

        raise OSError(
            errno.ENAMETOOLONG, f"{path} is too long for a Unix socket; set XDG_RUNTIME_DIR to a shorter private folder"
        )
    folder, _, name = path.rpartition("/")
    fd = os.open(folder or "/", os.O_RDONLY | os.O_DIRECTORY)
    return f"/proc/self/fd/{fd}/{name}", fd


def connect(address: str | int, timeout: float) -> Any:
    """A connected stream socket: to the Unix socket at `address` (a path), or to
    127.0.0.1:`address` (a port)."""
    if _json is None:  # pragma: no cover
        import socket as _socket_module

        sock = _socket_module.socket(_socket_module.AF_INET if isinstance(address, int) else _socket_module.AF_UNIX)
    elif isinstance(address, int):
        sock = _socket.socket(_socket.AF_INET, _socket.SOCK_STREAM)
    elif sys.platform == "win32":
        raise OSError("the daemon listens on TCP on Windows, not on a Unix socket")
    else:
        sock = _socket.socket(_socket.AF_UNIX, _socket.SOCK_STREAM)
    sock.settimeout(timeout)
    fd = None
    try:
        if isinstance(address, int):
            sock.connect(("127.0.0.1", address))
        else:
            target, fd = unix_target(address)
            sock.connect(target)
    except BaseException:
        sock.close()
        raise
    finally:
        if fd is not None:
            os.close(fd)
    return sock


def peer(sock: Any) -> tuple[int | None, int | None]:
    """(pid, uid) of the process at the other end of a connected Unix socket, as far as the OS
    tells: both on Linux (SO_PEERCRED) and macOS (LOCAL_PEERPID, LOCAL_PEERCRED), the uid
    on the BSDs (LOCAL_PEERCRED), nothing elsewhere."""
    if sys.platform == "linux":
        raw = sock.getsockopt(_socket.SOL_SOCKET, _socket.SO_PEERCRED, 12)  # struct ucred {pid, uid, gid}
        return int.from_bytes(raw[0:4], sys.byteorder, signed=True), int.from_bytes(raw[4:8], sys.byteorder)
    if sys.platform == "darwin":  # SOL_LOCAL = 0, LOCAL_PEERCRED = 1, LOCAL_PEERPID = 2
        pid = int.from_bytes(sock.getsockopt(0, 2, 4), sys.byteorder, signed=True)
        return pid, int.from_bytes(sock.getsockopt(0, 1, 76)[4:8], sys.byteorder)  # struct xucred
    if "bsd" in sys.platform:
        return None, int.from_bytes(sock.getsockopt(0, 1, 84)[4:8], sys.byteorder)
    return None, None


def send_line(sock: Any, payload: bytes) -> None:
    sock.sendall(payload)


def read_line(sock: Any, timeout: float, limit: int) -> bytes:
    """Read one line (up to its newline, or what came before the other end closed)."""
    sock.settimeout(timeout)
    chunks: list[bytes] = []
    size = 0
    while True:
        chunk = sock.recv(65536)
        if not chunk:
            break
        chunks.append(chunk)
        size += len(chunk)
        if size > limit:
            raise ValueError("the reply is too large")
        if chunk.endswith(b"\n"):
            break
    return b"".join(chunks)
