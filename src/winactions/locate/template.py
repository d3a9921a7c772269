"""The `template` strategy: find a reference image on screen with OpenCV, by a ladder of
rungs tried cheapest first, within about the cost of one full-resolution grey match.

The rungs: `hint` (where the image was last found, judged at least RELIABLE_EXACT), the known
scale (the densities' ratio or the session's remembered scale; ends the search at KNOWN_SURE
when unambiguous), exact (ends at RELIABLE_EXACT), multi-scale (`scales.sweep`), and ORB
features with a RANSAC homography for large references. A match counts at >= THRESHOLD; a
best match below RELIABLE_EXACT with another place within AMBIGUOUS of it is reported, with
all its rivals, at the threshold (below the locator's reliable bar). A uniform reference is
refused. Why each rung and bar is where it is, with measurements: docs/locator.md ("The
template ladder").
"""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path

import numpy as np

from winactions.errors import InvalidInput
from winactions.locate.density import TOLERANCE, Search
from winactions.locate.scales import Match, Pyramid, Reference, apart, exact, judge, sweep
from winactions.locate.types import Candidate
from winactions.model import Rect
from winactions.opencv import cv2

THRESHOLD = 0.75
SCALES = TOLERANCE  # a reference is searched drawn half to one and a half times its size
RELIABLE_EXACT = 0.95  # an exact match this good ends the search: no other scale can beat it by much
KNOWN_SURE = 0.9  # a match at the display's remembered scale this good, unambiguous, ends it too
AMBIGUOUS = 0.05  # a best match below RELIABLE_EXACT with another place within this of it is a look-alike's
ORB_MIN_SIDE = 48
ORB_MIN_MATCHES = 10


def load_image(path: str | os.PathLike[str]) -> np.ndarray:
    """A reference image as BGR; a missing or unreadable file is a clear error."""
    file = Path(path)
    if not file.is_file():
        raise InvalidInput(
            f"reference image {file} does not exist", hint="check the asset library (WINCTL_ASSETS) or the path"
        )
    image = cv2.imread(str(file), cv2.IMREAD_COLOR)
    if image is None:
        raise InvalidInput(f"{file} is not an image OpenCV can read", hint="save it as PNG")
    return image


