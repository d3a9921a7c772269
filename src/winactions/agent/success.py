"""A task's success, checked after its last step: by code first, by the model only for
criteria in words that code cannot check, and `unverified` when nothing could.

A template (or a plan) may carry `success:`; every key present must hold:

    file: PATH             this file (or folder) exists (~ and $VARS expanded; must be absolute after that)
    file_contains: TEXT    ...its text contains this (read by the app module's `read_file`
                           hook when it has one: a binary format)
    file_equals: TEXT      ...its text equals this (one final newline ignored)
    file_saved: true       ...it was written during this run
    title_has: TEXT        the app's window title contains this
    title_lacks: TEXT      ...does not contain this (a modified mark, "*")
    element: {name, type, equals | contains}   an element of the app's window holds this text
    appears: NAME          an element of this name is in the app's window
    disappears: NAME       ...no element of this name is left there
    clipboard_contains: TEXT
    no_dialog: true        (the default, for every run) no dialog or second window of the app
                           is left open

`check_success` returns one `SuccessCheck` per criterion: `ok` True (holds), False (does not:
the task failed) or None (could not be checked: the task is unverified).
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from winactions.errors import InvalidInput, WinctlError

if TYPE_CHECKING:
    from winactions.agent.actor import Actor
    from winactions.agent.model import Model
    from winactions.model import UIState, WindowInfo

SAVED_SLACK = 0.05  # s: a file's mtime this much before the run's start still counts as written in it


class ElementCheck(BaseModel):
    """An element of the app's window (by name and/or type) whose text equals or contains a value."""

    model_config = ConfigDict(extra="forbid")

    name: str | None = None
    type: str | None = None
    equals: str | None = None
    contains: str | None = None

    @model_validator(mode="after")
    def _one_each(self) -> ElementCheck:
        if not self.name and not self.type:
            raise ValueError("element needs a name or a type")
        if (self.equals is None) == (self.contains is None):
            raise ValueError("element takes one of equals or contains")
        return self


class Success(BaseModel):
    """What must hold in the app after the last step; every key given is checked by code."""

    model_config = ConfigDict(extra="forbid")

    file: str | None = Field(default=None, description="this file exists (absolute after ~ and $VARS)")
    file_contains: str | None = Field(default=None, description="the file's text contains this")
    file_equals: str | None = Field(default=None, description="the file's text equals this")
    file_saved: bool | None = Field(default=None, description="the file was written during this run")
    title_has: str | None = Field(default=None, description="the app's window title contains this")
    title_lacks: str | None = Field(default=None, description="the app's window title does not contain this")
    element: ElementCheck | None = None
    appears: str | None = Field(default=None, description="an element of this name is in the app's window")
    disappears: str | None = Field(default=None, description="no element of this name is left in the app's window")
    clipboard_contains: str | None = Field(default=None, description="the clipboard's text contains this")
    no_dialog: bool = Field(default=True, description="no dialog or second window of the app is left open")

    @model_validator(mode="after")
    def _file_first(self) -> Success:
        if self.file is None and (self.file_contains is not None or self.file_equals is not None or self.file_saved):
            raise ValueError("file_contains, file_equals and file_saved need file")
        return self

    @property
    def checks_by_code(self) -> bool:
        """Whether anything but the default `no_dialog` is asked."""
        return any(v is not None for k, v in self.model_dump().items() if k != "no_dialog")


class SuccessCheck(BaseModel):
    """One criterion and its outcome: `ok` None means it could not be checked."""

    what: str
    ok: bool | None
    detail: str = ""
    method: Literal["code", "model"] = "code"


def parse_success(raw: Any, *, where: str) -> Success:
    """Validated criteria; an error names `where` (the template) and the key at fault."""
    try:
        return Success.model_validate(raw)
    except ValidationError as exc:
        problems = [f"{'.'.join(str(p) for p in e['loc']) or 'success'}: {e['msg']}" for e in exc.errors()[:4]]
        raise InvalidInput(
            f"{where} has invalid success criteria: " + "; ".join(problems),
            hint=f"success: takes {keys()}",
        ) from None


def keys() -> str:
    """The criteria's keys as a plan spells them, from `Success` itself: the one list the
    planner's prompt and the errors show."""
    return ", ".join("element {name, type, equals|contains}" if k == "element" else k for k in Success.model_fields)


