"""winctl's settings: every `WINCTL_*` environment variable, declared once.

Each setting says what it takes (its type and allowed range or choices), its default, what it
does, which part of winactions reads it and on which platforms it is honoured. Every read in
the code goes through `Setting.read`, so a bad value gets one kind of error wherever it is
read: an `InvalidInput` naming the variable, the value and what the variable takes. Settings
read by a background process that has no one to tell (the session daemon's) fall back to
their default on a bad value instead (`falls_back`); `winctl doctor` reports those, and every
other setting that is set, with its effective value. `docs/settings.md` is generated from
`SETTINGS` (`scripts/gen_settings_docs.py`).

A flag of the same meaning (`--vision-model`, `--device`, ...) wins over its variable: the
caller reads the variable only when the flag is not given. This module imports only the
standard library and `errors`: the thin client reads it before anything else is loaded.
"""

from __future__ import annotations

import math
import os
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from winactions.errors import InvalidInput

T = TypeVar("T")
EVERYWHERE = "every platform"


@dataclass(frozen=True, kw_only=True)
class Setting(Generic[T]):
    """One environment variable: its name, default, meaning, reader and where it is honoured.

    `read` gives the default when the variable is unset or blank, the parsed value when it is
    good, and on a bad value raises `InvalidInput` (or, when `falls_back`, gives the default).
    """

    name: str
    default: T
    help: str  # what it does
    reader: str  # which part of winactions reads it
    where: str = EVERYWHERE  # the platforms where it is honoured
    shown_default: str = ""  # the default as a person reads it, when `default` does not say it
    falls_back: bool = False  # a bad value is ignored (the default applies) instead of refused
    secret: bool = False  # never printed (an API key)

    @property
    def takes(self) -> str:
        """What the variable takes, as a person reads it: "a whole number, 1 or more"."""
        return "text"

    def parse(self, text: str) -> T:
        """The value `text` stands for; InvalidInput naming the variable when it is not allowed."""
        raise NotImplementedError

    def read(self, env: Mapping[str, str] | None = None) -> T:
        """The value in `env` (default: this process's environment), else the default."""
        text = (os.environ if env is None else env).get(self.name, "")
        if not text.strip():
            return self.default
        try:
            return self.parse(text)
        except InvalidInput:
            if self.falls_back:
                return self.default
            raise

    def default_text(self) -> str:
        """The default as a person reads it ("4 seconds", "off", "the session's folder")."""
        return self.shown_default or ("" if self.default is None else self.show(self.default))

    def show(self, value: T) -> str:
        """A value as a person reads it; a secret one is never shown."""
        return "(set; not shown)" if self.secret else str(value)

    def refuse(self, text: str, problem: str) -> InvalidInput:
        """The error for a bad value: the variable, the value, what it takes and the default."""
        default = self.default_text()
        return InvalidInput(
            f"{self.name}={text!r} {problem}",
            hint=f"{self.name} takes {self.takes}"
            + (f" (default {default})" if default else "")
            + "; set it right or unset it",
        )


@dataclass(frozen=True, kw_only=True)
class Text(Setting[str | None]):
    """Free text (a name, a URL, a file or folder); blank is unset."""

    default: str | None = None
    kind: str = "text"

    @property
    def takes(self) -> str:
        return self.kind

    def parse(self, text: str) -> str | None:
        return text


@dataclass(frozen=True, kw_only=True)
class Choice(Setting[str | None]):
    """One word of a fixed list."""

    default: str | None = None
    choices: tuple[str, ...]

    @property
    def takes(self) -> str:
        return " or ".join(self.choices)

    def parse(self, text: str) -> str | None:
        if text.strip() not in self.choices:
            raise self.refuse(text, f"is not one of {', '.join(self.choices)}")
        return text.strip()


@dataclass(frozen=True, kw_only=True)
class Flag(Setting[bool]):
    """On when set to anything but blank or 0."""

    default: bool = False

    @property
    def takes(self) -> str:
        return "1 (on) or 0 (off)"

    def parse(self, text: str) -> bool:
        return text.strip() != "0"

    def show(self, value: bool) -> str:
        return "on" if value else "off"


