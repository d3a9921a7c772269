"""winctl's global options, declared once.

Every place that knows them reads this table: the click group (`cli/app.py`) is built from
it (with their environment variables, which the daemon takes from each caller); the console
script (`cli/entry.py`) must know which options swallow the next word before it can find the
command name, without importing click; `GlobalOptions` (what a call carries) takes its field
descriptions from here, and the MCP schema and the Python API take theirs from it. An
option's variable is a setting of `winactions.settings`. So this module imports nothing but
that table (standard library only): the thin client stays fast.
"""

from __future__ import annotations

from winactions import settings

INFER_MODES = ("off", "rules", "llm")  # Tier 1+: none, by rule, by rule and a text model
VISION_MODES = ("off", "auto", "local", "llm")  # Tier 2: none, the model if configured, offline, a model

# Options whose value may be left out: `--infer` alone means rules, `--vision` alone auto.
OPTIONAL_VALUES: dict[str, tuple[str, tuple[str, ...]]] = {
    "--infer": ("rules", INFER_MODES),
    "--vision": ("auto", VISION_MODES),
}


class FlagOption:
    """A global option without a value (`--json`). `process` flags shape how winctl runs,
    not what a command does, so they are not part of a call's options."""

    __slots__ = ("env", "flag", "help", "process")

    def __init__(self, flag: str, help: str, *, env: str | None = None, process: bool = False) -> None:
        self.flag = flag
        self.help = help
        self.env = env
        self.process = process

    @property
    def dest(self) -> str:
        return self.flag[2:].replace("-", "_")


FLAG_OPTIONS = (
    FlagOption("--json", "print JSON: {ok, result} or {ok, error}"),
    FlagOption("--return-state", "after an action, print what changed in the window (as `state --diff`)"),
    FlagOption(
        "--no-daemon",
        "run in this process instead of the session's daemon (slower: every call connects and reads anew)",
        env=settings.NO_DAEMON.name,
        process=True,
    ),
)
# Options whose value may be left out, with their help.
OPTIONAL_VALUE_HELP = {
    "--infer": "also list hidden handles inferred from the tree (column borders, splitters, resize handles): "
    "`--infer` by rules, `--infer llm` by rules and a text model",
    "--vision": "also list elements seen in a screenshot that the tree lacks: `--vision local` (OCR and shapes, "
    "offline), `--vision llm` (a vision model), `--vision` (the model if configured)",
}


class ValueOption:
    """One global option with a value.

    `env` is the variable that stands for it. Click reads it, unless `core_reads_env`: then
    the core reads it where the value is used (the MCP server has no flags, and a bad value
    should trouble only the calls that need it).
    """

    __slots__ = ("choices", "core_reads_env", "default", "env", "flag", "fraction", "help")

    def __init__(
        self,
        flag: str,
        help: str,
        *,
        env: str | None = None,
        core_reads_env: bool = False,
        choices: tuple[str, ...] = (),
        fraction: bool = False,
        default: str | None = None,
    ) -> None:
        self.flag = flag
        self.help = help
        self.env = env
        self.core_reads_env = core_reads_env
        self.choices = choices  # allowed values; empty for free text
        self.fraction = fraction  # a number from 0 to 1
        self.default = default

    @property
    def dest(self) -> str:
        return self.flag[2:].replace("-", "_")


VALUE_OPTIONS = (
    ValueOption("--window", "act on this window (id, title part or process) and remember it"),
    ValueOption(
        "--vision-api-key",
        "API key for --vision llm / --infer llm (else ANTHROPIC_API_KEY / OPENAI_API_KEY)",
        env=settings.VISION_API_KEY.name,
    ),
    ValueOption(
        "--vision-base-url",
        "an OpenAI-compatible endpoint (GLM, OpenRouter, DeepSeek, vLLM, Ollama)",
        env=settings.VISION_BASE_URL.name,
    ),
    ValueOption("--vision-model", "the model to ask", env=settings.VISION_MODEL.name),
    ValueOption(
        "--llm-provider",
        "the API format (default: guessed from the key and URL)",
        env=settings.LLM_PROVIDER.name,
        choices=settings.LLM_PROVIDER.choices,
    ),
    ValueOption(
        "--infer-min-confidence",
        "keep a model-inferred item from this confidence up (default 0.7)",
        env=settings.INFER_MIN_CONFIDENCE.name,
        core_reads_env=True,
        fraction=True,
    ),
    ValueOption(
        "--vision-iou",
        "a detection overlapping a listed element more than this is that element (default 0.1)",
        env=settings.VISION_IOU.name,
        core_reads_env=True,
        fraction=True,
    ),
    ValueOption(
        "--device",
        "drive this Android phone (a serial from `winctl devices`) instead of the desktop",
        env=settings.DEVICE.name,
    ),
    ValueOption(
        "--session",
        "session name: ids and the selected window are remembered per session",
        env=settings.SESSION.name,
        default="default",
    ),
)

FLAGS_WITH_VALUE = frozenset(o.flag for o in VALUE_OPTIONS)


def help_of(dest: str) -> str:
    """The help of the global option stored as `dest` ("window", "return_state", "infer")."""
    for option in (*FLAG_OPTIONS, *VALUE_OPTIONS):
        if option.dest == dest:
            return option.help
    return OPTIONAL_VALUE_HELP["--" + dest.replace("_", "-")]
