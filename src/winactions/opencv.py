"""OpenCV, imported without the mark its loader leaves on this process's environment.

`import cv2` puts `<site-packages>/cv2/../../lib64:` in front of LD_LIBRARY_PATH "for
sub-processes" (its `__init__.py`). Every program this process starts after that inherits it:
an app `launch`ed from the daemon once a `locate` or `--vision` had run, and xclip, adb, a
daemon started from the Python API. With no LD_LIBRARY_PATH before, the value ends in an empty
entry, which makes the dynamic linker look for libraries in the program's working directory
first. This process's own libraries are loaded by then, so the variable is put back as it was.
Every module of the package imports OpenCV from here (`from winactions.opencv import cv2`).
"""

from __future__ import annotations

import os

_before = os.environ.get("LD_LIBRARY_PATH")  # already amended if the caller imported cv2 itself: kept then
import cv2  # noqa: E402

if _before is None:
    os.environ.pop("LD_LIBRARY_PATH", None)
else:
    os.environ["LD_LIBRARY_PATH"] = _before

__all__ = ["cv2"]
