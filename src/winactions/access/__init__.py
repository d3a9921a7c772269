"""Access grants and confined mode: who may be acted on, decided by a person, checked in one place.

`Access` is a session's: the user's policy file, its server's flags and the grants a person
gave at the prompt (kept in the session's store) make its `rules`; its `Gate` sits on the
session's backend and checks every act against them. See docs/access.md.
"""

from __future__ import annotations

from collections.abc import Callable

from winactions.access.gate import Gate
from winactions.access.rules import Flags, Granted, PolicyCache, Rules, compose
from winactions.backends.base import Backend


class Access:
    """One session's confinement: its rules, and the gate on its backend."""

    def __init__(self, backend: Backend, granted: Callable[[], Granted]) -> None:
        self.granted = granted  # the session's stored grants (its store's, read afresh each turn)
        self.flags = Flags()
        self.policy = PolicyCache()
        self.gate = Gate(backend, self.rules)
        self.gate.install()

    def rules(self) -> Rules:
        """The rules in force now (the policy file is read again when it changed)."""
        return compose(self.policy.get(), self.flags, self.granted())


__all__ = ["Access", "Flags", "Granted", "Rules"]
