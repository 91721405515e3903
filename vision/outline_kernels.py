"""Compiled inner loops of the card fit in irregular blobs (vision.cards).

Each kernel does, point by point, the arithmetic the numpy code it replaced did (the same
operations in the same order, no fast-math), so the results are bit for bit the same; where
numpy left the order to BLAS (a side's length, turning a quad) the refit writes it out, which
can differ from BLAS in the last bit, and the areas two card outlines share come from a
float64 clipping where OpenCV's intersection worked in float32 (within 0.01 mm^2; they are
only compared with limits). Reductions over whole arrays (means) stay in numpy, on arrays
of the same shape and type as before. The kernels are compiled on first use and cached on
disk.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from numpy.typing import NDArray

from vision.compiled import compiled, dot2, inlined, median_of, pairwise_sum

Vec = NDArray[np.float64]
Mask = NDArray[np.uint8]

#: the value of an edge pixel that stands for the outline where two dark rims meet
#: (vision.cards._dark_seams); image edges are 255
SEAM_PIXEL = 1
_ROUNDING = 6755399441055744.0  # 1.5 * 2**52: x + it - it is x rounded as np.rint rounds it


@inlined
def _pixel(x: float, y: float, ox: float, oy: float, px_per_mm: float, scale: bool,
           h: int, w: int) -> tuple[np.uint64, np.uint64, bool]:
    """The nearest pixel (row, column) of a mm point, and whether it lies in the image."""
    if scale:
        x = x * px_per_mm
        y = y * px_per_mm
    # np.rint (to the nearest, halves to even) by adding and taking away 1.5 * 2**52, exact
    # for any coordinate below 2**51 and cheaper than the call
    col = ((x - ox) + _ROUNDING) - _ROUNDING
    row = ((y - oy) + _ROUNDING) - _ROUNDING
    if not (col >= 0 and col < w and row >= 0 and row < h):
        return np.uint64(0), np.uint64(0), False
    # (unsigned: numba then indexes an array without its check for a negative index)
    return np.uint64(row), np.uint64(col), True


@compiled
def _cover_ok(quads: Any, offset: Any, px_per_mm: float, blob: Any, grid_s: Any,
              grid_t: Any, corners: Any, min_cover: float,
              inset_mm: float) -> Any:  # pragma: no cover
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
        if inset_mm > 0.0:  # the grid moved inset_mm further in from each side
            ab = np.sqrt(abx * abx + aby * aby)
            ad = np.sqrt(adx * adx + ady * ady)
            ax += inset_mm * (abx / ab + adx / ad)
            ay += inset_mm * (aby / ab + ady / ad)
            abx, aby = abx * (1.0 - 2.0 * inset_mm / ab), aby * (1.0 - 2.0 * inset_mm / ab)
            adx, ady = adx * (1.0 - 2.0 * inset_mm / ad), ady * (1.0 - 2.0 * inset_mm / ad)
        hits = 0
        for j in corners:
            x = (ax + grid_s[j] * abx) + grid_t[j] * adx
            y = (ay + grid_s[j] * aby) + grid_t[j] * ady
            r, col, inside = _pixel(x, y, ox, oy, px_per_mm, scale, h, w)
            if inside and blob[r, col] > 0:
                hits += 1
        if hits < 3:
            continue
        hits, misses = 0, 0
        for j in range(len(grid_s)):
            x = (ax + grid_s[j] * abx) + grid_t[j] * adx
            y = (ay + grid_s[j] * aby) + grid_t[j] * ady
            r, col, inside = _pixel(x, y, ox, oy, px_per_mm, scale, h, w)
            if inside and blob[r, col] > 0:
                hits += 1
            else:
                misses += 1
                if (len(grid_s) - misses) / len(grid_s) < min_cover:
                    break  # it cannot cover enough now
        ok[k] = hits / len(grid_s) >= min_cover
    return ok


@compiled
def _outline_points(quads: Any, offset: Any, px_per_mm: float, blob: Any, edges: Any,
                    gx: Any, gy: Any, ref: float, steps: Any, shifts: Any,
                    dark_rims: bool) -> Any:  # pragma: no cover
    n = quads.shape[0]
    m = len(steps)
    h, w = blob.shape
    eh, ew = edges.shape
    gh, gw = gx.shape
    same_shape = gh == eh and gw == ew
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
                if not (inside and blob[r, col] > 0):  # outside: a hit, a whole step
                    outside[k, p] = True
                    hit[k, p] = True
                    step[k, p] = 1.0
                    continue
                at_r, at_col, at_inside = _pixel(x, y, ox, oy, px_per_mm, scale, eh, ew)
                edge = at_inside and edges[at_r, at_col] > 0
                hit[k, p] = edge
                if dark_rims and edge and edges[at_r, at_col] == SEAM_PIXEL:
                    step[k, p] = 1.0
                    continue
                best = 0.0
                for t in range(len(shifts)):
                    if across_shift[t] == 0.0 and same_shape:  # (x + nx * 0 is x)
                        r, col, inside = at_r, at_col, at_inside
                    else:
                        r, col, inside = _pixel(x + nx * across_shift[t],
                                                y + ny * across_shift[t], ox, oy, px_per_mm,
                                                scale, gh, gw)
                    vx = np.float64(gx[r, col]) if inside else 0.0
                    vy = np.float64(gy[r, col]) if inside else 0.0
                    across = vx * nx + vy * ny
                    across = max(across, 0.0) if dark_rims else abs(across)
                    best = across if t == 0 else max(best, across)  # (no branch)
                step[k, p] = min(1.0, best / ref)
    return hit, outside, step


@compiled
def _outline_scores(quads: Any, offset: Any, px_per_mm: float, blob: Any, edges: Any, gx: Any,
                    gy: Any, ref: float, steps: Any, shifts: Any, grid_s: Any, grid_t: Any,
                    corners: Any, min_cover: float, dark_rims: bool,
                    inset_mm: float) -> Any:  # pragma: no cover
    n = len(quads)
    outline, strength = np.zeros(n), np.zeros(n)
    inside = np.nonzero(_cover_ok(quads, offset, px_per_mm, blob, grid_s, grid_t, corners,
                                  min_cover, inset_mm))[0]
    if len(inside) == 0:
        return outline, strength
    hit, outside, step = _outline_points(quads[inside], offset, px_per_mm, blob, edges, gx, gy,
                                         ref, steps, shifts, dark_rims)
    points = hit.shape[1]
    for i in range(len(inside)):
        k = inside[i]
        outline[k] = np.float64(hit[i].sum()) / points
        free = np.float64(outside[i].sum()) / points
        strength[k] = 0.75 * (pairwise_sum(step[i], 0, points) / points) + 0.25 * free
    return outline, strength


def cover(quads: Vec, offset: Vec, px_per_mm: float, blob: Mask, grid_s: Vec, grid_t: Vec,
          corners: NDArray[np.intp], min_cover: float, inset_mm: float = 0.0
          ) -> NDArray[np.bool_]:
    """Per Nx4x2 quad (mm), whether it lies (almost) wholly inside the blob, as
    `outline_scores` tests it before scoring it."""
    out: NDArray[np.bool_] = _cover_ok(np.ascontiguousarray(quads, np.float64), offset,
                                       float(px_per_mm), blob, grid_s, grid_t, corners,
                                       float(min_cover), float(inset_mm))
    return out


def outline_scores(quads: Vec, offset: Vec, px_per_mm: float, blob: Mask, edges: Mask,
                   gx: NDArray[np.int16], gy: NDArray[np.int16], ref: float, steps: Vec,
                   shifts: Vec, grid_s: Vec, grid_t: Vec, corners: NDArray[np.intp],
                   min_cover: float, dark_rims: bool = False, inset_mm: float = 0.0
                   ) -> tuple[Vec, Vec]:
    """Per Nx4x2 quad (mm), the share of its outline points (`steps` along each side) on the
    blob border (outside 2.5 mm out) or an edge, and its strength: 3/4 the mean step across
    the side (1 outside; else the steepest gradient across the side at the `shifts` (pixels)
    relative to `ref`, at most 1) and 1/4 the share outside. Both are 0 for a quad that does
    not lie on the blob: fewer than 3 of its inner grid's `corners` or less than a share
    `min_cover` of its whole grid (points a + s ab + t ad of the quad shrunk by 10 %, and
    moved `inset_mm` further in from each side).

    With `dark_rims` a step counts only where it rises outward (the card's dark rim lies
    inside its outline, so a printed line's other edge a rim's width in is no side), and a
    SEAM_PIXEL edge counts as a whole step: there two dark rims meet and no step shows."""
    outline, strength = _outline_scores(
        np.ascontiguousarray(quads, np.float64), np.ascontiguousarray(offset, np.float64),
        float(px_per_mm), blob, edges, gx, gy, float(ref), steps, shifts, grid_s, grid_t,
        corners, float(min_cover), bool(dark_rims), float(inset_mm))
    return outline, strength


@compiled
def _outline_inside(quad: Any, other: Any, steps: Any, shifts: Any, margin: float,
                    offset: Any, px_per_mm: float, edges: Any, gx: Any,
                    gy: Any) -> float:  # pragma: no cover
    m = len(steps)
    n = 4 * m
    ox, oy = offset[0], offset[1]
    scale = px_per_mm != 1.0
    eh, ew = edges.shape
    gh, gw = gx.shape
    # points along quad's sides, with the unit normal of their side
    xs, ys, nxs, nys = np.empty(n), np.empty(n), np.empty(n), np.empty(n)
    for i in range(4):
        alx, aly = quad[(i + 1) % 4, 0] - quad[i, 0], quad[(i + 1) % 4, 1] - quad[i, 1]
        norm = np.sqrt(aly * aly + alx * alx)
        for j in range(m):
            p = i * m + j
            xs[p], ys[p] = quad[i, 0] + steps[j] * alx, quad[i, 1] + steps[j] * aly
            nxs[p], nys[p] = aly / norm, -alx / norm
    # their distances in from other's sides, signed by other's turning sense
    cross = np.empty((n, 4))
    sense = 0.0
    for i in range(4):
        alx, aly = other[(i + 1) % 4, 0] - other[i, 0], other[(i + 1) % 4, 1] - other[i, 1]
        length = np.sqrt(alx * alx + aly * aly)
        total = 0.0
        for p in range(n):
            cross[p, i] = (alx * (ys[p] - other[i, 1]) - aly * (xs[p] - other[i, 0])) / length
            total += cross[p, i]
        sense += np.sign(total / n)
    sign = 1.0 if sense >= 0 else -1.0
    inside, shown = 0, 0
    for p in range(n):
        if not (sign * cross[p, 0] >= margin and sign * cross[p, 1] >= margin
                and sign * cross[p, 2] >= margin and sign * cross[p, 3] >= margin):
            continue
        inside += 1
        aligned = False
        for t in range(len(shifts)):
            across_mm = shifts[t] / px_per_mm
            r, col, ok = _pixel(xs[p] + nxs[p] * across_mm, ys[p] + nys[p] * across_mm,
                                ox, oy, px_per_mm, scale, gh, gw)
            # (the gradient's whole numbers, int16, weighed as float32 as they always were)
            vx = np.float32(gx[r, col]) if ok else np.float32(0.0)
            vy = np.float32(gy[r, col]) if ok else np.float32(0.0)
            across = abs(np.float64(vx) * nxs[p] + np.float64(vy) * nys[p])
            if across >= np.float32(0.85) * np.hypot(vx, vy) and across > 0:
                aligned = True
                break  # (at one shift is enough)
        r, col, ok = _pixel(xs[p], ys[p], ox, oy, px_per_mm, scale, eh, ew)
        if aligned and ok and edges[r, col] > 0:
            shown += 1
    return shown / inside if inside >= 8 else -1.0


def outline_inside(quad: Vec, other: Vec, steps: Vec, shifts: Vec, margin: float, offset: Vec,
                   px_per_mm: float, edges: Mask, gx: NDArray[np.int16],
                   gy: NDArray[np.int16]) -> float | None:
    """Of the points at `steps` along each side of `quad` (4 x 2, mm) that lie inside the
    convex quad `other`, at least `margin` from its sides: the share on an edge pixel where
    the gradient, at one of the `shifts` (pixels) across the side, runs across the side (at
    least 0.85 of its length); None if fewer than 8 points lie inside."""
    share = _outline_inside(np.ascontiguousarray(quad, np.float64),
                            np.ascontiguousarray(other, np.float64), steps, shifts,
                            float(margin), offset, float(px_per_mm), edges, gx, gy)
    return None if share < 0 else float(share)


@inlined
def _quarter_turn_mod(angle: float) -> float:  # pragma: no cover
    """angle % (pi / 2) as Python computes it (the exact fmod, then up by pi / 2 if
    negative), for angles within +-5 quarter turns: the fmod by exact subtractions."""
    quarter = np.pi / 2
    rest = abs(angle)
    if rest >= 4 * quarter:
        rest -= 4 * quarter
    elif rest >= 2 * quarter:
        rest -= 2 * quarter
    if rest >= quarter:
        rest -= quarter
    return quarter - rest if angle < 0 and rest != 0 else rest


@compiled
def _refine(quads: Any, px: Any, py: Any, normal: Any, rounds: int,
            rising_out: bool) -> Any:  # pragma: no cover
    quads = quads.copy()
    n_px = len(px)
    turn_votes = np.empty(n_px)
    side_votes = np.empty((4, n_px))  # near and far side on axis a, then on axis b
    side_counts = np.zeros(4, np.int64)
    near_x, near_y, near_normal = np.empty(n_px), np.empty(n_px), np.empty(n_px)
    near_a, near_b = np.empty(n_px), np.empty(n_px)
    in_a, in_b = np.empty(n_px, np.bool_), np.empty(n_px, np.bool_)
    banded = np.empty(n_px, np.int64)  # those in a band, in their order
    quarter = np.pi / 4
    for k in range(quads.shape[0]):
        quad = quads[k]
        # the edge pixels near the candidate: within 6 px of its box (they come row by row),
        # gathered once for every round (each written, and kept by counting it: no branch)
        lo_x, lo_y = quad[:, 0].min() - 6, quad[:, 1].min() - 6
        hi_x, hi_y = quad[:, 0].max() + 6, quad[:, 1].max() + 6
        first, last = np.searchsorted(py, lo_y), np.searchsorted(py, hi_y, side="right")
        n_near = 0
        for i in range(first, last):
            x = px[i]
            keep = (x >= lo_x) & (x <= hi_x)
            near_x[n_near], near_y[n_near] = x, py[i]
            near_normal[n_near] = normal[i]
            n_near += keep
        for _ in range(rounds):
            cx = (((quad[0, 0] + quad[1, 0]) + quad[2, 0]) + quad[3, 0]) / 4.0
            cy = (((quad[0, 1] + quad[1, 1]) + quad[2, 1]) + quad[3, 1]) / 4.0
            ax, ay = quad[1, 0] - quad[0, 0], quad[1, 1] - quad[0, 1]
            bx, by = quad[3, 0] - quad[0, 0], quad[3, 1] - quad[0, 1]
            half_a, half_b = np.sqrt(ax * ax + ay * ay) / 2, np.sqrt(bx * bx + by * by) / 2
            theta = np.arctan2(ay, ax)
            c, s = np.cos(theta), np.sin(theta)
            near = 0
            side_counts[:] = 0
            # which of them lie in the band along a side (3 px off its ends), in a pass
            # without branches; those listed in a second (a branch a pixel mispredicted
            # often: a tempus-tall card lies among 2,400 edge pixels, a sixth in a band); then
            # the votes of those in their order: a quarter less time than all at once
            for i in range(n_near):
                rx, ry = near_x[i] - cx, near_y[i] - cy
                a = rx * c + ry * s
                b = -rx * s + ry * c
                abs_a, abs_b = abs(a), abs(b)
                near_a[i], near_b[i] = a, b
                in_a[i] = (abs(abs_a - half_a) < 2.5) & (abs_b < half_b - 3)
                in_b[i] = (abs(abs_b - half_b) < 2.5) & (abs_a < half_a - 3)
            n_band = 0
            for i in range(n_near):
                banded[n_band] = i
                n_band += in_a[i] | in_b[i]
            for m in range(n_band):
                i = banded[m]
                band_a, band_b = in_a[i], in_b[i]
                a, b = near_a[i], near_b[i]
                dev = _quarter_turn_mod(near_normal[i] - theta + quarter) - quarter
                if not abs(dev) < 0.2:
                    continue
                if rising_out:  # the grey must rise outward across the side it lies by
                    ux, uy = np.cos(near_normal[i]), np.sin(near_normal[i])
                    if band_a and not band_b and (ux * c + uy * s) * a <= 0:
                        continue
                    if band_b and not band_a and (-ux * s + uy * c) * b <= 0:
                        continue
                turn_votes[near] = dev
                near += 1
                if band_a and a != 0:
                    side = 0 if a < 0 else 1
                    side_votes[side, side_counts[side]] = a + half_a if a < 0 else a - half_a
                    side_counts[side] += 1
                if band_b and b != 0:
                    side = 2 if b < 0 else 3
                    side_votes[side, side_counts[side]] = b + half_b if b < 0 else b - half_b
                    side_counts[side] += 1
            if near < 20:
                break  # too few edges along it to fit: it stays where it is
            turn = median_of(turn_votes, near)
            shift = np.zeros(2)
            for axis in range(2):
                total, used = 0.0, 0
                for side in (2 * axis, 2 * axis + 1):
                    if side_counts[side] >= 5:
                        total += median_of(side_votes[side], side_counts[side])
                        used += 1
                shift[axis] = total / used if used else 0.0
            move_x = c * shift[0] - s * shift[1]
            move_y = s * shift[0] + c * shift[1]
            cr, sr = np.cos(turn), np.sin(turn)
            for j in range(4):
                dx, dy = quad[j, 0] - cx, quad[j, 1] - cy
                quad[j, 0] = ((dx * cr - dy * sr) + cx) + move_x
                quad[j, 1] = ((dx * sr + dy * cr) + cy) + move_y
    return quads


def refine(quads: Vec, px: Vec, py: Vec, normal: Vec, rounds: int,
           rising_out: bool = False) -> Vec:
    """The K x 4 x 2 quads each turned and moved onto the edge pixels along its own outline,
    `rounds` times: the edge pixels at px, py (in rows, py ascending, as np.nonzero gives
    them), with the angle `normal` of their gradient, that lie within 2.5 px of a side (and
    3 px off its ends) and whose normal lies within 0.2 rad of the quad's axes vote. The quad
    turns by their median deviation and each axis moves by the mean of the median offsets
    of its near and far side (a side with at least 5 votes). A quad with fewer than 20 votes
    stays as it is. With `rising_out` (a dark-rimmed deck) an edge pixel votes only where
    the grey rises outward across the side it lies by: the step from the card's face to its
    rim, a rim's width inside the outline, falls outward."""
    out: Vec = _refine(np.ascontiguousarray(quads, np.float64), px, py, normal, int(rounds),
                       bool(rising_out))
    return out


