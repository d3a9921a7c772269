"""The Android backend: a phone over adb (uiautomator dumps, `input`, `screencap`)."""
