"""The one place results become text or JSON.

Text is for people and agents reading a terminal: compact, one element per line, in the
seed's `[id] [Type] "Name"` form. JSON is `{"ok": true, "result": {...}}` or
`{"ok": false, "error": {...}}` so that an agent never parses prose.
"""

from __future__ import annotations

import json
import re
import unicodedata
from typing import Any

from winactions import compact
from winactions.commands.base import Result
from winactions.commands.results import (
    ActionResult,
    BatchResult,
    BindResult,
    DevicesResult,
    InspectResult,
    LocateCacheResult,
    LocateCommandResult,
    MatchResult,
    RunResult,
    ScreenshotResult,
    StateResult,
    ValueResult,
    VerifyResult,
    WaitResult,
    WindowResult,
    WindowsResult,
)
from winactions.commands.stateview import StateDiff
from winactions.errors import WinctlError
from winactions.model import Source, Target, UIState, WindowInfo

# States worth a word in compact output; the rest are implied or noise.
_SHOWN_STATES = ("focused", "checked", "selected", "expanded", "collapsed", "pressed", "indeterminate")


def _disabled(t: Target) -> bool:
    """Whether the element says it is disabled: the tree by leaving out "enabled"; what was
    seen in pixels (most of it says nothing either way) by "disabled" (a greyed-out menu item)."""
    return "disabled" in t.states or ("enabled" not in t.states and t.source is Source.ACCESSIBILITY)


# -- text --------------------------------------------------------------------------------
def target_line(t: Target, verbose: bool = False) -> str:
    parts = [f'[{t.id}] [{t.type}] "{_clean(t.name)}"']
    if t.value not in (None, "") and t.value != t.name:
        parts.append(f'value="{_value(t.value)}"')
    flags = [s for s in _SHOWN_STATES if s in t.states]
    if _disabled(t):
        flags.append("disabled")
    parts.extend(flags)
    if t.source is not Source.ACCESSIBILITY:
        parts.append(f"source={t.source.value}")
        if t.confidence is not None:
            parts.append(f"confidence={t.confidence:.2f}")
    if t.rect is not None and (verbose or t.acts_by_coordinates):
        parts.append(f"rect={t.rect}")
    if verbose and t.automation_id:
        parts.append(f"automation_id={_safe(t.automation_id)}")
    if t.derived_from and (verbose or t.source is Source.INFERRED):
        parts.append(f"derived_from={_safe(t.derived_from)}")
    return " ".join(parts)


def window_header(state: UIState) -> str:
    """A state's first line: the window, and `modified` when its document has unsaved changes."""
    w = state.window
    return f'Window: "{_clean(w.title, 200)}" ({_safe(w.process) or "?"}, pid {w.pid}, id {w.id})' + (
        " modified" if state.modified else "")


def state_text(state: UIState, verbose: bool = False, tree: bool = False, searched: str | None = None,
               budget: int | None = None) -> str:
    """A state as text; `searched` (`find`): what was looked for, said when none matched;
    `budget`: the tokens it may cost, what does not fit summarized (`compact.fit`)."""
    lines = [window_header(state)]

    def line(t: Target) -> str:
        return ("  " * t.depth if tree else "") + target_line(t, verbose)

    fixed = compact.tokens("\n".join([lines[0], *state.warnings, *state.tiers]))
    lines.extend(compact.fit(state.targets, budget, line, fixed))
    if not state.targets and searched is not None:
        lines.append(f"(none matched {_safe(searched)}; a sheet's cell is read by its address too: "
                     "`winctl get text B12`)")
    elif not state.targets:
        lines.append("(no elements: the window exposes no accessible elements — "
                     "try `winctl screenshot` or `--vision`)")
    if state.screenshot:
        lines.append(f"Screenshot: {state.screenshot}")
    if state.annotated_screenshot:
        lines.append(f"Annotated: {state.annotated_screenshot}")
    if state.truncated:
        lines.append("(truncated: the window has more elements than were read)")
    lines.extend(f"tier: {_safe(t)}" for t in state.tiers)
    lines.extend(f"warning: {_safe(w)}" for w in state.warnings)
    return "\n".join(lines)


