"""Flags anywhere (issue 16.2): global options before or after the command, and every
command's help lists them — all read from the one table in `winactions.options`."""

from __future__ import annotations

import click
import pytest

from tests.conftest import run_in_process
from winactions.cli.app import build_cli
from winactions.cli.entry import normalize_global_options, split_session
from winactions.options import FLAG_OPTIONS, OPTIONAL_VALUES, VALUE_OPTIONS

ALL_FLAGS = [o.flag for o in (*FLAG_OPTIONS, *VALUE_OPTIONS)] + list(OPTIONAL_VALUES)


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["state", "--json"], ["--json", "state"]),
        (
            ["state", "--verbose", "--json", "--window", "Fixture"],
            ["--json", "--window", "Fixture", "state", "--verbose"],
        ),
        (["click", "3", "--return-state"], ["--return-state", "click", "3"]),
        (["state", "--infer"], ["--infer=rules", "state"]),
        (["state", "--infer", "llm", "--tree"], ["--infer=llm", "state", "--tree"]),
        (["state", "--vision=local"], ["--vision=local", "state"]),
        (["state", "--session=w1"], ["--session=w1", "state"]),
        (["state", "--vision-iou", "0.3"], ["--vision-iou", "0.3", "state"]),
        (["type", "--", "--json"], ["type", "--", "--json"]),  # after `--` a word is text
        (["drag-at", "--", "-1900", "300", "-1700", "300"], ["drag-at", "--", "-1900", "300", "-1700", "300"]),
        (["--window", "--json", "state"], ["--window", "--json", "state"]),  # an option's value stays its value
    ],
)
def test_global_options_move_in_front_of_the_command(argv, expected):
    assert normalize_global_options(argv) == expected


def test_the_console_script_finds_the_session_after_the_command():
    assert split_session(["state", "--session", "work", "--json"]) == ("work", "state", False)
    assert split_session(["click", "3", "--no-daemon"]) == (None, "click", True)


def _commands(group: click.Group, ctx: click.Context):
    for name in group.list_commands(ctx):
        cmd = group.get_command(ctx, name)
        assert cmd is not None
        sub = click.Context(cmd, info_name=name, parent=ctx)
        yield " ".join(sub.command_path.split()[1:]), cmd, sub
        if isinstance(cmd, click.Group):
            yield from _commands(cmd, sub)


def test_every_commands_help_lists_every_global_option():
    cli = build_cli()
    root = click.Context(cli, info_name="winctl")
    seen = 0
    for path, cmd, ctx in _commands(cli, root):
        text = cmd.get_help(ctx)
        assert "Global options (before or after the command)" in text, path
        missing = [flag for flag in ALL_FLAGS if flag not in text]
        assert not missing, f"`winctl {path} --help` lacks {missing}"
        seen += 1
    assert seen > 40


def test_json_after_the_command_gives_json_errors_too(tmp_path):
    """No display needed: an unknown id after `--json` still answers in JSON."""
    run = run_in_process(["inspect", "--json"], {"XDG_RUNTIME_DIR": str(tmp_path)})
    assert run.code == 2 and '"ok": false' in run.out
    assert "No such option" not in run.out + run.err
