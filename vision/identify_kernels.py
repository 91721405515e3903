"""Compiled loops of card identification (vision.identify).

The projection of ten descriptions (10 x 1568 by 1568 x 131) adds each description value
times a row of the projection, in the order numpy's einsum did (so the same float32 sums),
but four rows of the projection at a time while they are in cache, along the row in
vector registers: about 2.5 times faster than einsum, and without BLAS, whose threads
would fight the camera loop for the cores. The edge profiles of a batch of patches are one
pass here instead of three OpenCV and two numpy calls per patch, and the centring and
scaling of the descriptions one pass instead of a dozen numpy calls on small arrays: with
numpy's own summation orders (its pairwise sum along a row, in order across rows) and the
same float32 and float64 steps, so the same bits.

The colour thumbnails (OpenCV's INTER_AREA from 64x88 to 12x16, not a whole factor, so its
general area resize; also the top-down view shrunk eightfold for the mat's light in
vision.cards and an enrolled deck's pictures at its shapes' size in
vision.template_identifier) are OpenCV's sums in OpenCV's order: each output a weighted sum of its
source pixels along the row, the weights OpenCV's float32 ones from its double tables, then
of those row sums down the column, each product and sum rounded to float32 (no fused
multiply-add, as OpenCV's baseline x86 build has none), rounded half to even into uint8.
Eight source rows are summed at once, sharing each tap's index and weight, every output
the same number of taps: about half cv2.resize's time, whose loop keeps its running sums in
memory.

An enrolled deck's pictures are then put against each card's own white (white_balanced):
each channel's percentile level from counts of its 256 levels, and every value over it, in
one pass a batch instead of a dozen numpy calls on small arrays, to the bit. So are its
other steps a card (vision.template_identifier): the ink pictures and the shading taken
out of them (ink_planes, planes_less: numpy's transposed copies cost more than the fit),
the print a lamp clipped (clipped_print), the distances of a card's colours from each
colour's views (view_distances) and the memory's nearest remembered patch (nearest_within):
each numpy's values in one pass.
"""

from __future__ import annotations

import math
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.compiled import compiled, pairwise_sum, pairwise_sum_with


@compiled
def _project(rows: Any, projection: Any) -> Any:  # pragma: no cover
    n, dim = rows.shape
    k = projection.shape[1]
    out = np.zeros((n, k), np.float32)
    full = dim - dim % 4
    for j in range(0, full, 4):
        p0, p1, p2, p3 = projection[j], projection[j + 1], projection[j + 2], projection[j + 3]
        for i in range(n):
            o = out[i]
            r0, r1, r2, r3 = rows[i, j], rows[i, j + 1], rows[i, j + 2], rows[i, j + 3]
            for m in range(k):  # added one value at a time, as one row at a time would
                o[m] = o[m] + r0 * p0[m] + r1 * p1[m] + r2 * p2[m] + r3 * p3[m]
    for j in range(full, dim):
        for i in range(n):
            o, r0, p0 = out[i], rows[i, j], projection[j]
            for m in range(k):
                o[m] = o[m] + r0 * p0[m]
    return out


def project(rows: NDArray[np.float32], projection: NDArray[np.float32]) -> NDArray[np.float32]:
    """rows @ projection in float32, each output summed in the order of the rows' values
    (einsum's "pd,dk->pk" order, not BLAS's blocked one)."""
    out: NDArray[np.float32] = _project(np.ascontiguousarray(rows, np.float32),
                                        np.ascontiguousarray(projection, np.float32))
    return out


@compiled
def edge_profiles(greys: Any) -> tuple[Any, Any]:  # pragma: no cover
    """vision.identify.profiles of a (n, height, width) uint8 batch: per patch the sums of
    the absolute differences of neighbouring pixels across each column gap and each row
    gap (whole numbers, exact in float32), each profile then centred and divided by its
    length plus 1e-6 in float32, as numpy did."""
    n, h, w = greys.shape
    cols = np.zeros((n, w - 1), np.int32)
    rows = np.zeros((n, h - 1), np.int32)
    for i in range(n):
        for y in range(h):
            line = greys[i, y]
            for x in range(w - 1):
                cols[i, x] += abs(np.int32(line[x + 1]) - np.int32(line[x]))
            if y + 1 < h:
                below = greys[i, y + 1]
                for x in range(w):
                    rows[i, y] += abs(np.int32(below[x]) - np.int32(line[x]))
    out_cols, out_rows = cols.astype(np.float32), rows.astype(np.float32)
    for profiles in (out_cols, out_rows):
        for i in range(n):
            profile = profiles[i]
            profile -= pairwise_sum(profile, 0, len(profile)) / np.float32(len(profile))
            squares = profile * profile
            profile /= np.sqrt(pairwise_sum(squares, 0, len(squares))) + np.float32(1e-6)
    return out_cols, out_rows