def diff_text(result: StateResult) -> str:
    """`state --diff`: + added, - removed, ~ changed (with what changed), then a count."""
    assert result.state is not None and result.diff is not None
    return changes_text(result.state, result.diff, result.omitted, result.verbose)


def changes_text(state: UIState, d: StateDiff, omitted: int = 0, verbose: bool = False) -> str:
    """What changed, against `state` (the new one): its header, then + added, - removed and
    ~ changed elements (with what changed), then the count of unchanged ones."""
    lines = [window_header(state)]
    if d.since is None:
        lines.append("(no previous state in this session: every element is new)")
    elif d.window_changed:
        lines.append("(the previous state was of another window: every element is new)")
    lines.extend("+ " + target_line(t, verbose) for t in d.added)
    lines.extend("- " + target_line(t, verbose) for t in d.removed)
    for change in d.changed:
        what = ", ".join(_change(field, before, after) for field, (before, after) in change.fields.items())
        lines.append(f"~ {target_line(change.target, verbose)} ({what})")
    if not (d.added or d.removed or d.changed) and d.since is not None:
        lines.append("(nothing changed)")
    if omitted:
        lines.append(f"({omitted} more changes not listed (--max-elements))")
    lines.append(f"({d.unchanged} unchanged)")
    lines.extend(f"warning: {_safe(x)}" for x in state.warnings)
    return "\n".join(lines)


def _change(field: str, before: object, after: object) -> str:
    """One changed field: states as what was added and removed, the rest as before -> after."""
    if isinstance(before, list) and isinstance(after, list) and field == "states":
        gone, new = [s for s in before if s not in after], [s for s in after if s not in before]
        marks = [*(f"+{_clean(str(s), 40)}" for s in new), *(f"-{_clean(str(s), 40)}" for s in gone)]
        return "states: " + " ".join(marks)
    return f"{field}: {_change_value(before)} -> {_change_value(after)}"


def _change_value(value: object) -> str:
    if isinstance(value, list):
        return "[" + ", ".join(_clean(str(v), 40) for v in value) + "]"
    return "none" if value is None else f'"{_value(str(value))}"'


def window_line(w: WindowInfo) -> str:
    flags = [f for f, on in (("active", w.active), ("minimized", w.minimized),
                             ("maximized", w.maximized)) if on]
    rect = f" rect={w.rect}" if w.rect else ""
    return f'{w.id} "{_clean(w.title, 200)}" ({_safe(w.process) or "?"}, pid {w.pid}){rect}' + (
        f" [{', '.join(flags)}]" if flags else "")


def to_text(result: Result) -> str:
    body = _body_text(result)
    if result.state is not None and not isinstance(result, StateResult):  # --return-state: what changed
        body += "\n\n" + (state_text(result.state) if result.changes is None else
                           changes_text(result.state, result.changes, result.changes_omitted))
    return body


