"""Compiled loops of reading a blob of tiles as rows (vision.tile_blobs).

A blob is peeled a row at a time, each step a handful of small reads of its mask and of
the view: in numpy some hundred calls of a few microseconds a blob, 0.37 ms a blob read
as rows (its outline fit took 0.6 at the same load), compiled 0.12.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from vision.compiled import compiled, inlined

_LINES = 7  # lines across a row along which a seam is read
_STEP = 0.5  # mm between the samples across a seam
#: pixels: a run of foreground shorter (along a row, or down a column) is a sliver the
#: blur of a tile taken away left, not a tile
_THIN = 3


@inlined
def _row_starts(rest: Any, y: int) -> bool:  # pragma: no cover
    """Whether row y holds a run of _THIN pixels of foreground or more."""
    n = 0
    for x in range(rest.shape[1]):
        n = n + 1 if rest[y, x] else 0
        if n >= _THIN:
            return True
    return False


@inlined
def _column_starts(rest: Any, y: int, x: int) -> bool:  # pragma: no cover
    """Whether pixel (y, x) starts a run of _THIN pixels of foreground down its column."""
    if y + _THIN > rest.shape[0]:
        return False
    n = 0
    while n < _THIN and rest[y + n, x]:
        n += 1
    return n == _THIN


@inlined
def _grey_at(grey: Any, px: float, py: float) -> float:  # pragma: no cover
    """The view's grey level at (px, py) pixels, bilinear, its border repeated."""
    h, w = grey.shape
    px = min(max(px, 0.0), w - 1.0)
    py = min(max(py, 0.0), h - 1.0)
    x0, y0 = max(min(int(px), w - 2), 0), max(min(int(py), h - 2), 0)
    if w < 2 or h < 2:  # (no neighbour to weigh)
        return float(grey[y0, x0])
    fx, fy = px - x0, py - y0
    top = grey[y0, x0] * (1.0 - fx) + grey[y0, x0 + 1] * fx
    bottom = grey[y0 + 1, x0] * (1.0 - fx) + grey[y0 + 1, x0 + 1] * fx
    return float(top * (1.0 - fy) + bottom * fy)


