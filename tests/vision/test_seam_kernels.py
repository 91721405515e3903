"""The compiled seam loops on profiles drawn by hand (that they give the numpy steps' very
outlines is test_tile_rows' recorded calls)."""

from __future__ import annotations

import math

import numpy as np

from vision.seam_kernels import (
    arange,
    column_quantiles,
    gap_pairs,
    layout_matrices,
    linspace,
    neighbours,
    profile_medians,
    seam_in,
)
from vision.tile_rows import ASKEW, MAX_GAP, MIN_DIP, NEIGHBOUR, RIM, TURNED_DEG, _shifts


def test_a_seam_is_the_vertex_of_the_deepest_dip() -> None:
    profile = np.full(40, 200.0)
    profile[19:22] = (150.0, 100.0, 130.0)
    # the parabola through the three darkest samples bottoms out 0.125 past the darkest
    assert seam_in(profile, 10, 30, 200.0, 5, MIN_DIP, RIM) == 20.125
    # not within the samples searched, too shallow, or nothing beside it as bright as a tile
    assert math.isnan(seam_in(profile, 22, 30, 200.0, 5, MIN_DIP, RIM))
    assert math.isnan(seam_in(np.full(40, 200.0) - (np.arange(40) == 20) * 10, 10, 30, 200.0,
                              5, MIN_DIP, RIM))
    assert math.isnan(seam_in(profile, 10, 30, 400.0, 5, MIN_DIP, RIM))


def test_a_tile_moves_to_the_middle_of_its_edges() -> None:
    # a 20 mm side: 69 samples half a mm apart, the outline's edges at samples 14 and 54
    free = np.full((1, 69), 60.0)
    free[0, 16:56] = 200.0  # the tile 1.5 samples further on, the mat either side
    assert _shifts(free, 20.0, np.array([[False, False]])).tolist() == [0.75]
    seams = np.full((1, 69), 200.0)
    seams[0, [16, 56]] = 90.0  # between two neighbours, the seams 2 samples further on
    assert _shifts(seams, 20.0, np.array([[True, True]])).tolist() == [1.0]
    # one edge shows: the tile moves by it alone; none: it stays
    one = seams.copy()
    one[0, 56] = 200.0
    assert _shifts(one, 20.0, np.array([[True, True]])).tolist() == [1.0]
    assert _shifts(np.full((1, 69), 200.0), 20.0, np.array([[True, False]])).tolist() == [0.0]


def test_the_quantile_of_each_column_is_numpys() -> None:
    rng = np.random.default_rng(3)
    for count in (1, 2, 3, 4, 5, 8, 77, 100, 101, 160):
        for levels in ((0, 256), (120, 124), (255, 256)):
            lines = rng.integers(*levels, (count, 20), np.uint8)
            for q in (0.0, 0.1, 0.5, 0.75, 0.9, 1.0):
                assert np.array_equal(column_quantiles(lines.copy(), q),
                                      np.quantile(lines.astype(np.float64), q, axis=0))


def test_the_median_across_the_lines_is_numpys() -> None:
    rng = np.random.default_rng(4)
    for rows in ((1, 1), (3, 5), (9, 13), (15, 9)):
        for levels in ((0, 256), (120, 124), (255, 256)):
            # two tiles: lines of 10 samples along the short axis, of 12 along the long one
            short = rng.integers(*levels, (2, rows[0], 10), np.uint8)
            long = rng.integers(*levels, (2, rows[1], 12), np.uint8)
            strip = np.concatenate([short.reshape(2, -1), long.reshape(2, -1)], axis=1)
            got = profile_medians(strip, np.array([10, 12]), np.array(rows))
            assert np.array_equal(got[0], np.median(short.astype(np.float64), axis=1))
            assert np.array_equal(got[1], np.median(long.astype(np.float64), axis=1))


def test_the_samples_are_numpys_arange_and_linspace() -> None:
    for side in (20.0, 30.0, 19.999999999999996, 30.000000000000018, 29.999999999999993):
        reach = side / 2 + 7.0
        assert np.array_equal(arange(-reach, reach + 0.25, 0.5),
                              np.arange(-reach, reach + 0.25, 0.5))
        for rows in (3, 9, 13):
            assert np.array_equal(linspace(-0.4 * side, 0.4 * side, rows),
                                  np.linspace(-0.4 * side, 0.4 * side, rows))


def test_neighbours_are_numpys_whole_matrix_steps() -> None:
    rng = np.random.default_rng(5)
    limits = np.array([*NEIGHBOUR, ASKEW, TURNED_DEG])
    for n in (1, 2, 5, 9):
        along = rng.choice([-2.0, -1.0, -0.9, -0.5, 0.0, 0.5, 1.0, 1.3, 2.0], (n, n))
        off, turned = rng.uniform(0.0, 0.5, (n, n)), rng.uniform(0.0, 12.0, (n, n))
        beside = ((off <= ASKEW) & (NEIGHBOUR[0] <= np.abs(along))
                  & (np.abs(along) <= NEIGHBOUR[1]) & (turned <= TURNED_DEG))
        expected = np.stack([(beside & (along < 0)).any(axis=1),
                             (beside & (along > 0)).any(axis=1)], axis=1)
        assert np.array_equal(neighbours(along, off, turned, limits), expected)


def test_gap_pairs_are_numpys_whole_matrix_steps() -> None:
    rng = np.random.default_rng(6)
    limits = np.array([*NEIGHBOUR, ASKEW, TURNED_DEG])
    for n in (1, 3, 6, 10):
        # whole and half numbers of sides (numpy rounds a half to even), and between
        along = rng.choice([-3.0, -2.0, 0.0, 1.0, 1.6, 2.0, 2.5, 3.0, 3.5, 3.8, 4.0, 5.0], (n, n))
        off, turned = rng.uniform(0.0, 0.5, (n, n)), rng.uniform(0.0, 12.0, (n, n))
        steps = np.minimum(np.maximum(np.round(along), 2), MAX_GAP + 1)
        pairs = np.argwhere((steps * NEIGHBOUR[0] <= along) & (along <= steps * NEIGHBOUR[1])
                            & (off <= ASKEW) & (turned <= TURNED_DEG))
        expected = [(i, j, int(steps[i, j]) - 1) for i, j in pairs.tolist()]
        assert gap_pairs(along, off, turned, MAX_GAP, limits) == expected


def test_layout_matrices_are_numpys_whole_matrix_steps() -> None:
    rng = np.random.default_rng(7)
    for n in (1, 2, 7):
        centres = rng.uniform(0.0, 400.0, (n, 2))
        angles = rng.choice([-90.0, -45.5, 0.0, 1.25, 88.0, 90.0], n)
        theta = np.radians(angles)
        short = np.stack([np.cos(theta), np.sin(theta)], axis=1)
        long = np.stack([-short[:, 1], short[:, 0]], axis=1)
        apart = centres[None, :, :] - centres[:, None, :]
        turned = np.abs((angles[None, :] - angles[:, None] + 90) % 180 - 90)
        expected = (np.einsum("ijc,ic->ij", apart, short) / 20.0,
                    np.einsum("ijc,ic->ij", apart, long) / 30.0, turned,
                    np.abs(turned - 90) <= TURNED_DEG)
        got = layout_matrices(centres, short, long, 20.0, 30.0, angles, TURNED_DEG)
        assert all(np.array_equal(a, b) for a, b in zip(got, expected, strict=True))
