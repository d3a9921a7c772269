#!/usr/bin/env bash
# Install everything, then drive a real GTK app on a private virtual display with winctl.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh demo
.venv/bin/python scripts/demo.py
