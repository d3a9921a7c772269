"""Tools served under other tool sets' names, each a translation onto a command of the table.

An agent written for another tool set (the computer-use set's `left_click(coordinate=[x, y])`,
Anthropic's `computer(action=...)`) runs unchanged when its tools are served by their own
names and arguments. Such a tool does nothing itself: its `translate` turns the arguments it
was given into one `Call` — a command of the table in its command-line shape (the values it
takes by position, its options by name) — and the call then runs as any command does,
through `dispatch`, with the command's own checks, errors and results. Nothing here knows a
platform or an app.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Annotated, Any

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, ValidationError

from winactions.backends.base import Backend, Capability
from winactions.commands.base import Command, available, load_commands
from winactions.errors import InvalidInput, Unsupported, shown
from winactions.keys import MODIFIERS, parse_keys
from winactions.mcp.model_pixels import to_screen


@dataclass(frozen=True)
class Call:
    """One command of the table as a person would type it: `command`, the values it takes by
    position in its order (a list for the one that takes the rest of the words), and its
    options by their names (`clipboard_read` for `--clipboard-read`)."""

    command: str
    positional: tuple[Any, ...] = ()
    options: dict[str, Any] = field(default_factory=dict)


def _whole_number(value: Any) -> Any:
    """A coordinate is a number, never `true` (which pydantic would read as 1)."""
    if isinstance(value, bool):
        raise ValueError(f"a coordinate is a whole number, not {value}")
    return value


Number = Annotated[int, BeforeValidator(_whole_number)]
# a position or length in the pixels of the screenshot the model saw, read as screen pixels
# (`model_pixels.to_screen`: the same number unless the server shrinks screenshots)
Pixel = Annotated[int, BeforeValidator(_whole_number), AfterValidator(to_screen)]
Coordinate = tuple[Pixel, Pixel]  # [x, y]
Region = tuple[Pixel, Pixel, Pixel, Pixel]  # [x1, y1, x2, y2]: two corners


class Args(BaseModel):
    """Base of a translated tool's arguments, named as the other tool set names them."""

    model_config = ConfigDict(extra="forbid")


@dataclass(frozen=True)
class Translated:
    """A tool of another tool set: its name, arguments and short description, and how a call
    of it becomes one command's call. `commands` names every command it may become, the first
    the one whose presence on the backend decides whether the tool is served; `needs`, a
    capability the backend must have besides (bound input for `virtual_mouse`)."""

    name: str
    args: type[Args]
    translate: Callable[[Any], Call]
    commands: tuple[str, ...]
    description: str
    needs: Capability | None = None

    def served_on(self, backend: Backend) -> bool:
        """Whether this backend can run the command it becomes (and has what it `needs`)."""
        if self.needs is not None and self.needs not in backend.capabilities:
            return False
        return any(c.name == self.commands[0] for c in available(backend))

    def parse(self, arguments: dict[str, Any]) -> Args:
        """The arguments, checked: an argument the tool does not take is refused by its name."""
        known = self.args.model_fields
        unknown = [name for name in arguments if name not in known]
        if unknown:
            raise InvalidInput(
                f"{self.name} takes no argument {', '.join(shown(u, 40) for u in unknown)}; nothing was done",
                hint=f"{self.name} takes: {', '.join(known) or 'no arguments'}",
            )
        try:
            return self.args.model_validate(arguments)
        except ValidationError as exc:
            raise InvalidInput(
                f"{self.name}: {problems(exc)}; nothing was done", hint=f"{self.name} takes: {', '.join(known)}"
            ) from None

    def call(self, arguments: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        """(command name, its parameters by name) for a call of this tool with `arguments`."""
        return bind(self.translate(self.parse(arguments)))


def problems(exc: ValidationError) -> str:
    """A validation error's problems on one line: `coordinate: Field required`."""
    said = []
    for err in exc.errors():
        where = ".".join(str(p) for p in err["loc"]) or "arguments"
        said.append(f"{where}: {err['msg'].removeprefix('Value error, ')}")
    return "; ".join(said)


def bind(call: Call) -> tuple[str, dict[str, Any]]:
    """The command's name and its parameters by name for `call`: the values by position go
    to the command's positional parameters in order, each option to the parameter of its
    name. A command this winctl lacks is Unsupported, naming it."""
    cmd: Command | None = load_commands().get(call.command)
    if cmd is None:
        raise Unsupported(
            f"this tool runs `{call.command}`, a command this version of winctl does not have; nothing was done",
            hint="update winactions",
        )
    slots = [*cmd.positional, *([cmd.variadic] if cmd.variadic else [])]
    args = {slot: value for slot, value in zip(slots, call.positional, strict=False) if value is not None}
    fields = cmd.params.model_fields
    for name, value in call.options.items():
        if value is not None:  # `in` is the parameter `in_` (a keyword in Python)
            args[f"{name}_" if name not in fields and f"{name}_" in fields else name] = value
    return cmd.name, args


def modifiers(text: str) -> str:
    """The modifier keys in `text` ("shift", "ctrl+shift", "cmd") as `--modifiers` takes them:
    canonical names joined by commas ("ctrl,shift"). Refuses a key that is not a modifier."""
    chords = parse_keys(text.replace(" ", "+"))
    names = [name for chord in chords for name in (*chord.modifiers, chord.key)]
    wrong = [n for n in names if n not in MODIFIERS]
    if wrong:
        raise InvalidInput(
            f"{shown(wrong[0], 40)} is not a modifier key (text holds the keys held during the click)",
            hint=f"modifiers: {', '.join(MODIFIERS)}, joined by +: ctrl+shift",
        )
    return ",".join(dict.fromkeys(names))


def key_names(text: str) -> str:
    """xdotool's key names as the keys parser takes them: `Page_Down` is PageDown, `Caps_Lock`
    CapsLock (an underscore inside a multi-letter name is dropped; the rest is as given)."""
    return " ".join(
        "+".join(part.replace("_", "") if len(part) > 1 else part for part in chord.split("+"))
        for chord in text.split()
    )


def rect_of(region: tuple[int, int, int, int], name: str = "region") -> tuple[int, int, int, int]:
    """(x, y, width, height) of a region given as two corners [x1, y1, x2, y2]."""
    x1, y1, x2, y2 = region
    if x2 <= x1 or y2 <= y1:
        raise InvalidInput(
            f"{name} {list(region)} is empty: it is [x1, y1, x2, y2], with x2 > x1 and y2 > y1",
            hint="e.g. [100, 200, 400, 300] is 300x100 pixels from (100, 200)",
        )
    return x1, y1, x2 - x1, y2 - y1


__all__ = [
    "Args",
    "Call",
    "Coordinate",
    "Number",
    "Pixel",
    "Region",
    "Translated",
    "bind",
    "key_names",
    "modifiers",
    "rect_of",
]
