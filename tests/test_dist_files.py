"""The files that make the package what PyPI shows and installs: its metadata, its long
description, the set-up that installs the developers' tools, and the workflows that check
and publish it (tests/e2e/test_dist.py builds and installs it for real).

Found wanting before (issue 37.1): `pip install 'winactions[dev]'` was offered on PyPI, the
page PyPI shows opened with checkout commands and links it cannot follow, and nothing built
or published a release.
"""

from __future__ import annotations

import ast
import importlib.util
import re
import sys
from pathlib import Path
from types import ModuleType

import yaml

if sys.version_info >= (3, 11):
    import tomllib
else:  # the oldest Python the package runs on, as an sdist's tests may be run
    import tomli as tomllib

ROOT = Path(__file__).resolve().parents[1]
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
WORKFLOWS = ROOT / ".github" / "workflows"


def generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location("gen_pypi_readme", ROOT / "scripts" / "gen_pypi_readme.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def workflow(name: str) -> dict:
    loaded = yaml.safe_load((WORKFLOWS / name).read_text(encoding="utf-8"))
    return {("on" if key is True else key): value for key, value in loaded.items()}  # YAML 1.1 reads `on` as True


def test_pypis_page_is_generated_from_the_readme():
    gen = generator()
    committed = (ROOT / "docs" / "pypi.md").read_text(encoding="utf-8")
    assert committed == gen.render(), f"docs/pypi.md is stale: run `{gen.REGENERATE}` and commit it"
    assert PROJECT["project"]["readme"] == {"file": "docs/pypi.md", "content-type": "text/markdown"}


def test_pypis_page_opens_with_the_title_and_has_no_link_it_cannot_follow():
    page = (ROOT / "docs" / "pypi.md").read_text(encoding="utf-8")
    assert page.startswith("# winactions\n")
    assert "bash scripts/demo.sh\nbash scripts/test.sh" not in page
    prose = re.sub(r"```.*?```|`[^`\n]*`", "", page, flags=re.S)
    relative = [t for t in re.findall(r"\]\(([^)\s]+)\)", prose) if not re.match(r"[a-z]+:", t)]
    assert relative == [] and "<!--" not in prose


def test_the_page_generator_keeps_words_and_code_and_drops_what_pypi_cannot_show():
    readme = (
        "bash scripts/demo.sh\n\n# Title\n\nSee [the guide](docs/a.md#b) and [PyPI](https://pypi.org).\n\n"
        "![demo](docs/demo.png)\n\n<!-- marker -->\n```python\nx = '[kept](docs/a.md)'  <!-- kept -->\n```\n"
        "A link over\n[two lines](docs/c.md), `[code](d.md)` stays.\n"
    )
    assert generator().render(readme) == (
        "# Title\n\nSee the guide and [PyPI](https://pypi.org).\n\n"
        "```python\nx = '[kept](docs/a.md)'  <!-- kept -->\n```\n"
        "A link over\ntwo lines, `[code](d.md)` stays.\n"
    )


def test_developer_tools_are_groups_not_extras():
    extras = PROJECT["project"]["optional-dependencies"]
    # each extra is offered to every user on PyPI: what a feature needs at run time, nothing for developers
    assert set(extras) == {"mcp", "vision", "llm", "android", "openai-agents", "all"}
    groups = PROJECT["dependency-groups"]
    assert {"dev", "windows-bench"} <= set(groups)
    dev = " ".join(groups["dev"])
    assert all(tool in dev for tool in ("pytest", "build", "uv", "winactions[all]"))
    setup = (ROOT / "scripts" / "setup.sh").read_text(encoding="utf-8")
    assert '"pip>=25.1"' in setup and "--group dev" in setup  # pip learnt --group in 25.1
    assert "--group dev --group windows-bench" in (WORKFLOWS / "windows.yml").read_text(encoding="utf-8")


def test_the_metadata_says_what_the_package_is():
    project = PROJECT["project"]
    classifiers = set(project["classifiers"])
    assert {"Operating System :: POSIX :: Linux", "Typing :: Typed", "Programming Language :: Python :: 3.10"} <= (
        classifiers
    )
    assert project["keywords"] and project["authors"] == [{"name": "The winactions authors"}]
    assert "The winactions authors" in (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert not any("License ::" in c for c in classifiers), "the SPDX `license` says it (PEP 639)"


def test_the_dist_workflow_checks_the_built_files():
    flow = workflow("dist.yml")
    assert {"push", "pull_request", "workflow_call"} <= set(flow["on"])
    steps = flow["jobs"]["dist"]["steps"]
    runs = "\n".join(step.get("run", "") for step in steps)
    assert "bash scripts/check_dist.sh" in runs and "--group dev" in runs
    upload = next(step for step in steps if step.get("uses", "").startswith("actions/upload-artifact@"))
    assert upload["with"]["name"] == "dist" and upload["with"]["path"] == "dist/"
    check = (ROOT / "scripts" / "check_dist.sh").read_text(encoding="utf-8")
    assert "python -m build --outdir dist" in check and "DIST_DIR=dist" in check and "tests/e2e/test_dist.py" in check


def test_the_release_publishes_by_trusted_publishing_after_the_checks():
    flow = workflow("release.yml")
    assert flow["on"] == {"push": {"tags": ["v*"]}}
    jobs = flow["jobs"]
    assert jobs["dist"]["uses"] == "./.github/workflows/dist.yml"
    publish = jobs["publish"]
    assert publish["needs"] == "dist" and publish["environment"] == "pypi"
    assert publish["permissions"] == {"id-token": "write"}  # and nothing more
    uses = [step.get("uses", "") for step in publish["steps"]]
    assert uses[0].startswith("actions/download-artifact@") and uses[-1] == "pypa/gh-action-pypi-publish@release/v1"
    assert not any("password" in str(step.get("with", {})) for step in publish["steps"]), "no token: trusted publishing"


def test_every_workflow_loads_and_names_its_jobs_steps():
    for path in sorted(WORKFLOWS.glob("*.yml")):
        flow = workflow(path.name)
        assert flow["name"] and flow["on"] and flow["jobs"], path.name
        for name, job in flow["jobs"].items():
            assert "uses" in job or (job["runs-on"] and job["steps"]), f"{path.name}: {name}"
            for step in job.get("steps", []):
                assert ("run" in step) != ("uses" in step), f"{path.name}: {name}: {step}"


def test_a_module_imported_for_older_pythons_is_a_dependency_for_them():
    """Before: `tomli`, imported by the access rules on Python 3.10, was not a dependency, so
    `winctl` failed at start on 3.10, which the package says it supports. Every import in the
    `else` of an `if sys.version_info >= (3, N)` must be declared for `python_version < '3.N'`."""
    declared = {
        d.split(";")[0].split(">")[0].split("=")[0].strip().lower(): d for d in PROJECT["project"]["dependencies"]
    }
    wanted = []
    for path in (ROOT / "src").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            test = getattr(node, "test", None)
            if not isinstance(node, ast.If) or not (
                isinstance(test, ast.Compare) and "version_info" in ast.unparse(test)
            ):
                continue
            minor = ast.literal_eval(test.comparators[0])[1]
            for inner in node.orelse:
                names = [a.name for a in inner.names] if isinstance(inner, (ast.Import, ast.ImportFrom)) else []
                if isinstance(inner, ast.ImportFrom) and inner.module:
                    names = [inner.module]
                wanted += [(n.split(".")[0], minor, path.name) for n in names]
    assert wanted, "the scan finds the access rules' tomli at least"
    for module, minor, where in wanted:
        assert module in declared, f"{where} imports {module} on older Pythons; it is no dependency"
        assert f"python_version < '3.{minor}'" in declared[module], declared[module]
