"""Terminal commands: open a terminal running a program, and answer the prompt it shows.

The terminal is one whose screen the accessibility tree reads (on Linux lxterminal, a VTE
terminal: see docs/terminals.md); `state` lists its rows. `prompt-respond` reads the prompt
off the screen first (`winactions.prompts`), refuses an answer that does not fit it, sends the
keys, and reads the screen again: a prompt still there unchanged is a failure.
"""

from __future__ import annotations

import re
import shlex
import shutil
import time
from typing import Any, Literal, cast

import psutil
from pydantic import Field

from winactions import progress, prompts
from winactions.backends.base import TERMINAL, Backend, Capability
from winactions.commands.base import Context, Kind, Params, Result, command
from winactions.commands.formats import safe, screen_row, window_line
from winactions.commands.results import WindowResult
from winactions.commands.windows import LaunchParams, launch
from winactions.errors import ActionFailed, AppBusy, InvalidInput, NotFound, WaitTimeout
from winactions.keys import parse_keys
from winactions.model import Node, WindowInfo
from winactions.text_entry import focus

AGENTS = {"claude": "claude", "codex": "codex", "gemini": "gemini"}
STARTED_WAIT = 15.0  # s at least for the command's process to run
ENDS_WITHIN = 2.0  # s a terminal whose window could not be read is given to end
BLANK_WAIT = 3.0  # s a running program's screen may stay blank before it is taken as it is
SETTLE = 3.0  # s at most for the screen to answer the keys sent
QUIET = 0.3  # s the screen stays the same once it changed: the program has answered


class OpenTerminalParams(Params):
    agent: Literal["claude", "codex", "gemini", "custom"] = Field(
        description="the program to run: claude, codex, gemini, or custom with --command"
    )
    command: str | None = Field(None, description="custom: the command line to run (shell words)")
    timeout: float = Field(20.0, gt=0, le=300, description="seconds to wait for its window and its screen")


class TerminalResult(Result):
    """A terminal opened: its window, the command it runs, and the last rows its screen shows."""

    window: WindowInfo
    command: str
    pid: int | None = None
    shows: list[str] = Field(default_factory=list)

    def text(self) -> str:
        rows = "\n".join("  " + screen_row(r) for r in self.shows) or "  (nothing yet)"
        return f"open-terminal {window_line(self.window)}\nruns: {safe(self.command)} (pid {self.pid})\nshows:\n{rows}"


@command(
    "open-terminal",
    OpenTerminalParams,
    kind=Kind.WINDOW,
    capability=Capability.TERMINAL,
    positional=("agent",),
    profiles=("windows",),
)
def open_terminal(ctx: Context, p: OpenTerminalParams) -> TerminalResult:
    """Open a terminal running an agent or a command, as the session's window.

    The agent is claude, codex or gemini, or `custom` with `--command CMD`.

    The terminal's screen is read through the accessibility tree (`winctl state` lists its
    rows). It waits for the window, for the command's process to run and for the screen to show
    something; the result says what it shows. A program not on PATH is refused before anything
    opens. Answer its prompts with `winctl prompt-respond`.
    """
    if p.agent == "custom":
        if not p.command or not p.command.strip():
            raise InvalidInput("open-terminal custom needs --command", hint='open-terminal custom --command "htop"')
        try:
            argv = shlex.split(p.command)
        except ValueError as exc:
            raise InvalidInput(f"--command is not a command line: {exc}", hint="quote it as a shell would") from None
    else:
        if p.command:
            raise InvalidInput(f"--command is for custom; {p.agent} runs `{AGENTS[p.agent]}`", hint="nothing opened")
        argv = [AGENTS[p.agent]]
    if shutil.which(argv[0]) is None:
        raise NotFound(f"{argv[0]} is not on PATH: nothing was opened", hint="install it, or give its full path")
    backend = ctx.session.backend
    title = f"winctl: {argv[0].rsplit('/', 1)[-1]}"
    line = backend.terminal_command(argv, title)
    try:
        opened = cast(WindowResult, launch(ctx, LaunchParams.model_validate({"command": line, "timeout": p.timeout})))
    except ActionFailed as exc:
        raise _ended_at_once(exc.message, argv[0]) from None
    if "handed over" in opened.detail:  # lxterminal --no-remote hands nothing over: it ended
        raise _ended_at_once("the terminal ended at once", argv[0])
    said = re.match(r"pid (\d+)", opened.detail)
    pid = int(said.group(1)) if said else None
    deadline = time.monotonic() + max(p.timeout, STARTED_WAIT)
    try:
        node = _terminal(backend, opened.window, deadline)
        screen = _started(backend, node, pid, argv[0], deadline)
    except (NotFound, AppBusy) as exc:  # the window gone, or never read: did the terminal end?
        if not _ends(pid):
            raise
        raise _ended_at_once(exc.message, argv[0]) from None
    return TerminalResult(window=opened.window, command=shlex.join(argv), pid=pid, shows=screen.tail())


