"""Compiled inner loops of the card fit in irregular blobs (vision.cards).

Each kernel does, point by point, exactly the arithmetic the numpy code it replaces did
(the same operations in the same order, no fast-math), so the results are bit for bit the
same; the reductions over whole arrays (means) stay in numpy, on arrays of the same shape
and type as before. The kernels are compiled on first use and cached on disk.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from vision.compiled import compiled

Vec = NDArray[np.float64]
Mask = NDArray[np.uint8]


@compiled
def _pixel(x: float, y: float, ox: float, oy: float, px_per_mm: float, scale: bool,
           h: int, w: int) -> tuple[int, int, bool]:
    """The nearest pixel (row, column) of a mm point, and whether it lies in the image."""
    if scale:
        x = x * px_per_mm
        y = y * px_per_mm
    col = np.rint(x - ox)
    row = np.rint(y - oy)
    if not (col >= 0 and col < w and row >= 0 and row < h):
        return 0, 0, False
    return int(row), int(col), True


@compiled
def _cover_ok(quads: Any, offset: Any, px_per_mm: float, blob: Any, grid_s: Any,
              grid_t: Any, corners: Any, min_cover: float) -> Any:  # pragma: no cover
    n = quads.shape[0]
    h, w = blob.shape
    ox, oy = offset[0], offset[1]
    scale = px_per_mm != 1.0
    ok = np.zeros(n, np.bool_)
    inner = np.empty((4, 2))
    for k in range(n):
        for d in range(2):
            c = (((quads[k, 0, d] + quads[k, 1, d]) + quads[k, 2, d]) + quads[k, 3, d]) / 4.0
            for i in range(4):
                inner[i, d] = c + (quads[k, i, d] - c) * 0.9
        ax, ay = inner[0, 0], inner[0, 1]
        abx, aby = inner[1, 0] - ax, inner[1, 1] - ay
        adx, ady = inner[3, 0] - ax, inner[3, 1] - ay
        hits = 0
        for j in corners:
            x = (ax + grid_s[j] * abx) + grid_t[j] * adx
            y = (ay + grid_s[j] * aby) + grid_t[j] * ady
            r, col, inside = _pixel(x, y, ox, oy, px_per_mm, scale, h, w)
            if inside and blob[r, col] > 0:
                hits += 1
        if hits < 3:
            continue
        hits = 0
        for j in range(len(grid_s)):
            x = (ax + grid_s[j] * abx) + grid_t[j] * adx
            y = (ay + grid_s[j] * aby) + grid_t[j] * ady
            r, col, inside = _pixel(x, y, ox, oy, px_per_mm, scale, h, w)
            if inside and blob[r, col] > 0:
                hits += 1
        ok[k] = hits / len(grid_s) >= min_cover
    return ok


@compiled
def _outline_points(quads: Any, offset: Any, px_per_mm: float, blob: Any, edges: Any,
                    gx: Any, gy: Any, ref: float, steps: Any,
                    shifts: Any) -> Any:  # pragma: no cover
    n = quads.shape[0]
    m = len(steps)
    h, w = blob.shape
    eh, ew = edges.shape
    gh, gw = gx.shape
    ox, oy = offset[0], offset[1]
    scale = px_per_mm != 1.0
    hit = np.zeros((n, 4 * m), np.bool_)
    outside = np.zeros((n, 4 * m), np.bool_)
    step = np.zeros((n, 4 * m))
    across_shift = np.empty(len(shifts))
    for t in range(len(shifts)):
        across_shift[t] = shifts[t] / px_per_mm
    for k in range(n):
        cx = (((quads[k, 0, 0] + quads[k, 1, 0]) + quads[k, 2, 0]) + quads[k, 3, 0]) / 4.0
        cy = (((quads[k, 0, 1] + quads[k, 1, 1]) + quads[k, 2, 1]) + quads[k, 3, 1]) / 4.0
        for i in range(4):
            qx, qy = quads[k, i, 0], quads[k, i, 1]
            alx = quads[k, (i + 1) % 4, 0] - qx
            aly = quads[k, (i + 1) % 4, 1] - qy
            nx, ny = aly, -alx
            norm = np.sqrt(nx * nx + ny * ny)
            nx = nx / norm
            ny = ny / norm
            if (qx + alx / 2 - cx) * nx + (qy + aly / 2 - cy) * ny < 0:
                nx, ny = -nx, -ny
            for j in range(m):
                p = i * m + j
                x = qx + steps[j] * alx
                y = qy + steps[j] * aly
                r, col, inside = _pixel(x + nx * 2.5, y + ny * 2.5, ox, oy, px_per_mm, scale,
                                        h, w)
                out = not (inside and blob[r, col] > 0)
                r, col, inside = _pixel(x, y, ox, oy, px_per_mm, scale, eh, ew)
                edge = inside and edges[r, col] > 0
                outside[k, p] = out
                hit[k, p] = out or edge
                if out:
                    step[k, p] = 1.0
                    continue
                best = 0.0
                for t in range(len(shifts)):
                    r, col, inside = _pixel(x + nx * across_shift[t], y + ny * across_shift[t],
                                            ox, oy, px_per_mm, scale, gh, gw)
                    vx = np.float64(gx[r, col]) if inside else 0.0
                    vy = np.float64(gy[r, col]) if inside else 0.0
                    across = abs(vx * nx + vy * ny)
                    if t == 0 or across > best:
                        best = across
                step[k, p] = min(1.0, best / ref)
    return hit, outside, step


def cover_ok(quads: Vec, offset: Vec, px_per_mm: float, blob: Mask, grid_s: Vec, grid_t: Vec,
             corners: NDArray[np.intp], min_cover: float) -> NDArray[np.bool_]:
    """Per Nx4x2 quad (mm): whether at least 3 of its inner grid's `corners` and a share
    `min_cover` of its whole grid (points a + s ab + t ad of the quad shrunk by 10 %) lie
    on the blob."""
    ok: NDArray[np.bool_] = _cover_ok(quads, offset, float(px_per_mm), blob, grid_s, grid_t,
                                      corners, float(min_cover))
    return ok


def outline_points(quads: Vec, offset: Vec, px_per_mm: float, blob: Mask, edges: Mask,
                   gx: NDArray[np.float32], gy: NDArray[np.float32], ref: float, steps: Vec,
                   shifts: Vec) -> tuple[NDArray[np.bool_], NDArray[np.bool_], Vec]:
    """Per Nx4x2 quad (mm), at the `steps` along each side (N x 4*len(steps)): whether the
    point lies on the blob border (outside 2.5 mm out) or an edge, whether outside, and the
    step across the side there (1 outside; else the steepest gradient across the side at the
    `shifts` (pixels) relative to `ref`, at most 1)."""
    hit, outside, step = _outline_points(quads, offset, float(px_per_mm), blob, edges, gx, gy,
                                         float(ref), steps, shifts)
    return hit, outside, step


@compiled
def _refine_votes(params: Any, active: Any, px: Any, py: Any, normal: Any, lo: Any,
                  hi: Any) -> Any:  # pragma: no cover
    k_all = params.shape[0]
    groups = np.empty(2 * len(px) * k_all + 1, np.int64)
    values = np.empty(2 * len(px) * k_all + 1)
    used = 0
    near_count = np.zeros(k_all, np.int64)
    quarter, half_turn = np.pi / 4, np.pi / 2
    for k in range(k_all):
        if not active[k]:
            continue
        cx, cy, half_a, half_b = params[k, 0], params[k, 1], params[k, 2], params[k, 3]
        theta, c, s = params[k, 4], params[k, 5], params[k, 6]
        for i in range(len(px)):
            qx, qy = px[i], py[i]
            if not (qx >= lo[k, 0] and qx <= hi[k, 0] and qy >= lo[k, 1] and qy <= hi[k, 1]):
                continue
            rx, ry = qx - cx, qy - cy
            a = rx * c + ry * s
            b = -rx * s + ry * c
            abs_a, abs_b = abs(a), abs(b)
            band_a = abs(abs_a - half_a) < 2.5 and abs_b < half_b - 3
            band_b = abs(abs_b - half_b) < 2.5 and abs_a < half_a - 3
            if not (band_a or band_b):
                continue
            dev = (normal[i] - theta + quarter) % half_turn - quarter
            if not abs(dev) < 0.2:
                continue
            near_count[k] += 1
            groups[used], values[used] = k, dev
            used += 1
            if band_a:
                if a < 0:
                    groups[used], values[used] = k + k_all, a + half_a
                    used += 1
                elif a > 0:
                    groups[used], values[used] = k + 2 * k_all, a - half_a
                    used += 1
            if band_b:
                if b < 0:
                    groups[used], values[used] = k + 3 * k_all, b + half_b
                    used += 1
                elif b > 0:
                    groups[used], values[used] = k + 4 * k_all, b - half_b
                    used += 1
    n = 5 * k_all
    counts = np.zeros(n, np.int64)
    for e in range(used):
        counts[groups[e]] += 1
    start = np.zeros(n + 1, np.int64)
    for g in range(n):
        start[g + 1] = start[g] + counts[g]
    fill = start[:n].copy()
    ordered = np.empty(max(used, 1))
    for e in range(used):
        ordered[fill[groups[e]]] = values[e]
        fill[groups[e]] += 1
    medians = np.zeros(n)
    for g in range(n):
        if counts[g] > 0:
            part = np.sort(ordered[start[g]:start[g + 1]])
            m = counts[g]
            medians[g] = (part[(m - 1) // 2] + part[m // 2]) / 2
    return near_count, medians, counts


def refine_votes(params: Vec, active: NDArray[np.bool_], px: Vec, py: Vec, normal: Vec,
                 lo: Vec, hi: Vec) -> tuple[NDArray[np.int64], Vec, NDArray[np.int64]]:
    """The edge votes for moving K candidate rectangles onto the edges along their outline.

    `params` (K x 7: centre x, y, half sides a, b, angle theta, its cos, sin) are the
    candidates, `active` those to fit; the edge pixels at px, py (with the angle `normal`
    of their gradient) within the box lo..hi of a candidate may vote for it: those within
    2.5 px of a side (and 3 px off its ends) whose normal lies within 0.2 rad of the
    candidate's axes. Returns per candidate how many voted, and per group (the turn, then
    the near and far sides on axis a, then on axis b, each K groups) the median vote and
    how many votes it has."""
    near, medians, counts = _refine_votes(params, active, px, py, normal, lo, hi)
    return near, medians, counts


@compiled
def _side_pairs(hist: Any, span: int, k: int) -> Any:  # pragma: no cover
    n = len(hist) - span
    pair = np.empty(n)
    for i in range(n):
        near, far = hist[i], hist[i + span]
        pair[i] = near + far
        pair[i] += min(near, far)
    order = np.argsort(-pair, kind="mergesort")
    taken = np.zeros(n, np.bool_)
    out = np.empty(min(k, n), np.int64)
    found = 0
    for i in order:
        if pair[i] <= 0 or found == k:
            break
        if taken[i]:
            continue
        taken[max(0, i - 3): i + 4] = True
        out[found] = i
        found += 1
    return out[:found]


def side_pairs(hist: Vec, span: int, k: int) -> NDArray[np.int64]:
    """Up to k positions i (strongest first, each at least 4 from those before it) where
    hist[i] and hist[i + span] both collect votes: their sum plus the weaker of them (the
    weaker side counts double)."""
    out: NDArray[np.int64] = _side_pairs(hist, span, k)
    return out
