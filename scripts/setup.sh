#!/usr/bin/env bash
# Install what winactions needs on Debian 12: the Debian packages (apt) and the package in ./.venv (pip).
#   scripts/setup.sh demo   what the demo needs: scripts/packages/demo.txt, the package with its extras
#   scripts/setup.sh test   that, plus every app the tests drive (scripts/packages/test*.txt) and the dev tools
# Safe to run again; skips what is there.
set -euo pipefail
cd "$(dirname "$0")/.."
MODE="${1:-test}"

lists=(scripts/packages/demo.txt)
[ "$MODE" = "test" ] && lists+=(scripts/packages/test*.txt container/packages.txt)  # the image's own, for its tests
mapfile -t APT_PACKAGES < <(sed -e 's/#.*//' "${lists[@]}" | tr -s ' \t' '\n' | sed '/^$/d' | sort -u)
missing=()
for p in "${APT_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

PYTHON="${PYTHON:-python3}"
if [ ! -x .venv/bin/python ]; then
  "$PYTHON" -m venv .venv
fi
# pip >= 25 writes console scripts that do not `import re` (pypa/pip#13166): ~10 ms of every
# `winctl` call, a fifth of what a command through the daemon costs end to end
# `--group` (PEP 735 dependency groups) needs pip >= 25.1
.venv/bin/python -m pip install -q --disable-pip-version-check "pip>=25.1"
WANTED=()  # the demo needs no extra and no group
[ "$MODE" = "test" ] && WANTED=(--group dev)  # pyproject.toml's [dependency-groups]: tests, linters, build
.venv/bin/python -m pip install -q --disable-pip-version-check -e . "${WANTED[@]}"
# The LangGraph example's side (examples/langgraph_mcp.py, its tests) in an environment of its
# own: langchain-mcp-adapters pins the MCP SDK below 2.0, and `winctl mcp` needs 2.0
if [ "$MODE" = "test" ]; then
  [ -x .venv-langgraph/bin/python ] || "$PYTHON" -m venv .venv-langgraph
  .venv-langgraph/bin/python -m pip install -q --disable-pip-version-check -r examples/requirements-langgraph.txt
fi