@compiled
def _side_pairs(hist: Any, span: int, k: int) -> Any:  # pragma: no cover
    """Up to k positions i (strongest first, each at least 4 from those before it) where
    hist[i] and hist[i + span] both collect votes: their sum plus the weaker of them (the
    weaker side counts double)."""
    n = len(hist) - span
    pair = np.empty(n)
    for i in range(n):
        near, far = hist[i], hist[i + span]
        pair[i] = near + far
        pair[i] += min(near, far)
    # the strongest free position, the first of equals (a stable sort's order), k times: the
    # positions taken (and their neighbours) are set below any free one that collects votes
    out = np.empty(min(k, n), np.int64)
    found = 0
    while found < k and n > 0:
        best = np.argmax(pair)
        if pair[best] <= 0:
            break
        pair[max(0, best - 3):min(n, best + 4)] = -1.0
        out[found] = best
        found += 1
    return out[:found]


@compiled
def _direction_histogram(normal: Any) -> Any:  # pragma: no cover
    hist = np.zeros(90)
    to_degrees = np.float32(180.0) / np.float32(np.pi)  # numpy's float32 degrees
    quarter, half_turn = np.float32(90.0), np.float32(180.0)
    for i in range(len(normal)):
        angle = normal[i] * to_degrees
        # the angle mod 90 as numpy's float32 remainder: the (exact) fmod, then up by 90 if
        # negative, here for angles within +-270 degrees
        if angle >= half_turn:
            mod = angle - half_turn
        elif angle >= quarter:
            mod = angle - quarter
        elif angle > -quarter:
            mod = angle
        elif angle > -half_turn:
            mod = angle + quarter
        else:
            mod = angle + half_turn
        if mod < 0:
            mod += quarter
        hist[int(np.floor(mod)) % 90] += 1.0
    return hist


