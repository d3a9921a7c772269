#!/bin/sh
# Claude Code, to a `winctl mcp --http` server (on this machine, or through an SSH tunnel to it)
claude mcp add --transport http --header "Authorization: Bearer $WINCTL_MCP_TOKEN" \
  --scope project winactions http://127.0.0.1:8765/mcp
