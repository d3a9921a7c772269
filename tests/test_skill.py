"""The agent manual: a core page small enough to read before every task, topics on demand.

Round 1 of the agent trial (docs/agent-trial.md) found every winctl agent reading
`winctl skill` (21.8 KB, 5.5K tokens) and `winctl --help` (10.3 KB, 2.6K tokens) before its
first action: 79 % of all it read. The core must stay under ~1,500 tokens, every topic
must be reachable by the name the core gives it, every command the manual names must exist,
and `--help` must list each command on one short line.
"""

from __future__ import annotations

import re

import click
import pytest
import yaml
from click.testing import CliRunner

from winactions import skill
from winactions.cli.app import build_cli, short_help
from winactions.options import OPTIONAL_VALUES, VALUE_OPTIONS

CORE_LIMIT = 6 * 1024  # ~1,500 tokens at 4 bytes a token
HELP_LIMIT = 6 * 1024  # 64 commands at one unwrapped line each; ~1,450 tokens, half a 1080p screenshot
VALUE_FLAGS = {v.flag for v in VALUE_OPTIONS} | set(OPTIONAL_VALUES)


def winctl(*argv: str) -> click.testing.Result:
    return CliRunner().invoke(build_cli(), list(argv))


def test_the_core_page_fits_in_about_1500_tokens():
    out = winctl("skill")
    assert out.exit_code == 0, out.output
    size = len(out.output.encode())
    assert size <= CORE_LIMIT, f"`winctl skill` is {size} bytes (~{size // 4} tokens), over {CORE_LIMIT}"


def test_the_core_page_is_an_agent_skill_with_frontmatter():
    """Agent Skills: YAML frontmatter with a lowercase `name` (<= 64) and a `description`
    (<= 1024) saying what it does and when to use it."""
    text = skill.core()
    match = re.match(r"---\n(.*?)\n---\n", text, re.S)
    assert match, "SKILL.md must open with frontmatter"
    fields = yaml.safe_load(match.group(1))
    assert re.fullmatch(r"[a-z0-9-]{1,64}", fields["name"])
    assert 40 <= len(fields["description"]) <= 1024
    assert "Use " in fields["description"]  # says when to use it


def test_the_core_tells_agents_what_they_did_needlessly():
    """The trial's agents called `windows` + `focus` before `state` on one-window tasks and
    read `--help` after the skill."""
    text = skill.core()
    assert "`state` reads the active window" in text
    assert "`winctl --help`" in text


@pytest.mark.parametrize("name", skill.topic_names())
def test_every_topic_is_named_in_the_core_listed_and_printed(name):
    assert f"`{name}`" in skill.core(), f"the core does not point to topic {name}"
    listed = winctl("skill", "--list")
    assert listed.exit_code == 0
    assert re.search(rf"^{name} +\S", listed.output, re.M), listed.output
    out = winctl("skill", name)
    assert out.exit_code == 0, out.output
    assert out.output.startswith(f"# {name}: ")
    assert len(out.output.split("\n", 1)[1].strip()) > 200


def test_the_manual_has_the_topics_the_brief_names():
    assert set(skill.topic_names()) >= {
        "sheets",
        "files",
        "terminals",
        "keys",
        "sessions",
        "vision",
        "phones",
        "errors",
        "mcp",
        "windows",
        "state",
        "acting",
        "run",
    }


def test_an_unknown_topic_is_an_error_that_lists_the_topics():
    out = winctl("skill", "sheet")
    assert out.exit_code == 2
    assert "no skill topic 'sheet'" in out.output
    for name in skill.topic_names():
        assert name in out.output
    assert "internal error" not in out.output


def test_an_unknown_topic_is_a_json_error_with_json():
    out = winctl("--json", "skill", "nope")
    assert out.exit_code == 2
    assert '"code": "invalid_input"' in out.output


