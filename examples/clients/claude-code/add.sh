#!/bin/sh
# Claude Code: add winactions to this project's .mcp.json (drop `--scope project` to keep it to
# yourself). Run it in the desktop's own terminal, so that the variables are the desktop's.
claude mcp add --transport stdio \
  --env DISPLAY="$DISPLAY" \
  --env DBUS_SESSION_BUS_ADDRESS="$DBUS_SESSION_BUS_ADDRESS" \
  --env XDG_RUNTIME_DIR="$XDG_RUNTIME_DIR" \
  --scope project winactions -- winctl mcp --tools core,windows
