"""The Windows backend: UI Automation for the tree and patterns, SendInput and window
messages for input, Win32 for windows and pixels.

Only `win32.py` touches COM or the Win32 API; everything else here is plain Python over the
`Native` interface (`native.py`), so it runs — and is tested — on any platform against a
fake of that one module.
"""
