"""Multi-scale template search: a reference drawn 0.5–1.5× its size, found mostly on coarse
levels and told apart at full resolution.

`sweep` searches a range of scales, `exact` one scale; `survey` matches the area of
look-alikes once at full resolution at a sighting's scale; `judge` scores a patch as the lower
of the whole's and the middle half's TM_CCOEFF_NORMED (and, drawn about its own size, its
glyph's). Every match is (score, scale, left, top, width, height) in the searched image. How
the levels, scale steps and judgement are chosen, and what they cost: docs/locator.md
("Multi-scale search").

Over 600 lines on purpose: `sweep`, `exact`, `survey` and `judge` share one pyramid and one
scoring, which would otherwise cross module lines on every call.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from winactions.opencv import cv2

# coarse search
COARSE_AREA = 64  # px: what a reference keeps on its coarse level (up to twice this) ...
COARSE_SIDE = 4  # ... with each side at least this long ...
MIN_SHRINK = 3  # ... on a level of at most 1/2**3 of the image, unless a side would fall below COARSE_SIDE
EXACT_AREA = 256  # the exact-size search is one match, not a dozen: it affords a finer level ...
EXACT_PEAKS = 4  # ... and its peaks are few: this many are checked beyond the candidates asked for ...
EXACT_DOUBT = 0.15  # ... if their coarse score is at most this below the threshold (an exact copy scores more there)
KNOWN_REACH = 2  # px: at a remembered scale, the best peaks are polished by this much of its long side
KNOWN_POLISHED = 3  # ... this many of them at most: the best, and those polishing could lift above it
POLISH_GAIN = 0.2  # what a polish lifted a judged score by (0.81 -> 0.97 on gnome-calculator's keys at 0.5x)
MAX_LEVEL = 5  # 2**5 = 32x along one axis at most
STEP = 1.4  # next scale = s * (1 + STEP / coarse length): edges move ~STEP/2 px per side at the coarse level
PEAKS_PER_SCALE = 8
COARSE_FLOOR = 0.35  # coarse scores below this are not worth a look
CROWD_MARGIN = 0.15  # a scale whose last kept peak is within this of its best has more look-alikes than peaks
# (0.1 missed MATE's keypad at 0.5x, whose eighth peak was 0.11 below its first: 4 more keys taken for others)
# looks, refinement and judgement
REFINE_LIMIT = 24  # coarse peaks given a first look ...
CHECK_MARGIN = 0.3  # ... kept if it scores at least the threshold less this ...
REFINE_EXTRA = 3  # ... and the best `limit` + this many are refined ...
LOOK_MARGIN = 0.1  # ... if they look about as good as the best one
HALF_MIN = 16  # px: a reference whose short side is at least this at its scale is refined at half resolution
SURE = 0.95  # a match judged this well is the one wanted: look-alikes score less in their middle ...
LOOK_ALIKE = 0.1  # ... and one judged at least the threshold less this has its frame, and so its scale
JUDGED = 2  # the sizes tried in a polish that score best whole are judged (whole and middle)
POLISH = 3  # px the long side may grow or shrink when a half-resolution match is judged at full resolution
CENTRE_DETAIL = 8.0  # grey levels: a reference's middle with less spread than this is a flat fill
SAME_SIZE = 0.06  # a reference drawn within this of its own size is judged by its glyph too ...
INK = 40  # ... its glyph: the middle's pixels this many grey levels off the middle's median ...
GLYPH_SHARE = 0.8  # ... unless their box fills this much of the middle


@dataclass(frozen=True)
class Match:
    """One refined match in the searched image's pixels."""

    score: float
    scale: float
    left: int
    top: int
    width: int
    height: int


class Reference:
    """The reference image (grey) and its resized copies, each size made once per search: the
    same sizes are asked for again and again by seeds at one scale."""

    def __init__(self, image: np.ndarray) -> None:
        self.image = image
        self.shape = image.shape
        self._sizes: dict[tuple[int, int], np.ndarray] = {}
        self._centred: dict[tuple[int, int], Centred] = {}

    def sized(self, width: int, height: int) -> np.ndarray:
        key = (max(1, width), max(1, height))
        if key not in self._sizes:
            self._sizes[key] = resize(self.image, *key)
        return self._sizes[key]

    def centred(self, width: int, height: int) -> Centred:
        """The `width`x`height` copy less its mean, as `coarse_scores` correlates it, made once:
        a size recurs on another level."""
        key = (max(1, width), max(1, height))
        if key not in self._centred:
            self._centred[key] = Centred.of(self.sized(*key))
        return self._centred[key]


