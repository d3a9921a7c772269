"""Facts declared once: what each front end knows of a command or a result is read off the
command (`@command(...)`) or the result type, or generated from it, and these tests fail
when a copy parts from its source — the MCP profiles and the perceiving tools, the console
script's list of local and file-only command lines, each result's text, and the typed
methods of the Python API against their commands' parameters."""

from __future__ import annotations

import enum
import inspect
import re
import typing
from pathlib import Path
from types import UnionType
from typing import Annotated, Any, Literal, get_args, get_origin, get_type_hints

import pytest

from winactions import api
from winactions.commands import results
from winactions.commands.base import PROFILE_NAMES, GlobalOptions, Result, load_commands

ROOT = Path(__file__).resolve().parents[1]


# -- the table ------------------------------------------------------------------------------------
def test_every_module_of_commands_is_in_the_table_with_no_list_to_keep():
    folder = ROOT / "src" / "winactions" / "commands"
    declaring = {p.stem for p in folder.glob("*.py") if "\n@command(" in p.read_text(encoding="utf-8")}
    loaded = {c.handler.__module__.rsplit(".", 1)[1] for c in load_commands().values()}
    assert loaded == declaring


# -- MCP profiles ---------------------------------------------------------------------------------
def test_mcp_profiles_and_perceiving_tools_are_read_off_the_commands():
    from winactions.mcp.profiles import PERCEIVING, PROFILES, PURPOSES

    table = load_commands()
    assert list(PROFILES) == list(PROFILE_NAMES) == list(PURPOSES)
    for name, served in PROFILES.items():
        assert served == {n for n, c in table.items() if name in c.profiles}
        assert served, f"profile {name} serves nothing"
    assert PERCEIVING == {n for n, c in table.items() if c.perceives} == {"state", "find"}


def test_a_profiles_purpose_names_only_commands_it_serves():
    """`phone (swipe, long-press, go-home, launch, devices)` in `winctl mcp --help` is a list
    of names: a command that leaves the profile must leave the words too."""
    from winactions.mcp.profiles import PROFILES, PURPOSES

    table = load_commands()
    for profile, purpose in PURPOSES.items():
        named = {word.strip() for word in purpose.split(",")} & set(table)
        assert named <= PROFILES[profile], (profile, named - PROFILES[profile])


def test_a_command_cannot_name_a_profile_that_does_not_exist():
    from winactions.commands.base import Params, command

    class NoParams(Params):
        pass

    def handler(ctx: object, p: NoParams) -> Result:
        return Result()

    with pytest.raises(ValueError, match="no MCP profile cor"):
        command("declared-test", NoParams, profiles=("cor",))(handler)  # type: ignore[arg-type]
    assert "declared-test" not in load_commands()


def test_the_core_profile_fits_in_15_kb():
    """Every core tool's listing, as the server sends it: a command joining core must fit."""
    types = pytest.importorskip("mcp_types")
    from winactions.mcp.profiles import PROFILES
    from winactions.mcp.server import tool_list

    tools = tool_list([c for c in load_commands().values() if c.name in PROFILES["core"]])
    wire = types.ListToolsResult(tools=tools).model_dump_json(by_alias=True, exclude_none=True)
    assert len(wire.encode()) <= 15 * 1024


def test_a_tool_outside_the_profile_names_the_profiles_that_serve_it():
    pytest.importorskip("mcp_types")
    from winactions.mcp.profiles import PROFILES
    from winactions.mcp.server import ToolRunner

    runner = ToolRunner(profile=PROFILES["core"])
    refused = runner.call("launch", {"command": ["true"]})
    assert refused.is_error
    assert "--tools all (or add the profile that has it: phone, windows)" in refused.content[0].text
    unlisted = runner.call("click_element", {"name": "OK"})
    assert "(or add the profile that has it: none does; only all)" in unlisted.content[0].text


# -- the console script ---------------------------------------------------------------------------
def test_the_console_scripts_table_is_generated_from_the_commands():
    from winactions.cli.app import local_commands

    regenerate = ".venv/bin/python scripts/gen_command_docs.py"
    committed = (ROOT / "src" / "winactions" / "cli" / "local_commands.py").read_text(encoding="utf-8")
    assert committed == local_commands(regenerate), f"cli/local_commands.py is stale: run `{regenerate}`"


@pytest.mark.parametrize("name", sorted(n for n, c in load_commands().items() if c.offline is not False))
def test_the_console_script_keeps_file_calls_local_exactly_when_the_command_does(name, tmp_path):
    """A file-only call runs with no daemon in the console script, and with no desktop in
    `dispatch_files`: both decide it from the command's `offline`."""
    from winactions.cli.app import option_flag
    from winactions.cli.entry import reads_only_files

    cmd = load_commands()[name]
    args = {p: str(tmp_path / "x.png") for p, f in cmd.params.model_fields.items() if f.is_required()}
    argv = [name, *args.values()]
    if isinstance(cmd.offline, str):
        assert not reads_only_files(name, argv) and not cmd.reads_only_files(cmd.params.model_validate(args))
        args[cmd.offline] = str(tmp_path / "shot.png")
        argv += [option_flag(cmd.offline), args[cmd.offline]]
    assert reads_only_files(name, argv) and cmd.reads_only_files(cmd.params.model_validate(args))


# -- results --------------------------------------------------------------------------------------
RESULT_TYPES = [t for t in vars(results).values() if isinstance(t, type) and issubclass(t, Result) and t is not Result]


