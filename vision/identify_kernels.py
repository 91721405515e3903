"""Compiled loops of card identification (vision.identify).

The projection of ten descriptions (10 x 1568 by 1568 x 131) adds each description value
times a row of the projection, in the order numpy's einsum did (so the same float32 sums),
but four rows of the projection at a time while they are in cache, along the row in
vector registers: about 2.5 times faster than einsum, and without BLAS, whose threads
would fight the camera loop for the cores. The edge profiles of a batch of patches are one
pass here instead of three OpenCV calls per patch.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from vision.compiled import compiled


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
def edge_sums(greys: Any) -> tuple[Any, Any]:  # pragma: no cover
    """Per grey patch of a (n, height, width) uint8 batch, the sums of the absolute
    differences of neighbouring pixels along each column gap and each row gap (float32,
    exact: whole numbers far below 2**24)."""
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
    return cols.astype(np.float32), rows.astype(np.float32)