def _ends(pid: int | None) -> bool:
    """The terminal's process (`pid`) has ended, or ends within ENDS_WITHIN seconds (a zombie
    counts as ended); False when the pid is unknown."""
    if pid is None:
        return False
    deadline = time.monotonic() + ENDS_WITHIN
    while True:
        try:
            if psutil.Process(pid).status() == psutil.STATUS_ZOMBIE:
                return True
        except psutil.NoSuchProcess:
            return True
        except psutil.Error:
            return False
        if time.monotonic() > deadline:
            return False
        progress.pause(0.1)


def _ended_at_once(said: str, program: str) -> ActionFailed:
    return ActionFailed(
        f"{said}: {program} may have ended at once (the terminal closes when its command ends)",
        hint="keep it open with a shell after it: --command \"bash -c 'CMD; exec bash'\"",
    )


def _terminal(backend: Backend, window: WindowInfo, deadline: float) -> Node:
    """The terminal element of the window, waited for until `deadline`."""
    while True:
        found = [n for n in backend.snapshot(window).nodes if TERMINAL in n.extra]
        if found:
            return found[0]
        if time.monotonic() > deadline:
            raise NotFound(
                f'the window "{window.title}" shows no terminal screen', hint="`winctl state` shows what it has"
            )
        progress.pause(0.2)


def _started(backend: Backend, node: Node, pid: int | None, program: str, deadline: float) -> prompts.ScreenLines:
    """The screen once the command runs (a process of the terminal runs `program`) and shows
    something, or still blank BLANK_WAIT after it runs (a program that prints nothing yet);
    ActionFailed when the terminal ended, WaitTimeout when the program never ran in time."""
    name = program.rsplit("/", 1)[-1]
    running: float | None = None  # when the program was first seen running
    while True:
        runs = pid is None or _runs_below(pid, name)
        lines = _read(backend, node)
        if runs and lines is not None:
            running = running or time.monotonic()
            if any(r.strip() for r in lines.rows) or time.monotonic() - running > BLANK_WAIT:
                return lines
        if pid is not None and not psutil.pid_exists(pid):
            raise _ended_at_once("the terminal closed", program)
        if time.monotonic() > deadline:
            raise WaitTimeout(f"{program} is not running in its terminal yet", hint="raise --timeout")
        progress.pause(0.2)


def _runs_below(pid: int, name: str) -> bool:
    """A process below `pid` (the terminal's) runs the program named `name`."""
    try:
        children = psutil.Process(pid).children(recursive=True)
    except psutil.Error:
        return False
    for child in children:
        try:
            if child.name() == name[:15] or any(a.rsplit("/", 1)[-1] == name for a in child.cmdline()[:1]):
                return True
        except psutil.Error:
            continue
    return False


def _read(backend: Backend, node: Node) -> prompts.ScreenLines | None:
    read = backend.read_screen(node.handle)
    return prompts.screen_lines(read.text, read.cursor) if read is not None else None


# -- answering a prompt ----------------------------------------------------------------------------
Response = Literal["yes", "no", "enter", "escape", "select", "type"]
FITS: dict[str, set[str]] = {  # which answers each kind of prompt takes
    "yes_no": {"yes", "no", "enter", "escape"},
    "numbered": {"select", "type", "enter", "escape"},
    "arrow_menu": {"select", "enter", "escape"},
    "text": {"type", "enter", "escape"},
}


class PromptParams(Params):
    response: Response = Field(
        description="yes (y Enter), no (n Enter), enter, escape, select (a menu's option), type (text, then Enter)"
    )
    arrow: Literal["up", "down"] = Field("down", description="select in an arrow-key menu: the arrow to press")
    count: int | None = Field(None, ge=0, le=100, description="select: how many times to press the arrow")
    text: str | None = Field(None, description="type: the text; select: an option's label, or a numbered menu's number")


class PromptResult(Result):
    """What the prompt was, what was sent, and what the screen shows now."""

    kind: str
    question: str
    options: list[str] = Field(default_factory=list)
    highlighted: int | None = None
    numbers: list[str] = Field(default_factory=list)  # a numbered menu's, by option
    sent: str
    shows: list[str] = Field(default_factory=list)

    def text(self) -> str:
        seen = prompts.Prompt(self.kind, self.question, self.options, self.highlighted, self.numbers).describe()
        rows = "\n".join("  " + screen_row(r) for r in self.shows) or "  (an empty screen)"
        return f"prompt: {safe(seen)}\nsent: {self.sent}\nnow shows:\n{rows}"