def _body_text(result: Result) -> str:
    if isinstance(result, StateResult):
        assert result.state is not None
        if result.diff is not None:
            return diff_text(result)
        text = state_text(result.state, result.verbose, result.tree, result.searched, result.budget)
        if result.omitted:
            text += f"\n({result.omitted} more elements not listed (--max-elements); their ids stay valid — " \
                    "`winctl state --scope ID` lists one part)"
        return text
    if isinstance(result, WindowsResult):
        return "\n".join(window_line(w) for w in result.windows) or "(no windows)"
    if isinstance(result, DevicesResult):
        return "\n".join(f"{_safe(d.serial)}\t{_safe(d.state)}" + (f"\t{_safe(d.model)}" if d.model else "")
                         for d in result.devices) or _safe(result.note) or "(no devices attached)"
    if isinstance(result, WindowResult):
        return f"{result.action}: {window_line(result.window)}" + (
            f"\n{_safe(result.detail)}" if result.detail else "")
    if isinstance(result, BindResult):
        bound = result.action == "bind" or (result.action == "status" and result.window is not None)
        head = f"bound to {window_line(result.window)}" if bound and result.window else \
            (f"unbound from {window_line(result.window)}" if result.window else "not bound")
        lines = [f"{result.action}: {head}", f"input: {result.input}", f"capture: {result.capture}"]
        return "\n".join(lines + ([_safe(result.detail)] if result.detail else []))
    if isinstance(result, ActionResult):
        what = f" [{result.target.id}] [{result.target.type}] \"{_clean(result.target.name)}\"" \
            if result.target else ""
        if result.target is not None and result.target.id == 0:  # found on screen, not in the state
            what = f' "{_clean(result.target.name)}" ({_safe(result.target.derived_from or "")})'
        at = f" at ({result.point[0]}, {result.point[1]})" if result.point else ""
        detail = f" — {_safe(result.detail)}" if result.detail else ""
        return f"{result.action}{what}{at} via {result.method}{detail}"
    if isinstance(result, ValueResult):
        value = result.value  # escaped like a name in `state` (`\n`): a text never passes for a state line
        return json.dumps(value) if isinstance(value, (list, dict)) else _safe(str(value))
    if isinstance(result, InspectResult):
        lines = [target_line(result.target, verbose=True)]
        lines += [f"  {k}: {_safe(str(v))}" for k, v in result.element.items() if v not in (None, "", [], {})]
        return "\n".join(lines)
    if isinstance(result, ScreenshotResult):
        drawn = "" if result.density is None else f", drawn at {result.density:g}x"
        covered = "".join(f"\nwarning: part of the window is covered by {_safe(what)}: the picture shows it there "
                          "(`winctl window activate` brings the window forward)" for what in result.covered_by)
        return f"{result.path} ({result.width}x{result.height}, rect={result.rect}{drawn}){covered}"
    if isinstance(result, BatchResult):
        lines = [f"batch: {result.completed} of {result.total} steps done"]
        for step in result.steps:
            if step.ok and step.result is not None:
                body = _body_text(step.result).splitlines()
                lines.append(f"{step.step}. {step.command}: {body[0] if body else 'ok'}")
            else:
                lines.append(f"{step.step}. {step.command}: error: {_safe((step.error or {}).get('message', '?'))}")
        return "\n".join(lines)
    if isinstance(result, LocateCommandResult):
        return _located_text(result)
    if isinstance(result, RunResult):
        return _run_text(result)
    if isinstance(result, MatchResult):
        lines = [f"{'found' if i == 0 else 'also'}: {m.box} centre ({m.center[0]}, {m.center[1]}), confidence "
                 f"{m.confidence:.2f} by {m.method}, scale {m.scale:g}" for i, m in enumerate(result.matches)]
        return "\n".join(lines)
    if isinstance(result, VerifyResult):
        v = result.verification
        return f"still there: {'yes' if v.still_there else 'no'} — {_safe(v.reason)}"
    if isinstance(result, LocateCacheResult):
        stats = ", ".join(f"{k} {v}" for k, v in result.stats.items())
        return (f"cleared {result.cleared} entries; " if result.action == "clear" else "") + stats
    if isinstance(result, WaitResult):
        found = f": {target_line(result.target)}" if result.target is not None else ""
        if result.window is not None:
            found = f": {window_line(result.window)} — now the session's window" if result.selected else \
                f"; active now: {window_line(result.window)}"
        return f"{result.condition} after {result.waited_seconds:.2f}s{found}"
    return json.dumps(to_data(result), indent=2)


def _run_text(result: RunResult) -> str:
    r = result.run
    head = (f"{r.status.value}: {_clean(r.task)} — plan by {r.plan_source or 'none'}"
            + (f" ({r.module}/{r.template})" if r.template else f" ({r.module})" if r.module else "")
            + f", {len(r.step_results)} steps, {r.replans} replans, {int(r.model.get('calls', 0))} model calls, "
              f"{int(r.model.get('input_tokens', 0) + r.model.get('output_tokens', 0))} tokens, {r.total_time:.1f}s")
    lines = [head]
    for s in r.step_results:
        where = f" {_safe(s.target)}" if s.target else ""
        extra = f" — {_safe(s.error)}" if s.error else ""
        lines.append(f"{s.step.step}. {s.step.action.value}{where}: {s.status.value}{extra}")
        lines += [f"   dismissed {_safe(str(d['blocker']['description']))} by {_safe(str(d['method']))}"
                  for d in s.dismissals]
    if r.error:
        lines.append(f"error: {_safe(r.error)}")
    if r.record:
        lines.append(f"recorded in {_safe(r.record)}")
    return "\n".join(lines)


