"""Proofs between the thin client and its daemon, without sending the secret.

The session file gives the client the daemon's address (a Unix socket, or a loopback port
on Windows) and a secret token. If the client sent the token, or its request, and printed
whatever came back, anything listening at that address — a process that took the port after
the daemon died, or a file pointing elsewhere — would learn the token and the request and
could forge the agent's view ("[2] [Button] "Transfer all money""). So the token never
travels, and the daemon proves itself first: the client sends a fresh nonce alone and the
daemon answers HMAC(token, nonce + its answer); then the request carries HMAC(token, nonce)
and each reply starts with HMAC(token, nonce + reply), which only the real daemon can
compute; a reply without a valid proof is never printed.

C modules only (`_sha256`, `_operator`): the thin client imports this on every call.
"""

from __future__ import annotations

import os

try:  # the built-in SHA-256 (~1 ms to import; OpenSSL's _hashlib costs ~4 ms)
    from _sha256 import sha256 as _sha256  # Python <= 3.11
except ImportError:  # pragma: no cover - depends on the Python version
    try:
        from _sha2 import sha256 as _sha256  # Python >= 3.12
    except ImportError:
        from hashlib import sha256 as _sha256
from _operator import _compare_digest as same  # constant time

__all__ = ["new_nonce", "same", "sign"]

_BLOCK = 64  # SHA-256's block size, which HMAC pads the key to (RFC 2104)


def new_nonce() -> str:
    return os.urandom(16).hex()


def sign(token: str, nonce: str, text: str) -> str:
    """Hex HMAC-SHA256 (RFC 2104) of `nonce` + `text` under `token`."""
    key = token.encode("utf-8", "surrogatepass")
    if len(key) > _BLOCK:
        key = _sha256(key).digest()
    key = key.ljust(_BLOCK, b"\0")
    message = (nonce + "\n" + text).encode("utf-8", "surrogatepass")
    inner = _sha256(bytes(k ^ 0x36 for k in key) + message).digest()
    return str(_sha256(bytes(k ^ 0x5C for k in key) + inner).hexdigest())
