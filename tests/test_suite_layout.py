"""The test suite's own layout: no test module imports another.

Fixtures shared by several modules live in a `conftest.py`, plain helpers in a helper module
(`tests/e2e/helpers/`, `tests/android/helpers.py`, `tests/windows/helpers.py`,
`tests/fixtures/`). A test module imported by another runs its module-level code twice and
hides what it shares; a fixture imported by name needs a `noqa` and reads as unused.
"""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parent


def is_test_module(dotted: str) -> bool:
    """Does this dotted module name (`tests.e2e.test_mcp`, `.test_mcp`) name a test module?"""
    return dotted.rpartition(".")[2].startswith("test_")


def imported_test_modules(path: Path) -> list[str]:
    """The test modules `path` imports, each as written (`tests.e2e.test_mcp`)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names if is_test_module(alias.name)]
        elif isinstance(node, ast.ImportFrom):
            module = "." * node.level + (node.module or "")
            if is_test_module(module):
                found.append(module)
            found += [f"{module}.{alias.name}" for alias in node.names if is_test_module(alias.name)]
    return found


def test_no_module_of_the_suite_imports_a_test_module():
    offenders = {
        str(path.relative_to(TESTS.parent)): imported
        for path in sorted(TESTS.rglob("*.py"))
        if (imported := imported_test_modules(path))
    }
    assert offenders == {}, (
        "move what these import into a conftest.py (fixtures) or a helper module (functions):\n"
        + "\n".join(f"{path}: {', '.join(names)}" for path, names in offenders.items())
    )


def test_the_check_sees_each_way_of_importing_a_test_module(tmp_path):
    module = tmp_path / "test_example.py"
    module.write_text(
        "import tests.e2e.test_mcp\n"
        "from tests.e2e.test_daemon import Shell\n"
        "from tests.e2e import test_trust\n"
        "from .test_geany import geany\n"
        "def f():\n"
        "    from tests.e2e.test_mcp import run_client\n"
        "from tests.e2e.helpers.apps import target\n"
        "from tests.conftest import Winctl\n"
    )
    assert imported_test_modules(module) == [
        "tests.e2e.test_mcp",
        "tests.e2e.test_daemon",
        "tests.e2e.test_trust",
        ".test_geany",
        "tests.e2e.test_mcp",
    ]
