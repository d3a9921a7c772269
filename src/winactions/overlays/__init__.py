"""Overlays for the people beside the agent: the status label and teach mode.

A small process of their own (`host`, Tk) draws them, started detached by the first call that
needs it and owned by the session (`channel`); `placement` says where each goes. They are
X windows of class `Winctl` (instance `status`: clicks pass through; `teach`, `prompt`: for
the person). See docs/people.md.
"""