def direction_histogram(normal: NDArray[np.float32]) -> Vec:
    """How many edge normals (float32 radians, within +-4.7) point along each whole degree
    mod 90: np.bincount(np.floor(np.degrees(normal) % 90.0).astype(int) % 90, minlength=90)
    as float64, in one pass."""
    out: Vec = _direction_histogram(normal)
    return out


@compiled
def _axis_votes(pos: Any, chosen: Any, low: float, n: int) -> Any:  # pragma: no cover
    """Edge votes per pixel position along an axis (the chosen edge pixels at pos - low,
    rounded), spread over +-1 pixel."""
    hist = np.zeros(n)
    for i in range(len(pos)):  # (every pixel adds, 0 or 1: no branch, and no call to rint)
        hist[np.int64(((pos[i] - low) + _ROUNDING) - _ROUNDING)] += np.float64(chosen[i])
    spread = np.empty(n)
    for i in range(n):
        spread[i] = hist[i] + 0.5 * ((hist[i - 1] if i > 0 else 0.0)
                                     + (hist[i + 1] if i + 1 < n else 0.0))
    return spread


@compiled
def _candidate_rects(xs: Any, ys: Any, along_u: Any, along_v: Any, thetas: Any, sides: Any,
                     spans: Any, per_axis: int) -> Any:  # pragma: no cover
    n_px = len(xs)
    out = np.empty((len(thetas) * 2 * per_axis * per_axis, 4, 2))
    found = 0
    u, v = np.empty(n_px), np.empty(n_px)
    for t in range(len(thetas)):
        c, s = np.cos(thetas[t]), np.sin(thetas[t])
        u_low, v_low, u_high, v_high = np.inf, np.inf, -np.inf, -np.inf
        for i in range(n_px):  # (and their least and greatest, in the same pass)
            u[i] = xs[i] * c + ys[i] * s
            v[i] = -xs[i] * s + ys[i] * c
            u_low, u_high = min(u_low, u[i]), max(u_high, u[i])
            v_low, v_high = min(v_low, v[i]), max(v_high, v[i])
        hist_u = _axis_votes(u, along_u[t], u_low, int(u_high - u_low) + 2)
        hist_v = _axis_votes(v, along_v[t], v_low, int(v_high - v_low) + 2)
        for way in range(2):  # the card's short side across u, then its long side
            side_u, side_v = sides[way], sides[1 - way]
            span_u, span_v = spans[way], spans[1 - way]
            if len(hist_u) <= span_u or len(hist_v) <= span_v:
                continue
            near_u = _side_pairs(hist_u, span_u, per_axis)
            near_v = _side_pairs(hist_v, span_v, per_axis)
            for i in near_u:
                a = (np.float64(i) + (side_u - span_u) / 2) + u_low
                for j in near_v:
                    b = (np.float64(j) + (side_v - span_v) / 2) + v_low
                    for k in range(4):  # corners (a, b), (a + side_u, b), ... (a, b + side_v)
                        at_u = a + side_u if k == 1 or k == 2 else a
                        at_v = b + side_v if k >= 2 else b
                        out[found, k, 0] = at_u * c - at_v * s
                        out[found, k, 1] = at_u * s + at_v * c
                    found += 1
    return out[:found]


