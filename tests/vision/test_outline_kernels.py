"""The compiled kernels of the card fit give what the numpy and OpenCV code they replace did."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest
from numpy.typing import NDArray

from vision import outline_kernels
from vision.cards import (
    _ACROSS_SHIFTS,
    _GRID_CORNERS,
    _GRID_S,
    _GRID_T,
    _INSIDE_STEPS,
    _SIDE_STEPS,
    MIN_COVER,
    SIDE_SAMPLES,
    _gradients_and_edges,
)
from vision.compiled import median_of


def _is_set(img: NDArray[np.generic], pts: NDArray[np.float64], offset: NDArray[np.float64],
            px_per_mm: float) -> tuple[NDArray[np.bool_], NDArray[np.intp]]:
    scaled = pts * px_per_mm if px_per_mm != 1.0 else pts
    px = np.rint(scaled - offset).astype(np.intp)
    h, w = img.shape
    inside = (px[:, 0] >= 0) & (px[:, 0] < w) & (px[:, 1] >= 0) & (px[:, 1] < h)
    index = np.where(inside, px[:, 1] * w + px[:, 0], 0)
    return inside, index


def _quads(rng: np.random.Generator, n: int, w: int, h: int) -> NDArray[np.float64]:
    base = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]], float) / 2
    out = np.empty((n, 4, 2))
    for k in range(n):
        angle = rng.uniform(0, np.pi)
        rot = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
        out[k] = (base * rng.uniform(20, 120, 2)) @ rot.T + rng.uniform(0, [w, h])
    return out


@pytest.mark.parametrize("dark_rims", [False, True])
def test_outline_scores_are_the_numpy_ones(dark_rims: bool) -> None:
    rng = np.random.default_rng(5)
    scored = 0
    for trial in range(40):
        h, w = (int(v) for v in rng.integers(60, 240, 2))
        blob = np.zeros((h, w), np.uint8)
        blob[h // 6: 5 * h // 6, w // 5: 4 * w // 5] = 255
        edges = ((rng.random((h, w)) < 0.3) * 255).astype(np.uint8)
        if dark_rims:  # some of the other pixels stand for seams between dark rims
            edges[(edges == 0) & (rng.random((h, w)) < 0.2)] = outline_kernels.SEAM_PIXEL
        gx, gy = (np.round(rng.normal(0, 50, (h, w))).astype(np.int16)  # (whole, as Sobel's)
                  for _ in range(2))
        px_per_mm = float(rng.choice([1.0, 1.5, 1.37]))
        offset = rng.integers(0, 40, 2).astype(np.float64)
        quads = _quads(rng, 30, w, h)
        if trial % 2:
            quads = np.round(quads)  # pixel centres: rounding ties
        for quad in quads[: 20 * (trial % 2)]:  # most of them on the blob, in odd trials
            cv2.fillConvexPoly(blob, np.round(quad).astype(np.int32), 255)
        quads = (quads + offset) / px_per_mm
        # the grid inside each quad
        n = len(quads)
        centres = quads.mean(axis=1, keepdims=True)
        inner = centres + (quads - centres) * 0.9
        a, ab, ad = inner[:, :1], inner[:, 1:2] - inner[:, :1], inner[:, 3:4] - inner[:, :1]
        corners = a + _GRID_S[:, _GRID_CORNERS] * ab + _GRID_T[:, _GRID_CORNERS] * ad
        inside, index = _is_set(blob, corners.reshape(-1, 2), offset, px_per_mm)
        ok = (inside & (blob.ravel()[index] > 0)).reshape(n, 4).sum(axis=1) >= 3
        grid = a + _GRID_S * ab + _GRID_T * ad
        inside, index = _is_set(blob, grid.reshape(-1, 2), offset, px_per_mm)
        cover = (inside & (blob.ravel()[index] > 0)).reshape(n, -1).mean(axis=1)
        ok &= cover >= MIN_COVER
        # the outline
        along = np.roll(quads, -1, axis=1) - quads
        normal = np.stack([along[..., 1], -along[..., 0]], axis=-1)
        normal /= np.linalg.norm(normal, axis=-1, keepdims=True)
        flip = np.sum((quads + along / 2 - centres) * normal, axis=-1, keepdims=True) < 0
        normal = np.where(flip, -normal, normal)
        pts = (quads[:, :, None, :] + _SIDE_STEPS * along[:, :, None, :]).reshape(-1, 2)
        normals = np.repeat(normal.reshape(-1, 2), SIDE_SAMPLES, axis=0)
        inside, index = _is_set(blob, pts + normals * 2.5, offset, px_per_mm)
        outside = ~(inside & (blob.ravel()[index] > 0))
        inside, index = _is_set(edges, pts, offset, px_per_mm)
        on_edge = inside & (edges.ravel()[index] > 0)
        on_seam = on_edge & (edges.ravel()[index] == outline_kernels.SEAM_PIXEL) & dark_rims
        at = pts[None] + normals[None] * (_ACROSS_SHIFTS / px_per_mm)
        inside, index = _is_set(gx, at.reshape(-1, 2), offset, px_per_mm)
        sx = np.where(inside, gx.ravel()[index], 0.0).reshape(3, -1)
        sy = np.where(inside, gy.ravel()[index], 0.0).reshape(3, -1)
        signed = sx * normals[None, :, 0] + sy * normals[None, :, 1]
        across = (np.maximum(signed, 0.0) if dark_rims else np.abs(signed)).max(axis=0)
        step = np.where(outside | on_seam, 1.0, np.minimum(1.0, across / 40.0))
        outline = (outside | on_edge).reshape(n, -1).mean(axis=1)
        strength = 0.75 * step.reshape(n, -1).mean(axis=1) + 0.25 * outside.reshape(
            n, -1).mean(axis=1)
        got_outline, got_strength = outline_kernels.outline_scores(
            quads, offset, px_per_mm, blob, edges, gx, gy, 40.0, _SIDE_STEPS.ravel(),
            _ACROSS_SHIFTS.ravel(), _GRID_S.ravel(), _GRID_T.ravel(),
            np.array(_GRID_CORNERS, np.intp), MIN_COVER, dark_rims)
        scored += int(ok.sum())
        assert got_outline.tobytes() == np.where(ok, outline, 0.0).tobytes()
        assert got_strength.tobytes() == np.where(ok, strength, 0.0).tobytes()
    assert 100 < scored < 40 * 30  # quads on the blob and off it


def test_side_pairs_are_the_strongest_pairs_apart() -> None:
    rng = np.random.default_rng(6)
    for _ in range(300):
        n = int(rng.integers(5, 200))
        hist = np.convolve(rng.integers(0, 4, n) * (rng.random(n) < 0.3), [0.5, 1.0, 0.5],
                           "same").astype(np.float64)
        span, k = int(rng.integers(1, n)), int(rng.integers(0, 7))
        pair = hist[: n - span] + hist[span:]
        pair += np.minimum(hist[: n - span], hist[span:])
        expected: list[int] = []
        taken = np.zeros(len(pair), bool)
        for i in np.argsort(-pair, kind="stable").tolist():
            if pair[i] <= 0 or len(expected) == k:
                break
            if not taken[i]:
                taken[max(0, i - 3): i + 4] = True
                expected.append(i)
        assert outline_kernels._side_pairs(hist, span, k).tolist() == expected


def _outline_inside_numpy(quad: NDArray[np.float64], other: NDArray[np.float64],
                          offset: NDArray[np.float64], px_per_mm: float,
                          edges: NDArray[np.uint8], gx: NDArray[np.int16],
                          gy: NDArray[np.int16]) -> float | None:
    """The share of quad's outline inside `other` on an edge, as numpy arrays (the gradient
    read as float32)."""
    along = np.roll(quad, -1, axis=0) - quad
    normal = np.stack([along[:, 1], -along[:, 0]], axis=1)
    normal /= np.linalg.norm(normal, axis=1, keepdims=True)
    steps = _INSIDE_STEPS[None, :, None]
    pts = (quad[:, None, :] + steps * along[:, None, :]).reshape(-1, 2)
    normals = np.repeat(normal, len(_INSIDE_STEPS), axis=0)
    other_along = np.roll(other, -1, axis=0) - other
    length = np.linalg.norm(other_along, axis=1)
    rel = pts[:, None, :] - other[None, :, :]
    cross = (other_along[None, :, 0] * rel[..., 1] - other_along[None, :, 1] * rel[..., 0])
    cross /= length
    sign = 1.0 if float(np.sum(np.sign(cross.mean(axis=0)))) >= 0 else -1.0
    inside = np.all(sign * cross >= 2.0, axis=1)
    if np.count_nonzero(inside) < 8:
        return None
    pts, normals = pts[inside], normals[inside]
    at = pts[None] + normals[None] * (_ACROSS_SHIFTS / px_per_mm)
    ok, index = _is_set(gx, at.reshape(-1, 2), offset, px_per_mm)
    sx = np.where(ok, gx.ravel()[index].astype(np.float32), 0.0).reshape(3, -1)
    sy = np.where(ok, gy.ravel()[index].astype(np.float32), 0.0).reshape(3, -1)
    across = np.abs(sx * normals[None, :, 0] + sy * normals[None, :, 1])
    aligned = ((across >= 0.85 * np.hypot(sx, sy)) & (across > 0)).any(axis=0)
    ok, index = _is_set(edges, pts, offset, px_per_mm)
    return float(np.mean(ok & (edges.ravel()[index] > 0) & aligned))


def test_outline_inside_is_the_numpy_one() -> None:
    rng = np.random.default_rng(8)
    for trial in range(200):
        h, w = (int(v) for v in rng.integers(60, 240, 2))
        edges = ((rng.random((h, w)) < 0.4) * 255).astype(np.uint8)
        gx, gy = (np.round(rng.normal(0, 50, (h, w))).astype(np.int16)  # (whole, as Sobel's)
                  for _ in range(2))
        if trial % 4 == 0:
            gy[:] = 0  # gradients all across one axis: the 0.85 limit exactly
        px_per_mm = float(rng.choice([1.0, 1.5, 1.37]))
        offset = rng.integers(0, 40, 2).astype(np.float64)
        quad, other = ((q + offset) / px_per_mm for q in _quads(rng, 2, w, h))
        if trial % 3 == 0:
            other = other[::-1].copy()  # the other way round
        expected = _outline_inside_numpy(quad, other, offset, px_per_mm, edges, gx, gy)
        got = outline_kernels.outline_inside(quad, other, _INSIDE_STEPS, _ACROSS_SHIFTS.ravel(),
                                             2.0, offset, px_per_mm, edges, gx, gy)
        assert got == expected


def test_refine_moves_and_turns_a_rectangle_onto_its_edges() -> None:
    true = np.array([[40.0, 30.0], [103.0, 30.0], [103.0, 118.0], [40.0, 118.0]])
    turn = np.radians(3.0)
    rot = np.array([[np.cos(turn), -np.sin(turn)], [np.sin(turn), np.cos(turn)]])
    centre = true.mean(axis=0)
    true = (true - centre) @ rot.T + centre
    # each side drawn with its own label; the gradient's angle there is the side's normal
    labels = np.zeros((160, 150), np.uint8)
    for i, (a, b) in enumerate(zip(true, np.roll(true, -1, axis=0), strict=True)):
        cv2.line(labels, tuple(np.round(a).astype(int)), tuple(np.round(b).astype(int)), i + 1)
    ys, xs = np.nonzero(labels)
    along = np.roll(true, -1, axis=0) - true
    normal = (np.arctan2(along[:, 1], along[:, 0]) + np.pi / 2)[labels[ys, xs] - 1]
    # a candidate a couple of pixels off, and turned back by the 3 degrees
    start = true + np.array([2.0, -1.5])
    start = (start - start.mean(axis=0)) @ rot + start.mean(axis=0)
    got = outline_kernels.refine(start[None], xs.astype(np.float64), ys.astype(np.float64),
                                 normal, 2)[0]
    assert np.abs(got - true).max() < 0.8
    lonely = outline_kernels.refine(start[None] + 200, xs.astype(np.float64),
                                    ys.astype(np.float64), normal, 2)[0]
    assert np.array_equal(lonely, start + 200)  # too few edges near it: left as it was



def test_refine_of_a_dark_rimmed_card_takes_only_the_steps_that_rise_outward() -> None:
    # A card with a dark rim on the mat: its outline is a step up to the mat, its face a
    # rim's width (3 px) inside a step down to the rim. A candidate 2 px off has both within
    # reach of a side; moved onto both alike it stays 0.75 px off, onto the steps that rise
    # outward it lands on the outline.
    true = np.array([[40.0, 30.0], [103.0, 30.0], [103.0, 118.0], [40.0, 118.0]])
    face = true + np.array([[3.0, 3.0], [-3.0, 3.0], [-3.0, -3.0], [3.0, -3.0]])
    labels = np.zeros((160, 150), np.uint8)
    for first, quad in ((1, true), (5, face)):
        for i, (a, b) in enumerate(zip(quad, np.roll(quad, -1, axis=0), strict=True)):
            cv2.line(labels, tuple(np.round(a).astype(int)), tuple(np.round(b).astype(int)),
                     first + i)
    ys, xs = np.nonzero(labels)
    along = np.roll(true, -1, axis=0) - true
    inward = np.arctan2(along[:, 1], along[:, 0]) + np.pi / 2  # (the grey rises inward)
    side = (labels[ys, xs] - 1) % 4
    normal = np.where(labels[ys, xs] >= 5, inward[side], inward[side] - np.pi)
    for shift in ([2.0, 0.0], [-2.0, 1.5], [0.0, -2.0]):
        start = true + np.array(shift)
        both = outline_kernels.refine(start[None], xs.astype(np.float64),
                                      ys.astype(np.float64), normal, 2)[0]
        rising = outline_kernels.refine(start[None], xs.astype(np.float64),
                                        ys.astype(np.float64), normal, 2, rising_out=True)[0]
        assert np.abs(both - true).max() > 0.5
        assert np.abs(rising - true).max() < 0.1

def _candidate_rects_numpy(xs: NDArray[np.intp], ys: NDArray[np.intp],
                           normal: NDArray[np.float32], thetas: NDArray[np.float64],
                           card_px: tuple[float, float], per_axis: int) -> NDArray[np.float64]:
    """The rectangles the edge votes give, as numpy arrays."""
    found = []
    for theta in thetas.tolist():
        c, s = math.cos(theta), math.sin(theta)
        u, v = xs * c + ys * s, -xs * s + ys * c
        rel = normal - theta
        along_u, along_v = np.abs(np.sin(rel)) < 0.17, np.abs(np.cos(rel)) < 0.17
        votes = []
        for pos, along in ((u, along_u), (v, along_v)):
            n = int(pos.max() - pos.min()) + 2
            hist = np.bincount(np.rint(pos[along] - pos.min()).astype(int), minlength=n)
            votes.append(np.convolve(hist[:n].astype(np.float64), [0.5, 1.0, 0.5], "same"))
        for su, sv in (card_px, card_px[::-1]):
            starts = []
            for hist, side, low in ((votes[0], su, u.min()), (votes[1], sv, v.min())):
                span = round(side)
                pairs = outline_kernels._side_pairs(hist, span, per_axis).tolist() if len(
                    hist) > span else []
                starts.append(np.array([i + (side - span) / 2 for i in pairs]) + low)
            if len(starts[0]) == 0 or len(starts[1]) == 0:
                continue
            uu, vv = np.repeat(starts[0], len(starts[1])), np.tile(starts[1], len(starts[0]))
            rect_u = np.stack([uu, uu + su, uu + su, uu], axis=1)
            rect_v = np.stack([vv, vv, vv + sv, vv + sv], axis=1)
            found.append(np.stack([rect_u * c - rect_v * s, rect_u * s + rect_v * c], axis=2))
    return np.concatenate(found) if found else np.zeros((0, 4, 2))


def test_candidate_rects_are_the_numpy_ones() -> None:
    rng = np.random.default_rng(9)
    for _ in range(40):
        n = int(rng.integers(10, 3000))
        ys, xs = np.sort(rng.integers(0, 300, n)), rng.integers(0, 400, n)
        normal = rng.uniform(-np.pi, np.pi, n).astype(np.float32)
        normal[: n // 2] = np.round(normal[: n // 2] / (np.pi / 2)) * (np.pi / 2)  # along axes
        thetas = rng.uniform(0, np.pi / 2, int(rng.integers(1, 4)))
        card_px = (float(rng.uniform(20, 90)), float(rng.uniform(40, 130)))
        per_axis = int(rng.integers(1, 7))
        expected = _candidate_rects_numpy(xs, ys, normal, thetas, card_px, per_axis)
        got = outline_kernels.candidate_rects(xs, ys, normal, thetas, card_px, per_axis)
        assert got.tobytes() == expected.tobytes()


def test_direction_histogram_is_numpys() -> None:
    rng = np.random.default_rng(10)
    for _ in range(20):
        normal = rng.uniform(-np.pi, np.pi, 5000).astype(np.float32)
        # right on and next to the multiples of 90 degrees, where the remainder turns over
        turns = (rng.integers(-2, 3, 1000) * (np.pi / 2)).astype(np.float32)
        normal[:1000] = turns
        normal[1000:2000] = np.nextafter(turns, np.float32(-4))
        normal[2000:3000] = np.nextafter(turns, np.float32(4))
        normal[3000] = np.float32(np.pi)
        expected = np.bincount(np.floor(np.degrees(normal) % 90.0).astype(int) % 90,
                               minlength=90).astype(np.float64)
        assert np.array_equal(outline_kernels.direction_histogram(normal), expected)


def test_median_and_quarter_turn_mod_are_numpys_and_pythons() -> None:
    rng = np.random.default_rng(11)
    for count in (1, 2, 3, 4, 7, 50, 51, 400):
        for trial in range(30):
            values = rng.normal(0, 3, count + 5).astype(np.float32 if trial % 2 else np.float64)
            if count > 3:
                values[: count // 2] = np.round(values[: count // 2])  # ties
            expected = float(np.median(values[:count]))
            assert median_of(values.copy(), count) == expected
    quarter = np.pi / 2
    turns = rng.integers(-4, 5, 3000) * quarter
    angles = np.concatenate([rng.uniform(-4.9 * quarter, 4.9 * quarter, 3000), turns,
                             np.nextafter(turns, np.inf), np.nextafter(turns, -np.inf)])
    for angle in angles.tolist():
        assert outline_kernels._quarter_turn_mod(angle) == angle % quarter


def test_histogram_and_edge_pixels_are_numpys() -> None:
    rng = np.random.default_rng(13)
    for _ in range(20):
        h, w = (int(v) for v in rng.integers(1, 120, 2))
        image = rng.integers(0, 256, (h, w)).astype(np.uint8)
        mask = np.where(rng.random((h, w)) < 0.3, 255, 0).astype(np.uint8)
        expected = np.bincount(image[mask > 0], minlength=256)
        under, off = outline_kernels.histograms_split(image, mask)
        assert np.array_equal(under, expected)
        assert np.array_equal(off, np.bincount(image[mask == 0], minlength=256))
        gx, gy = (np.round(rng.normal(0, 50, (h, w))).astype(np.int16)  # (whole, as Sobel's)
                  for _ in range(2))
        xs, ys, on_gx, on_gy = outline_kernels.edge_pixels(mask, gx, gy)
        want_y, want_x = np.nonzero(mask)
        assert np.array_equal(xs, want_x) and np.array_equal(ys, want_y)
        assert np.array_equal(on_gx, gx[mask > 0]) and np.array_equal(on_gy, gy[mask > 0])
        # the fit's strength of an edge: OpenCV's magnitude of the gradient at the edge
        # pixels alone, the same as over the whole image for a Sobel gradient of grey levels
        # (whole numbers: OpenCV's vector and scalar paths then agree)
        sobel_x, sobel_y = (rng.integers(-1020, 1021, (h, w)).astype(np.int16)
                            for _ in range(2))
        _, _, on_x, on_y = outline_kernels.edge_pixels(mask, sobel_x, sobel_y)
        if len(xs):
            assert np.array_equal(cv2.magnitude(on_x, on_y).ravel(),
                                  cv2.magnitude(sobel_x.astype(np.float32),
                                                sobel_y.astype(np.float32))[mask > 0])


def test_gradients_and_edges_are_opencvs_sobel_and_canny() -> None:
    rng = np.random.default_rng(17)
    shapes = [(1, 1), (1, 9), (9, 1), (2, 2), (3, 5)] + [
        tuple(int(v) for v in rng.integers(2, 90, 2)) for _ in range(30)]
    for h, w in shapes:
        image = cv2.GaussianBlur(rng.integers(0, 256, (h, w)).astype(np.uint8), (0, 0), 1.5)
        gx, gy, edges = _gradients_and_edges(image, 10.0, 25.0)
        assert gx.dtype == gy.dtype == np.int16
        assert np.array_equal(gx, cv2.Sobel(image, cv2.CV_16S, 1, 0, ksize=3))
        assert np.array_equal(gy, cv2.Sobel(image, cv2.CV_16S, 0, 1, ksize=3))
        assert np.array_equal(edges, cv2.Canny(image, 10.0, 25.0))


def _distinct_numpy(quads: NDArray[np.float64], px_per_mm: float) -> NDArray[np.float64]:
    centre = quads.mean(axis=1)
    side = quads[:, 1] - quads[:, 0]
    angle = np.degrees(np.arctan2(side[:, 1], side[:, 0])) % 90.0
    cell = np.rint(centre / max(1.0, px_per_mm)).astype(np.int64)
    cell -= cell.min(axis=0)
    rows = int(cell[:, 1].max()) + 1
    key = (cell[:, 0] * rows + cell[:, 1]) * 90 + (np.rint(angle) % 90).astype(np.int64)
    _, first = np.unique(key, return_index=True)
    return quads[np.sort(first)]


def test_distinct_keeps_the_first_of_each_place_and_angle() -> None:
    rng = np.random.default_rng(14)
    for trial in range(60):
        quads = _quads(rng, int(rng.integers(2, 200)), 300, 200)
        repeats = rng.integers(0, len(quads), len(quads) // 2)
        # the same card a fraction of a pixel and of a degree off, and exact repeats
        nudged = quads[repeats] + rng.uniform(-0.3, 0.3, (len(repeats), 1, 2))
        quads = np.concatenate([quads, nudged, quads[repeats[:5]]])[rng.permutation(
            len(quads) + len(repeats) + min(5, len(repeats)))]
        px_per_mm = (0.5, 1.0, 1.5)[trial % 3]
        expected = _distinct_numpy(quads, px_per_mm)
        assert outline_kernels.distinct(quads, px_per_mm).tobytes() == expected.tobytes()
    one = _quads(rng, 1, 300, 200)
    assert outline_kernels.distinct(one, 1.0).tobytes() == one.tobytes()


def _anchored_numpy(poly: NDArray[np.float64], card_mm: tuple[float, float],
                    px_per_mm: float, offset: NDArray[np.float64]) -> NDArray[np.float64]:
    """The anchors as the numpy code found them (its BLAS dot products included)."""
    n = len(poly)
    along = np.concatenate([poly[1:], poly[:1]]) - poly
    lengths = [math.sqrt(float(v.dot(v))) for v in along]
    long_sides = [i for i in range(n) if lengths[i] >= 0.45 * card_mm[0]]
    unit = {i: along[i] / lengths[i] for i in long_sides}
    corners = [(x, y) for x, y in poly.tolist()]
    found = []
    for i in long_sides:
        dx, dy = unit[i].tolist()
        found += [(corners[i], (dx, dy), (-dy, dx)), (corners[(i + 1) % n], (-dx, -dy), (-dy, dx))]

    def turned(v: tuple[float, float], angle: float) -> tuple[float, float]:
        c, s = math.cos(angle), math.sin(angle)
        return (c * v[0] - s * v[1], s * v[0] + c * v[1])

    for k, i in enumerate(long_sides):
        j = long_sides[(k + 1) % len(long_sides)]
        if sum(lengths[m % n] for m in range(i + 1, i + 1 + (j - i - 1) % n)) > 0.2 * card_mm[0]:
            continue
        (x1, y1), (x2, y2) = corners[i], corners[j]
        (d1x, d1y), (d2x, d2y) = unit[i].tolist(), unit[j].tolist()
        cross = d1x * d2y - d1y * d2x
        if abs(float(unit[i] @ unit[j])) > math.sin(math.radians(12)) or cross <= 0:
            continue
        t = ((x2 - x1) * d2y - (y2 - y1) * d2x) / cross
        a = (-d1x, -d1y)
        err = math.atan2(d2y, d2x) - math.atan2(a[1], a[0]) + math.pi / 2
        a = turned(a, ((err + math.pi) % (2 * math.pi) - math.pi) / 2)
        found.append(((x1 + t * d1x, y1 + t * d1y), a, turned(a, -math.pi / 2)))
    if not found:
        return np.zeros((0, 4, 2))
    corner, a, b = (np.array(v)[:, None, :] for v in zip(*found, strict=True))
    la = np.array([card_mm[0], card_mm[1]])[None, :, None]
    lb = np.array([card_mm[1], card_mm[0]])[None, :, None]
    starts = np.stack([corner + 0 * la, corner + a * la, corner + a * la + b * lb,
                       corner + b * lb], axis=2).reshape(-1, 4, 2)
    out: NDArray[np.float64] = starts * px_per_mm - offset
    return out


def test_anchored_quads_are_the_numpy_ones() -> None:
    rng = np.random.default_rng(15)
    card_mm = (63.0, 88.0)
    for trial in range(200):
        # the outline of a few overlapping cards, as a blob's contour
        canvas = np.zeros((400, 400), np.uint8)
        for quad in _quads(rng, int(rng.integers(1, 4)), 250, 250):
            scale = np.array(card_mm) / np.ptp(quad, axis=0).max() if trial % 2 else 1.0
            cv2.fillConvexPoly(canvas, np.round(quad * scale + 60).astype(np.int32), 255)
        contours, _ = cv2.findContours(canvas, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
        contour = max(contours, key=cv2.contourArea)
        poly = cv2.approxPolyDP(contour, 1.5, True).reshape(-1, 2).astype(np.float64)
        if cv2.contourArea(poly.astype(np.float32), oriented=True) < 0:
            poly = poly[::-1]
        px_per_mm = (1.0, 1.5)[trial % 2]
        offset = rng.integers(0, 40, 2).astype(np.float64)
        expected = _anchored_numpy(poly, card_mm, px_per_mm, offset)
        got = outline_kernels.anchored_quads(poly, card_mm, px_per_mm, offset)
        assert got.tobytes() == expected.tobytes()


def _card(centre: NDArray[np.float64], angle: float) -> NDArray[np.float64]:
    c, s = math.cos(angle), math.sin(angle)
    local = np.array([[-31.5, -44.0], [31.5, -44.0], [31.5, 44.0], [-31.5, 44.0]])
    out: NDArray[np.float64] = local @ np.array([[c, -s], [s, c]]).T + centre
    return out


def test_overlap_area_is_opencvs() -> None:
    rng = np.random.default_rng(15)
    for _ in range(500):
        a = _card(rng.uniform(0, 120, 2), rng.uniform(0, np.pi))
        b = _card(a.mean(axis=0) + rng.normal(0, 40, 2), rng.uniform(0, np.pi))
        if rng.random() < 0.5:
            b = b[::-1].copy()  # either way round
        area, _ = cv2.intersectConvexConvex(a.astype(np.float32), b.astype(np.float32))
        assert abs(outline_kernels._overlap_area(a, b) - area) < 0.01


def test_overlap_area_of_tiles_touching_along_one_line() -> None:
    # sides along one line, a thousandth of a mm apart: OpenCV's float32 intersection says
    # 150 or 600 for 300 in 33 of these 20,000
    rng = np.random.default_rng(2)
    tile = np.array([[-10.0, -15.0], [10.0, -15.0], [10.0, 15.0], [-10.0, 15.0]])

    def laid(shift: float, angle: float) -> NDArray[np.float64]:
        turn = np.array([[math.cos(angle), -math.sin(angle)], [math.sin(angle), math.cos(angle)]])
        out: NDArray[np.float64] = (tile + [shift, 0.0]) @ turn.T + 300.0
        return out

    for _ in range(20000):
        angle = rng.uniform(0.0, np.pi)
        shift, shared = [(0.0, 600.0), (5.0, 450.0), (10.0, 300.0), (20.0, 0.0)][rng.integers(4)]
        a = laid(0.0, angle)
        b = laid(shift + rng.normal(0.0, 1e-3), angle + rng.normal(0.0, 1e-4))
        assert outline_kernels.overlap_area(a, b) == pytest.approx(shared, abs=0.2)
        assert outline_kernels.overlap_area(b, a[::-1]) == pytest.approx(shared, abs=0.2)


def _choose_python(quads: NDArray[np.float64], score: NDArray[np.float64],
                   ranked: NDArray[np.intp]) -> tuple[list[int], list[list[int]], list[int]]:
    """The choice of cards, rivals and extras written out in Python, with OpenCV's areas."""
    centres, area = quads.mean(axis=1), 63.0 * 88.0

    def overlap(k: int, j: int) -> float:
        return float(cv2.intersectConvexConvex(quads[k].astype(np.float32),
                                               quads[j].astype(np.float32))[0])

    accepted: list[int] = []
    clear = np.ones(len(quads), bool)
    for k in ranked.tolist():
        if score[k] < 0.8:
            break
        if clear[k] and all(overlap(k, j) < 0.15 * area for j in accepted):
            accepted.append(k)
            clear &= np.hypot(*(centres - centres[k]).T) >= 0.5 * 63.0
    rivals: list[list[int]] = [[] for _ in accepted]
    top = ranked[:60].tolist()
    for k in top:
        if score[k] < 0.7:
            break
        if not any(np.hypot(*(centres[k] - centres[j])) <= 44.0 for j in accepted):
            continue
        shares = [overlap(k, j) / area for j in accepted]
        mine = [i for i, share in enumerate(shares) if share > 0.5]
        if len(mine) != 1:
            continue
        seen = [accepted[mine[0]], *rivals[mine[0]]]
        if len(seen) < 4 and all(np.hypot(*(centres[k] - centres[j])) > 3 for j in seen):
            rivals[mine[0]].append(k)
    extras: list[int] = []
    for k in top:
        if score[k] < 0.6 or len(extras) == 6:
            break
        if clear[k] and all(np.hypot(*(centres[k] - centres[e])) > 0.3 * 63.0 for e in extras):
            extras.append(k)
    return accepted, rivals, extras


