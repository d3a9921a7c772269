#!/usr/bin/env bash
# Build the sdist and the wheel into dist/ as a release does, and check them as PyPI would
# hand them out: the wheel installed by pip into a clean venv answers, then
# tests/e2e/test_dist.py runs on these very files (the sdist's own tests, the README's quick
# start from the wheel, the MCP server from the wheel and through uvx).
# Needs `scripts/setup.sh test` (or `demo` plus `pip install -e . --group dev` and mousepad).
set -euo pipefail
cd "$(dirname "$0")/.."
rm -rf dist
.venv/bin/python -m build --outdir dist .
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
python3 -m venv "$scratch/venv"
wheel=(dist/winactions-*-py3-none-any.whl)
"$scratch/venv/bin/python" -m pip install -q --disable-pip-version-check "${wheel[0]}"
"$scratch/venv/bin/python" -m pip install -q --disable-pip-version-check "${wheel[0]}[mcp]"
"$scratch/venv/bin/winctl" mcp --help >/dev/null
DIST_DIR=dist .venv/bin/python -m pytest -q -p no:cacheprovider tests/e2e/test_dist.py
