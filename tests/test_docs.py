"""The docs a user reads stay true to the code: the command reference is the table's, and
every relative link in README.md and docs/ leads somewhere.

The README held the command reference by hand (issue 38.5) and fell behind the table as
commands gained options; a reference generated from the table cannot, as long as the
committed file is regenerated — which the first test enforces.
"""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]
LINK = re.compile(r"(?<!!)\[[^\]]*\]\(([^)\s]+)\)")
CODE = re.compile(r"```.*?```|`[^`\n]*`", re.S)


def generator(name: str = "gen_command_docs") -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, ROOT / "scripts" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_command_reference_is_generated_from_the_table():
    gen = generator()
    committed = (ROOT / "docs" / "commands.md").read_text(encoding="utf-8")
    assert committed == gen.render(), f"docs/commands.md is stale: run `{gen.REGENERATE}` and commit it"


def test_the_command_reference_documents_every_command_and_parameter():
    from winactions.commands.base import load_commands

    reference = generator().render()
    for name, cmd in load_commands().items():
        section = reference.split(f"### `{name}`\n", 1)
        assert len(section) == 2, f"docs/commands.md has no section for {name}"
        body = section[1].split("\n### ", 1)[0]
        for field, info in cmd.params.model_fields.items():
            if info.description:
                assert " ".join(info.description.split()).replace("|", "\\|") in body, f"{name}: {field}"


def test_the_command_reference_does_not_depend_on_the_terminal(monkeypatch):
    """click wraps usage lines at the terminal's width: generated in a narrow terminal, the
    reference came out stale in a wide one (`winctl scroll-at` over three lines)."""
    gen = generator()
    monkeypatch.setenv("COLUMNS", "40")
    narrow = gen.render()
    monkeypatch.setenv("COLUMNS", "200")
    assert narrow == gen.render()


def test_the_settings_page_is_generated_from_the_settings_table():
    gen = generator("gen_settings_docs")
    committed = (ROOT / "docs" / "settings.md").read_text(encoding="utf-8")
    assert committed == gen.render(), f"docs/settings.md is stale: run `{gen.REGENERATE}` and commit it"


def test_the_settings_page_documents_every_setting_and_where_it_applies():
    from winactions.settings import SETTINGS

    page = generator("gen_settings_docs").render()
    for setting in SETTINGS:
        body = page.split(f"### `{setting.name}`\n", 1)[1].split("\n### ", 1)[0]
        assert f"- read by: {setting.reader}" in body and f"- honoured on: {setting.where}" in body, setting.name
    assert "- honoured on: Linux\n" in page.split("### `WINCTL_STATE_SECONDS`", 1)[1]


def test_the_readme_opens_with_the_two_set_up_commands():
    """A fresh Debian machine runs the demo with the first line and the suite with the second;
    CI runs exactly that second line."""
    first = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()[:2]
    assert first == ["bash scripts/demo.sh", "bash scripts/test.sh"]
    assert (ROOT / ".ci" / "run").read_text(encoding="utf-8").rstrip().endswith(first[1])


def anchors(path: Path) -> set[str]:
    """GitHub's anchors of a Markdown file's headings."""
    found = set()
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("#"):
            title = line.lstrip("#").strip().lower()
            found.add(re.sub(r"[^\w\- ]", "", title).replace(" ", "-"))
    return found


def broken_links(path: Path) -> list[str]:
    text = CODE.sub("", path.read_text(encoding="utf-8"))
    broken = []
    for target in LINK.findall(text):
        if re.match(r"[a-z]+:", target):
            continue  # https:, mailto:
        file, _, anchor = target.partition("#")
        dest = (path.parent / file).resolve() if file else path
        if not dest.exists():
            broken.append(f"{target} (no such file)")
        elif anchor and dest.suffix == ".md" and anchor not in anchors(dest):
            broken.append(f"{target} (no heading #{anchor})")
    return broken


def test_relative_links_in_the_readme_and_docs_resolve():
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    broken = {page.relative_to(ROOT).as_posix(): links for page in pages if (links := broken_links(page))}
    assert not broken, broken


def test_the_link_check_sees_a_broken_link(tmp_path):
    page = tmp_path / "page.md"
    (tmp_path / "there.md").write_text("# A heading\n", encoding="utf-8")
    page.write_text(
        "[ok](there.md#a-heading) [gone](nowhere.md) [bad](there.md#nope) `[code](x.md)`\n[web](https://example.org)\n",
        encoding="utf-8",
    )
    assert broken_links(page) == ["nowhere.md (no such file)", "there.md#nope (no heading #nope)"]