def candidate_rects(xs: NDArray[np.intp], ys: NDArray[np.intp], normal: NDArray[np.float32],
                    thetas: Vec, card_px: tuple[float, float], per_axis: int) -> Vec:
    """Nx4x2 card rectangles that the edge pixels at xs, ys (with the angle `normal` of their
    gradient) vote for, along each direction in `thetas` (radians) and both ways round.

    Along each axis u of a direction, the edge pixels whose normal runs along u (within
    0.17 of its sine) vote for where a side lies on u; the up to `per_axis` positions a
    card side (`card_px`, in pixels) apart where both sides collect votes (`_side_pairs`)
    are the card's extent along u, and every pair of extents along u and v is a rectangle.
    """
    # (numpy's own float32 sine and cosine, as before)
    rel = normal[None, :] - thetas.astype(np.float32)[:, None]
    along_u = np.abs(np.sin(rel)) < 0.17
    along_v = np.abs(np.cos(rel)) < 0.17
    spans = np.array([round(card_px[0]), round(card_px[1])], np.int64)
    out: Vec = _candidate_rects(xs, ys, along_u, along_v, thetas, np.array(card_px, np.float64),
                                spans, int(per_axis))
    return out


@compiled
def _percentiles_of_counts(counts: Any, percents: Any) -> Any:  # pragma: no cover
    ends = np.cumsum(counts)  # ends[v]: how many are <= v
    n = ends[-1]
    out = np.empty(len(percents))
    for p in range(len(percents)):
        at = (n - 1) * (percents[p] / 100)
        before = -1 if at >= n - 1 else math.floor(at)
        # the before-th and next smallest values
        a = np.searchsorted(ends, n - 1 if before < 0 else before, side="right")
        b = np.searchsorted(ends, n - 1 if before < 0 else before + 1, side="right")
        t = at - before
        out[p] = a + (b - a) * t if t < 0.5 else b - (b - a) * (1 - t)
    return out


