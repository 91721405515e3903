"""Compiled loops of finding a tile's edges in its brightness profiles (vision.tile_rows).

One pass over each profile finds its edge on either side and the shift of its tile, where
numpy's whole-array steps made a small array each (some fifty steps a blob and axis, most
of a tile frame's time in the seams). The arithmetic is the same, in the same order: the
dip depth in float32 as OpenCV's dilation of the float32 profiles gave it, the medians
the ones numpy's partition picks, rounding half to even; so the shifts are the same to
the bit.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from vision.compiled import compiled, inlined

Floats = NDArray[np.float64]


@compiled
def _kth_smallest(values: Any, k: int, scratch: Any) -> float:  # pragma: no cover
    """np.partition(values, k)[k] of a few values (sorted by insertion in `scratch`, a
    float64 array at least as long)."""
    v = scratch[:len(values)]
    for i in range(len(values)):
        v[i] = values[i]
    for i in range(1, len(v)):
        x, j = v[i], i - 1
        while j >= 0 and v[j] > x:
            v[j + 1] = v[j]
            j -= 1
        v[j + 1] = x
    return float(v[k])


@compiled
def _dip_depth(profile: Any, valley: int, out: Any) -> None:  # pragma: no cover
    """Per sample, how much darker it is than both sides (tile_rows' dip depth): the lesser
    of the brightest levels within `valley` samples before it and after it, in float32."""
    m = len(profile)
    for j in range(m):
        left = np.float32(profile[j])
        for i in range(max(j - valley, 0), j):
            left = max(left, np.float32(profile[i]))
        right = np.float32(profile[j])
        for i in range(j + 1, min(j + valley + 1, m)):
            right = max(right, np.float32(profile[i]))
        out[j] = np.float64(min(left, right) - np.float32(profile[j]))


@compiled
def _seam(profile: Any, depth: Any, low: int, high: int, level: float, min_dip: float,
          rim: float) -> float:  # pragma: no cover
    """The deepest dip from sample low to high, to a fraction of a sample; NaN if none."""
    k, dip = low, depth[low]
    for i in range(low + 1, high + 1):
        if depth[i] > dip:
            k, dip = i, depth[i]
    at_k, a, c = profile[k], profile[k - 1], profile[k + 1]
    bend = a - 2 * at_k + c  # > 0 at a dip
    vertex = min(max(0.5 * (a - c) / (bend if bend > 0 else np.inf), -0.5), 0.5)
    if dip >= min_dip * level and dip + at_k >= rim * level and low < k < high:
        return float(k + vertex)
    return np.nan


@compiled
def seam_in(profile: Any, low: int, high: int, level: float, valley: int, min_dip: float,
            rim: float) -> float:  # pragma: no cover
    """The deepest dip of one profile from sample low to high, its sides' brightness read
    `valley` samples either side (tile_rows._seams); NaN where there is none."""
    depth = np.empty(len(profile))
    _dip_depth(profile, valley, depth)
    return _seam(profile, depth, low, high, level, min_dip, rim)


@compiled
def _free_side(profile: Any, low: int, high: int, expected: float, level: float, sign: int,
               min_rise: float, rim: float, rim_steps: Any) -> float:  # pragma: no cover
    """Where the profile crosses halfway between the card and the mat beyond it from
    sample low to high, nearest `expected`, the card as bright just inside; else NaN."""
    m = len(profile)
    scratch = np.empty(m)
    outside = profile[:low] if sign < 0 else profile[high + 1:]
    mat = _kth_smallest(outside, len(outside) // 2, scratch)
    halfway = (level + mat) / 2
    nearest, j = np.inf, 0
    for i in range(high - low):
        bright, next_bright = profile[low + i] >= halfway, profile[low + i + 1] >= halfway
        if next_bright != bright and next_bright == (sign < 0):
            gap = abs((i + low) + 0.5 - expected)
            if gap < nearest:
                nearest, j = gap, i
    before, after = profile[low + j], profile[low + j + 1]
    at = (low + j) + (halfway - before) / (after - before if after != before else 1.0)
    inside = np.empty(len(rim_steps))
    for r in range(len(rim_steps)):
        index = min(max(np.rint(at + sign * rim_steps[r]), 0.0), m - 1.0)
        inside[r] = profile[int(index)]
    rim_level = _kth_smallest(inside, len(rim_steps) // 2, scratch)
    if np.isfinite(nearest) and level - mat >= min_rise and rim_level >= rim * level:
        return float(at)
    return np.nan


@inlined
def _clamped(index: int, size: int) -> int:  # pragma: no cover
    """A slice's bound as slice.indices(size) takes it (from the end if negative)."""
    if index < 0:
        index += size
        return max(index, 0)
    return min(index, size)


@compiled
def shifts(profiles: Any, near: Any, side_mm: float, step: float, search: float, valley: int,
           limits: Any, rim_steps: Any) -> Any:  # pragma: no cover
    """Per tile (a row of `profiles`, each centred on it), how far (mm) its centre moves
    along the profiles' axis (tile_rows._shifts): `near` whether a neighbour lies before
    and after it, `side_mm` its side along the axis, `step` between samples (mm), its
    edges looked for within `search` mm of where the outline puts them, `limits`
    (MIN_DIP, RIM, MIN_RISE). Its brightness is the median of the middle 0.6 of its
    profile (Python's round, half to even, and slice.indices)."""
    n, m = profiles.shape
    middle = m // 2
    half = side_mm / 2 / step
    inner = (_clamped(int(np.rint(middle - 0.6 * half)), m),
             _clamped(int(np.rint(middle + 0.6 * half)) + 1, m))
    expected = np.array([middle - half, middle + half])
    window = search / step
    windows = np.empty((2, 2), np.int64)
    for k in range(2):
        windows[k, 0] = max(1, int(np.floor(expected[k] - window)))
        windows[k, 1] = min(m - 2, int(np.ceil(expected[k] + window)))
    min_dip, rim, min_rise = limits[0], limits[1], limits[2]
    out = np.zeros(n)
    depth, scratch = np.empty(m), np.empty(m)
    edges = np.empty(2)
    for t in range(n):
        profile = profiles[t]
        level = _kth_smallest(profile[inner[0]:inner[1]], (inner[1] - inner[0]) // 2, scratch)
        if near[t, 0] or near[t, 1]:
            _dip_depth(profile, valley, depth)
        for side in range(2):
            low, high = windows[side, 0], windows[side, 1]
            if near[t, side]:
                edges[side] = _seam(profile, depth, low, high, level, min_dip, rim)
            else:
                edges[side] = _free_side(profile, low, high, expected[side], level,
                                         2 * side - 1, min_rise, rim, rim_steps)
        before, after = edges[0], edges[1]
        if not np.isnan(before) and not np.isnan(after):
            out[t] = ((before + after) / 2 - middle) * step
        elif not np.isnan(before):
            out[t] = (before + half - middle) * step
        elif not np.isnan(after):
            out[t] = (after - half - middle) * step
    return out


@compiled
def line_points(centre: Any, unit: Any, other: Any, t: Any, s: Any,
                px_per_mm: float) -> Any:  # pragma: no cover
    """The view pixels (x and y, float32) of lines along `other` (a row each, s mm from
    `centre` along it), each sampled at t mm along `unit` (a column each): ((centre + t
    unit) + s other) px_per_mm, rounded once to float32 as numpy's broadcast steps round
    it."""
    xs = np.empty(len(s) * len(t), np.float32)
    ys = np.empty(len(s) * len(t), np.float32)
    _put_lines(xs, ys, 0, centre, unit, other, t, s, px_per_mm)
    return xs.reshape(len(s), len(t)), ys.reshape(len(s), len(t))


@compiled
def _put_lines(xs: Any, ys: Any, at: int, centre: Any, unit: Any, other: Any, t: Any, s: Any,
               px_per_mm: float) -> int:  # pragma: no cover
    """line_points' pixels written into flat `xs` and `ys` from `at`, line after line; where
    the next pixel goes after them."""
    along_x, along_y = centre[0] + t * unit[0], centre[1] + t * unit[1]
    for j in range(len(s)):
        across_x, across_y = s[j] * other[0], s[j] * other[1]
        for i in range(len(t)):
            xs[at] = np.float32((along_x[i] + across_x) * px_per_mm)
            ys[at] = np.float32((along_y[i] + across_y) * px_per_mm)
            at += 1
    return at


@compiled
def arange(start: float, stop: float, step: float) -> Any:  # pragma: no cover
    """np.arange(start, stop, step) of floats as numpy fills it: ceil((stop - start) / step)
    values, the first `start`, the second `start + step`, the i-th `start` plus i times
    the difference of those two."""
    count = max(int(np.ceil((stop - start) / step)), 0)
    out = np.empty(count)
    if count > 0:
        out[0] = start
    if count > 1:
        out[1] = start + step
        delta = out[1] - start
        for i in range(2, count):
            out[i] = start + i * delta
    return out


@compiled
def linspace(start: float, stop: float, count: int) -> Any:  # pragma: no cover
    """np.linspace(start, stop, count) of floats (start < stop) as numpy makes it: i times
    the step, plus `start`; the last value `stop` itself."""
    out = np.empty(count)
    step = (stop - start) / (count - 1) if count > 1 else np.nan
    for i in range(count):
        out[i] = i * step + start
    if count > 1:
        out[count - 1] = stop
    return out


@compiled
def profile_points(centres: Any, short_units: Any, long_units: Any, reaches: Any,
                   spans: Any, rows: Any, step: float,
                   px_per_mm: float) -> Any:  # pragma: no cover
    """The view pixels (x and y, float32) of every tile's profiles along both its axes
    (tile_rows._profiles), a row per tile: its lines along its short axis, then those
    along its long one (`rows` of them from -span to +span mm across the axis:
    `linspace`), each line's samples -reach to +reach mm about its centre, `step` apart
    (`arange`), at ((centre + t axis) + s other axis) px_per_mm rounded once to float32,
    as line_points; and how many samples a line has along each axis."""
    n = len(centres)
    t0 = arange(-reaches[0], reaches[0] + step / 2, step)
    t1 = arange(-reaches[1], reaches[1] + step / 2, step)
    s0, s1 = linspace(-spans[0], spans[0], rows[0]), linspace(-spans[1], spans[1], rows[1])
    width = len(t0) * len(s0) + len(t1) * len(s1)
    xs = np.empty((n, width), np.float32)
    ys = np.empty((n, width), np.float32)
    for card in range(n):
        at = _put_lines(xs[card], ys[card], 0, centres[card], short_units[card],
                        long_units[card], t0, s0, px_per_mm)
        _put_lines(xs[card], ys[card], at, centres[card], long_units[card], short_units[card],
                   t1, s1, px_per_mm)
    return xs, ys, len(t0), len(t1)


@compiled
def _bubble_passes(lines: Any, passes: int) -> None:  # pragma: no cover
    """Sort the columns of `lines` (rows of samples) in place, as far as `passes` passes of
    whole rows take them: each pair of rows in turn ordered by their least and greatest
    sample by sample (whole rows at once: the compiler does many samples an instruction),
    each pass putting the greatest left of every column in its place, from the last row."""
    count, samples = lines.shape
    for done in range(passes):
        for j in range(count - 1 - done):
            low, high = lines[j], lines[j + 1]
            for i in range(samples):
                a, b = low[i], high[i]
                low[i], high[i] = min(a, b), max(a, b)


@compiled
def _line_medians(lines: Any, out: Any) -> None:  # pragma: no cover
    """Per sample (a column of `lines`: an odd number of rows of uint8, sorted in place
    as far as needed), the middle value of its column as float64, in `out`: bubble passes
    (_bubble_passes) until the middle row holds the middle values, the median of each
    column as np.median gives it."""
    count, samples = lines.shape
    _bubble_passes(lines, count // 2 + 1)
    middle = lines[count // 2]
    for i in range(samples):
        out[i] = float(middle[i])


@compiled
def profile_medians(strip: Any, samples: Any, rows: Any) -> Any:  # pragma: no cover
    """The two profiles of each tile (a row of `strip`, remapped at profile_points' pixels:
    rows[0] lines of samples[0] along its short axis, then rows[1] lines of samples[1]
    along its long one): the median across the lines at each sample, (tiles, samples[0])
    and (tiles, samples[1])."""
    n = strip.shape[0]
    short = np.empty((n, samples[0]))
    long = np.empty((n, samples[1]))
    first = rows[0] * samples[0]
    for card in range(n):
        line = strip[card]
        _line_medians(line[:first].copy().reshape(rows[0], samples[0]), short[card])
        _line_medians(line[first:first + rows[1] * samples[1]].copy().reshape(
            rows[1], samples[1]), long[card])
    return short, long


@compiled
def column_quantiles(lines: Any, q: float) -> Any:  # pragma: no cover
    """np.quantile(lines, q, axis=0) of uint8 rows, in float64 (sorted in place as far as
    needed): numpy's linear interpolation between the two values about the q-th of each
    column, once bubble passes (_bubble_passes) have put both those values in their
    place."""
    count, samples = lines.shape
    virtual = (count - 1) * q
    below = int(np.floor(virtual))
    gamma = virtual - below
    _bubble_passes(lines, count - below)
    out = np.empty(samples)
    for i in range(samples):
        a = float(lines[below, i])
        if below + 1 >= count:  # q = 1: the largest
            out[i] = a
            continue
        b = float(lines[below + 1, i])
        out[i] = a + (b - a) * gamma if gamma < 0.5 else b - (b - a) * (1 - gamma)
    return out


@compiled
def neighbours(along: Any, off: Any, turned: Any, limits: Any) -> Any:  # pragma: no cover
    """Per card i (rows of a tile_rows._Layout.apart pair), whether a card j lies beside it
    before it and after it along the axis (two columns): `limits` (NEIGHBOUR's two,
    ASKEW, TURNED_DEG). One pass over the few cards of a blob, where numpy's whole-matrix
    steps cost a microsecond each."""
    n = along.shape[0]
    out = np.zeros((n, 2), np.bool_)
    for i in range(n):
        for j in range(n):
            apart = abs(along[i, j])
            if (off[i, j] <= limits[2] and limits[0] <= apart <= limits[1]
                    and turned[i, j] <= limits[3]):
                if along[i, j] < 0:
                    out[i, 0] = True
                elif along[i, j] > 0:
                    out[i, 1] = True
    return out


@compiled
def gap_pairs(along: Any, off: Any, turned: Any, max_gap: int,
              limits: Any) -> Any:  # pragma: no cover
    """The pairs (i, j, cards missing between them) of tile_rows._gap_pairs, in the order
    of (i, j): card j lies a whole number of card sides (2 to max_gap + 1, each within
    NEIGHBOUR of it) after card i along i's axis, in line and turned alike (`limits` as
    `neighbours` takes them). The steps are numpy's: rounded half to even, then clipped."""
    n = along.shape[0]
    out = []
    for i in range(n):
        for j in range(n):
            steps = min(max(np.rint(along[i, j]), 2.0), max_gap + 1.0)
            if (steps * limits[0] <= along[i, j] <= steps * limits[1]
                    and off[i, j] <= limits[2] and turned[i, j] <= limits[3]):
                out.append((i, j, int(steps) - 1))
    return out


@compiled
def layout_matrices(centres: Any, short_units: Any, long_units: Any, short_side: float,
                    long_side: float, angles: Any,
                    quarter_deg: float) -> Any:  # pragma: no cover
    """For each card i (rows) and card j (columns) of a blob (tile_rows._layout): how many
    short sides and how many long sides card j lies from card i along i's axes, how many
    degrees they are turned from each other, and whether that is a quarter turn (within
    `quarter_deg`). The arithmetic of numpy's steps (the einsum's two products added to
    nothing, then divided; the angles' remainder as Python's), a few cards in one pass."""
    n = len(centres)
    along_short, along_long = np.empty((n, n)), np.empty((n, n))
    turned, quarter = np.empty((n, n)), np.empty((n, n), np.bool_)
    for i in range(n):
        for j in range(n):
            dx, dy = centres[j, 0] - centres[i, 0], centres[j, 1] - centres[i, 1]
            along_short[i, j] = (dx * short_units[i, 0] + dy * short_units[i, 1]) / short_side
            along_long[i, j] = (dx * long_units[i, 0] + dy * long_units[i, 1]) / long_side
            turned[i, j] = abs((angles[j] - angles[i] + 90) % 180 - 90)
            quarter[i, j] = abs(turned[i, j] - 90) <= quarter_deg
    return along_short, along_long, turned, quarter
