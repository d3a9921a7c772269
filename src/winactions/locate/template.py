"""The `template` strategy: find a reference image on screen with OpenCV (seed 004's ladder).

A full-resolution `matchTemplate` costs ~66 ms per scale on 1080p and an 11-scale sweep
~0.8 s, so each rung avoids the full sweep:

1. `hint` — where this image was last found: exact match in a small window around it.
2. exact — match at half (or quarter) resolution, then confirm each peak at full resolution
   in a few-pixel window; confidence is the full-resolution TM_CCOEFF_NORMED score.
3. multi-scale — for references captured at another scale (0.8–1.25× by default): coarse
   scores per scale at reduced resolution, the best scales refined at full resolution.
4. ORB features + RANSAC homography — for large references, rotated or rescaled beyond the
   sweep; confidence is the inlier share. (ORB finds no keypoints on small icons.)

Stops at the first rung that yields a match ≥ threshold (0.75 by default). Uniform
references (a flat colour) match everywhere and are refused rather than guessed.
"""

from __future__ import annotations

import os
from pathlib import Path

import cv2
import numpy as np

from winactions.errors import InvalidInput
from winactions.locate.types import Candidate
from winactions.model import Rect

THRESHOLD = 0.75
REFINE = 3  # px searched around a coarse peak at full resolution
PEAKS = 6
ORB_MIN_SIDE = 48
ORB_MIN_MATCHES = 10


def load_image(path: str | os.PathLike[str]) -> np.ndarray:
    """A reference image as BGR; a missing or unreadable file is a clear error."""
    file = Path(path)
    if not file.is_file():
        raise InvalidInput(f"reference image {file} does not exist",
                           hint="check the asset library (WINCTL_ASSETS) or the path")
    image = cv2.imread(str(file), cv2.IMREAD_COLOR)
    if image is None:
        raise InvalidInput(f"{file} is not an image OpenCV can read", hint="save it as PNG")
    return image


def find_template(screen: np.ndarray, template: np.ndarray, *, origin: tuple[int, int] = (0, 0),
                  threshold: float = THRESHOLD, scales: tuple[float, float] = (0.8, 1.25), hint: Rect | None = None,
                  max_candidates: int = 5) -> list[Candidate]:
    """Where `template` appears in `screen`, best first, in screen coordinates."""
    s, t = _grey(screen), _grey(template)
    if t.shape[0] < 3 or t.shape[1] < 3:
        raise InvalidInput(f"the reference image is too small ({t.shape[1]}x{t.shape[0]})")
    if float(t.std()) < 2.0:
        raise InvalidInput("the reference image is a flat colour: it would match everywhere",
                           hint="crop it to include the element's edges or symbol")
    ox, oy = origin
    if hint is not None:
        found = _around(s, t, Rect(left=hint.left - ox, top=hint.top - oy, right=hint.right - ox,
                                   bottom=hint.bottom - oy), threshold)
        if found is not None:
            score, x, y = found
            return [_candidate(x + ox, y + oy, t.shape, score, "template:exact", {"stage": "hint"})]
    if t.shape[0] <= s.shape[0] and t.shape[1] <= s.shape[1]:
        exact = _coarse_to_fine(s, t, threshold, max_candidates)
        if exact:
            return [_candidate(x + ox, y + oy, t.shape, score, "template:exact", {"stage": "coarse-to-fine"})
                    for score, x, y in exact]
    scaled = _multiscale(s, t, threshold, scales)
    if scaled is not None:
        score, x, y, factor, shape = scaled
        return [_candidate(x + ox, y + oy, shape, score, "template:multiscale", {"scale": round(factor, 3)})]
    if min(t.shape[:2]) >= ORB_MIN_SIDE:
        orb = _orb(s, t)
        if orb is not None and orb[0] >= threshold:
            score, rect = orb
            return [Candidate(Rect(left=rect.left + ox, top=rect.top + oy, right=rect.right + ox,
                                   bottom=rect.bottom + oy), round(score, 3), "template:orb", "", {"stage": "orb"})]
    return []