@dataclass(frozen=True)
class Centred:
    """A small reference less its mean (float32) and what normalises its correlation."""

    zero: np.ndarray
    norm: float  # the root of the sum of its squares: the reference's part of the normed score's denominator
    spread: float  # its standard deviation in grey levels: below 1 its detail vanished at this size

    @classmethod
    def of(cls, t: np.ndarray) -> Centred:
        mean, std = cv2.meanStdDev(t)
        spread = float(std[0, 0])
        return cls(np.subtract(t, float(mean[0, 0]), dtype=np.float32), spread * math.sqrt(t.size), spread)


@dataclass
class Pyramid:
    """The searched image shrunk by 2**kx across and 2**ky down, each level built once."""

    base: np.ndarray
    levels: dict[tuple[int, int], np.ndarray] = field(default_factory=dict)
    scored: dict[tuple[int, int], Level] = field(default_factory=dict)

    def level(self, kx: int, ky: int) -> np.ndarray:
        if (kx, ky) == (0, 0):
            return self.base
        if (kx, ky) not in self.levels:
            # both axes halved together down to the smaller exponent, the longer one after: OpenCV's
            # 2x2 area path is ~8x faster per pixel than halving one axis, so one-axis halvings are
            # done on the smallest image (a 4x2 level from the 2x2 one, not from the full-size 2x1)
            if kx == ky:
                self.levels[(kx, ky)] = halve(self.level(kx - 1, ky - 1), True, True)
            else:
                self.levels[(kx, ky)] = halve(self.level(kx - (kx > ky), ky - (ky > kx)), kx > ky, ky > kx)
        return self.levels[(kx, ky)]

    def coarse(self, kx: int, ky: int) -> Level:
        """The level as `coarse_scores` reads it, made once: several scales share a level."""
        if (kx, ky) not in self.scored:
            self.scored[(kx, ky)] = Level.of(self.level(kx, ky))
        return self.scored[(kx, ky)]


@dataclass(frozen=True)
class Level:
    """A pyramid level less 128 as float32 (what `coarse_scores` correlates and sums) and its
    squares as uint16 (summed by an integer box filter: exact, and cheaper than OpenCV's float
    sqrBoxFilter). Centring keeps a window's sums exact in float32: its sum of squares is at most
    1024 * 128**2 = 2**24 for FAST_AREA px."""

    floats: np.ndarray
    squares: np.ndarray

    @classmethod
    def of(cls, level: np.ndarray) -> Level:
        return cls(cv2.LUT(level, _CENTRED), cv2.LUT(level, _SQUARES))


# a grey level less 128 as a `Level` holds it, and its square: one table look-up per pixel
_CENTRED = np.arange(-128, 128, dtype=np.float32)
_SQUARES = (np.arange(-128, 128) ** 2).astype(np.uint16)