def _located_text(result: LocateCommandResult) -> str:
    r = result.located
    e = r.element
    lines = [f'"{_clean(r.target)}" found by {r.method_used}{" (cached)" if r.cache_hit else ""}: '
             f'"{_clean(e.label)}" at {e.bbox}, click ({e.click_point[0]}, {e.click_point[1]}), '
             f"confidence {e.confidence:.2f}" + (f", drawn at {e.scale:g}x the reference's size"
                                                  if e.scale is not None and e.scale != 1 else "")]
    if e.visible_fraction < 1:
        lines.append(f"partly visible ({e.visible_fraction:.0%}): safe region {e.safe_region}, "
                     f"can interact: {'yes' if e.can_interact else 'no'}")
    lines += [f'also: "{_clean(c.label)}" at {c.bbox} ({c.confidence:.2f})' for c in r.candidates]
    lines += [f"tried {a.strategy}: {a.found} found" + (f", best {a.best:.2f}" if a.best is not None else "")
              + (f" — {a.error}" if a.error and a.error != "not found" else "") + f" ({a.ms:.0f} ms)"
              for a in r.attempts]
    return "\n".join(lines)


def _clean(text: str, limit: int = 120) -> str:
    """A name or title for inside quotes: one line, nothing invisible, quotes escaped, capped."""
    text = _safe(" ".join(text.split())).replace('"', '\\"')
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _value(text: str, limit: int = 60) -> str:
    """A value for inside quotes, on one line that still shows where its lines break: line
    breaks, tabs and every character `_safe` escapes written as its escape (`\\n`, `\\t`,
    `\\u202e`), a backslash or quote of the text escaped too, so each escape reads one way;
    at most `limit` characters, an escape never cut in two."""
    pieces = [_value_piece(ch) for ch in text]
    if sum(map(len, pieces)) <= limit:
        return "".join(pieces)
    kept: list[str] = []
    used = 0
    for piece in pieces:
        if used + len(piece) > limit - 1:
            break
        kept.append(piece)
        used += len(piece)
    return "".join(kept) + "…"


def _value_piece(ch: str) -> str:
    if ch in '\\"':
        return "\\" + ch
    return _escape_char(ch) if unicodedata.category(ch) in _FORGING else ch


# Characters an element or window could use to forge output: line breaks and other controls
# (Cc), and invisible formatting (Cf: bidi overrides such as U+202E, zero-width characters),
# line and paragraph separators (Zl, Zp).
_FORGING = frozenset({"Cc", "Cf", "Zl", "Zp"})
_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _escape_char(ch: str) -> str:
    if ch in _NAMED:
        return _NAMED[ch]
    code = ord(ch)
    return f"\\x{code:02x}" if code < 0x100 else (f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}")


def _safe(text: str) -> str:
    """`text` with every control, bidi and zero-width character written as an escape
    (`\\n`, `\\x07`, `\\u202e`), so that what an app names its elements can never add a
    line, move the cursor or reorder what the agent reads."""
    if text.isprintable():  # the common case, in C
        return text
    return "".join(ch if unicodedata.category(ch) not in _FORGING else _escape_char(ch) for ch in text)