@compiled
def _scaled(part: Any, out: Any, weight: float, floor: float, squares: Any, parts: Any,
            firsts: Any) -> None:  # pragma: no cover
    """out = part * (weight / (|part| + floor)): the length in float32 as np.linalg.norm
    takes it, the scale and the product in float64, rounded to float32. `squares` (as
    long as part at least), `parts` and `firsts` are scratch (pairwise_sum_with's stack)."""
    count = len(part)
    for j in range(count):
        squares[j] = part[j] * part[j]
    length = np.sqrt(pairwise_sum_with(squares, 0, count, parts, firsts)) + np.float32(floor)
    scale = weight / np.float64(length)
    for j in range(count):
        out[j] = np.float32(np.float64(part[j]) * scale)


@compiled
def description_rows(small: Any, hue: Any, detail: Any, weights: Any,
                     floors: Any) -> Any:  # pragma: no cover
    """vision.identify.describe's rows from a batch's colour thumbnails (n, h, w, 3), hue
    maps (n, h, w, 2) and grey details (n, h, w), all float32: each thumbnail divided by
    1 + its channel means, then centred; each hue map less its channel means; each detail
    centred; each part then scaled to its weight (over its length plus its floor). The
    scratch arrays are made once for the batch, not per patch."""
    n = small.shape[0]
    colour = small.reshape(n, -1, 3)
    hues = hue.reshape(n, -1, 2)
    greys = detail.reshape(n, -1)
    sizes = (colour.shape[1] * 3, hues.shape[1] * 2, greys.shape[1])
    out = np.empty((n, sizes[0] + sizes[1] + sizes[2]), np.float32)
    balanced = np.empty((colour.shape[1], 3), np.float32)
    flat = balanced.reshape(-1)
    centred = np.empty((hues.shape[1], 2), np.float32)
    row = np.empty(greys.shape[1], np.float32)
    squares = np.empty(max(sizes[0], sizes[1], sizes[2]), np.float32)
    parts, firsts = np.empty((3, 64), np.int64), np.empty(64, np.float32)
    for i in range(n):
        for c in range(3):
            total = np.float32(0.0)
            for p in range(colour.shape[1]):  # in order, as numpy sums across rows
                total += colour[i, p, c]
            divisor = total / np.float32(colour.shape[1]) + np.float32(1.0)
            for p in range(colour.shape[1]):
                balanced[p, c] = colour[i, p, c] / divisor
        mean = pairwise_sum_with(flat, 0, len(flat), parts, firsts) / np.float32(len(flat))
        for j in range(len(flat)):
            flat[j] = flat[j] - mean
        _scaled(flat, out[i, : sizes[0]], weights[0], floors[0], squares, parts, firsts)
        for c in range(2):
            total = np.float32(0.0)
            for p in range(hues.shape[1]):
                total += hues[i, p, c]
            mean = total / np.float32(hues.shape[1])
            for p in range(hues.shape[1]):
                centred[p, c] = hues[i, p, c] - mean
        _scaled(centred.reshape(-1), out[i, sizes[0] : sizes[0] + sizes[1]], weights[1],
                floors[1], squares, parts, firsts)
        grey = greys[i]
        mean = pairwise_sum_with(grey, 0, len(grey), parts, firsts) / np.float32(len(grey))
        for j in range(len(grey)):
            row[j] = grey[j] - mean
        _scaled(row, out[i, sizes[0] + sizes[1] :], weights[2], floors[2], squares, parts,
                firsts)
    return out


