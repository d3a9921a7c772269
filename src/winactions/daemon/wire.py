"""JSON lines over a loopback TCP socket, for the thin client, without slow imports.

`import json` compiles regular expressions and `import socket` builds enums at import time:
together about 25 ms, more than starting Python itself, and an agent pays it on every
`winctl --session` call. The C modules underneath (`_json`, `_socket`) cost nothing to
import, so the client speaks through them; where they are missing (another Python), the
ordinary modules are used.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

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
        memo: dict[str, str] = {}

    _scan = _json.make_scanner(_Context())  # type: ignore[arg-type]  # duck-typed decoder
    _quote = _json.encode_basestring_ascii
except ImportError:  # pragma: no cover - CPython always has them
    _json = None  # type: ignore[assignment]


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


def exchange(port: int, payload: bytes, connect_timeout: float, timeout: float, limit: int) -> bytes:
    """Send one line to 127.0.0.1:port and read one line back."""
    if _json is None:  # pragma: no cover
        import socket

        sock = socket.create_connection(("127.0.0.1", port), timeout=connect_timeout)
    else:
        sock = _socket.socket(_socket.AF_INET, _socket.SOCK_STREAM)
        sock.settimeout(connect_timeout)
        try:
            sock.connect(("127.0.0.1", port))
        except BaseException:
            sock.close()
            raise
    try:
        sock.settimeout(timeout)
        sock.sendall(payload)
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
    finally:
        sock.close()
