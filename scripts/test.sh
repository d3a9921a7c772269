#!/usr/bin/env bash
# Install everything, then run the whole test suite (real apps on a private virtual desktop).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh test
.venv/bin/python -m ruff check src tests benchmarks scripts examples
.venv/bin/python -m ruff format --check src tests benchmarks scripts examples  # everything is formatted
.venv/bin/python -m mypy src/winactions
.venv/bin/python -m mypy --platform win32 src/winactions  # the Windows layer, type-checked as on Windows
.venv/bin/python -m pytest -q "$@"
