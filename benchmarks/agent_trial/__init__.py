"""The agent trial: the same tasks on real apps, done by AI agents with winctl, with winctl and
no pictures, and with only screenshots and xdotool; each outcome checked in the app itself.

See benchmarks/agent_trial/README.md for how a round is run.
"""