def find_template(  # noqa: C901  (the scale sweep and its filters in one pass)
    screen: np.ndarray,
    template: np.ndarray,
    *,
    origin: tuple[int, int] = (0, 0),
    threshold: float = THRESHOLD,
    scales: tuple[float, float] = SCALES,
    hint: Rect | None = None,
    scale_hint: float | None = None,
    max_candidates: int = 5,
) -> list[Candidate]:
    """Where `template` appears in `screen` drawn `scales[0]`..`scales[1]` times its size, best
    first, in screen coordinates. Pass the window's crop as `screen`: every rung's cost grows
    with the area searched. `hint` is where this image was last found; `scale_hint` the scale
    at which this display drew references in an earlier sure find (the `scale` in a found
    candidate's `detail`): tried before any other scale."""
    low, high = scales
    if not 0 < low <= high <= 4:
        raise InvalidInput(f"scales must be a range within 0..4 like (0.5, 1.5), low first; got {scales!r}")
    s, t = _grey(screen), _grey(template)
    if t.shape[0] < 3 or t.shape[1] < 3:
        raise InvalidInput(f"the reference image is too small ({t.shape[1]}x{t.shape[0]})")
    if float(t.std()) < 2.0:
        raise InvalidInput(
            "the reference image is a flat colour: it would match everywhere",
            hint="crop it to include the element's edges or symbol",
        )
    ox, oy = origin
    if hint is not None:
        found = _around(
            s,
            t,
            Rect(left=hint.left - ox, top=hint.top - oy, right=hint.right - ox, bottom=hint.bottom - oy),
            RELIABLE_EXACT,
        )
        if found is not None:
            score, x, y = found
            return [_candidate(x + ox, y + oy, t.shape, score, "template:exact", {"stage": "hint", "scale": 1.0})]
    pyramid = Pyramid(s)
    reference = Reference(t)
    if scale_hint is not None and low * 0.97 <= scale_hint <= high * 1.03 and round(scale_hint, 3) != 1:
        known = exact(s, reference, threshold, max_candidates, pyramid, scale_hint)
        # a second place close behind sends the search down the whole ladder, even above
        # RELIABLE_EXACT: two close buttons drawn 1.5x scored 0.979 and 0.964 at the scale
        if known and known[0].score >= KNOWN_SURE and not _close_behind([m.score for m in known]):
            return [
                _from_match(m, ox, oy, "template:multiscale", {"scale": round(m.scale, 3), "stage": "known scale"})
                for m in known
            ]
    same = exact(s, reference, threshold, max_candidates, pyramid) if low <= 1 <= high else []
    if (same and same[0].score >= RELIABLE_EXACT) or low == high == 1:
        return [_from_match(m, ox, oy, "template:exact", {"stage": "coarse-to-fine", "scale": 1.0}) for m in same]
    scaled = sweep(s, reference, (low, high), threshold, max_candidates, pyramid)
    sightings: list[tuple[Match, str, dict[str, float | str]]] = []
    sightings += [(m, "template:exact", {"stage": "coarse-to-fine", "scale": 1.0}) for m in same]
    sightings += [(m, "template:multiscale", {"scale": round(m.scale, 3)}) for m in scaled]
    kept: list[tuple[Match, Candidate]] = []  # one per place: the exact or the scaled sighting, whichever scores more
    for m, method, detail in sorted(sightings, key=lambda found: -found[0].score):
        if all(apart(m, other) for other, _ in kept):
            kept.append((m, _from_match(m, ox, oy, method, detail)))
    if kept:
        return _unless_ambiguous([candidate for _, candidate in kept[:max_candidates]], threshold)
    if min(t.shape[:2]) >= ORB_MIN_SIDE:
        orb = _orb(s, t)
        if orb is not None and orb[0] >= threshold:
            score, rect = orb
            return [
                Candidate(
                    Rect(left=rect.left + ox, top=rect.top + oy, right=rect.right + ox, bottom=rect.bottom + oy),
                    round(score, 3),
                    "template:orb",
                    "",
                    {"stage": "orb"},
                )
            ]
    return []


def find_as_said(
    screen: np.ndarray,
    template: np.ndarray,
    where: Search,
    *,
    origin: tuple[int, int] = (0, 0),
    threshold: float = THRESHOLD,
    hint: Rect | None = None,
) -> list[Candidate]:
    """`find_template` where the densities say to look (`locate.density.search`); when that
    range leaves out the reference's own size and finds nothing, again as if nothing were
    said (a file may say its density wrongly: a 1x crop named `@2x`). What that second search
    finds is marked `detail["densities"] = "ignored"`: its scale is no evidence of what the
    app draws at."""
    found = find_template(
        screen, template, origin=origin, threshold=threshold, hint=hint, scales=where.scales, scale_hint=where.first
    )
    if found or where.then is None:
        return found
    return [
        replace(c, detail={**c.detail, "densities": "ignored"})
        for c in find_template(screen, template, origin=origin, threshold=threshold, hint=hint, scales=where.then)
    ]


