"""The agent manual: a short core page and topics read on demand, as an Agent Skill.

The skill is the folder `skills/winctl/` of this package: `SKILL.md` (YAML frontmatter with
`name` and `description`, then the essentials) and `references/NAME.md`, one topic each, whose
first line is `# NAME: what it covers`. `winctl skill` prints the core, `winctl skill --list`
the topics, `winctl skill NAME` one topic, and `winctl skill install` copies the folder where
agents look for skills (`install`).
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from importlib.resources import files
from importlib.resources.abc import Traversable
from pathlib import Path

from winactions.errors import InvalidInput

NAME = "winctl"  # the skill's name: its frontmatter's `name`, and its folder's
CORE = "SKILL.md"
TOPICS = "references"
# where each agent reads skills, in a project and under the home folder alike (docs/skills.md)
PLACES = {
    "claude": Path(".claude", "skills"),  # Claude Code
    "agents": Path(".agents", "skills"),  # Codex, and the agents that follow the .agents convention
}


def _package() -> Traversable:
    return files("winactions").joinpath("skills").joinpath(NAME)


def core() -> str:
    """The core page, frontmatter included (so it can be installed as a skill as printed)."""
    return _package().joinpath(CORE).read_text(encoding="utf-8")


def topic_names() -> list[str]:
    """Every topic's name, sorted."""
    return sorted(p.name[:-3] for p in _package().joinpath(TOPICS).iterdir() if p.name.endswith(".md"))


def topic(name: str) -> str:
    """One topic's text; an unknown name is `InvalidInput` whose hint lists the topics."""
    names = topic_names()
    if name not in names:
        raise InvalidInput(
            f"no skill topic {name!r}",
            hint=f"the topics are {', '.join(names)}; `winctl skill --list` says what each covers",
        )
    return _package().joinpath(TOPICS, f"{name}.md").read_text(encoding="utf-8")


def summary(name: str) -> str:
    """What a topic covers: its first line without `# NAME: `."""
    first = topic(name).splitlines()[0]
    return first.removeprefix(f"# {name}:").strip()


def listing() -> str:
    """One line a topic: its name and what it covers, then how to read one."""
    width = max(len(n) for n in topic_names())
    rows = [f"{n.ljust(width)}  {summary(n)}" for n in topic_names()]
    return "\n".join([*rows, "", "read one: winctl skill TOPIC"]) + "\n"


def everything() -> str:
    """The core and every topic, in one text (what the manual says, all of it)."""
    return "\n".join([core(), *(topic(n) for n in topic_names())])


def contents() -> dict[str, str]:
    """The skill's files by their path in its folder (`SKILL.md`, `references/NAME.md`)."""
    return {CORE: core(), **{f"{TOPICS}/{n}.md": topic(n) for n in topic_names()}}


@dataclass
class Installed:
    """What `install` did in one place: the folder, and the files written (none: it held
    this skill already)."""

    agent: str
    folder: Path
    written: list[Path]


def install(
    agents: list[str], *, home: bool = False, project: Path | None = None, force: bool = False
) -> list[Installed]:
    """Copy the skill into each agent's skills folder: the project's (`project`, else the
    working folder) or, with `home`, the user's (`~/.claude/skills/winctl`). A folder that
    holds the same files is left as it is; one that holds anything else (another version,
    someone's edits, another skill of this name) is refused with InvalidInput, and nothing is
    written anywhere, unless `force`, which replaces it whole."""
    unknown = [a for a in agents if a not in PLACES]
    if unknown:
        raise InvalidInput(f"no agent {unknown[0]!r} to install for", hint=f"one of {', '.join(PLACES)}")
    root = Path.home() if home else (project or Path.cwd())
    wanted = contents()
    folders = {a: root / PLACES[a] / NAME for a in agents}
    different = [f for f in folders.values() if f.exists() and _files(f) != wanted]
    if different and not force:
        raise InvalidInput(
            f"{different[0]} holds a different {NAME} skill; nothing was written",
            hint="`winctl skill install --force` replaces it (compare it first: `winctl skill`)",
        )
    done = []
    for agent, folder in folders.items():
        if folder.exists() and _files(folder) == wanted:
            done.append(Installed(agent, folder, []))
            continue
        if folder.exists():
            shutil.rmtree(folder) if folder.is_dir() else folder.unlink()
        written = []
        for relative, text in wanted.items():
            path = folder / relative
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
            written.append(path)
        done.append(Installed(agent, folder, written))
    return done


def _files(folder: Path) -> dict[str, str] | None:
    """A folder's files by their path in it (None: it is not a folder, or one is not text)."""
    if not folder.is_dir():
        return None
    try:
        return {
            p.relative_to(folder).as_posix(): p.read_text(encoding="utf-8") for p in folder.rglob("*") if p.is_file()
        }
    except (OSError, UnicodeDecodeError):
        return None
