#!/usr/bin/env bash
# Install everything, then drive Mousepad on a private virtual display with winctl, as an agent
# would: the transcript, the checks of what Mousepad did, and docs/images/demo.png.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh demo
.venv/bin/python scripts/demo.py "$@"