def check_success(
    actor: Actor,
    success: Success | None,
    words: str,
    *,
    home: WindowInfo | None,
    module: Any = None,
    model: Model | None = None,
    started: float | None = None,
) -> list[SuccessCheck]:
    """Every criterion checked: `success` by code, then `words` by the model only when no
    `success` covers the task and a model is ready; with neither, one unchecked criterion."""
    from winactions.agent.opened import left_open

    criteria = success or Success()
    checks: list[SuccessCheck] = []
    if criteria.file is not None:
        checks += _file_checks(criteria, module, started)
    if criteria.title_has is not None or criteria.title_lacks is not None:
        checks += _title_checks(actor, criteria, home)
    if criteria.element is not None:
        checks.append(_element_check(actor, criteria.element, home))
    if criteria.appears is not None or criteria.disappears is not None:
        checks += _presence_checks(actor, criteria, home)
    if criteria.clipboard_contains is not None:
        checks.append(_clipboard_check(actor, criteria.clipboard_contains))
    if not criteria.checks_by_code:
        checks.append(_in_words(actor, words, model))
    if criteria.no_dialog:
        found = left_open(actor, home)
        checks.append(
            SuccessCheck(
                what="no dialog of the app is left open",
                ok=not found,
                detail="; ".join(found) if found else "none open",
            )
        )
    return checks


def _file_checks(criteria: Success, module: Any, started: float | None) -> list[SuccessCheck]:
    raw = str(criteria.file)
    path = Path(os.path.expandvars(os.path.expanduser(raw)))
    what = f"{raw} exists"
    if not path.is_absolute():
        return [SuccessCheck(what=what, ok=None, detail=f"{raw!r} is not an absolute path: say where, e.g. ~/{raw}")]
    if not path.exists():
        return [SuccessCheck(what=what, ok=False, detail=f"there is no file or folder {path}")]
    kind = "a folder" if path.is_dir() else "a file"
    checks = [SuccessCheck(what=what, ok=True, detail=f"{path} is {kind}")]
    if path.is_dir() and (criteria.file_contains is not None or criteria.file_equals is not None):
        return [*checks, SuccessCheck(what=f"the text of {path.name}", ok=False, detail="it is a folder, not a file")]
    if criteria.file_saved:
        mtime = path.stat().st_mtime
        during = started is not None and mtime >= started - SAVED_SLACK
        when = time.strftime("%H:%M:%S", time.localtime(mtime))
        checks.append(
            SuccessCheck(
                what=f"{path.name} was written during this run",
                ok=during,
                detail=f"last written at {when}" + ("" if during else ", before the run started"),
            )
        )
    if criteria.file_contains is None and criteria.file_equals is None:
        return checks
    try:
        text = _read(path, module)
    except (OSError, ValueError, WinctlError) as exc:
        return [*checks, SuccessCheck(what=f"the text of {path.name}", ok=None, detail=f"cannot be read: {exc}")]
    if criteria.file_contains is not None:
        ok = criteria.file_contains in text
        checks.append(
            SuccessCheck(
                what=f"{path.name} contains {criteria.file_contains!r}",
                ok=ok,
                detail="it does" if ok else f"it holds {_short(text)}",
            )
        )
    if criteria.file_equals is not None:
        ok = _one_newline(text) == _one_newline(criteria.file_equals)
        checks.append(
            SuccessCheck(
                what=f"{path.name} holds {criteria.file_equals!r}",
                ok=ok,
                detail="it does" if ok else f"it holds {_short(text)}",
            )
        )
    return checks


def _read(path: Path, module: Any) -> str:
    """The file's text: the app module's `read_file` hook reads its own formats."""
    hook = getattr(module, "hook", None)
    reader = hook("read_file") if callable(hook) else None
    if reader is not None:
        return str(reader(path))
    return path.read_text(encoding="utf-8", errors="replace")


def _title_checks(actor: Actor, criteria: Success, home: WindowInfo | None) -> list[SuccessCheck]:
    title = _title(actor, home)
    out = []
    if criteria.title_has is not None:
        ok = None if title is None else criteria.title_has in title
        out.append(SuccessCheck(what=f"the window title contains {criteria.title_has!r}", ok=ok, detail=_titled(title)))
    if criteria.title_lacks is not None:
        ok = None if title is None else criteria.title_lacks not in title
        out.append(SuccessCheck(what=f"the window title lacks {criteria.title_lacks!r}", ok=ok, detail=_titled(title)))
    return out


def _title(actor: Actor, home: WindowInfo | None) -> str | None:
    """The app window's title now (it changes as the document is saved), None when unknown."""
    if home is None:
        try:
            return str(actor.call("state").state.window.title)
        except WinctlError:
            return None
    try:
        windows = actor.call("windows").windows
    except WinctlError:
        return None
    return next((str(w.title) for w in windows if w.id == home.id), None)


def _titled(title: str | None) -> str:
    return "the app's window is gone" if title is None else f"the title is {title!r}"