@command(
    "prompt-respond",
    PromptParams,
    kind=Kind.ACTION,
    capability=Capability.TERMINAL,
    positional=("response",),
    profiles=("windows",),
)
def prompt_respond(ctx: Context, p: PromptParams) -> PromptResult:
    """Answer the prompt the session's terminal shows: a [y/N] question, a numbered or arrow-key menu, a text prompt.

    It reads the prompt off the screen first and refuses, sending nothing, when none shows or
    the answer does not fit it (yes to a menu, select to a y/N question). select: in an
    arrow-key menu --text LABEL moves to that option (or --count N presses --arrow N times),
    then Enter; in a numbered menu --text is the number or the option's label. The result says
    the prompt (its options, the highlighted one in brackets), the keys sent, and what the
    screen shows after; a prompt still there unchanged is a failure.
    """
    backend = ctx.session.backend
    window = ctx.window()
    node = _terminal(backend, window, time.monotonic())
    before = _read(backend, node)
    prompt = prompts.read_prompt(before) if before is not None else None
    if before is None or prompt is None:
        tail = " / ".join(before.tail(2)) if before is not None else ""
        raise NotFound(
            "the terminal shows no prompt: nothing was sent" + (f" (it shows: {safe(tail)})" if tail else ""),
            hint="`winctl state` shows its screen; `winctl keys` sends keys anyway",
        )
    if p.response not in FITS[prompt.kind]:
        raise InvalidInput(
            f"{p.response} does not answer the terminal's prompt, a {safe(prompt.describe())}: nothing was sent",
            hint=f"it takes {', '.join(sorted(FITS[prompt.kind]))}",
        )
    keys = _keys(p, prompt)
    if not focus(backend, window, node) and backend.holds_focus(node.handle) is False:
        raise ActionFailed("the terminal would not take the keyboard focus: nothing was sent", hint="`winctl focus` it")
    for kind, what in keys:
        if kind == "text":
            backend.type_text(what)
        else:
            backend.press_chords(parse_keys(what))
    after = _settled(backend, node, before)
    sent = " ".join(repr(w) if k == "text" else w for k, w in keys)
    if after is None:  # the program ended on the answer, and its terminal closed
        after = prompts.ScreenLines(["(the terminal closed: its program ended)"], None)
    elif after.rows == before.rows:
        raise ActionFailed(
            f"sent {sent}, but the screen did not change: the prompt is still there ({safe(prompt.describe())})",
            hint="`winctl state` shows the screen; the program may want other keys",
        )
    return PromptResult(
        kind=prompt.kind,
        question=prompt.question,
        options=prompt.options,
        highlighted=prompt.highlighted,
        numbers=prompt.numbers,
        sent=sent,
        shows=after.tail(),
    )


def _keys(p: PromptParams, prompt: prompts.Prompt) -> list[tuple[str, str]]:
    """The keys that answer: ("text", chars) typed, ("keys", "Enter") pressed."""
    enter = [("keys", "Enter")]
    if p.response in ("yes", "no"):
        return [("text", p.response[0]), *enter]
    if p.response == "enter":
        return enter
    if p.response == "escape":
        return [("keys", "Escape")]
    if p.response == "type":
        if not p.text:
            raise InvalidInput("type needs --text: nothing was sent", hint='winctl prompt-respond type --text "my-app"')
        return [("text", p.text), *enter]
    if prompt.kind == "numbered":
        return [("text", _number(p, prompt)), *enter]
    return [*_arrows(p, prompt), *enter]


def _number(p: PromptParams, prompt: prompts.Prompt) -> str:
    """A numbered menu's answer: --text as a number it lists or an option's label."""
    wanted = (p.text or "").strip()
    if wanted in prompt.numbers:
        return wanted
    hits = [n for n, o in zip(prompt.numbers, prompt.options) if o.lower() == wanted.lower()]
    if not hits:
        raise InvalidInput(
            f"select in a numbered menu needs --text, one of its numbers or options: nothing was sent"
            f" ({safe(prompt.describe())})",
            hint=f"winctl prompt-respond select --text {prompt.numbers[0]}",
        )
    return hits[0]


def _arrows(p: PromptParams, prompt: prompts.Prompt) -> list[tuple[str, str]]:
    """An arrow-key menu's answer: to the option labelled --text, else --count arrows."""
    if p.text is not None:
        hits = [i for i, o in enumerate(prompt.options) if o.lower().startswith(p.text.strip().lower())]
        if not hits or prompt.highlighted is None:
            raise InvalidInput(
                f"no option {safe(p.text)!r} in the menu ({safe(prompt.describe())}): nothing was sent",
                hint="give --count N and --arrow instead",
            )
        moves = hits[0] - prompt.highlighted
        return [("keys", "Down" if moves > 0 else "Up")] * abs(moves)
    return [("keys", p.arrow.capitalize())] * (p.count or 0)


def _settled(backend: Backend, node: Node, before: prompts.ScreenLines) -> prompts.ScreenLines | None:
    """The screen once it changed and stayed the same for QUIET, or as it is after SETTLE."""
    deadline = time.monotonic() + SETTLE
    now: Any = before
    since = time.monotonic()
    while time.monotonic() < deadline:
        time.sleep(0.05)
        read = _read(backend, node)
        if read is None:
            return None
        if read.rows != now.rows:
            now, since = read, time.monotonic()
        elif now.rows != before.rows and time.monotonic() - since >= QUIET:
            break
    return now
