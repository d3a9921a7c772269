"""What a session may reach: the grants, where each came from, and whether it is confined.

Three sources give grants, each a person's:
- `policy`: the user's policy file (`settings.policy_file`), read again whenever it changes;
  `confine = true` there confines every session of every front end;
- `flag`: the options `winctl mcp --confine --grant APP ...` of the server a person started;
- `prompt`: a person's Allow on the desktop prompt `request-access` shows; kept in the
  session's store (`Granted`) and gone when the session ends or is revoked.

`revoke` only ever takes away: it drops prompt grants and masks policy and flag grants for
the rest of the session. An app is matched by any of its names (`AppRef.names`), ignoring case.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, Field

from winactions import settings
from winactions.backends.base import AppRef
from winactions.errors import InvalidInput

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

RIGHTS = ("clipboard_read", "clipboard_write", "system_keys")
RIGHT_FLAGS = {r: "--" + r.replace("_", "-") for r in RIGHTS}  # clipboard_read -> --clipboard-read
PROMPT, POLICY, FLAG = "prompt", "policy", "flag"


class Granted(BaseModel):
    """What a session keeps of its grants: a person's Allows (name as allowed -> "prompt"),
    and what `revoke` withdrew from the policy's and the flags' (names lower-cased)."""

    apps: dict[str, str] = Field(default_factory=dict)
    rights: dict[str, str] = Field(default_factory=dict)
    revoked: list[str] = Field(default_factory=list)


@dataclass(frozen=True)
class Flags:
    """`winctl mcp --confine --grant APP --clipboard-read ...`: a server's own confinement."""

    confine: bool = False
    apps: tuple[str, ...] = ()
    rights: tuple[str, ...] = ()


@dataclass(frozen=True)
class Policy:
    """The user's policy file, as read (`read_policy`)."""

    confine: bool = False
    apps: tuple[str, ...] = ()
    rights: tuple[str, ...] = ()
    path: str = ""
    problem: str = ""  # the file exists but cannot be used: every action is refused until it is fixed


@dataclass(frozen=True)
class Rules:
    """The grants in force for one check: app name (lower case) -> (name, source), right -> source."""

    confined: bool
    apps: dict[str, tuple[str, str]] = field(default_factory=dict)
    rights: dict[str, str] = field(default_factory=dict)
    policy: Policy = Policy()

    def allows(self, app: AppRef) -> bool:
        return any(name.lower() in self.apps for name in app.names)

    def has(self, right: str) -> bool:
        return right in self.rights


def read_policy(path: str | None = None) -> Policy:
    """The policy file at `path` (default `settings.policy_file()`): no file is an empty policy;
    a file that does not parse, or holds a key or value not allowed, is a policy whose
    `problem` says why (and which confines: a broken policy must not set an agent free)."""
    path = path or settings.policy_file()
    try:
        with open(path, "rb") as f:
            data = tomllib.load(f)
    except FileNotFoundError:
        return Policy(path=path)
    except (OSError, tomllib.TOMLDecodeError) as exc:
        return Policy(confine=True, path=path, problem=str(exc))
    try:
        return _policy(data, path)
    except InvalidInput as exc:
        return Policy(confine=True, path=path, problem=exc.message)


def _policy(data: dict[str, Any], path: str) -> Policy:
    known = {"confine", "grant", *RIGHTS}
    unknown = sorted(set(data) - known)
    if unknown:
        raise InvalidInput(f"unknown keys {', '.join(unknown)} (known: {', '.join(sorted(known))})")
    grant = data.get("grant", [])
    if not isinstance(grant, list) or not all(isinstance(g, str) and g.strip() for g in grant):
        raise InvalidInput('grant is a list of app names, e.g. grant = ["gedit"]')
    for key in ("confine", *RIGHTS):
        if not isinstance(data.get(key, False), bool):
            raise InvalidInput(f"{key} is true or false")
    return Policy(
        confine=bool(data.get("confine", False)),
        apps=tuple(g.strip() for g in grant),
        rights=tuple(r for r in RIGHTS if data.get(r, False)),
        path=path,
    )


class PolicyCache:
    """The policy file, read again only when it changed (its size and modification time)."""

    def __init__(self, path: str | None = None) -> None:
        self.path = path
        self._stamp: tuple[int, int] | None = None
        self._policy = Policy()

    def get(self) -> Policy:
        path = self.path or settings.policy_file()
        try:
            st = os.stat(path)
            stamp: tuple[int, int] | None = (st.st_mtime_ns, st.st_size)
        except OSError:
            stamp = None
        if stamp != self._stamp or self._policy.path != path:
            self._policy = read_policy(path) if stamp is not None else Policy(path=path)
            self._stamp = stamp
        return self._policy


def compose(policy: Policy, flags: Flags, granted: Granted) -> Rules:
    """The rules in force: the policy's, then the flags', then the prompt's, less what was revoked."""
    apps: dict[str, tuple[str, str]] = {}
    rights: dict[str, str] = {}
    for source, names, given in ((POLICY, policy.apps, policy.rights), (FLAG, flags.apps, flags.rights)):
        for name in names:
            apps.setdefault(name.lower(), (name, source))
        for right in given:
            rights.setdefault(right, source)
    revoked = set(granted.revoked)
    apps = {k: v for k, v in apps.items() if k not in revoked}
    rights = {k: v for k, v in rights.items() if k not in revoked}
    for name, source in granted.apps.items():
        apps.setdefault(name.lower(), (name, source))
    for right, source in granted.rights.items():
        rights.setdefault(right, source)
    return Rules(confined=policy.confine or flags.confine, apps=apps, rights=rights, policy=policy)


def allow(granted: Granted, apps: list[str], rights: list[str]) -> None:
    """Record a person's Allow: the apps and rights, no longer revoked."""
    for name in apps:
        granted.apps[name] = PROMPT
    for right in rights:
        granted.rights[right] = PROMPT
    taken = {a.lower() for a in apps} | set(rights)
    granted.revoked = [r for r in granted.revoked if r not in taken]


def revoke(granted: Granted, rules: Rules, apps: list[str] | None) -> list[str]:
    """Withdraw these apps (None: every app and right) for the rest of the session; the names
    withdrawn (those that were granted)."""
    if apps is None:
        gone = [name for name, _ in rules.apps.values()] + list(rules.rights)
        granted.apps.clear()
        granted.rights.clear()
        granted.revoked = sorted(set(granted.revoked) | set(rules.apps) | set(rules.rights))
        return gone
    gone = []
    for name in apps:
        key = name.lower()
        if key in rules.apps:
            gone.append(rules.apps[key][0])
        for kept in [k for k in granted.apps if k.lower() == key]:
            del granted.apps[kept]
        if key not in granted.revoked:
            granted.revoked.append(key)
    return gone
