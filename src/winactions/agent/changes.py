"""What a step changed, read from the window's state before and after it: a few short lines
for a run's record (`--record`), bounded in size whatever the window holds."""

from __future__ import annotations

from collections import Counter

from winactions.model import Target, UIState

MAX_LINES = 12  # lines per step at most; the rest is counted
MAX_TEXT = 60  # characters of a name or value quoted


def changes(before: UIState, after: UIState) -> list[str]:
    """`window changed: 'a' -> 'b'`, `appeared: Button 'OK'`, `disappeared: ...`, `value of
    Edit 'Name': '' -> 'x'`, `title: ...`; [] when the tree shows no change."""
    lines: list[str] = []
    if before.window.id != after.window.id:
        lines.append(f"window changed: {_q(before.window.title)} -> {_q(after.window.title)}")
    elif before.window.title != after.window.title:
        lines.append(f"title: {_q(before.window.title)} -> {_q(after.window.title)}")
    old, new = Counter(map(_label, before.targets)), Counter(map(_label, after.targets))
    lines += [f"appeared: {label}" for label in (new - old).elements()]
    lines += [f"disappeared: {label}" for label in (old - new).elements()]
    if before.window.id == after.window.id:
        was = {t.id: t for t in before.targets}
        for t in after.targets:
            prior = was.get(t.id)
            if prior is not None and _label(prior) == _label(t) and _text(prior) != _text(t):
                lines.append(f"value of {_label(t)}: {_q(_text(prior))} -> {_q(_text(t))}")
    if len(lines) > MAX_LINES:
        lines = [*lines[: MAX_LINES - 1], f"... and {len(lines) - MAX_LINES + 1} more changes"]
    return lines


def _label(t: Target) -> str:
    return f"{t.type} {_q(t.name)}" if t.name else t.type


def _text(t: Target) -> str:
    if t.screen is not None:
        return "\n".join(t.screen)
    return t.value or ""


def _q(text: str) -> str:
    return repr(text if len(text) <= MAX_TEXT else text[: MAX_TEXT - 1] + "…")