def _mentions(text: str) -> list[list[str]]:
    """Every `winctl ...` the manual shows: in backticks, code blocks and console lines."""
    spans = re.findall(r"`winctl ([^`]+)`", text)
    spans += re.findall(r"^(?:\$ )?winctl (.+)$", text, re.M)
    return [span.split() for span in spans]


def _command_of(words: list[str]) -> list[str]:
    """The command words of a `winctl` line: global options and their values skipped."""
    i = 0
    while i < len(words) and words[i].startswith("-"):
        i += 2 if words[i] in VALUE_FLAGS and words[i] not in OPTIONAL_VALUES else 1
        if words[i - 1] in OPTIONAL_VALUES and i < len(words) and words[i] in OPTIONAL_VALUES[words[i - 1]][1]:
            i += 1
    return words[i : i + 2]


def test_every_command_the_manual_names_exists():
    cli = build_cli()
    ctx = click.Context(cli, info_name="winctl")
    checked = 0
    for words in _mentions(skill.everything()):
        command = _command_of(words)
        if not command or not re.fullmatch(r"[a-z][a-z-]*", command[0]):
            continue  # `winctl --help`, `winctl --version`
        found = cli.get_command(ctx, command[0])
        assert found is not None, f"the manual names `winctl {' '.join(words)}`: no command {command[0]!r}"
        if isinstance(found, click.Group) and len(command) > 1 and re.fullmatch(r"[a-z-]+", command[1]):
            assert command[1] in found.commands, f"`winctl {' '.join(words)}`: no {command[0]} {command[1]!r}"
        checked += 1
    assert checked > 100


def test_the_checker_catches_a_command_that_does_not_exist():
    assert _command_of(["--vision", "local", "state"]) == ["state"]
    assert _command_of(["--json", "--window", "Editor", "clik", "3"]) == ["clik", "3"]
    assert build_cli().get_command(click.Context(build_cli()), "clik") is None


def test_help_lists_each_command_on_one_short_line():
    out = winctl("--help")
    assert out.exit_code == 0
    size = len(out.output.encode())
    assert size <= HELP_LIMIT, f"`winctl --help` is {size} bytes (~{size // 4} tokens), over {HELP_LIMIT}"
    rows = out.output.split("\nCommands:\n", 1)[1].splitlines()
    assert all(re.match(r"  [a-z-]+ +\S", row) for row in rows if row.strip()), [
        row for row in rows if not re.match(r"  [a-z-]+ +\S", row)
    ]
    assert len([r for r in rows if r.strip()]) == len(build_cli().commands)
    assert all(len(row) <= 80 for row in rows), [row for row in rows if len(row) > 80]  # never wrapped
    assert "winctl skill" in out.output


def test_a_commands_own_help_keeps_its_whole_text():
    out = winctl("click", "--help")
    assert "one out of view is scrolled to first" in " ".join(out.output.split())


@pytest.mark.parametrize(
    ("text", "line"),
    [
        (
            "Click an element: its semantic action (press, toggle, select) when it has one, else a left click at its "
            "visible centre.",
            "Click an element",
        ),
        (
            "Wait some seconds, or until an element is visible, enabled or gone, or until some text appears "
            "in (or leaves) the window's elements (`--text Saved`).",
            "Wait some seconds, or until an element is visible",
        ),
        (
            "Drag between two screen points (column borders, splitters, resize handles).",
            "Drag between two screen points",
        ),
        (
            "Type text into the focused element of the window (any Unicode).\n\nMore.",
            "Type text into the focused element of the window",
        ),
        (
            "Serve the commands this platform can run as MCP tools over stdio for MCP clients.",
            "Serve the commands this platform can run as MCP tools...",
        ),
    ],
)
def test_short_help_is_the_first_sentence_cut_at_a_clause(text, line):
    assert short_help(text) == line
    assert len(short_help(text)) <= 57


# -- the skill as agents install it (issue 37.3) -----------------------------------------------------
SKILL_LIMIT = 5_500  # the core an agent loads when the skill applies: ~1,350 tokens
LINK = re.compile(r"\]\(([^)\s]+)\)")


