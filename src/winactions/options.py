"""winctl's global options that take a value, declared once.

Three places need them and must agree: the click group (`cli/app.py`) declares them from
this table; the console script (`cli/entry.py`) must know which options swallow the next
word before it can find the command name, without importing click; and the daemon client
(`session/client.py`) carries their environment variables to a daemon that was started
with some earlier client's environment. So this module imports nothing at all: the thin
client stays fast.
"""

from __future__ import annotations

INFER_MODES = ("off", "rules", "llm")  # Tier 1+: none, by rule, by rule and a text model
VISION_MODES = ("off", "auto", "local", "llm")  # Tier 2: none, the model if configured, offline, a model

# Options whose value may be left out: `--infer` alone means rules, `--vision` alone auto.
OPTIONAL_VALUES: dict[str, tuple[str, tuple[str, ...]]] = {
    "--infer": ("rules", INFER_MODES),
    "--vision": ("auto", VISION_MODES),
}


class ValueOption:
    """One global option with a value.

    `env` is the variable that stands for it. Click reads it, unless `core_reads_env`: then
    the core reads it where the value is used (the MCP server has no flags, and a bad value
    should trouble only the calls that need it). `forward` carries this process's variable
    to a session daemon as the flag.
    """

    __slots__ = ("flag", "help", "env", "forward", "core_reads_env", "choices", "fraction", "default")

    def __init__(self, flag: str, help: str, *, env: str | None = None, forward: bool = False,
                 core_reads_env: bool = False, choices: tuple[str, ...] = (), fraction: bool = False,
                 default: str | None = None) -> None:
        self.flag = flag
        self.help = help
        self.env = env
        self.forward = forward
        self.core_reads_env = core_reads_env
        self.choices = choices  # allowed values; empty for free text
        self.fraction = fraction  # a number from 0 to 1
        self.default = default

    @property
    def dest(self) -> str:
        return self.flag[2:].replace("-", "_")


VALUE_OPTIONS = (
    ValueOption("--window", "act on this window (id, title part or process) and remember it"),
    ValueOption("--vision-api-key", "API key for --vision llm / --infer llm (else ANTHROPIC_API_KEY / OPENAI_API_KEY)",
                env="WINCTL_VISION_API_KEY", forward=True),
    ValueOption("--vision-base-url", "an OpenAI-compatible endpoint (GLM, OpenRouter, DeepSeek, vLLM, Ollama)",
                env="WINCTL_VISION_BASE_URL", forward=True),
    ValueOption("--vision-model", "the model to ask", env="WINCTL_VISION_MODEL", forward=True),
    ValueOption("--llm-provider", "the API format (default: guessed from the key and URL)",
                env="WINCTL_LLM_PROVIDER", forward=True, choices=("anthropic", "openai")),
    ValueOption("--infer-min-confidence", "keep a model-inferred item from this confidence up (default 0.7)",
                env="WINCTL_INFER_MIN_CONFIDENCE", forward=True, core_reads_env=True, fraction=True),
    ValueOption("--vision-iou", "a detection overlapping a listed element more than this is that element "
                                "(default 0.1)",
                env="WINCTL_VISION_IOU", forward=True, core_reads_env=True, fraction=True),
    ValueOption("--session", "session name: ids and the selected window are remembered per session",
                env="WINCTL_SESSION", default="default"),
)

FLAGS_WITH_VALUE = frozenset(o.flag for o in VALUE_OPTIONS)
FORWARDED_ENV = {o.env: o.flag for o in VALUE_OPTIONS if o.forward and o.env}
