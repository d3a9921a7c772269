#!/usr/bin/env bash
# An agent-ready Linux desktop served over MCP: the image's entry point (docs/container.md).
#
#   entrypoint.sh          start the desktop and serve `winctl mcp --http`; stop it all on SIGTERM/SIGINT
#   entrypoint.sh health   exit 0 when the display, the accessibility bus and the MCP port answer
#
# It starts, in order: Xvfb (the first free display, or :$DISPLAY_NUMBER), a session bus whose
# runtime folder is $XDG_RUNTIME_DIR (one AT-SPI bus per desktop), the accessibility switch
# (org.a11y.Status IsEnabled), openbox, x11vnc when VNC=1, then winctl's MCP server. Every
# process it starts, and every process those start (apps an agent launches), carries
# WINACTIONS_DESKTOP=$XDG_RUNTIME_DIR in its environment; on SIGTERM they are all stopped, the
# server first and Xvfb last, and the script exits 0. When a process it needs dies, it stops
# the rest and exits 1.
#
# Settings (environment):
#   MCP_HOST (0.0.0.0)  MCP_PORT (8765)  MCP_TOOLS (core,windows)  MCP_ALLOW_HOSTS (names, commas)
#   MCP_TOKEN_FILE      a file with the bearer token (a mounted secret), else
#   MCP_TOKEN           the token itself (removed from the environment apps see), else one is
#                       made, printed once and kept in $XDG_RUNTIME_DIR/mcp-token (mode 600)
#   SCREEN (1920x1080x24)  DISPLAY_NUMBER (first free)  XDG_RUNTIME_DIR (/tmp/winactions-desktop-UID)
#   VNC=1               also serve the screen over VNC on VNC_PORT (5900), password from
#                       VNC_PASSWORD_FILE, else made, printed once, kept in $XDG_RUNTIME_DIR/vnc-password
#   WINCTL (winctl)     the winctl program to serve with
set -euo pipefail

RUNTIME="${XDG_RUNTIME_DIR:-/tmp/winactions-desktop-$(id -u)}"
ENV_FILE="$RUNTIME/desktop.env"

say() { echo "winactions desktop: $*" >&2; }

health() {
  # The display answers, the accessibility bus is there, and the MCP server answers (401 without a token).
  [ -r "$ENV_FILE" ] || { say "not started (no $ENV_FILE)"; return 1; }
  # shellcheck disable=SC1090
  . "$ENV_FILE"
  xdpyinfo >/dev/null 2>&1 || { say "display $DISPLAY does not answer"; return 1; }
  dbus-send --session --dest=org.a11y.Bus --print-reply /org/a11y/bus org.a11y.Bus.GetAddress >/dev/null 2>&1 \
    || { say "the accessibility bus does not answer"; return 1; }
  python3 - "$MCP_PORT" <<'EOF' || { say "the MCP server does not answer on port $MCP_PORT"; return 1; }
import sys, urllib.error, urllib.request
try:
    urllib.request.urlopen(urllib.request.Request(f"http://127.0.0.1:{sys.argv[1]}/mcp", data=b"{}"), timeout=5)
except urllib.error.HTTPError as e:
    sys.exit(0 if e.code == 401 else 1)
sys.exit(1)  # answered without asking for the token
EOF
}

if [ "${1:-}" = "health" ]; then
  health
  exit