def frontmatter(text: str) -> dict:
    match = re.match(r"---\n(.*?)\n---\n", text, re.S)
    assert match, "SKILL.md must open with YAML frontmatter"
    return yaml.safe_load(match.group(1))


def check_installed(folder, *, where: str) -> None:
    """What an agent reads there: SKILL.md whose frontmatter names this folder (Agent Skills:
    `name` is the folder's name), every file it links to, each the package's own text."""
    assert folder.as_posix().endswith(f"{where}/skills/winctl"), folder
    text = (folder / "SKILL.md").read_text(encoding="utf-8")
    fields = frontmatter(text)
    assert fields["name"] == folder.name == "winctl" and 40 <= len(fields["description"]) <= 1024
    links = LINK.findall(text)
    assert len(links) == len(skill.topic_names())
    for link in links:
        assert (folder / link).is_file(), f"SKILL.md links {link}, which {folder} lacks"
    assert {p.relative_to(folder).as_posix(): p.read_text() for p in folder.rglob("*.md")} == skill.contents()


def test_the_core_page_is_a_short_skill_linking_every_topic():
    """`winctl skill` printed 20.7 KB with no frontmatter: now the core, ~5 KB, with a
    relative link to each topic beside it (the Agent Skills layout: references/)."""
    text = skill.core()
    assert len(text.encode()) <= SKILL_LIMIT, len(text.encode())
    assert frontmatter(text)["name"] == "winctl"
    linked = sorted(LINK.findall(text))
    assert linked == sorted(f"references/{n}.md" for n in skill.topic_names())


def test_install_writes_the_skill_where_claude_code_and_codex_read_it(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    out = winctl("skill", "install", "--claude", "--agents")
    assert out.exit_code == 0, out.output
    for where in (".claude", ".agents"):
        folder = tmp_path / where / "skills" / "winctl"
        check_installed(folder, where=where)
        for relative in skill.contents():
            assert f"wrote {folder / relative}\n" in out.output
    again = winctl("skill", "install", "--claude")
    assert again.exit_code == 0 and "there already" in again.output and "wrote" not in again.output


def test_install_defaults_to_claude_code_and_global_goes_under_home(tmp_path, monkeypatch):
    home, project = tmp_path / "home", tmp_path / "project"
    project.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.chdir(project)
    assert winctl("skill", "install").exit_code == 0
    check_installed(project / ".claude" / "skills" / "winctl", where=".claude")
    assert winctl("skill", "install", "--agents", "--global").exit_code == 0
    check_installed(home / ".agents" / "skills" / "winctl", where=".agents")
    assert not (project / ".agents").exists() and not (home / ".claude").exists()


def test_install_refuses_a_different_skill_of_that_name_unless_forced(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    mine = tmp_path / ".claude" / "skills" / "winctl"
    (mine / "scripts").mkdir(parents=True)
    (mine / "SKILL.md").write_text("---\nname: winctl\ndescription: someone else's\n---\n")
    (mine / "scripts" / "run.sh").write_text("echo hi\n")
    refused = winctl("skill", "install", "--agents", "--claude")
    assert refused.exit_code == 2 and "holds a different winctl skill; nothing was written" in refused.output
    assert "--force" in refused.output and "internal error" not in refused.output
    assert (mine / "SKILL.md").read_text().endswith("someone else's\n---\n")
    assert not (tmp_path / ".agents").exists(), "a refusal writes nothing anywhere"
    forced = winctl("skill", "install", "--agents", "--claude", "--force")
    assert forced.exit_code == 0, forced.output
    check_installed(mine, where=".claude")
    assert not (mine / "scripts").exists(), "--force replaces the folder whole"
    check_installed(tmp_path / ".agents" / "skills" / "winctl", where=".agents")


def test_install_options_without_install_are_an_error(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    out = winctl("skill", "--global")
    assert out.exit_code == 2 and "options of `winctl skill install`" in out.output
    assert list(tmp_path.iterdir()) == []