# -- JSON --------------------------------------------------------------------------------
def state_data(state: UIState, verbose: bool = False) -> dict[str, Any]:
    """Compact by default: id, type, name and what is set; rects when verbose or when
    coordinates are the only way to act on the target."""
    targets = []
    for t in state.targets:
        item: dict[str, Any] = {"id": t.id, "type": t.type, "name": t.name}
        if t.value not in (None, ""):
            item["value"] = t.value
        flags = [s for s in _SHOWN_STATES if s in t.states]
        if _disabled(t):
            flags.append("disabled")
        if flags:
            item["states"] = flags
        if t.source is not Source.ACCESSIBILITY:
            item["source"] = t.source.value
            item["confidence"] = t.confidence
            if t.derived_from:
                item["derived_from"] = t.derived_from
        elif verbose and t.derived_from:  # a name the tree does not give: lent, or read off a label
            item["derived_from"] = t.derived_from
        if t.rect is not None and (verbose or t.acts_by_coordinates):
            item["rect"] = t.rect.as_list()
        if verbose:
            item["states"] = t.states
            item["operations"] = [o.value for o in t.operations]
            item["parent_id"] = t.parent_id
            item["depth"] = t.depth
            if t.automation_id:
                item["automation_id"] = t.automation_id
        targets.append(item)
    return {
        "window": state.window.model_dump(mode="json"),
        "targets": targets,
        "timestamp": state.timestamp,
        "screenshot": state.screenshot,
        "annotated_screenshot": state.annotated_screenshot,
        "truncated": state.truncated,
        "warnings": state.warnings,
        "tiers": state.tiers,
        "node_count": state.node_count,
        "modified": state.modified,
    }


def to_data(result: Result) -> dict[str, Any]:
    if isinstance(result, StateResult):
        assert result.state is not None
        data = state_data(result.state, result.verbose)
        if result.scope is not None:
            data["scope"] = result.scope
        if result.omitted:
            data["omitted"] = result.omitted
        if result.searched is not None:
            data["searched"] = result.searched
        if result.diff is not None:
            data["diff"] = diff_data(result.state, result.diff, result.verbose)
        return data
    data = result.model_dump(mode="json", exclude={"state"})
    if result.state is not None:  # --return-state: the whole new state, and what changed in it
        data["state"] = state_data(result.state)
    if result.state is not None and result.changes is not None:
        data["changes"] = diff_data(result.state, result.changes)
        if result.changes_omitted:
            data["changes"]["omitted"] = result.changes_omitted
    return data


def diff_data(state: UIState, d: StateDiff, verbose: bool = False) -> dict[str, Any]:
    """A diff as JSON: the ids added (their elements are in `state`'s targets), the elements
    removed, and per changed id each field's before and after."""
    return {"since": d.since, "window_changed": d.window_changed, "unchanged": d.unchanged,
            "added": [t.id for t in d.added],
            "removed": state_data(state.model_copy(update={"targets": d.removed}), verbose)["targets"],
            "changed": [{"id": c.target.id, **{f: {"before": b, "after": a} for f, (b, a) in c.fields.items()}}
                        for c in d.changed]}


def to_json(result: Result) -> str:
    failed = result.failure()  # a command that ran to the end and reports a failure (a task)
    body: dict[str, Any] = {"ok": failed is None, "result": to_data(result)}
    if failed is not None:
        body["error"] = failed.to_dict()
    return json.dumps(body, ensure_ascii=False)


def error_json(error: WinctlError) -> str:
    return json.dumps({"ok": False, "error": error.to_dict()}, ensure_ascii=False)


_WINCTL = re.compile(r"`winctl (?:--\S+ \S+ )*([a-z][a-z-]*(?: (?:text|rect|value|stats|clear))?)([^`]*)`")


def hint_for(hint: str | None, interface: str) -> str | None:
    """A hint phrased for the caller: `winctl state` is a command to type in a shell, the
    `state` tool to an MCP client, `Desktop.call('state')` in Python."""
    if not hint or interface == "cli":
        return hint

    def name(match: re.Match[str]) -> str:
        command, rest = match.group(1), match.group(2).strip()
        if interface == "mcp":
            tool = command.replace(" ", "_").replace("-", "_")
            return f"the `{tool}` tool" + (f" ({rest})" if rest and rest != "--help" else "")
        return f"`Desktop.call({command!r})`" + (f" ({rest})" if rest and rest != "--help" else "")

    return _WINCTL.sub(name, hint).replace("run the `", "call the `").replace("run `Desktop", "use `Desktop")


def error_text(error: WinctlError) -> str:
    return f"error: {_safe(error.message)}" + (f"\nhint: {_safe(error.hint)}" if error.hint else "")