@compiled
def _area_table(size: int, new_size: int, scale: float) -> tuple[Any, Any, Any]:  # pragma: no cover
    """OpenCV's table of INTER_AREA (computeResizeAreaTab): per output index, in order, the
    source indices its cell covers and their weights, the cell's share of each (its ends
    partial) over the cell's width, in double and then rounded to float32. Returns (output
    index, source index, weight) arrays, sorted by output then source."""
    outs = np.empty(2 * size + 2, np.int64)
    sources = np.empty(2 * size + 2, np.int64)
    weights = np.empty(2 * size + 2, np.float32)
    k = 0
    for d in range(new_size):
        start = d * scale
        end = start + scale
        cell = min(scale, size - start)
        first = int(math.ceil(start))
        last = min(int(math.floor(end)), size - 1)
        first = min(first, last)
        if first - start > 1e-3:
            outs[k], sources[k] = d, first - 1
            weights[k] = np.float32((first - start) / cell)
            k += 1
        for s in range(first, last):
            outs[k], sources[k], weights[k] = d, s, np.float32(1.0 / cell)
            k += 1
        if end - last > 1e-3:
            outs[k], sources[k] = d, last
            weights[k] = np.float32(min(min(end - last, 1.0), cell) / cell)
            k += 1
    return outs[:k], sources[:k], weights[:k]


@compiled
def _row_taps(width: int, new_width: int, channels: int) -> tuple[Any, Any]:  # pragma: no cover
    """The horizontal table as (taps, new_width * channels) arrays of source offsets in a
    row and weights, one column per output value: every output the same number of taps
    (padded at its end with weight 0, which adds exactly 0), so the loop over taps has a
    fixed length and no branch to mispredict."""
    outs, sources, weights = _area_table(width, new_width, 1.0 / (new_width / width))
    counts = np.zeros(new_width, np.int64)
    for k in range(len(outs)):
        counts[outs[k]] += 1
    taps = counts.max()
    offsets = np.zeros((taps, new_width * channels), np.int64)
    tap_weights = np.zeros((taps, new_width * channels), np.float32)
    seen = np.zeros(new_width, np.int64)
    for k in range(len(outs)):
        d = outs[k]
        for c in range(channels):
            offsets[seen[d], d * channels + c] = sources[k] * channels + c
            tap_weights[seen[d], d * channels + c] = weights[k]
        seen[d] += 1
    return offsets, tap_weights


@compiled
def _resize_area(image: Any, new_width: int, new_height: int) -> Any:  # pragma: no cover
    """cv2.resize(image, (new_width, new_height), interpolation=INTER_AREA) of a (height,
    width, channels) uint8 image when OpenCV takes its general area path (resizeArea_):
    each source row's weighted sums along the row (started from the first product, as
    OpenCV's 0 plus it), eight rows at a time; then per output row the first of its source
    rows' sums times its weight, the others' products added in order; rounded half to even
    and saturated."""
    height, width, channels = image.shape
    flat = image.reshape(height, width * channels)
    offsets, weights = _row_taps(width, new_width, channels)
    taps, row_width = offsets.shape
    sums = np.empty((height + 7, row_width), np.float32)  # (the last block's spare rows)
    lines = np.zeros((8, width * channels), np.float32)
    for r0 in range(0, height, 8):
        for r in range(min(8, height - r0)):
            for s in range(width * channels):
                lines[r, s] = np.float32(flat[r0 + r, s])
        l0, l1, l2, l3, l4, l5, l6, l7 = (lines[0], lines[1], lines[2], lines[3], lines[4],
                                          lines[5], lines[6], lines[7])
        for i in range(row_width):
            s, a = offsets[0, i], weights[0, i]
            s0, s1, s2, s3 = l0[s] * a, l1[s] * a, l2[s] * a, l3[s] * a
            s4, s5, s6, s7 = l4[s] * a, l5[s] * a, l6[s] * a, l7[s] * a
            for t in range(1, taps):
                s, a = offsets[t, i], weights[t, i]
                s0 += l0[s] * a
                s1 += l1[s] * a
                s2 += l2[s] * a
                s3 += l3[s] * a
                s4 += l4[s] * a
                s5 += l5[s] * a
                s6 += l6[s] * a
                s7 += l7[s] * a
            sums[r0, i], sums[r0 + 1, i], sums[r0 + 2, i], sums[r0 + 3, i] = s0, s1, s2, s3
            sums[r0 + 4, i], sums[r0 + 5, i], sums[r0 + 6, i], sums[r0 + 7, i] = s4, s5, s6, s7
    outs, sources, betas = _area_table(height, new_height, 1.0 / (new_height / height))
    out = np.empty((new_height, row_width), np.uint8)
    total = np.empty(row_width, np.float32)
    for k in range(len(outs)):
        d, line, beta = outs[k], sums[sources[k]], betas[k]
        if k == 0 or outs[k - 1] != d:
            for i in range(row_width):
                total[i] = beta * line[i]
        else:
            for i in range(row_width):
                total[i] += beta * line[i]
        if k + 1 == len(outs) or outs[k + 1] != d:
            for i in range(row_width):
                value = min(max(np.rint(total[i]), np.float32(0.0)), np.float32(255.0))
                out[d, i] = np.uint8(value)
    return out.reshape(new_height, new_width, channels)


