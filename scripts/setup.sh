#!/usr/bin/env bash
# Install everything winactions needs on Debian 12: the virtual desktop and apps (apt), and
# the package with its test tools in ./.venv (pip). Safe to run again; skips what is there.
set -euo pipefail
cd "$(dirname "$0")/.."

APT_PACKAGES=(
  xvfb xauth openbox xdotool wmctrl x11-utils          # virtual display, window manager, cross-checks
  xclip                                                # the X clipboard (keeps ownership after we exit)
  dbus dbus-x11 at-spi2-core libatk-adaptor            # session bus and the AT-SPI accessibility bus
  gir1.2-gtk-3.0 python3-gi python3-gi-cairo           # the GTK3 fixture app (cairo paints its canvas)
  python3-pyatspi gir1.2-atspi-2.0                     # libatspi: the benchmark's baseline
  chromium                                             # a browser nobody here wrote, for real-app tests
  python3-venv                                         # the venv the toolkit runs in
)
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
.venv/bin/python -m pip install -q --disable-pip-version-check -e ".[dev]"