def test_choose_is_the_choice_written_out() -> None:
    rng = np.random.default_rng(16)
    for _ in range(60):
        # a few cards, each found again and again a few mm and degrees off, and strays
        cards = [(rng.uniform(0, 200, 2), rng.uniform(0, np.pi)) for _ in range(3)]
        quads = np.array([_card(c + rng.normal(0, 2.5, 2), a + rng.normal(0, 0.04))
                          for c, a in cards for _ in range(12)]
                         + [_card(rng.uniform(0, 200, 2), rng.uniform(0, np.pi))
                            for _ in range(10)])
        score = rng.uniform(0.5, 1.0, len(quads))
        ranked = np.argsort(-np.where(score >= 0.8, rng.random(len(quads)), -1.0),
                            kind="stable")
        accepted, rivals, extras = outline_kernels.choose(
            quads, quads.mean(axis=1), score, ranked, (63.0, 88.0), 0.8, 0.15, 0.7, 0.6, 60, 6)
        want_accepted, want_rivals, want_extras = _choose_python(quads, score, ranked)
        assert accepted.tolist() == want_accepted and extras.tolist() == want_extras
        assert [[r for r in row if r >= 0] for row in rivals.tolist()] == want_rivals


def _tile(centre: tuple[float, float], angle_deg: float) -> NDArray[np.float64]:
    """A 20 x 30 mm tile's corners (mm), turned clockwise by angle_deg."""
    a = math.radians(angle_deg)
    local = np.array([[-10.0, -15.0], [10.0, -15.0], [10.0, 15.0], [-10.0, 15.0]])
    out: NDArray[np.float64] = local @ np.array([[math.cos(a), -math.sin(a)],
                                                 [math.sin(a), math.cos(a)]]).T + centre
    return out