def _area_scale(size: int, new_size: int) -> float:
    """OpenCV's scale of an axis (the inverse of its inverse), in double."""
    return 1.0 / (new_size / size)


def _whole(scale: float) -> bool:
    """Whether OpenCV takes a scale for a whole number (its fast area path if both are)."""
    return abs(scale - round(scale)) < float(np.finfo(np.float64).eps)


def resize_area(patches: NDArray[np.uint8], size: tuple[int, int]) -> NDArray[np.uint8]:
    """Each uint8 patch of a (n, height, width[, channels]) batch resized (INTER_AREA) to
    (width, height): cv2.resize's values bit for bit, taken on the patches stacked one
    above another as vision.identify does. Compiled where OpenCV takes its general area
    path (both ways shrinking, at least one by a factor not a whole number), OpenCV's own
    call elsewhere (its whole-factor and enlarging paths are fast)."""
    n, height, width = patches.shape[:3]
    (new_width, new_height), rest = size, patches.shape[3:]
    channels = rest[0] if rest else 1
    if not n:
        return np.empty((0, new_height, new_width) + rest, np.uint8)
    stack = np.ascontiguousarray(patches).reshape(n * height, width, channels)
    scales = (_area_scale(width, new_width), _area_scale(n * height, n * new_height))
    if (patches.dtype != np.uint8 or not 1 <= channels <= 4 or min(scales) < 1.0
            or (_whole(scales[0]) and _whole(scales[1]))):
        opencv = cv2.resize(stack, (new_width, n * new_height), interpolation=cv2.INTER_AREA)
        return np.asarray(opencv, patches.dtype).reshape((n, new_height, new_width) + rest)
    out: NDArray[np.uint8] = _resize_area(stack, new_width, n * new_height)
    return out.reshape((n, new_height, new_width) + rest)


@compiled
def white_balanced(small: Any, percentile: float) -> Any:  # pragma: no cover
    """Each uint8 picture of a (n, height, width, channels) batch, 4 added, over its
    channel's `percentile` level (4 added), capped at 1, in float32, and those levels,
    (n, channels): each level np.percentile's to the bit (its linear interpolation between
    the two values around the rank, read from counts of the 256 levels, not a sort), and
    each value numpy's (x + 4) / level."""
    n, height, width, channels = small.shape
    rank = percentile / 100 * (height * width - 1)
    below = int(rank)
    share = np.float32(1 - (rank - below))
    counts = np.zeros((channels, 256), np.int64)
    whites = np.empty((n, channels), np.float32)
    out = np.empty((n, height, width, channels), np.float32)
    for i in range(n):
        levels = whites[i]
        counts[:] = 0
        for y in range(height):
            for x in range(width):
                for c in range(channels):
                    counts[c, small[i, y, x, c]] += 1
        for c in range(channels):
            low, high, upto = 256, 256, 0  # the first levels beyond ranks below, below + 1
            for level in range(256):
                upto += counts[c, level]
                if low == 256 and upto > below:
                    low = level
                if upto > below + 1:
                    high = level
                    break
            top = np.float32(high) + np.float32(4.0)
            levels[c] = top - (top - (np.float32(low) + np.float32(4.0))) * share
        for y in range(height):
            for x in range(width):
                for c in range(channels):
                    out[i, y, x, c] = min((np.float32(small[i, y, x, c]) + np.float32(4.0))
                                          / levels[c], np.float32(1.0))
    return out, whites