def percentiles_of_counts(counts: NDArray[np.int64], percents: tuple[float, ...]
                          ) -> list[float]:
    """np.percentile (linear) of the (not no) uint8 values that have these counts (256)."""
    out: Vec = _percentiles_of_counts(counts, np.array(percents, np.float64))
    return [float(v) for v in out]


@compiled
def _histograms(image: Any, mask: Any) -> Any:  # pragma: no cover
    counts = np.zeros((2, 256), np.int64)  # (where the mask is not set, where it is)
    for y in range(image.shape[0]):
        for x in range(image.shape[1]):
            counts[np.uint64(mask[y, x] != 0), image[y, x]] += 1  # (no branch)
    return counts


@compiled
def _channel_medians(image: Any, mask: Any) -> Any:  # pragma: no cover
    counts = np.zeros((2, image.shape[2], 256), np.int64)  # (as _histograms, per channel)
    for y in range(image.shape[0]):
        for x in range(image.shape[1]):
            under = np.uint64(mask[y, x] != 0)  # (no branch)
            for c in range(image.shape[2]):
                counts[under, c, image[y, x, c]] += 1
    out = np.zeros(image.shape[2])
    if counts[1, 0].sum() == 0:
        return out
    half = np.array([50.0])
    for c in range(image.shape[2]):
        out[c] = _percentiles_of_counts(counts[1, c], half)[0]
    return out


def channel_medians(image: Mask, mask: Mask) -> Vec:
    """Per channel of an image, np.median of its values where the mask is set (zeros where
    it is set nowhere): the histograms of all channels in one pass, in one call (a call of
    its own for each channel's histogram and each median cost more than their work)."""
    out: Vec = _channel_medians(image, mask)
    return out


def histograms_split(image: Mask, mask: Mask) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """How many pixels of a grey image have each level (256) where the mask is set
    (np.bincount(image[mask > 0], minlength=256)), and where it is not, in one pass."""
    counts: NDArray[np.int64] = _histograms(image, mask)
    return counts[1], counts[0]


@inlined
def _mirror(i: int, n: int) -> int:  # pragma: no cover
    """An index beyond 0..n-1 reflected about the end pixel (OpenCV's BORDER_REFLECT_101; 0
    in a line one pixel long)."""
    if n == 1:
        return 0
    return -i if i < 0 else (2 * n - 2 - i if i >= n else i)


@compiled
def _border_gradient(image: Any, gx: Any, gy: Any) -> None:  # pragma: no cover
    h, w = image.shape
    for r in range(h):
        step = 1 if r == 0 or r == h - 1 else max(w - 1, 1)  # (the first and last rows whole)
        for c in range(0, w, step):
            dx, dy = np.int64(0), np.int64(0)
            for i in range(-1, 2):
                weight = 2 - abs(i)
                row, col = _mirror(r + i, h), _mirror(c + i, w)
                dx += weight * (np.int64(image[row, _mirror(c + 1, w)])
                                - np.int64(image[row, _mirror(c - 1, w)]))
                dy += weight * (np.int64(image[_mirror(r + 1, h), col])
                                - np.int64(image[_mirror(r - 1, h), col]))
            gx[r, c], gy[r, c] = dx, dy


def border_gradient(image: Mask, gx: NDArray[np.int16], gy: NDArray[np.int16]) -> None:
    """Write into the border pixels of gx and gy (int16) the 3 x 3 Sobel gradient of the
    grey image there, the image mirrored at its border as cv2.Sobel's
    default mirrors it (BORDER_REFLECT_101): whole numbers, the same to the bit."""
    _border_gradient(image, gx, gy)


@compiled
def _edge_pixels(edges: Any, gx: Any, gy: Any) -> Any:  # pragma: no cover
    n = np.count_nonzero(edges)
    xs, ys = np.empty(n + 1, np.intp), np.empty(n, np.intp)  # (xs: a pixel past the last)
    on_gx, on_gy = np.empty(n, np.float32), np.empty(n, np.float32)
    k = 0
    for y in range(edges.shape[0]):
        # a row's edge pixels listed without a branch (an eighth of a blob's ROI, scattered:
        # a branch a pixel mispredicted often), then their row and gradient
        first = k
        for x in range(edges.shape[1]):
            xs[k] = x
            k += edges[y, x] != 0
        for i in range(first, k):
            ys[i] = y
            on_gx[i], on_gy[i] = gx[y, xs[i]], gy[y, xs[i]]
    return xs[:n], ys, on_gx, on_gy


def edge_pixels(edges: Mask, gx: NDArray[np.int16], gy: NDArray[np.int16]
                ) -> tuple[NDArray[np.intp], NDArray[np.intp], NDArray[np.float32],
                           NDArray[np.float32]]:
    """The edge pixels (set in `edges`) row by row, as np.nonzero gives them: their x and y,
    and the x and y gradient there, in one pass."""
    xs, ys, on_gx, on_gy = _edge_pixels(edges, gx, gy)
    return xs, ys, on_gx, on_gy


