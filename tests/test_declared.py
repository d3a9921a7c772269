"""Facts declared once: what each front end knows of a command or a result is read off the
command (`@command(...)`) or the result type, or generated from it, and these tests fail
when a copy parts from its source — the MCP profiles and the perceiving tools, the console
script's list of local and file-only command lines, each result's text."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

from winactions.commands import results
from winactions.commands.base import PROFILE_NAMES, Result, load_commands

ROOT = Path(__file__).resolve().parents[1]


def generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location("gen_command_docs", ROOT / "scripts" / "gen_command_docs.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


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


# -- the console script ---------------------------------------------------------------------------
def test_the_console_scripts_table_is_generated_from_the_commands():
    gen = generator()
    committed = (ROOT / "src" / "winactions" / "cli" / "local_commands.py").read_text(encoding="utf-8")
    assert committed == gen.local_commands(), f"cli/local_commands.py is stale: run `{gen.REGENERATE}`"


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
RESULT_TYPES = [t for t in vars(results).values()
                if isinstance(t, type) and issubclass(t, Result) and t is not Result]


@pytest.mark.parametrize("kind", RESULT_TYPES, ids=lambda t: t.__name__)
def test_every_result_type_says_how_it_reads_as_text(kind):
    """A result's text is written beside its fields, not left to the JSON fallback."""
    assert "text" in vars(kind), f"{kind.__name__} has no text()"
