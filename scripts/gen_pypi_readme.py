"""Write docs/pypi.md, the package's long description on PyPI, from README.md.

    .venv/bin/python scripts/gen_pypi_readme.py           # rewrite docs/pypi.md
    .venv/bin/python scripts/gen_pypi_readme.py --check   # exit 1 if it is stale

README.md opens with the two commands that set up a checkout (the workplace's rule, pinned
by tests/test_docs.py); someone reading PyPI has no checkout, so the page starts at the
README's title instead. PyPI cannot follow a link relative to the repository, and the
project names no public address, so such a link keeps its words and loses its target, and
a picture on a relative path is left out. HTML comments (the README's markers for the tests
that run its examples) go too. Code blocks are copied as they are. The output depends on
nothing but README.md.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SOURCE = ROOT / "README.md"
TARGET = ROOT / "docs" / "pypi.md"
REGENERATE = ".venv/bin/python scripts/gen_pypi_readme.py"

FENCED = re.compile(r"(^```.*?^```[^\n]*$)", re.M | re.S)
IMAGE = re.compile(r"!\[[^\]]*\]\((?![a-z][a-z0-9+.-]*:)[^)\s]*\)")
LINK = re.compile(r"(?<!!)\[([^\]]*)\]\((?![a-z][a-z0-9+.-]*:)[^)\s]*\)")
COMMENT = re.compile(r"<!--.*?-->", re.S)
CODE_SPAN = re.compile(r"(`+)(.+?)\1")


def from_title(readme: str) -> str:
    """README.md from its first level-1 heading on; an error if it has none."""
    match = re.search(r"^# \S", readme, re.M)
    if match is None:
        raise SystemExit("README.md has no `# title` line to start PyPI's page at")
    return readme[match.start() :]


def plain_links(prose: str) -> str:
    """Relative links as their words, relative pictures gone; code spans left as they are."""
    parts = CODE_SPAN.split(prose)
    out: list[str] = []
    # split() with one group of backticks and one of content: prose, ticks, code, prose, ...
    for index in range(0, len(parts), 3):
        out.append(LINK.sub(r"\1", IMAGE.sub("", parts[index])))
        if index + 2 < len(parts):
            out.append(parts[index + 1] + parts[index + 2] + parts[index + 1])
    return "".join(out)


def render(readme: str | None = None) -> str:
    """PyPI's page for this README (README.md's text when not given)."""
    text = from_title(SOURCE.read_text(encoding="utf-8") if readme is None else readme)
    blocks = FENCED.split(text)  # prose, fenced block, prose, ...
    for index in range(0, len(blocks), 2):
        prose = plain_links(COMMENT.sub("", blocks[index]))
        prose = "\n".join(line.rstrip() for line in prose.split("\n"))
        blocks[index] = re.sub(r"\n{3,}", "\n\n", prose)  # a picture or comment on its own line
    return "".join(blocks).strip("\n") + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if docs/pypi.md is stale")
    check = parser.parse_args(argv).check
    text = render()
    if check:
        stale = not TARGET.exists() or TARGET.read_text(encoding="utf-8") != text
        if stale:
            print(f"{TARGET.relative_to(ROOT)} is stale: run `{REGENERATE}`", file=sys.stderr)
        return 1 if stale else 0
    TARGET.write_text(text, encoding="utf-8")
    print(f"wrote {TARGET.relative_to(ROOT)} ({len(text.splitlines())} lines)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
