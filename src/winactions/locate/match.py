"""`match`: the template ladder on two image files — where does the reference appear in the
screenshot, how sure, by which rung and at what scale.

The ladder itself is `template.find_template`; this module adds what only files need: errors
that name which file is wrong, a reference larger than the screenshot refused before any
search, and, when nothing reaches the threshold, the best plain score and its place (so the
caller sees how far off it was and can lower `threshold` knowingly).
"""

from __future__ import annotations

import os

import numpy as np

from winactions.errors import InvalidInput, NotFound
from winactions.locate import density
from winactions.locate.files import read_image, to_bgr
from winactions.locate.types import Candidate
from winactions.opencv import cv2


def match_files(reference: str | os.PathLike[str], image: str | os.PathLike[str], threshold: float) -> list[Candidate]:
    """Where `reference` appears in `image`, best first, in the image's pixels."""
    from winactions.locate.template import find_as_said

    ref = to_bgr(read_image(reference, "the reference"))
    shot = to_bgr(read_image(image, "the screenshot"))
    (rh, rw), (sh, sw) = ref.shape[:2], shot.shape[:2]
    if rw > sw or rh > sh:
        raise InvalidInput(
            f"the reference {reference} ({rw}x{rh}) is larger than the screenshot {image} ({sw}x{sh})",
            hint="pass the small crop first, then the screenshot: `winctl match REF.png SHOT.png`",
        )
    where = density.search(density.recorded(reference), density.recorded(image))
    found = find_as_said(shot, ref, where, threshold=threshold)
    if not found:
        score, (x, y) = best_plain(shot, ref)
        ranges = [where.scales] if where.then is None else [where.scales, where.then]
        tried = ", then ".join(f"{low:g}-{high:g}" for low, high in ranges)
        raise NotFound(
            f"the reference {reference} is not in {image} at confidence >= {threshold:g} "
            f"(best plain score {score:.2f} at ({x}, {y}), scales {tried} and features tried)",
            hint="lower --threshold if that place is right, or crop the reference again",
        )
    return found


def best_plain(shot: np.ndarray, ref: np.ndarray) -> tuple[float, tuple[int, int]]:
    """The best single-scale normalised correlation and where: what a miss was closest to."""
    grey_shot = cv2.cvtColor(shot, cv2.COLOR_BGR2GRAY)
    grey_ref = cv2.cvtColor(ref, cv2.COLOR_BGR2GRAY)
    scores = np.nan_to_num(cv2.matchTemplate(grey_shot, grey_ref, cv2.TM_CCOEFF_NORMED), nan=-1.0)
    _, score, _, place = cv2.minMaxLoc(scores)
    return float(score), (int(place[0]), int(place[1]))