def overlap_area(a: NDArray[np.float64], b: NDArray[np.float64]) -> float:
    """The area two convex quads (4 x 2, float64) share: the project's one measure of it.
    (OpenCV's intersectConvexConvex, in float32, errs where two sides run along one line,
    as touching tiles' do: two 20x30 tiles shifted 10 mm along their long sides share
    300 mm^2, and it says 150 or 600.)"""
    return float(_overlap_area(np.ascontiguousarray(a, np.float64),
                               np.ascontiguousarray(b, np.float64)))


@compiled
def _overlap_area(a: Any, b: Any) -> float:  # pragma: no cover
    """overlap_area(): a clipped to each side of b in turn (Sutherland-Hodgman), then the
    shoelace formula."""
    sense = 0.0  # b's turning sense, from twice its signed area
    for i in range(4):
        j = (i + 1) % 4
        sense += b[i, 0] * b[j, 1] - b[j, 0] * b[i, 1]
    sense = 1.0 if sense >= 0 else -1.0
    poly, clipped = np.empty((8, 2)), np.empty((8, 2))
    for i in range(4):
        poly[i, 0], poly[i, 1] = a[i, 0], a[i, 1]
    n = 4
    for i in range(4):
        px, py = b[i, 0], b[i, 1]
        ex, ey = b[(i + 1) % 4, 0] - px, b[(i + 1) % 4, 1] - py
        m = 0
        for j in range(n):
            last = j - 1 if j else n - 1
            sx, sy = poly[last, 0], poly[last, 1]
            qx, qy = poly[j, 0], poly[j, 1]
            s_in = sense * (ex * (sy - py) - ey * (sx - px))  # how far inside b's side
            q_in = sense * (ex * (qy - py) - ey * (qx - px))
            if (s_in >= 0) != (q_in >= 0):  # the side crosses the edge s -> q
                t = s_in / (s_in - q_in)
                clipped[m, 0], clipped[m, 1] = sx + t * (qx - sx), sy + t * (qy - sy)
                m += 1
            if q_in >= 0:
                clipped[m, 0], clipped[m, 1] = qx, qy
                m += 1
        if m == 0:
            return 0.0
        poly, clipped = clipped, poly
        n = m
    twice = 0.0
    for j in range(n):
        k = (j + 1) % n
        twice += poly[j, 0] * poly[k, 1] - poly[k, 0] * poly[j, 1]
    return abs(twice) / 2


@compiled
def _distinct(quads: Any, px_per_cell: float) -> Any:  # pragma: no cover
    n = len(quads)
    cells = np.empty((n, 2), np.int64)
    turns = np.empty(n, np.int64)
    for k in range(n):
        for d in range(2):
            c = (((quads[k, 0, d] + quads[k, 1, d]) + quads[k, 2, d]) + quads[k, 3, d]) / 4.0
            cells[k, d] = np.int64(np.rint(c / px_per_cell))
        angle = np.degrees(np.arctan2(quads[k, 1, 1] - quads[k, 0, 1],
                                      quads[k, 1, 0] - quads[k, 0, 0])) % 90.0
        turns[k] = np.int64(np.rint(angle)) % 90
    low_x, low_y = cells[:, 0].min(), cells[:, 1].min()
    rows = cells[:, 1].max() - low_y + 1
    keys = np.empty(n, np.int64)
    for k in range(n):
        keys[k] = ((cells[k, 0] - low_x) * rows + (cells[k, 1] - low_y)) * 90 + turns[k]
    order = np.argsort(keys, kind="mergesort")
    keep = np.zeros(n, np.bool_)
    for i in range(n):
        if i == 0 or keys[order[i]] != keys[order[i - 1]]:
            keep[order[i]] = True
    return quads[keep]


def distinct(quads: Vec, px_per_mm: float) -> Vec:
    """The Nx4x2 quads (pixels at px_per_mm) without repeats, in their order: the first of
    each centre to a millimetre (to a pixel below 1 px/mm) and first side's angle to a
    degree (mod 90)."""
    if len(quads) < 2:
        return quads
    out: Vec = _distinct(np.ascontiguousarray(quads, np.float64), max(1.0, float(px_per_mm)))
    return out


@compiled
def _anchored_quads(poly: Any, card_w: float, card_h: float, px_per_mm: float,
                    offset: Any) -> Any:  # pragma: no cover
    n = len(poly)
    along = np.empty((n, 2))
    lengths = np.empty(n)
    for i in range(n):
        along[i, 0] = poly[(i + 1) % n, 0] - poly[i, 0]
        along[i, 1] = poly[(i + 1) % n, 1] - poly[i, 1]
        lengths[i] = np.sqrt(dot2(along[i, 0], along[i, 1], along[i, 0], along[i, 1]))
    long_sides = np.array([i for i in range(n) if lengths[i] >= 0.45 * card_w], np.int64)
    m = len(long_sides)
    unit = np.empty((n, 2))
    for i in long_sides:
        unit[i, 0] = along[i, 0] / lengths[i]
        unit[i, 1] = along[i, 1] / lengths[i]
    # (corner, side a, side b): both ends of each long side, turned inward, then the corners
    starts = np.empty((3 * m, 6))
    count = 0
    for i in long_sides:
        dx, dy = unit[i, 0], unit[i, 1]
        end = (i + 1) % n
        starts[count] = (poly[i, 0], poly[i, 1], dx, dy, -dy, dx)
        starts[count + 1] = (poly[end, 0], poly[end, 1], -dx, -dy, -dy, dx)
        count += 2
    most_off = np.sin(np.radians(12.0))
    for k in range(m):
        i, j = long_sides[k], long_sides[(k + 1) % m]
        between = 0.0
        for step in range(i + 1, i + 1 + (j - i - 1) % n):
            between += lengths[step % n]
        if between > 0.2 * card_w:
            continue
        x1, y1, x2, y2 = poly[i, 0], poly[i, 1], poly[j, 0], poly[j, 1]
        d1x, d1y, d2x, d2y = unit[i, 0], unit[i, 1], unit[j, 0], unit[j, 1]
        cross = d1x * d2y - d1y * d2x
        if abs(dot2(d1x, d1y, d2x, d2y)) > most_off or cross <= 0:
            continue
        # where the two side lines meet: p1 + t d1 = p2 + s d2
        t = ((x2 - x1) * d2y - (y2 - y1) * d2x) / cross
        ax, ay = -d1x, -d1y
        err = math.atan2(d2y, d2x) - math.atan2(ay, ax) + math.pi / 2
        err = (err + math.pi) % (2 * math.pi) - math.pi
        c, s = math.cos(err / 2), math.sin(err / 2)
        ax, ay = c * ax - s * ay, s * ax + c * ay
        c, s = math.cos(-math.pi / 2), math.sin(-math.pi / 2)
        starts[count] = (x1 + t * d1x, y1 + t * d1y, ax, ay, c * ax - s * ay, s * ax + c * ay)
        count += 1
    quads = np.empty((2 * count, 4, 2))
    for k in range(count):
        for way in range(2):
            la, lb = (card_w, card_h) if way == 0 else (card_h, card_w)
            q = quads[2 * k + way]
            for d in range(2):
                corner, a, b = starts[k, d], starts[k, 2 + d], starts[k, 4 + d]
                q[0, d] = (corner + 0.0 * la) * px_per_mm - offset[d]
                q[1, d] = (corner + a * la) * px_per_mm - offset[d]
                q[2, d] = ((corner + a * la) + b * lb) * px_per_mm - offset[d]
                q[3, d] = (corner + b * lb) * px_per_mm - offset[d]
    return quads