# -- rungs ---------------------------------------------------------------------------------
def _around(s: np.ndarray, t: np.ndarray, last: Rect, threshold: float) -> tuple[float, int, int] | None:
    th, tw = t.shape[:2]
    pad = max(8, min(th, tw) // 2)
    x0, y0 = max(0, last.left - pad), max(0, last.top - pad)
    x1, y1 = min(s.shape[1], last.left + tw + pad), min(s.shape[0], last.top + th + pad)
    if x1 - x0 < tw or y1 - y0 < th:
        return None
    result = cv2.matchTemplate(s[y0:y1, x0:x1], t, cv2.TM_CCOEFF_NORMED)
    _, score, _, (x, y) = cv2.minMaxLoc(result)
    return (float(score), x0 + x, y0 + y) if score >= threshold else None


def _coarse_to_fine(s: np.ndarray, t: np.ndarray, threshold: float, limit: int) -> list[tuple[float, int, int]]:
    factor = _factor(t)
    small_s, small_t = _shrink(s, factor), _shrink(t, factor)
    coarse = cv2.matchTemplate(small_s, small_t, cv2.TM_CCOEFF_NORMED)
    coarse = np.nan_to_num(coarse, nan=-1.0, posinf=-1.0, neginf=-1.0)
    found: list[tuple[float, int, int]] = []
    for _score, cx, cy in _peaks(coarse, small_t.shape, PEAKS + limit, threshold - 0.2):
        fine = _refine(s, t, cx * factor, cy * factor, factor + REFINE)
        if fine is not None and fine[0] >= threshold and all(
                abs(fine[1] - x) >= t.shape[1] // 2 or abs(fine[2] - y) >= t.shape[0] // 2 for _, x, y in found):
            found.append(fine)
    found.sort(key=lambda f: -f[0])
    return found[:limit]


def _multiscale(s: np.ndarray, t: np.ndarray, threshold: float,
                scales: tuple[float, float]) -> tuple[float, int, int, float, tuple[int, ...]] | None:
    low, high = scales
    factor = _factor(t)
    small_s = _shrink(s, factor)
    coarse: list[tuple[float, float, int, int]] = []
    for scale in np.linspace(low, high, 10):
        scaled = _resize(t, scale)
        if scaled.shape[0] > s.shape[0] or scaled.shape[1] > s.shape[1] or min(scaled.shape[:2]) < 3:
            continue
        small_t = _shrink(scaled, factor)
        if small_t.shape[0] > small_s.shape[0] or small_t.shape[1] > small_s.shape[1] or min(small_t.shape) < 3:
            continue
        result = np.nan_to_num(cv2.matchTemplate(small_s, small_t, cv2.TM_CCOEFF_NORMED), nan=-1.0)
        _, score, _, (x, y) = cv2.minMaxLoc(result)
        coarse.append((float(score), float(scale), x * factor, y * factor))
    coarse.sort(key=lambda c: -c[0])
    best: tuple[float, int, int, float, tuple[int, ...]] | None = None
    step = (high - low) / 9
    for _, scale, x, y in coarse[:2]:
        for fine_scale in (scale - step / 2, scale, scale + step / 2):
            scaled = _resize(t, fine_scale)
            if scaled.shape[0] > s.shape[0] or scaled.shape[1] > s.shape[1] or min(scaled.shape[:2]) < 3:
                continue
            fine = _refine(s, scaled, x, y, factor + REFINE + 2)
            if fine is not None and (best is None or fine[0] > best[0]):
                best = (fine[0], fine[1], fine[2], fine_scale, scaled.shape)
    return best if best is not None and best[0] >= threshold else None


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
        np.array([[0, 0], [w, 0], [w, h], [0, h]], dtype=np.float32).reshape(-1, 1, 2), homography)
    xs, ys = corners[:, 0, 0], corners[:, 0, 1]
    rect = Rect(left=int(xs.min()), top=int(ys.min()), right=int(np.ceil(xs.max())), bottom=int(np.ceil(ys.max())))
    area_ratio = rect.area / float(w * h) if w * h else 0
    if rect.is_empty or not 0.25 <= area_ratio <= 4:
        return None  # a degenerate homography, not a sighting
    share = inliers / len(good)
    return min(1.0, share * min(1.0, inliers / 20)), rect


# -- helpers -------------------------------------------------------------------------------
def _refine(s: np.ndarray, t: np.ndarray, x: int, y: int, pad: int) -> tuple[float, int, int] | None:
    th, tw = t.shape[:2]
    x0, y0 = max(0, x - pad), max(0, y - pad)
    x1, y1 = min(s.shape[1], x + tw + pad), min(s.shape[0], y + th + pad)
    if x1 - x0 < tw or y1 - y0 < th:
        return None
    result = np.nan_to_num(cv2.matchTemplate(s[y0:y1, x0:x1], t, cv2.TM_CCOEFF_NORMED), nan=-1.0)
    _, score, _, (fx, fy) = cv2.minMaxLoc(result)
    return float(score), x0 + fx, y0 + fy


def _peaks(result: np.ndarray, shape: tuple[int, ...], count: int, floor: float) -> list[tuple[float, int, int]]:
    """The best `count` local maxima, suppressing a template-sized area around each."""
    result = result.copy()
    th, tw = shape[:2]
    out = []
    for _ in range(count):
        _, score, _, (x, y) = cv2.minMaxLoc(result)
        if score < floor:
            break
        out.append((float(score), x, y))
        result[max(0, y - th // 2):y + th // 2 + 1, max(0, x - tw // 2):x + tw // 2 + 1] = -1.0
    return out


def _factor(t: np.ndarray) -> int:
    side = min(t.shape[:2])
    return 4 if side >= 64 else 2 if side >= 16 else 1


def _shrink(image: np.ndarray, factor: int) -> np.ndarray:
    if factor == 1:
        return image
    return cv2.resize(image, (max(1, image.shape[1] // factor), max(1, image.shape[0] // factor)),
                      interpolation=cv2.INTER_AREA)


def _resize(image: np.ndarray, scale: float) -> np.ndarray:
    size = (max(1, round(image.shape[1] * scale)), max(1, round(image.shape[0] * scale)))
    return cv2.resize(image, size, interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR)


def _grey(image: np.ndarray) -> np.ndarray:
    if image.ndim == 2:
        return image
    if image.shape[2] == 4:
        return cv2.cvtColor(image, cv2.COLOR_BGRA2GRAY)
    return cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)


def _candidate(x: int, y: int, shape: tuple[int, ...], score: float, method: str,
               detail: dict[str, float | str]) -> Candidate:
    h, w = shape[:2]
    return Candidate(Rect(left=x, top=y, right=x + w, bottom=y + h), round(min(1.0, score), 3), method, "", detail)