@compiled
def hue_histograms(img: Any, hsv: Any, bins: int, saturated: Any, dark: Any, least: Any,
                   rows: int, cols: int, part_least: Any) -> tuple[Any, Any]:  # pragma: no cover
    """The colours of `balanced` pictures (n, height, width, 3) whose OpenCV HSV (n *
    height, width, 3) is given, as vision.template_identifier.hues() describes them,
    (n, bins + 1), in numpy's float32 steps to the bit: each saturated pixel's weight (a
    ramp from saturated[0] over saturated[1]; none at dark[0] or darker) shared between
    the two bins nearest its hue (bin k's middle at k), each bin's shares added in float64
    in the pixels' order (as np.bincount adds them) and put into float32 after each of the
    two shares, then the share of black (a ramp down from dark[1] over dark[2]), the
    histogram over its total (at least `least`), both summed as numpy sums a row. And in
    the same pass the same of each of rows x cols parts of each picture (height and width
    whole multiples of them), each as if it were a picture of its own (at least
    `part_least`), (n, rows * cols, bins + 1), the parts row by row."""
    n, height, width = img.shape[0], img.shape[1], img.shape[2]
    size = height * width
    part_height, part_width = height // rows, width // cols
    count, part_size = rows * cols, (height // rows) * (width // cols)
    out = np.zeros((n, bins + 1), np.float32)
    parts = np.zeros((n, count, bins + 1), np.float32)
    lower, upper = np.zeros(bins), np.zeros(bins)  # each bin's sums from its two shares
    part_lower, part_upper = np.zeros((count, bins)), np.zeros((count, bins))
    black = np.empty(size, np.float32)
    part_black = np.empty((count, part_size), np.float32)
    one, eps = np.float32(1.0), np.float32(1e-3)
    for i in range(n):
        lower[:] = 0.0
        upper[:] = 0.0
        part_lower[:] = 0.0
        part_upper[:] = 0.0
        for y in range(height):
            row, part_y = y // part_height, y % part_height
            for x in range(width):
                part = row * cols + x // part_width
                b, g, r = img[i, y, x, 0], img[i, y, x, 1], img[i, y, x, 2]
                low, top = min(min(b, g), r), max(max(b, g), r)
                weight = min(max(((top - low) / (top + eps) - saturated[0]) / saturated[1],
                                 np.float32(0.0)), one)
                if weight > np.float32(0.0) and top > dark[0]:  # (a weight 0 adds +0.0)
                    place = hsv[i * height + y, x, 0] / np.float32(360.0) * np.float32(bins) \
                        - np.float32(0.5)
                    below = np.floor(place)
                    share = place - below
                    k = int(below)  # (a hue in [0, 360): from -1 to bins - 1)
                    k = k + bins if k < 0 else k
                    above = k + 1 if k + 1 < bins else 0
                    first = np.float64(weight * (one - share))
                    second = np.float64(weight * share)
                    lower[k] += first
                    upper[above] += second
                    part_lower[part, k] += first
                    part_upper[part, above] += second
                dark_share = min(max((dark[1] - top) / dark[2], np.float32(0.0)), one)
                black[y * width + x] = dark_share
                part_black[part, part_y * part_width + x % part_width] = dark_share
        _normalised(out[i], lower, upper, black, size, least)
        for part in range(count):
            _normalised(parts[i, part], part_lower[part], part_upper[part], part_black[part],
                        part_size, part_least)
    return out, parts


@compiled
def _normalised(row: Any, lower: Any, upper: Any, black: Any, size: int,
                least: Any) -> None:  # pragma: no cover
    """A histogram's row from its bins' two sums and its pixels' black (hue_histograms)."""
    bins = lower.shape[0]
    for k in range(bins):
        row[k] = np.float32(np.float64(np.float32(lower[k])) + upper[k])
    row[bins] = np.float32(0.5) * pairwise_sum(black, 0, size)
    total = max(pairwise_sum(row, 0, bins + 1), least)
    for k in range(bins + 1):
        row[k] = row[k] / total


@compiled
def part_distances(parts: Any, views: Any, starts: Any) -> Any:  # pragma: no cover
    """How far each part of each picture's colours (n, parts, bins) lies from the same part
    of each colour's nearest view (views (v, parts, bins), colour by colour, `starts`:
    where each colour's views begin), or from the part turned onto it (parts row by row,
    so the last is the first turned half a turn), whichever is nearer: half the sum of the
    bins' differences, (n, parts, colours). One pass instead of numpy's broadcast of every
    part against every view twice (0.16 ms a batch of ten, more than the histograms)."""
    n, count, bins = parts.shape
    colours, total = starts.shape[0], views.shape[0]
    out = np.empty((n, count, colours), np.float32)
    for i in range(n):
        for k in range(count):
            turned = count - 1 - k
            for c in range(colours):
                end = starts[c + 1] if c + 1 < colours else total
                best = np.float32(np.inf)
                for v in range(starts[c], end):
                    same, other = np.float32(0.0), np.float32(0.0)
                    for b in range(bins):
                        same += abs(parts[i, k, b] - views[v, k, b])
                        other += abs(parts[i, k, b] - views[v, turned, b])
                    best = min(best, same, other)
                out[i, k, c] = np.float32(0.5) * best
    return out


@compiled
def clipped_print(picture: Any, whites: Any, at_clip: Any, every: bool, printing: Any,
                  clip: int, share: float) -> int:  # pragma: no cover
    """How many pixels of a uint8 picture (height, width, 3) the camera clipped on print: at
    `clip` or above in a channel of `at_clip` (in every one of them, if `every`), and print
    in a channel of `printing` ((value + 4) / its white level, float64 as numpy's, below
    `share`). One pass, not numpy's dozen over the picture."""
    height, width = picture.shape[0], picture.shape[1]
    count = 0
    for y in range(height):
        for x in range(width):
            hits, clips, printed = 0, 0, False
            for c in range(3):
                value = picture[y, x, c]
                if at_clip[c]:
                    clips += 1
                    hits += value >= clip
                if printing[c] and (np.float64(value) + 4.0) / np.float64(whites[c]) < share:
                    printed = True
            if printed and (hits == clips if every else hits > 0):
                count += 1
    return count


@compiled
def ink_planes(pictures: Any) -> Any:  # pragma: no cover
    """The two ink channels of `balanced` pictures (n, height, width, 3 of float32), each a
    row of a (n * 2, height * width) array (a picture's first channel, then its second):
    1 minus each pixel's lowest channel, and 1 minus the mean of its lowest and highest,
    in float32 as numpy's steps (template_identifier.ink)."""
    n, height, width = pictures.shape[0], pictures.shape[1], pictures.shape[2]
    out = np.empty((2 * n, height * width), np.float32)
    one, two = np.float32(1.0), np.float32(2.0)
    for i in range(n):
        for y in range(height):
            for x in range(width):
                b, g, r = pictures[i, y, x, 0], pictures[i, y, x, 1], pictures[i, y, x, 2]
                low, high = min(min(b, g), r), max(max(b, g), r)
                out[2 * i, y * width + x] = one - low
                out[2 * i + 1, y * width + x] = one - (low + high) / two
    return out


@compiled
def planes_less(planes: Any, shading: Any, n: int, height: int, width: int, channels: int
                ) -> Any:  # pragma: no cover
    """Pictures' channel planes (n * channels, height * width: a picture's channels in
    turn) less their shading (the same shape), channels last again: (n, height, width,
    channels), float32, each difference numpy's."""
    out = np.empty((n, height, width, channels), np.float32)
    for i in range(n):
        for c in range(channels):
            row, less = planes[i * channels + c], shading[i * channels + c]
            for y in range(height):
                for x in range(width):
                    out[i, y, x, c] = row[y * width + x] - less[y * width + x]
    return out


@compiled
def view_distances(hists: Any, views: Any, starts: Any) -> Any:  # pragma: no cover
    """How far each histogram (n, bins) lies from each colour's nearest view (views (v,
    bins), colour by colour, `starts`: where each colour's views begin): half the sum of
    the bins' differences, (n, colours), numpy's float32 steps to the bit (each
    difference, its pairwise sum of a row, the half), in one pass instead of a broadcast
    of every histogram against every view."""
    n, bins = hists.shape
    colours, total = starts.shape[0], views.shape[0]
    out = np.empty((n, colours), np.float32)
    apart = np.empty(bins, np.float32)
    half = np.float32(0.5)
    for i in range(n):
        for c in range(colours):
            end = starts[c + 1] if c + 1 < colours else total
            best = np.float32(np.inf)
            for v in range(starts[c], end):
                for b in range(bins):
                    apart[b] = abs(hists[i, b] - views[v, b])
                best = min(best, half * pairwise_sum(apart, 0, bins))
            out[i, c] = best
    return out


@compiled
def nearest_within(rows: Any, kept: Any, tolerance: float) -> Any:  # pragma: no cover
    """For each row, the first of the kept rows (2-d, float32 both) whose largest absolute
    difference from it is least, where that is at most `tolerance`; else -1. A kept row is
    left as soon as one difference passes the tolerance (what numpy's whole comparison of
    every row with every kept one spent most of its time on)."""
    out = np.full(rows.shape[0], -1, np.int64)
    for i in range(rows.shape[0]):
        best = np.float32(np.inf)
        for j in range(kept.shape[0]):
            worst = np.float32(0.0)
            for k in range(rows.shape[1]):
                worst = max(worst, abs(rows[i, k] - kept[j, k]))
                if worst > tolerance:
                    break
            if worst <= tolerance and worst < best:
                best, out[i] = worst, j
    return out