def anchored_quads(poly: Vec, card_mm: tuple[float, float], px_per_mm: float,
                   offset: Vec) -> Vec:
    """Card rectangles (Kx4x2 pixels, less `offset`) that start where a card may start in a
    blob outlined by `poly` (mm, straight sides, positive oriented area): at both ends of
    every side at least 0.45 card widths long, along it and inward, and at every
    right-angled convex corner of two such sides (joined by little else), its sides made
    exactly perpendicular; each both ways round. A card whose corners are all hidden or
    touching other cards still shows one free side."""
    quads: Vec = _anchored_quads(np.ascontiguousarray(poly, np.float64), float(card_mm[0]),
                                 float(card_mm[1]), float(px_per_mm),
                                 np.ascontiguousarray(offset, np.float64))
    return quads


@compiled
def _centres(quads: Any) -> Any:  # pragma: no cover
    out = np.empty((len(quads), 2))
    for k in range(len(quads)):
        for d in range(2):
            out[k, d] = (((quads[k, 0, d] + quads[k, 1, d]) + quads[k, 2, d])
                         + quads[k, 3, d]) / 4.0
    return out


def centres(quads: Vec) -> Vec:
    """quads.mean(axis=1) of N x 4 x 2 quads as numpy gives it (the corners added in turn, then
    divided by 4), without its overhead."""
    out: Vec = _centres(np.ascontiguousarray(quads, np.float64))
    return out


@compiled
def _promising(strength: Any, outline: Any, least: float,
               well_placed: float) -> Any:  # pragma: no cover
    order = np.argsort(-strength, kind="mergesort")
    out = np.empty(len(order), np.int64)
    n = 0
    for k in order:
        if strength[k] < least:
            break
        if outline[k] < well_placed:
            out[n] = k
            n += 1
    return out[:n]


def promising(strength: Vec, outline: Vec, least: float, well_placed: float
              ) -> NDArray[np.int64]:
    """The candidates whose strength is `least` or more, strongest first (the first of equals
    first, as a stable sort), but for those whose outline already scores `well_placed`."""
    out: NDArray[np.int64] = _promising(strength, outline, float(least), float(well_placed))
    return out


@compiled
def _card_frames(quads: Any, card_w: float, card_h: float) -> Any:  # pragma: no cover
    n = len(quads)
    corners, centres, angles = np.empty((n, 4, 2)), np.empty((n, 2)), np.empty(n)
    hw, hh = card_w / 2, card_h / 2
    for k in range(n):
        x0, y0, x1, y1 = quads[k, 0, 0], quads[k, 0, 1], quads[k, 1, 0], quads[k, 1, 1]
        x2, y2, x3, y3 = quads[k, 2, 0], quads[k, 2, 1], quads[k, 3, 0], quads[k, 3, 1]
        ax, ay, bx, by = x1 - x0, y1 - y0, x3 - x0, y3 - y0
        if np.sqrt(dot2(ax, ay, ax, ay)) > np.sqrt(dot2(bx, by, bx, by)):
            axis_x, axis_y = ax, ay
        else:
            axis_x, axis_y = bx, by
        cx, cy = (((x0 + x1) + x2) + x3) / 4, (((y0 + y1) + y2) + y3) / 4
        length = np.sqrt(dot2(axis_x, axis_y, axis_x, axis_y))
        down_x, down_y = axis_x / length, axis_y / length
        if down_y < 0 or (down_y == 0 and down_x < 0):
            down_x, down_y = -down_x, -down_y
        right_x, right_y = down_y, -down_x
        corners[k, 0, 0], corners[k, 0, 1] = (cx - right_x * hw) - down_x * hh, \
            (cy - right_y * hw) - down_y * hh
        corners[k, 1, 0], corners[k, 1, 1] = (cx + right_x * hw) - down_x * hh, \
            (cy + right_y * hw) - down_y * hh
        corners[k, 2, 0], corners[k, 2, 1] = (cx + right_x * hw) + down_x * hh, \
            (cy + right_y * hw) + down_y * hh
        corners[k, 3, 0], corners[k, 3, 1] = (cx - right_x * hw) + down_x * hh, \
            (cy - right_y * hw) + down_y * hh
        centres[k, 0], centres[k, 1] = cx, cy
        angles[k] = math.degrees(math.atan2(-down_x, down_y))
    return corners, centres, angles


def card_frames(quads: Vec, card_mm: tuple[float, float]) -> tuple[Vec, Vec, Vec]:
    """For N x 4 x 2 quads (mm), the card of card_mm each is (vision.cards.CardQuad.from_axes
    along its longer side from its corner 0, about the mean of its corners), in the same
    arithmetic: its corners, centre and angle (degrees)."""
    corners, centres, angles = _card_frames(np.ascontiguousarray(quads, np.float64),
                                            float(card_mm[0]), float(card_mm[1]))
    return corners, centres, angles


@compiled
def _short_side(quad: Any) -> Any:  # pragma: no cover
    """The unit vector along a quad's shorter side (its corners in either order round)."""
    ax, ay = quad[1, 0] - quad[0, 0], quad[1, 1] - quad[0, 1]
    bx, by = quad[2, 0] - quad[1, 0], quad[2, 1] - quad[1, 1]
    if ax * ax + ay * ay > bx * bx + by * by:
        ax, ay = bx, by
    length = math.sqrt(ax * ax + ay * ay)
    return ax / length, ay / length


