"""The command table itself: every command has help, a schema, a CLI form, no collisions."""

import ast
from pathlib import Path

import click
import pytest

from winactions.cli.app import build_cli
from winactions.commands.base import Kind, load_commands

SRC = Path(__file__).resolve().parent.parent / "src" / "winactions"

# Seed 001's command list: every one of them must exist.
SEED_COMMANDS = {
    "windows",
    "state",
    "inspect",
    "screenshot",
    "click",
    "dblclick",
    "rightclick",
    "input",
    "type",
    "keys",
    "scroll",
    "select",
    "drag",
    "focus",
    "launch",
    "close",
    "click-at",
    "drag-at",
    "get text",
    "get rect",
    "get value",
    "wait",
}


def test_every_seed_command_is_in_the_table():
    assert set(load_commands()) >= SEED_COMMANDS


@pytest.mark.parametrize("name", sorted(load_commands()))
def test_command_has_help_schema_and_cli_form(name):
    cmd = load_commands()[name]
    assert len(cmd.summary) > 15, "a summary an agent can choose by"
    schema = cmd.params.model_json_schema()
    assert schema["type"] == "object"
    for field, info in cmd.params.model_fields.items():
        assert info.description, f"{name}.{field} has no description"
    cli = build_cli()
    head, _, leaf = name.partition(" ")
    click_cmd = cli.commands[head]
    if leaf:
        assert isinstance(click_cmd, click.Group)
        click_cmd = click_cmd.commands[leaf]
    params = {p.name for p in click_cmd.params}
    call_options = {"return_cap"} if cmd.kind is Kind.ACTION else set()  # an action's --max-elements
    assert params == set(cmd.params.model_fields) | call_options, "the CLI shows every parameter, nothing else"


def test_keys_take_their_chords_as_one_word_or_as_several():
    """`winctl keys Home shift+End` unquoted was refused ("unexpected extra argument"): the
    chords are words, and the command takes them as one string however the shell split them;
    the tool's schema (MCP, the Python API) still asks for one string."""
    cmd = load_commands()["keys"]
    keys = build_cli().commands["keys"]
    with keys.make_context("keys", ["Home", "shift+End"]) as ctx:
        words = list(ctx.params["keys"])
    assert cmd.params.model_validate({"keys": words}).keys == "Home shift+End"  # type: ignore[attr-defined]
    assert cmd.params.model_validate({"keys": "ctrl+a Delete"}).keys == "ctrl+a Delete"  # type: ignore[attr-defined]
    assert cmd.params.model_json_schema()["properties"]["keys"]["type"] == "string"


def test_tool_names_do_not_collide():
    names = [c.tool_name for c in load_commands().values()]
    assert len(names) == len(set(names))


def test_actions_are_marked_as_actions():
    table = load_commands()
    for name in ("click", "input", "keys", "drag-at", "select", "scroll"):
        assert table[name].kind is Kind.ACTION
    for name in ("state", "windows", "get text", "inspect"):
        assert table[name].kind is Kind.READ


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text())
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
    return found


def test_skill_and_readme_mention_every_command():
    """The agent manual (its core and topics) and the README must not fall behind the table."""
    from winactions.skill import everything

    skill = everything()
    readme = (SRC.parent.parent / "README.md").read_text()
    for name in load_commands():
        assert f"winctl {name}" in skill or f"`{name}" in skill, f"SKILL.md lacks {name}"
        head = name.split()[0]
        assert f"`{head}" in readme, f"README lacks {name}"


def test_thin_client_imports_only_the_standard_library():
    """`winctl --session s ...` must start fast: the client path may not import third-party code."""
    import subprocess
    import sys

    code = (
        "import sys; import winactions.cli.entry, winactions.daemon.client; "
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in "
        "('pydantic', 'click', 'dbus_fast', 'Xlib', 'PIL', 'mss', 'psutil', 'mcp')); print(bad)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_global_options_come_from_one_table():
    """The click group, the console script's option scanner, the daemon client's forwarded
    variables, GlobalOptions and the MCP schema all follow `winactions.options`."""
    import typing

    from winactions.cli.app import build_cli
    from winactions.commands.base import GlobalOptions
    from winactions.mcp.server import GLOBAL_INFER, GLOBAL_VISION, GLOBAL_WINDOW
    from winactions.options import (
        FLAG_OPTIONS,
        FLAGS_WITH_VALUE,
        INFER_MODES,
        OPTIONAL_VALUES,
        VALUE_OPTIONS,
        VISION_MODES,
        help_of,
    )

    group = build_cli()
    takes_value = {opt for p in group.params if not getattr(p, "is_flag", False) for opt in p.opts}
    assert takes_value - {"--version"} == FLAGS_WITH_VALUE | set(OPTIONAL_VALUES)
    flags = {opt for p in group.params if getattr(p, "is_flag", False) for opt in p.opts}
    assert flags - {"--version"} == {f.flag for f in FLAG_OPTIONS}
    fields = GlobalOptions.model_fields
    assert typing.get_args(fields["infer"].annotation) == INFER_MODES == OPTIONAL_VALUES["--infer"][1]
    assert typing.get_args(fields["vision"].annotation) == VISION_MODES == OPTIONAL_VALUES["--vision"][1]
    assert GLOBAL_INFER["enum"] == list(INFER_MODES) and GLOBAL_VISION["enum"] == list(VISION_MODES)
    assert GLOBAL_WINDOW["description"] == help_of("window")
    call_options = [
        o.dest
        for o in (*FLAG_OPTIONS, *VALUE_OPTIONS)
        if not getattr(o, "process", False)
        and not o.dest.startswith(("vision_api", "vision_base", "vision_model", "llm_"))
    ]
    for dest in [*call_options, "infer", "vision"]:
        field = fields["json_output" if dest == "json" else dest]
        assert field.description == help_of(dest), dest


def test_command_facts_live_on_the_command():
    """Front ends read per-command facts from the table, never from a command's name."""
    from winactions.backends.base import Capability
    from winactions.mcp.annotations import hints

    table = load_commands()
    assert [c.name for c in table.values() if c.destructive] == ["close"]
    assert table["bind-window"].capability is Capability.BOUND_WINDOW
    assert table["hold-key"].capability is Capability.HOLD_KEY
    assert hints(table["close"])["destructive_hint"] and not hints(table["scroll"])["destructive_hint"]


def test_every_mcp_profile_is_named_where_users_read_about_it():
    """The profiles are one table (mcp/profiles.py); `winctl mcp --help`, the agent manual
    and the README each name every one of them, so none is served that the docs do not offer."""
    from pathlib import Path

    from click.testing import CliRunner

    from winactions.cli.app import build_cli
    from winactions.mcp.profiles import PROFILES
    from winactions.skill import everything

    root = Path(__file__).resolve().parents[1]
    skill = everything()
    readme = (root / "README.md").read_text()
    help_text = CliRunner().invoke(build_cli(), ["mcp", "--help"]).output
    for name in PROFILES:
        for doc in (skill, readme):
            assert f"`{name}`" in doc or f"--tools {name}" in doc, name
        assert name in help_text, name