fi
if [ $# -gt 0 ]; then
  say "usage: entrypoint.sh [health]"
  exit 2
fi

MCP_HOST="${MCP_HOST:-0.0.0.0}"
MCP_PORT="${MCP_PORT:-8765}"
MCP_TOOLS="${MCP_TOOLS:-core,windows}"
SCREEN="${SCREEN:-1920x1080x24}"
VNC_PORT="${VNC_PORT:-5900}"
WINCTL="${WINCTL:-winctl}"

token="${MCP_TOKEN:-}"
unset MCP_TOKEN  # before anything starts: no process of the desktop sees it
umask 077
made_runtime=0
[ -d "$RUNTIME" ] || made_runtime=1
mkdir -p "$RUNTIME"
chmod 700 "$RUNTIME"
export XDG_RUNTIME_DIR="$RUNTIME" WINACTIONS_DESKTOP="$RUNTIME" ACCESSIBILITY_ENABLED=1
export QT_ACCESSIBILITY=1 QT_LINUX_ACCESSIBILITY_ALWAYS_ON=1  # Qt registers on AT-SPI without a desktop session
unset NO_AT_BRIDGE GTK_MODULES DBUS_SESSION_BUS_ADDRESS DISPLAY

started=()  # pids, in the order started: Xvfb first
server=""  # the MCP server's pid
stopping=0

# Processes (not this script) whose environment carries this desktop's mark.
marked() {
  local environ pid
  for environ in /proc/[0-9]*/environ; do
    pid="${environ#/proc/}"
    pid="${pid%/environ}"
    [ "$pid" = "$$" ] || [ "$pid" = "$BASHPID" ] && continue
    { tr '\0' '\n' <"$environ"; } 2>/dev/null | grep -qxF "WINACTIONS_DESKTOP=$RUNTIME" && echo "$pid"
  done
  return 0
}

# Is $1 running (not gone, not a zombie)?
alive() {
  [ -r "/proc/$1/stat" ] && ! grep -q '^[0-9]* (.*) Z' "/proc/$1/stat" 2>/dev/null
}

# SIGTERM to the pids given, SIGKILL to those still running after 5 s.
stop_pids() {
  local pid
  [ $# -gt 0 ] || return 0
  kill -TERM "$@" 2>/dev/null || true
  for _ in $(seq 50); do
    for pid in "$@"; do alive "$pid" && break; pid=""; done
    [ -z "$pid" ] && return 0
    sleep 0.1
  done
  kill -KILL "$@" 2>/dev/null || true
}

stop_all() {
  # The server first (no new calls), then the apps, the window manager and the buses, Xvfb last.
  local code="${1:-0}" xvfb="${started[0]:-}" pid rest
  [ "$stopping" = 1 ] && return
  stopping=1
  trap '' TERM INT
  [ -n "${server:-}" ] && stop_pids "$server"
  rest=()
  for pid in $(marked); do [ "$pid" = "$xvfb" ] || rest+=("$pid"); done
  stop_pids "${rest[@]}"
  [ -n "$xvfb" ] && stop_pids "$xvfb"
  stop_pids $(marked)
  wait 2>/dev/null || true
  if [ "$made_runtime" = 1 ]; then
    rm -rf "$RUNTIME"
  else
    rm -f "$RUNTIME"/{desktop.env,display,bus.address,bus,mcp-token,vnc-password,vnc.pass}
  fi
  say "stopped"
  exit "$code"
}
trap 'stop_all 0' TERM INT

fail() {
  say "$*"
  stop_all 1
}

# Wait up to $1 seconds for the command after it to succeed.
wait_for() {
  local seconds="$1"
  shift
  for _ in $(seq $((seconds * 10))); do
    "$@" >/dev/null 2>&1 && return 0
    sleep 0.1
  done
  return 1
}

# -- the display ------------------------------------------------------------------------------
: >"$RUNTIME/display"
Xvfb ${DISPLAY_NUMBER:+":$DISPLAY_NUMBER"} -displayfd 5 -screen 0 "$SCREEN" -nolisten tcp -noreset \
  5>"$RUNTIME/display" 2>"$RUNTIME/xvfb.log" &
started+=($!)
wait_for 20 test -s "$RUNTIME/display" || fail "Xvfb did not start: $(tail -3 "$RUNTIME/xvfb.log")"
export DISPLAY=":$(head -1 "$RUNTIME/display")"

# -- the session bus and the accessibility bus ------------------------------------------------
: >"$RUNTIME/bus.address"
dbus-daemon --session --nofork --address="unix:path=$RUNTIME/bus" --print-address=6 \
  6>"$RUNTIME/bus.address" 2>"$RUNTIME/dbus.log" &
started+=($!)
wait_for 20 test -s "$RUNTIME/bus.address" || fail "the session bus did not start"
DBUS_SESSION_BUS_ADDRESS="$(head -1 "$RUNTIME/bus.address")"
export DBUS_SESSION_BUS_ADDRESS
wait_for 20 dbus-send --session --dest=org.a11y.Bus --print-reply /org/a11y/bus \
  org.freedesktop.DBus.Properties.Set string:org.a11y.Status string:IsEnabled variant:boolean:true \
  || fail "the accessibility bus did not start (is at-spi2-core installed?)"

# -- the window manager -----------------------------------------------------------------------
openbox --sm-disable 2>"$RUNTIME/openbox.log" &
started+=($!)
wm_ready() { xprop -root _NET_SUPPORTING_WM_CHECK | grep -q "window id"; }
wait_for 20 wm_ready || fail "openbox did not start"

# -- VNC, for a person to watch ---------------------------------------------------------------
if [ "${VNC:-0}" = "1" ]; then
  command -v x11vnc >/dev/null || fail "VNC=1 but x11vnc is not installed"
  if [ -n "${VNC_PASSWORD_FILE:-}" ]; then
    password="$(head -1 "$VNC_PASSWORD_FILE")" || fail "cannot read VNC_PASSWORD_FILE $VNC_PASSWORD_FILE"
  else
    password="$(python3 -c 'import secrets; print(secrets.token_urlsafe(6))')"  # VNC uses 8 characters
    echo "$password" >"$RUNTIME/vnc-password"
    say "VNC password (shown once): $password"
  fi
  x11vnc -storepasswd "$password" "$RUNTIME/vnc.pass" >/dev/null 2>&1 || fail "x11vnc could not store the password"
  unset password
  vnc_where=()
  [ "$MCP_HOST" = "127.0.0.1" ] || [ "$MCP_HOST" = "localhost" ] && vnc_where=(-localhost)
  x11vnc -display "$DISPLAY" -rfbauth "$RUNTIME/vnc.pass" -rfbport "$VNC_PORT" "${vnc_where[@]}" \
    -forever -shared -quiet -nopw -o "$RUNTIME/x11vnc.log" >/dev/null 2>&1 &
  started+=($!)
fi

# -- the MCP server ---------------------------------------------------------------------------
if [ -n "${MCP_TOKEN_FILE:-}" ]; then
  token_file="$MCP_TOKEN_FILE"
else
  token_file="$RUNTIME/mcp-token"
  if [ -n "$token" ]; then
    printf '%s\n' "$token" >"$token_file"
  else
    python3 -c 'import secrets; print(secrets.token_urlsafe(32))' >"$token_file"
    say "MCP token (shown once; also in $token_file): $(cat "$token_file")"
  fi
fi
unset token
allow=()
IFS=',' read -ra names <<<"${MCP_ALLOW_HOSTS:-}"
for name in "${names[@]}"; do
  [ -n "$name" ] && allow+=(--allow-host "$name")
done
cat >"$ENV_FILE" <<EOF
export DISPLAY='$DISPLAY' DBUS_SESSION_BUS_ADDRESS='$DBUS_SESSION_BUS_ADDRESS' XDG_RUNTIME_DIR='$RUNTIME'
export ACCESSIBILITY_ENABLED=1 QT_ACCESSIBILITY=1 QT_LINUX_ACCESSIBILITY_ALWAYS_ON=1 WINACTIONS_DESKTOP='$RUNTIME'
export MCP_PORT='$MCP_PORT'
EOF
chmod 644 "$ENV_FILE"
"$WINCTL" mcp --http --host "$MCP_HOST" --port "$MCP_PORT" --tools "$MCP_TOOLS" --token-file "$token_file" \
  "${allow[@]}" &
server=$!
started+=("$server")
say "desktop $DISPLAY ready; MCP at http://$MCP_HOST:$MCP_PORT/mcp"

# Until a signal, or until a process the desktop needs ends.
while :; do
  set +e
  wait -n "${started[@]}"
  set -e
  [ "$stopping" = 1 ] && break
  for pid in "${started[@]}"; do
    kill -0 "$pid" 2>/dev/null || fail "process $pid ($(cat "/proc/$pid/comm" 2>/dev/null || echo gone)) ended"
  done
done
