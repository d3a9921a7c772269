"""Which command lines the console script runs in its own process, not in the session's daemon.

Generated from the command table by `.venv/bin/python scripts/gen_command_docs.py`; do not edit by hand.
Standard library only: the console script reads it before anything else is imported.
"""

# winctl's own commands: they manage daemons, serve MCP, print the manual, check this shell's desktop
OWN = frozenset({"doctor", "mcp", "session", "sessions", "skill"})
FILES = frozenset({"match"})  # read only files, whatever their parameters (`offline=True`)
FILES_WITH = {"locate": "--in", "verify-location": "--in"}  # ...when given this option