def test_touching_tiles_whose_outlines_overlap_by_a_strip_are_both_cards() -> None:
    # two tiles side by side, each outline 1.6 mm over the seam between them (a 3.2 mm
    # strip, 16 % of a tile), a phantom across the seam, and a tile turned across them
    quads = np.array([_tile((100.0, 100.0), 0.0), _tile((116.8, 100.0), 2.0),
                      _tile((108.4, 100.0), 0.0), _tile((116.8, 104.0), 90.0)])
    score = np.array([1.0, 0.95, 0.9, 0.85])
    ranked = np.arange(4)

    def cards(touching: tuple[float, float]) -> list[int]:
        accepted, _, _ = outline_kernels.choose(quads, quads.mean(axis=1), score, ranked,
                                                (20.0, 30.0), 0.8, 0.15, 0.7, 0.6, 60, 6,
                                                touching)
        return sorted(accepted.tolist())

    assert cards((4.0, 8.0)) == [0, 1]
    assert cards((0.0, 0.0)) == [0]  # (a card's outline keeps the overlap limit)
    assert cards((3.0, 8.0)) == [0]  # the strip deeper than allowed
    assert cards((4.0, 1.0)) == [0]  # turned more than allowed


def test_an_outline_lying_over_other_cards_is_a_rival_of_the_card_it_covers_most() -> None:
    # a row of three tiles and a tile laid across the middle one, turned 20 degrees: the
    # row's outlines come first, so that of the tile across them (it overlaps them by more
    # than the limit) is refused, and a phantom turned a quarter about it is taken; the
    # tile's own outline is that phantom's rival, for the reader to name
    row = [_tile((80.0 + 20.0 * i, 100.0), 0.0) for i in range(3)]
    quads = np.array([*row, _tile((100.0, 120.0), 20.0), _tile((100.0, 125.0), 110.0)])
    score = np.array([1.0, 1.0, 1.0, 1.0, 0.9])
    accepted, rivals, _ = outline_kernels.choose(quads, quads.mean(axis=1), score,
                                                 np.arange(5), (20.0, 30.0), 0.8, 0.15, 0.7,
                                                 0.6, 60, 6)
    assert accepted.tolist() == [0, 1, 2, 4]
    assert rivals[3].tolist() == [3, -1, -1]