def _element_check(actor: Actor, element: ElementCheck, home: WindowInfo | None) -> SuccessCheck:
    from winactions.agent.resolve import in_tree

    label = " ".join(x for x in (element.type, repr(element.name) if element.name else "") if x)
    wanted = element.equals if element.equals is not None else element.contains
    what = f"the {label} {'holds' if element.equals is not None else 'contains'} {wanted!r}"
    try:
        state: UIState = actor.call("state").state
    except WinctlError as exc:
        return SuccessCheck(what=what, ok=None, detail=f"the window cannot be read: {exc}")
    if home is not None and state.window.id != home.id:
        return SuccessCheck(what=what, ok=None, detail=f'"{state.window.title}" is in front of the app\'s window')
    found = in_tree(state, element.name, element.type)
    if len(found) != 1:
        return SuccessCheck(what=what, ok=None, detail=f"{len(found)} elements match, not one")
    try:
        text = str(actor.call("get text", id=found[0].id).value or "")
    except WinctlError as exc:
        return SuccessCheck(what=what, ok=None, detail=f"its text cannot be read: {exc}")
    ok = _one_newline(text) == _one_newline(wanted or "") if element.equals is not None else (wanted or "") in text
    return SuccessCheck(what=what, ok=ok, detail="it does" if ok else f"it holds {_short(text)}")


def _presence_checks(actor: Actor, criteria: Success, home: WindowInfo | None) -> list[SuccessCheck]:
    from winactions.agent.resolve import in_tree

    wanted = [(n, True) for n in [criteria.appears] if n] + [(n, False) for n in [criteria.disappears] if n]
    whats = [f"{name!r} is {'in' if shown else 'gone from'} the app's window" for name, shown in wanted]
    try:
        state: UIState = actor.call("state").state
    except WinctlError as exc:
        return [SuccessCheck(what=w, ok=None, detail=f"the window cannot be read: {exc}") for w in whats]
    if home is not None and state.window.id != home.id:
        elsewhere = f'"{state.window.title}" is in front of the app\'s window'
        return [SuccessCheck(what=w, ok=None, detail=elsewhere) for w in whats]
    out = []
    for (name, shown), what in zip(wanted, whats):
        count = len(in_tree(state, name, None))
        out.append(SuccessCheck(what=what, ok=(count > 0) == shown, detail=f"{count} element(s) of that name"))
    return out


def _clipboard_check(actor: Actor, part: str) -> SuccessCheck:
    what = f"the clipboard contains {part!r}"
    try:
        text = str(actor.call("clipboard").value or "")
    except WinctlError as exc:
        return SuccessCheck(what=what, ok=None, detail=f"the clipboard cannot be read: {exc}")
    return SuccessCheck(what=what, ok=part in text, detail="it does" if part in text else f"it holds {_short(text)}")


WORDS_SYSTEM = (
    "You check whether a desktop task is done, from the app's state. Reply with JSON: "
    '{"done": true|false|null, "reason": "..."}; null when the state cannot show it.'
)


def _in_words(actor: Actor, words: str, model: Model | None) -> SuccessCheck:
    """The criteria in words, through the run's model when it has one and budget left."""
    from winactions.agent.planner import compact_state

    if not words.strip():
        return SuccessCheck(
            what="the task's success criteria", ok=None, detail="the plan names none: nothing says the task is done"
        )
    what = words.strip()
    if model is None or not model.ready:
        return SuccessCheck(what=what, ok=None, detail="in words, and no model is configured to check them")
    if not model.left:
        return SuccessCheck(what=what, ok=None, detail="in words, and the run's model budget is spent")
    try:
        state = actor.call("state").state
        reply = model.ask(WORDS_SYSTEM, f"Criteria: {what}\n\nState now:\n{compact_state(state)}")
    except WinctlError as exc:
        return SuccessCheck(what=what, ok=None, detail=f"the model could not check them: {exc}", method="model")
    done = reply.get("done")
    return SuccessCheck(
        what=what, ok=done if isinstance(done, bool) else None, detail=str(reply.get("reason", "")), method="model"
    )


def _one_newline(text: str) -> str:
    return text[:-1] if text.endswith("\n") else text


def _short(text: str, limit: int = 80) -> str:
    return repr(text) if len(text) <= limit else f"{text[:limit]!r}… ({len(text)} characters)"


def verdict(checks: list[SuccessCheck]) -> tuple[Literal["success", "failed", "unverified"], str]:
    """The task's status from its checks, and what did not hold (or could not be checked)."""
    failed = [c for c in checks if c.ok is False]
    if failed:
        return "failed", "the steps ran, but " + "; ".join(f"{c.what}: no — {c.detail}" for c in failed)
    unknown = [c for c in checks if c.ok is None]
    if unknown:
        return "unverified", "the steps ran; not checked: " + "; ".join(f"{c.what} ({c.detail})" for c in unknown)
    return "success", ""