@dataclass(frozen=True, kw_only=True)
class Folders(Setting[tuple[str, ...]]):
    """Folders separated by the platform's path separator (: on POSIX, ; on Windows)."""

    default: tuple[str, ...] = ()

    @property
    def takes(self) -> str:
        return f"folders separated by {os.pathsep!r}"

    def parse(self, text: str) -> tuple[str, ...]:
        return tuple(p for p in text.split(os.pathsep) if p)

    def show(self, value: tuple[str, ...]) -> str:
        return os.pathsep.join(value) or "none"


@dataclass(frozen=True, kw_only=True)
class Number(Setting[float]):
    """A number within [low, high] (`above`: more than low, low itself refused); `unit` names it."""

    low: float = 0.0
    high: float | None = None
    above: bool = False
    unit: str = ""

    @property
    def takes(self) -> str:
        kind = f"a number of {self.unit}" if self.unit else "a number"
        return f"{kind}, {_range(self.low, self.high, self.above)}"

    def parse(self, text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise self.refuse(text, f"is not a number{' of ' + self.unit if self.unit else ''}") from None
        if not _within(value, self.low, self.high, self.above):
            raise self.refuse(text, _must(self.low, self.high, self.above))
        return value

    def check(self, value: float) -> float:
        """`value` (given by a flag or a call) when it is in range, else InvalidInput naming the variable."""
        if not _within(value, self.low, self.high, self.above):
            raise InvalidInput(
                f"{self.name} {_must(self.low, self.high, self.above)}, not {value:g}",
                hint=f"give {self.takes} (default {self.default_text()})",
            )
        return value

    def show(self, value: float) -> str:
        return f"{value:g}" + (f" {self.unit}" if self.unit else "")


@dataclass(frozen=True, kw_only=True)
class Whole(Setting[int]):
    """A whole number, `low` or more."""

    low: int = 1
    unit: str = ""

    @property
    def takes(self) -> str:
        return f"a whole number{' of ' + self.unit if self.unit else ''}, {self.low} or more"

    def parse(self, text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise self.refuse(text, f"is not a whole number{' of ' + self.unit if self.unit else ''}") from None
        if value < self.low:
            raise self.refuse(text, f"must be {self.low} or more")
        return value


def _within(value: float, low: float, high: float | None, above: bool) -> bool:
    """Whether `value` lies in the range (NaN never does)."""
    if math.isnan(value) or value < low or (above and value == low):
        return False
    return high is None or value <= high


def _range(low: float, high: float | None, above: bool) -> str:
    """The range in words: "from 0 to 30", "more than 0", "more than 0 and at most 120"."""
    if high is None:
        return f"more than {low:g}" if above else f"{low:g} or more"
    return f"more than {low:g} and at most {high:g}" if above else f"from {low:g} to {high:g}"


def _must(low: float, high: float | None, above: bool) -> str:
    """What a value out of the range is told: "must lie between 0 and 1", "must be more than 0"."""
    if high is not None and not above:
        return f"must lie between {low:g} and {high:g}"
    return f"must be {_range(low, high, above)}"


# -- reading a window -----------------------------------------------------------------------
MAX_NODES = Whole(
    name="WINCTL_MAX_NODES",
    default=20_000,
    unit="elements",
    help="the most elements one read of a window's tree takes; the rest is left out and the state says so",
    reader="perception: every read of a window's tree (`state`, and actions that resolve an id)",
)
STATE_SECONDS = Number(
    name="WINCTL_STATE_SECONDS",
    default=4.0,
    above=True,
    unit="seconds",
    help="the time budget of one read of a window's tree; what is not read in time is left out and "
    "the state says so (a phone's uiautomator dump and Windows' UI Automation cache come whole, "
    "in one call: no time budget applies there)",
    reader="the Linux backend's tree read (AT-SPI), which reads element by element",
    where="Linux",
)
# -- acting ---------------------------------------------------------------------------------
TYPING_LIMIT = Whole(
    name="WINCTL_TYPING_LIMIT",
    default=10_000,
    unit="characters",
    help="the most characters one `input` or `type` types (about 20 s of keys); a longer text is "
    "refused before any key is pressed",
    reader="text entry (`input`, `type`)",
)
PASTE_OVER = Whole(
    name="WINCTL_PASTE_OVER",
    default=200,
    low=0,
    unit="characters",
    help="a text longer than this is pasted through the clipboard (ctrl+v; ctrl+shift+v in a "
    "terminal), not typed key by key, and the clipboard's text put back after; 0: always typed",
    reader="text entry (`input` when it types, `type`)",
)
# -- the locator and the perception tiers ---------------------------------------------------
LOCATE_CACHE_TTL = Number(
    name="WINCTL_LOCATE_CACHE_TTL",
    default=30.0,
    high=30.0,
    unit="seconds",
    help="how long a target the locator found is reused while the pixels under it stay the same "
    "(it can only be lowered; 0 turns the reuse off)",
    reader="the locator's cache (`locate`, and `text:`/`image:` targets of actions)",
)
ASSETS = Text(
    name="WINCTL_ASSETS",
    kind="a folder",
    shown_default="~/.local/share/winactions/assets",
    help="the asset library `image:NAME` targets are looked up in",
    reader="the locator (`image:` targets)",
)
FIXED_POINTS = Text(
    name="WINCTL_FIXED_POINTS",
    kind="a JSON file",
    shown_default="~/.config/winactions/fixed_points.json",
    help="the file of named points per app that `fixed:NAME` targets are looked up in",
    reader="the locator (`fixed:` targets)",
)
INFER_MIN_CONFIDENCE = Number(
    name="WINCTL_INFER_MIN_CONFIDENCE",
    default=0.7,
    high=1.0,
    help="a model-inferred item is kept from this confidence up (`--infer-min-confidence` wins)",
    reader="the inference tier (`--infer llm`)",
)
VISION_IOU = Number(
    name="WINCTL_VISION_IOU",
    default=0.1,
    high=1.0,
    help="a detection overlapping a listed element more than this is that element (`--vision-iou` wins)",
    reader="the vision tier (`--vision`)",
)
# -- the model ------------------------------------------------------------------------------
LLM_PROVIDER = Choice(
    name="WINCTL_LLM_PROVIDER",
    choices=("anthropic", "openai"),
    shown_default="guessed from the key and URL",
    help="the API format of the model's server; openai for any OpenAI-compatible server (`--llm-provider` wins)",
    reader="the model client (`--infer llm`, `--vision llm`, `dynamic:` targets, `agent`)",
)
VISION_API_KEY = Text(
    name="WINCTL_VISION_API_KEY",
    secret=True,
    shown_default="ANTHROPIC_API_KEY or OPENAI_API_KEY",
    help="the model's API key (`--vision-api-key` wins); a local server needs none",
    reader="the model client",
)
VISION_BASE_URL = Text(
    name="WINCTL_VISION_BASE_URL",
    kind="a URL",
    shown_default="the provider's own API",
    help="an OpenAI-compatible endpoint: GLM, OpenRouter, DeepSeek, a local vLLM or Ollama (`--vision-base-url` wins)",
    reader="the model client",
)
VISION_MODEL = Text(
    name="WINCTL_VISION_MODEL",
    kind="a model name",
    shown_default="claude-sonnet-4-6 or gpt-4o-mini, by provider",
    help="the model to ask (`--vision-model` wins)",
    reader="the model client",
)
LLM_TIMEOUT = Number(
    name="WINCTL_LLM_TIMEOUT",
    default=60.0,
    above=True,
    unit="seconds",
    help="how long one model call may take",
    reader="the model client",
)
VISION_BOX_UNITS = Choice(
    name="WINCTL_VISION_BOX_UNITS",
    choices=("pixels", "per_mille"),
    falls_back=True,
    shown_default="per_mille for GLM and Qwen models, else pixels",
    help="the box coordinates a vision model is asked for; a bad value is ignored (the guess applies)",
    reader="the vision model prompts (`--vision llm`, `dynamic:` targets)",
)
# -- sessions and front ends ----------------------------------------------------------------
SESSION = Text(
    name="WINCTL_SESSION",
    kind="a session name",
    shown_default="default",
    help="the session commands run in: ids and the selected window are kept per session (`--session` wins)",
    reader="the command line (`winctl`, `winctl mcp`)",
)
DEVICE = Text(
    name="WINCTL_DEVICE",
    kind="a phone's serial",
    shown_default="none: this desktop",
    help="drive this Android phone (a serial from `winctl devices`) instead of the desktop (`--device` wins)",
    reader="the choice of backend (command line, session daemon, Python API)",
)
NO_DAEMON = Flag(
    name="WINCTL_NO_DAEMON",
    help="run each command in its own process instead of the session's daemon (slower: every call "
    "connects and reads anew)",
    reader="the command line",
)
OUTPUT_DIR = Text(
    name="WINCTL_OUTPUT_DIR",
    kind="a folder",
    shown_default="the session's folder",
    help="the folder files written for a model (screenshots, ...) go into (`winctl mcp --output-dir` wins)",
    reader="the MCP server and the daemon's `call`",
)
APPS = Folders(
    name="WINCTL_APPS",
    help="more folders of app modules for the task runner; theirs win over the built-in ones by name",
    reader="the task runner (`run`, `replay`, `agent`)",
)
COMMAND_DEADLINE = Number(
    name="WINCTL_COMMAND_DEADLINE",
    default=120.0,
    high=120.0,
    above=True,
    unit="seconds",
    falls_back=True,
    help="how long the session daemon waits for one command's reply (it can only be shortened); "
    "a bad value is ignored (the default applies)",
    reader="the session daemon, from its own environment when it starts",
)
IDLE_TIMEOUT = Number(
    name="WINCTL_IDLE_TIMEOUT",
    default=1800.0,
    above=True,
    unit="seconds",
    falls_back=True,
    help="how long a session daemon waits unused before it exits; a bad value is ignored (the default applies)",
    reader="the session daemon, from the environment of the command that starts it",
)
DEBUG = Flag(
    name="WINCTL_DEBUG", help="print a traceback when winctl meets an internal error", reader="the command line"
)

SETTINGS: tuple[Setting[Any], ...] = (
    MAX_NODES,
    STATE_SECONDS,
    TYPING_LIMIT,
    PASTE_OVER,
    LOCATE_CACHE_TTL,
    ASSETS,
    FIXED_POINTS,
    INFER_MIN_CONFIDENCE,
    VISION_IOU,
    LLM_PROVIDER,
    VISION_API_KEY,
    VISION_BASE_URL,
    VISION_MODEL,
    LLM_TIMEOUT,
    VISION_BOX_UNITS,
    SESSION,
    DEVICE,
    NO_DAEMON,
    OUTPUT_DIR,
    APPS,
    COMMAND_DEADLINE,
    IDLE_TIMEOUT,
    DEBUG,
)
BY_NAME: dict[str, Setting[Any]] = {s.name: s for s in SETTINGS}
PREFIX = "WINCTL_"


def policy_file(env: Mapping[str, str] | None = None) -> str:
    """The user's access policy (`winactions.access.policy`): `$XDG_CONFIG_HOME/winactions/policy.toml`,
    else `~/.config/winactions/policy.toml` (on Windows `%APPDATA%\\winactions\\policy.toml`).
    A file the person at the desktop writes; no `WINCTL_*` variable moves it, so an agent
    cannot point winctl at a policy of its own making."""
    env = os.environ if env is None else env
    base = env.get("XDG_CONFIG_HOME", "").strip()
    if not base and os.name == "nt":
        base = env.get("APPDATA", "").strip()
    if not base:
        base = os.path.join(os.path.expanduser("~"), ".config")
    return os.path.join(base, "winactions", "policy.toml")