@compiled
def _seam(grey: Any, place: Any, transposed: bool, at: float, top: float, long: float,
          limits: Any) -> float:  # pragma: no cover
    """Where (u, mm) near `at` the view shows the seam between two tiles of a row whose
    tops lie at `top` (v, mm): the deepest dip of the median grey across the row's lines
    within SEAM_REACH_MM, dark on every line (within SEAM_WOBBLE_MM) by MIN_DIP of the
    tiles' grey either side; NaN if none. `place`: px_per_mm, the turn (2 x 2) and the
    origin (u, v) of the turned frame, as a flat array."""
    reach, near_side, far_side, wobble = limits[6], limits[7], limits[8], limits[9]
    line_from, line_to, min_dip = limits[10], limits[11], limits[12]
    half = int(round(far_side / _STEP))
    count = 2 * half + 1
    levels = np.empty((_LINES, count))
    s, t00, t01, t10, t11, ou, ov = (place[0], place[1], place[2], place[3], place[4],
                                     place[5], place[6])
    for i in range(_LINES):
        v = top + long * (line_from + (line_to - line_from) * i / (_LINES - 1))
        for j in range(count):
            u = at + (j - half) * _STEP
            a, b = (v, u) if transposed else (u, v)
            a, b = a + ou, b + ov
            levels[i, j] = _grey_at(grey, (a * t00 + b * t10) * s, (a * t01 + b * t11) * s)
    profile = np.empty(count)
    column = np.empty(_LINES)
    for j in range(count):
        for i in range(_LINES):
            column[i] = levels[i, j]
        column.sort()
        profile[j] = column[_LINES // 2]
    best, k = np.inf, -1
    for j in range(count):
        if abs(j - half) * _STEP <= reach and profile[j] < best:
            best, k = profile[j], j
    left, right = -np.inf, -np.inf
    for j in range(count):
        if abs(j - half) * _STEP >= near_side:
            if j < half:
                left = max(left, profile[j])
            else:
                right = max(right, profile[j])
    limit = (1.0 - min_dip) * min(left, right)
    spread = int(round(wobble / _STEP))
    for i in range(_LINES):
        dip = np.inf
        for j in range(max(k - spread, 0), min(k + spread + 1, count)):
            dip = min(dip, levels[i, j])
        if dip > limit:
            return np.nan
    return at + (k - half) * _STEP


@inlined
def _covers(rest: Any, u: float, v: float, short: float, long: float, scale: float,
            inset: float, share: float) -> bool:  # pragma: no cover
    """Whether the foreground left covers the tile centred at (u, v) mm, inset a side."""
    h, w = rest.shape
    x0 = int(round((u - short / 2 + inset) * scale))
    x1 = int(round((u + short / 2 - inset) * scale))
    y0 = int(round((v - long / 2 + inset) * scale))
    y1 = int(round((v + long / 2 - inset) * scale))
    if x0 < 0 or y0 < 0 or x1 > w or y1 > h or x1 <= x0 or y1 <= y0:
        return False
    n = 0
    for y in range(y0, y1):
        for x in range(x0, x1):
            if rest[y, x]:
                n += 1
    return n >= share * (x1 - x0) * (y1 - y0)


@compiled
def peel(rest: Any, short: float, long: float, scale: float, grey: Any, place: Any,
         transposed: bool, limits: Any, out: Any) -> int:  # pragma: no cover
    """The tiles (centres u, v mm of `rest`'s frame, into `out`) of the turned blob
    `rest` (a mask, its tiles' long side along its rows' axis v), peeled from its top edge
    down (tile_blobs._peeled), taking each away from `rest`; how many, or -1 where a
    step does not check out (a run no whole number of tiles long, a cut that shows no
    seam, a tile on less than COVERED foreground not yet taken). `limits`: tile_blobs'
    LINE_MM, GAP_MM, RUN_TOL_MM, INSET_MM, COVERED, TAKEN_MM, SEAM_REACH_MM, SEAM_SIDE_MM
    (near, far), SEAM_WOBBLE_MM, SEAM_LINES (from, to) and MIN_DIP, in this order."""
    line_mm, gap, tolerance, inset, share, grown = (limits[0], limits[1], limits[2],
                                                    limits[3], limits[4], limits[5])
    h, w = rest.shape
    line = int(round(line_mm * scale))
    found = 0
    top = 0
    runs = np.empty((w, 2), np.int64)
    while True:
        while top < h and not _row_starts(rest, top):
            top += 1
        if top >= h or top + line >= h:
            return found
        y = top + line
        n = 0
        x = 0
        while x < w:
            if rest[y, x]:
                start = x
                while x < w and rest[y, x]:
                    x += 1
                if x - start >= _THIN:
                    runs[n, 0], runs[n, 1] = start, x
                    n += 1
            x += 1
        if n == 0:
            return found
        first = found
        for r in range(n):
            start, end = runs[r, 0] / scale, runs[r, 1] / scale
            length = end - start
            count = int(round((length + gap) / (short + gap)))
            if count < 1 or abs(length - count * short - (count - 1) * gap) > tolerance:
                return -1
            if found + count > out.shape[0]:
                return -1
            middle = (runs[r, 0] + runs[r, 1]) // 2
            row_top = 0
            while row_top < h and not _column_starts(rest, row_top, middle):
                row_top += 1
            edge = start
            step = length / count
            for k in range(count):
                if k + 1 < count:
                    cut = _seam(grey, place, transposed, start + step * (k + 1),
                                row_top / scale, long, limits)
                    if np.isnan(cut):
                        return -1
                else:
                    cut = end
                u, v = (edge + cut) / 2, row_top / scale + long / 2
                if not _covers(rest, u, v, short, long, scale, inset, share):
                    return -1
                out[found, 0], out[found, 1] = u, v
                found += 1
                edge = cut
        for k in range(first, found):
            u, v = out[k, 0], out[k, 1]
            x0 = max(int(round((u - short / 2 - grown) * scale)), 0)
            x1 = min(int(round((u + short / 2 + grown) * scale)), w)
            y0 = max(int(round((v - long / 2 - grown) * scale)), 0)
            y1 = min(int(round((v + long / 2 + grown) * scale)), h)
            for yy in range(y0, y1):
                for xx in range(x0, x1):
                    rest[yy, xx] = 0


@compiled
def main_direction(corners: Any, spread: float) -> Any:  # pragma: no cover
    """The direction (degrees, mod a quarter turn) of a closed polygon's sides, weighted by
    their length: the peak of their histogram (a degree a bin, each bin with its two
    neighbours), then the mean of the sides within `spread` degrees of it; and the share
    of the polygon's length those sides hold."""
    n = len(corners)
    counts = np.zeros(90)
    angles = np.empty(n)
    lengths = np.empty(n)
    total = 0.0
    for i in range(n):
        j = (i + 1) % n
        dx, dy = corners[j, 0] - corners[i, 0], corners[j, 1] - corners[i, 1]
        lengths[i] = np.hypot(dx, dy)
        angles[i] = np.degrees(np.arctan2(dy, dx)) % 90.0
        counts[int(round(angles[i])) % 90] += lengths[i]
        total += lengths[i]
    peak, best = 0, -1.0
    for b in range(90):
        smooth = counts[b] + counts[(b + 1) % 90] + counts[(b + 89) % 90]
        if smooth > best:
            peak, best = b, smooth
    weight, offset = 0.0, 0.0
    for i in range(n):
        off = (angles[i] - peak + 45.0) % 90.0 - 45.0
        if abs(off) <= spread:
            weight += lengths[i]
            offset += off * lengths[i]
    if weight <= 0.0:
        return np.nan, 0.0
    return peak + offset / weight, weight / total
