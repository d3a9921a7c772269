"""The agent manual: a short core page and topics read on demand.

The core is `SKILL.md` (an Agent Skills page: YAML frontmatter, then the essentials); each
topic is `references/NAME.md`, whose first line is `# NAME: what it covers`. `winctl skill`
prints the core, `winctl skill --list` the topics, `winctl skill NAME` one topic.
"""

from __future__ import annotations

from importlib.resources import files
from importlib.resources.abc import Traversable

from winactions.errors import InvalidInput

CORE = "SKILL.md"
TOPICS = "references"


def _package() -> Traversable:
    return files("winactions")


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