@compiled
def _beside(quad: Any, card: Any, least: float, alike: float) -> Any:  # pragma: no cover
    """Whether `quad` lies beside `card` along its short side, `least` mm from its centre
    or more, their short sides at most `alike` (a sine) turned from each other."""
    ux, uy = _short_side(card)
    vx, vy = _short_side(quad)
    dx = (quad[0, 0] + quad[1, 0] + quad[2, 0] + quad[3, 0]
          - card[0, 0] - card[1, 0] - card[2, 0] - card[3, 0]) / 4
    dy = (quad[0, 1] + quad[1, 1] + quad[2, 1] + quad[3, 1]
          - card[0, 1] - card[1, 1] - card[2, 1] - card[3, 1]) / 4
    return abs(ux * vy - uy * vx) <= alike and abs(dx * ux + dy * uy) >= least


@compiled
def _choose(quads: Any, centres: Any, score: Any, ranked: Any, card_w: float, card_h: float,
            apart: float, limits: Any, rivals_checked: int,
            most_extras: int) -> Any:  # pragma: no cover
    min_outline, max_overlap, rival_outline, extra_outline, touching_mm, alike = limits
    n = len(quads)
    card_area = card_w * card_h
    accepted = np.empty(n, np.int64)
    n_accepted = 0
    clear = np.ones(n, np.bool_)  # not the same card as an accepted one
    shares = np.empty(n)

    def overlap(k: int, i: int) -> float:  # of candidate k and accepted card i
        j = accepted[i]
        if max(abs(centres[k, 0] - centres[j, 0]), abs(centres[k, 1] - centres[j, 1])) > apart:
            return 0.0
        return _overlap_area(quads[k], quads[j])

    for k in ranked:
        if score[k] < min_outline:
            break
        if not clear[k]:
            continue  # the same card again, from another pair of votes
        fits = True
        for i in range(n_accepted):
            if overlap(k, i) >= max_overlap * card_area and not (touching_mm > 0 and _beside(
                    quads[k], quads[accepted[i]], card_w - touching_mm, alike)):
                fits = False
                break
        if fits:
            accepted[n_accepted] = k
            n_accepted += 1
            for j in range(n):
                apart_j = np.hypot(centres[j, 0] - centres[k, 0], centres[j, 1] - centres[k, 1])
                clear[j] = clear[j] and apart_j >= 0.5 * card_w
    # the next best outlines where an accepted card lies: up to 3 per card, at least 3 mm
    # from it and from each other; such an outline may lie over other cards too (a tile
    # laid across a row: its own outline overlaps the row's, which were taken first, and
    # a phantom turned a quarter about it, which overlaps them less, took its place)
    top = ranked[:rivals_checked]
    rivals = np.full((n_accepted, 3), -1, np.int64)
    for k in top:
        if score[k] < rival_outline:
            break
        near = False  # within half a card length of an accepted one
        for i in range(n_accepted):
            j = accepted[i]
            near = near or np.hypot(centres[k, 0] - centres[j, 0],
                                    centres[k, 1] - centres[j, 1]) <= 0.5 * card_h
        if not near:
            continue
        mine, covers = -1, 0
        for i in range(n_accepted):
            shares[i] = overlap(k, i) / card_area
            if shares[i] > 0.5:
                mine, covers = i, covers + 1
        if covers != 1:
            continue
        j, free = accepted[mine], 0
        far = np.hypot(centres[k, 0] - centres[j, 0], centres[k, 1] - centres[j, 1]) > 3
        while free < 3 and rivals[mine, free] >= 0:
            r = rivals[mine, free]
            far = far and np.hypot(centres[k, 0] - centres[r, 0],
                                   centres[k, 1] - centres[r, 1]) > 3
            free += 1
        if free < 3 and far:
            rivals[mine, free] = k
    # the best outlines elsewhere: cards the greedy choice pushed out
    extras = np.empty(most_extras, np.int64)
    n_extras = 0
    for k in top:
        if score[k] < extra_outline or n_extras == most_extras:
            break
        if not clear[k]:
            continue
        alone = True
        for e in range(n_extras):
            alone = alone and np.hypot(centres[k, 0] - centres[extras[e], 0],
                                       centres[k, 1] - centres[extras[e], 1]) > 0.3 * card_w
        if alone:
            extras[n_extras] = k
            n_extras += 1
    return accepted[:n_accepted], rivals, extras[:n_extras]


def choose(quads: Vec, centres: Vec, score: Vec, ranked: NDArray[np.intp],
           card_mm: tuple[float, float], min_outline: float, max_overlap: float,
           rival_outline: float, extra_outline: float, rivals_checked: int, most_extras: int,
           touching: tuple[float, float] = (0.0, 0.0)
           ) -> tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.int64]]:
    """The cards among candidate quads (N x 4 x 2 mm, their centres, outline scores and
    their order best first), their rivals and the extra outlines, as candidate indices.

    In `ranked` order, a candidate whose outline scores `min_outline` or more is a card if
    it is not within half a card width of a card already taken and overlaps none by
    `max_overlap` of a card or more, unless it lies beside that card as a touching tile
    does (`touching`: a strip up to that many mm deep along its long side, turned up to
    that many degrees from it). Of the first `rivals_checked`, those scoring
    `rival_outline` or more that overlap exactly one card by more than half are that
    card's rivals (up to 3, each at least 3 mm from the card and
    the others; -1 pads the rows). Up to `most_extras` of them that score `extra_outline`
    or more, lie clear of the cards and 0.3 card widths from each other are the extras.
    """
    limits = np.array([min_outline, max_overlap, rival_outline, extra_outline, touching[0],
                       math.sin(math.radians(touching[1]))])
    accepted, rivals, extras = _choose(
        np.ascontiguousarray(quads, np.float64), np.ascontiguousarray(centres, np.float64),
        np.ascontiguousarray(score, np.float64), np.ascontiguousarray(ranked, np.int64),
        float(card_mm[0]), float(card_mm[1]), math.hypot(*card_mm) + 1.0, limits,
        int(rivals_checked), int(most_extras))
    return accepted, rivals, extras