# -- rungs ---------------------------------------------------------------------------------
def _around(s: np.ndarray, t: np.ndarray, last: Rect, sure: float) -> tuple[float, int, int] | None:
    """The reference where it was last found, if it is still there as it was: judged (whole,
    middle and glyph) at least `sure`. Anything less goes down the ladder, which looks
    everywhere: when an app rearranges its keys, another key of the same frame may land where
    this one was and pass the plain bar."""
    th, tw = t.shape[:2]
    pad = max(8, min(th, tw) // 2)
    x0, y0 = max(0, last.left - pad), max(0, last.top - pad)
    x1, y1 = min(s.shape[1], last.left + tw + pad), min(s.shape[0], last.top + th + pad)
    if x1 - x0 < tw or y1 - y0 < th:
        return None
    result = cv2.matchTemplate(s[y0:y1, x0:x1], t, cv2.TM_CCOEFF_NORMED)
    _, score, _, (x, y) = cv2.minMaxLoc(result)
    if score < sure:
        return None
    score = judge(s[y0 + y : y0 + y + th, x0 + x : x0 + x + tw], t, glyph=True)
    return (score, x0 + x, y0 + y) if score >= sure else None


def _orb(s: np.ndarray, t: np.ndarray) -> tuple[float, Rect] | None:
    # the screen needs many more features than the reference: UI is full of look-alike corners
    kt, dt = cv2.ORB_create(nfeatures=1500).detectAndCompute(t, None)  # type: ignore[attr-defined]
    ks, ds = cv2.ORB_create(nfeatures=10000).detectAndCompute(s, None)  # type: ignore[attr-defined]
    if dt is None or ds is None or len(kt) < ORB_MIN_MATCHES:
        return None
    pairs = cv2.BFMatcher(cv2.NORM_HAMMING).knnMatch(dt, ds, k=2)
    good = [p[0] for p in pairs if len(p) == 2 and p[0].distance < 0.8 * p[1].distance]
    if len(good) < ORB_MIN_MATCHES:
        return None
    src = np.array([kt[m.queryIdx].pt for m in good], dtype=np.float32).reshape(-1, 1, 2)
    dst = np.array([ks[m.trainIdx].pt for m in good], dtype=np.float32).reshape(-1, 1, 2)
    homography, mask = cv2.findHomography(src, dst, cv2.RANSAC, 5.0)
    if homography is None or mask is None:
        return None
    inliers = int(mask.sum())
    h, w = t.shape[:2]
    corners = cv2.perspectiveTransform(
        np.array([[0, 0], [w, 0], [w, h], [0, h]], dtype=np.float32).reshape(-1, 1, 2), homography
    )
    xs, ys = corners[:, 0, 0], corners[:, 0, 1]
    rect = Rect(left=int(xs.min()), top=int(ys.min()), right=int(np.ceil(xs.max())), bottom=int(np.ceil(ys.max())))
    area_ratio = rect.area / float(w * h) if w * h else 0
    if rect.is_empty or not 0.25 <= area_ratio <= 4:
        return None  # a degenerate homography, not a sighting
    share = inliers / len(good)
    return min(1.0, share * min(1.0, inliers / 20)), rect


# -- helpers -------------------------------------------------------------------------------
def _ambiguous(scores: list[float]) -> bool:
    """Whether the best match is not told from another place: below RELIABLE_EXACT, with a
    second place within AMBIGUOUS of it (a key that is not on screen still has look-alikes
    scoring close to each other, below what the key itself scores)."""
    return scores[0] < RELIABLE_EXACT and _close_behind(scores)


def _close_behind(scores: list[float]) -> bool:
    """Whether a second place scores within AMBIGUOUS of the best."""
    return len(scores) > 1 and scores[0] - scores[1] < AMBIGUOUS


def _unless_ambiguous(found: list[Candidate], threshold: float) -> list[Candidate]:
    """The matches, their confidence lowered to the threshold when the best is `_ambiguous`
    (`detail["runner_up"]` says why): still listed as alternatives, below the locator's
    reliable bar, so a locate reports them instead of clicking one."""
    if not _ambiguous([c.confidence for c in found]):
        return found
    runner_up = round(found[1].confidence, 3)
    return [
        replace(c, confidence=min(c.confidence, threshold), detail={**c.detail, "runner_up": runner_up}) for c in found
    ]


def _grey(image: np.ndarray) -> np.ndarray:
    if image.ndim == 2:
        return image
    if image.shape[2] == 4:
        return cv2.cvtColor(image, cv2.COLOR_BGRA2GRAY)
    return cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)


def _from_match(m: Match, ox: int, oy: int, method: str, detail: dict[str, float | str]) -> Candidate:
    return _candidate(m.left + ox, m.top + oy, (m.height, m.width), m.score, method, detail)


def _candidate(
    x: int, y: int, shape: tuple[int, ...], score: float, method: str, detail: dict[str, float | str]
) -> Candidate:
    h, w = shape[:2]
    return Candidate(Rect(left=x, top=y, right=x + w, bottom=y + h), round(min(1.0, score), 3), method, "", detail)