def halve(image: np.ndarray, across: bool, down: bool) -> np.ndarray:
    """`image` at half size across and/or down, each pixel the mean of the two or four it
    covers. An odd last row or column is dropped, so that level pixel x covers exactly pixels
    2x and 2x+1 below. One axis is halved by a linear resize, which at exactly 2x averages the
    same two pixels as an area resize (to the rounding) at a quarter of its cost; a side of one
    pixel stays as it is."""
    h, w = image.shape[:2]
    across, down = across and w >= 2, down and h >= 2
    if not (across or down):
        return image
    even = image[: h - h % 2 if down else h, : w - w % 2 if across else w]
    size = (even.shape[1] // 2 if across else w, even.shape[0] // 2 if down else h)
    return cv2.resize(even, size, interpolation=cv2.INTER_AREA if across and down else cv2.INTER_LINEAR)


def exponents(width: float, height: float, area: int = 0) -> tuple[int, int]:
    """The pyramid level (2**kx across, 2**ky down) for a `width`x`height` reference: halve its
    longer side (as it is on that level) while the reference keeps COARSE_AREA pixels and each
    side COARSE_SIDE px. Fewer pixels and text becomes a blob that matches every button;
    more, and the small scales alone cost a full-resolution match."""
    kx = ky = 0
    while kx + ky < 2 * MAX_LEVEL:
        w, h = width / 2**kx, height / 2**ky
        if w * h / 2 < (area or COARSE_AREA) and kx + ky >= MIN_SHRINK:
            break
        if w >= h and w / 2 >= COARSE_SIDE and kx < MAX_LEVEL:
            kx += 1
        elif h / 2 >= COARSE_SIDE and ky < MAX_LEVEL:
            ky += 1
        else:
            break
    return kx, ky


def resize(image: np.ndarray, width: int, height: int) -> np.ndarray:
    shrinking = width * height <= image.shape[0] * image.shape[1]
    return cv2.resize(
        image, (max(1, width), max(1, height)), interpolation=cv2.INTER_AREA if shrinking else cv2.INTER_LINEAR
    )


@dataclass(frozen=True)
class Seed:
    """A coarse peak: where (centre, full-resolution px) and at what scale to look closely."""

    score: float
    scale: float
    cx: float
    cy: float
    length: float  # the coarse reference's longer side: sets how far off the scale may be
    fx: int  # the coarse level's pixel size: how far off the centre may be
    fy: int
    crowd: tuple[int, int, int, int] | None = None  # where look-alikes lie (full-resolution px), if more than were kept


def coarse_peaks(
    pyramid: Pyramid,
    t: Reference,
    scale: float,
    count: int = PEAKS_PER_SCALE,
    area: int = COARSE_AREA,
    done: set[tuple[int, ...]] | None = None,
) -> tuple[list[Seed], float]:
    """Peaks of the reference at `scale` on its coarse level (where it keeps `area` px), and the
    coarse reference's longer side (which sets the next scale's step). A level and coarse size
    already in `done` (two scales that round alike there) gives no peaks: they were found."""
    h, w = t.shape[:2]
    sw, sh = w * scale, h * scale
    kx, ky = exponents(sw, sh, area)
    fx, fy = 2**kx, 2**ky
    cw, ch = max(3, round(sw / fx)), max(3, round(sh / fy))
    length = float(max(cw, ch))
    if done is not None:
        if (kx, ky, cw, ch) in done:
            return [], length
        done.add((kx, ky, cw, ch))
    level = pyramid.level(kx, ky)
    if cw > level.shape[1] or ch > level.shape[0]:
        return [], length
    small = t.centred(cw, ch)
    if small.spread < 1.0:  # the reference's detail vanished at this level: no evidence here
        return [], length
    result = coarse_scores(pyramid.coarse(kx, ky), small) if cw * ch <= FAST_AREA else _scores(level, t.sized(cw, ch))
    band = result >= float(result.max()) - CROWD_MARGIN  # before `local_peaks` overwrites the scores
    found = local_peaks(result, (ch, cw), count, COARSE_FLOOR)
    crowd = None
    if len(found) == count and found[-1][0] >= found[0][0] - CROWD_MARGIN:
        ys, xs = np.nonzero(band)
        crowd = (int(xs.min()) * fx, int(ys.min()) * fy, (int(xs.max()) + cw + 1) * fx, (int(ys.max()) + ch + 1) * fy)
    peaks = [Seed(score, scale, (x + cw / 2) * fx, (y + ch / 2) * fy, length, fx, fy, crowd) for score, x, y in found]
    return peaks, length


def local_peaks(result: np.ndarray, shape: tuple[int, ...], count: int, floor: float) -> list[tuple[float, int, int]]:
    """The best `count` local maxima of a score map (which it overwrites) at or above `floor`,
    best first, each suppressing a template-sized area around it: the greedy choice (the first
    place in row order wins a tie), one `minMaxLoc` per peak."""
    th, tw = shape[:2]
    dy, dx = th // 2, tw // 2
    out: list[tuple[float, int, int]] = []
    for _ in range(count):
        _, score, _, (x, y) = cv2.minMaxLoc(result)
        if score < floor:
            break
        out.append((score, x, y))
        result[y - dy if y > dy else 0 : y + dy + 1, x - dx if x > dx else 0 : x + dx + 1] = -1.0
    return out


def sweep(
    s: np.ndarray,
    t: Reference,
    scales: tuple[float, float],
    threshold: float,
    limit: int,
    pyramid: Pyramid | None = None,
) -> list[Match]:
    """Matches of `t` drawn `scales[0]`..`scales[1]` times as large in `s`, best first, ≥ threshold."""
    pyramid = pyramid or Pyramid(s)
    low, high = scales
    pool: list[Seed] = []
    done: set[tuple[int, ...]] = set()
    scale: float | None = low
    while scale is not None:
        if min(t.shape[:2]) * scale >= 3 and t.shape[0] * scale <= s.shape[0] and t.shape[1] * scale <= s.shape[1]:
            peaks, length = coarse_peaks(pyramid, t, scale, done=done)
            pool.extend(peaks)
        else:
            length = max(t.shape[:2]) * scale
        step = STEP / max(length, 3.0)
        # the last scale tried is `high`, unless it is within a third of a step of this one
        scale = scale * (1 + step) if scale * (1 + step) < high else high if high / scale - 1 > step / 3 else None
    pool.sort(key=lambda p: -p.score)
    seeds: list[Seed] = []
    for peak in pool:  # one seed per place and scale sample: a place may look best at a wrong scale when coarse
        near = min(t.shape[:2]) * peak.scale / 2
        if all(
            abs(peak.cx - seed.cx) > near
            or abs(peak.cy - seed.cy) > near
            or abs(math.log(peak.scale / seed.scale)) > STEP / max(seed.length, peak.length) / 2
            for seed in seeds
        ):
            seeds.append(peak)
        if len(seeds) >= REFINE_LIMIT:
            break
    looks = [
        (look, seed)
        for seed in seeds
        if (look := first_look(s, t, seed, pyramid)) is not None and look.score >= threshold - CHECK_MARGIN
    ]
    looks.sort(key=lambda pair: -pair[0].score)
    sightings: list[Match] = []
    for look, seed in looks[: limit + REFINE_EXTRA]:
        if look.score < looks[0][0].score - LOOK_MARGIN or not all(apart(look, other) for other in sightings):
            continue
        sightings.append(settle(s, t, look, seed, pyramid))
    best = max(sightings, key=lambda m: m.score, default=None)
    crowds = [seed.crowd for seed in seeds if seed.crowd is not None]
    if best is not None and threshold - LOOK_ALIKE <= best.score < SURE and crowds:
        lefts, tops, rights, bottoms = zip(*crowds)
        sightings += [
            m
            for m in survey(
                s, t, best.scale, (min(lefts), min(tops), max(rights), max(bottoms)), limit + REFINE_EXTRA, threshold
            )
            if m.score > best.score
        ]
    found: list[Match] = []
    for match in sorted(sightings, key=lambda m: -m.score):
        if match.score >= threshold and all(apart(match, other) for other in found):
            found.append(match)
    return found[:limit]


def settle(s: np.ndarray, t: Reference, look: Match, seed: Seed, pyramid: Pyramid) -> Match:
    """A first look refined to its scale and place, and judged at full resolution: on the
    half-resolution level (`refine`) when the reference keeps its detail there, else by a
    polish as wide as the seed's scale doubt."""
    if _half(t, seed.scale):
        return polish(
            s, t, _scaled_up(refine(pyramid.level(1, 1), t, _scaled_down(look, 2), STEP / max(seed.length, 3.0)), t, 2)
        )
    return polish(s, t, look, reach=math.ceil(STEP / max(seed.length, 3.0) / 2 * max(look.width, look.height)))


def survey(
    s: np.ndarray, t: Reference, scale: float, area: tuple[int, int, int, int], count: int, threshold: float
) -> list[Match]:
    """Every place in `area` (left, top, right, bottom) that shows the reference at `scale`, each
    judged: one full-resolution match there. The key wanted differs from its look-alikes only
    in its middle, which only full resolution shows. The scale is the best settled sighting's:
    a look-alike has the wanted key's frame, and so its scale. `sweep` surveys only after a
    sighting judged near the threshold (LOOK_ALIKE), and keeps only what beats it."""
    w, h = round(t.shape[1] * scale), round(t.shape[0] * scale)
    left, top = max(0, area[0] - w // 2), max(0, area[1] - h // 2)
    right, bottom = min(s.shape[1], area[2] + w // 2), min(s.shape[0], area[3] + h // 2)
    if w < 3 or h < 3 or w > right - left or h > bottom - top:
        return []
    found = []
    for _, x, y in local_peaks(
        _scores(s[top:bottom, left:right], t.sized(w, h)), (h, w), count, threshold - CHECK_MARGIN
    ):
        m = _at(s, t, scale, left + x + w / 2, top + y + h / 2, (2, 2))
        if m is not None and (m := judged(s, t, m)).score >= threshold:
            found.append(m)
    return found


def polish(s: np.ndarray, t: Reference, m: Match, reach: int = 0) -> Match:
    """A match judged at full resolution: at each scale that lengthens or shortens its long side
    by up to `reach` (default POLISH) px, one px at a time, placed best within 2 px; the best
    `judge` of the JUDGED sizes whose whole scores best (the best judged size is among the
    whole's best two). Small references come here straight from their first look; larger ones
    after `refine` on the half-resolution level (which finds the place and roughly the scale,
    but would also flatter look-alikes)."""
    reach = reach or POLISH
    d = 1 / max(m.width, m.height, 1)
    centre = (m.left + m.width / 2, m.top + m.height / 2)
    tries = [
        tried
        for j in range(-reach, reach + 1)
        if (tried := _at(s, t, m.scale * (1 + j * d), *centre, (2 + abs(j) // 2, 2 + abs(j) // 2))) is not None
    ]
    best = Match(0.0, m.scale, m.left, m.top, m.width, m.height)
    for tried in sorted(tries, key=lambda tried: -tried.score)[:JUDGED]:
        if (tried := judged(s, t, tried)).score > best.score:
            best = tried
    return best


def _half(t: Reference, scale: float) -> bool:
    """Whether a reference drawn at `scale` is judged on the half-resolution level: large enough
    to keep its detail there, where a resampled copy's pixel phase no longer swings the score."""
    return min(t.shape[:2]) * scale >= HALF_MIN


def _scaled_down(m: Match, k: int) -> Match:
    return (
        m
        if k == 1
        else Match(m.score, m.scale / k, round(m.left / k), round(m.top / k), round(m.width / k), round(m.height / k))
    )


def _scaled_up(m: Match, t: Reference, k: int) -> Match:
    return (
        m
        if k == 1
        else Match(
            m.score,
            m.scale * k,
            m.left * k,
            m.top * k,
            round(t.shape[1] * m.scale * k),
            round(t.shape[0] * m.scale * k),
        )
    )


def exact(
    s: np.ndarray, t: Reference, threshold: float, limit: int, pyramid: Pyramid, scale: float = 1.0
) -> list[Match]:
    """Matches of `t` drawn `scale` times its size (its own size by default), best first,
    ≥ threshold: coarse peaks checked at full resolution and judged. At another scale (one
    expected: the densities' ratio, or the session's remembered scale) a crowd of look-alikes
    is surveyed at full resolution when nothing is judged sure, and the best places are
    polished (`_polished`)."""
    w, h = round(t.shape[1] * scale), round(t.shape[0] * scale)
    if w < 3 or h < 3 or h > s.shape[0] or w > s.shape[1]:
        return []
    peaks, _ = coarse_peaks(pyramid, t, scale, EXACT_PEAKS + limit, EXACT_AREA)
    sightings: list[Match] = []
    for seed in peaks:
        if seed.score < threshold - EXACT_DOUBT:
            break  # peaks come best first
        match = _at(s, t, scale, seed.cx, seed.cy, (seed.fx + 1, seed.fy + 1))
        if match is not None and match.score >= threshold:
            sightings.append(match)
    looked = [judged(s, t, m) for m in sightings]
    if scale != 1.0:
        looked = _polished(s, t, looked)
        crowd = peaks[0].crowd if peaks else None
        if crowd is not None and max((m.score for m in looked), default=0.0) < SURE:
            # more look-alikes than peaks checked (a keypad's thirty keys, alike on a coarse level),
            # and none judged sure: the key itself may not be among them; their whole area is
            # matched at full resolution, and the new places polished as well
            new = [
                m
                for m in survey(s, t, scale, crowd, limit + REFINE_EXTRA, threshold)
                if all(apart(m, other) for other in looked)
            ]
            looked += _polished(s, t, new)
    found: list[Match] = []
    for match in sorted(looked, key=lambda m: -m.score):
        if match.score >= threshold and all(apart(match, other) for other in found):
            found.append(match)
    return found[:limit]


def _polished(s: np.ndarray, t: Reference, looked: list[Match]) -> list[Match]:
    """Sightings at an expected scale, the best polished, and so is each other that polishing
    could lift above it (at most KNOWN_POLISHED in all): a reference cropped on one display
    rounds to a size a pixel off on another, and a resized copy's pixel phase swings its score,
    so the look-alike polished alone could win."""
    places: list[Match] = []
    for match in sorted(looked, key=lambda m: -m.score):
        if all(apart(match, other) for other in places):
            places.append(match)
    out: list[Match] = []
    for i, match in enumerate(places):
        if i < KNOWN_POLISHED and (not out or match.score >= max(m.score for m in out) - POLISH_GAIN):
            match = polish(s, t, match, KNOWN_REACH)
        out.append(match)
    return out


def first_look(s: np.ndarray, t: Reference, seed: Seed, pyramid: Pyramid) -> Match | None:
    """A cheap check of a seed before its scale is searched: the match at the seed's scale, its
    centre within a coarse pixel and the scale's doubt of the seed's, on the half-resolution
    level when the reference keeps its detail there (`_half`); in full-resolution pixels."""
    step = STEP / max(seed.length, 3.0)
    spread = step * max(t.shape[:2]) * seed.scale / 2  # px an edge moves in the doubt
    pad = (round(seed.fx + spread) + 1, round(seed.fy + spread) + 1)
    if not _half(t, seed.scale):
        return _at(s, t, seed.scale, seed.cx, seed.cy, pad)
    look = _at(pyramid.level(1, 1), t, seed.scale / 2, seed.cx / 2, seed.cy / 2, (pad[0] // 2 + 1, pad[1] // 2 + 1))
    return None if look is None else _scaled_up(look, t, 2)


def refine(s: np.ndarray, t: Reference, look: Match, step: float) -> Match:
    """The scale (within half a sampling `step`) and place that score best near a first look: at
    full resolution, the look's scale and a third of a step either side, then parabolas through
    the score at three scales, each a quarter as wide as the last, until an edge moves less than
    a pixel. Its score is the plain one at that size: `polish` judges the place it leads to."""
    centre = (look.left + look.width / 2, look.top + look.height / 2)
    pad = 3 + round(step * max(look.width, look.height) / 2)
    tries = [_at(s, t, look.scale * (1 + k * step / 3), *centre, (pad, pad)) for k in (-1, 0, 1)]
    best = max((m for m in tries if m is not None), key=lambda m: m.score, default=look)
    step /= 3
    delta = step / 2
    while delta * max(best.width, best.height) >= 1:
        centre = (best.left + best.width / 2, best.top + best.height / 2)
        pad = round(delta * max(best.width, best.height) / 2) + 2
        low = _at(s, t, best.scale * (1 - delta), *centre, (pad, pad))
        high = _at(s, t, best.scale * (1 + delta), *centre, (pad, pad))
        if low is not None and high is not None:
            bend = 2 * best.score - low.score - high.score
            if bend > 1e-6:  # the vertex of the parabola through the three scores
                offset = max(-1.0, min(1.0, (high.score - low.score) / (2 * bend)))
                vertex = _at(s, t, best.scale * (1 + offset * delta), *centre, (pad, pad))
                if vertex is not None and vertex.score > best.score:
                    best = vertex
        best = max((m for m in (best, low, high) if m is not None), key=lambda m: m.score)
        delta /= 4
    return best


def _at(s: np.ndarray, t: Reference, scale: float, cx: float, cy: float, pad: tuple[int, int]) -> Match | None:
    """The best match of `t` at `scale` whose centre is within `pad` px of (cx, cy)."""
    w, h = round(t.shape[1] * scale), round(t.shape[0] * scale)
    if w < 3 or h < 3 or w > s.shape[1] or h > s.shape[0]:
        return None
    x0, y0 = max(0, round(cx - w / 2) - pad[0]), max(0, round(cy - h / 2) - pad[1])
    x1, y1 = min(s.shape[1], round(cx - w / 2) + w + pad[0]), min(s.shape[0], round(cy - h / 2) + h + pad[1])
    if x1 - x0 < w or y1 - y0 < h:
        return None
    result = _scores(s[y0:y1, x0:x1], t.sized(w, h))
    _, score, _, (x, y) = cv2.minMaxLoc(result)
    return Match(float(score), scale, x0 + x, y0 + y, w, h)


FAST_AREA = 1024  # px: references up to this size are scored by `coarse_scores`' own sums (exact in float32)
DIRECT_AREA = 96  # px: up to this size a direct correlation beats OpenCV's DFT one (measured on the coarse levels)
FLAT_VARIANCE = 0.25  # grey levels²: a window's variance is floored at this (a flat window scores 0)


def coarse_scores(level: Level, t: Centred) -> np.ndarray:
    """TM_CCOEFF_NORMED of a small reference `t` (up to FAST_AREA px) at every place of a `level`,
    for less than `cv2.matchTemplate` costs (which spends most of a normed match on normalising).
    The correlation is a direct `filter2D` with the zero-mean reference up to DIRECT_AREA taps,
    else OpenCV's DFT one (`matchTemplate` TM_CCORR); the windows' sums are box sums of the
    level's centred pixels and their squares (`Level`). A window with less spread than
    FLAT_VARIANCE has its correlation divided by that floor, so it scores at most
    sqrt(spread / FLAT_VARIANCE); a flat one scores 0 (OpenCV answers NaN or +-1 there).
    What it costs against OpenCV, and what was tried and not kept: docs/locator.md ("Known
    behaviour")."""
    th, tw = t.zero.shape[:2]
    n = th * tw
    rh, rw = level.floats.shape[0] - th + 1, level.floats.shape[1] - tw + 1
    if t.norm == 0.0:  # a flat reference is no evidence anywhere (`coarse_peaks` never asks for one)
        return np.zeros((rh, rw), np.float32)
    if n <= DIRECT_AREA:
        num = cv2.filter2D(level.floats, cv2.CV_32F, t.zero, anchor=(0, 0), borderType=cv2.BORDER_CONSTANT)[:rh, :rw]
    else:
        num = cv2.matchTemplate(level.floats, t.zero, cv2.TM_CCORR)
    s1 = cv2.boxFilter(
        level.floats, cv2.CV_32F, (tw, th), anchor=(0, 0), normalize=False, borderType=cv2.BORDER_CONSTANT
    )[:rh, :rw]
    s2 = cv2.boxFilter(
        level.squares, cv2.CV_32F, (tw, th), anchor=(0, 0), normalize=False, borderType=cv2.BORDER_CONSTANT
    )[:rh, :rw]  # summed in int32, handed over as float32
    spread = cv2.subtract(s2, cv2.multiply(s1, s1, scale=1.0 / n))  # n times each window's variance
    # a flat window's correlation is 0, so dividing it by the floor instead scores it 0: no evidence
    return cv2.divide(num, cv2.sqrt(cv2.max(spread, FLAT_VARIANCE * n)), scale=1.0 / t.norm)


def _scores(image: np.ndarray, t: np.ndarray) -> np.ndarray:
    """TM_CCOEFF_NORMED with NaNs (from flat windows) as -1, patched in place: cheaper than nan_to_num."""
    result = cv2.matchTemplate(image, t, cv2.TM_CCOEFF_NORMED)
    cv2.patchNaNs(result, -1.0)
    return result


def judged(s: np.ndarray, t: Reference, m: Match) -> Match:
    """`m` scored by `judge` of its patch of `s`; by its glyph too when drawn about its own size."""
    score = judge(
        s[m.top : m.top + m.height, m.left : m.left + m.width],
        t.sized(m.width, m.height),
        glyph=abs(m.scale - 1) <= SAME_SIZE,
    )
    return Match(score, m.scale, m.left, m.top, m.width, m.height)


def judge(patch: np.ndarray, t: np.ndarray, glyph: bool = False) -> float:
    """The confidence that `patch` shows the reference: TM_CCOEFF_NORMED of the whole, and of the
    middle half (each way) when the reference has detail there, whichever is lower. Buttons of
    one app share a frame that dominates the whole's score; what tells them apart is in the
    middle, and there the wrong one scores low. The middle may sit a pixel off: text is hinted
    to the pixel grid at each scale on its own.

    With `glyph` (the reference drawn about its own size, where the key itself is the same
    pixel for pixel) the tight box of the middle's ink counts too (`_glyph_box`): the middle half
    of a key is mostly the background all keys share. Not at other scales: a glyph resampled
    differs from one rendered at that size. Measurements: docs/locator.md ("Known behaviour")."""
    whole = _ncc(patch, t)
    h, w = t.shape[:2]
    y0, y1, x0, x1 = h // 4, h - h // 4, w // 4, w - w // 4
    middle = t[y0:y1, x0:x1]
    if middle.size < 9 or float(cv2.meanStdDev(middle)[1][0, 0]) < CENTRE_DETAIL:
        return whole
    around = patch[max(0, y0 - 1) : y1 + 1, max(0, x0 - 1) : x1 + 1]
    score = min(whole, float(cv2.minMaxLoc(_scores(around, middle))[1]))
    box = _glyph_box(middle) if glyph else None
    if box is None:
        return score
    gx0, gy0, gx1, gy1 = x0 + box[0], y0 + box[1], x0 + box[2], y0 + box[3]
    around = patch[max(0, gy0 - 1) : gy1 + 1, max(0, gx0 - 1) : gx1 + 1]
    return min(score, float(cv2.minMaxLoc(_scores(around, t[gy0:gy1, gx0:gx1]))[1]))


def _glyph_box(middle: np.ndarray) -> tuple[int, int, int, int] | None:
    """(left, top, right, bottom) in `middle` of its ink (pixels INK grey levels off its median),
    if that is a box of at least 3x3 px smaller than GLYPH_SHARE of it; None when the ink fills
    the middle (an icon: its middle is judged already)."""
    ink = np.abs(middle.astype(np.int16) - int(np.median(middle))) > INK
    ys, xs = np.nonzero(ink)
    if len(xs) < 4:
        return None
    left, top, right, bottom = int(xs.min()), int(ys.min()), int(xs.max()) + 1, int(ys.max()) + 1
    if right - left < 3 or bottom - top < 3 or (right - left) * (bottom - top) >= GLYPH_SHARE * middle.size:
        return None
    return left, top, right, bottom


def _ncc(patch: np.ndarray, t: np.ndarray) -> float:
    """TM_CCOEFF_NORMED of two same-sized images, 0 when either is flat (no evidence either way;
    OpenCV itself may answer ±1 there)."""
    if float(cv2.meanStdDev(patch)[1][0, 0]) < 1.0 or float(cv2.meanStdDev(t)[1][0, 0]) < 1.0:
        return 0.0
    return float(cv2.matchTemplate(patch, t, cv2.TM_CCOEFF_NORMED)[0, 0])


def apart(a: Match, b: Match) -> bool:
    """Two matches are different sightings unless one's centre lies inside the other."""
    ax, ay = a.left + a.width / 2, a.top + a.height / 2
    bx, by = b.left + b.width / 2, b.top + b.height / 2
    return not (b.left <= ax < b.left + b.width and b.top <= ay < b.top + b.height) and not (
        a.left <= bx < a.left + a.width and a.top <= by < a.top + a.height
    )
