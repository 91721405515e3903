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
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from vision.compiled import compiled, pairwise_sum


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
def _scaled(part: Any, out: Any, weight: float, floor: float) -> None:  # pragma: no cover
    """out = part * (weight / (|part| + floor)): the length in float32 as np.linalg.norm
    takes it, the scale and the product in float64, rounded to float32."""
    squares = part * part
    length = np.sqrt(pairwise_sum(squares, 0, len(part))) + np.float32(floor)
    scale = weight / np.float64(length)
    for j in range(len(part)):
        out[j] = np.float32(np.float64(part[j]) * scale)


@compiled
def description_rows(small: Any, hue: Any, detail: Any, weights: Any,
                     floors: Any) -> Any:  # pragma: no cover
    """vision.identify.describe's rows from a batch's colour thumbnails (n, h, w, 3), hue
    maps (n, h, w, 2) and grey details (n, h, w), all float32: each thumbnail divided by
    1 + its channel means, then centred; each hue map less its channel means; each detail
    centred; each part then scaled to its weight (over its length plus its floor)."""
    n = small.shape[0]
    colour = small.reshape(n, -1, 3)
    hues = hue.reshape(n, -1, 2)
    greys = detail.reshape(n, -1)
    sizes = (colour.shape[1] * 3, hues.shape[1] * 2, greys.shape[1])
    out = np.empty((n, sizes[0] + sizes[1] + sizes[2]), np.float32)
    for i in range(n):
        balanced = np.empty((colour.shape[1], 3), np.float32)
        for c in range(3):
            total = np.float32(0.0)
            for p in range(colour.shape[1]):  # in order, as numpy sums across rows
                total += colour[i, p, c]
            divisor = total / np.float32(colour.shape[1]) + np.float32(1.0)
            for p in range(colour.shape[1]):
                balanced[p, c] = colour[i, p, c] / divisor
        flat = balanced.reshape(-1)
        flat = flat - pairwise_sum(flat, 0, len(flat)) / np.float32(len(flat))
        _scaled(flat, out[i, : sizes[0]], weights[0], floors[0])
        centred = np.empty((hues.shape[1], 2), np.float32)
        for c in range(2):
            total = np.float32(0.0)
            for p in range(hues.shape[1]):
                total += hues[i, p, c]
            mean = total / np.float32(hues.shape[1])
            for p in range(hues.shape[1]):
                centred[p, c] = hues[i, p, c] - mean
        _scaled(centred.reshape(-1), out[i, sizes[0] : sizes[0] + sizes[1]], weights[1],
                floors[1])
        row = greys[i]
        row = row - pairwise_sum(row, 0, len(row)) / np.float32(len(row))
        _scaled(row, out[i, sizes[0] + sizes[1] :], weights[2], floors[2])
    return out
