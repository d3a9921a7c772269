"""OpenCV, imported without the mark its loader leaves on this process's environment.

OpenCV's `import cv2` puts its `lib64` folder in front of LD_LIBRARY_PATH "for
sub-processes" (with an empty entry when there was none: the program's working directory),
which every program started later would inherit; this process's own libraries are loaded by
then, so the variable is put back as it was. Every module of the package imports OpenCV from
here (`from winactions.opencv import cv2`).
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