def test_percentiles_from_the_histogram_are_numpys() -> None:
    rng = np.random.default_rng(3)
    for n in (1, 2, 3, 7, 20, 21, 500, 4001):
        for _ in range(20):
            low, high = sorted(rng.integers(0, 256, 2))
            values = rng.integers(low, high + 1, n).astype(np.uint8)
            counts = np.bincount(values, minlength=256)
            expected = list(np.percentile(values, [5, 95]))
            assert outline_kernels.percentiles_of_counts(counts, (5, 95)) == expected


def test_centres_are_numpys_means() -> None:
    rng = np.random.default_rng(21)
    for n in (1, 2, 17):
        quads = rng.uniform(-300, 900, (n, 4, 2))
        assert np.array_equal(outline_kernels.centres(quads), quads.mean(axis=1))


def test_promising_candidates_are_the_strong_ones_not_yet_well_placed_strongest_first() -> None:
    rng = np.random.default_rng(22)
    for _ in range(50):
        n = int(rng.integers(1, 40))
        strength = np.round(rng.uniform(0, 1, n), 1)  # ties: the first of equals comes first
        outline = rng.uniform(0.5, 1, n)
        expected = [k for k in np.argsort(-strength, kind="stable").tolist()
                    if strength[k] >= 0.5 and outline[k] < 0.97]
        assert outline_kernels.promising(strength, outline, 0.5, 0.97).tolist() == expected


def test_card_frames_are_the_cards_from_axes_builds() -> None:
    from vision.cards import CardQuad

    rng = np.random.default_rng(23)
    card_mm = (56.3, 87.3)
    quads = rng.uniform(0, 500, (40, 4, 2))
    quads[::5, 1, 1] = quads[::5, 0, 1]  # sides along the axes too
    corners, centres, angles = outline_kernels.card_frames(quads, card_mm)
    for k, quad in enumerate(quads.tolist()):
        (x0, y0), (x1, y1), (x2, y2), (x3, y3) = quad
        side_a, side_b = (x1 - x0, y1 - y0), (x3 - x0, y3 - y0)
        longer = side_a if np.linalg.norm(side_a) > np.linalg.norm(side_b) else side_b
        centre = ((((x0 + x1) + x2) + x3) / 4, (((y0 + y1) + y2) + y3) / 4)
        card = CardQuad.from_axes(centre, longer, card_mm)
        assert corners[k].tolist() == [list(c) for c in card.corners_mm]
        assert centres[k].tolist() == list(card.center_mm)
        assert angles[k] == card.angle_deg
