"""`winctl mcp --http`: the MCP server over streamable HTTP, behind a bearer token.

For an agent that is not on the desktop's machine (a model in the cloud driving a desktop in
a VM or a container). The SDK's streamable HTTP app serves the same `Server` as stdio does,
on uvicorn; in front of it every request must carry `Authorization: Bearer TOKEN` (else 401,
compared in constant time). The token comes from `--token-file` or is made at start and
printed to stderr once, never logged again (uvicorn's access log is off). The server binds
to loopback unless a host is given, and then warns; the SDK's Host and Origin checks refuse
a page that reaches the port through DNS rebinding (the Host a request names must be the
address served, and an Origin, when a browser sends one, one of the same host).
"""

from __future__ import annotations

import contextlib
import hmac
import secrets
import socket
import sys
from pathlib import Path
from typing import Any

from winactions.errors import InvalidInput

LOOPBACK = "127.0.0.1"
PATH = "/mcp"


def read_token(token_file: str | None) -> tuple[str, bool]:
    """(the token, whether it was made here). A token file holds one line of at least 16
    characters; a missing, empty or short one is refused."""
    if token_file is None:
        return secrets.token_urlsafe(32), True
    try:
        token = Path(token_file).expanduser().read_text(encoding="utf-8").strip()
    except OSError as exc:
        raise InvalidInput(
            f"cannot read the token file {token_file}: {exc.strerror}", hint="a file with one line"
        ) from None
    except UnicodeDecodeError:
        raise InvalidInput(f"the token file {token_file} is not text", hint="a file with one line") from None
    if len(token) < 16 or any(ch.isspace() for ch in token):
        raise InvalidInput(
            f"the token in {token_file} is too short or holds spaces",
            hint="at least 16 characters on one line: python -c 'import secrets; print(secrets.token_urlsafe())'",
        )
    return token, False


class BearerAuth:
    """ASGI middleware: only HTTP requests with `Authorization: Bearer TOKEN` pass."""

    def __init__(self, app: Any, token: str) -> None:
        self.app = app
        self._expected = f"Bearer {token}".encode()

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        given = dict(scope.get("headers") or []).get(b"authorization", b"")
        if hmac.compare_digest(given, self._expected):
            await self.app(scope, receive, send)
            return
        body = b'{"error": "unauthorized: send Authorization: Bearer TOKEN (the token winctl mcp --http printed)"}'
        await send(
            {
                "type": "http.response.start",
                "status": 401,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"www-authenticate", b'Bearer realm="winctl"'),
                    (b"content-length", str(len(body)).encode()),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})


def _names_of_this_machine() -> set[str]:
    """This machine's host names and addresses, as a client elsewhere names it."""
    import psutil

    names = {socket.gethostname(), socket.getfqdn()}
    for name in list(names):
        with contextlib.suppress(OSError):
            names.update(str(info[4][0]) for info in socket.getaddrinfo(name, None))
    families = (socket.AF_INET, socket.AF_INET6)
    names.update(a.address.split("%")[0] for nic in psutil.net_if_addrs().values() for a in nic if a.family in families)
    return {n for n in names if n}


def security(host: str, allowed: tuple[str, ...] = ()) -> Any:
    """The SDK's DNS rebinding protection: the Host a request names must be the address served
    (for all addresses, 0.0.0.0 or ::, this machine's names and addresses), loopback, or one
    of `allowed` (`--allow-host`, for a name a proxy or a port mapping gives it); an Origin,
    when a browser sends one, must be one of those too."""
    from mcp.server.transport_security import TransportSecuritySettings

    names = {host, "127.0.0.1", "localhost", "::1", *allowed}
    if host in ("0.0.0.0", "::"):
        names |= _names_of_this_machine()
    hosts = sorted(f"[{n}]:*" if ":" in n else f"{n}:*" for n in names)
    hosts += [h.removesuffix(":*") for h in hosts]  # a Host without a port (80 behind a proxy)
    return TransportSecuritySettings(
        enable_dns_rebinding_protection=True,
        allowed_hosts=hosts,
        allowed_origins=[f"{scheme}://{h}" for h in hosts for scheme in ("http", "https")],
    )


def serve_http(server: Any, host: str | None, port: int, token_file: str | None, allowed: tuple[str, ...] = ()) -> None:
    """Serve `server` (an SDK `Server`) at http://HOST:PORT/mcp until interrupted; the address
    and a made token go to stderr once. `host` None: loopback only; `allowed`: more names a
    request's Host may give (`security`)."""
    import uvicorn

    token, made = read_token(token_file)
    bound = host or LOOPBACK
    if host is not None and host not in (LOOPBACK, "localhost", "::1"):
        print(
            f"winctl mcp: warning: serving on {host}, reachable from other machines; anyone with the token "
            "drives this desktop",
            file=sys.stderr,
        )
    app = server.streamable_http_app(streamable_http_path=PATH, host=bound, transport_security=security(bound, allowed))
    sock = socket.socket(socket.AF_INET6 if ":" in bound else socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((bound, port))
        sock.listen(128)  # before the address is printed: a client that reads it may connect at once
    except OSError as exc:
        sock.close()
        raise InvalidInput(f"cannot listen on {bound}:{port}: {exc.strerror}", hint="choose another --port") from None
    real = sock.getsockname()[1]
    shown = f"[{bound}]" if ":" in bound else bound
    print(f"winctl mcp: serving streamable HTTP at http://{shown}:{real}{PATH}", file=sys.stderr)
    if made:
        print(f"winctl mcp: token (shown once): {token}", file=sys.stderr)
    sys.stderr.flush()
    config = uvicorn.Config(BearerAuth(app, token), log_level="warning", access_log=False, lifespan="on")
    uvicorn.Server(config).run(sockets=[sock])
