"""Access grants as commands: ask a person for apps (`request-access`), list what is granted
(`grants`), give grants back (`revoke`). Only a person grants: the agent's request shows a
prompt on the desktop that the gate keeps the agent's own input away from (docs/access.md)."""

from __future__ import annotations

from pydantic import Field, field_validator

from winactions.access import prompt
from winactions.access.rules import RIGHT_FLAGS, RIGHTS, allow, revoke
from winactions.commands.base import Context, Kind, Params, Result, command
from winactions.errors import InvalidInput, NotGranted

APP_NAMES = "app names as `winctl windows` shows them (a program, or its WM_CLASS), any case"


def _names(values: list[str]) -> list[str]:
    if any(not v.strip() for v in values):
        raise ValueError("an app name cannot be empty")
    return [v.strip() for v in values]


class RequestAccessParams(Params):
    apps: list[str] = Field(default_factory=list, description=APP_NAMES)
    reason: str = Field("", max_length=500, description="why, shown to the person in the prompt")
    clipboard_read: bool = Field(False, description="also ask to read the clipboard")
    clipboard_write: bool = Field(False, description="also ask to write the clipboard")
    system_keys: bool = Field(
        False, description="also ask for system key combos (alt+f4, alt+tab, ctrl+alt+..., super)"
    )
    timeout: float = Field(60.0, gt=0, le=100, description="seconds to wait for the person's answer (then: denied)")

    @field_validator("apps")
    @classmethod
    def _apps(cls, value: list[str]) -> list[str]:
        return _names(value)


class AccessResult(Result):
    """What is granted now, and what this call changed."""

    confined: bool
    apps: list[dict[str, str]] = Field(default_factory=list)  # {"app": name, "source": prompt|policy|flag}
    rights: list[dict[str, str]] = Field(default_factory=list)
    policy_file: str = ""
    detail: str = ""

    def text(self) -> str:
        head = [self.detail] if self.detail else []
        if not self.confined:
            return "\n".join([*head, f"not confined: every app can be acted on (policy file: {self.policy_file})"])
        apps = ", ".join(f"{a['app']} ({a['source']})" for a in self.apps) or "none"
        rights = ", ".join(f"{RIGHT_FLAGS[r['right']]} ({r['source']})" for r in self.rights) or "none"
        return "\n".join(
            [*head, f"confined; granted apps: {apps}; rights: {rights}", f"policy file: {self.policy_file}"]
        )


def _result(ctx: Context, detail: str) -> AccessResult:
    rules = ctx.session.access.rules()
    return AccessResult(
        confined=rules.confined,
        apps=[{"app": name, "source": source} for name, source in rules.apps.values()],
        rights=[{"right": right, "source": source} for right, source in rules.rights.items()],
        policy_file=rules.policy.path,
        detail=detail,
    )


@command("request-access", RequestAccessParams, kind=Kind.SESSION, variadic="apps", profiles=("windows",))
def request_access(ctx: Context, p: RequestAccessParams) -> AccessResult:
    """Ask a person to grant apps.

    In a confined session (the user's policy file or `winctl mcp --confine` says so) a prompt
    opens on the desktop naming the apps, the rights and your reason; only the person's Allow
    grants, until the session ends or `revoke`. Deny, closing it or the timeout is an error.
    Apps and rights already granted are not asked again. Unconfined, nothing needs asking."""
    rights = [r for r in RIGHTS if getattr(p, r)]
    if not p.apps and not rights:
        raise InvalidInput("name at least one app or right", hint='winctl request-access gedit --reason "edit notes"')
    rules = ctx.session.access.rules()
    if not rules.confined:
        return _result(ctx, "nothing asked: this session is not confined")
    missing_apps = [a for a in p.apps if a.lower() not in rules.apps]
    missing_rights = [r for r in rights if not rules.has(r)]
    if not missing_apps and not missing_rights:
        return _result(ctx, "nothing asked: already granted")
    answer = prompt.ask(missing_apps, missing_rights, p.reason, p.timeout)
    asked = ", ".join([*missing_apps, *(RIGHT_FLAGS[r] for r in missing_rights)])
    if not answer.allowed:
        said = f"no answer came within {p.timeout:g} s" if answer.how == "timed out" else "the person denied it"
        raise NotGranted(
            f"access to {asked} was not granted: {said}",
            hint="nothing was granted; ask again only if they expect it, or work with what is "
            "granted (`winctl grants`)",
        )
    allow(ctx.session.data.access, missing_apps, missing_rights)
    ctx.session.save()
    return _result(ctx, f"the person allowed {asked}")


class GrantsParams(Params):
    pass


@command("grants", GrantsParams, profiles=("windows",))
def grants(ctx: Context, p: GrantsParams) -> AccessResult:
    """List the apps granted.

    Says whether this session is confined, and which apps and rights it is granted, each with
    where it came from: prompt (a person's Allow), policy (the user's policy file), flag
    (`winctl mcp --grant`)."""
    return _result(ctx, "")


class RevokeParams(Params):
    apps: list[str] = Field(default_factory=list, description=APP_NAMES)
    all: bool = Field(False, description="give back every app and right")

    @field_validator("apps")
    @classmethod
    def _apps(cls, value: list[str]) -> list[str]:
        return _names(value)


@command("revoke", RevokeParams, kind=Kind.SESSION, variadic="apps", profiles=("windows",))
def revoke_(ctx: Context, p: RevokeParams) -> AccessResult:
    """Give grants back.

    For the rest of the session: these apps, or --all (every app and right,
    from the prompt, the policy file and the server's flags alike). Asking again needs a person."""
    if bool(p.apps) == p.all:
        raise InvalidInput("give app names or --all (not both)", hint="winctl revoke gedit")
    gone = revoke(ctx.session.data.access, ctx.session.access.rules(), None if p.all else p.apps)
    ctx.session.save()
    return _result(ctx, f"revoked: {', '.join(gone) or 'nothing was granted'}")