@pytest.mark.parametrize("kind", RESULT_TYPES, ids=lambda t: t.__name__)
def test_every_result_type_says_how_it_reads_as_text(kind):
    """A result's text is written beside its fields, not left to the JSON fallback."""
    assert "text" in vars(kind), f"{kind.__name__} has no text()"


# -- the Python API -------------------------------------------------------------------------------
PLUMBING = {"run", "call", "commands", "close"}  # Desktop methods that are no one command's view
# A command's parameter a typed function takes otherwise, on purpose: (function, parameter) -> how
ACCEPTED = {
    ("Desktop.locate", "in_"): "left out: a file is the module's locate_in",
    ("Desktop.verify_location", "in_"): "left out: a file is the module's verify_location",
    ("Desktop.verify_location", "at"): "a Rect or (x, y, width, height) too, written as the command's text",
    ("verify_location", "at"): "a Rect or (x, y, width, height) too, written as the command's text",
    ("locate_in", "in_"): "`image`, a path",
    ("locate_in", "screen"): "left out: a file is one screen",
    ("locate_in", "no_cache"): "left out: a file is never cached",
    ("verify_location", "in_"): "`image`, a path",
    ("match", "reference"): "a path",
    ("match", "image"): "a path",
}
# ...and what it takes besides the command's parameters and the global options
ALSO = {
    "locate_in": {"image", "model", "api_key", "base_url", "provider"},  # a path; GlobalOptions.llm
    "verify_location": {"image"},
}


def plain(annotation: Any) -> Any:
    """A type as a caller sees it: no `Annotated` validators, an enum as the Literal of its
    values, `X | None` and `Optional[X]` alike."""
    if get_origin(annotation) is Annotated:
        return plain(get_args(annotation)[0])
    if isinstance(annotation, type) and issubclass(annotation, enum.Enum):
        return Literal[tuple(m.value for m in annotation)]
    if get_origin(annotation) in (typing.Union, UnionType):
        return typing.Union[tuple(plain(a) for a in get_args(annotation))]  # noqa: UP007
    if get_origin(annotation) is list:
        return list[plain(get_args(annotation)[0])]  # type: ignore[misc]
    return annotation


def default_of(info: Any) -> Any:
    """A field's default as a caller passes it: None for a default built per call (`strategy
    or []`), an enum's value."""
    if info.default_factory is not None:
        return None
    return info.default.value if isinstance(info.default, enum.Enum) else info.default


def typed_views() -> dict[str, Any]:
    """Every public function of the API by its qualified name (`Desktop.click`, `match`)."""
    views = {
        f"Desktop.{name}": member
        for name, member in inspect.getmembers(api.Desktop, inspect.isfunction)
        if not name.startswith("_") and not getattr(member, "deprecated", None)
    }
    views.update({name: getattr(api, name) for name in api.__all__ if inspect.isfunction(getattr(api, name))})
    return views


def command_of(name: str) -> str | None:
    """The command a typed function calls (`@calls`), whichever class defines it (the
    generated `Commands` or `Desktop`)."""
    return api.TYPED.get(typed_views()[name].__qualname__)


def test_every_typed_method_names_its_command():
    for name in typed_views():
        assert command_of(name) or name.removeprefix("Desktop.") in PLUMBING, (
            f"{name}: mark it @calls(COMMAND), or list it as plumbing"
        )
    assert set(api.TYPED) <= {f.__qualname__ for f in typed_views().values()}


@pytest.mark.parametrize("name", sorted(n for n in typed_views() if command_of(n)))
def test_a_typed_method_takes_its_commands_parameters(name):
    """Every parameter of the command, by the same name, with the type a caller passes
    (`int | str` for an element, the Literal of a choice) and the same default; besides, only
    the call's global options with GlobalOptions' types and defaults."""
    function = typed_views()[name]
    cmd = load_commands()[command_of(name)]
    body = inspect.getsource(function).split('"""')[-1]
    called = re.search(rf'\(\s*"{re.escape(cmd.name)}"', body)  # the name may start the call's next line
    assert called, f"{name} is marked @calls({cmd.name!r}) but does not call it"
    hints = get_type_hints(function)
    taken = {p.name: p for p in inspect.signature(function).parameters.values() if p.name != "self"}
    for field, info in cmd.params.model_fields.items():
        if (name, field) in ACCEPTED:
            continue
        assert field in taken, f"{name} lacks {field}"
        wanted = typing.Optional[plain(info.annotation)] if info.default_factory else plain(info.annotation)  # noqa: UP045
        assert plain(hints[field]) == wanted, f"{name}({field}): {hints[field]} is not {wanted}"
        default = inspect.Parameter.empty if info.is_required() else default_of(info)
        assert taken[field].default == default, f"{name}({field}) defaults to {taken[field].default}"
    options = GlobalOptions.model_fields
    for extra in set(taken) - set(cmd.params.model_fields) - ALSO.get(name, set()):
        assert extra in options, f"{name}({extra}) is neither the command's nor a global option"
        assert plain(hints[extra]) == plain(options[extra].annotation), f"{name}({extra})"
        assert taken[extra].default == options[extra].default, f"{name}({extra})"


def test_the_tiers_of_the_api_are_global_options():
    fields = GlobalOptions.model_fields
    assert api.Infer == fields["infer"].annotation and api.Vision == fields["vision"].annotation
